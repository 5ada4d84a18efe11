"""Words and marks in the viewer: a heart, stars, rejected, and a title,
caption and keywords written in its form; by keys on a desktop, by taps on
a phone. Each change reaches the library (read back with the CLI) and the
page shows it; a person who only views the album sees the marks, and the
buttons are not theirs to press.

Run by scripts/browser-tests.
"""

import json
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_session import PageSession


class Marks:
    """What both kinds of test use; each is mixed with PageSession once per size below."""

    def item(self, position):
        return json.loads(self.cli("--json", "list", "Trip"))["items"][position - 1]

    def open_viewer(self, position):
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile")) >= position, "the album's photos")
        tile = self.tile(0, position)
        if self.fingers:
            self.tap(tile)
        else:
            ActionChains(self.driver).double_click(tile).perform()
        self.until(lambda: self.find("#viewer").is_displayed(), "the viewer")
        self.until(lambda: not self.find("#viewer-favorite").get_property("disabled"), "the marks to be the reader's to change")



class EditableMarks(Marks):
    """The holder's page: every mark theirs to write."""

    def test_a_heart_stars_and_words_reach_the_library_and_show(self):
        self.open_viewer(2)
        if self.fingers:
            self.press(self.find("#viewer-favorite"))
            self.press(self.find("#viewer-marks .star:nth-child(4)"))
        else:
            stage = self.find(".viewer-stage")
            stage.send_keys("f")
            self.until(lambda: self.item(2)["favorite"], "the heart in the library")
            stage.send_keys("4")
        self.until(lambda: self.item(2)["favorite"] and self.item(2)["rating"] == 4, "a heart and four stars in the library")
        self.until(lambda: self.find("#viewer-favorite").get_attribute("aria-pressed") == "true", "the heart pressed")
        self.assertEqual(self.find("#viewer-marks .star:nth-child(4)").get_attribute("aria-pressed"), "true")
        self.assertEqual(self.item(1)["favorite"], False, "only the photo shown")

        self.press(self.find("#viewer-edit-words"))
        self.until(lambda: self.find("#viewer-words").is_displayed(), "the words' form")
        self.find("#viewer-words-title").send_keys("The market")
        self.find("#viewer-words-caption").send_keys("Saturday morning,\nbefore the rain")
        self.find("#viewer-words-keywords").send_keys("family, Porto")
        self.press(self.find("#viewer-words button[type=submit]"))
        self.until(lambda: self.item(2)["caption"] == "Saturday morning,\nbefore the rain", "the caption in the library")
        item = self.item(2)
        self.assertEqual((item["title"], item["keywords"]), ("The market", ["family", "Porto"]))
        self.until(lambda: self.find("#viewer-caption").text.startswith("Saturday morning,"), "the caption under the photo")
        self.until(lambda: self.find("#viewer-title").text == "The market", "the title above it")
        chips = [chip.text for chip in self.driver.find_elements(By.CSS_SELECTOR, "#viewer-keywords li")]
        self.assertEqual(chips, ["family", "Porto"])
        self.screenshot(f"marks-{self.SIZE}")
        self.audit("viewer with marks")

        if not self.fingers:
            # Typing in the form is typing: F and the arrows mark and step nothing there.
            self.find("#viewer-edit-words").click()
            field = self.find("#viewer-words-title")
            field.send_keys(" f", Keys.ARROW_LEFT)
            self.assertTrue(self.item(2)["favorite"], "F typed in a field is a letter")
            self.find("#viewer-words-cancel").click()
            self.find(".viewer-stage").send_keys("x")
            self.until(lambda: self.item(2)["rating"] == "rejected", "X rejects")

class ReadOnlyMarks(Marks):
    """A person who views the album: signed in, before the page opens."""

    OPENS_ORGANIZER = False

    def prepare(self):
        self.cli("mark", "Trip:1", "--favorite", "--rating", "3", "--caption", "Written by the holder")
        self.cli("user", "add", "gran", input="grandma's pass\n")
        self.cli("share", "add", "Trip", "--with", "gran", "--role", "viewer")

    def test_a_viewer_sees_the_marks_and_cannot_change_them(self):
        self.driver.get(self.url)
        self.until(lambda: self.driver.find_element(By.ID, "signin-name").is_displayed(), "the sign-in page")
        self.driver.find_element(By.ID, "signin-name").send_keys("gran", Keys.TAB, "grandma's pass", Keys.ENTER)
        self.until(lambda: self.driver.execute_script("return document.body.dataset.ready") == "true", "the page as gran")
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile")) >= 1, "Trip's photos")
        tile = self.tile(0, 1)
        if self.fingers:
            self.tap(tile)
        else:
            ActionChains(self.driver).double_click(tile).perform()
        self.until(lambda: self.find("#viewer-caption").text == "Written by the holder", "the caption")
        self.until(lambda: self.find("#viewer-favorite").get_attribute("aria-pressed") == "true", "the heart, as marked")
        self.until(lambda: self.find("#viewer-favorite").get_property("disabled"), "a viewer's heart is not a button to press")
        self.find(".viewer-stage").send_keys("f")
        self.assertTrue(self.item(1)["favorite"], "nor a key to press")
        self.screenshot(f"marks-viewer-{self.SIZE}")


class Desktop(EditableMarks, PageSession):
    SIZE = "desktop"


class Phone(EditableMarks, PageSession):
    SIZE = "phone"


class ViewerDesktop(ReadOnlyMarks, PageSession):
    SIZE = "desktop"


class ViewerPhone(ReadOnlyMarks, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
