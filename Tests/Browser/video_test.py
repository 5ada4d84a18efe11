"""Videos in the organizer: a tile marks a video with its length, and the
viewer plays it from the original (with its sound and controls), seeking
by Range, by pointer, finger and keyboard; a camcorder's AVI, which no
browser plays, from the rendition the server makes; the slideshow plays a
video to its end before it moves on. At a phone's, a tablet's and a
desktop's size, with an axe-core audit of the viewer playing.

Run by scripts/browser-tests. The clips are made by ffmpeg (installed by
scripts/install-dependencies): a WebM (VP9 and Opus) that any Chromium
plays, with a tone, an MP4 turned a quarter in its matrix by exiftool,
and an AVI of MPEG-4 Part 2 pictures and PCM sound.
"""

import json
import re
import shutil
import subprocess
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_session import PageSession

#: The video element's state, read in the page.
PLAYBACK = """
const video = document.getElementById('viewer-video');
return {hidden: video.hidden, src: video.getAttribute('src'), poster: video.getAttribute('poster'), paused: video.paused,
        time: video.currentTime, duration: video.duration, ready: video.readyState, error: video.error && video.error.code,
        image: !document.getElementById('viewer-image').hidden};
"""


def make_live_photo(folder):
    """A Live Photo as a phone leaves it, paired by name: IMG_0001.JPG and its 2-second IMG_0001.MOV."""
    live = folder / "live"
    live.mkdir()
    run = lambda *arguments: subprocess.run([shutil.which("ffmpeg"), "-v", "error", "-y", *arguments], check=True)
    run("-f", "lavfi", "-i", "testsrc2=size=480x360", "-frames:v", "1", str(live / "IMG_0001.JPG"))
    run("-f", "lavfi", "-i", "testsrc2=duration=2:size=480x360:rate=25", "-c:v", "libx264", "-pix_fmt", "yuv420p", str(live / "IMG_0001.MOV"))
    return live


