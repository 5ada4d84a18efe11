"""The library as a timeline: every photo, newest first by day, those in no
album among them; the search field's chips narrow it; photos are added to
albums from it with Add to album…, by a drag onto an album, with the
keyboard alone, and with a finger alone; axe-core audits it.

Run by scripts/browser-tests.
"""

import json
import subprocess
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_session import ALBUMS, PHOTOS, PageSession

#: The timeline as drawn: its days' headings and its tiles' names, in order.
DRAWN = """
const canvas = document.querySelector('#pane-0 .timeline-canvas');
const drawn = [...canvas.children].filter((each) => each.matches('.day, .tile'))
  .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top) || parseFloat(a.style.left || 0) - parseFloat(b.style.left || 0));
return drawn.map((each) => each.matches('.day') ? '# ' + each.textContent : each.title.split(',')[0]);
"""


class Timeline:
    """The tests; mixed with PageSession once per size below."""

    def prepare(self):
        # Two photos with no album: they enter the library in none.
        self.cli("import", str(PHOTOS / "11-forest.jpg"), str(PHOTOS / "05-sunset.heic"))

    def open_library(self, which="all-photos"):
        button = self.find("#albums-button")
        if button.is_displayed():
            self.press(button)
            self.until(lambda: self.find("nav").rect["x"] >= 0, "the drawer to open")
            time.sleep(0.3)
        self.press(self.find(f"#{which}"))
        self.until(lambda: self.find("#pane-0 .timeline").is_displayed() and self.drawn() and "Looking" not in self.drawn()[0], "the timeline")

    def drawn(self):
        return self.driver.execute_script(DRAWN)

    def search(self, text):
        field = self.find("#pane-0 .search-field")
        field.send_keys(text, Keys.ENTER)

    def ringed(self):
        """The photos the keyboard's orange ring is on."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#pane-0 .timeline-canvas .tile')]"
            ".filter((tile) => getComputedStyle(tile).outlineStyle !== 'none').map((tile) => tile.title.split(',')[0])")

    def tiles(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .timeline-canvas .tile")

    def book(self):
        return [item["file"] for item in json.loads(self.cli("--json", "list", "Book"))["items"]]

    def test_every_photo_by_day_and_the_chips_narrow_it(self):
        self.open_library()
        drawn = self.drawn()
        # Newest first: forest (17 July), sunset and cliffs (15), market and harbour (14), each day under
        # its heading; then the three that record no date, under their import's day (today).
        self.assertEqual(drawn[:8], ["# Friday 17 July 2026", "11-forest.jpg", "# Wednesday 15 July 2026", "05-sunset.heic", "03-cliffs.webp",
                                     "# Tuesday 14 July 2026", "02-market.png", "01-harbour.jpg"])
        self.assertTrue(drawn[8].startswith("# No date · imported "), drawn)
        self.assertEqual(set(drawn[9:]), {"07-scan.tiff", "06-map.gif", "04-lighthouse.webp"})
        self.until(lambda: self.find("#pane-0 .pane-info").text == "8 photos", "the count")
        self.screenshot(f"timeline-{self.SIZE}")
        self.audit("the timeline")

        self.search("july 15 2026")
        self.until(lambda: self.drawn() == ["# Wednesday 15 July 2026", "05-sunset.heic", "03-cliffs.webp"], "the day's photos")
        self.search("no album")
        self.until(lambda: self.drawn() == ["# Wednesday 15 July 2026", "05-sunset.heic"], "the day's photos in no album")
        chips = [chip.text for chip in self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .chip")]
        self.assertEqual(chips, ["Taken on 15 July 2026 ✕", "In no album ✕"])
        self.screenshot(f"timeline-{self.SIZE}-chips")
        self.audit("the timeline with chips")
        self.press(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .chip")[0])
        self.until(lambda: self.drawn() == ["# Friday 17 July 2026", "11-forest.jpg", "# Wednesday 15 July 2026", "05-sunset.heic"], "the chip taken away")

    def test_photos_in_no_album_are_added_to_an_album(self):
        self.open_library("no-album-photos")
        self.assertEqual([each for each in self.drawn() if not each.startswith("#")], ["11-forest.jpg", "05-sunset.heic"])
        first, second = self.tiles()[:2]
        if self.fingers:
            self.long_press(first)
            self.tap(second)
        else:
            first.click()
            ActionChains(self.driver).key_down(Keys.SHIFT).click(second).key_up(Keys.SHIFT).perform()
        self.until(lambda: self.find("#pane-0 .timeline-selection .selection-count").text == "2 photos selected", "two selected")
        self.press(self.find("#pane-0 .timeline-selection .add-to"))
        self.until(lambda: self.find("#transfer-dialog").is_displayed() and "Adds 2 photos" in self.find("#transfer-verdict").text, "the dialog's proposal")
        self.assertEqual(self.find("#transfer-title").text, "Add 2 photos to…")
        self.press(self.find("#transfer-submit"))
        self.until(lambda: self.book() == ["11-forest.jpg", "05-sunset.heic"], "the photos in Book")
        # Added, they leave the photos in no album.
        self.until(lambda: not self.tiles(), "the timeline of photos in no album to empty")
        self.assertIn("Added 2 photos to the end of Book", self.status())

    def test_a_search_stays_current_while_a_photo_is_selected(self):
        self.open_library("no-album-photos")
        self.assertEqual([each for each in self.drawn() if not each.startswith("#")], ["11-forest.jpg", "05-sunset.heic"])
        forest = self.tiles()[0]
        if self.fingers:
            self.long_press(forest)
        else:
            forest.click()
        self.until(lambda: self.find("#pane-0 .timeline-selection .selection-count").text == "1 photo selected", "the forest selected")
        # Another writer files the sunset: it leaves at once; the forest stays, still selected.
        photos = json.loads(self.cli("--json", "photos", "--in-no-album"))["photos"]
        sunset = next(photo["photo_id"] for photo in photos if photo["file"] == "05-sunset.heic")
        self.cli("copy", f"id:{sunset}", "--to", "Book")
        self.until(lambda: [each for each in self.drawn() if not each.startswith("#")] == ["11-forest.jpg"], "the sunset to leave the search")
        self.assertEqual(self.find("#pane-0 .timeline-selection .selection-count").text, "1 photo selected")
        self.assertEqual(self.tiles()[0].get_attribute("aria-selected"), "true")
        # And a photo imported into no album comes in.
        self.cli("import", str(PHOTOS / "10-meadow.webp"))
        self.until(lambda: "10-meadow.webp" in self.drawn(), "the new photo in the search")
        self.until(lambda: self.find("#pane-0 .pane-info").text == "2 photos found", "the count")

    def test_keyboard_alone_and_a_drag(self):
        if self.fingers:
            self.skipTest("the keyboard and the mouse: a desktop's")
        self.open_library()
        viewport = self.find("#pane-0 .timeline-viewport")
        # / goes to the search field; the photos in no album are found; Tab goes on to them.
        ActionChains(self.driver).send_keys("/").pause(0.2).send_keys("no album", Keys.ENTER).perform()
        self.until(lambda: [each for each in self.drawn() if not each.startswith("#")] == ["11-forest.jpg", "05-sunset.heic"], "the photos in no album")
        for _ in range(6):
            if self.driver.execute_script("return document.activeElement.classList.contains('timeline-viewport')"):
                break
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
        # The first photo is active once the timeline has the focus: Right goes to the second, A asks where it goes.
        ActionChains(self.driver).send_keys(Keys.ARROW_RIGHT).pause(0.2).perform()
        self.until(lambda: self.ringed() == ["05-sunset.heic"], "the keyboard's ring on the second photo")
        ActionChains(self.driver).send_keys("a").pause(0.8).perform()
        self.until(lambda: self.find("#transfer-dialog").is_displayed(), "the dialog")
        self.assertIn("Add 1 photo", self.find("#transfer-title").text)
        self.until(lambda: "Adds 1 photo" in self.find("#transfer-verdict").text, "the proposal")
        # Tab to Add, then Enter: the keyboard alone.
        for _ in range(8):
            if self.driver.execute_script("return document.activeElement.id") == "transfer-submit":
                break
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        self.until(lambda: self.book() == ["05-sunset.heic"], "the photo in Book by keys")
        # A drag of the forest onto Book's row in the list.
        self.until(lambda: [each for each in self.drawn() if not each.startswith("#")] == ["11-forest.jpg"], "the added photo to leave")
        forest = self.tiles()[0]
        self.drag(forest, self.find("#album-list li[data-album='Book']"))
        self.until(lambda: self.book() == ["05-sunset.heic", "11-forest.jpg"], "the dragged photo in Book")
        # Enter opens the photo in focus large; Escape comes back.
        self.press(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .chip")[0])
        self.until(lambda: len(self.tiles()) == 8, "every photo again")
        viewport.click()
        self.until(lambda: self.driver.execute_script("return document.activeElement.classList.contains('timeline-viewport')"), "the click's focus")
        self.assertEqual(self.ringed(), [], "no ring after a click, until a key is pressed")
        ActionChains(self.driver).send_keys(Keys.END).pause(0.3).perform()
        # The last photo: the first imported of those that record no date, which come last (as the CLI lists them:
        # loads commit in any order, so which one that is was decided by the import).
        last = json.loads(self.cli("--json", "photos"))["photos"][-1]["file"]
        self.until(lambda: self.ringed() == [last], "the ring on the last photo")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        self.until(lambda: self.find("#viewer").is_displayed(), "the viewer")
        self.assertEqual(self.find("#viewer-title").text, last)
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.until(lambda: not self.find("#viewer").is_displayed(), "the viewer to close")

    def test_deep_in_a_large_library_a_change_is_seen_where_the_person_is_and_above(self):
        if self.SIZE != "desktop":
            self.skipTest("one size is enough for the reading; the layout is the same at every size")
        many = self.folder / "many"
        many.mkdir()
        template = (PHOTOS / "04-lighthouse.webp").read_bytes()
        for index in range(2600):
            (many / f"{index:05}.webp").write_bytes(template + index.to_bytes(4, "big"))
        self.cli("import", str(many))
        listed = json.loads(self.cli("--json", "photos", "--limit", "60"))["photos"]
        self.open_library()
        viewport = self.find("#pane-0 .timeline-viewport")
        deepest = "return Math.max(0, ...[...document.querySelectorAll('#pane-0 .timeline-canvas .tile')].map((t) => Number(t.getAttribute('aria-posinset'))))"
        # Scrolled on, screen by screen, past the 2,000 photos a change reads again at once.
        for _ in range(400):
            if self.driver.execute_script(deepest) >= 2300:
                break
            self.driver.execute_script("arguments[0].scrollTop += arguments[0].clientHeight", viewport)
            time.sleep(0.03)
        self.assertGreaterEqual(self.driver.execute_script(deepest), 2300)
        time.sleep(0.5)
        seen = self.driver.execute_script("""
            const view = arguments[0].getBoundingClientRect();
            const tile = [...document.querySelectorAll('#pane-0 .timeline-canvas .tile')].find((t) => {
              const box = t.getBoundingClientRect(); return box.top > view.top + 100 && box.bottom < view.bottom - 100; });
            return [tile.dataset.itemId, tile.title, Number(tile.getAttribute('aria-posinset'))];""", viewport)
        self.assertIn("in no album", seen[1])
        # Another writer files the photo in view, and one of the first: the one in view says so at once.
        fiftieth = listed[49]
        self.cli("album", "create", "Filed")
        self.cli("copy", f"id:{seen[0]}", f"id:{fiftieth['photo_id']}", "--to", "Filed")
        title = f"return document.getElementById('timeline-0-' + arguments[0])?.title ?? ''"
        self.until(lambda: "in Filed" in self.driver.execute_script(title, seen[0]), "the photo in view to say where it went")
        self.assertGreaterEqual(seen[2], 2000)
        # Back to the top: the photos read before the change are read again as they come near.
        for _ in range(400):
            if self.driver.execute_script(title, fiftieth["photo_id"]):
                break
            self.driver.execute_script("arguments[0].scrollTop -= arguments[0].clientHeight", viewport)
            time.sleep(0.03)
        self.until(lambda: "in Filed" in self.driver.execute_script(title, fiftieth["photo_id"]), "the fiftieth photo to say where it went")
        count = self.driver.execute_script("return document.querySelectorAll('#pane-0 .timeline-canvas .tile[title$=\"in Filed\"]').length")
        self.assertGreaterEqual(count, 1)

    def test_a_search_kept_as_a_smart_album_then_made_an_album(self):
        self.open_library()
        self.search("portrait")
        self.until(lambda: [each for each in self.drawn() if not each.startswith("#")] == ["11-forest.jpg"], "the portrait photo")
        self.press(self.find("#pane-0 .keep-smart"))
        # Its name is typed at once, in place in the list.
        self.until(lambda: self.driver.execute_script("return document.activeElement.classList.contains('rename')"), "the name to type")
        field = self.driver.switch_to.active_element
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("Tall ones", Keys.ENTER)
        self.until(lambda: any(album["name"] == "Tall ones" and album["smart"] for album in json.loads(self.cli("--json", "album", "list"))["albums"]), "the smart album")
        self.until(lambda: "Tall ones" in self.find("#pane-0 .smart-title").text, "the pane to show it as a smart album")
        # Always current: a portrait photo imported now shows in it, and its count says so.
        self.cli("import", str(PHOTOS / "08-harbour-copy.jpg"))
        self.assertIn("11-forest.jpg", self.cli("list", "Tall ones"))
        self.screenshot(f"smart-album-{self.SIZE}")
        self.audit("a smart album")
        # Nothing goes into it by hand.
        refused = subprocess.run([ALBUMS, "--library", self.library, "--json", "copy", "Trip:1", "--to", "Tall ones", "--dry-run"], capture_output=True, text=True)
        self.assertEqual((refused.returncode, json.loads(refused.stderr)["error"]["code"]), (1, "smart_album"))
        # On a tablet or a phone the name was typed in the drawer: it closes first.
        if self.find("#albums-button").get_attribute("aria-expanded") == "true":
            self.press(self.find("#close-drawer"))
            self.until(lambda: not self.find("#album-list").is_displayed(), "the drawer to close")
        self.press(self.find("#pane-0 .freeze"))
        # It asks first, saying what it will hold and who will see it.
        dialog = self.find("#freeze-dialog")
        self.until(lambda: dialog.is_displayed(), "the dialog that asks first")
        self.assertIn("1 photo", self.find("#freeze-text").text)
        self.assertIn("shared with nobody", self.find("#freeze-audience").text)
        self.screenshot(f"freeze-{self.SIZE}")
        self.audit("the freeze dialog")
        self.press(dialog.find_element(By.CSS_SELECTOR, "button[value=freeze]"))
        self.until(lambda: self.files("Tall ones") == ["11-forest.jpg"], "an ordinary album holding what it showed")
        self.until(lambda: self.find("#pane-0 .viewport").is_displayed(), "the album's grid")


class Desktop(Timeline, PageSession):
    SIZE = "desktop"


class Tablet(Timeline, PageSession):
    SIZE = "tablet"


class Phone(Timeline, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
