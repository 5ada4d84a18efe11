"""People on the page: signing in and out, a viewer's drag refused while it
hovers, sharing an album from its menu, and a share link's read-only page
at a phone's size, by finger; axe-core on the sign-in and share pages.
"""

import re
import sqlite3
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from page_session import PageSession


class SignedIn(PageSession):
    """ana is an admin; gran may view Trip and nothing else."""

    OPENS_ORGANIZER = False

    def prepare(self):
        self.cli("user", "add", "ana", "--admin", input="correct horse\n")
        self.cli("user", "add", "gran", input="grandma's pass\n")
        self.cli("share", "add", "Trip", "--with", "gran", "--role", "viewer")

    def sign_in(self, name, password):
        self.driver.get(self.url)
        self.until(lambda: self.driver.find_element(By.ID, "signin-name").is_displayed(), "the sign-in page")
        field = self.driver.find_element(By.ID, "signin-name")
        field.clear()
        field.send_keys(name, Keys.TAB, password, Keys.ENTER)

    def test_a_viewer_signs_in_sees_only_what_is_shared_and_cannot_reorder_it(self):
        self.assertTrue(self.url.endswith("/signin"), self.url)
        self.sign_in("gran", "wrong password")
        self.until(lambda: "do not match" in self.driver.find_element(By.ID, "signin-message").text, "the refusal")
        self.audit("sign-in page")
        self.screenshot("people-01-sign-in")
        self.sign_in("gran", "grandma's pass")
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the organizer")
        self.assertEqual(self.driver.find_element(By.ID, "who-name").text, "gran")
        names = [li.get_attribute("data-album") for li in self.driver.find_elements(By.CSS_SELECTOR, "nav li[data-album]")]
        self.assertEqual(names, ["Trip"])
        trip = self.files("Trip")
        self.drag(self.tile(0, 1), self.tile(0, 3), x=20, release=False)
        self.until(lambda: "you can view 'Trip' but not change it" in self.status(), "the proposal's reason while hovering")
        self.screenshot("people-02-viewer-drag-refused")
        ActionChains(self.driver).release().perform()
        self.until(lambda: self.status().startswith("Not dropped"), "the refusal after the drop")
        self.assertEqual(self.files("Trip"), trip)
        self.driver.find_element(By.ID, "sign-out").click()
        self.until(lambda: self.driver.current_url.endswith("/signin"), "the sign-in page again")
        self.driver.get(self.url.replace("/signin", "/"))
        self.until(lambda: self.driver.current_url.endswith("/signin"), "the organizer to send a signed-out browser to sign in")

    def test_rights_reach_the_open_page_without_a_reload(self):
        self.sign_in("gran", "grandma's pass")
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the organizer")
        albums = lambda: [li.get_attribute("data-album") for li in self.driver.find_elements(By.CSS_SELECTOR, "nav li[data-album]")]
        self.assertEqual(albums(), ["Trip"])
        self.driver.execute_script("window.unreloaded = true")
        # Given a role from the CLI, the album appears; taken, it goes: the page is never reloaded.
        self.cli("share", "add", "Book", "--with", "gran", "--role", "viewer")
        self.until(lambda: albums() == ["Book", "Trip"] or albums() == ["Trip", "Book"], "the album given to appear")
        self.screenshot("people-06-role-given-live")
        self.cli("share", "remove", "Book", "--with", "gran")
        self.until(lambda: albums() == ["Trip"], "the album taken to go")
        self.assertTrue(self.driver.execute_script("return window.unreloaded === true"), "no reload")
        # Disabled from the CLI, the open page goes to the sign-in page.
        self.cli("user", "disable", "gran")
        self.until(lambda: self.driver.current_url.endswith("/signin"), "the sign-in page once the stream is refused")

    def test_an_editors_undo_takes_back_her_own_move_not_the_clis_later_change(self):
        self.cli("share", "add", "Trip", "--with", "gran", "--role", "editor")
        self.sign_in("gran", "grandma's pass")
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the organizer")
        undo = self.driver.find_element(By.ID, "undo-button")
        self.until(lambda: undo.get_attribute("title") == "Nothing to undo", "gran's Undo to be empty: the import was the CLI's")
        trip = self.files("Trip")
        self.drag(self.tile(0, 1), self.tile(0, 3), x=20)
        self.until(lambda: self.files("Trip") != trip, "gran's move")
        self.until(lambda: undo.get_attribute("title").startswith("Undo: move 1 item") and "(by gran)" in undo.get_attribute("title"), "her Undo to name her move")
        # The CLI changes something else afterwards: gran's Undo still names, and takes back, her own move.
        self.cli("album", "create", "Later")
        self.until(lambda: "(by gran)" in undo.get_attribute("title"), "her Undo to stay hers")
        undo.click()
        self.until(lambda: self.files("Trip") == trip and self.shown(0) == trip, "her move taken back")
        self.until(lambda: self.status().startswith("Undone: move 1 item") and "(made by gran)" in self.status(), "the announcement")
        self.assertIn("Later", self.cli("album", "list"))
        self.screenshot("people-07-own-undo")

    def test_an_admin_shares_an_album_from_its_menu(self):
        self.sign_in("ana", "correct horse")
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the organizer")
        self.assertEqual(self.driver.find_element(By.ID, "who-name").text, "ana (admin)")
        self.driver.find_element(By.CSS_SELECTOR, "#pane-1 .album-menu-button").click()
        self.until(lambda: self.driver.find_element(By.CSS_SELECTOR, "#album-menu [data-action=share]").is_displayed(), "the menu's Share…")
        self.driver.find_element(By.CSS_SELECTOR, "#album-menu [data-action=share]").click()
        self.until(lambda: self.driver.find_element(By.ID, "share-dialog").is_displayed(), "the share dialog")
        Select(self.driver.find_element(By.ID, "share-person")).select_by_visible_text("gran")
        Select(self.driver.find_element(By.ID, "share-role")).select_by_value("editor")
        self.driver.find_element(By.ID, "share-give").click()
        self.until(lambda: "gran: editor" in self.driver.find_element(By.ID, "share-roles").text, "the role given")
        self.audit("share dialog")
        self.screenshot("people-03-share-dialog")
        self.assertIn("editor of album 'Book'", self.cli("share", "list"))


