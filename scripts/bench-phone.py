#!/usr/bin/env python3
"""The card page on an emulated phone (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up through
a delaying proxy; Chromium DevTools: 4x slower CPU, 360 px wide) against a real release server: the time from a tap
on "Save hole" to the next hole shown (online and with no network), from the tap to the answer
of the request that carried the entry, the card page usable on a first and a later visit, and
the bytes of the page with its CSS and JS as gzip sends them. Each figure with its goal.

Usage: scripts/bench-phone.py [PATH_TO_HYZER] [--json FILE]   (`make bench` runs it)"""
import argparse
import asyncio
import gzip
import json
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# The phone's network is a proxy in front of the server, so that it reaches every request,
# the service worker's too (DevTools' throttling does not): 75 ms each way, 1.6 Mbit/s down,
# 750 kbit/s up. DevTools cuts the network for the offline figures and slows the CPU.
ONE_WAY = 0.075
DOWN = 1_600_000 / 8
UP = 750_000 / 8
HOLES = 18


def slow_proxy(target_port):
    """Starts the phone's network on a free port, in a thread of its own; answers the port."""
    port = free_port()
    ready = threading.Event()

    async def pipe(reader, writer, rate):
        queue = asyncio.Queue()
        free_at = 0.0

        async def deliver():
            while True:
                due, chunk = await queue.get()
                if chunk is None:
                    break
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.create_task(deliver())
        try:
            while True:
                chunk = await reader.read(16384)
                if not chunk:
                    break
                now = time.monotonic()
                free_at = max(free_at, now) + len(chunk) / rate
                await queue.put((max(now + ONE_WAY, free_at + ONE_WAY), chunk))
        except ConnectionError:
            pass
        await queue.put((0, None))
        await sender

    async def client(reader, writer):
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, upstream_writer, UP), pipe(upstream_reader, writer, DOWN), return_exceptions=True)

    def run():
        loop = asyncio.new_event_loop()
        server = loop.run_until_complete(asyncio.start_server(client, "127.0.0.1", port))
        ready.set()
        loop.run_forever()
        server.close()

    threading.Thread(target=run, daemon=True).start()
    ready.wait()
    return port


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, token, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def chrome():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=360,740"):
        options.add_argument(flag)
    if shutil.which("chromium"):
        options.binary_location = shutil.which("chromium")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    driver.execute_cdp_cmd("Network.enable", {})
    return driver


def phone(driver, offline=False):
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 4})


def usable(driver, url):
    """Milliseconds from the start of the navigation to the card page ready to take a tap."""
    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return performance.getEntriesByName('hyzer-card-ready').length > 0"))
    if "--verbose" in sys.argv:
        print("  navigation:", driver.execute_script("const n = performance.getEntriesByType('navigation')[0]; return [n.responseStart, n.responseEnd, n.domContentLoadedEventEnd, n.transferSize, n.decodedBodySize]"))
    return driver.execute_script("return performance.getEntriesByName('hyzer-card-ready')[0].startTime")


