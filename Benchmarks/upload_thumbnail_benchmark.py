"""The first thumbnail of an upload whose bytes a hidden photo holds,
beside a new photo's (issue 46: nothing of a hidden photo reaches its
uploader, not even as time).

A library holds a camera JPEG (3840 × 2160) in an album, Private, that sam
cannot see; an admin has looked at it, so its thumbnail is cached. sam,
editor of Mine, uploads to Mine, in turns:
- the hidden photo's very bytes: they become a photo of sam's own, whose
  thumbnail is made for it;
- the same picture with one more comment byte: bytes new to the library.
Each case is timed from the upload's request until the first 256 px
thumbnail of the photo it made has arrived, and that thumbnail's request
alone. Beside them, the admin reading the hidden photo's cached thumbnail:
what sam's first thumbnail would have cost had the upload joined the
hidden photo. Each case runs ROUNDS times, alternating, each on a fresh
server and thumbnail cache.

Run by `scripts/benchmark upload-thumbnail` with the release `albums` (ALBUMS_BINARY).
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
sys.path.insert(0, str(ROOT / "Reliability/Server"))
from serverkit import Library, Server, distinct_jpeg, fail, multipart, wait_until  # noqa: E402

ALBUMS = os.environ["ALBUMS_BINARY"]
CORPUS = ROOT / ".build/photo-corpus"
PASSWORD = "correct horse battery"
FAST = dict(os.environ, ALBUMS_BCRYPT_COST="4")
ROUNDS = 5


def camera_jpeg():
    photo = CORPUS / "photos/camera-mate-backgrounds-Elephants_3840x2160.jpg"
    if not photo.exists():
        subprocess.run([str(ROOT / "scripts/make-photo-corpus"), str(CORPUS)], check=True)
    return photo.read_bytes()


def household(folder, jpeg):
    library = Library(ALBUMS, folder)
    library.cli("init")
    for album in ("Private", "Mine"):
        library.cli("album", "create", album)
    hidden = folder / "hidden.jpg"
    hidden.write_bytes(jpeg)
    library.cli("import", str(hidden), "--to", "Private")
    library.cli("user", "add", "root", "--admin", input=PASSWORD + "\n", env=FAST)
    library.cli("user", "add", "sam", input=PASSWORD + "\n", env=FAST)
    library.cli("share", "add", "Mine", "--with", "sam", "--role", "editor")
    return library


def timed(server, method, path, cookie, body=None, headers=None):
    began = time.perf_counter()
    status, _, data = server.request(method, path, body=body, headers={"Cookie": cookie, **(headers or {})}, token=False, timeout=120)
    return status, data, (time.perf_counter() - began) * 1000


def one_round(folder, jpeg, upload):
    library = household(folder, jpeg)
    server = Server(library, extra_env={"XDG_CACHE_HOME": str(folder / "cache")})
    try:
        _, root = server.sign_in("root", PASSWORD)
        _, sam = server.sign_in("sam", PASSWORD)
        timed(server, "GET", "/api/photos/1/thumbnail?size=256", root)
        status, _, cached = timed(server, "GET", "/api/photos/1/thumbnail?size=256", root)
        if status != 200:
            fail(f"the hidden photo's thumbnail answered {status}")
        kind, body = multipart([("mine.jpg", upload)])
        began = time.perf_counter()
        status, _, _ = timed(server, "POST", "/api/albums/Mine/files", sam, body=body, headers={"Content-Type": kind})
        if status != 202:
            fail(f"sam's upload answered {status}")
        made = {}

        def committed():
            status, data, _ = timed(server, "GET", "/api/albums/Mine/items", sam)
            items = json.loads(data)["items"] if status == 200 else []
            if items and items[0].get("photo_id"):
                made["id"] = items[0]["photo_id"]
            return "id" in made

        if not wait_until(committed, 120, step=0.005):
            fail("sam's upload never committed")
        status, _, first = timed(server, "GET", f"/api/photos/{made['id']}/thumbnail?size=256", sam)
        whole = (time.perf_counter() - began) * 1000
        if status != 200:
            fail(f"sam's first thumbnail answered {status}")
        return made["id"], whole, first, cached
    finally:
        server.stop()
        library.check()


def main():
    jpeg = camera_jpeg()
    cases = {"hidden": jpeg, "new": distinct_jpeg(jpeg, 1)}
    results = {name: [] for name in cases}
    folder = Path(tempfile.mkdtemp(prefix="albums-upload-thumbnail-"))
    try:
        for index in range(ROUNDS):
            for name in (("hidden", "new") if index % 2 == 0 else ("new", "hidden")):
                round_folder = folder / f"{name}-{index}"
                round_folder.mkdir()
                results[name].append(one_round(round_folder, jpeg, cases[name]))
                shutil.rmtree(round_folder, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if any(photo == 1 for photo, *_ in results["hidden"]):
        fail("an upload of the hidden photo's bytes joined the hidden photo (id 1)")

    def median(name, column):
        return statistics.median(row[column] for row in results[name])

    print(f"\nsam's first thumbnail (256 px) of an upload of a {len(jpeg) / 1e6:.1f} MB camera JPEG, 3840 × 2160 "
          f"(median of {ROUNDS}, each on a fresh server and cache)")
    print("| sam uploads | upload to thumbnail | the thumbnail's request | runs (thumbnail's request, ms) |")
    print("|---|---:|---:|---|")
    for name, label in (("hidden", "the bytes of a photo hidden from him"), ("new", "bytes new to the library")):
        runs = ", ".join(f"{row[2]:.0f}" for row in results[name])
        print(f"| {label} | {median(name, 1):.0f} ms | {median(name, 2):.0f} ms | {runs} |")
    print(f"| (the hidden photo's thumbnail, cached: what joining it would have given) | | {median('hidden', 3):.1f} ms | |")
    print(f"\nthumbnail's request, hidden / new: {median('hidden', 2) / median('new', 2):.2f}×; "
          f"upload to thumbnail, hidden / new: {median('hidden', 1) / median('new', 1):.2f}×")


if __name__ == "__main__":
    main()
