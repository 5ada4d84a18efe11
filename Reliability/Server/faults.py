"""`albums serve` under faults (issue 15, RELIABILITY.md).

- SIGKILL of the server while an upload's body arrives, right after an
  upload is answered (its loads under way) and in the middle of a large
  batch, `--rounds` times each:
  the library then checks clean, a batch is all there or not at all, and
  every placeholder left is stale and `albums pending resume` finishes
  it in its slot.
- Clients that vanish mid-request (half a body, half an upload) and
  mid-stream (event streams dropped): the server lives on, keeps no
  partial upload, and holds no more file descriptors than before.
- The library file deleted or replaced under the server: a clear error
  for every request after, never a crash and never a write to a file no
  one can see.

Usage: faults.py --albums BINARY [--rounds N] [--seed N]
"""

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import time
from pathlib import Path

from serverkit import PHOTOS, EventStream, Library, Server, fail, multipart, wait_until, distinct_jpeg


def open_descriptors(server):
    return len(os.listdir(f"/proc/{server.process.pid}/fd"))


def kill_after_upload(albums, rounds, rng):
    """SIGKILL once the placeholders stand, while their loads run."""
    left_pending = 0
    jpeg = (PHOTOS / "01-harbour.jpg").read_bytes()
    for round in range(rounds):
        library = Library(albums)
        library.make_example()
        before = [item["photo_id"] for item in library.json("list", "Trip")["items"]]
        server = Server(library)
        files = [(f"upload-{round}-{i:03d}.jpg", distinct_jpeg(jpeg, 10_000 * round + i)) for i in range(40)]
        content_type, body = multipart(files)
        at = rng.randint(1, len(before) + 1)
        status, _, answer = server.request("POST", f"/api/albums/Trip/files?at={at}", body=body,
                                           headers={"Content-Type": content_type})
        time.sleep(rng.random() * 0.05)
        server.process.kill()
        server.process.wait()
        if status != 202:
            fail(f"round {round}: the upload got {status}: {answer[:200]!r}")
        library.check()
        pending = library.json("pending")
        stale = pending.get("placeholders", pending.get("pending", []))
        left_pending += len(stale)
        if stale and library.cli("pending", "resume", check=False).returncode != 0:
            fail(f"round {round}: pending resume failed after the kill")
        library.check()
        names = [item["file"] for item in library.json("list", "Trip")["items"]]
        uploaded = [name for name in names if name.startswith("upload-")]
        if uploaded != [name for name, _ in files]:
            fail(f"round {round}: after resume the uploads are {uploaded[:5]}…, not the 40 files in order")
        if names.index(uploaded[0]) != at - 1:
            fail(f"round {round}: the uploads start at {names.index(uploaded[0]) + 1}, not {at}")
    print(f"killed after an upload's answer, {rounds} times: clean every time; "
          f"{left_pending} placeholders left stale in all, each finished in its slot by pending resume")


