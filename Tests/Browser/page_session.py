"""What the page's browser tests share: the real `albums` binary serving a
new library of the example photos, a headless Chromium at a chosen size
(with touch for phones and tablets), and the CLI to check what the library
holds afterwards. Screenshots land in ALBUMS_SCREENSHOTS (default:
.build/browser-screenshots).
"""

import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from headless import browser

ROOT = Path(__file__).resolve().parents[2]
ALBUMS = os.environ.get("ALBUMS_BINARY", str(ROOT / ".build/debug/albums"))
PHOTOS = ROOT / "Examples/Photos"
SHOTS = Path(os.environ.get("ALBUMS_SCREENSHOTS", ROOT / ".build/browser-screenshots"))

def axe_script():
    """axe-core's script, from the package that bundles it."""
    import selenium_axe_python
    return (os.path.dirname(selenium_axe_python.__file__) + "/axe-core/axe.min.js")


#: The screens the page is built for: width, height, and whether a finger drives it.
SIZES = {"desktop": (1400, 900, False), "tablet": (820, 1180, True), "phone": (390, 844, True)}


class PageSession(unittest.TestCase):
    """A server on a new library and a browser on its page."""

    #: One of SIZES; the page is opened at that size.
    SIZE = "desktop"

    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="albums-browser-"))
        self.library = str(self.folder / "book.albums")
        self.cli("init")
        self.cli("album", "create", "Trip")
        self.cli("album", "create", "Book")
        photos = ["01-harbour.jpg", "02-market.png", "03-cliffs.webp", "04-lighthouse.webp", "06-map.gif", "07-scan.tiff"]
        self.cli("import", *[str(PHOTOS / name) for name in photos], "--to", "Trip")
        self.prepare()
        # Thumbnails and videos' renditions are made afresh for each test: what a test sees never comes from another's run.
        self.server = subprocess.Popen(
            [ALBUMS, "--library", self.library, "--json", "serve", "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "XDG_CACHE_HOME": str(self.folder / "cache")})
        self.url = json.loads(self.server.stdout.readline())["url"]
        self.drivers = []
        self.driver = self.open_page() if self.OPENS_ORGANIZER else self.open_browser()

    #: Whether setUp opens the organizer page (a subclass may open another first).
    OPENS_ORGANIZER = True

    def prepare(self):
        """What a subclass adds to the library before the server starts."""

    def tearDown(self):
        for driver in self.drivers:
            for entry in driver.get_log("browser"):
                if entry["level"] == "SEVERE":
                    print(f"  page console: {entry['message']}")
            driver.quit()
        self.server.terminate()
        self.server.wait(timeout=20)
        shutil.rmtree(self.folder, ignore_errors=True)

    # The library, through the CLI

    def cli(self, *arguments, input=None):
        result = subprocess.run(
            [ALBUMS, "--library", self.library, *arguments], capture_output=True, text=True, input=input,
            env={**os.environ, "ALBUMS_BCRYPT_COST": "4"})
        self.assertEqual(result.returncode, 0, f"albums {' '.join(arguments)}: {result.stderr}")
        return result.stdout

    def files(self, album):
        """The file names in `album`, in order, as `albums list --json` gives them (None: a placeholder)."""
        listing = json.loads(self.cli("--json", "list", album))
        return [item["file"] for item in listing["items"]]

    # The page

    def open_page(self):
        driver = self.open_browser()
        driver.get(self.url)
        self.until(lambda: driver.execute_script("return document.body.dataset.ready") == "true", "the page to load")
        return driver

    def open_browser(self):
        """A browser at this session's size, on no page yet."""
        driver = browser()
        self.drivers.append(driver)
        width, height, touch = SIZES[self.SIZE]
        if self.SIZE != "desktop":
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": touch})
        if touch:
            driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        return driver

    def until(self, condition, what, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if condition():
                    return
            except Exception:
                pass
            time.sleep(0.05)
        self.fail(f"timed out waiting for {what}; the page says: {self.status()!r}")

    def tile(self, pane, position, driver=None):
        driver = driver or self.driver
        for tile in driver.find_elements(By.CSS_SELECTOR, f"#pane-{pane} .tile"):
            if tile.find_element(By.CSS_SELECTOR, ".position").text == str(position):
                return tile
        raise AssertionError(f"no tile at position {position} in pane {pane}")

    def shown(self, pane, driver=None):
        """The file names the page shows in a pane, in order."""
        driver = driver or self.driver
        return driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])]"
            ".sort((a, b) => Number(a.querySelector('.position').textContent) - Number(b.querySelector('.position').textContent))"
            ".map((tile) => tile.title || null)", f"#pane-{pane} .tile")

    def status(self):
        found = self.driver.find_elements(By.ID, "status")
        return found[0].text if found else ""  # pages other than the organizer's have none

    def audit(self, what):
        """axe-core on the page as it is: no serious or critical violation."""
        with open(axe_script(), encoding="utf8") as script:
            self.driver.execute_script(script.read())
        results = self.driver.execute_async_script("const done = arguments[arguments.length - 1]; axe.run().then(done, (e) => done({ error: String(e) }));")
        self.assertNotIn("error", results, results.get("error"))
        bad = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
        report = "\n".join(f"{v['impact']}: {v['id']}: {v['help']} — {[n['target'] for n in v['nodes']][:4]}" for v in bad)
        self.assertEqual(bad, [], f"axe-core on the {what} at {self.SIZE} size:\n{report}")

    def screenshot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(SHOTS / f"{name}.png"))

    def drag(self, source, target, x=0, y=0, hold=None, release=True):
        """A pointer drag from `source` to a point `x`, `y` from `target`'s centre, pausing while the page asks for the proposal."""
        chain = ActionChains(self.driver, duration=50)
        if hold:
            chain.key_down(hold)
        chain.move_to_element(source).click_and_hold().move_by_offset(12, 8).pause(0.2)
        chain.move_to_element_with_offset(target, x, y).pause(0.2).move_by_offset(1, 1).pause(0.6)
        if release:
            chain.release()
        if hold:
            chain.key_up(hold)
        chain.perform()

    def touch(self, kind, *points):
        """A touch event through Chromium's input pipeline (DevTools), as a touch screen sends it."""
        self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": index} for index, (x, y) in enumerate(points)]})

    def centre(self, element):
        return self.driver.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2];", element)

    @property
    def fingers(self):
        """Whether this size is a touch screen's: a finger, not a mouse."""
        return SIZES[self.SIZE][2]

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def press(self, element):
        """A tap with a finger, a click with the mouse."""
        if self.fingers:
            self.tap(element)
        else:
            element.click()

    def tap(self, element):
        """A finger's quick tap on the element's centre (not so soon after another touch that it makes a double tap)."""
        time.sleep(0.35)
        x, y = self.centre(element)
        self.touch("touchStart", (x, y))
        time.sleep(0.05)
        self.touch("touchEnd")

    def long_press(self, element, seconds=0.6):
        """A finger resting on the element, then lifted without moving."""
        x, y = self.centre(element)
        self.touch("touchStart", (x, y))
        time.sleep(seconds)
        self.touch("touchEnd")
