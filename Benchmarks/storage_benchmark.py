"""Originals kept on disk and in a bucket, side by side in one run.

1. `albums import --copy` of 40 photos of 2 MB each (a real JPEG header,
   then random bytes: distinct photos) into a folder the library manages,
   against the same into a bucket of the S3 server the test scripts run
   (OpenStack Swift's s3api on loopback). A plain import (no copy) is shown
   for reference, and the server's own floor: the same files PUT by a bare
   signed client on two connections. Median of 3, each into a new library
   (and a new bucket).
2. An original's first byte through `albums serve` (the copy kept in the
   bucket, its body passed on as the service sends it), against the storage
   server's own GET of the same object through its S3 API (signed here with
   Signature Version 4): the time from sending the request to the body's
   first byte, each on a new connection, median of 30 each, interleaved;
   and beside them what any request to `albums serve` costs (its album
   list), the part of the first byte no storage can remove.

Run by `scripts/benchmark storage` with the release `albums` (ALBUMS_BINARY),
which hands the bucket's commands to `albums-serve` beside it.
"""

import datetime
import hashlib
import hmac
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import tempfile
import time
import urllib.parse
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


def signed_headers(method, endpoint, path, key, secret, region, body=b""):
    """An S3 request's headers, signed with Signature Version 4 (AWS's documented steps)."""
    host = urllib.parse.urlsplit(endpoint).netloc
    now = datetime.datetime.now(datetime.timezone.utc)
    amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    payload = hashlib.sha256(body).hexdigest()
    headers = {"host": host, "x-amz-content-sha256": payload, "x-amz-date": amz_date}
    names = ";".join(sorted(headers))
    canonical = "\n".join([method, urllib.parse.quote(path), "", *(f"{name}:{headers[name]}" for name in sorted(headers)), "", names, payload])
    scope = f"{day}/{region}/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    signing = ("AWS4" + secret).encode()
    for part in (day, region, "s3", "aws4_request"):
        signing = hmac.new(signing, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(signing, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = f"AWS4-HMAC-SHA256 Credential={key}/{scope}, SignedHeaders={names}, Signature={signature}"
    return headers


def server_puts(photos, env, endpoint, connections=2):
    """The storage server's own floor: the same files PUT by a bare client, signed, on `connections` kept-alive connections."""
    bucket = new_bucket()
    storage = urllib.parse.urlsplit(endpoint)
    files = sorted(photos.iterdir())
    bodies = [path.read_bytes() for path in files]
    failures = []

    def put(indices):
        connection = http.client.HTTPConnection(storage.hostname, storage.port)
        for index in indices:
            path = f"/{bucket}/{files[index].name}"
            headers = signed_headers("PUT", endpoint, path, env["AWS_ACCESS_KEY_ID"], env["AWS_SECRET_ACCESS_KEY"], "us-east-1", bodies[index])
            connection.request("PUT", path, body=bodies[index], headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                failures.append(response.status)
        connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=put, args=(range(start, len(files), connections),)) for start in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    return time.perf_counter() - started


def first_byte(host, port, path, headers):
    """Seconds from sending a GET until the body's first byte arrives, on a new connection; the rest is read and dropped."""
    connection = http.client.HTTPConnection(host, port)
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read(1)
    elapsed = time.perf_counter() - started
    assert response.status == 200, response.status
    response.read()
    connection.close()
    return elapsed


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
            found = re.search(r"(http://\S+)", server.stdout.readline())
            url = found.group(1) if found else None
        token = re.search(r"token=(\w+)", url).group(1)
        storage = urllib.parse.urlsplit(endpoint)

        def ours():
            return first_byte("127.0.0.1", 18790, "/api/photos/1/original", {"Authorization": f"Bearer {token}"})

        def any_request():
            return first_byte("127.0.0.1", 18790, "/api/albums", {"Authorization": f"Bearer {token}"})

        def theirs():
            path = f"/{bucket}/{key}"
            headers = signed_headers("GET", endpoint, path, env["AWS_ACCESS_KEY_ID"], env["AWS_SECRET_ACCESS_KEY"], "us-east-1")
            return first_byte(storage.hostname, storage.port, path, headers)

        for _ in range(3):  # warm every path
            ours(), theirs(), any_request()
        measured = [(ours(), theirs(), any_request()) for _ in range(30)]
        return tuple(statistics.median(m[index] for m in measured) for index in range(3))
    finally:
        server.terminate()
        server.wait()


def main():
    # A server this run starts is stopped again: left running, it would hold
    # the ports another checkout's tests start their own on.
    started = subprocess.run([STORAGE, "running"]).returncode != 0
    if started:
        subprocess.run([STORAGE, "start"], check=True, stdout=sys.stderr)
    work = Path(tempfile.mkdtemp(prefix="albums-storage-bench-"))
    try:
        env, endpoint = environment()
        photos = work / "photos"
        make_photos(photos)
        total = PHOTOS * SIZE / 1e6
        medians = imports(work, photos, env, endpoint)
        medians["the server's own PUTs"] = statistics.median(server_puts(photos, env, endpoint) for _ in range(3))
        print(f"\nimport --copy: {PHOTOS} photos, {total:.0f} MB, median of 3, {os.cpu_count()} cores, S3 server on loopback")
        for case, seconds in medians.items():
            print(f"  {case:22} {seconds:6.2f} s  {total / seconds:6.0f} MB/s")
        ratio = medians["copy to a bucket"] / medians["copy to a folder"]
        print(f"into the bucket / into a folder: {ratio:.2f}× (target ≤ 1.5×: {'pass' if ratio <= 1.5 else 'short'})")
        floor = medians["copy to a bucket"] / (medians["the server's own PUTs"] + medians["no copy"])
        print(f"into the bucket / (the server's own PUTs + an import without copies): {floor:.2f}×")
        ours, theirs, any_request = first_bytes(work, photos, env, endpoint)
        print(f"\nan original's first byte, {SIZE >> 20} MB photo kept in the bucket, median of 30")
        print(f"  the storage server's S3 GET    {theirs * 1000:6.1f} ms")
        print(f"  through albums serve           {ours * 1000:6.1f} ms")
        print(f"  albums serve's GET /api/albums {any_request * 1000:6.1f} ms  (what any request to it costs)")
        ratio = ours / theirs
        print(f"albums serve / the server's GET: {ratio:.2f}× (target ≤ 1.2×: {'pass' if ratio <= 1.2 else 'short'})")
        print(f"albums serve / (the server's GET + any request to albums serve): {ours / (theirs + any_request):.2f}×")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if started:
            subprocess.run([STORAGE, "stop"], stdout=sys.stderr)


if __name__ == "__main__":
    main()
