"""Originals kept on disk and in a bucket, side by side in one run.

1. `albums import --copy` of 40 photos of 2 MB each (a real JPEG header,
   then random bytes: distinct photos) into a folder the library manages,
   against the same into a bucket of the S3 server the test scripts run
   (OpenStack Swift's s3api on loopback). A plain import (no copy) is shown
   for reference. Median of 3, each into a new library (and a new bucket).
2. An original's first byte through `albums serve` (the copy kept in the
   bucket, asked of the service a part at a time), against the storage
   server's own GET of the same object (Swift's native API, its tempauth
   token): curl's time to first byte, median of 30 each, interleaved.

Run by `scripts/benchmark storage` with the release `albums` (ALBUMS_BINARY),
which hands the bucket's commands to `albums-serve` beside it.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALBUMS = os.environ["ALBUMS_BINARY"]
STORAGE = str(ROOT / "scripts/object-storage")
PHOTOS = 40
SIZE = 2 << 20


def environment():
    lines = subprocess.run([STORAGE, "env"], check=True, capture_output=True, text=True).stdout
    found = dict(re.findall(r"export (\w+)=(\S+)", lines))
    env = dict(os.environ)
    env["AWS_ACCESS_KEY_ID"] = found["ALBUMS_TEST_S3_ACCESS_KEY"]
    env["AWS_SECRET_ACCESS_KEY"] = found["ALBUMS_TEST_S3_SECRET_KEY"]
    return env, found["ALBUMS_TEST_S3_ENDPOINT"]


def albums(library, *arguments, env):
    started = time.perf_counter()
    subprocess.run([ALBUMS, "--library", str(library), *arguments], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def new_bucket():
    name = "albums-bench-" + uuid.uuid4().hex[:8]
    subprocess.run([STORAGE, "bucket", name], check=True)
    return name


def make_photos(folder):
    header = (ROOT / "Examples/Photos/01-harbour.jpg").read_bytes()
    folder.mkdir()
    for index in range(PHOTOS):
        (folder / f"photo-{index:03d}.jpg").write_bytes(header + os.urandom(SIZE - len(header)))


def imports(work, photos, env, endpoint):
    times = {"no copy": [], "copy to a folder": [], "copy to a bucket": []}
    for round in range(3):
        for case in times:
            library = work / f"{case.replace(' ', '-')}-{round}.albums"
            albums(library, "album", "create", "Bench", env=env)
            arguments = ["import", str(photos), "--to", "Bench"]
            if case == "copy to a folder":
                albums(library, "storage", "folder", str(work / f"kept-{round}"), env=env)
                arguments.append("--copy")
            elif case == "copy to a bucket":
                albums(library, "storage", "bucket", new_bucket(), "--endpoint", endpoint, env=env)
                arguments.append("--copy")
            times[case].append(albums(library, *arguments, env=env))
    return {case: statistics.median(values) for case, values in times.items()}


def first_bytes(work, photos, env, endpoint):
    library = work / "served.albums"
    bucket = new_bucket()
    albums(library, "album", "create", "Bench", env=env)
    albums(library, "storage", "bucket", bucket, "--endpoint", endpoint, env=env)
    albums(library, "import", str(photos / "photo-000.jpg"), "--to", "Bench", "--copy", env=env)
    shown = subprocess.run([ALBUMS, "--library", str(library), "--json", "show", "Bench:1"], check=True, env=env, capture_output=True, text=True).stdout
    key = re.search(r'"location" : "s3://[^/]+/([^"]+)"', shown).group(1)
    server = subprocess.Popen(
        [ALBUMS, "--library", str(library), "serve", "--listen", "127.0.0.1:18790"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        url = None
        while url is None:
            line = server.stdout.readline()
            found = re.search(r"(http://\S+)", line)
            url = found.group(1) if found else None
        token = re.search(r"token=(\w+)", url).group(1)
        auth = subprocess.run(
            ["curl", "-sf", "-i", "-H", "X-Auth-User: test:tester", "-H", "X-Auth-Key: testing", endpoint + "/auth/v1.0"],
            check=True, capture_output=True, text=True).stdout
        swift_token = re.search(r"(?i)x-auth-token: (\S+)", auth).group(1)
        storage_url = re.search(r"(?i)x-storage-url: (\S+)", auth).group(1)

        def ttfb(url, header):
            out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-H", header, "-w", "%{time_starttransfer}", url],
                                 check=True, capture_output=True, text=True).stdout
            return float(out)

        ours, theirs = [], []
        for _ in range(3):  # warm both paths
            ttfb(f"http://127.0.0.1:18790/api/photos/1/original", f"Authorization: Bearer {token}")
            ttfb(f"{storage_url}/{bucket}/{key}", f"X-Auth-Token: {swift_token}")
        for _ in range(30):
            ours.append(ttfb("http://127.0.0.1:18790/api/photos/1/original", f"Authorization: Bearer {token}"))
            theirs.append(ttfb(f"{storage_url}/{bucket}/{key}", f"X-Auth-Token: {swift_token}"))
        return statistics.median(ours), statistics.median(theirs)
    finally:
        server.terminate()
        server.wait()


def main():
    if subprocess.run([STORAGE, "running"]).returncode != 0:
        subprocess.run([STORAGE, "start"], check=True, stdout=sys.stderr)
    env, endpoint = environment()
    work = Path(tempfile.mkdtemp(prefix="albums-storage-bench-"))
    try:
        photos = work / "photos"
        make_photos(photos)
        total = PHOTOS * SIZE / 1e6
        medians = imports(work, photos, env, endpoint)
        print(f"\nimport --copy: {PHOTOS} photos, {total:.0f} MB, median of 3, {os.cpu_count()} cores, S3 server on loopback")
        for case, seconds in medians.items():
            print(f"  {case:18} {seconds:6.2f} s  {total / seconds:6.0f} MB/s")
        ratio = medians["copy to a bucket"] / medians["copy to a folder"]
        print(f"into the bucket / into a folder: {ratio:.2f}× (target ≤ 1.5×: {'pass' if ratio <= 1.5 else 'short'})")
        ours, theirs = first_bytes(work, photos, env, endpoint)
        print(f"\nan original's first byte, {SIZE >> 20} MB photo kept in the bucket, median of 30, curl")
        print(f"  the storage server's own GET   {theirs * 1000:6.1f} ms")
        print(f"  through albums serve           {ours * 1000:6.1f} ms")
        ratio = ours / theirs
        print(f"albums serve / the server's GET: {ratio:.2f}× (target ≤ 1.2×: {'pass' if ratio <= 1.2 else 'short'})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
