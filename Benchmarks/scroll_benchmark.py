"""The organizer page with albums of any size (headless Chromium).

Two parts:
1. Albums of 10,000, 100,000 and 1,000,000 items (made in one statement by
   `albums-benchmarks library`; their photos' files do not exist, so the
   tiles are drawn without thumbnails): how long after the page is asked
   for its first tiles stand, the page's JavaScript heap once the album is
   open, and how long a jump to the middle (the scrollbar dragged there)
   takes to draw that window's tiles. Targets: first tiles within 300 ms,
   the heap at a million within 2× the heap at 10,000, a jump within 300 ms.
2. Scrolling an album of real photos (default 10,000, imported): what a
   person feels, the time between frames while the grid scrolls, against
   the same page's frames while nothing scrolls (the browser's own cadence:
   headless Chromium draws at about 30 frames a second, without a GPU), and
   the tiles in the DOM: only the rows in view should be drawn.

Run by `scripts/benchmark scroll [ITEMS] [--sizes N,N,N]` with the release
`albums` binary (ALBUMS_BINARY) and benchmarks (ALBUMS_BENCHMARKS).
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
BENCHMARKS = os.environ["ALBUMS_BENCHMARKS"]
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


FIRST_TILES = "return document.body.dataset.ready === 'true' && document.querySelector('#pane-0 .tile') !== null"

# Jumps the first pane to `fraction` of its height and answers the ms until a
# tile at least that far into the album is drawn.
JUMP = """
const [fraction, done] = arguments;
const viewport = document.querySelectorAll('.viewport')[0];
const count = Number(viewport.getAttribute('aria-label').match(/([0-9,]+) item/)[1].replace(/,/g, ''));
const wanted = Math.floor(count * fraction * 0.98);
const begun = performance.now();
viewport.scrollTop = (viewport.scrollHeight - viewport.clientHeight) * fraction;
function look() {
  const drawn = [...viewport.querySelectorAll('.tile')].some((tile) => Number(tile.getAttribute('aria-posinset')) >= wanted);
  if (drawn) { done(performance.now() - begun); return; }
  if (performance.now() - begun > 10000) { done(-1); return; }
  requestAnimationFrame(look);
}
look();
"""


# The library's timeline: All photos clicked, the ms until its first tiles stand.
TIMELINE_FIRST = """
const done = arguments[arguments.length - 1];
document.getElementById('all-photos').click();
const begun = performance.now();
(function look() {
  if (document.querySelector('#pane-0 .timeline-canvas .tile')) done(performance.now() - begun);
  else if (performance.now() - begun > 20000) done(-1);
  else requestAnimationFrame(look);
})();
"""

# Scrolls the timeline to its end `times` over (each reads a page more); answers the tiles in the DOM.
TIMELINE_FAR = """
const [times, done] = arguments;
const viewport = document.querySelector('#pane-0 .timeline-viewport');
let count = 0;
(function step() {
  viewport.scrollTop = viewport.scrollHeight;
  if (++count >= times) done(viewport.querySelectorAll('.tile').length);
  else setTimeout(step, 60);
})();
"""

# Jumps the timeline to its oldest month; the ms until that month's tiles stand.
TIMELINE_JUMP = """
const done = arguments[arguments.length - 1];
const choice = document.querySelector('#pane-0 .month-choice');
const oldest = choice.options[choice.options.length - 1];
const begun = performance.now();
choice.value = oldest.value;
choice.dispatchEvent(new Event('change'));
(function look() {
  const newer = document.querySelector('#pane-0 .newer');
  if (!newer.hidden && document.querySelector('#pane-0 .timeline-canvas .tile')) done(performance.now() - begun);
  else if (performance.now() - begun > 20000) done(-1);
  else requestAnimationFrame(look);
})();
"""


def serve(library, folder):
    """`albums serve` on `library`, its thumbnails cached in `folder`; answers the process and its URL."""
    server = subprocess.Popen([ALBUMS, "--library", library, "--json", "serve", "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "XDG_CACHE_HOME": str(folder / "cache")})
    return server, json.loads(server.stdout.readline())["url"]


def open_album(driver, url):
    """Opens the page and answers the ms until its first tiles stand."""
    begun = time.perf_counter()
    driver.get(url)
    while not driver.execute_script(FIRST_TILES):
        time.sleep(0.005)
    return (time.perf_counter() - begun) * 1000


def sizes_part(sizes, folder):
    rows = []
    timelines = []
    for items in sizes:
        library = str(folder / f"sized-{items}.albums")
        begun = time.perf_counter()
        subprocess.run([BENCHMARKS, "library", str(items), library], check=True, capture_output=True)
        print(f"library of {items} items made in {time.perf_counter() - begun:.0f} s", file=sys.stderr)
        server, url = serve(library, folder)
        driver = browser()
        try:
            driver.set_script_timeout(60)
            open_album(driver, url)  # the first visit sets the cookie and warms the server
            firsts = [open_album(driver, url) for _ in range(3)]
            time.sleep(0.5)
            driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            heap = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"]
            jumps = [driver.execute_async_script(JUMP, fraction) for fraction in (0.5, 0.25, 0.75)]
            driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            heap_after = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"]
            shown = driver.execute_script("return document.querySelector('#pane-0 .pane-info')?.textContent ?? ''")
            # The library's timeline of the same photos: first tiles, heap, 30 pages scrolled, the oldest month.
            timeline_firsts = []
            for _ in range(3):
                open_album(driver, url)
                timeline_firsts.append(driver.execute_async_script(TIMELINE_FIRST))
            time.sleep(0.5)
            driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            timeline_heap = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"]
            timeline_dom = driver.execute_async_script(TIMELINE_FAR, 30)
            driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            timeline_heap_far = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"]
            time.sleep(1)  # the months are read after the first page
            timeline_jump = driver.execute_async_script(TIMELINE_JUMP)
        finally:
            driver.quit()
            server.terminate()
            server.wait(timeout=20)
        rows.append((items, statistics.median(firsts), heap, heap_after, statistics.median(jumps), shown))
        timelines.append((items, statistics.median(timeline_firsts), timeline_heap, timeline_heap_far, timeline_dom, timeline_jump))
    print("\nalbums serve's page — albums of any size in headless Chromium (1400×900, no GPU)")
    print("| album | first tiles after the page is asked for (median of 3) | JS heap, album open | after three jumps | jump to the middle, first tiles there (median of 3) | the pane says |")
    print("|---:|---:|---:|---:|---:|---|")
    for items, first, heap, after, jump, shown in rows:
        print(f"| {items:,} | {first:.0f} ms | {heap / 1048576:.2f} MiB | {after / 1048576:.2f} MiB | {jump:.0f} ms | {' '.join(shown.split())} |")
    print("\nthe library's timeline (All photos) of the same photos")
    print("| photos | first tiles after All photos (median of 3) | JS heap, timeline open | after 30 pages scrolled | tiles in the DOM then | a jump to the oldest month |")
    print("|---:|---:|---:|---:|---:|---:|")
    for items, first, heap, far, dom, jump in timelines:
        print(f"| {items:,} | {first:.0f} ms | {heap / 1048576:.2f} MiB | {far / 1048576:.2f} MiB | {dom} | {jump:.0f} ms |")
    smallest, largest = rows[0], rows[-1]
    print(f"\nheap at {largest[0]:,} / at {smallest[0]:,}: {largest[2] / smallest[2]:.2f}× (target ≤ 2×); "
          f"slowest first tiles {max(r[1] for r in rows):.0f} ms, slowest jump {max(r[4] for r in rows):.0f} ms (targets ≤ 300 ms)")


def main():
    arguments = sys.argv[1:]
    sizes = [10_000, 100_000, 1_000_000]
    if "--sizes" in arguments:
        at = arguments.index("--sizes")
        sizes = [int(size) for size in arguments[at + 1].split(",")]
        del arguments[at:at + 2]
    items = int(arguments[0]) if arguments else 10_000
    folder = Path(tempfile.mkdtemp(prefix="albums-scroll-"))
    try:
        sizes_part(sizes, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if items == 0:
        return
    folder = Path(tempfile.mkdtemp(prefix="albums-scroll-"))
    started = time.perf_counter()
    library = library_with(items, folder)
    print(f"library of {items} photos made in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    server, url = serve(library, folder)
    driver = browser()
    try:
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
