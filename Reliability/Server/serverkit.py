"""What the server harnesses share: a library of the example photos, a real
`albums serve` over it, HTTP requests with the session token, event streams
read off a socket, and the library's state as the CLI reports it.

Standard library only, so the harnesses run on any Python 3 (the hostile
one also drives schemathesis, installed by scripts/reliability).
"""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT / "Examples/Photos"


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


class Library:
    """A library file in its own folder, driven through the real binary."""

    def __init__(self, albums, folder=None):
        self.albums = albums
        self.folder = Path(folder or tempfile.mkdtemp(prefix="albums-server-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = str(self.folder / "library.albums")

    def cli(self, *arguments, check=True, env=None, input=None):
        result = subprocess.run(
            [self.albums, "--library", self.path, *arguments], capture_output=True, text=True, env=env, input=input)
        if check and result.returncode != 0:
            fail(f"albums {' '.join(arguments)} exited {result.returncode}: {result.stderr.strip()}")
        return result

    def json(self, *arguments):
        return json.loads(self.cli("--json", *arguments).stdout)

    def make_example(self, albums=("Trip", "Book"), extra_photos=0):
        """The example photos in the first album, and `extra_photos` more
        (distinct JPEGs made from one of them); the others empty."""
        self.cli("init")
        for name in albums:
            self.cli("album", "create", name)
        photos = sorted(str(p) for p in PHOTOS.iterdir() if p.is_file())
        if extra_photos:
            inbox = self.folder / "generated"
            inbox.mkdir(exist_ok=True)
            jpeg = (PHOTOS / "01-harbour.jpg").read_bytes()
            for index in range(extra_photos):
                path = inbox / f"generated-{index:05d}.jpg"
                path.write_bytes(distinct_jpeg(jpeg, index))
                photos.append(str(path))
        self.cli("import", *photos, "--to", albums[0])

    def state(self):
        """Every album and its items in order, as `--json` prints them: what
        a request that writes nothing must leave as it was."""
        albums = self.json("album", "list")["albums"]
        return {a["name"]: (a, self.json("list", a["name"])["items"]) for a in albums}

    def check(self):
        result = self.cli("check", check=False)
        if result.returncode != 0:
            fail(f"albums check failed: {result.stdout.strip()} {result.stderr.strip()}")


class Server:
    """`albums serve` on a free loopback port, until stopped."""

    def __init__(self, library, extra_env=None, extra_arguments=()):
        self.library = library
        env = dict(os.environ, **(extra_env or {}))
        self.process = subprocess.Popen(
            [library.albums, "--library", library.path, "--json", "serve", "--listen", "127.0.0.1:0", *extra_arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.process.stdout.readline()
        if not line:
            fail(f"albums serve did not start: {self.process.stderr.read().strip()}")
        url = json.loads(line)["url"]
        # With people in the library, the server prints its sign-in page, and no token.
        self.base, self.token = url.split("/?token=") if "/?token=" in url else (url.removesuffix("/signin"), None)
        self.port = int(self.base.rsplit(":", 1)[1])
        self.host = f"127.0.0.1:{self.port}"
        #: A signed-in person's session cookie, sent instead of the token when set.
        self.cookie = None

    def headers(self, extra=None):
        if self.cookie:
            return {"Cookie": self.cookie, **(extra or {})}
        return {"Authorization": f"Bearer {self.token}", **(extra or {})}

    def sign_in(self, name, password, headers=None):
        """Signs `name` in; answers (status, the session cookie or None)."""
        status, answer, _ = self.request(
            "POST", "/api/session", json.dumps({"name": name, "password": password}), headers=headers, token=False)
        cookie = answer.get("Set-Cookie", "").split(";")[0] or None
        return status, cookie

    def request(self, method, path, body=None, headers=None, token=True, timeout=60):
        """(status, headers, body bytes) of one request on its own connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            sent = self.headers(headers) if token else dict(headers or {})
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, method, path, body=None, headers=None):
        status, _, data = self.request(method, path, body, headers)
        return status, json.loads(data) if data else None

    def stop(self, sig=signal.SIGINT, timeout=30):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def alive(self):
        return self.process.poll() is None


class EventStream(threading.Thread):
    """Reads `GET /api/events` off a raw socket: every `change` event's
    sequence number and its operations, in the order received."""

    def __init__(self, server, cookie=None):
        super().__init__(daemon=True)
        self.server = server
        self.events = []
        self.error = None
        self.opened = threading.Event()
        self.closed = False
        self.socket = socket.create_connection(("127.0.0.1", server.port), timeout=120)
        request = (
            f"GET /api/events HTTP/1.1\r\nHost: {server.host}\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else f"Authorization: Bearer {server.token}\r\n")
            + "Accept: text/event-stream\r\n\r\n")
        self.socket.sendall(request.encode())

    def run(self):
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                if not self.opened.is_set() and b"albums change stream" in buffer:
                    self.opened.set()
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self.parse(block)
        except OSError as error:
            if not self.closed:
                self.error = error

    def parse(self, block):
        # Chunked transfer encoding puts size lines between events: only
        # the event's own lines are read.
        data = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
        if data:
            self.events.append(json.loads(b"\n".join(data)))

    def close(self):
        self.closed = True
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.socket.close()


def distinct_jpeg(jpeg, index):
    """`jpeg` with a comment segment naming `index` after its start marker:
    the same picture, another file (another SHA-256, so another photo)."""
    comment = f"albums harness {index}".encode()
    segment = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
    return jpeg[:2] + segment + jpeg[2:]


def write_schemathesis_config(path, bearer_from_environment=False):
    """schemathesis's settings for albums serve, written to `path`.

    A schema-valid request the library's rules refuse is 422 (a name taken,
    a range that runs backwards), which schemathesis's default list for
    positive data leaves out, as it does 413 and 415 for uploads too large
    or not photos, and 416 for a well-formed Range that starts past the end
    of the photo it asks for (the schema cannot know a file's size); 400
    stays a failure: a schema looser than the server."""
    text = ""
    if bearer_from_environment:
        text += '[auth.openapi.bearer]\nbearer = "${ALBUMS_TOKEN}"\n'
    text += ('[checks.positive_data_acceptance]\n'
             'expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "413", "415", "416", "422", "429"]\n')
    Path(path).write_text(text)


def wait_until(condition, timeout, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def multipart(files, boundary="albums-harness-boundary"):
    """A multipart/form-data body of (filename, bytes) pairs under `files`."""
    parts = []
    for name, data in files:
        parts.append(
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", body


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
