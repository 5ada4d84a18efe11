"""The whole job on the page, at the three sizes it is built for.

Each capability beyond arranging by drag is driven as a person would at
each size: a desktop with a mouse and keys, a tablet (820×1180) and a phone
(390×844) with a finger (touch events through Chromium's input pipeline);
then the CLI says what the library holds. Screenshots of each state are
saved per size, the layout is checked to fit, and axe-core audits the page
(no serious or critical violation).

Run by scripts/browser-tests. Environment: ALBUMS_BINARY (the binary),
AXE_SCRIPT (axe-core's axe.min.js; the selenium-axe-python package bundles it).
"""

import json
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from page_session import PHOTOS, SIZES, PageSession


class WholeJob:
    """The tests; mixed with PageSession once per size below."""

    # Helpers that hide how each size does a thing

    def shot(self, name):
        self.screenshot(f"{self.SIZE}-{name}")

    def albums(self):
        return [album["name"] for album in json.loads(self.cli("--json", "album", "list"))["albums"]]

    def album(self, name):
        return next(album for album in json.loads(self.cli("--json", "album", "list"))["albums"] if album["name"] == name)

    def show_album_list(self):
        """The album list: always there on a desktop, a drawer to open on smaller screens."""
        button = self.find("#albums-button")
        if button.is_displayed() and button.get_attribute("aria-expanded") != "true":
            self.press(button)
            self.until(lambda: self.find("#album-list").is_displayed() and self.find("nav").rect["x"] >= 0, "the drawer to open")
            time.sleep(0.3)  # its slide

    def hide_album_list(self):
        if self.find("#albums-button").get_attribute("aria-expanded") == "true":
            self.press(self.find("#close-drawer"))
            self.until(lambda: not self.find("#album-list").is_displayed(), "the drawer to close")

    def entry(self, name):
        return self.find(f"#album-list li[data-album='{name}']")

    def open_album(self, name):
        self.show_album_list()
        self.press(self.entry(name))
        self.until(lambda: Select(self.find("#pane-0 .album-choice")).first_selected_option.get_attribute("value") == name, f"{name} to open")
        self.until(lambda: len(self.shown(0)) == len(self.files(name)), f"{name}'s photos to show")

    def album_menu(self, action, **data):
        self.press(self.find("#pane-0 .album-menu-button"))
        self.until(lambda: self.find("#album-menu").is_displayed(), "the album menu")
        selector = f"#album-menu button[data-action={action}]" + "".join(f"[data-{key}='{value}']" for key, value in data.items())
        self.press(self.find(selector))

    def select(self, *positions):
        """Selects photos of the first pane: clicks and Ctrl-clicks, or a finger resting on the first and tapping the others."""
        for index, position in enumerate(positions):
            tile = self.tile(0, position)
            if self.fingers:
                self.long_press(tile) if index == 0 else self.tap(tile)
            elif index == 0:
                tile.click()
            else:
                ActionChains(self.driver).key_down(Keys.CONTROL).click(tile).key_up(Keys.CONTROL).perform()
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile.selected")) == len(positions), "the selection")

    # The tests

    def test_albums_created_renamed_locked_sorted_deleted_and_undone(self):
        trip = self.files("Trip")
        self.show_album_list()
        self.press(self.find("#new-album"))
        self.until(lambda: self.driver.switch_to.active_element.get_attribute("class") == "rename", "the new album's name to be editable")
        self.shot("new-album-named")
        self.driver.switch_to.active_element.send_keys(Keys.CONTROL, "a")
        self.driver.switch_to.active_element.send_keys("Lisbon", Keys.ENTER)
        self.until(lambda: self.albums() == ["Trip", "Book", "Lisbon"], "the new album, named, in the library")
        self.until(lambda: "Renamed New album to Lisbon" in self.status(), "the announcement")
        # Lock and unlock from the album's menu.
        self.open_album("Trip")
        self.album_menu("lock")
        self.until(lambda: self.album("Trip")["locked"], "Trip to be locked")
        self.until(lambda: "locked" in self.find("#pane-0 .pane-info").text, "the pane to say so")
        self.album_menu("lock")
        self.until(lambda: not self.album("Trip")["locked"], "Trip to be unlocked")
        # Sort by name, Z to A.
        self.album_menu("sort", by="name", descending="true")
        self.until(lambda: self.files("Trip") == sorted(trip, reverse=True), "Trip sorted by name, Z to A")
        self.until(lambda: self.shown(0) == sorted(trip, reverse=True), "the page to show the new order")
        self.shot("sorted")
        # Delete, stating what stays; then undo.
        self.album_menu("delete")
        self.until(lambda: self.find("#delete-dialog").is_displayed(), "the question")
        self.assertIn("6 photos stay in the library", self.find("#delete-text").text)
        self.shot("delete-asked")
        self.press(self.find("#delete-dialog button[value=delete]"))
        self.until(lambda: self.albums() == ["Book", "Lisbon"], "Trip to be deleted")
        self.press(self.find("#undo-button"))
        self.until(lambda: self.albums() == ["Trip", "Book", "Lisbon"] and self.files("Trip") == sorted(trip, reverse=True), "the undo to bring Trip back whole")

    def test_albums_reordered_by_keyboard_and_by_drag(self):
        self.cli("album", "create", "Summer")
        self.driver.refresh()
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the page")
        self.show_album_list()
        self.until(lambda: self.entry("Summer"), "the new album in the list")
        # The keyboard: Space lifts, arrows choose, Enter puts it there.
        entry = self.entry("Trip")
        self.driver.execute_script("arguments[0].focus()", entry)
        active = self.driver.switch_to.active_element
        active.send_keys(Keys.SPACE)
        self.assertIn("Lifted Trip from the top level, place 1 of 3", self.status())
        active.send_keys(Keys.ARROW_DOWN)
        self.until(lambda: "Move Trip to the top level, place 2 of 3" in self.status(), "the proposal while lifted")
        active.send_keys(Keys.ARROW_DOWN)
        self.until(lambda: "place 3 of 3" in self.status(), "the proposal for the last place")
        self.shot("album-lifted")
        active.send_keys(Keys.ENTER)
        self.until(lambda: self.albums() == ["Book", "Summer", "Trip"], "the keyboard reorder")
        # A drag: Summer to the top, with the mouse or a resting finger.
        self.show_album_list()
        source, target = self.entry("Summer"), self.entry("Book")
        (sx, sy), (tx, ty) = self.centre(source), self.centre(target)
        ty -= target.size["height"] // 2 - 2
        if self.fingers:
            self.touch("touchStart", (sx, sy))
            time.sleep(0.6)
            for step in range(1, 9):
                self.touch("touchMove", (sx, sy + (ty - sy) * step / 8))
                time.sleep(0.03)
            time.sleep(0.5)
            self.touch("touchEnd")
        else:
            ActionChains(self.driver, duration=50).move_to_element(source).click_and_hold().move_by_offset(0, -8).pause(0.2) \
                .move_to_element_with_offset(target, 0, -target.size["height"] // 2 + 2).pause(0.5).release().perform()
        self.until(lambda: self.albums() == ["Summer", "Book", "Trip"], "the dragged album at the top")
        self.until(lambda: [e.get_attribute("data-album") for e in self.driver.find_elements(By.CSS_SELECTOR, "#album-list li[data-album]")] == ["Summer", "Book", "Trip"], "the list to show it")

    def test_move_to_and_copy_to_without_dragging(self):
        trip = self.files("Trip")
        self.select(2, 4)
        self.assertEqual(self.find("#pane-0 .selection-count").text, "2 photos selected")
        self.shot("selected")
        self.press(self.find("#pane-0 .selection-bar .move-to"))
        self.until(lambda: self.find("#transfer-dialog").is_displayed(), "the Move to dialog")
        Select(self.find("#transfer-album")).select_by_value("Book")
        self.press(self.find("#transfer-dialog input[value=start]"))
        self.until(lambda: self.find("#transfer-verdict").text == "Moves 2 photos at position 1 of Book.", "the proposal")
        self.shot("move-to")
        self.press(self.find("#transfer-submit"))
        self.until(lambda: self.files("Book") == [trip[1], trip[3]], "the two photos in Book, in album order")
        self.assertEqual(self.files("Trip"), [trip[0], trip[2], *trip[4:]])
        # Copy to a locked album: the proposal says why not, and nothing can be sent.
        self.cli("album", "lock", "Book")
        self.select(1)
        self.press(self.find("#pane-0 .selection-bar .copy-to"))
        Select(self.find("#transfer-album")).select_by_value("Book")
        self.until(lambda: self.find("#transfer-verdict").text.startswith("Not allowed:") and "locked" in self.find("#transfer-verdict").text, "the refusal")
        self.assertFalse(self.find("#transfer-submit").is_enabled())
        self.shot("copy-to-forbidden")
        self.press(self.find("#transfer-dialog button[value=cancel]"))
        self.cli("album", "unlock", "Book")
        # A position typed: the copy lands there.
        self.select(1)
        self.press(self.find("#pane-0 .selection-bar .copy-to"))
        Select(self.find("#transfer-album")).select_by_value("Book")
        self.press(self.find("#transfer-dialog input[value=at]"))
        position = self.find("#transfer-position")
        position.send_keys(Keys.CONTROL, "a")
        position.send_keys("2")
        self.until(lambda: self.find("#transfer-verdict").text == "Copies 1 photo at position 2 of Book.", "the copy's proposal")
        self.press(self.find("#transfer-submit"))
        self.until(lambda: self.files("Book") == [trip[1], trip[0], trip[3]], "the copy at position 2")
        self.assertEqual(self.files("Trip")[0], trip[0], "a copy leaves the source")

    def test_select_all_and_remove_then_undo(self):
        trip = self.files("Trip")
        if self.fingers:
            self.select(1)
            self.press(self.find("#pane-0 .selection-bar .select-all"))
        else:
            self.tile(0, 1).click()
            self.driver.switch_to.active_element.send_keys(Keys.CONTROL, "a")
        self.until(lambda: self.find("#pane-0 .selection-count").text == f"{len(trip)} photos selected", "every photo selected")
        self.press(self.find("#pane-0 .clear-selection"))
        self.until(lambda: not self.find("#pane-0 .selection-bar").is_displayed(), "the selection cleared")
        self.select(2, 3)
        self.press(self.find("#pane-0 .selection-bar .remove"))
        self.until(lambda: self.files("Trip") == [trip[0], *trip[3:]], "two photos removed")
        self.until(lambda: self.shown(0) == [trip[0], *trip[3:]], "the page to show it")
        self.assertIn("stay in the library", self.status())
        self.press(self.find("#undo-button"))
        self.until(lambda: self.files("Trip") == trip, "undo to put them back")
        if not self.fingers:
            # The keyboard: Delete removes the photo in focus.
            self.tile(0, 1).click()
            self.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT, Keys.DELETE)
            self.until(lambda: self.files("Trip") == [trip[0], *trip[2:]], "Delete to remove the second photo")

    def test_photos_added_with_the_file_picker_and_an_upload_cancelled(self):
        trip = self.files("Trip")
        self.press(self.find("#pane-0 .add-photos"))
        self.find("#file-picker").send_keys("\n".join(str(PHOTOS / name) for name in ("11-forest.jpg", "10-meadow.webp")))
        self.until(lambda: self.files("Trip") == trip + ["11-forest.jpg", "10-meadow.webp"], "the picked photos at the end")
        self.until(lambda: self.shown(0) == trip + ["11-forest.jpg", "10-meadow.webp"], "the page to show them")
        # A slow upload shows each file's progress and can be cancelled: nothing of it is kept.
        big = self.folder / "big.jpg"
        big.write_bytes((PHOTOS / "01-harbour.jpg").read_bytes() + bytes(3_000_000))
        self.driver.set_network_conditions(offline=False, latency=5, download_throughput=10_000_000, upload_throughput=100_000)
        try:
            self.press(self.find("#pane-0 .add-photos"))
            self.find("#file-picker").send_keys(str(big))
            self.until(lambda: float(self.find("#pane-0 .tile.placeholder progress").get_attribute("value") or 0) > 0.02, "the file's progress")
            self.shot("upload-progress")
            self.press(self.find("#uploads .cancel-upload"))
            self.until(lambda: "Cancelled" in self.status(), "the cancel to be said")
            self.until(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile.placeholder"), "its placeholder to go")
        finally:
            self.driver.delete_network_conditions()
        time.sleep(0.5)
        self.assertEqual(self.files("Trip"), trip + ["11-forest.jpg", "10-meadow.webp"], "nothing of the cancelled upload kept")
        self.assertNotIn("big.jpg", self.cli("pending", "list"))

    def test_the_viewer_steps_through_the_album_and_plays_it(self):
        trip = self.files("Trip")
        tile = self.tile(0, 2)
        if self.fingers:
            self.tap(tile)
        else:
            ActionChains(self.driver).double_click(tile).perform()
        viewer = self.find("#viewer")
        self.until(lambda: viewer.is_displayed() and self.find("#viewer-title").text == trip[1], "the second photo, large")
        self.until(lambda: self.driver.execute_script("return document.getElementById('viewer-image').naturalWidth") > 0, "its display rendition")
        self.shot("viewer")
        if self.fingers:
            x, y = self.centre(self.find("#viewer-image"))
            self.touch("touchStart", (x + 80, y))
            for step in range(1, 7):
                self.touch("touchMove", (x + 80 - 30 * step, y))
            self.touch("touchEnd")
            time.sleep(1)  # a tap while the swipe's fling runs only stops the fling
        else:
            self.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        self.until(lambda: self.find("#viewer-title").text == trip[2], "the next photo in album order")
        self.assertEqual(self.find("#viewer-position").text, f"3 of {len(trip)} · Trip")
        self.press(self.find("#viewer-facts-button"))
        self.until(lambda: "Taken" in self.find("#viewer-facts").text, "the facts")
        self.shot("viewer-facts")
        self.audit("viewer")
        if self.fingers:
            self.press(self.find("#viewer-close"))
        else:
            self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.until(lambda: not viewer.is_displayed(), "back to the grid")
        self.until(lambda: self.driver.execute_script("return document.querySelector('#pane-0 .tile.selected .position')?.textContent") == "3",
                   "the grid on the photo last seen")
        # The slideshow: from the pane's button, every 2 seconds, paused with Space.
        self.press(self.find("#pane-0 .slideshow"))
        self.until(lambda: viewer.is_displayed() and self.find("#viewer-play").get_attribute("aria-pressed") == "true", "the slideshow to play")
        Select(self.find("#viewer-interval")).select_by_value("2") if self.find("#viewer-interval").is_displayed() else None
        first = self.find("#viewer-title").text
        self.until(lambda: self.find("#viewer-title").text != first, "the next slide", timeout=8)
        self.press(self.find("#viewer-play"))
        self.until(lambda: self.find("#viewer-play").get_attribute("aria-pressed") == "false", "the pause")

    def row(self, key):
        return self.find(f"#album-list li[data-key='{key}']")

    def folder_row(self, name):
        return next(e for e in self.driver.find_elements(By.CSS_SELECTOR, "#album-list li.folder") if e.find_element(By.CSS_SELECTOR, ".name").text.endswith(name))

    def rows(self):
        return [(int(e.get_attribute("aria-level")), e.find_element(By.CSS_SELECTOR, ".name").text.replace("🔒 ", "")) for e in self.driver.find_elements(By.CSS_SELECTOR, "#album-list li[data-key]")]

    def tree(self):
        tree = json.loads(self.cli("--json", "album", "list"))
        paths = {folder["id"]: folder["path"] for folder in tree["folders"]}
        return {album["name"]: paths.get(album["parent_id"], "/") for album in tree["albums"]}

    def test_folders_in_the_tree_by_keyboard_by_drag_and_live(self):
        self.cli("folder", "create", "Travel")
        self.cli("folder", "create", "Travel/2026")
        self.cli("album", "move", "Book", "--into", "Travel")
        self.driver.execute_script("localStorage.removeItem('albums.openFolders')")
        self.driver.refresh()
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the page")
        self.show_album_list()
        # The tree view's keys: Right opens a folder, Left closes it or goes up, type-ahead finds a name.
        travel = self.folder_row("Travel")
        self.driver.execute_script("arguments[0].focus()", travel)
        self.assertEqual(travel.get_attribute("role"), "treeitem")
        travel_open = travel.get_attribute("aria-expanded") == "true"
        if not travel_open:
            self.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
            self.until(lambda: self.folder_row("Travel").get_attribute("aria-expanded") == "true", "Right to open Travel")
        self.assertIn((2, "Book"), self.rows())
        self.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        self.until(lambda: self.driver.switch_to.active_element.get_attribute("data-key").startswith("folder:"), "Right to reach the first child")
        self.driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
        self.until(lambda: self.driver.switch_to.active_element.text.startswith("▾\nTravel") or "Travel" in self.driver.switch_to.active_element.text, "Left to go up to Travel")
        self.driver.switch_to.active_element.send_keys("t")
        self.until(lambda: self.driver.switch_to.active_element.get_attribute("data-album") == "Trip", "type-ahead to find Trip")
        # Lift Trip with Space and carry it into Travel/2026 with the arrows.
        active = self.driver.switch_to.active_element
        active.send_keys(Keys.SPACE)
        self.assertIn("Lifted Trip", self.status())
        for _ in range(8):
            if "into 2026" in self.status():
                break
            active.send_keys(Keys.ARROW_DOWN)
            time.sleep(0.25)
        self.until(lambda: "Move Trip into 2026" in self.status(), "the proposal into 2026")
        self.shot("tree-lifted")
        active.send_keys(Keys.ENTER)
        self.until(lambda: self.tree().get("Trip") == "Travel/2026", "Trip filed in Travel/2026")
        # A drag: the folder 2026 onto the top level's end, under every row; a folder into itself snaps back.
        self.show_album_list()
        self.until(lambda: (3, "Trip") in self.rows(), "Trip shown inside its folder")
        source, below = self.folder_row("2026"), self.folder_row("Travel")
        if not self.fingers:
            self.drag(self.folder_row("Travel"), self.folder_row("2026"))
            self.until(lambda: "cannot go into" in self.status(), "the refusal while hovering")
            self.until(lambda: self.tree().get("Trip") == "Travel/2026", "nothing moved")
            self.drag(self.folder_row("2026"), self.find("#album-list"), y=self.find("#album-list").size["height"] // 2 + 6)
        else:
            (sx, sy) = self.centre(source)
            last = self.driver.find_elements(By.CSS_SELECTOR, "#album-list li[data-key]")[-1]
            ty = self.centre(last)[1] + last.size["height"]
            self.touch("touchStart", (sx, sy))
            time.sleep(0.6)
            for step in range(1, 9):
                self.touch("touchMove", (sx, sy + (ty - sy) * step / 8))
                time.sleep(0.03)
            time.sleep(0.6)
            self.touch("touchEnd")
        self.until(lambda: self.tree().get("Trip") == "2026", "2026 moved to the top level with Trip in it")
        # Another writer: a folder made with the CLI shows without a reload.
        self.cli("folder", "create", "Archive")
        self.show_album_list()
        self.until(lambda: any(name == "Archive" for _, name in self.rows()), "the CLI's folder in the tree")
        self.shot("tree")
        self.audit("album tree")
        if not self.fingers:
            # Photos dropped on an album inside a folder land at its end.
            if not self.driver.find_elements(By.CSS_SELECTOR, "#album-list li[data-album='Trip']"):
                self.folder_row("2026").click()  # folders stay as a person left them
            self.open_album("Trip")
            self.show_album_list()
            if (2, "Book") not in self.rows():
                self.folder_row("Travel").click()
            self.drag(self.tile(0, 1), self.entry("Book"))
            self.until(lambda: self.files("Book") == ["01-harbour.jpg"], "the photo moved into Book, in its folder")

    def test_the_layout_fits_and_passes_an_accessibility_audit(self):
        width, height, _ = SIZES[self.SIZE]
        overflow = "return document.documentElement.scrollWidth - window.innerWidth"
        self.assertLessEqual(self.driver.execute_script(overflow), 0, "no horizontal scrolling")
        self.shot("overview")
        if self.SIZE == "phone":
            self.assertFalse(self.find("#pane-1").is_displayed(), "one album at a time")
            self.assertFalse(self.find("#album-list").is_displayed(), "the album list is a drawer")
        if self.fingers:
            small = self.driver.execute_script("""
                return [...document.querySelectorAll('button, select, #album-list li')]
                  .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 43.5)
                  .map((e) => e.className || e.id || e.textContent)""")
            self.assertEqual(small, [], "every control is tall enough for a finger")
        self.audit("grid")
        self.show_album_list()
        self.shot("album-list")
        self.audit("album list")
        self.hide_album_list()
        self.select(1)
        self.press(self.find("#pane-0 .selection-bar .move-to"))
        self.until(lambda: self.find("#transfer-dialog").is_displayed(), "the dialog")
        self.audit("Move to dialog")
        self.find("#transfer-dialog button[value=cancel]").click()
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        time.sleep(0.3)
        self.shot("dark")
        self.audit("dark colours")
        if self.SIZE == "tablet":
            # Turned to landscape: the album list comes back beside two albums.
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1180, "height": 820, "deviceScaleFactor": 1, "mobile": True})
            time.sleep(0.3)
            self.assertLessEqual(self.driver.execute_script(overflow), 0, "no horizontal scrolling in landscape")
            self.assertTrue(self.find("#album-list").is_displayed() and self.find("#pane-1").is_displayed())
            self.shot("landscape")
        if self.SIZE == "phone":
            # The narrowest phones people use: 360 CSS pixels.
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
            time.sleep(0.3)
            self.assertLessEqual(self.driver.execute_script(overflow), 0, "no horizontal scrolling at 360 px")
            self.shot("360")


class Desktop(WholeJob, PageSession):
    SIZE = "desktop"


class Tablet(WholeJob, PageSession):
    SIZE = "tablet"


class Phone(WholeJob, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
