"""Fixtures for the browser tests: a real Hyzer server (the debug build) on a free port with
its own data folder, and real headless Chromium sessions driven by Selenium."""
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def binary():
    found = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    path = pathlib.Path(found.stdout.strip()) / "hyzer"
    assert path.exists(), f"{path} is missing: run `swift build` first"
    return path


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Server:
    """One Hyzer process; stop() and start() again keep the port and the data."""

    # Made with `hyzer admin create-user` before the first start, as an operator would.
    USERS = {"coach": ("cory.coach", "coach", "coach password 123"),
             "athlete": ("abe.athlete", "athlete", "athlete password 123")}

    def __init__(self, exe, port, data_dir):
        self.exe, self.port, self.data_dir = exe, port, data_dir
        self.process = None
        self.base = f"http://127.0.0.1:{port}"
        self.log = open(OUTPUT / "server.log", "ab")
        for handle, role, password in self.USERS.values():
            self.cli("admin", "create-user", handle, "--role", role, input=password)
        self.token = self.cli("admin", "token", "cory.coach").strip()

    def cli(self, *args, input=None):
        done = subprocess.run([str(self.exe), *args, "--data-dir", str(self.data_dir)], input=input,
                              capture_output=True, text=True, check=True)
        return done.stdout

    def start(self):
        self.process = subprocess.Popen(
            [str(self.exe), "serve", "--port", str(self.port), "--data-dir", str(self.data_dir),
             "--resources", str(ROOT), "--demo"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start; see test-output/server.log")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=15)

    def get(self, path):
        with urllib.request.urlopen(self.signed(path), timeout=5) as response:
            return json.load(response)

    def get_text(self, path):
        with urllib.request.urlopen(self.signed(path), timeout=5) as response:
            return response.read().decode()

    def signed(self, path):
        return urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {self.token}"})

    def form_token(self):
        """A form token as the server hands one to a browser with no session (it signs them:
        a made-up value is refused)."""
        if getattr(self, "_form_token", None) is None:
            with urllib.request.urlopen(self.base + "/signin", timeout=5) as response:
                cookies = response.headers.get_all("Set-Cookie") or []
            self._form_token = next(c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("hyzer_csrf="))
        return self._form_token

    def post_form(self, path, fields):
        """Posts an HTML form as the coach and returns where it redirected (the form must be
        accepted). The form token pair is the browser's: a cookie and the same value as a field."""
        items = list(fields.items() if isinstance(fields, dict) else fields)
        csrf = self.form_token()
        request = urllib.request.Request(self.base + path, data=urllib.parse.urlencode([("csrf", csrf)] + items).encode(), method="POST",
                                         headers={"Authorization": f"Bearer {self.token}", "Cookie": f"hyzer_csrf={csrf}"})
        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(request, timeout=5)
        except urllib.error.HTTPError as error:
            assert error.code == 303, f"{path} answered {error.code}"
            return error.headers["location"]
        raise AssertionError(f"{path} did not redirect")

    def patch(self, path, body):
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="PATCH",
                                         headers={"content-type": "application/json", "Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.load(response)

    def post(self, path, body):
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"content-type": "application/json", "Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.load(response)


@pytest.fixture
def server():
    OUTPUT.mkdir(exist_ok=True)
    data = tempfile.mkdtemp(prefix="hyzer-browser-")
    s = Server(binary(), free_port(), data)
    s.start()
    yield s
    s.stop()
    s.log.close()
    shutil.rmtree(data, ignore_errors=True)


def chrome(width=1920, height=1080):
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(flag)
    if shutil.which("chromium"):
        options.binary_location = shutil.which("chromium")
    # The network log: tests read the headers a page's requests were answered with.
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


@pytest.fixture
def browser_factory():
    opened = []

    def make(width=1920, height=1080):
        driver = chrome(width, height)
        opened.append(driver)
        return driver

    yield make
    for driver in opened:
        driver.quit()


def response_headers(driver, path_suffix):
    """The headers of the newest response to a URL ending with `path_suffix`, as the browser
    received them (from its network log), lower-cased; None if there was none."""
    import json
    found = None
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") != "Network.responseReceived":
            continue
        response = message["params"]["response"]
        if response["url"].split("?")[0].endswith(path_suffix):
            found = {name.lower(): value for name, value in response["headers"].items()}
    return found
