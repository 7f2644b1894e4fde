"""Shared helpers for the system tests: the real `hyzer` binary run as separate processes.

The binary is $HYZER_BIN when set, otherwise the debug build (`swift build --show-bin-path`,
as Tests/browser does). Every process a test starts is registered with the `servers` fixture,
which kills whatever is still running and removes the temporary folders, also on failure.
Server logs go to test-output/system/.
"""
import http.client
import json
import os
import pathlib
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
import urllib.parse
import uuid

import pytest
import resource

# 1,000 live subscribers need more descriptors than a common soft limit of 1,024 gives the
# test (and the servers it starts, which inherit it).
_soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
_wanted = 8192 if _hard == resource.RLIM_INFINITY else min(_hard, 8192)
if _soft != resource.RLIM_INFINITY and _soft < _wanted:
    resource.setrlimit(resource.RLIMIT_NOFILE, (_wanted, _hard))

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
LOGS = OUTPUT / "system"
PASSWORD = "system test password 123"


def binary():
    """The hyzer executable: $HYZER_BIN, else the debug build's."""
    explicit = os.environ.get("HYZER_BIN")
    if explicit:
        path = pathlib.Path(explicit)
        assert path.exists(), f"HYZER_BIN={explicit} does not exist"
        return path
    found = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    path = pathlib.Path(found.stdout.strip()) / "hyzer"
    assert path.exists(), f"{path} is missing: run `swift build` first (or set HYZER_BIN)"
    return path


