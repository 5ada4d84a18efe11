"""Hostile people against `albums serve` with people in the library (issue
25, RELIABILITY.md): a viewer reaching for photos that are not shared with
them, share links guessed, a signed-out session replayed, writes from
another origin, passwords guessed (slowed, and nothing learned from
timing), and schemathesis run as a viewer, after which nothing in the
library has changed.

Used by hostile.py; each check prints what it tried.
"""

import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

from serverkit import Library, Server, fail, write_schemathesis_config

FAST = dict(os.environ, ALBUMS_BCRYPT_COST="4")
PASSWORD = "correct horse battery"


def make_household(albums):
    """Trip (shared with gran, a viewer), Book and Secret (not shared); ana, an admin."""
    library = Library(albums)
    library.make_example(albums=("Trip", "Book", "Secret"))
    library.cli("copy", "Trip:1", "--to", "Secret")
    library.cli("move", "Trip:3", "Trip:4", "--to", "Secret")
    library.cli("move", "Trip:2", "--to", "Book")
    for name, admin in [("ana", True), ("gran", False)]:
        library.cli("user", "add", name, *(["--admin"] if admin else []), input=PASSWORD + "\n", env=FAST)
    library.cli("share", "add", "Trip", "--with", "gran", "--role", "viewer")
    return library


def snapshot(library):
    """Everything a person's request could change: albums and items, the
    tree, the history, roles, links and people."""
    return json.dumps({
        "state": library.state(), "tree": library.json("folder", "list"), "history": library.json("history", "--limit", "1000"),
        "roles": library.json("share", "list"), "links": library.json("link", "list"), "people": library.json("user", "list"),
    }, sort_keys=True)


class PeopleAttacks:
    def __init__(self, server, library):
        self.server = server
        self.library = library
        self.tried = 0

    def status(self, method, path, body=None, headers=None, cookie=None):
        self.tried += 1
        sent = {"Cookie": cookie} if cookie else {}
        sent.update(headers or {})
        status, _, data = self.server.request(method, path, body, sent, token=False)
        return status, data

    def unshared_photos(self, gran):
        shared = {item["photo_id"] for item in self.library.json("list", "Trip")["items"]}
        others = {item["photo_id"] for album in ("Book", "Secret") for item in self.library.json("list", album)["items"]} - shared
        if not others:
            fail("the household has no unshared photo to reach for")
        absent = max(shared | others) + 1000
        answers = {}
        for photo in sorted(others) + [absent]:
            for kind in ("original", "thumbnail"):
                status, data = self.status("GET", f"/api/photos/{photo}/{kind}", cookie=gran)
                if status != 404:
                    fail(f"gran reached photo {photo}'s {kind}, not shared with her: {status}")
                answers[(photo, kind)] = json.loads(data)["error"]["code"]
        if set(answers.values()) != {"photo_not_found"}:
            fail(f"an unshared photo was told apart from an absent one: {answers}")
        for photo in sorted(shared):
            if self.status("GET", f"/api/photos/{photo}/original", cookie=gran)[0] != 200:
                fail(f"gran cannot reach photo {photo}, which is shared with her")
        for album in ("Book", "Secret"):
            status, _ = self.status("GET", f"/api/albums/{album}/items", cookie=gran)
            if status != 404:
                fail(f"gran read {album}'s items: {status}")
        print(f"  unshared photos: {len(others)} reached for by id, each 404 photo_not_found as an absent id is")

    def share_links(self):
        live = self.library.cli("link", "create", "Trip").stdout.strip().split("/")[-1]
        revoked = self.library.cli("link", "create", "Trip").stdout.strip().split("/")[-1]
        self.library.cli("link", "revoke", str(self.library.json("link", "list")["links"][0]["id"]))
        bodies = set()
        for token in [secrets.token_urlsafe(32) for _ in range(200)] + [revoked, live[:-1] + ("A" if live[-1] != "A" else "B"), live + "A"]:
            status, data = self.status("GET", f"/api/share/{token}")
            if status != 404:
                fail(f"a guessed share link answered {status}")
            bodies.add(data)
        if len(bodies) != 1:
            fail(f"guessed, revoked and near-miss links were answered differently: {bodies}")
        if self.status("GET", f"/api/share/{live}")[0] != 200:
            fail("the live link does not show its album")
        print("  share links: 203 guessed, revoked or near-miss tokens, one identical 404; the live one shows its album")

    def replayed_session(self):
        status, cookie = self.server.sign_in("gran", PASSWORD)
        if status != 200 or not cookie:
            fail(f"gran cannot sign in: {status}")
        if self.status("DELETE", "/api/session", cookie=cookie)[0] != 204:
            fail("signing out failed")
        for path in ("/api/albums", "/api/history", "/api/albums/Trip/items"):
            if self.status("GET", path, cookie=cookie)[0] != 401:
                fail(f"a signed-out session was let in at {path}")
        print("  a signed-out session, replayed: 401 everywhere")

    def cross_origin(self, ana):
        before = snapshot(self.library)
        for origin in ("http://evil.example", f"http://127.0.0.1:{self.server.port + 1}", "null"):
            status, _ = self.status("POST", "/api/operations", json.dumps({"op": "create_album", "name": "Evil"}), {"Origin": origin}, cookie=ana)
            if status != 403:
                fail(f"a write from {origin} with an admin's cookie answered {status}")
        if snapshot(self.library) != before:
            fail("a cross-origin write changed the library")
        print("  cross-origin writes with an admin's cookie: 403, nothing written")

    def guessing(self):
        # Slowed: the fourth guess for one name waits, even with the right password.
        statuses = [self.server.sign_in("ana", f"guess number {n}", {"X-Forwarded-For": f"10.1.0.{n}"})[0] for n in range(3)]
        held, _ = self.server.sign_in("ana", PASSWORD, {"X-Forwarded-For": "10.1.0.9"})
        if statuses != [401, 401, 401] or held != 429:
            fail(f"guesses were not slowed: {statuses} then {held}")
        # Nothing learned from timing: an unknown name costs what a wrong password costs.
        names = [f"timed{n}" for n in range(8)]
        for name in names:
            self.library.cli("user", "add", name, input=PASSWORD + "\n")  # the real cost, as people get
        known, unknown = [], []
        for n, name in enumerate(names):
            for sample, who in ((known, name), (unknown, f"ghost{n}")):
                started = time.perf_counter()
                status, _ = self.server.sign_in(who, "wrong password!", {"X-Forwarded-For": f"10.2.{n}.{len(sample)}"})
                sample.append(time.perf_counter() - started)
                if status != 401:
                    fail(f"a wrong sign-in answered {status}")
        ratio = statistics.median(unknown) / statistics.median(known)
        print(f"  sign-in timing: wrong password {statistics.median(known) * 1000:.0f} ms, unknown name "
              f"{statistics.median(unknown) * 1000:.0f} ms (medians of 8): {ratio:.2f}x")
        if not 0.67 <= ratio <= 1.5:
            fail(f"an unknown name answers in {ratio:.2f}x the time of a wrong password: timing tells names apart")


