"""Cluster mode: three `hyzer serve` instances that share one PostgreSQL cloud and one
--cluster-secret, behind nginx running deploy/nginx/hyzer.conf (round-robin, no stickiness,
a one-second micro-cache for anonymous pages). The site must behave as one server:

- a session signed in through nginx works on every instance directly, and so does an API
  token issued on one instance's data folder;
- a score posted through nginx is read at once through nginx and on every instance
  (the write's `Hyzer-Seen`), and reaches live streams on every instance;
- anonymous pages are cached by nginx, signed-in pages never are, and no reader ever sees
  another's page;
- "sign out everywhere" on one instance ends the session on all within a second;
- an instance killed with kill -9 is skipped by nginx, catches up when it is back, and no
  acknowledged score is lost anywhere.

PostgreSQL is a throwaway cluster made here (initdb as scripts/with-postgres does), or a fresh
database in $HYZER_TEST_PG_URL's server when that is set. nginx comes from `make system-deps`.
Logs: test-output/system/cluster-*.log (instances, nginx, PostgreSQL).
"""
import email.utils
import http.client
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid

import pytest

from conftest import LOGS, PASSWORD, ROOT, NoAnswer, Postgres, Servers, free_port

SECRET = f"cluster-test-secret-{uuid.uuid4().hex}"
ADMIN = "ada.cluster"
INSTANCES = 3
# Read-your-writes waits at most ~2 s on the instance; an answer must come well inside this.
READ_TIMEOUT = 10
TEMPLATE = ROOT / "deploy" / "nginx" / "hyzer.conf"


# HTTP: one request per connection, every header kept (Set-Cookie comes more than once).

class Answer:
    def __init__(self, status, headers, body, elapsed):
        self.status, self.headers, self.body, self.elapsed = status, headers, body, elapsed

    def header(self, name):
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    def all(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]

    @property
    def text(self):
        return self.body.decode(errors="replace")

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        heads = "\n".join(f"  {k}: {v}" for k, v in self.headers)
        return f"HTTP {self.status} after {self.elapsed * 1000:.0f} ms\n{heads}\n  body: {self.text[:600]!r}"


def call(port, method, path, *, body=None, headers=None, timeout=READ_TIMEOUT):
    sent = {"Host": f"127.0.0.1:{port}", "Connection": "close", **(headers or {})}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        data = response.read()
        return Answer(response.status, response.getheaders(), data, time.monotonic() - started)
    except (OSError, http.client.HTTPException) as error:
        raise NoAnswer(f"{method} {path} on :{port}: {error!r}") from error
    finally:
        connection.close()


class Browser:
    """A cookie jar for 127.0.0.1 (cookies ignore the port, as browsers do): the same cookies go
    to nginx and to every instance."""

    def __init__(self, name):
        self.name = name
        self.jar = {}

    def absorb(self, answer):
        for line in answer.all("Set-Cookie"):
            pair, *attributes = [part.strip() for part in line.split(";")]
            name, _, value = pair.partition("=")
            gone = not value
            for attribute in attributes:
                key, _, argument = attribute.partition("=")
                key = key.strip().lower()
                if key == "max-age" and argument.strip().lstrip("-").isdigit() and int(argument) <= 0:
                    gone = True
                elif key == "expires":
                    try:
                        gone = gone or email.utils.parsedate_to_datetime(argument).timestamp() <= time.time()
                    except (TypeError, ValueError):
                        pass
            if gone:
                self.jar.pop(name, None)
            else:
                self.jar[name] = value
        return answer

    def cookie_header(self, names=None):
        chosen = {k: v for k, v in self.jar.items() if names is None or k in names}
        return "; ".join(f"{k}={v}" for k, v in chosen.items())

    def request(self, port, method, path, *, form=None, data=None, headers=None, only=None, keep=True):
        """`form` is sent url-encoded, `data` as JSON; `only` limits the cookies sent; with
        keep=False the answer's cookies are not taken (a probe)."""
        headers = dict(headers or {})
        cookies = self.cookie_header(only)
        if cookies:
            headers["Cookie"] = cookies
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif data is not None:
            body = json.dumps(data).encode()
            headers["Content-Type"] = "application/json"
        answer = call(port, method, path, body=body, headers=headers)
        return self.absorb(answer) if keep else answer

    def api(self, port, method, path, data=None, expect=(200, 201), **options):
        answer = self.request(port, method, path, data=data, **options)
        assert answer.status in expect, f"{self.name}: {method} {path} on :{port} answered {answer!r}"
        return answer


def redirects_to_signin(answer):
    return answer.status in (302, 303) and (answer.header("Location") or "").startswith("/signin")


# nginx with deploy/nginx/hyzer.conf, rendered for this test.