def taps(driver, count):
    """For `count` holes: ms from the tap to the next hole drawn, and to the answer of the
    request that carried the hole (None when no request answered, offline)."""
    shown, sent = [], []
    for _ in range(count):
        result = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const h1 = document.querySelector('.card-head h1');
            const before = h1.textContent + location.href;
            const button = document.querySelector('button.save-hole');
            const t0 = performance.now();
            let drawn = null;
            const watch = () => {
              if (drawn === null && h1.textContent + location.href !== before) drawn = performance.now() - t0;
              if (drawn === null) return requestAnimationFrame(watch);
              const start = performance.now();
              const answered = () => {
                const posts = performance.getEntriesByType('resource').filter(e => e.name.endsWith('/scores') && e.startTime >= t0);
                if (posts.length) return done([drawn, posts[0].responseEnd - t0]);
                if (!navigator.onLine || performance.now() - start > 5000) return done([drawn, null]);
                setTimeout(answered, 20);
              };
              answered();
            };
            button.click();
            watch();
        """)
        shown.append(result[0])
        if result[1] is not None:
            sent.append(result[1])
    return shown, sent


def gzipped(base, paths, cookie):
    total = 0
    for path in paths:
        request = urllib.request.Request(base + path, headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=10) as response:
            total += len(gzip.compress(response.read(), compresslevel=6))
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server", nargs="?", default=str(ROOT / ".build/release/hyzer"))
    parser.add_argument("--json", default=None)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="hyzer-phone-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    exe = args.server
    subprocess.run([exe, "admin", "create-user", "phil", "--role", "athlete", "--data-dir", data], input="phone password 123", text=True, check=True, capture_output=True)
    subprocess.run([exe, "admin", "create-user", "cora", "--role", "coach", "--data-dir", data], input="coach password 123", text=True, check=True, capture_output=True)
    token = subprocess.run([exe, "admin", "token", "cora", "--data-dir", data], text=True, check=True, capture_output=True).stdout.strip()
    server = subprocess.Popen([exe, "serve", "--port", str(port), "--data-dir", data, "--cloud", "none", "--demo", "--log-level", "warning", "--resources", str(ROOT)])
    driver = None
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        course = call(base, token, "POST", "/api/v1/courses", {"name": "Bench 18", "holes": [{"number": n, "par": 3} for n in range(1, HOLES + 1)]})
        players = call(base, token, "GET", "/api/v1/players")["players"]
        ids = [next(p["id"] for p in players if p["handle"] == "phil")] + [p["id"] for p in players if p["role"] == "athlete" and p["handle"] != "phil"][:3]
        round_ = call(base, token, "POST", "/api/v1/rounds", {"courseID": course["id"], "name": "Phone bench", "start": True, "players": [{"playerID": i} for i in ids]})
        card = call(base, token, "POST", f"/api/v1/rounds/{round_['id']}/cards", {"cards": [{"name": "Card 1", "startingHole": 1, "playerIDs": ids}]})["cards"][0]
        phone_base = f"http://127.0.0.1:{slow_proxy(port)}"
        url = f"{phone_base}/rounds/{round_['id']}/cards/{card['id']}"

        driver = chrome()
        driver.get(phone_base + "/signin")
        driver.find_element(By.NAME, "handle").send_keys("phil")
        driver.find_element(By.NAME, "password").send_keys("phone password 123")
        driver.find_element(By.XPATH, "//form[@action='/signin']//button[normalize-space()='Sign in']").click()
        WebDriverWait(driver, 10).until(lambda d: "/signin" not in d.current_url)
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
        # A first visit: nothing of Hyzer's on the phone yet.
        driver.execute_script("return navigator.serviceWorker.getRegistrations().then(rs => Promise.all(rs.map(r => r.unregister())))")
        driver.execute_script("return caches.keys().then(ks => Promise.all(ks.map(k => caches.delete(k))))")
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        phone(driver)
        first = usable(driver, url)
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, ".offline-ready").text.startswith("Ready offline"))
        later = statistics.median(usable(driver, url) for _ in range(3))
        online_shown, online_sent = taps(driver, 8)
        phone(driver, offline=True)
        offline_shown, _ = taps(driver, 8)
        phone(driver)
        driver.execute_script("window.dispatchEvent(new Event('online'))")
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "outbox-status").get_attribute("data-waiting") == "0")
        size = gzipped(base, [f"/rounds/{round_['id']}/cards/{card['id']}", "/hyzer.css", "/outbox.js", "/live.js", "/card.js"], cookie)

        rows = [
            ("tap → next hole shown, online (median / max of 8)", f"{statistics.median(online_shown):.0f} / {max(online_shown):.0f} ms", "≤ 50 ms", max(online_shown) <= 50),
            ("tap → next hole shown, no network (median / max of 8)", f"{statistics.median(offline_shown):.0f} / {max(offline_shown):.0f} ms", "≤ 50 ms", max(offline_shown) <= 50),
            ("tap → entry's request answered, online (median / max)", f"{statistics.median(online_sent):.0f} / {max(online_sent):.0f} ms", "≤ 500 ms", statistics.median(online_sent) <= 500),
            ("card page usable, first visit", f"{first:.0f} ms", "≤ 1000 ms", first <= 1000),
            ("card page usable, later visit (median of 3)", f"{later:.0f} ms", "≤ 300 ms", later <= 300),
            ("card page + CSS + JS, gzipped", f"{size / 1024:.1f} KB", "≤ 30 KB", size <= 30 * 1024),
        ]
        print("Phone (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up; DevTools: 4x slower CPU, 360 px), an 18-hole card of 4:")
        for name, value, goal, met in rows:
            print(f"  {name:<58} {value:>16}   goal {goal:<9} {'met' if met else 'MISSED'}")
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps([{"name": n, "value": v, "goal": g, "met": m} for n, v, g, m in rows], indent=2))
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
