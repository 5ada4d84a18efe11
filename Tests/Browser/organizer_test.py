"""The organizer page of `albums serve` in a real headless Chromium.

Each test starts the real `albums` binary on a new library of the example
photos, drives the page with Selenium as a person would (pointer drags,
Alt, Ctrl-clicks, the keyboard, files dropped from outside, zoom), and then
asks the CLI what the library holds. Screenshots of the main states are
saved in ALBUMS_SCREENSHOTS (default: .build/browser-screenshots).

Run by scripts/browser-tests, which installs Chromium, chromedriver and
Selenium and builds albums first. Environment: ALBUMS_BINARY (the binary).
"""

import base64
import json
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_session import PHOTOS, SHOTS, PageSession


class Organizer(PageSession):
    # The tests

    def test_drag_to_reorder(self):
        before = self.files("Trip")
        self.screenshot("01-two-albums")
        first = self.tile(0, 1)
        self.drag(first, self.tile(0, 3), x=first.size["width"] // 2 - 2)  # just after the third photo
        expected = before[1:3] + [before[0]] + before[3:]
        self.until(lambda: self.files("Trip") == expected, "the library to hold the new order")
        self.until(lambda: self.shown(0) == expected, "the page to show the new order")
        self.assertIn("Moved 1 photo", self.status())

    def test_drag_between_albums_and_onto_the_album_list(self):
        trip = self.files("Trip")
        self.drag(self.tile(0, 2), self.driver.find_element(By.CSS_SELECTOR, "#pane-1 .viewport"))
        self.until(lambda: self.files("Book") == [trip[1]], "the photo to move into Book")
        self.assertEqual(self.files("Trip"), trip[:1] + trip[2:])
        # The album list is drawn again when the move's change event arrives:
        # take its entry once that has happened, not before.
        self.until(lambda: self.shown(1) == [trip[1]], "the right pane to show the photo moved")
        self.until(lambda: self.driver.find_element(By.CSS_SELECTOR, "nav li[data-album='Book'] .count").text == "1", "the album list to count it")
        entry = self.driver.find_element(By.CSS_SELECTOR, "nav li[data-album='Book']")
        self.drag(self.tile(0, 1), entry)
        self.until(lambda: self.files("Book") == [trip[1], trip[0]], "the drop on the album list to append")
        self.until(lambda: self.shown(1) == [trip[1], trip[0]], "the right pane to show both")

    def test_alt_drag_copies(self):
        trip = self.files("Trip")
        self.drag(self.tile(0, 4), self.driver.find_element(By.CSS_SELECTOR, "#pane-1 .viewport"), hold=Keys.ALT)
        self.until(lambda: self.files("Book") == [trip[3]], "the copy in Book")
        self.assertEqual(self.files("Trip"), trip, "a copy leaves the source as it was")
        self.assertIn("Copied", self.status())

    def test_multi_select_drag_lands_together_in_order(self):
        trip = self.files("Trip")
        self.tile(0, 5).click()
        ActionChains(self.driver).key_down(Keys.CONTROL).click(self.tile(0, 2)).key_up(Keys.CONTROL).perform()
        ActionChains(self.driver).key_down(Keys.SHIFT).click(self.tile(0, 3)).key_up(Keys.SHIFT).perform()
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile.selected")), 3)
        self.drag(self.tile(0, 5), self.driver.find_element(By.CSS_SELECTOR, "#pane-1 .viewport"), release=False)
        self.screenshot("02-dragging-three")
        ActionChains(self.driver).release().perform()
        self.until(lambda: self.files("Book") == [trip[1], trip[2], trip[4]], "the three photos in album order")
        self.assertEqual(self.files("Trip"), [trip[0], trip[3], *trip[5:]])

    def test_forbidden_drop_snaps_back_and_says_why(self):
        self.cli("album", "lock", "Book")
        self.until(lambda: "🔒" in self.driver.find_element(By.CSS_SELECTOR, "nav li[data-album='Book']").text, "the lock to show")
        trip = self.files("Trip")
        self.drag(self.tile(0, 1), self.driver.find_element(By.CSS_SELECTOR, "#pane-1 .viewport"), release=False)
        self.until(lambda: "locked" in self.status(), "the proposal's reason while hovering")
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#pane-1 .slot-marker.forbidden"))
        self.screenshot("03-forbidden-drop")
        ActionChains(self.driver).release().perform()
        self.until(lambda: self.status().startswith("Not dropped") and "locked" in self.status(), "the refusal after the drop")
        self.assertEqual(self.files("Trip"), trip)
        self.assertEqual(self.files("Book"), [])
        self.until(lambda: not self.driver.find_elements(By.CSS_SELECTOR, ".tile.lifted"), "the photos to be put back")

    def test_files_dropped_from_the_desktop_become_placeholders_then_photos(self):
        trip = self.files("Trip")
        files = [(name, base64.b64encode((PHOTOS / name).read_bytes()).decode()) for name in ("11-forest.jpg", "10-meadow.webp")]
        # Records whether placeholders ever stood in the grid, however briefly.
        self.driver.execute_script("""
            window.placeholdersSeen = 0;
            new MutationObserver(() => {
              window.placeholdersSeen = Math.max(window.placeholdersSeen, document.querySelectorAll('#pane-0 .tile.placeholder').length);
            }).observe(document.getElementById('pane-0'), { subtree: true, childList: true });
        """)
        target = self.tile(0, 2)
        self.driver.execute_script("""
            const [target, files] = arguments;
            const transfer = new DataTransfer();
            for (const [name, data] of files) {
              const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
              transfer.items.add(new File([bytes], name));
            }
            const box = target.getBoundingClientRect();
            const at = { clientX: box.left + 4, clientY: box.top + box.height / 2, dataTransfer: transfer, bubbles: true, cancelable: true };
            target.dispatchEvent(new DragEvent('dragover', at));
            target.dispatchEvent(new DragEvent('drop', at));
        """, target, files)
        expected = trip[:1] + ["11-forest.jpg", "10-meadow.webp"] + trip[1:]
        self.until(lambda: self.files("Trip") == expected, "the photos to load at the slot")
        self.until(lambda: self.shown(0) == expected, "the page to show them")
        self.assertGreaterEqual(self.driver.execute_script("return window.placeholdersSeen"), 2, "two placeholders stood first")
        self.screenshot("04-files-dropped")

    def add_many_photos(self):
        """90 more distinct photos in Trip (bytes after the JPEG's end make each its own): more than a screen."""
        many = self.folder / "many"
        many.mkdir()
        for index, name in enumerate(["01-harbour.jpg", "11-forest.jpg", "08-harbour-copy.jpg"] * 30):
            (many / f"{index:03}-{name}").write_bytes((PHOTOS / name).read_bytes() + index.to_bytes(4, "big"))
        self.cli("import", str(many), "--to", "Trip")
        self.driver.refresh()
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the page")

    def test_zoom_keeps_the_photo_under_the_pointer(self):
        self.add_many_photos()
        tile = self.tile(0, 6)
        box = self.driver.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left + b.width * 0.7, b.top + b.height * 0.6];", tile)
        item = tile.get_attribute("data-item-id")
        width = tile.size["width"]
        under = "return document.elementFromPoint(arguments[0], arguments[1])?.closest('.tile')?.dataset.itemId"
        self.assertEqual(self.driver.execute_script(under, *box), item)
        for _ in range(3):
            self.driver.execute_script(
                "document.elementFromPoint(arguments[0], arguments[1]).dispatchEvent(new WheelEvent('wheel', "
                "{ deltaY: -120, ctrlKey: true, clientX: arguments[0], clientY: arguments[1], bubbles: true, cancelable: true }))", *box)
        self.until(lambda: self.tile(0, 6).size["width"] > width * 1.5, "the tiles to grow")
        self.assertEqual(self.driver.execute_script(under, *box), item, "the same photo is under the pointer")
        self.screenshot("05-zoomed")
        slider = self.driver.find_element(By.ID, "zoom")
        self.driver.execute_script("arguments[0].value = 80; arguments[0].dispatchEvent(new Event('input'))", slider)
        self.until(lambda: self.tile(0, 1).size["width"] < width, "the slider to shrink them")

    def test_a_large_album_reads_only_what_is_in_view_and_jumps_anywhere(self):
        many = self.folder / "large"
        many.mkdir()
        template = (PHOTOS / "04-lighthouse.webp").read_bytes()
        for index in range(5000):
            (many / f"{index:05}.webp").write_bytes(template + index.to_bytes(4, "big"))
        self.cli("album", "create", "Large")
        self.cli("import", str(many), "--to", "Large")
        files = self.files("Large")
        read = """return performance.getEntriesByType('resource').map((e) => new URL(e.name))
                    .filter((u) => u.pathname === '/api/albums/Large/items')
                    .reduce((sum, u) => sum + Number(u.searchParams.get('limit')), 0)"""
        choice = self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .album-choice")
        self.driver.execute_script("arguments[0].value = 'Large'; arguments[0].dispatchEvent(new Event('change'))", choice)
        self.until(lambda: self.shown(0)[:3] == files[:3], "the first tiles")
        self.assertIn("5,000 photos", self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .pane-info").text)
        self.assertLess(self.driver.execute_script(read), 1000, "only the first screens are read")
        # Scrolled a frame at a time while the next windows are read and laid out: every pixel scrolled counts.
        scrolled = self.driver.execute_async_script("""
            const [viewport, done] = [document.querySelector('#pane-0 .viewport'), arguments[0]];
            let frames = 0;
            const step = () => { if (frames++ === 60) return done(viewport.scrollTop); viewport.scrollTop += 200; requestAnimationFrame(step); };
            requestAnimationFrame(step);""")
        self.assertEqual(scrolled, 12000, "reads that lay rows out again keep where the person scrolled to")
        # The scrollbar stands for the whole album: a jump to the middle reads that window.
        viewport = self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .viewport")
        self.driver.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight / 2", viewport)
        def middle():
            shown = self.driver.execute_script(
                "return [...document.querySelectorAll('#pane-0 .tile')].map((t) => [Number(t.querySelector('.position').textContent.replace(/,/g, '')), t.title])")
            return [pair for pair in shown if 2000 < pair[0] < 3000]
        self.until(lambda: middle(), "tiles from the middle of the album")
        for position, title in middle():
            self.assertEqual(title, files[position - 1], f"position {position}")
        self.assertLess(self.driver.execute_script(read), 2500, "the middle's window, not the album")
        self.screenshot("10-large-album-middle")
        # A change from elsewhere is replayed on what is read: the middle shifts by one.
        self.cli("move", "Large:5000", "--to", "Large", "--at", "1")
        files = self.files("Large")
        self.until(lambda: middle() and all(title == files[position - 1] for position, title in middle()), "the change set replayed on the window")
        reloaded = self.driver.execute_script("return performance.getEntriesByType('navigation').length")
        self.assertEqual(reloaded, 1, "no reload")
        # The keyboard reaches the end, reading it.
        viewport.click()
        self.driver.switch_to.active_element.send_keys(Keys.END)
        self.until(lambda: self.status().startswith("5,000 of 5,000: "), "the last photo announced")
        self.assertEqual(self.status(), f"5,000 of 5,000: {files[-1]}")

    def test_touch_a_resting_finger_drags_a_swipe_does_not_and_two_fingers_pinch(self):
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        before = self.files("Trip")
        # A quick swipe across a photo moves nothing.
        x, y = self.centre(self.tile(0, 2))
        self.touch("touchStart", (x, y))
        for step in range(1, 9):
            self.touch("touchMove", (x + 25 * step, y + 3 * step))
        self.touch("touchEnd")
        time.sleep(0.8)
        self.assertEqual(self.files("Trip"), before, "a swipe is not a drag")
        self.assertNotIn("Moved", self.status())
        # A finger resting on the first photo lifts it; dragged just after the third, it lands there.
        first, third = self.tile(0, 1), self.tile(0, 3)
        x, y = self.centre(first)
        tx, ty = self.centre(third)
        tx += third.size["width"] // 2 - 2
        self.touch("touchStart", (x, y))
        time.sleep(0.6)
        for step in range(1, 11):
            self.touch("touchMove", (x + (tx - x) * step / 10, y + (ty - y) * step / 10))
            time.sleep(0.03)
        time.sleep(0.8)
        self.screenshot("09-touch-drag")
        self.touch("touchEnd")
        expected = before[1:3] + [before[0]] + before[3:]
        self.until(lambda: self.files("Trip") == expected, "the library to hold the order the finger made")
        self.until(lambda: self.shown(0) == expected, "the page to show it")
        # Two fingers spreading apart over the sixth photo zoom around their midpoint.
        self.add_many_photos()
        tile = self.tile(0, 6)
        item, width = tile.get_attribute("data-item-id"), tile.size["width"]
        x, y = self.centre(tile)
        under = "return document.elementFromPoint(arguments[0], arguments[1])?.closest('.tile')?.dataset.itemId"
        self.touch("touchStart", (x - 20, y), (x + 20, y))
        for step in range(1, 9):
            self.touch("touchMove", (x - 20 - 10 * step, y), (x + 20 + 10 * step, y))
            time.sleep(0.03)
        self.touch("touchEnd")
        self.until(lambda: self.tile(0, 6).size["width"] > width * 1.5, "the tiles to grow under the pinch")
        self.assertEqual(self.driver.execute_script(under, x, y), item, "the same photo is between the fingers")

    def test_keyboard_alone_reorders_and_moves_with_announcements(self):
        trip = self.files("Trip")
        viewport = self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .viewport")
        viewport.send_keys(Keys.ARROW_RIGHT)  # focus lands on the first photo; → goes to the second
        self.until(lambda: self.status().startswith(f"2 of {len(trip)}"), "the announcement of the second photo")
        viewport.send_keys(Keys.SPACE)
        self.assertIn("Lifted 1 photo from position 2", self.status())
        viewport.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        self.assertIn("position 4 of Trip", self.status())
        self.screenshot("06-keyboard-lift")
        viewport.send_keys(Keys.ENTER)
        expected = [trip[0], trip[2], trip[3], trip[1], *trip[4:]]
        self.until(lambda: self.files("Trip") == expected, "the keyboard move")
        self.until(lambda: "Moved 1 photo to position 4 of Trip" in self.status(), "the announcement of the drop")
        # Lift again and carry it to the other album with Tab, as a copy.
        active = self.driver.switch_to.active_element
        active.send_keys(Keys.SPACE)
        active.send_keys(Keys.TAB)
        self.driver.switch_to.active_element.send_keys("c")
        self.assertIn("Copy to position 1 of Book", self.status())
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.until(lambda: self.files("Book") == [trip[1]], "the keyboard copy into Book")
        self.assertEqual(self.files("Trip"), expected)
        # Escape puts a lift back.
        self.driver.switch_to.active_element.send_keys(Keys.SPACE)
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.assertIn("nothing moved", self.status())
        live = self.driver.find_element(By.ID, "status")
        self.assertEqual(live.get_attribute("aria-live"), "polite")

    def test_a_second_browser_sees_the_change_live(self):
        trip = self.files("Trip")
        second = self.open_page()
        last = self.tile(0, len(trip))
        self.drag(self.tile(0, 1), last, x=last.size["width"] // 2 - 2)
        expected = trip[1:] + [trip[0]]
        self.until(lambda: self.files("Trip") == expected, "the move")
        self.until(lambda: self.shown(0, second) == expected, "the other browser to apply the change set")
        # And a commit by another process (the CLI) reaches both.
        self.cli("move", "Trip:1", "--to", "Book")
        self.until(lambda: self.shown(1, second) == [expected[0]] and self.shown(1) == [expected[0]], "the CLI's change to reach the pages")
        reloaded = second.execute_script("return performance.getEntriesByType('navigation').length")
        self.assertEqual(reloaded, 1, "applied as change sets, without a reload")
        second.save_screenshot(str(SHOTS / "07-second-browser.png"))

    def test_undo_and_redo_with_the_keys_the_buttons_and_from_the_cli(self):
        trip = self.files("Trip")
        undo = self.driver.find_element(By.ID, "undo-button")
        redo = self.driver.find_element(By.ID, "redo-button")
        self.until(lambda: undo.get_attribute("title").startswith("Undo: import 6 files into 'Trip'"), "the undo button to name the last change")
        self.assertFalse(redo.is_enabled())
        # A drop, then Ctrl+Z takes it back and Shift+Ctrl+Z does it again.
        self.drag(self.tile(0, 1), self.tile(1, 1) if self.shown(1) else self.driver.find_element(By.CSS_SELECTOR, "#pane-1 .viewport"))
        self.until(lambda: self.files("Book") == [trip[0]], "the move into Book")
        self.until(lambda: "move 1 item to 'Book'" in undo.get_attribute("title"), "the undo button to name the move")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        self.until(lambda: self.files("Trip") == trip and self.files("Book") == [], "Ctrl+Z to undo the move")
        self.until(lambda: self.shown(0) == trip and self.shown(1) == [], "the page to show the undo")
        self.until(lambda: self.status() == "Undone: move 1 item to 'Book' at position 1 (made by cli).", "the announcement of the undo")
        self.until(lambda: redo.is_enabled(), "the redo button")
        self.screenshot("08-undone")
        ActionChains(self.driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
        self.until(lambda: self.files("Book") == [trip[0]] and self.shown(1) == [trip[0]], "Shift+Ctrl+Z to redo it")
        # The buttons, and an undo from another process, reach the page as change sets.
        undo.click()
        self.until(lambda: self.shown(0) == trip, "the undo button")
        self.cli("redo")
        self.until(lambda: self.shown(1) == [trip[0]] and self.shown(0) == trip[1:], "the CLI's redo to reach the page")
        # A deleted album comes back, with its photo, from the page's button.
        self.cli("album", "delete", "Book")
        self.until(lambda: not self.shown(1), "the deleted album to leave the pane")
        undo.click()
        self.until(lambda: [a["name"] for a in json.loads(self.cli("--json", "album", "list"))["albums"]] == ["Trip", "Book"], "the deleted album to come back")
        self.assertEqual(self.files("Book"), [trip[0]])
        self.until(lambda: "Undone: delete album 'Book' (1 item) (made by cli)." == self.status(), "the announcement")
        reloaded = self.driver.execute_script("return performance.getEntriesByType('navigation').length")
        self.assertEqual(reloaded, 1, "no reload")


if __name__ == "__main__":
    unittest.main(verbosity=2)