class Nginx:
    def __init__(self, folder, upstream_ports):
        self.folder = pathlib.Path(folder)
        self.port = free_port()
        self.process = None
        self.error_log = LOGS / "cluster-nginx-error.log"
        self.access_log = LOGS / "cluster-nginx-access.log"
        binary = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None)
        if not binary:
            pytest.fail("nginx is missing: run `make system-deps` (Debian's nginx)")
        self.binary = binary
        values = {"@LISTEN@": f"127.0.0.1:{self.port}", "@CACHE_DIR@": str(self.folder / "cache"),
                  "@UPSTREAMS@": "\n".join(f"    server 127.0.0.1:{port};" for port in upstream_ports)}
        lines = []
        for line in TEMPLATE.read_text().splitlines():
            if not line.lstrip().startswith("#"):  # the comments name the placeholders too
                for placeholder, value in values.items():
                    line = line.replace(placeholder, value)
                left = re.findall(r"@[A-Z_]+@", line)
                assert not left, f"{TEMPLATE} has placeholders this test does not fill: {left}"
            lines.append(line)
        snippet = "\n".join(lines) + "\n"
        (self.folder / "hyzer.conf").write_text(snippet)
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.folder / name).mkdir()
        LOGS.mkdir(parents=True, exist_ok=True)
        self.error_log.write_bytes(b"")
        self.access_log.write_bytes(b"")
        # As root the workers would otherwise run as nobody, who may not write these folders.
        user = "user root root;\n" if os.geteuid() == 0 else ""
        (self.folder / "nginx.conf").write_text(f"""{user}worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.error_log} info;
events {{ worker_connections 1024; }}
http {{
    log_format upstreams '$remote_addr "$request" $status $body_bytes_sent upstream=$upstream_addr '
                         'upstream_status=$upstream_status cache=$upstream_cache_status time=$request_time';
    access_log {self.access_log} upstreams;
    client_body_temp_path {self.folder}/client_body;
    proxy_temp_path {self.folder}/proxy;
    fastcgi_temp_path {self.folder}/fastcgi;
    uwsgi_temp_path {self.folder}/uwsgi;
    scgi_temp_path {self.folder}/scgi;
    include {self.folder}/hyzer.conf;
}}
""")

    def command(self, *extra):
        return [self.binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), "-e", str(self.error_log), *extra]

    def start(self):
        checked = subprocess.run(self.command("-t"), capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, f"nginx -t refused the rendered config:\n{checked.stderr}\n{(self.folder / 'hyzer.conf').read_text()}"
        with open(self.error_log, "ab") as log:
            # Its own process group, so its workers go with it.
            self.process = subprocess.Popen(self.command("-g", "daemon off;"), stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + 15
        while True:
            assert self.process.poll() is None, f"nginx exited ({self.process.returncode}); see {self.error_log}"
            try:
                if call(self.port, "GET", "/healthz", timeout=2).status == 200:
                    return
            except NoAnswer:
                pass
            assert time.monotonic() < deadline, f"nginx did not pass /healthz on :{self.port} within 15 s; see {self.error_log}"
            time.sleep(0.05)

    def stop(self):
        if not self.process or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # fast shutdown, workers included
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


# Live streams: a raw connection, the chunked body decoded, frames collected by a thread.

class Stream:
    def __init__(self, port, path, name):
        self.name = name
        self.frames = []  # (id, event, data)
        self.status = None
        self.headers = {}
        self.closed = False
        self.condition = threading.Condition()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.sock.settimeout(None)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        raw, body, chunked, head_done = b"", b"", False, False
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                raw += chunk
                if not head_done:
                    if b"\r\n\r\n" not in raw:
                        continue
                    head, _, raw = raw.partition(b"\r\n\r\n")
                    lines = head.decode(errors="replace").split("\r\n")
                    with self.condition:
                        self.status = int(lines[0].split()[1])
                        self.headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
                        self.condition.notify_all()
                    chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
                    head_done = True
                if chunked:
                    while True:
                        size_line, found, rest = raw.partition(b"\r\n")
                        if not found:
                            break
                        size = int(size_line.split(b";")[0].strip() or b"0", 16)
                        if len(rest) < size + 2:
                            break
                        body += rest[:size]
                        raw = rest[size + 2:]
                        if size == 0:
                            return
                else:
                    body, raw = body + raw, b""
                body = body.replace(b"\r\n", b"\n")
                while b"\n\n" in body:
                    frame, _, body = body.partition(b"\n\n")
                    self._frame(frame.decode(errors="replace"))
        except OSError:
            pass
        finally:
            with self.condition:
                self.closed = True
                self.condition.notify_all()

    def _frame(self, text):
        frame_id, event, data = None, "message", []
        for line in text.split("\n"):
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "id":
                frame_id = value
            elif field == "event":
                event = value
            elif field == "data":
                data.append(value)
        if frame_id is None and not data:
            return  # retry: hints and heartbeats
        with self.condition:
            self.frames.append((frame_id, event, "\n".join(data)))
            self.condition.notify_all()

    def wait(self, predicate, timeout):
        """The first frame that satisfies `predicate`, or None when none came within timeout."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for frame in self.frames:
                    if predicate(frame):
                        return frame
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    return None
                self.condition.wait(left)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(timeout=5)


def strokes_in_fragment(html, player_id):
    """The Strokes cell of a player's row in a rendered leaderboard, or None."""
    row = re.search(rf'<tr data-player="{re.escape(player_id)}".*?</tr>', html, re.S | re.I)
    cell = row and re.search(r'<td class="strokes">\s*(\d+)\s*</td>', row.group(0))
    return int(cell.group(1)) if cell else None


# The site: PostgreSQL, three instances, nginx, an admin, a round.

class Site:
    def __init__(self, made, postgres):
        self.made = made
        self.postgres = postgres
        flags = ["--cloud", postgres.url, "--cluster-secret", SECRET, "--trusted-proxies", "127.0.0.1", "--backup-interval", "off"]
        self.instances = [made.server(f"cluster-{n}", extra=flags) for n in range(1, INSTANCES + 1)]
        self.nginx = None
        self.browser = None
        self.round_id = None
        self.players = []
        self.next_hole = {}
        self.acknowledged = {}  # score id -> (playerID, hole, strokes)

    @property
    def ports(self):
        return [server.port for server in self.instances]

    def start(self):
        first, others = self.instances[0], self.instances[1:]
        first.cli("admin", "create-user", ADMIN, "--role", "admin", "--name", "Ada Cluster", input=PASSWORD + "\n")
        assert first.start(), f"{first.name} did not start; see {first.log_path}"
        # The account reaches the cloud when the first instance pushes it at start.
        probe = Browser("probe")
        self.sign_in(probe, first.port)
        deadline = time.monotonic() + 30
        while True:
            status = probe.api(first.port, "GET", "/api/v1/sync").json()
            if status.get("pending") == 0 and status.get("inFlight") == 0 and status.get("lastSyncAt"):
                break
            assert time.monotonic() < deadline, f"{first.name} never pushed the admin to the cloud: {status}"
            time.sleep(0.05)
        self.probe = probe
        for server in others:
            server.start(wait=False)
        for server in others:
            assert server.wait_healthy(), f"{server.name} did not start; see {server.log_path}"
        # Their first pull brings the admin (as in test_setup_link).
        for server in others:
            deadline = time.monotonic() + 30
            while "The club's admin arrived from the cloud" not in server.log_text():
                assert time.monotonic() < deadline, f"{server.name} never pulled the admin; see {server.log_path}"
                time.sleep(0.05)
        self.nginx = Nginx(self.made.folder("hyzer-cluster-nginx-"), self.ports)
        self.nginx.start()

    def sign_in(self, browser, port):
        page = browser.request(port, "GET", "/signin")
        assert page.status == 200, f"GET /signin on :{port}: {page!r}"
        token = browser.jar.get("hyzer_csrf")
        assert token, f"GET /signin on :{port} set no hyzer_csrf cookie: {page!r}"
        field = re.search(r'name="csrf" value="([^"]*)"', page.text)
        assert field and field.group(1) == token, "the sign-in form's csrf field is not the hyzer_csrf cookie"
        answer = browser.request(port, "POST", "/signin", form={"csrf": token, "next": "/admin", "handle": ADMIN, "password": PASSWORD})
        assert answer.status in (302, 303) and answer.header("Location") == "/admin", f"POST /signin on :{port}: {answer!r}"
        assert browser.jar.get("hyzer_session"), f"POST /signin on :{port} set no session cookie: {answer!r}"
        return answer

    def admin(self):
        """The admin's browser, signed in through nginx (again after a sign-out everywhere)."""
        if self.browser is None:
            browser = Browser("admin via nginx")
            self.sign_in(browser, self.nginx.port)
            self.browser = browser
        return self.browser

    def round(self):
        """A started round of three players on an 18-hole course, made through nginx."""
        if self.round_id is None:
            browser, port = self.admin(), self.nginx.port
            course = browser.api(port, "POST", "/api/v1/courses",
                                 {"name": "Cluster Park", "holes": [{"number": n, "par": 3} for n in range(1, 19)]}).json()
            for letter in "abc":
                player = browser.api(port, "POST", "/api/v1/players",
                                     {"displayName": f"Thrower {letter.upper()}", "handle": f"cluster.{letter}"}).json()
                self.players.append(player["id"])
                self.next_hole[player["id"]] = 1
            created = browser.api(port, "POST", "/api/v1/rounds", {"courseID": course["id"], "name": "Cluster night", "start": True,
                                                                    "players": [{"playerID": p} for p in self.players]})
            self.round_id = created.json()["id"]
            # Read by the writer with the write's Hyzer-Seen, every instance knows the round at
            # once (the streams and pages below are read without it).
            seen = created.header("Hyzer-Seen")
            assert seen, f"POST /api/v1/rounds answered without Hyzer-Seen: {created!r}"
            for server in self.instances:
                known = browser.request(server.port, "GET", f"/api/v1/rounds/{self.round_id}", headers={"Hyzer-Seen": seen}, keep=False)
                assert known.status == 200, f"{server.name}: GET /api/v1/rounds/{self.round_id} with Hyzer-Seen: {seen} answered {known!r}"
        return self.round_id

    def post_score(self, player, strokes):
        """Posts the player's next hole through nginx; returns the answer (201)."""
        round_id = self.round()
        hole = self.next_hole[player]
        score_id = str(uuid.uuid4())
        answer = self.admin().request(self.nginx.port, "POST", f"/api/v1/rounds/{round_id}/scores",
                                      data={"id": score_id, "playerID": player, "hole": hole, "strokes": strokes})
        assert answer.status == 201, f"POST score (hole {hole}) through nginx answered {answer!r}"
        self.acknowledged[score_id] = (player, hole, strokes)
        self.next_hole[player] = hole + 1
        return answer

    def total(self, player):
        return sum(strokes for p, _, strokes in self.acknowledged.values() if p == player)

    def holes(self, player):
        return sum(1 for p, _, _ in self.acknowledged.values() if p == player)


@pytest.fixture(scope="module")
def site():
    made = Servers()
    postgres = Postgres()
    made_site = None
    try:
        postgres.start()
        made_site = Site(made, postgres)
        made_site.start()
        yield made_site
    finally:
        if made_site and made_site.nginx:
            made_site.nginx.stop()
        for server in made.started:
            try:
                server.kill9()
            except Exception:  # noqa: BLE001 — cleanup goes on with the others
                pass
        postgres.stop()
        made.cleanup()


def shareable(answer):
    """Whether a shared cache may keep the answer (nginx's reading of Cache-Control)."""
    policy = (answer.header("Cache-Control") or "").lower()
    if any(word in policy for word in ("private", "no-store", "no-cache")):
        return False
    return "public" in policy or "s-maxage" in policy or ("max-age" in policy and "max-age=0" not in policy)


def standing(answer, player):
    entries = [e for e in answer.json()["standings"] if e["playerID"].lower() == player.lower()]
    assert entries, f"player {player} is not in the standings: {answer.text[:800]}"
    return entries[0]


# 1. A session from the balancer is valid on every instance.

def test_a_session_signed_in_through_nginx_works_on_every_instance(site):
    browser = site.admin()
    for server in site.instances:
        page = browser.request(server.port, "GET", "/admin", keep=False)
        assert page.status == 200, f"{server.name} does not take the session signed in through nginx: GET /admin {page!r}"
        assert f"@{ADMIN}" in page.text, f"{server.name}'s /admin does not show @{ADMIN}"
        api = browser.request(server.port, "GET", "/api/v1/sync", keep=False)
        assert api.status == 200, f"{server.name}: GET /api/v1/sync with the session answered {api!r}"
    # The form token one instance made is taken by the others: each page carries the browser's
    # own (GET /signin and POST /signin above also went to different instances).
    for server in site.instances:
        page = browser.request(server.port, "GET", "/admin", keep=False)
        field = re.search(r'name="csrf" value="([^"]*)"', page.text)
        assert field and field.group(1) == browser.jar["hyzer_csrf"], f"{server.name}: /admin's form token is not the browser's hyzer_csrf cookie"
        assert not page.all("Set-Cookie"), f"{server.name} replaced a cookie of the session signed in through nginx: {page!r}"


def test_an_api_token_issued_on_one_instance_works_on_every_instance(site):
    issuer = site.instances[1]
    token = issuer.cli("admin", "token", ADMIN, "--name", "cluster test", "--cloud", site.postgres.url, "--cluster-secret", SECRET)
    token = token.strip().splitlines()[-1].strip()
    for port, name in [(server.port, server.name) for server in site.instances] + [(site.nginx.port, "nginx")]:
        answer = call(port, "GET", "/api/v1/sync", headers={"Authorization": f"Bearer {token}"})
        assert answer.status == 200, f"{name}: GET /api/v1/sync with the token issued on {issuer.name}'s data folder answered {answer!r}"
        wrong = call(port, "GET", "/api/v1/sync", headers={"Authorization": f"Bearer {token[:-2]}xx"})
        assert wrong.status == 401, f"{name}: a wrong token answered {wrong!r}"



def test_the_command_line_refuses_to_act_on_one_instance_of_a_cluster_alone(site):
    issuer = site.instances[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("HYZER_")}

    def admin(*args, extra_env=None):
        return subprocess.run([str(issuer.exe), "admin", *args, "--data-dir", str(issuer.data_dir)], capture_output=True, text=True,
                              timeout=60, env={**env, **(extra_env or {})})

    # Without the cluster's flags a token would open nothing and a reset would sign nobody out.
    for args in (("token", ADMIN), ("reset-password", ADMIN)):
        done = admin(*args)
        assert done.returncode != 0 and "belongs to an instance of cluster" in done.stderr, f"hyzer admin {args}: {done.stderr or done.stdout}"
    wrong = admin("token", ADMIN, "--cloud", site.postgres.url, "--cluster-secret", "another-cluster-secret-0123456789")
    assert wrong.returncode != 0 and "not the one of cluster" in wrong.stderr, wrong.stderr
    # An empty secret (an unreadable secret file) is a mistake, not "no cluster".
    empty = subprocess.run([str(issuer.exe), "serve", "--port", "0", "--data-dir", str(issuer.data_dir) + "-empty", "--cloud", site.postgres.url],
                           capture_output=True, text=True, timeout=60, env={**env, "HYZER_CLUSTER_SECRET": ""})
    assert empty.returncode != 0 and "HYZER_CLUSTER_SECRET is set but empty" in empty.stderr, empty.stderr


# 2. Read your own writes, on any instance.

def test_a_score_posted_through_nginx_is_read_at_once_everywhere(site):
    browser, nginx = site.admin(), site.nginx.port
    round_id = site.round()
    player = site.players[0]
    for turn in range(3):
        written = site.post_score(player, 3 + turn % 2)
        seen = written.header("Hyzer-Seen")
        assert seen and seen.isdigit(), f"a score write answered without a numeric Hyzer-Seen header: {written!r}"
        assert browser.jar.get("hyzer_seen") == seen, f"the write set no hyzer_seen={seen} cookie: {written!r}"
        expected = (site.total(player), site.holes(player))
        # Through nginx (the cookie), three times: round-robin puts each read on another instance.
        for read in range(INSTANCES):
            answer = browser.api(nginx, "GET", f"/api/v1/rounds/{round_id}/standings")
            entry = standing(answer, player)
            assert (entry["strokes"], entry["thru"]) == expected, (
                f"write {turn + 1}, read {read + 1} through nginx: strokes/thru {entry['strokes']}/{entry['thru']}, "
                f"expected {expected[0]}/{expected[1]} (hyzer_seen={seen}); {answer!r}")
        # Every instance directly, with the writer's session and the header alone (no cookie).
        for server in site.instances:
            answer = browser.request(server.port, "GET", f"/api/v1/rounds/{round_id}/standings", headers={"Hyzer-Seen": seen},
                                     only={"hyzer_session"}, keep=False)
            assert answer.status == 200, f"{server.name}: standings with Hyzer-Seen: {seen} answered {answer!r}"
            entry = standing(answer, player)
            assert (entry["strokes"], entry["thru"]) == expected, (
                f"write {turn + 1} on {server.name} with Hyzer-Seen: {seen}: strokes/thru {entry['strokes']}/{entry['thru']}, "
                f"expected {expected[0]}/{expected[1]}; {answer!r}")
            assert answer.elapsed < 3, f"{server.name} took {answer.elapsed:.1f} s to answer a read with Hyzer-Seen: {seen}"
        # The leaderboard page through nginx, signed in: the same.
        page = browser.request(nginx, "GET", f"/rounds/{round_id}/leaderboard")
        assert page.status == 200, f"leaderboard through nginx: {page!r}"
        assert strokes_in_fragment(page.text, player) == expected[0], f"the leaderboard page through nginx does not show {expected[0]} strokes"


# 3. Live streams on every instance.

def test_live_streams_on_every_instance_get_a_score_posted_through_nginx(site):
    site.admin()
    round_id = site.round()
    player = site.players[1]
    path = f"/rounds/{round_id}/events"
    streams = [Stream(server.port, path, server.name) for server in site.instances]
    streams.append(Stream(site.nginx.port, path, "nginx"))
    try:
        for stream in streams:
            first = stream.wait(lambda frame: frame[0] is not None, 5)
            assert stream.status == 200, f"{stream.name}: {path} answered {stream.status} {stream.headers}"
            assert first, f"{stream.name}: no first frame within 5 s (status {stream.status}, {len(stream.frames)} frames)"
        site.post_score(player, 4)
        expected = site.total(player)
        posted = time.monotonic()
        late = []
        for stream in streams:
            frame = stream.wait(lambda f: f[0] is not None and strokes_in_fragment(f[2], player) == expected,
                                max(0.0, posted + 5 - time.monotonic()))
            if not frame:
                late.append(f"{stream.name}: frames {[(f[0], f[1], strokes_in_fragment(f[2], player)) for f in stream.frames]}")
        assert not late, f"no frame showing {expected} strokes for the player within 5 s on: " + "; ".join(late)
        print(f"\ncluster: a score posted through nginx reached {len(streams)} streams in {time.monotonic() - posted:.2f} s")
    finally:
        for stream in streams:
            stream.close()


# 4. The shared cache: anonymous pages yes, signed-in pages never, nothing of one reader to another.

def test_nginx_caches_anonymous_pages_and_never_signed_in_ones(site):
    browser, nginx = site.admin(), site.nginx.port
    round_id = site.round()
    anonymous_paths = ["/", f"/rounds/{round_id}", f"/rounds/{round_id}/leaderboard", "/tv"]
    # What the instances promise.
    for server in site.instances:
        for path in anonymous_paths:
            answer = call(server.port, "GET", path)
            assert answer.status == 200, f"{server.name}: anonymous GET {path}: {answer!r}"
            assert not answer.all("Set-Cookie"), f"{server.name}: anonymous GET {path} sets a cookie: {answer!r}"
            policy = (answer.header("Cache-Control") or "").replace(" ", "")
            assert policy == "public,max-age=0,s-maxage=1", f"{server.name}: anonymous GET {path}: Cache-Control {policy!r}"
            assert answer.header("ETag"), f"{server.name}: anonymous GET {path} has no ETag"
        signin = call(server.port, "GET", "/signin")
        assert any(c.startswith("hyzer_csrf=") for c in signin.all("Set-Cookie")), f"{server.name}: /signin sets no hyzer_csrf: {signin!r}"
        assert not shareable(signin), f"{server.name}: /signin (with a cookie) may be kept by a shared cache: {signin!r}"
        mine = browser.request(server.port, "GET", f"/rounds/{round_id}/leaderboard", keep=False)
        policy = (mine.header("Cache-Control") or "").replace(" ", "")
        assert mine.status == 200 and policy == "private,no-store", f"{server.name}: signed-in leaderboard: {mine!r}"

    # A page with a form gives each reader a token of their own, never a cached one.
    tokens = set()
    for turn in range(3):
        signin = call(nginx, "GET", "/signin")
        cookies = [c.split(";")[0] for c in signin.all("Set-Cookie") if c.startswith("hyzer_csrf=")]
        assert signin.status == 200 and cookies and signin.header("X-Cache-Status") != "HIT", f"/signin through nginx: {signin!r}"
        tokens.add(cookies[0])
    assert len(tokens) == 3, f"three anonymous readers of /signin through nginx got {len(tokens)} different form tokens"

    path = f"/rounds/{round_id}/leaderboard"
    first = call(nginx, "GET", path)
    second = call(nginx, "GET", path)
    for answer in (first, second):
        assert answer.status == 200 and not answer.all("Set-Cookie"), f"anonymous {path} through nginx: {answer!r}"
        assert f"@{ADMIN}" not in answer.text and "hyzer-viewer" not in answer.text, f"an anonymous page shows a signed-in reader: {answer!r}"
    assert second.header("X-Cache-Status") == "HIT", (
        f"the second anonymous GET {path} through nginx was not a cache HIT: first {first.header('X-Cache-Status')}, "
        f"second {second.header('X-Cache-Status')}; {second!r}")
    # A number an anonymous reader sends (made up, or kept from before a sign-out) neither skips
    # the cache nor reaches an instance: only a signed-in client has written anything.
    for probe in ({"Hyzer-Seen": "9223372036854775807"}, {"Cookie": "hyzer_seen=9223372036854775807"}):
        for attempt in range(3):
            # Kept a second: read right after a plain anonymous read, it is there (a slow turn
            # may let it expire once; it is read again then).
            call(nginx, "GET", path)
            forged = call(nginx, "GET", path, headers=probe)
            if forged.header("X-Cache-Status") == "HIT":
                break
        assert forged.status == 200 and forged.header("X-Cache-Status") == "HIT", (
            f"an anonymous GET {path} through nginx with {probe} was not a cache HIT: {forged.header('X-Cache-Status')}; {forged!r}")
        assert forged.elapsed < 1, f"an anonymous GET {path} with {probe} took {forged.elapsed:.2f} s through nginx"
    for turn in range(3):
        mine = browser.request(nginx, "GET", path)
        assert mine.status == 200, f"signed-in {path} through nginx: {mine!r}"
        assert mine.header("X-Cache-Status") != "HIT", f"a signed-in request through nginx was answered from the cache: {mine!r}"
        assert f"@{ADMIN}" in mine.text, f"the signed-in page through nginx does not show @{ADMIN} (someone else's copy?): {mine!r}"
        after = call(nginx, "GET", path)
        assert after.status == 200 and not after.all("Set-Cookie"), f"anonymous {path} through nginx: {after!r}"
        assert f"@{ADMIN}" not in after.text and "hyzer-viewer" not in after.text and browser.jar["hyzer_csrf"] not in after.text, (
            f"an anonymous GET right after a signed-in one shows the signed-in reader's page ({after.header('X-Cache-Status')}): {after!r}")
    # A signed-in page that is not a board: never stored, never served from the cache.
    for turn in range(2):
        admin_page = browser.request(nginx, "GET", "/admin")
        assert admin_page.status == 200 and admin_page.header("X-Cache-Status") != "HIT", f"/admin through nginx: {admin_page!r}"
        anonymous = call(nginx, "GET", "/admin")
        assert redirects_to_signin(anonymous), f"an anonymous GET /admin through nginx right after the admin's: {anonymous!r}"


# 5. kill -9 one instance: nginx skips it, it catches up, nothing acknowledged is lost.

def test_a_killed_instance_is_skipped_and_catches_up_without_losing_a_score(site):
    browser, nginx = site.admin(), site.nginx.port
    round_id = site.round()
    victim = site.instances[0]
    player = site.players[2]
    try:
        kill_and_catch_up(site, victim, player, browser, nginx, round_id)
    finally:
        if not victim.alive():  # the tests after this one need all three
            victim.start()


def kill_and_catch_up(site, victim, player, browser, nginx, round_id):
    logged = site.nginx.access_log.read_text().count("\n")
    victim.kill9()
    assert victim.process.returncode == -9
    # Three posts in a row: round-robin sends one of them to the dead instance first.
    down = [site.post_score(player, 2 + turn) for turn in range(3)]
    deadline = time.monotonic() + 2  # nginx logs a request just after answering it
    while not any("POST /api/v1/rounds/" in line and f"upstream=127.0.0.1:{victim.port}, " in line
                  for line in site.nginx.access_log.read_text().splitlines()[logged:]):
        assert time.monotonic() < deadline, (f"no score post went to the dead {victim.name} first (see {site.nginx.access_log}): "
                                             "the test did not exercise nginx skipping it")
        time.sleep(0.02)
    for turn in range(3):
        down.append(site.post_score(player, 2 + turn))
        answer = browser.api(nginx, "GET", f"/api/v1/rounds/{round_id}/standings")
        entry = standing(answer, player)
        assert (entry["strokes"], entry["thru"]) == (site.total(player), site.holes(player)), (
            f"with {victim.name} down, a read through nginx after write {turn + 1} shows {entry}")
        page = call(nginx, "GET", f"/rounds/{round_id}/leaderboard")
        assert page.status == 200, f"with {victim.name} down, anonymous leaderboard through nginx: {page!r}"
    seen = down[-1].header("Hyzer-Seen")

    restarted = time.monotonic()
    assert victim.start(), f"{victim.name} did not restart; see {victim.log_path}"
    # It catches up by itself (no Hyzer-Seen): bounded wait.
    deadline = time.monotonic() + 20
    while True:
        entry = standing(call(victim.port, "GET", f"/api/v1/rounds/{round_id}/standings"), player)
        if (entry["strokes"], entry["thru"]) == (site.total(player), site.holes(player)):
            break
        assert time.monotonic() < deadline, f"{victim.name} did not catch up within 20 s of its restart: {entry}; see {victim.log_path}"
        time.sleep(0.05)
    print(f"\ncluster: {victim.name} caught up {time.monotonic() - restarted:.2f} s after its restart began")

    # Every acknowledged score, exactly once, on every instance (the newest write's Hyzer-Seen).
    problems = []
    for server in site.instances:
        answer = browser.request(server.port, "GET", f"/api/v1/rounds/{round_id}/scores", headers={"Hyzer-Seen": seen}, keep=False)
        assert answer.status == 200, f"{server.name}: GET scores: {answer!r}"
        events = answer.json()["events"]
        listed = {}
        for event in events:
            listed.setdefault(event["id"].lower(), []).append(event)
        for score_id, (player_id, hole, strokes) in site.acknowledged.items():
            found = listed.get(score_id.lower(), [])
            if len(found) != 1:
                problems.append(f"{server.name}: acknowledged score {score_id} is listed {len(found)} times")
            elif (found[0]["playerID"].lower(), found[0]["hole"], found[0]["strokes"]) != (player_id.lower(), hole, strokes):
                problems.append(f"{server.name}: score {score_id} was sent as {(player_id, hole, strokes)}, listed as {found[0]}")
        unknown = set(listed) - {i.lower() for i in site.acknowledged}
        if unknown:
            problems.append(f"{server.name}: lists scores no client sent: {sorted(unknown)}")
    assert not problems, "\n".join(problems)


# 6. Sign out everywhere (last: it ends the session the others use).

def test_sign_out_everywhere_on_one_instance_ends_the_session_on_all_within_a_second(site):
    browser = site.admin()
    old = browser.jar["hyzer_session"]
    probe_old = site.probe.jar.get("hyzer_session")
    for server in site.instances:
        page = browser.request(server.port, "GET", "/admin", keep=False, only={"hyzer_session"})
        assert page.status == 200, f"{server.name} does not take the session before the sign-out: {page!r}"
    where = site.instances[-1]
    answer = browser.request(where.port, "POST", "/signout/everywhere", form={"csrf": browser.jar["hyzer_csrf"]})
    signed_out = time.monotonic()
    assert answer.status in (302, 303) and answer.header("Location") == "/signin", f"POST /signout/everywhere on {where.name}: {answer!r}"
    site.browser = None  # later users sign in again

    # Each instance probed at once with the old cookie alone (no hyzer_seen: a stolen cookie).
    refused_after, last = {}, {}

    def watch(server):
        stale = Browser("old session")
        stale.jar = {"hyzer_session": old}
        while time.monotonic() - signed_out < 5:
            page = stale.request(server.port, "GET", "/admin", keep=False)
            last[server.name] = page
            if redirects_to_signin(page):
                refused_after[server.name] = time.monotonic() - signed_out
                return
            time.sleep(0.01)

    watchers = [threading.Thread(target=watch, args=(server,)) for server in site.instances]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        watcher.join(timeout=15)
    print("\ncluster: old session refused after " + ", ".join(f"{n} {t * 1000:.0f} ms" for n, t in sorted(refused_after.items())))
    missing = [s.name for s in site.instances if s.name not in refused_after]
    assert not missing, f"still signed in 5 s after sign out everywhere on {where.name}: {missing}; last answers {[last.get(n) for n in missing]}"
    slow = {n: round(t, 3) for n, t in refused_after.items() if t > 1.0}
    assert not slow, f"sign out everywhere on {where.name} took more than a second to reach: {slow} (seconds)"
    # The API and nginx refuse it too; the other session of the account (signed in on another
    # instance during setup) is over as well.
    for server in site.instances:
        api = call(server.port, "GET", "/api/v1/sync", headers={"Cookie": f"hyzer_session={old}"})
        assert api.status == 401, f"{server.name}: GET /api/v1/sync with the ended session answered {api!r}"
        if probe_old:
            other = call(server.port, "GET", "/admin", headers={"Cookie": f"hyzer_session={probe_old}"})
            assert redirects_to_signin(other), f"{server.name}: the account's other session outlived sign out everywhere: {other!r}"
    through = call(site.nginx.port, "GET", "/admin", headers={"Cookie": f"hyzer_session={old}"})
    assert redirects_to_signin(through), f"the ended session through nginx: {through!r}"
    # Signing in again works.
    again = site.admin()
    assert again.jar["hyzer_session"] != old
    for server in site.instances:
        page = again.request(server.port, "GET", "/admin", keep=False)
        assert page.status == 200, f"{server.name} refuses the new session after sign out everywhere: {page!r}"


# Last: it takes the database away.
def test_a_database_outage_keeps_seen_sessions_quick_and_ended_ones_ended(site):
    kept = site.admin()
    ended = Browser("ended before the outage")
    site.sign_in(ended, site.instances[0].port)
    old = ended.jar["hyzer_session"]
    # Every instance has read both sessions.
    for server in site.instances:
        for browser in (kept, ended):
            page = browser.request(server.port, "GET", "/", keep=False, only={"hyzer_session"})
            assert f"Sign out @{ADMIN}" in page.text, f"{server.name} does not know {browser.name}'s session: {page!r}"
    out = ended.request(site.instances[0].port, "POST", "/signout", form={"csrf": ended.jar["hyzer_csrf"]})
    assert out.status in (302, 303), f"POST /signout: {out!r}"
    for server in site.instances:
        deadline = time.monotonic() + 1
        while f"Sign out @{ADMIN}" in call(server.port, "GET", "/", headers={"Cookie": f"hyzer_session={old}"}).text:
            assert time.monotonic() < deadline, f"{server.name} still takes the signed-out session"
            time.sleep(0.01)

    site.postgres.pause()
    try:
        for server in site.instances:
            # A session seen before still stands, and soon answers without asking the database.
            answers = []
            for _ in range(4):
                page = kept.request(server.port, "GET", "/", keep=False, only={"hyzer_session"})
                answers.append(page)
                assert f"Sign out @{ADMIN}" in page.text, f"{server.name} dropped a live session in the outage: {page!r}"
            assert all(a.elapsed < 2.5 for a in answers), f"{server.name}: {[round(a.elapsed, 2) for a in answers]} s with the database down"
            assert answers[-1].elapsed < 0.5, f"{server.name} still waits for the dead database: {answers[-1].elapsed:.2f} s"
            # A session ended before the outage does not come back.
            stale = call(server.port, "GET", "/", headers={"Cookie": f"hyzer_session={old}"})
            assert f"Sign out @{ADMIN}" not in stale.text, f"{server.name} honours a signed-out session in the outage"
            # A made-up cookie costs no wait and opens nothing.
            junk = call(server.port, "GET", "/", headers={"Cookie": "hyzer_session=made-up"})
            assert junk.status == 200 and f"Sign out @{ADMIN}" not in junk.text and junk.elapsed < 2.5, f"{server.name}: {junk!r}"
            # A sign-in cannot be stored: a clear 503 with Retry-After, not an empty 500.
            fresh = Browser("fresh")
            page = fresh.request(server.port, "GET", "/signin")
            answer = fresh.request(server.port, "POST", "/signin",
                                   form={"csrf": fresh.jar["hyzer_csrf"], "next": "/", "handle": ADMIN, "password": PASSWORD})
            assert answer.status == 503 and answer.header("Retry-After"), f"{server.name}: sign-in in the outage answered {answer!r}"
            assert "Try again" in answer.text or "try again" in answer.text, f"{server.name}: {answer.text[:300]}"
    finally:
        site.postgres.resume()