class ShareLinkOnAPhone(PageSession):
    """A password-guarded link to Trip, opened on a phone by finger."""

    SIZE = "phone"
    OPENS_ORGANIZER = False

    def prepare(self):
        made = self.cli("link", "create", "Trip", "--password", "--no-download", input="open sesame\n")
        self.link_path = made.strip()
        self.cli("mark", "Trip:2", "--title", "The market", "--caption", "Saturday morning,\nbefore the rain", "--keyword", "not shown")

    def test_the_link_shows_its_album_in_order_and_nothing_else(self):
        base = re.sub(r"/(\?token=.*)?$", "", self.url)
        self.driver.get(base + self.link_path)
        self.until(lambda: self.driver.find_element(By.ID, "unlock-form").is_displayed(), "the password form")
        self.driver.find_element(By.ID, "unlock-password").send_keys("open sesame", Keys.ENTER)
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, ".shared-tile")) == 6, "the six photos")
        self.assertEqual(self.driver.find_element(By.ID, "shared-title").text, "Trip")
        labels = [tile.get_attribute("aria-label") for tile in self.driver.find_elements(By.CSS_SELECTOR, ".shared-tile")]
        # Each photo by its name, or by the title written on it.
        self.assertEqual([label.split(",")[0] for label in labels], [name if index != 1 else "The market" for index, name in enumerate(self.files("Trip"))])
        self.until(lambda: self.driver.execute_script(
            "return [...document.querySelectorAll('.shared-tile img')].every((img) => img.complete && img.naturalWidth > 0)"), "the thumbnails")
        # Justified rows, as the organizer's: one height a row, every row but the last flush with the page.
        rows = self.driver.execute_script("""
            const rows = new Map();
            for (const tile of document.querySelectorAll('#shared-grid li')) {
              const box = tile.getBoundingClientRect();
              const row = rows.get(Math.round(box.top)) ?? [];
              row.push([box.left, box.right, box.height]);
              rows.set(Math.round(box.top), row);
            }
            return { right: document.getElementById('shared-grid').getBoundingClientRect().right, rows: [...rows.values()] };""")
        self.assertGreater(len(rows["rows"]), 1)
        for number, row in enumerate(rows["rows"]):
            self.assertLess(max(tile[2] for tile in row) - min(tile[2] for tile in row), 1.5, f"row {number}: one height")
            if number < len(rows["rows"]) - 1:
                self.assertAlmostEqual(row[-1][1], rows["right"], delta=1.5, msg=f"row {number} fills the width")
        self.audit("share page")
        self.screenshot("people-04-share-link-phone")
        self.tap(self.driver.find_elements(By.CSS_SELECTOR, ".shared-tile")[1])
        self.until(lambda: self.driver.find_element(By.ID, "shared-viewer").is_displayed(), "the viewer")
        # The words written for the album's readers, above where the photo stands.
        lines = self.driver.find_element(By.ID, "shared-caption").text.split("\n")
        self.assertEqual(lines[:3], ["The market", "Saturday morning,", "before the rain"])
        self.assertTrue(lines[3].startswith("2 of 6 · " + self.files("Trip")[1]), lines)
        self.assertNotIn("not shown", self.driver.find_element(By.ID, "shared-viewer").text, "keywords are the organizer's, not the book's")
        self.screenshot("people-05-share-words-phone")
        self.assertEqual(self.driver.find_element(By.ID, "shared-image").get_attribute("alt"), "Saturday morning,\nbefore the rain")
        self.assertFalse(self.driver.find_element(By.ID, "shared-download").is_displayed(), "no download: the link does not allow it")
        self.tap(self.driver.find_element(By.ID, "shared-next"))
        self.until(lambda: self.driver.find_element(By.ID, "shared-caption").text.startswith("3 of 6"), "the next photo")
        self.screenshot("people-05-share-viewer-phone")
        # What the link shows is all it shows: the organizer's API answers nothing.
        answer = self.driver.execute_script("return fetch('/api/albums').then((r) => r.status)")
        self.assertEqual(answer, 401)


