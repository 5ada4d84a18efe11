"""Hostile clients against `albums serve` (issue 15, RELIABILITY.md).

Two parts, on a library of the example photos:

1. schemathesis, driven by the server's own /api/openapi.json, with bounded
   examples: no 5xx, every status, content type, header and body as the
   document says, undeclared methods answered 405, requests without the
   token refused, schema-violating requests refused, and schema-valid
   requests never refused as malformed (`positive_data_acceptance`: no
   400, so no schema is looser than what the server reads; the library's
   rules may still refuse one, a position past the end or a name taken,
   with 404, 409 or 422). It writes through the API as it likes; the
   library must then check clean.
2. Hand-made attacks, each with its documented status and error code, and
   nothing written (then any Unicode, any length and any number in every
   parameter, unicode_sweep.py: never a 5xx, never a crash): the library's albums and items, and the upload inbox,
   are compared before and after. Slow clients (slowloris) must not stop
   others being served.

Usage: hostile.py --albums BINARY [--examples N] [--schemathesis PATH]
"""

import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import people
from serverkit import Library, Server, fail, multipart, wait_until, write_schemathesis_config
from unicode_sweep import Sweep

HERE = Path(__file__).resolve().parent


def run_schemathesis(server, library, schemathesis, examples, seed):
    config = library.folder / "schemathesis.toml"
    # The token through the document's own security scheme, so the
    # authentication checks know what to take away.
    write_schemathesis_config(config, bearer_from_environment=True)
    checks = ",".join([
        "not_a_server_error", "status_code_conformance", "content_type_conformance",
        "response_headers_conformance", "response_schema_conformance", "negative_data_rejection",
        "positive_data_acceptance", "missing_required_header", "unsupported_method", "ignored_auth",
    ])
    env = dict(
        os.environ, ALBUMS_TOKEN=server.token, SCHEMATHESIS_HOOKS="schemathesis_hooks",
        PYTHONPATH=str(HERE) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # The document, like everything this server serves, needs the token.
    status, _, document = server.request("GET", "/api/openapi.json")
    if status != 200:
        fail(f"GET /api/openapi.json answered {status}")
    (library.folder / "openapi.json").write_bytes(document)
    command = [
        schemathesis, "--config-file", str(config), "run", str(library.folder / "openapi.json"), "--url", server.base,
        "--checks", checks, "--max-examples", str(examples), "--workers", "2",
        "--seed", str(seed), "--request-timeout", "30", "--no-color",
        # Not the coverage phase: under Debian's Python 3.11.7 it stops with
        # CPython's "AST constructor recursion depth mismatch" (a bug of
        # that release, fixed in 3.11.8), before sending a request.
        # Fuzzing draws positive and negative cases alike (--mode all).
        "--phases", "examples,fuzzing,stateful", "--mode", "all",
        # The event stream never ends by design: the load harness reads it.
        "--exclude-path", "/api/events",
    ]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=library.folder)
    elapsed = time.monotonic() - started
    summary = [line.strip() for line in result.stdout.splitlines() if " generated, " in line]
    print(f"schemathesis ({examples} examples per operation, seed {seed}): {summary[-1] if summary else 'no summary'} in {elapsed:.0f} s")
    if result.returncode != 0:
        print(result.stdout[-20000:], file=sys.stderr)
        fail("schemathesis found responses the document does not allow (above)")
    if not server.alive():
        fail("the server died under schemathesis")
    library.check()


