"""An album's photos in justified rows, as the timeline shows the library:
each photo at its own shape (no letterbox, no empty band), edge to edge,
every row but the last flush with the pane; arrows go to the photo above
or below and a lifted photo's slot moves by rows; light and dark, at the
three sizes, with axe-core.

Run by scripts/browser-tests.
"""

import re
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_session import PHOTOS, PageSession

#: Pane 0's tiles as drawn: position, box, the photo's own shape (from its label), and how its image fits.
TILES = """
const viewport = document.querySelector('#pane-0 .viewport');
const tiles = [...document.querySelectorAll('#pane-0 .tile')].map((tile) => ({
  position: Number(tile.querySelector('.position').textContent),
  left: parseFloat(tile.style.left), top: parseFloat(tile.style.top),
  width: parseFloat(tile.style.width), height: parseFloat(tile.style.height),
  label: tile.getAttribute('aria-label'),
  fit: getComputedStyle(tile.querySelector('img')).objectFit,
}));
return { width: viewport.clientWidth, tiles: tiles.sort((a, b) => a.position - b.position) };
"""


class AlbumRows:
    """The tests; mixed with PageSession once per size below."""

    def prepare(self):
        # A portrait, and more landscapes: rows of unequal photos.
        self.cli("import", str(PHOTOS / "11-forest.jpg"), str(PHOTOS / "05-sunset.heic"), str(PHOTOS / "10-meadow.webp"), "--to", "Trip")

    def open_trip(self):
        choice = self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .album-choice")
        self.driver.execute_script("arguments[0].value = 'Trip'; arguments[0].dispatchEvent(new Event('change'))", choice)
        self.until(lambda: len(self.drawn()["tiles"]) == 9, "Trip's nine photos")
        return self.drawn()

    def drawn(self):
        return self.driver.execute_script(TILES)

    def rows(self, drawn):
        rows = {}
        for tile in drawn["tiles"]:
            rows.setdefault(tile["top"], []).append(tile)
        return [rows[top] for top in sorted(rows)]

    def test_photos_stand_at_their_shapes_in_rows_flush_with_the_pane(self):
        drawn = self.open_trip()
        rows = self.rows(drawn)
        self.assertGreater(len(rows), 1, "more than one row")
        target = self.driver.execute_script("return Number(document.getElementById('zoom').value)")
        for number, row in enumerate(rows):
            last = row[-1]
            if number < len(rows) - 1:
                self.assertAlmostEqual(last["left"] + last["width"], drawn["width"] - 4, delta=1, msg=f"row {number} ends flush")
                self.assertLessEqual(row[0]["height"], target + 1, f"row {number} no taller than the size asked for")
            for tile in row:
                self.assertEqual(tile["height"], row[0]["height"], "one height a row")
                self.assertEqual(tile["fit"], "cover")
                width, height = map(int, re.search(r"(\d+)×(\d+)", tile["label"]).groups())
                if tile is not last:
                    self.assertAlmostEqual(tile["width"] / tile["height"], width / height, delta=0.03,
                                           msg=f"{tile['label']} keeps its shape")
            for left, right in zip(row, row[1:]):
                self.assertEqual(right["left"], left["left"] + left["width"] + 4, "side by side, a 4-pixel gap")
        portrait = next(tile for tile in drawn["tiles"] if "forest" in tile["label"])
        self.assertLess(portrait["width"], portrait["height"], "a portrait stands upright")
        self.screenshot(f"album-rows-{self.SIZE}")
        self.audit("album in rows")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        time.sleep(0.2)
        self.screenshot(f"album-rows-{self.SIZE}-dark")
        self.audit("album in rows, dark")

    def test_a_tap_or_a_click_leaves_no_focus_ring_and_a_key_shows_where_it_is(self):
        self.open_trip()
        second = self.tile(0, 2)
        if self.SIZE == "phone":
            self.tap(second)
        else:
            ActionChains(self.driver).move_to_element(second).click().perform()
        ring = "return [...document.querySelectorAll('#pane-0 .tile')].filter((t) => getComputedStyle(t).outlineStyle !== 'none').map((t) => t.querySelector('.position').textContent)"
        if self.SIZE == "phone":
            self.until(lambda: self.status().startswith("02-market.png, 2 of 9"), "the photo tapped")
            self.assertEqual(self.driver.execute_script(ring), [], "no orange ring after a tap")
            return
        # A click gives the pane focus, and the photo the keys would start from: unmarked until a key is pressed.
        self.until(lambda: self.driver.execute_script("return document.querySelector('#pane-0 .viewport:focus .tile.active') !== null"), "the pane taking focus")
        self.assertEqual(self.driver.execute_script(ring), [], "no orange ring after a click")
        # The photo clicked is selected, and looks it: drawn in from its tile's edge (a ring would sit under the image).
        inset = """const tile = document.querySelector('#pane-0 .tile.selected'); if (!tile) return null;
                   const outer = tile.getBoundingClientRect(), inner = tile.querySelector('img').getBoundingClientRect();
                   return Math.min(inner.left - outer.left, outer.right - inner.right, inner.top - outer.top, outer.bottom - inner.bottom);"""
        self.until(lambda: (self.driver.execute_script(inset) or 0) >= 4, "the selected photo drawn in from its edge")
        if self.SIZE != "desktop":
            return
        self.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        self.until(lambda: self.driver.execute_script(ring) == ["3"], "the ring on the photo the arrow went to")

    def test_arrows_go_to_the_photo_below_and_a_lift_moves_by_rows(self):
        if self.SIZE != "desktop":
            self.skipTest("the keyboard: a desktop's")
        drawn = self.open_trip()
        rows = self.rows(drawn)
        viewport = self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .viewport")
        viewport.send_keys(Keys.ARROW_DOWN)   # focus lands on the first photo; ↓ goes to the one under it
        below = next(tile for tile in rows[1] if tile["left"] < rows[0][0]["left"] + rows[0][0]["width"])
        self.until(lambda: self.status().startswith(f"{below['position']} of 9"), "the photo below announced")
        viewport.send_keys(Keys.ARROW_UP)
        self.until(lambda: self.status().startswith("1 of 9"), "back up to the first")
        viewport.send_keys(Keys.SPACE)
        self.assertIn("Lifted 1 photo from position 1", self.status())
        viewport.send_keys(Keys.ARROW_DOWN)
        second = rows[1][0]["position"]
        # Moving the first photo to the gap before the second row's first: it lands just before that photo.
        self.assertIn(f"Move to position {second - 1} of Trip", self.status())
        marker = self.driver.execute_script("const m = document.querySelector('#pane-0 .slot-marker'); return [parseFloat(m.style.top), parseFloat(m.style.height)]")
        self.assertEqual(marker, [rows[1][0]["top"], rows[1][0]["height"]], "the marker stands in the second row, as tall as it")
        viewport.send_keys(Keys.ESCAPE)
        self.assertIn("nothing moved", self.status())


class Desktop(AlbumRows, PageSession):
    SIZE = "desktop"


class Tablet(AlbumRows, PageSession):
    SIZE = "tablet"


class Phone(AlbumRows, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
