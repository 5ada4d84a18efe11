"""Album names are never cut where there is room: a pane's album chooser is
as wide as the album's path when the pane has the room, and holds the whole
path as its title (shown on hover) where it has not; in the album list a
name wraps between words or after a slash, never inside a word.

Run by scripts/browser-tests.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from page_session import PageSession

LONG = "Summer 2026 in the mountains of Portugal"
SLASHED = "Grandparents/Thanksgiving dinner at the lake 2025"

#: The album list's name for SLASHED, line by line as drawn (two at most; what the clamp hides is left out).
LINES = """
const name = [...document.querySelectorAll('nav li .name')].find((each) => each.textContent === arguments[0]);
const box = name.getBoundingClientRect();
const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
const lines = new Map();
while (walker.nextNode()) {
  const node = walker.currentNode;
  for (let at = 0; at < node.length; at++) {
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    const rect = range.getBoundingClientRect();
    if (rect.bottom > box.bottom + 1) continue;
    const top = Math.round(rect.top);
    lines.set(top, (lines.get(top) ?? '') + node.data[at]);
  }
}
return [...lines.keys()].sort((a, b) => a - b).map((top) => lines.get(top));
"""

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
        self.cli("album", "create", SLASHED)

    def test_a_name_in_the_album_list_wraps_between_words_or_after_a_slash(self):
        self.until(lambda: self.driver.execute_script(LINES, SLASHED), "the name in the list")
        lines = self.driver.execute_script(LINES, SLASHED)
        self.assertLessEqual(len(lines), 2, lines)
        if len(lines) == 2:
            first = lines[0]
            after = SLASHED[len(first)]
            self.assertTrue(first.endswith(("/", " ")) or after == " ", f"{lines}: a word cut at the line's end")

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
