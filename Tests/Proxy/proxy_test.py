"""albums serve behind the committed nginx site, over TLS, as people reach it."""

import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALBUMS = os.environ.get("ALBUMS_BINARY", str(ROOT / ".build/debug/albums"))
SITE = ROOT / "Examples/Proxy/nginx-site.conf"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class BehindNginx(unittest.TestCase):
    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="albums-proxy-"))
        self.library = str(self.folder / "home.albums")
        self.cli("album", "create", "Wedding")
        self.cli("album", "create", "Secret")
        self.cli("user", "add", "gran", input="grandma's pass\n")
        self.cli("share", "add", "Wedding", "--with", "gran", "--role", "viewer")
        self.link = self.cli("link", "create", "Wedding").strip()

        self.https, backend = free_port(), free_port()
        self.public = f"localhost:{self.https}"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
             "-keyout", str(self.folder / "key.pem"), "-out", str(self.folder / "cert.pem")], check=True, capture_output=True)
        site = SITE.read_text()
        for committed, here in [("listen 443 ssl", f"listen 127.0.0.1:{self.https} ssl"), ("photos.example.org", "localhost"),
                                ("/etc/ssl/albums/fullchain.pem", str(self.folder / "cert.pem")),
                                ("/etc/ssl/albums/privkey.pem", str(self.folder / "key.pem")),
                                ("127.0.0.1:8765", f"127.0.0.1:{backend}")]:
            self.assertIn(committed, site, "the committed site changed: update this test with it")
            site = site.replace(committed, here)
        (self.folder / "nginx.conf").write_text(
            f"daemon off;\npid {self.folder}/nginx.pid;\nerror_log {self.folder}/error.log;\nevents {{}}\n"
            f"http {{\naccess_log off;\nclient_body_temp_path {self.folder};\nproxy_temp_path {self.folder};\n{site}\n}}\n")
        self.nginx = subprocess.Popen(["nginx", "-c", str(self.folder / "nginx.conf"), "-p", str(self.folder)], stderr=subprocess.PIPE)
        self.server = subprocess.Popen(
            [ALBUMS, "--library", self.library, "--json", "serve", "--listen", f"127.0.0.1:{backend}",
             "--public-url", f"https://{self.public}", "--trusted-proxy", "127.0.0.1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.announced = json.loads(self.server.stdout.readline())["url"]
        self.backend = backend
        self.tls = ssl.create_default_context(cafile=str(self.folder / "cert.pem"))
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                self.request("GET", "/signin")
                break
            except OSError:
                time.sleep(0.1)

    def tearDown(self):
        self.server.terminate()
        self.server.wait(timeout=20)
        self.nginx.terminate()
        self.nginx.wait(timeout=20)
        shutil.rmtree(self.folder, ignore_errors=True)

    def cli(self, *arguments, input=None):
        result = subprocess.run(
            [ALBUMS, "--library", self.library, *arguments], capture_output=True, text=True, input=input,
            env={**os.environ, "ALBUMS_BCRYPT_COST": "4"})
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def request(self, method, path, body=None, headers=None):
        """Through nginx, over TLS, as a browser on this page sends it."""
        connection = http.client.HTTPSConnection("localhost", self.https, context=self.tls, timeout=10)
        sent = {"Origin": f"https://{self.public}", **(headers or {})} if method != "GET" else dict(headers or {})
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()

    def test_sign_in_through_the_proxy_sets_a_secure_cookie(self):
        self.assertEqual(self.announced, f"https://{self.public}/signin")
        status, headers, _ = self.request("GET", "/")
        self.assertEqual((status, headers.get("Location")), (303, "/signin"))
        status, headers, _ = self.request("POST", "/api/session", {"name": "gran", "password": "grandma's pass"})
        self.assertEqual(status, 200)
        cookie = headers["Set-Cookie"]
        for attribute in ("HttpOnly", "Secure", "SameSite=Strict", "Path=/"):
            self.assertIn(attribute, cookie)
        # Only this host, over HTTPS, may set it: no other site under the domain can plant one.
        self.assertTrue(cookie.startswith("__Host-albums_person="), cookie)
        session = cookie.split(";")[0]
        status, _, body = self.request("GET", "/api/albums", headers={"Cookie": session})
        self.assertEqual(status, 200)
        self.assertEqual([album["name"] for album in json.loads(body)["albums"]], ["Wedding"])
        # Another site's page cannot write through the proxy.
        status, _, _ = self.request("DELETE", "/api/session", headers={"Cookie": session, "Origin": "https://evil.example"})
        self.assertEqual(status, 403)

    def test_the_server_answers_only_to_its_public_name(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.backend, timeout=10)
        connection.request("GET", "/signin")
        self.assertEqual(connection.getresponse().status, 421)

    def test_guesses_are_slowed_by_the_address_the_proxy_saw_not_the_one_claimed(self):
        for attempt in range(3):
            status, _, _ = self.request("POST", "/api/session", {"name": f"guess{attempt}", "password": "not it at all"},
                                        headers={"X-Forwarded-For": f"10.0.0.{attempt}"})
            self.assertEqual(status, 401)
        status, headers, _ = self.request("POST", "/api/session", {"name": "guess9", "password": "not it at all"},
                                          headers={"X-Forwarded-For": "10.0.0.99"})
        self.assertEqual(status, 429)
        self.assertIn("Retry-After", headers)

    def test_a_share_link_through_the_proxy(self):
        status, _, page = self.request("GET", self.link)
        self.assertEqual(status, 200)
        self.assertIn(b"share.js", page)
        token = self.link.split("/")[-1]
        status, _, body = self.request("GET", f"/api/share/{token}")
        self.assertEqual((status, json.loads(body)["name"]), (200, "Wedding"))


if __name__ == "__main__":
    unittest.main()
