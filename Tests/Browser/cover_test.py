"""Albums by their covers: every row of the album list shows its album's
cover (a folder, its albums' covers), a person chooses a cover from a
photo's menu or, by finger, from the selection bar, and gives the album
its first photo back from the album menu; axe-core audits the list with
its covers.

Run by scripts/browser-tests.
"""

import json
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from page_session import PHOTOS, SIZES, PageSession

#: Where each row's cover images point, and whether they were drawn.
COVERS = """
return [...document.querySelectorAll('#album-list li[data-key]')].map((row) => ({
  key: row.dataset.key,
  photos: [...row.querySelectorAll('.covers img')].map((image) => Number(image.getAttribute('src').match(/photos\\/(\\d+)\\//)[1])),
  drawn: [...row.querySelectorAll('.covers img')].every((image) => image.complete && image.naturalWidth > 0),
  box: row.querySelector('.covers').getBoundingClientRect().width,
}));
"""


class Covers:
    """The tests; mixed with PageSession once per size below."""

    def prepare(self):
        self.cli("folder", "create", "Travel")
        self.cli("album", "create", "Lisbon", "--into", "Travel")
        self.cli("album", "create", "Porto", "--into", "Travel")
        self.cli("import", str(PHOTOS / "11-forest.jpg"), "--to", "Lisbon")
        self.cli("import", str(PHOTOS / "10-meadow.webp"), "--to", "Porto")

    def cover(self, album):
        return json.loads(self.cli("--json", "album", "cover", album))["cover"]

    def photo_at(self, album, position):
        return json.loads(self.cli("--json", "list", album))["items"][position - 1]["photo_id"]

    def rows(self):
        return {row["key"]: row for row in self.driver.execute_script(COVERS)}

    def show_album_list(self):
        button = self.driver.find_element(By.ID, "albums-button")
        if button.is_displayed() and button.get_attribute("aria-expanded") != "true":
            self.tap(button)
            self.until(lambda: self.driver.find_element(By.CSS_SELECTOR, "nav").rect["x"] >= 0, "the drawer to open")
            time.sleep(0.3)  # its slide

    def test_the_list_shows_covers_and_a_photo_becomes_the_cover(self):
        self.show_album_list()
        first, third = self.photo_at("Trip", 1), self.photo_at("Trip", 3)
        self.until(lambda: all(row["drawn"] for row in self.rows().values()), "every cover to be drawn")
        rows = self.rows()
        self.assertEqual(rows["album:Trip"]["photos"], [first])
        self.assertEqual(rows["album:Book"]["photos"], [], "an empty album shows an empty square")
        travel = next(key for key in rows if key.startswith("folder:"))
        self.assertEqual(rows[travel]["photos"], [self.photo_at("Lisbon", 1), self.photo_at("Porto", 1)])
        self.assertGreaterEqual(rows["album:Trip"]["box"], 36, "a cover big enough to recognise")
        self.screenshot(f"covers-{self.SIZE}-list")
        self.audit("the album list with its covers")
        if SIZES[self.SIZE][2]:
            self.driver.find_element(By.ID, "close-drawer").click()

        # The third photo of Trip becomes its cover: a photo's menu with a
        # mouse, the selection bar with a finger.
        tile = self.tile(0, 3)
        if SIZES[self.SIZE][2]:
            self.long_press(tile)
            button = self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .use-as-cover")
            self.until(button.is_displayed, "the selection bar's Use as cover")
            self.tap(button)
        else:
            ActionChains(self.driver).context_click(tile).perform()
            self.until(lambda: self.driver.find_element(By.CSS_SELECTOR, "#item-menu [data-action=cover]").is_displayed(), "the photo's menu")
            self.driver.find_element(By.CSS_SELECTOR, "#item-menu [data-action=cover]").click()
        self.until(lambda: self.cover("Trip") == {"photo_id": third, "position": 3, "chosen": True}, "the cover to be chosen")
        self.until(lambda: self.rows()["album:Trip"]["photos"] == [third], "the list to show the new cover")
        self.assertIn("now the cover of Trip", self.status())

        # The album menu gives the first photo back.
        self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .album-menu-button").click()
        self.until(lambda: self.driver.find_element(By.CSS_SELECTOR, "#album-menu [data-action=first-cover]").is_displayed(), "the album menu")
        self.driver.find_element(By.CSS_SELECTOR, "#album-menu [data-action=first-cover]").click()
        self.until(lambda: self.cover("Trip")["chosen"] is False, "the first photo to be the cover again")
        self.until(lambda: self.rows()["album:Trip"]["photos"] == [first], "the list to show the first photo")


class Desktop(Covers, PageSession):
    SIZE = "desktop"


class Tablet(Covers, PageSession):
    SIZE = "tablet"


class Phone(Covers, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
