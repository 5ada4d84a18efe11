"""`albums serve` under load (issue 15, RELIABILITY.md).

For --seconds, on loopback, all at once against one library:
- simulated drags asking proposals at pointer rate (`?dry_run=1`, a new
  slot every 16 ms) and now and then dropping (a real move);
- readers paging through albums;
- wrk hammering thumbnails of every photo;
- an uploader dropping a photo into an album every second;
- CLI processes moving, copying and swapping items in the same file;
- event streams open from start to end.

Then: no client got an answer the contract does not name (a refused drop
is 404/409/422, a busy library 503: counted; anything else fails), every
committed transaction reached every event stream exactly once and in
order (checked against the library's change journal), the library checks
clean, and Ctrl-C stops the server with exit 0. Latency percentiles are
printed as a table.

Usage: load.py --albums BINARY [--seconds N] [--seed N]
"""

import argparse
import json
import random
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

from serverkit import PHOTOS, EventStream, Library, Server, fail, multipart, percentile, wait_until

# What the contract lets a request under contention answer besides success:
# the item moved away or the slot left the album (404, 422), a revision
# changed (409), the library busy past its timeout (503).
REFUSALS = {404, 409, 422, 503}


class Tally:
    """Latencies and answers per kind of request, shared by the clients."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = {}
        self.statuses = {}
        self.unexpected = []
        self.refusals = {}

    def print_table(self, kinds):
        """Latency percentiles and answers per kind of request."""
        print(f"{'requests':<14}{'count':>8}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}  answers")
        for kind in kinds:
            values = self.latencies.get(kind, [])
            answers = ", ".join(f"{code}×{n}" for code, n in sorted(self.statuses.get(kind, {}).items()))
            print(f"{kind:<14}{len(values):>8}{percentile(values, 0.5) * 1000:>11.1f}{percentile(values, 0.99) * 1000:>9.1f}"
                  f"{(max(values) if values else 0) * 1000:>9.1f}  {answers}")

    def record(self, kind, status, seconds, body=b""):
        with self.lock:
            self.latencies.setdefault(kind, []).append(seconds)
            counts = self.statuses.setdefault(kind, {})
            counts[status] = counts.get(status, 0) + 1
            if status >= 500 and status != 503 or (status >= 400 and status not in REFUSALS):
                self.unexpected.append(f"{kind}: {status} {body[:200]!r}")
            elif status >= 400:
                self.refusals.setdefault(kind, body[:300])


def timed(server, tally, kind, method, path, body=None, headers=None, ok=(200,)):
    started = time.perf_counter()
    try:
        status, _, data = server.request(method, path, body=body, headers=headers, timeout=30)
    except OSError as error:
        with tally.lock:
            tally.unexpected.append(f"{kind}: {error!r}")
        return None, None
    tally.record(kind, status, time.perf_counter() - started, data)
    return status, data


def album_size(server, name):
    status, answer = server.json("GET", f"/api/albums/{name}/items?limit=1")
    return answer["album"]["count"] if status == 200 else 0


def drags(server, tally, stop, seed):
    """A person dragging: proposals as the pointer crosses slots, then a drop."""
    rng = random.Random(seed)
    while not stop.is_set():
        source, target = rng.choice([("Trip", "Trip"), ("Trip", "Book"), ("Book", "Trip"), ("Book", "Book")])
        count = album_size(server, source)
        if count == 0:
            time.sleep(0.05)
            continue
        item = f"{source}:{rng.randint(1, count)}"
        op = "copy" if rng.random() < 0.2 else "move"
        for _ in range(rng.randint(5, 30)):
            at = rng.randint(1, max(1, album_size(server, target)))
            operation = json.dumps({"op": op, "items": [item], "to": target, "at": at})
            timed(server, tally, "proposal", "POST", "/api/operations?dry_run=1", body=operation)
            time.sleep(0.016)
            if stop.is_set():
                return
        timed(server, tally, "drop", "POST", "/api/operations", body=operation)


def readers(server, tally, stop, seed):
    rng = random.Random(seed)
    while not stop.is_set():
        timed(server, tally, "albums", "GET", "/api/albums")
        name = rng.choice(["Trip", "Book"])
        timed(server, tally, "items page", "GET", f"/api/albums/{name}/items?offset={rng.randint(0, 50)}&limit=200")


def uploader(server, tally, stop, seed):
    rng = random.Random(seed)
    photos = sorted(p for p in PHOTOS.iterdir() if p.suffix.lower() in (".jpg", ".png", ".webp"))
    while not stop.is_set():
        photo = rng.choice(photos)
        content_type, body = multipart([(photo.name, photo.read_bytes())])
        timed(server, tally, "upload", "POST", "/api/albums/Book/files?at=1", body=body,
              headers={"Content-Type": content_type})
        stop.wait(1.0)


def cli_writer(library, tally, stop, seed):
    """Another program writing the same file: each command its own process."""
    rng = random.Random(seed)
    while not stop.is_set():
        trip = len(library.json("list", "Trip")["items"])
        book = len(library.json("list", "Book")["items"])
        if trip < 2 or book < 1:
            command = ["copy", "Trip:1", "--to", "Book"] if trip else ["copy", "Book:1", "--to", "Trip"]
        else:
            command = rng.choice([
                ["move", f"Trip:{rng.randint(1, trip)}", "--to", "Trip", "--at", str(rng.randint(1, trip))],
                ["swap", f"Trip:{rng.randint(1, trip)}", f"Book:{rng.randint(1, book)}"],
                ["copy", f"Trip:{rng.randint(1, trip)}", "--to", "Book", "--at", "1"],
                ["remove", f"Book:{rng.randint(1, book)}"],
            ])
        started = time.perf_counter()
        result = library.cli(*command, check=False)
        status = {0: 200, 1: 422, 75: 503}.get(result.returncode, 500)
        tally.record("CLI process", status, time.perf_counter() - started, result.stderr.encode())


def wrk_thumbnails(server, seconds, photo_ids, folder):
    """wrk (Debian's) on the thumbnails of every photo, 16 connections."""
    script = Path(folder) / "thumbnails.lua"
    ids = ", ".join(str(i) for i in photo_ids)
    script.write_text(
        f"local ids = {{{ids}}}\n"
        "local sizes = {128, 256, 512}\n"
        f'wrk.headers["Authorization"] = "Bearer {server.token}"\n'
        "request = function()\n"
        "  local path = '/api/photos/' .. ids[math.random(#ids)] .. '/thumbnail?size=' .. sizes[math.random(#sizes)]\n"
        "  return wrk.format('GET', path)\n"
        "end\n"
        "done = function(summary, latency, requests)\n"
        "  io.write(string.format('WRK %d %d %d %d %d %d %d\\n', summary.requests, summary.errors.status,\n"
        "    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,\n"
        "    latency:percentile(50), latency:percentile(99), latency.max, summary.duration))\n"
        "end\n")
    return subprocess.Popen(
        ["wrk", "-t2", "-c16", f"-d{seconds}s", "--timeout", "30s", "-s", str(script), server.base],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def journal_end(library):
    """The newest committed transaction's sequence, from the file itself."""
    connection = sqlite3.connect(f"file:{library.path}?mode=ro", uri=True, timeout=30)
    try:
        return connection.execute("SELECT coalesce(max(id), 0) FROM change_journal").fetchone()[0]
    finally:
        connection.close()


def check_streams(streams, start, end):
    """Every stream holds exactly the transactions start+1…end, in order."""
    expected = list(range(start + 1, end + 1))
    for index, stream in enumerate(streams):
        if stream.error:
            fail(f"event stream {index} broke: {stream.error!r}")
        sequences = [event["sequence"] for event in stream.events]
        if sequences != expected:
            missing = sorted(set(expected) - set(sequences))[:10]
            extra = sorted(set(sequences) - set(expected))[:10]
            fail(f"event stream {index}: {len(sequences)} events, expected {len(expected)} "
                 f"({start + 1}…{end}); missing {missing}, unexpected {extra}, in order: {sequences == sorted(sequences)}")
        if any(event["follows_a_gap"] for event in stream.events):
            fail(f"event stream {index} reported a gap")
    first = [json.dumps(event, sort_keys=True) for event in streams[0].events]
    for index, stream in enumerate(streams[1:], start=1):
        if [json.dumps(event, sort_keys=True) for event in stream.events] != first:
            fail(f"event stream {index} differs from stream 0")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--albums", required=True)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--streams", type=int, default=8)
    parser.add_argument("--drags", type=int, default=4)
    parser.add_argument("--cli-writers", type=int, default=2)
    arguments = parser.parse_args()

    library = Library(arguments.albums)
    library.make_example(extra_photos=300)
    library.cli("copy", "Trip:1-50", "--to", "Book")
    server = Server(library)
    tally = Tally()
    stop = threading.Event()
    try:
        streams = [EventStream(server) for _ in range(arguments.streams)]
        for stream in streams:
            stream.start()
        if not all(stream.opened.wait(30) for stream in streams):
            fail("an event stream did not open")
        start = journal_end(library)
        photo_ids = sorted({item["photo_id"] for item in library.json("list", "Trip")["items"] if item.get("photo_id")})
        wrk = wrk_thumbnails(server, int(arguments.seconds), photo_ids, library.folder)
        clients = (
            [threading.Thread(target=drags, args=(server, tally, stop, arguments.seed + i)) for i in range(arguments.drags)]
            + [threading.Thread(target=readers, args=(server, tally, stop, arguments.seed + 100 + i)) for i in range(2)]
            + [threading.Thread(target=uploader, args=(server, tally, stop, arguments.seed + 200))]
            + [threading.Thread(target=cli_writer, args=(library, tally, stop, arguments.seed + 300 + i))
               for i in range(arguments.cli_writers)])
        began = time.monotonic()
        for client in clients:
            client.start()
        stop.wait(arguments.seconds)
        stop.set()
        for client in clients:
            client.join()
        wrk_output, _ = wrk.communicate(timeout=120)
        elapsed = time.monotonic() - began
        # The last uploads' loads commit after their answers.
        wait_until(lambda: not any(a["pending"] for a in library.json("album", "list")["albums"]), 60)
        end = journal_end(library)
        # Within a second, as the README promises; a loaded machine gets five.
        wait_until(lambda: all(len(s.events) >= end - start for s in streams), 5)
        for stream in streams:
            stream.close()
        check_streams(streams, start, end)
    finally:
        stop.set()
        status = server.stop()
    if tally.unexpected:
        fail(f"{len(tally.unexpected)} answers the contract does not name, e.g. {tally.unexpected[:5]}")
    if status != 0:
        fail(f"albums serve exited {status} on Ctrl-C")
    library.check()

    wrk_line = next((line for line in wrk_output.splitlines() if line.startswith("WRK ")), None)
    if wrk_line is None:
        fail(f"wrk printed no summary: {wrk_output[-1000:]}")
    requests, bad_status, socket_errors, p50, p99, worst, duration = map(int, wrk_line.split()[1:])
    if bad_status or socket_errors:
        fail(f"wrk: {bad_status} non-2xx thumbnails and {socket_errors} socket errors of {requests}")

    print(f"server load: {elapsed:.0f} s, {len(streams)} event streams, {end - start} transactions committed "
          f"(each reached every stream once, in order), the library checks clean")
    tally.print_table(["proposal", "drop", "albums", "items page", "upload", "CLI process"])
    for kind, body in sorted(tally.refusals.items()):
        print(f"  a refused {kind}, for example: {body.decode(errors='replace').strip()}")
    print(f"{'thumbnail (wrk)':<14}{requests:>8}{p50 / 1000:>11.1f}{p99 / 1000:>9.1f}{worst / 1000:>9.1f}  200×{requests}")


if __name__ == "__main__":
    main()
