"""Album names are never cut where there is room: a pane's album chooser is
as wide as the album's path when the pane has the room, and holds the whole
path as its title (shown on hover) where it has not.

Run by scripts/browser-tests.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from page_session import PageSession

LONG = "Summer 2026 in the mountains of Portugal"

#: The width the chosen option's text needs in the select's own font, and the select's inner width.
MEASURE = """
const select = document.querySelector('#pane-0 .album-choice');
const style = getComputedStyle(select);
const context = document.createElement('canvas').getContext('2d');
context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
const text = select.selectedOptions[0].textContent;
const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
const inner = select.clientWidth - padding;
const header = select.parentElement, headerStyle = getComputedStyle(header);
// Room: the pane's header, inside its padding, less the select's own padding and the arrow's room (2.5rem, generous).
const room = header.clientWidth - parseFloat(headerStyle.paddingLeft) - parseFloat(headerStyle.paddingRight) - padding - 40;
return {text, title: select.title, needed: context.measureText(text).width, inner, room};
"""


class ChooserWidth:
    """The tests; mixed with PageSession once per size below."""

    def prepare(self):
        self.cli("folder", "create", "Travel")
        self.cli("album", "create", LONG, "--into", "Travel")

    def test_a_long_path_is_whole_where_there_is_room_and_in_the_title_always(self):
        Select(self.driver.find_element(By.CSS_SELECTOR, "#pane-0 .album-choice")).select_by_value(LONG)
        self.until(lambda: self.driver.execute_script(MEASURE)["title"] == "Travel/" + LONG, "the chooser's title")
        measured = self.driver.execute_script(MEASURE)
        self.assertEqual(measured["text"], "Travel/" + LONG)
        self.screenshot(f"chooser-{self.SIZE}")
        if measured["room"] >= measured["needed"]:
            # Where the pane has the room, the whole path shows (a pixel's rounding allowed).
            self.assertGreaterEqual(measured["inner"] + 1, measured["needed"], measured)
        elif self.SIZE == "desktop":
            self.fail(f"a desktop pane should have room for the path: {measured}")


class Desktop(ChooserWidth, PageSession):
    SIZE = "desktop"


class Tablet(ChooserWidth, PageSession):
    SIZE = "tablet"


class Phone(ChooserWidth, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