def steady(probe, reads=3, interval=0.05, timeout=10):
    """Waits until `probe()` gives the same value `reads` times in a row (a process done
    starting up, memory given back) and returns it; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    values = [probe()]
    while len(values) < reads or len(set(values[-reads:])) > 1:
        assert time.monotonic() < deadline, f"never steady: {values[-reads:]}"
        time.sleep(interval)
        values.append(probe())
    return values[-1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoAnswer(OSError):
    """The request got no (complete) answer: refused, reset, or timed out."""


class Server:
    """One `hyzer serve` process on a fixed port and data folder; start() after stop() or
    kill9() keeps both. `extra` are more serve flags (e.g. --cloud sqlite:PATH)."""

    def __init__(self, exe, name, data_dir, extra=(), handle=None, port=None, role="coach", log_path=None):
        self.exe, self.name = pathlib.Path(exe), name
        self.data_dir = pathlib.Path(data_dir)
        self.extra = list(extra)
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self.base = f"http://{self.host}:{self.port}"
        self.process = None
        self.token = None
        self.handle = handle
        self.log_path = pathlib.Path(log_path) if log_path else LOGS / f"{name}.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log_path.write_bytes(b"")
        if handle:
            self.cli("admin", "create-user", handle, "--role", role, input=PASSWORD + "\n")
            self.token = self.cli("admin", "token", handle).strip().splitlines()[-1].strip()

    # Processes

    def cli(self, *args, input=None):
        done = subprocess.run([str(self.exe), *args, "--data-dir", str(self.data_dir)], input=input,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"hyzer {' '.join(args)} failed ({done.returncode}): {done.stderr}"
        return done.stdout

    @property
    def pid(self):
        return self.process.pid if self.process else None

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def start(self, env=None, wait=True, timeout=30):
        """Starts the server; with wait, until /healthz answers 200. Returns False when the
        process died before it answered (only expected with crash points set)."""
        assert not self.alive(), f"{self.name} is already running"
        environment = {k: v for k, v in os.environ.items() if not k.startswith("HYZER_")}
        environment.update(env or {})
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {time.strftime('%H:%M:%S')} env={env or {}}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [str(self.exe), "serve", "--host", self.host, "--port", str(self.port),
                 "--data-dir", str(self.data_dir), "--resources", str(ROOT), *self.extra],
                stdout=log, stderr=subprocess.STDOUT, env=environment)
        if not wait:
            return True
        return self.wait_healthy(timeout)

    def wait_healthy(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                if self.request("GET", "/healthz", timeout=1, auth=False)[0] == 200:
                    return True
            except NoAnswer:
                pass
            time.sleep(0.02)
        raise AssertionError(f"{self.name} did not answer /healthz within {timeout} s; see {self.log_path}")

    def kill9(self):
        """SIGKILL, then wait for the process to be gone."""
        if self.process and self.process.poll() is None:
            try:
                os.kill(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.process:
            self.process.wait(timeout=15)

    def stop(self, timeout=15):
        """SIGTERM (graceful), SIGKILL if it takes longer than timeout."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill9()

    def wait_exit(self, timeout):
        """True when the process ended within timeout."""
        if not self.process:
            return True
        try:
            self.process.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False

    def fd_count(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    # HTTP

    def exchange(self, method, path, body=None, *, content_type=None, auth=True, timeout=5, token=None):
        """(status, headers, parsed JSON or text). `body` is JSON unless it is str/bytes (CSV
        unless `content_type` says otherwise); `token` is another user's API token than the
        server's own. Raises NoAnswer when no whole answer came back."""
        headers = {"Host": f"{self.host}:{self.port}", "Connection": "close"}
        data = None
        bearer = token or (self.token if auth else None)
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        if body is not None:
            if isinstance(body, (str, bytes)):
                data = body.encode() if isinstance(body, str) else body
                headers["Content-Type"] = content_type or "text/csv"
            else:
                data = json.dumps(body).encode()
                headers["Content-Type"] = content_type or "application/json"
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            raw = response.read()
            status, response_headers = response.status, dict(response.getheaders())
        except (OSError, http.client.HTTPException) as error:
            raise NoAnswer(f"{method} {path} on {self.name}: {error!r}") from error
        finally:
            connection.close()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return status, response_headers, parsed

    def request(self, method, path, body=None, timeout=5, auth=True, content_type=None, token=None):
        """(status, parsed JSON or text); see `exchange`."""
        status, _, parsed = self.exchange(method, path, body, content_type=content_type, auth=auth, timeout=timeout, token=token)
        return status, parsed

    def log_text(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def api(self, method, path, body=None, expect=(200, 201, 202), timeout=10, **options):
        """An API call that must succeed with one of `expect`; returns the body. `options`
        are `exchange`'s (content_type, auth)."""
        status, parsed = self.request(method, path, body, timeout=timeout, **options)
        assert status in expect, f"{method} {path} on {self.name} answered {status}: {parsed}"
        return parsed


class Servers:
    """Creates servers and temporary folders and guarantees their cleanup."""

    def __init__(self):
        self.exe = binary()
        self.started = []
        self.folders = []

    def folder(self, prefix="hyzer-system-"):
        path = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        self.folders.append(path)
        return path

    def server(self, name, data_dir=None, extra=(), handle=None):
        server = Server(self.exe, name, data_dir or self.folder(), extra=extra, handle=handle)
        self.started.append(server)
        return server

    def cleanup(self):
        for server in self.started:
            try:
                server.kill9()
            except Exception:  # noqa: BLE001 — cleanup goes on with the others
                pass
        for path in self.folders:
            shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def servers():
    made = Servers()
    try:
        yield made
    finally:
        made.cleanup()


def read_only(path):
    """A read-only connection that is safe beside a running server (WAL readers)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    connection.execute("PRAGMA busy_timeout = 10000")
    return connection


# PostgreSQL: a throwaway cluster (as scripts/with-postgres), or a fresh database beside
# $HYZER_TEST_PG_URL's.

class Postgres:
    def __init__(self):
        self.folder = None
        self.control = None
        self.database = None
        self.admin_url = os.environ.get("HYZER_TEST_PG_URL")
        self.url = None

    def start(self):
        if self.admin_url:
            self.database = f"hyzer_cluster_{uuid.uuid4().hex[:12]}"
            self.psql(f'CREATE DATABASE "{self.database}"')
            self.url = urllib.parse.urlunsplit(urllib.parse.urlsplit(self.admin_url)._replace(path=f"/{self.database}"))
            return
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True) if shutil.which("pg_config") else None
        bindir = pathlib.Path(found.stdout.strip()) if found and found.returncode == 0 else None
        if not bindir or not (bindir / "initdb").exists():
            pytest.fail("PostgreSQL's server binaries are missing (apt-get install postgresql; scripts/with-postgres does it)")
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="hyzer-cluster-pg-"))
        owner = []
        if os.geteuid() == 0:
            # initdb refuses to run as root.
            if subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
                subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
            shutil.chown(self.folder, "postgres")
            owner = ["runuser", "-u", "postgres", "--"]
        port = free_port()
        with open(self.folder / "initdb.log", "wb") as log:
            done = subprocess.run([*owner, str(bindir / "initdb"), "-D", str(self.folder / "data"), "--no-sync", "-A", "trust",
                                   "-U", "postgres"], stdout=log, stderr=subprocess.STDOUT, timeout=60)
        assert done.returncode == 0, f"initdb failed: {(self.folder / 'initdb.log').read_text()}"
        self.control = [*owner, str(bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-l", str(self.folder / "server.log"), "-w",
                        "-o", f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"]
        # Output to files, never pipes: the server pg_ctl leaves behind would hold a pipe open.
        with open(self.folder / "pg_ctl.log", "wb") as log:
            done = subprocess.run([*self.control, "start"], stdout=log, stderr=subprocess.STDOUT, timeout=60)
        assert done.returncode == 0, f"PostgreSQL did not start: {self.log_text()}"
        self.url = f"postgres://postgres@127.0.0.1:{port}/postgres"

    def psql(self, statement, url=None):
        """Runs SQL with psql: on the admin database (the server's own, for a throwaway one),
        or on `url`. Returns what it printed, unaligned and without headers."""
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        psql = pathlib.Path(found.stdout.strip()) / "psql" if found.returncode == 0 else pathlib.Path("psql")
        target = url or self.admin_url or self.url
        done = subprocess.run([str(psql), target, "-v", "ON_ERROR_STOP=1", "-qAtc", statement], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, f"psql {statement!r} failed: {done.stderr}"
        return done.stdout

    def pause(self):
        """Stops the server (the instances see the database go away); `resume` starts it again."""
        assert self.control, "the outage test needs its own PostgreSQL: run it without HYZER_TEST_PG_URL"
        with open(self.folder / "pg_ctl.log", "ab") as log:
            done = subprocess.run([*self.control, "stop", "-m", "fast"], stdout=log, stderr=subprocess.STDOUT, timeout=60)
        assert done.returncode == 0, f"PostgreSQL did not stop: {self.log_text()}"

    def resume(self):
        with open(self.folder / "pg_ctl.log", "ab") as log:
            done = subprocess.run([*self.control, "start"], stdout=log, stderr=subprocess.STDOUT, timeout=60)
        assert done.returncode == 0, f"PostgreSQL did not start again: {self.log_text()}"

    def log_text(self):
        path = self.folder / "server.log" if self.folder else None
        return path.read_text(errors="replace") if path and path.exists() else ""

    def stop(self):
        if self.database:
            try:
                self.psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            except AssertionError:
                pass
        if self.control:
            with open(self.folder / "pg_ctl.log", "ab") as log:
                subprocess.run([*self.control, "stop", "-m", "immediate"], stdout=log, stderr=subprocess.STDOUT, timeout=60)
            LOGS.mkdir(parents=True, exist_ok=True)
            (LOGS / "cluster-postgres.log").write_text(self.log_text())
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)
