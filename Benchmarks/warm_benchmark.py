"""Thumbnails made before they are asked for (headless Chromium).

An album of 176 real camera photos is opened: the 22 JPEGs naming a
camera maker in the Debian wallpaper packages the photo corpus fetches,
each eight times with a different trailing byte (distinct photos to albums,
the same pixels to decode). It is opened:
- cold: `albums serve` just started on an empty thumbnail cache, the page
  opened at once, so every thumbnail of the first screen is made on request;
- warmed: the same, after the server's background warming has made the
  album's thumbnails (the time it took is reported per photo, beside
  `vipsthumbnail` making the same thumbnails one after the other).
"First screen" is until every tile in view shows its thumbnail. Each case
runs three times, each with a new cache, server and browser.

Run by `scripts/benchmark warm` with the release `albums` (ALBUMS_BINARY).
"""

import hashlib
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
CORPUS = ROOT / ".build/photo-corpus"
SIDE = 256  # what the grid asks for at its default zoom on a 1× screen

FIRST_SCREEN = """
const viewport = document.querySelector('#pane-0 .viewport');
if (document.body.dataset.ready !== 'true') return false;
const box = viewport.getBoundingClientRect();
const images = [...viewport.querySelectorAll('.tile img')].filter((image) => {
  const tile = image.closest('.tile').getBoundingClientRect();
  return tile.bottom > box.top && tile.top < box.bottom;
});
return images.length > 0 && images.every((image) => image.complete && (image.naturalWidth > 0 || image.closest('.tile').classList.contains('failed')));
"""


ALBUM = 176


def camera_photos(folder):
    """ALBUM distinct photos made of the camera JPEGs of the corpus's wallpaper packages, in `folder`."""
    debs = CORPUS / "debs"
    if not debs.is_dir():
        subprocess.run([str(ROOT / "scripts/make-photo-corpus"), str(CORPUS)], check=True)
    tree = folder / "tree"
    for deb in sorted(debs.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
    jpegs = sorted(str(path) for path in tree.rglob("*") if path.suffix.lower() in (".jpg", ".jpeg"))
    facts = json.loads(subprocess.run(["exiftool", "-j", "-n", "-G1", "-IFD0:Make", *jpegs], capture_output=True, text=True).stdout)
    originals = {}
    for fact in facts:
        data = Path(fact["SourceFile"]).read_bytes()
        if "IFD0:Make" in fact:
            originals.setdefault(hashlib.sha256(data).hexdigest(), (Path(fact["SourceFile"]).name.replace(" ", "_"), data))
    shutil.rmtree(tree)
    originals = sorted(originals.values())
    photos = folder / "photos"
    photos.mkdir()
    for index in range(ALBUM):
        name, data = originals[index % len(originals)]
        (photos / f"{index:03}-{name}").write_bytes(data + index.to_bytes(4, "big"))
    return sorted(photos.iterdir()), len(originals)


def serve(library, cache):
    server = subprocess.Popen([ALBUMS, "--library", library, "--json", "serve", "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    return server, json.loads(server.stdout.readline())["url"]


def first_screen(url):
    driver = browser()
    try:
        begun = time.perf_counter()
        driver.get(url)
        while not driver.execute_script(FIRST_SCREEN):
            time.sleep(0.01)
        return (time.perf_counter() - begun) * 1000
    finally:
        driver.quit()


def cached(cache):
    return len(list((cache / "albums/thumbnails").rglob(f"*-{SIDE}.jpg"))) if (cache / "albums/thumbnails").exists() else 0


def main():
    folder = Path(tempfile.mkdtemp(prefix="albums-warm-"))
    try:
        photos, distinct = camera_photos(folder)
        megapixels = []
        library = str(folder / "camera.albums")
        for arguments in (["init"], ["album", "create", "Camera"], ["import", *map(str, photos), "--to", "Camera"]):
            subprocess.run([ALBUMS, "--library", library, *arguments], check=True, capture_output=True)
        listing = json.loads(subprocess.run([ALBUMS, "--library", library, "--json", "list", "Camera"], check=True, capture_output=True, text=True).stdout)
        megapixels = [item["pixel_width"] * item["pixel_height"] / 1e6 for item in listing["items"]]
        cold, warmed, warming = [], [], []
        for run in range(3):
            cache = folder / f"cold-{run}"
            server, url = serve(library, cache)
            try:
                cold.append(first_screen(url))
            finally:
                server.terminate()
                server.wait(timeout=60)
            cache = folder / f"warm-{run}"
            begun = time.perf_counter()
            server, url = serve(library, cache)
            try:
                while cached(cache) < len(photos):
                    time.sleep(0.05)
                    if time.perf_counter() - begun > 600:
                        sys.exit(f"warming stopped at {cached(cache)} of {len(photos)}")
                warming.append(time.perf_counter() - begun)
                warmed.append(first_screen(url))
            finally:
                server.terminate()
                server.wait(timeout=60)
        out = folder / "vips"
        out.mkdir()
        begun = time.perf_counter()
        for photo in photos:
            subprocess.run(["vipsthumbnail", str(photo), "--size", f"{SIDE}x{SIDE}", "-o", str(out / (photo.stem + ".jpg"))],
                           check=True, stderr=subprocess.DEVNULL)
        vips = time.perf_counter() - begun
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    count = len(photos)
    per_photo = statistics.median(warming) / count * 1000
    print(f"\nthumbnails made before they are asked for — {count} camera JPEGs ({distinct} distinct pictures, "
          f"{statistics.median(megapixels):.1f} megapixels median), "
          "the page at 1400×900 in headless Chromium")
    print("| the album opened | first screen of thumbnails (median of 3) | runs |")
    print("|---|---:|---|")
    print(f"| cold: `albums serve` just started, empty cache | {statistics.median(cold):.0f} ms | {', '.join(f'{t:.0f}' for t in cold)} |")
    print(f"| warmed by the server in the background | {statistics.median(warmed):.0f} ms | {', '.join(f'{t:.0f}' for t in warmed)} |")
    print(f"\nwarming the album at {SIDE} px: {statistics.median(warming):.1f} s ({per_photo:.0f} ms a photo; runs {', '.join(f'{t:.1f}' for t in warming)} s), "
          f"one photo at a time, from the server's start")
    print(f"vipsthumbnail, the same {count} photos one after the other: {vips:.1f} s ({vips / count * 1000:.0f} ms a photo); "
          f"warming / vipsthumbnail: {per_photo / (vips / count * 1000):.2f}×")


if __name__ == "__main__":
    main()