class Attacks:
    """Hand-made hostile requests: each must get its status and change nothing."""

    def __init__(self, server, library):
        self.server = server
        self.library = library
        self.tried = 0
        self.inbox = Path(library.path + ".uploads")

    def inbox_files(self):
        return sorted(str(p) for p in self.inbox.rglob("*") if p.is_file()) if self.inbox.exists() else []

    def expect(self, what, status, code, method, path, body=None, headers=None, token=True):
        before = (self.library.state(), self.inbox_files())
        got, response_headers, data = self.server.request(method, path, body=body, headers=headers, token=token)
        self.tried += 1
        try:
            answer = json.loads(data) if data else {}
        except ValueError:
            fail(f"{what}: {got} with a body that is not JSON: {data[:200]!r}")
        got_code = answer.get("error", {}).get("code") if isinstance(answer, dict) else None
        if got != status or (code and got_code != code):
            fail(f"{what}: expected {status} {code}, got {got} {got_code}: {data[:300]!r}")
        after = (self.library.state(), self.inbox_files())
        if after != before:
            fail(f"{what}: answered {got} but the library or its upload inbox changed")
        if not self.server.alive():
            fail(f"{what}: the server died")
        return response_headers

    def token_host_origin(self):
        s = self.server
        self.expect("no token", 401, "unauthorized", "GET", "/api/albums", token=False)
        self.expect("a wrong token", 401, "unauthorized", "GET", "/api/albums", token=False,
                    headers={"Authorization": "Bearer " + "0" * 32})
        self.expect("the token one character short", 401, "unauthorized", "GET", "/api/albums", token=False,
                    headers={"Authorization": "Bearer " + s.token[:-1]})
        self.expect("the token under another scheme", 401, "unauthorized", "GET", "/api/albums", token=False,
                    headers={"Authorization": "Basic " + s.token})
        self.expect("a wrong cookie", 401, "unauthorized", "POST", "/api/operations", token=False,
                    body='{"op": "remove", "items": ["Trip:1"]}', headers={"Cookie": "albums_session=nope"})
        self.expect("the token in a POST's query", 401, "unauthorized", "POST", f"/api/operations?token={s.token}",
                    token=False, body='{"op": "remove", "items": ["Trip:1"]}')
        self.expect("a write without a token", 401, "unauthorized", "POST", "/api/undo", token=False)
        self.expect("a foreign Host (DNS rebinding)", 421, "wrong_host", "GET", "/api/albums",
                    headers={"Host": f"evil.example:{s.port}"})
        self.expect("a foreign Origin on a write", 403, "wrong_origin", "POST", "/api/operations",
                    body='{"op": "remove", "items": ["Trip:1"]}', headers={"Origin": "http://evil.example"})
        self.expect("a foreign Origin on an upload", 403, "wrong_origin", "POST", "/api/albums/Trip/files",
                    body=b"x", headers={"Origin": "null"})
        self.expect("a mistyped dry run writes nothing", 400, "invalid_parameter", "POST", "/api/operations?dry_run=yes",
                    body='{"op": "remove", "items": ["Trip:1"]}')
        self.expect("an unknown method", 405, "method_not_allowed", "DELETE", "/api/albums")
        self.expect("no such path", 404, None, "GET", "/api/nothing")

    def batches(self):
        bad = {
            "a broken line": "{",
            "an array": "[]",
            "a number": "42",
            "no items": '{"op": "move", "to": "Book"}',
            "an unknown op": '{"op": "explode", "items": ["Trip:1"]}',
            "a wrong type": '{"op": "move", "items": "Trip:1", "to": "Book"}',
            "a good line then a broken one": '{"op": "remove", "items": ["Trip:1"]}\n{"op": ',
            "a reference with SQL": '{"op": "remove", "items": ["Trip:1; DROP TABLE album"]}',
            "nested a thousand deep": "[" * 1000 + "]" * 1000,
        }
        for what, body in bad.items():
            self.expect(f"batch: {what}", 400, None, "POST", "/api/batch", body=body)
        self.expect("batch: not UTF-8", 400, "invalid_batch", "POST", "/api/batch", body=b'{"op": "\xff\xfe"}')
        self.expect("batch: a NUL in an album's name", 404, "album_not_found", "POST", "/api/batch",
                    body='{"op": "remove", "items": ["Trip\\u0000:1"]}')
        self.expect("batch: a missing album", 404, "album_not_found", "POST", "/api/batch",
                    body='{"op": "remove", "items": ["Trip:1"]}\n{"op": "remove", "items": ["Nowhere:1"]}')
        self.expect("batch: past the end", 422, "position_out_of_range", "POST", "/api/batch",
                    body='{"op": "remove", "items": ["Trip:1"]}\n{"op": "remove", "items": ["Trip:999"]}')
        self.expect("batch: a stale revision", 409, "revision_mismatch", "POST", "/api/batch",
                    body='{"op": "remove", "items": ["Trip:1"], "expect_revision": {"Trip": 999}}')
        huge = ('{"op": "remove", "items": ["Trip:1"]}\n' * 120_000).encode()
        self.expect("batch: larger than 4 MiB", 413, "body_too_large", "POST", "/api/batch", body=huge)
        self.expect("operation: larger than 4 MiB", 413, "body_too_large", "POST", "/api/operations",
                    body=b'{"op": "remove", "items": ["' + b"T" * (5 << 20) + b'"]}')

    def paths_and_ids(self):
        for path in [
            "/api/photos/../../../etc/passwd/original", "/api/photos/1%2F..%2F..%2Fetc%2Fpasswd/original",
            "/page/..%2F..%2FPackage.swift", "/page/../../Package.swift", "/page/%2e%2e%2fREADME.md",
            "/api/photos/0/original", "/api/photos/-1/original", "/api/photos/1e3/original", "/api/photos/0x10/original",
            "/api/photos/99999999999999999999999/thumbnail", "/api/photos/1/thumbnail?size=99999",
            "/api/photos/1/thumbnail?size=-5", "/api/albums/%ff%fe/items", "/api/albums/Trip/items?limit=0",
            "/api/albums/Trip/items?offset=-1", "/api/albums/Trip%00/items", "/api/albums/..%2F..%2Fetc/items",
            "/api/history?limit=abc", "/api/photos/999999/original",
        ]:
            status, _, data = self.server.request("GET", path)
            self.tried += 1
            if status not in (400, 404) or b"root:" in data or b"swift-tools-version" in data:
                fail(f"path trick {path}: {status} {data[:200]!r}")
        if not self.server.alive():
            fail("a path trick killed the server")

    def uploads(self):
        photo = (Path(__file__).resolve().parents[2] / "Examples/Photos/01-harbour.jpg").read_bytes()
        cases = {
            "a text file named .jpg": ([("holiday.jpg", b"this is not a photo\n" * 50)], 415, "not_an_image"),
            "a 0-byte file": ([("empty.jpg", b"")], 415, "not_an_image"),
            "a decompression bomb (a PNG declaring 100000 x 100000)": (
                [("bomb.png", png_bomb(100_000, 100_000))], 422, "too_many_pixels"),
            "a PNG bomb beside a real photo": ([("ok.jpg", photo), ("bomb.png", png_bomb(60_000, 60_000))], 422, "too_many_pixels"),
            "a truncated JPEG header": ([("cut.jpg", photo[:20])], 415, "not_an_image"),
            "a path in the file name": ([("../../../../etc/cron.d/evil", b"#!/bin/sh\n")], 415, "not_an_image"),
        }
        for what, (files, status, code) in cases.items():
            content_type, body = multipart(files)
            self.expect(f"upload: {what}", status, code, "POST", "/api/albums/Trip/files", body=body,
                        headers={"Content-Type": content_type})
        content_type, body = multipart([("a.jpg", photo)])
        self.expect("upload: not multipart", 415, "invalid_upload", "POST", "/api/albums/Trip/files", body=body,
                    headers={"Content-Type": "application/json"})
        self.expect("upload: a cut-off body", 400, "invalid_upload", "POST", "/api/albums/Trip/files",
                    body=body[: len(body) // 2], headers={"Content-Type": content_type})
        self.expect("upload: no file part", 400, "invalid_upload", "POST", "/api/albums/Trip/files",
                    body=b"--b--\r\n", headers={"Content-Type": "multipart/form-data; boundary=b"})
        self.expect("upload: into no album", 404, "album_not_found", "POST", "/api/albums/Nowhere/files",
                    body=body, headers={"Content-Type": content_type})
        self.expect("upload: past the end", 422, "position_out_of_range", "POST", "/api/albums/Trip/files?at=999",
                    body=body, headers={"Content-Type": content_type})
        self.expect("upload: a stale revision", 409, "revision_mismatch", "POST",
                    "/api/albums/Trip/files?expect_revision=999", body=body, headers={"Content-Type": content_type})

    def oversized_upload(self):
        """More than the 256 MiB a file may be, streamed: refused with 413
        as the limit passes, the partial file deleted."""
        s = self.server
        before = (self.library.state(), self.inbox_files())
        connection = socket.create_connection(("127.0.0.1", s.port), timeout=60)
        boundary = "b"
        head = (f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.jpg"\r\n\r\n').encode()
        total = len(head) + (300 << 20) + len(f"\r\n--{boundary}--\r\n")
        connection.sendall(
            (f"POST /api/albums/Trip/files HTTP/1.1\r\nHost: {s.host}\r\nAuthorization: Bearer {s.token}\r\n"
             f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {total}\r\n\r\n").encode() + head)
        chunk = b"\xff\xd8\xff\xe0" + b"\0" * ((1 << 20) - 4)
        answer = b""
        try:
            for _ in range(300):
                connection.sendall(chunk)
        except OSError:
            pass  # the server stopped reading once it refused
        connection.settimeout(30)
        try:
            while b"\r\n\r\n" not in answer:
                data = connection.recv(65536)
                if not data:
                    break
                answer += data
        except OSError:
            pass
        connection.close()
        self.tried += 1
        if not answer.startswith(b"HTTP/1.1 413"):
            fail(f"a 300 MiB upload: expected 413, got {answer[:200]!r}")
        if not wait_until(lambda: (self.library.state(), self.inbox_files()) == before, 10):
            fail("a refused 300 MiB upload left something behind")

    def slow_clients(self, count=200, seconds=5):
        """Connections that send their headers a byte at a time, and ones
        that promise a body and never send it: everyone else is still
        served, and the server lives on."""
        s = self.server
        slow = []
        for index in range(count):
            connection = socket.create_connection(("127.0.0.1", s.port), timeout=10)
            if index % 2:
                connection.sendall(b"G")
            else:
                connection.sendall(
                    (f"POST /api/operations HTTP/1.1\r\nHost: {s.host}\r\nAuthorization: Bearer {s.token}\r\n"
                     "Content-Length: 1000\r\n\r\n{").encode())
            slow.append(connection)
        deadline = time.monotonic() + seconds
        served = 0
        while time.monotonic() < deadline:
            for connection in slow[1::2]:
                try:
                    connection.sendall(b"E")
                except OSError:
                    pass
            status, _, _ = s.request("GET", "/api/albums", timeout=5)
            if status != 200:
                fail(f"with {count} slow clients connected, a normal request got {status}")
            served += 1
            time.sleep(0.1)
        for connection in slow:
            connection.close()
        self.tried += count
        if not s.alive():
            fail("slow clients killed the server")
        print(f"{count} slow clients held for {seconds} s: {served} normal requests served meanwhile")


def png_bomb(width, height):
    """A small, valid PNG header declaring `width` × `height` pixels, with one
    compressed row: what a decompression bomb looks like before it explodes."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * (width + 1) * 8, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--albums", required=True)
    parser.add_argument("--schemathesis", default="schemathesis")
    parser.add_argument("--examples", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20261123)
    arguments = parser.parse_args()

    library = Library(arguments.albums)
    library.make_example()
    server = Server(library)
    try:
        attacks = Attacks(server, library)
        attacks.token_host_origin()
        attacks.batches()
        attacks.paths_and_ids()
        attacks.uploads()
        attacks.oversized_upload()
        attacks.slow_clients()
        print(f"hand-made hostile requests: {attacks.tried} tried, each its documented status, nothing written")
        Sweep(server, library).run()
        library.check()
        run_schemathesis(server, library, arguments.schemathesis, arguments.examples, arguments.seed)
    finally:
        status = server.stop()
    if status != 0:
        fail(f"albums serve exited {status} on Ctrl-C: {server.process.stderr.read()[-2000:]}")
    library.check()
    people.run(arguments.albums, arguments.schemathesis, arguments.examples, arguments.seed)
    print("server hostile harness passed: the library checks clean")


if __name__ == "__main__":
    main()