def run_schemathesis_as_viewer(server, library, schemathesis, examples, seed, cookie):
    """schemathesis with a viewer's cookie: every response as documented,
    and afterwards nothing in the library changed."""
    before = snapshot(library)
    status, _, document = server.request("GET", "/api/openapi.json", headers={"Cookie": cookie}, token=False)
    if status != 200:
        fail(f"GET /api/openapi.json as a viewer answered {status}")
    (library.folder / "openapi.json").write_bytes(document)
    checks = ",".join([
        "not_a_server_error", "status_code_conformance", "content_type_conformance",
        "response_headers_conformance", "response_schema_conformance", "negative_data_rejection",
        "positive_data_acceptance", "unsupported_method",
    ])
    config = library.folder / "schemathesis.toml"
    write_schemathesis_config(config)
    command = [
        schemathesis, "--config-file", str(config), "run", str(library.folder / "openapi.json"), "--url", server.base, "--header", f"Cookie: {cookie}",
        "--checks", checks, "--max-examples", str(examples), "--workers", "2", "--seed", str(seed),
        "--request-timeout", "30", "--no-color", "--phases", "examples,fuzzing,stateful", "--mode", "all",
        # The stream never ends; signing in and out is not the viewer's to fuzz (signing out would end the run's session).
        "--exclude-path", "/api/events", "--exclude-path", "/api/session",
    ]
    env = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks", PYTHONPATH=str(Path(__file__).resolve().parent))
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=library.folder)
    summary = [line.strip() for line in result.stdout.splitlines() if " generated, " in line]
    print(f"  schemathesis as a viewer ({examples} examples per operation): {summary[-1] if summary else 'no summary'} "
          f"in {time.monotonic() - started:.0f} s")
    if result.returncode != 0:
        print(result.stdout[-20000:], file=sys.stderr)
        fail("schemathesis, as a viewer, found responses the document does not allow (above)")
    if snapshot(library) != before:
        fail("schemathesis, as a viewer, changed the library: a write succeeded that a viewer may not make")
    print("  nothing in the library changed: no write a viewer made succeeded")


def run(albums, schemathesis, examples, seed):
    print("== people: a household with a viewer, an admin and share links")
    library = make_household(albums)
    server = Server(library, extra_arguments=("--trusted-proxy", "127.0.0.1"))
    try:
        attacks = PeopleAttacks(server, library)
        _, gran = server.sign_in("gran", PASSWORD)
        _, ana = server.sign_in("ana", PASSWORD)
        attacks.unshared_photos(gran)
        attacks.share_links()
        attacks.replayed_session()
        attacks.cross_origin(ana)
        run_schemathesis_as_viewer(server, library, schemathesis, examples, seed, gran)
        attacks.guessing()
        print(f"  {attacks.tried} hand-made requests, each answered as documented")
    finally:
        status = server.stop()
    if status != 0:
        fail(f"albums serve exited {status} on Ctrl-C")
    library.check()
