"""The viewer shows the whole photo, fitted to the screen: a landscape and a
portrait photo, larger than any screen, each measured against the viewport
at a phone's, a tablet's and a desktop's size and at 1920×1080. The photo
must lie wholly on screen, fill the viewer's stage in one direction, and
the viewer must not scroll.

Run by scripts/browser-tests. The photos are PNGs the test writes itself
(Python's zlib), so that no image tool is needed.
"""

import struct
import time
import unittest
import zlib

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from page_session import PageSession


def write_png(path, width, height):
    """A grey-scale PNG of `width` × `height` with bands, so that it is not one colour."""
    bands = [bytes(((x // 40) * 23 + shade * 31) % 256 for x in range(width)) for shade in range(8)]
    raw = b"".join(b"\x00" + bands[(y // 50) % 8] for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


#: Where the shown photo lies, in CSS pixels, computed from the image box and
#: the rendition's own size as `object-fit: contain` places it.
MEASURE = """
const image = document.getElementById('viewer-image');
const box = image.getBoundingClientRect();
const scale = Math.min(box.width / image.naturalWidth, box.height / image.naturalHeight);
const width = image.naturalWidth * scale, height = image.naturalHeight * scale;
const left = box.left + (box.width - width) / 2, top = box.top + (box.height - height) / 2;
const stage = document.querySelector('.viewer-stage').getBoundingClientRect();
const viewer = document.getElementById('viewer');
return {left, top, right: left + width, bottom: top + height, width, height,
        viewportWidth: innerWidth, viewportHeight: innerHeight,
        stageWidth: stage.width, stageHeight: stage.height, stageBottom: stage.bottom,
        scrolls: viewer.scrollHeight > viewer.clientHeight + 1 || document.scrollingElement.scrollHeight > innerHeight + 1};
"""


class ViewerFit:
    """The tests; mixed with PageSession once per size below."""

    #: A size beyond SIZES, set by the class: (width, height) or None.
    SCREEN = None

    def prepare(self):
        self.cli("album", "create", "Big")
        write_png(self.folder / "wide.png", 3000, 2000)
        write_png(self.folder / "tall.png", 2000, 3000)
        self.cli("import", str(self.folder / "wide.png"), str(self.folder / "tall.png"), "--to", "Big")

    def open_page(self):
        driver = super().open_page()
        if self.SCREEN:
            width, height = self.SCREEN
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return driver

    def measured(self, name):
        self.until(lambda: self.find("#viewer-title").text == name, f"{name} in the viewer")
        self.until(lambda: self.driver.execute_script(
            "const i = document.getElementById('viewer-image'); return i.complete && i.naturalWidth > 0 && i.currentSrc.length > 0"),
            "its display rendition")
        time.sleep(0.2)  # layout after the rendition's size is known
        return self.driver.execute_script(MEASURE)

    def check_fits(self, name, shape):
        place = self.measured(name)
        what = f"{name} at {place['viewportWidth']}×{place['viewportHeight']}: {place}"
        self.assertGreaterEqual(place["left"], -0.5, what)
        self.assertGreaterEqual(place["top"], -0.5, what)
        self.assertLessEqual(place["right"], place["viewportWidth"] + 0.5, what)
        self.assertLessEqual(place["bottom"], place["viewportHeight"] + 0.5, what)
        self.assertLessEqual(place["stageBottom"], place["viewportHeight"] + 0.5, what)
        self.assertFalse(place["scrolls"], f"the viewer scrolls: {what}")
        # As large as it fits: it fills the stage across or down.
        fills = abs(place["width"] - place["stageWidth"]) < 2 or abs(place["height"] - place["stageHeight"]) < 2
        self.assertTrue(fills, f"the photo does not fill the stage either way: {what}")
        self.assertEqual(place["width"] > place["height"], shape == "landscape", what)
        self.screenshot(f"viewer-fit-{self.SIZE}{'-' + 'x'.join(map(str, self.SCREEN)) if self.SCREEN else ''}-{shape}")

    def test_the_whole_photo_fits_the_screen_landscape_and_portrait(self):
        Select(self.find("#pane-0 .album-choice")).select_by_value("Big")
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile")) == 2, "the album's two photos")
        tile = self.tile(0, 1)
        if self.fingers:
            self.tap(tile)
        else:
            ActionChains(self.driver).double_click(tile).perform()
        self.check_fits("wide.png", "landscape")
        self.press(self.find("#viewer-next"))
        self.check_fits("tall.png", "portrait")


class Desktop(ViewerFit, PageSession):
    SIZE = "desktop"


class FullHD(ViewerFit, PageSession):
    SIZE = "desktop"
    SCREEN = (1920, 1080)


class Tablet(ViewerFit, PageSession):
    SIZE = "tablet"


class Phone(ViewerFit, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