class OldLinkToSmartAlbum(PageSession):
    """A link an older library made to a smart album (new ones are refused), opened on a phone."""

    SIZE = "phone"
    OPENS_ORGANIZER = False

    def prepare(self):
        self.cli("album", "smart", "Everything")
        self.link_path = self.cli("link", "create", "Book").strip()
        # As such a library holds it: the link leads to the smart album.
        with sqlite3.connect(self.library) as database:
            database.execute("UPDATE share_link SET album_id = (SELECT id FROM album WHERE name = 'Everything')")

    def test_the_page_says_a_link_cannot_show_a_smart_album(self):
        base = re.sub(r"/(\?token=.*)?$", "", self.url)
        self.driver.get(base + self.link_path)
        self.until(lambda: "smart album" in self.driver.find_element(By.ID, "shared-notice").text, "what the link leads to")
        self.assertEqual(self.driver.find_element(By.ID, "shared-title").text, "Everything")
        self.assertEqual(self.driver.find_element(By.ID, "shared-status").text, "Smart album")
        self.assertIn("Ask whoever shared it", self.driver.find_element(By.ID, "shared-notice").text)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, ".shared-tile"), [], "no photo: the search finds by a reader's rights")
        self.assertFalse(self.driver.find_element(By.ID, "slideshow-button").is_displayed(), "nothing to play")
        self.audit("share page of a smart album")
        self.screenshot("share-smart-album-phone")
        # A link that leads nowhere (revoked, expired, mistyped) says so in the same place.
        self.driver.get(base + re.sub(r"[^/]+$", "A" * 43, self.link_path))
        self.until(lambda: "expired or been revoked" in self.driver.find_element(By.ID, "shared-notice").text, "what a dead link says")
        self.assertEqual(self.driver.find_element(By.ID, "shared-status").text, "")
        self.screenshot("share-dead-link-phone")


if __name__ == "__main__":
    unittest.main()