def make_clips(folder):
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        raise unittest.SkipTest("ffmpeg is not installed (scripts/install-dependencies --photo-tools)")
    run = lambda *arguments: subprocess.run([ffmpeg, "-v", "error", "-y", *arguments], check=True)
    run("-f", "lavfi", "-i", "testsrc2=duration=4:size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:duration=4",
        "-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "300k", "-c:a", "libopus", "-shortest", str(folder / "tone.webm"))
    run("-f", "lavfi", "-i", "testsrc2=duration=2:size=320x240:rate=25", "-c:v", "libx264", "-pix_fmt", "yuv420p",
        str(folder / "upright.mp4"))
    # A phone's quarter turn in the track's matrix, written by exiftool (Debian's ffmpeg 5 writes none).
    exiftool = shutil.which("exiftool")
    if not exiftool:
        raise unittest.SkipTest("exiftool is not installed (scripts/install-dependencies --photo-tools)")
    subprocess.run([exiftool, "-q", "-overwrite_original", "-Rotation=90", str(folder / "upright.mp4")], check=True)
    run("-f", "lavfi", "-i", "testsrc2=duration=3:size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=660:duration=3",
        "-c:v", "mpeg4", "-q:v", "5", "-c:a", "pcm_s16le", "-shortest", str(folder / "camcorder.avi"))


class Videos:
    """The tests; mixed with PageSession once per size below."""

    def prepare(self):
        make_clips(self.folder)
        self.cli("album", "create", "Clips")
        self.cli("import", str(self.folder / "tone.webm"), str(self.folder / "upright.mp4"), "--to", "Clips")
        self.cli("album", "create", "Camcorder")
        self.cli("import", str(self.folder / "camcorder.avi"), "--to", "Camcorder")
        self.cli("album", "create", "Live")
        self.cli("import", str(make_live_photo(self.folder)), "--to", "Live")

    def playback(self):
        return self.driver.execute_script(PLAYBACK)

    def open_clips(self):
        from selenium.webdriver.support.ui import Select
        Select(self.find("#pane-0 .album-choice")).select_by_value("Clips")
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile")) == 2, "the album's two videos")
        self.until(lambda: self.driver.execute_script(
            "return [...document.querySelectorAll('#pane-0 .tile img')].every((i) => i.complete && i.naturalWidth > 0)"),
            "the videos' frames as thumbnails")

    def open_viewer(self, tile):
        if self.fingers:
            self.tap(tile)
        else:
            ActionChains(self.driver).double_click(tile).perform()
        self.until(lambda: self.find("#viewer").get_attribute("open") is not None, "the viewer")

    def test_a_video_tile_shows_its_length_and_the_viewer_plays_and_seeks_it(self):
        self.open_clips()
        # The album says what it holds: videos, not photos; the tree says it too, and a Live Photo is a photo.
        self.until(lambda: self.find("#pane-0 .pane-info").text == "2 videos", "the album's count")
        labels = self.driver.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('[role=treeitem][data-album]')].map((e) => [e.dataset.album, e.getAttribute('aria-label')]))")
        self.assertEqual(labels.get("Clips"), "Clips, 2 videos", labels)
        self.assertEqual(labels.get("Live"), "Live, 1 photo", labels)
        # Selected, they are videos too: select all by finger (the selection bar) or by keyboard.
        if self.fingers:
            self.long_press(self.tile(0, 1))
            self.press(self.find("#pane-0 .selection-bar .select-all"))
        else:
            self.tile(0, 1).click()
            self.driver.switch_to.active_element.send_keys(Keys.CONTROL, "a")
        self.until(lambda: self.find("#pane-0 .selection-count").text == "2 videos selected", "both selected")
        # Carrying them says videos too: the dialog's title and its proposal.
        self.press(self.find("#pane-0 .copy-to"))
        self.until(lambda: self.find("#transfer-dialog").is_displayed() and "Copies 2 videos" in self.find("#transfer-verdict").text,
                   "the dialog's proposal")
        self.assertEqual(self.find("#transfer-title").text, "Copy 2 videos to…")
        self.press(self.find("#transfer-dialog button[value=cancel]"))
        self.until(lambda: not self.find("#transfer-dialog").is_displayed(), "the dialog closed")
        self.press(self.find("#pane-0 .clear-selection"))
        self.until(lambda: not self.find("#pane-0 .selection-bar").is_displayed(), "the selection cleared")
        tile = self.tile(0, 1)
        self.assertEqual(tile.find_element(By.CSS_SELECTOR, ".video-badge").text, "▶ 0:04")
        self.assertIn("video, 4 seconds", tile.get_attribute("aria-label"))
        # The MP4 stands upright: its frame is taller than wide, as its matrix turns it.
        upright = self.driver.execute_script(
            "const i = document.querySelectorAll('#pane-0 .tile img')[1]; return [i.naturalWidth, i.naturalHeight]")
        self.assertLess(upright[0], upright[1], f"the turned clip's frame: {upright}")
        self.screenshot(f"video-tiles-{self.SIZE}")

        self.open_viewer(tile)
        self.until(lambda: self.playback()["ready"] >= 1, "the video's metadata, read from the original")
        state = self.playback()
        self.assertFalse(state["hidden"])
        self.assertTrue(state["image"] is False, "the still is hidden while a video is shown")
        self.assertTrue(state["src"].endswith("/original") and "/thumbnail" in state["poster"], state)
        self.assertAlmostEqual(state["duration"], 4, delta=0.2)

        # The keyboard alone: Space on the stage plays it, and it runs.
        self.find(".viewer-stage").send_keys(Keys.SPACE)
        self.until(lambda: self.playback()["time"] > 0.5, "the video playing")
        self.find(".viewer-stage").send_keys("k")
        self.until(lambda: self.playback()["paused"], "the video paused by K")
        # Seeking asks the server for a part of the original (Range).
        self.driver.execute_script("document.getElementById('viewer-video').currentTime = 3.2")
        self.until(lambda: abs(self.playback()["time"] - 3.2) < 0.3 and self.playback()["ready"] >= 2, "the video at 3.2 s")
        ranged = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(document.getElementById('viewer-video').getAttribute('src'), {headers: {Range: 'bytes=100-199'}})
              .then(async (r) => done([r.status, (await r.arrayBuffer()).byteLength, r.headers.get('content-type')]), (e) => done(String(e)));""")
        self.assertEqual(ranged, [206, 100, "video/webm"])
        self.assertIsNone(self.playback()["error"])
        self.screenshot(f"video-viewer-{self.SIZE}")
        self.audit("viewer showing a video")

        # On to the next: the MP4; back: the WebM again; Escape leaves, and the video stops.
        self.press(self.find("#viewer-next"))
        self.until(lambda: (self.playback()["src"] or "").endswith("/original") and self.playback()["ready"] >= 1, "the second video")
        self.find(".viewer-stage").send_keys(Keys.ESCAPE)
        self.until(lambda: self.find("#viewer").get_attribute("open") is None, "the viewer closed")
        self.assertIsNone(self.playback()["src"], "a closed viewer holds no video")

        # The library's timeline counts them as the albums do: three clips, and as photos the Live Photo's still and the examples.
        button = self.find("#albums-button")
        if button.is_displayed():
            self.press(button)
            self.until(lambda: self.find("nav").rect["x"] >= 0, "the drawer to open")
        self.press(self.find("#all-photos"))
        months = json.loads(self.cli("--json", "photos", "--months"))["months"]
        stills = sum(month["count"] - month["videos"] for month in months)
        self.assertEqual((sum(month["videos"] for month in months), stills > 1), (3, True), months)
        self.until(lambda: self.find("#pane-0 .pane-info").text == f"{stills} photos, 3 videos", "the timeline's count")

    def test_a_video_no_browser_plays_plays_from_the_rendition_made_for_it(self):
        from selenium.webdriver.support.ui import Select
        Select(self.find("#pane-0 .album-choice")).select_by_value("Camcorder")
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile")) == 1, "the camcorder's clip")
        self.open_viewer(self.tile(0, 1))
        preparing = "const p = document.getElementById('viewer-preparing'); return p.hidden ? null : [p.getAttribute('aria-valuenow'), p.textContent]"
        seen = self.driver.execute_script(preparing)
        if seen is not None:
            # Caught while it is made (the server may have made it already, in the background): how far it is, in words and as a ring.
            self.assertRegex(seen[0], r"^\d{1,3}$")
            self.assertIn("Preparing this video to play", seen[1])
            self.screenshot(f"video-preparing-{self.SIZE}")
        self.until(lambda: (self.playback()["src"] or "").endswith("/rendition") and self.playback()["ready"] >= 1,
                   "the rendition, made by ffmpeg, in the video element", timeout=60)
        self.assertIsNone(self.driver.execute_script(preparing), "the progress gone once it plays")
        state = self.playback()
        self.assertIsNone(state["error"])
        self.assertAlmostEqual(state["duration"], 3, delta=0.2)
        self.assertEqual(self.driver.execute_script("return document.getElementById('viewer-video').videoWidth"), 640)
        self.find(".viewer-stage").send_keys(Keys.SPACE)
        self.until(lambda: self.playback()["time"] > 0.5, "the rendition playing")
        self.assertTrue(self.find("#viewer-video-failed").get_attribute("hidden") is not None, "no word of a format the browser cannot play")
        self.screenshot(f"video-rendition-{self.SIZE}")

    def test_a_share_link_moves_a_live_photo_and_plays_a_video_no_browser_plays(self):
        base = re.sub(r"/(\?token=.*)?$", "", self.url)
        self.driver.get(base + self.cli("link", "create", "Live").strip())
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, ".shared-tile")) == 1, "the Live Photo, one item")
        self.assertEqual(self.find("#shared-status").text, "1 photo")
        self.press(self.find(".shared-tile"))
        self.until(lambda: self.find("#shared-viewer").get_attribute("open") is not None, "the share viewer")
        button = self.find("#shared-live")
        self.until(lambda: button.is_displayed(), "the LIVE button")
        motion = "const m = document.getElementById('shared-motion'); return {hidden: m.hidden, time: m.currentTime, still: !document.getElementById('shared-image').hidden}"
        self.press(button)
        self.until(lambda: not self.driver.execute_script(motion)["hidden"] and self.driver.execute_script(motion)["time"] > 0.3, "the motion playing")
        self.assertFalse(self.driver.execute_script(motion)["still"], "the motion in its still's place")
        self.screenshot(f"share-live-photo-{self.SIZE}")
        self.until(lambda: self.driver.execute_script(motion)["hidden"] and self.driver.execute_script(motion)["still"], "the still again once it ended", timeout=8)

        self.driver.get(base + self.cli("link", "create", "Camcorder").strip())
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, ".shared-tile")) == 1, "the camcorder's clip")
        self.assertEqual(self.find("#shared-status").text, "1 video", "the link's page says what the album holds")
        self.press(self.find(".shared-tile"))
        video = "const v = document.getElementById('shared-video'); return {src: v.getAttribute('src'), ready: v.readyState, error: v.error && v.error.code, width: v.videoWidth}"
        self.until(lambda: (self.driver.execute_script(video)["src"] or "").endswith("/rendition") and self.driver.execute_script(video)["ready"] >= 1,
                   "the rendition in the share viewer", timeout=60)
        state = self.driver.execute_script(video)
        self.assertIsNone(state["error"])
        self.assertEqual(state["width"], 640)
        self.screenshot(f"share-video-rendition-{self.SIZE}")
        self.audit("share viewer playing a video")

    def test_the_slideshow_plays_a_video_to_its_end_then_moves_on(self):
        self.open_clips()
        self.open_viewer(self.tile(0, 1))
        self.until(lambda: self.playback()["ready"] >= 1, "the video's metadata")
        self.driver.execute_script("document.getElementById('viewer-interval').value = '2'")
        self.press(self.find("#viewer-play"))
        # Still on the first clip after the photo interval: it plays to its end (4 s).
        self.until(lambda: self.playback()["time"] > 2.5, "the video playing on in the slideshow", timeout=15)
        self.assertIn("1 of 2", self.find("#viewer-position").text)
        self.until(lambda: "2 of 2" in self.find("#viewer-position").text, "the next clip once the first ended", timeout=15)


    def test_a_live_photo_is_one_item_whose_still_moves_when_pressed(self):
        from selenium.webdriver.support.ui import Select
        Select(self.find("#pane-0 .album-choice")).select_by_value("Live")
        self.until(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#pane-0 .tile")) == 1, "one item: the still and its motion")
        tile = self.tile(0, 1)
        self.assertEqual(tile.find_element(By.CSS_SELECTOR, ".live-badge").text, "◎ LIVE")
        self.assertIn("Live Photo", tile.get_attribute("aria-label"))
        self.open_viewer(tile)
        button = self.find("#viewer-live")
        self.until(lambda: button.is_displayed(), "the LIVE button")
        motion = "const m = document.getElementById('viewer-motion'); return {hidden: m.hidden, time: m.currentTime, src: m.getAttribute('src')}"
        self.assertTrue(self.driver.execute_script(motion)["src"].endswith("/motion"))
        if not self.fingers:
            # A mouse resting on the still plays it; moved away, it stops.
            ActionChains(self.driver).move_to_element(self.find("#viewer-image")).perform()
            self.until(lambda: not self.driver.execute_script(motion)["hidden"], "the motion playing under the mouse")
            ActionChains(self.driver).move_to_element(self.find("#viewer-title")).perform()
            self.until(lambda: self.driver.execute_script(motion)["hidden"], "the motion stopped as the mouse left")
        # The keyboard: L plays the motion over the still, and it ends by itself.
        self.find(".viewer-stage").send_keys("l")
        self.until(lambda: not self.driver.execute_script(motion)["hidden"] and self.driver.execute_script(motion)["time"] > 0.3, "the motion playing")
        self.assertEqual(button.get_attribute("aria-pressed"), "true")
        self.screenshot(f"live-photo-playing-{self.SIZE}")
        self.until(lambda: self.driver.execute_script(motion)["hidden"], "the motion ended, the still again", timeout=8)
        # A pointer or a finger on the button plays it too.
        self.press(button)
        self.until(lambda: not self.driver.execute_script(motion)["hidden"], "the motion playing from the button")
        self.press(button)
        self.until(lambda: self.driver.execute_script(motion)["hidden"], "the motion stopped from the button")


class Desktop(Videos, PageSession):
    SIZE = "desktop"


class Tablet(Videos, PageSession):
    SIZE = "tablet"


class Phone(Videos, PageSession):
    SIZE = "phone"


if __name__ == "__main__":
    unittest.main(verbosity=2)