def kill_mid_body(albums, rounds, rng):
    """SIGKILL while an upload's body is still arriving: nothing of it in
    the library (its placeholders go in only once the body is whole)."""
    leftovers = 0
    jpeg = (PHOTOS / "01-harbour.jpg").read_bytes()
    for round in range(rounds):
        library = Library(albums)
        library.make_example()
        before = library.state()
        server = Server(library)
        files = [(f"body-{round}-{i:03d}.jpg", distinct_jpeg(jpeg, 20_000 * round + i)) for i in range(40)]
        content_type, body = multipart(files)
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        connection.sendall(
            (f"POST /api/albums/Trip/files?at=1 HTTP/1.1\r\nHost: {server.host}\r\nAuthorization: Bearer {server.token}\r\n"
             f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
            + body[: rng.randint(len(body) // 10, len(body) - 1)])
        time.sleep(0.2)
        server.process.kill()
        server.process.wait()
        connection.close()
        library.check()
        if library.state() != before or library.json("pending")["pending"]:
            fail(f"round {round}: a kill mid-body changed the library")
        inbox = Path(library.path + ".uploads")
        leftovers += len([p for p in inbox.rglob("*") if p.is_file()]) if inbox.exists() else 0
    print(f"killed while an upload's body arrived, {rounds} times: the library as before and clean every time "
          f"({leftovers} files received before the kill stay in the upload inbox, outside the library)")


def kill_mid_batch(albums, rounds, rng):
    """SIGKILL while a batch of 3,000 moves is being applied: all or nothing."""
    outcomes = {"before": 0, "after": 0}
    for round in range(rounds):
        library = Library(albums)
        library.make_example(extra_photos=60)
        before = library.state()
        entries_before = len(library.json("history", "--limit", "100")["entries"])
        count = len(before["Trip"][1])
        lines = "".join(
            json.dumps({"op": "move", "items": [f"Trip:{rng.randint(1, count)}"], "to": "Trip", "at": rng.randint(1, count)}) + "\n"
            for _ in range(3000))
        server = Server(library)
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        connection.sendall(
            (f"POST /api/batch HTTP/1.1\r\nHost: {server.host}\r\nAuthorization: Bearer {server.token}\r\n"
             f"Content-Type: application/jsonl\r\nContent-Length: {len(lines)}\r\n\r\n").encode() + lines.encode())
        # From the first byte to past the commit (a 3,000-move batch
        # takes about half a second on the release build, so both outcomes come).
        time.sleep(rng.random() * 0.8)
        server.process.kill()
        server.process.wait()
        connection.close()
        library.check()
        after = library.state()
        if after == before:
            outcomes["before"] += 1
        else:
            changed = {name for name in after if after[name] != before.get(name)}
            # The batch is one history entry ("N changes: …", N below 3,000
            # when some moves keep an item where it is): one more than before.
            history = library.json("history", "--limit", "100")["entries"]
            if changed != {"Trip"} or len(history) != entries_before + 1 or " changes: " not in history[0]["description"]:
                fail(f"round {round}: the library changed without the whole batch ({changed}, {history[:1]})")
            outcomes["after"] += 1
    print(f"killed mid-batch (3,000 moves), {rounds} times: {outcomes['before']} left the library as before, "
          f"{outcomes['after']} with the whole batch; none between, clean every time")


def vanishing_clients(albums, rng):
    library = Library(albums)
    library.make_example()
    server = Server(library)
    inbox = Path(library.path + ".uploads")
    try:
        photo = (PHOTOS / "01-harbour.jpg").read_bytes()
        content_type, body = multipart([(f"vanish-{i}.jpg", distinct_jpeg(photo, i)) for i in range(5)])
        baseline = None
        # The first 20 warm the server up (its pool of reading connections
        # grows to what concurrent requests need); the next 100 must not
        # leave it holding more.
        for round in range(120):
            if round == 20:
                wait_until(lambda: False, 1)
                baseline = open_descriptors(server)
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            kind = round % 4
            if kind == 0:   # half an upload, then gone
                head = (f"POST /api/albums/Trip/files HTTP/1.1\r\nHost: {server.host}\r\nAuthorization: Bearer {server.token}\r\n"
                        f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
                connection.sendall(head + body[: rng.randint(1, len(body) - 1)])
            elif kind == 1:  # half a batch, then gone
                connection.sendall(
                    (f"POST /api/batch HTTP/1.1\r\nHost: {server.host}\r\nAuthorization: Bearer {server.token}\r\n"
                     "Content-Length: 100000\r\n\r\n{\"op\": \"move\", ").encode())
            elif kind == 2:  # an event stream dropped at once
                stream = EventStream(server)
                stream.start()
                stream.opened.wait(5)
                stream.close()
            else:            # a thumbnail asked, the answer never read
                connection.sendall(
                    (f"GET /api/photos/1/thumbnail?size=1024 HTTP/1.1\r\nHost: {server.host}\r\n"
                     f"Authorization: Bearer {server.token}\r\n\r\n").encode())
            time.sleep(rng.random() * 0.02)
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            connection.close()   # a reset, as a crashed client sends
        # Streams still open meanwhile hear a commit made after all that.
        stream = EventStream(server)
        stream.start()
        stream.opened.wait(10)
        library.cli("move", "Trip:1", "--to", "Book")
        if not wait_until(lambda: len(stream.events) >= 1, 10):
            fail("after vanished clients an event stream did not hear a commit")
        stream.close()
        if not wait_until(lambda: open_descriptors(server) <= baseline + 2, 10):
            fail(f"after 100 more vanished clients the server holds {open_descriptors(server)} descriptors (was {baseline})")
        leftovers = [p for p in inbox.rglob("*") if p.is_file()] if inbox.exists() else []
        if leftovers:
            fail(f"vanished uploads left {len(leftovers)} files in the inbox, e.g. {leftovers[0]}")
        if server.request("GET", "/api/albums")[0] != 200 or not server.alive():
            fail("the server stopped serving after vanished clients")
    finally:
        server.stop()
    library.check()
    print(f"120 clients vanished mid-upload, mid-batch, mid-stream and mid-thumbnail: served on, "
          f"{baseline} descriptors open after the first 20 and no more after the rest, no partial upload kept")


def library_removed(albums):
    """The library deleted, then another put in its place, under the server."""
    for how in ["deleted", "replaced"]:
        library = Library(albums)
        library.make_example()
        server = Server(library)
        try:
            if server.request("GET", "/api/albums")[0] != 200:
                fail("the server did not serve before the library was removed")
            for suffix in ["", "-wal", "-shm"]:
                try:
                    os.remove(library.path + suffix)
                except FileNotFoundError:
                    pass
            if how == "replaced":
                other = Library(albums, folder=library.folder / "other")
                other.make_example(albums=("Other",))
                os.rename(other.path, library.path)
            answers = []
            for method, path, body in [
                ("GET", "/api/albums", None),
                ("POST", "/api/operations", '{"op": "move", "items": ["Trip:1"], "to": "Book"}'),
                ("GET", "/api/albums/Trip/items", None),
            ]:
                status, _, data = server.request(method, path, body=body)
                answers.append((status, data))
                error = json.loads(data).get("error", {}) if data else {}
                if status != 503 or error.get("code") != "library_moved":
                    fail(f"library {how}: {method} {path} answered {status} {data[:200]!r}, not 503 library_moved")
            if not server.alive():
                fail(f"library {how}: the server died")
            if how == "replaced" and [a["name"] for a in library.json("album", "list")["albums"]] != ["Other"]:
                fail("library replaced: the new file was written to")
        finally:
            server.stop()
        print(f"library {how} under the server: every request answered 503 library_moved "
              f"({json.loads(answers[0][1])['error']['message']}); the server lived on")


def big_jpeg(jpeg, megabytes, index):
    """A valid JPEG of about `megabytes` MiB: comment segments after its start."""
    padding = b"".join(b"\xff\xfe\xff\xff" + bytes([index % 256]) * 65533 for _ in range(megabytes * 16))
    return jpeg[:2] + padding + jpeg[2:]


def full_disk(albums):
    """The library on a 16 MiB tmpfs filled to its last megabyte, and an
    upload of 3 MiB: 507, nothing kept; once there is room, it goes in."""
    folder = Path(Library(albums).folder)
    disk = folder / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)], capture_output=True).returncode != 0:
        print("a full disk: skipped (mounting a small tmpfs needs root)")
        return
    try:
        library = Library(albums, folder=disk)
        library.make_example()
        server = Server(library)
        try:
            before = library.state()
            filler = disk / "filler"
            with open(filler, "wb") as out:
                try:
                    while True:
                        out.write(b"\0" * 65536)
                        out.flush()
                except OSError:
                    pass
            # Leave one megabyte: the photo cannot fit, the library can still answer.
            with open(filler, "r+b") as out:
                out.truncate(max(0, filler.stat().st_size - (1 << 20)))
            photo = big_jpeg((PHOTOS / "01-harbour.jpg").read_bytes(), 3, 1)
            content_type, body = multipart([("big.jpg", photo)])
            status, _, data = server.request("POST", "/api/albums/Trip/files", body=body, headers={"Content-Type": content_type})
            error = json.loads(data).get("error", {}) if data else {}
            if status != 507:
                fail(f"an upload onto a full disk answered {status} {data[:200]!r}, not 507")
            inbox = Path(library.path + ".uploads")
            kept = [p for p in inbox.rglob("*") if p.is_file()] if inbox.exists() else []
            if kept or library.state() != before:
                fail(f"an upload onto a full disk left {kept} or changed the library")
            filler.unlink()
            status, _, data = server.request("POST", "/api/albums/Trip/files", body=body, headers={"Content-Type": content_type})
            if status != 202:
                fail(f"once there was room, the upload answered {status} {data[:200]!r}")
            if not wait_until(lambda: library.json("list", "Trip")["items"][-1]["file"] == "big.jpg", 30):
                fail("once there was room, the uploaded photo did not land")
        finally:
            server.stop()
        library.check()
        print(f"a full disk during an upload: 507 ({error.get('message')}), nothing kept; with room again, it went in")
    finally:
        subprocess.run(["umount", str(disk)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--albums", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261123)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    kill_mid_body(arguments.albums, arguments.rounds, rng)
    kill_after_upload(arguments.albums, arguments.rounds, rng)
    kill_mid_batch(arguments.albums, arguments.rounds, rng)
    vanishing_clients(arguments.albums, rng)
    library_removed(arguments.albums)
    full_disk(arguments.albums)
    print("server faults harness passed")


if __name__ == "__main__":
    main()
