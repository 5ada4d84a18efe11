"""Scrolling an album of 10,000 photos in the organizer page (headless Chromium).

Measures what a person feels: how long the page takes to show the album,
and the time between frames while the grid scrolls, against the same
page's frames while nothing scrolls (the browser's own cadence: headless
Chromium draws at about 30 frames a second, without a GPU). Also counts the
tiles in the DOM while scrolling: only the rows in view should be drawn.

Run by `scripts/benchmark scroll [ITEMS]` (default 10,000) with the release
`albums` binary, whose path comes in ALBUMS_BINARY.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests/Browser"))
from headless import browser  # noqa: E402
ALBUMS = os.environ["ALBUMS_BINARY"]
TEMPLATE = ROOT / "Examples/Photos/01-harbour.jpg"

# Frame intervals while the page runs `frames` animation frames, scrolling
# `step` pixels each (0: nothing moves), and the most tiles seen in the DOM.
MEASURE = """
const [paneIndex, frames, step, done] = arguments;
const viewport = document.querySelectorAll('.viewport')[paneIndex];
const intervals = [];
let last = null, count = 0, tiles = 0;
function frame(now) {
  if (last !== null) intervals.push(now - last);
  last = now;
  tiles = Math.max(tiles, viewport.querySelectorAll('.tile').length);
  if (count++ === frames) { done({ intervals, tiles, scrollTop: viewport.scrollTop }); return; }
  if (step) viewport.scrollTop += step;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
"""


def library_with(items, folder):
    library = str(folder / "scroll.albums")
    photos = folder / "photos"
    photos.mkdir()
    template = TEMPLATE.read_bytes()
    for index in range(items):
        (photos / f"{index:06}.jpg").write_bytes(template + index.to_bytes(4, "big"))
    for arguments in (["init"], ["album", "create", "Book"], ["import", str(photos), "--to", "Book"], ["album", "create", "Empty"]):
        subprocess.run([ALBUMS, "--library", library, *arguments], check=True, capture_output=True)
    return library


def summary(intervals):
    ordered = sorted(intervals)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95)], ordered[-1]


def main():
    items = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    folder = Path(tempfile.mkdtemp(prefix="albums-scroll-"))
    started = time.perf_counter()
    library = library_with(items, folder)
    print(f"library of {items} photos made in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    server = subprocess.Popen([ALBUMS, "--library", library, "--json", "serve", "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "XDG_CACHE_HOME": str(folder / "cache")})
    driver = browser()
    try:
        url = json.loads(server.stdout.readline())["url"]
        driver.set_script_timeout(120)
        readies = []
        for _ in range(3):
            begun = time.perf_counter()
            driver.get(url)
            while driver.execute_script("return document.body.dataset.ready !== 'true' || !document.querySelector('.viewport .tile')"):
                time.sleep(0.01)
            readies.append((time.perf_counter() - begun) * 1000)
        shown = driver.execute_script("return document.querySelector('#pane-0 .pane-info')?.textContent ?? ''")
        idle = driver.execute_async_script(MEASURE, 0, 300, 0)
        scrolled = driver.execute_async_script(MEASURE, 0, 300, 400)
        # Again over the same rows: the thumbnails are made (cached by the server and the browser).
        driver.execute_script("document.querySelectorAll('.viewport')[0].scrollTop = 0")
        time.sleep(1)
        again = driver.execute_async_script(MEASURE, 0, 300, 400)
        # And at the pace of a hand on a trackpad or a wheel: 100 px a frame, 6,000 px a second.
        driver.execute_script("document.querySelectorAll('.viewport')[0].scrollTop = 0")
        time.sleep(1)
        paced = driver.execute_async_script(MEASURE, 0, 300, 100)
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)

    idle_median, idle_p95, idle_max = summary(idle["intervals"])
    median, p95, worst = summary(scrolled["intervals"])
    again_median, again_p95, again_max = summary(again["intervals"])
    paced_median, paced_p95, paced_max = summary(paced["intervals"])
    print(f"\nalbums serve's page — an album of {items} photos in headless Chromium (1400×900, no GPU)")
    print("| page ready with its first tiles (median of 3) | the pane says |")
    print("|---:|---|")
    print(f"| {statistics.median(readies):.0f} ms | {' '.join(shown.split())} |")
    print(f"\nframe intervals, 300 frames each, ms")
    print("| page | median | p95 | max | most tiles in the DOM | scrolled |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| idle (the browser's cadence) | {idle_median:.1f} | {idle_p95:.1f} | {idle_max:.1f} | {idle['tiles']} | 0 px |")
    print(f"| scrolling 400 px a frame, thumbnails made as they come into view | {median:.1f} | {p95:.1f} | {worst:.1f} | {scrolled['tiles']} | {scrolled['scrollTop']:.0f} px |")
    print(f"| the same rows again, thumbnails made | {again_median:.1f} | {again_p95:.1f} | {again_max:.1f} | {again['tiles']} | {again['scrollTop']:.0f} px |")
    print(f"| 100 px a frame, thumbnails made | {paced_median:.1f} | {paced_p95:.1f} | {paced_max:.1f} | {paced['tiles']} | {paced['scrollTop']:.0f} px |")
    print(f"\nscrolling / idle, median: {median / idle_median:.2f}× first time, {again_median / idle_median:.2f}× again, {paced_median / idle_median:.2f}× at 100 px a frame")


if __name__ == "__main__":
    main()
