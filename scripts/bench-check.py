#!/usr/bin/env python3
"""Hyzer's cost budget: instructions per request on the hot paths, counted by callgrind.

Wall-clock figures on two shared cores move with whatever else the machine does; instruction
counts of the same binary and inputs do not (SQLite guards its speed the same way). This runs
the release binary under `valgrind --tool=callgrind` with collection off, sets up a club (a
50-player round of a season's league night, half scored), and for each path: warms it up,
zeroes the counters, runs it a few hundred times, dumps, and divides. Start-up and set-up are
never counted.

    scripts/bench-check.py                 # compare with Benchmarks/budget.json: exit 1 if over
    scripts/bench-check.py --write         # write the counts as the new budget
    scripts/bench-check.py --paths score,spectator

A path over its budget by more than the tolerance (10 %) fails, and the functions that grew
most against the budget's own profile of that path are printed (callgrind_annotate).
"""
import argparse
import http.client
import json
import os
import pathlib
import re
import select
import signal
import sqlite3
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUDGET = ROOT / "Benchmarks" / "budget.json"
TOLERANCE = 0.10
PLAYERS = 50
HOLES = 18
PASSWORD = "bench admin password"

SIGSUSPEND_SHIM = """#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) { sigset_t copy = *mask; return (int)syscall(SYS_rt_sigsuspend, &copy, 8); }
"""

PATHS = {
    "score": "a score POST (API token), stored durably",
    "spectator": "the round's cached leaderboard page, a spectator without cookies",
    "returning": "the same page, a returning browser (its form-token cookie)",
    "signed-in": "the same page, signed in (session cookie)",
    "live-100": "one score reaching 100 live subscribers (the write and every frame)",
    "season-standings": "a score, then the season's standings",
    "round-ratings": "a score, then the round's ratings",
    "pull-1000": "a device pulling one page of 1,000 new scores from the embedded cloud (stored, boards updated)",
}
PULLED = 1000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`hyzer serve` under callgrind, collection off until asked."""

    def __init__(self, binary, work, cloud="none", handle="bench.admin"):
        self.binary = str(binary)
        self.work = pathlib.Path(work)
        self.data = self.work / "data"
        self.data.mkdir(parents=True)
        self.port = free_port()
        self.handle = handle
        self.cli("admin", "create-user", handle, "--role", "admin", input=PASSWORD)
        self.token = self.cli("admin", "token", handle).strip()
        self.launch(["serve", "--port", str(self.port), "--data-dir", str(self.data), "--cloud", cloud, "--log-level", "error",
                     "--backup-interval", "off", "--max-streams-per-client", "0", "--resources", str(ROOT)])

    def launch(self, arguments, health="/healthz"):
        """Starts the binary under callgrind, instrumentation off, and waits for it to answer."""
        # Valgrind 3.19 cannot read the DWARF 5 Swift writes: it runs a copy without debug
        # information (the symbol table stays, so functions keep their names).
        plain = self.work / pathlib.Path(self.binary).name
        subprocess.run(["strip", "--strip-debug", "-o", str(plain), self.binary], check=True)
        # Valgrind 3.19 writes to the mask sigsuspend is given; libdispatch's main-queue loop
        # (an async main) passes one in read-only memory, which kills valgrind. A copy on the
        # stack is the same call.
        shim = self.work / "sigsuspend.so"
        (self.work / "sigsuspend.c").write_text(SIGSUSPEND_SHIM)
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", str(shim), str(self.work / "sigsuspend.c")], check=True)
        environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1", LD_PRELOAD=str(shim))
        self.process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={self.work}/callgrind.out", str(plain), *arguments],
            stdout=subprocess.DEVNULL, stderr=open(self.work / "valgrind.log", "w"), env=environment)
        self.health = health
        self.wait_until_up()
        self.dumps = 0

    health = "/healthz"

    def wait_until_up(self):
        deadline = time.time() + 300
        while time.time() < deadline and self.process.poll() is None:
            try:
                if self.request("GET", self.health)[0] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise SystemExit(f"the server did not answer: see {self.work}/valgrind.log")

    def cli(self, *args, input=None):
        done = subprocess.run([self.binary, *args, "--data-dir", str(self.data)], input=input, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"hyzer {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)

    def request(self, method, path, body=None, headers=None, connection=None):
        own = connection is None
        connection = connection or self.connection()
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["content-type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        if own:
            connection.close()
        return response.status, payload, response

    def api(self, method, path, body=None, connection=None):
        status, payload, _ = self.request(method, path, body, {"Authorization": f"Bearer {self.token}"}, connection)
        if status >= 300:
            raise SystemExit(f"{method} {path} answered {status}: {payload[:300]!r}")
        return json.loads(payload) if payload else None

    def control(self, *args):
        subprocess.run(["callgrind_control", *args, str(self.process.pid)], check=True, capture_output=True)

    def measure(self, name, run):
        """Instructions of `run()` (which returns how many requests it made), with the profile."""
        self.control("-i", "on")
        self.control("-z")
        count = run()
        return self.collect(name, count)

    def collect(self, name, count):
        self.control("-d", name)
        self.control("-i", "off")
        self.dumps += 1
        dump = pathlib.Path(f"{self.work}/callgrind.out.{self.dumps}")
        deadline = time.time() + 60
        while not dump.exists() and time.time() < deadline:
            time.sleep(0.2)
        text = dump.read_text(errors="replace")
        total = int(re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M).group(1))
        return total / count, dump, count

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Hello(Server):
    """The bare Hummingbird hello the pages are measured against (`hyzer-bench hello`), under
    callgrind: the floor a page's cost is read beside."""

    def __init__(self, binary, work):
        self.binary = str(binary)
        self.work = pathlib.Path(work)
        self.work.mkdir(parents=True)
        self.port = free_port()
        self.launch(["hello", "--port", str(self.port)], health="/")


def measure_hello(binary, work, requests):
    hello = Hello(binary, work)
    try:
        get = page_getter(hello, "/", {})
        repeat(16, get)()
        per, _, _ = hello.measure("hello", repeat(requests * 2, get))
    finally:
        hello.stop()
    return per


class Club:
    """A season's league night: one round of 50 players on 18 holes, the first 9 scored."""

    def __init__(self, server):
        self.server = server
        api = server.api
        course = api("POST", "/api/v1/courses", {"name": "Bench Park", "holes": [{"number": n, "par": 3 + (n % 3 == 0)} for n in range(1, HOLES + 1)]})
        season = api("POST", "/api/v1/seasons", {"name": "Bench league", "divisions": ["MPO"]})
        event = api("POST", "/api/v1/events", {"name": "Week 1", "divisions": ["MPO"], "seasonID": season["id"]})
        self.players = [api("POST", "/api/v1/players", {"displayName": f"Player {i:02}", "handle": f"bench{i:02}"})["id"] for i in range(PLAYERS)]
        round_ = api("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": event["id"], "name": "Bench night", "start": True,
                                                "players": [{"playerID": p, "division": "MPO"} for p in self.players]})
        self.round, self.season = round_["id"], season["id"]
        connection = server.connection()
        for hole in range(1, 10):
            for index, player in enumerate(self.players):
                self.score(player, hole, 2 + (index + hole) % 4, connection)
        connection.close()
        self.open = [(p, h) for h in range(10, HOLES + 1) for p in self.players]

    def score(self, player, hole, strokes, connection=None):
        return self.server.api("POST", f"/api/v1/rounds/{self.round}/scores", {"playerID": player, "hole": hole, "strokes": strokes}, connection)

    def next_score(self, connection):
        player, hole = self.open.pop()
        self.score(player, hole, 3, connection)


def repeat(count, step):
    def run():
        for _ in range(count):
            step()
        return count
    return run


def page_getter(server, path, headers):
    connection = server.connection()

    def get():
        status, _, _ = server.request("GET", path, headers=headers, connection=connection)
        assert status == 200, f"{path}: {status}"
    return get


def cookies_of(response):
    return {c.split("=", 1)[0]: c.split(";", 1)[0].split("=", 1)[1] for c in response.headers.get_all("Set-Cookie") or []}


def signed_in_cookie(server):
    _, _, response = server.request("GET", "/signin")
    csrf = cookies_of(response)["hyzer_csrf"]
    body = urllib.parse.urlencode({"csrf": csrf, "handle": "bench.admin", "password": PASSWORD}).encode()
    connection = server.connection()
    connection.request("POST", "/signin", body=body, headers={"content-type": "application/x-www-form-urlencoded", "Cookie": f"hyzer_csrf={csrf}"})
    response = connection.getresponse()
    response.read()
    jar = {"hyzer_csrf": csrf, **cookies_of(response)}
    assert any(name != "hyzer_csrf" for name in jar), f"sign-in set no session cookie ({response.status})"
    return "; ".join(f"{k}={v}" for k, v in jar.items())


def subscribers(server, path, count):
    """`count` open live streams of `path`, each read past its first frame."""
    streams = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=600)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        streams.append(s)
    for s in streams:
        read_frame(s)
    return streams


def read_frame(s):
    """Reads one whole `event: standings` frame (the stream is chunked: frames end in a blank line)."""
    seen = b""
    while not re.search(rb"event: standings.*?\n\n", seen, re.S):
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("a live stream closed")
        seen += chunk
    return seen


class Writer(Server):
    """A second device of the club, not under valgrind: it writes what the measured one pulls."""

    def __init__(self, binary, work, cloud):
        self.binary = str(binary)
        self.work = pathlib.Path(work)
        self.data = self.work / "data"
        self.data.mkdir(parents=True)
        self.port = free_port()
        self.cli("admin", "create-user", "bench.writer", "--role", "admin", input=PASSWORD)
        self.token = self.cli("admin", "token", "bench.writer").strip()
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--data-dir", str(self.data), "--cloud", cloud, "--log-level", "error",
             "--backup-interval", "off", "--resources", str(ROOT)],
            stdout=subprocess.DEVNULL, stderr=open(self.work / "valgrind.log", "w"))
        self.wait_until_up()


def count_rows(database, sql, arguments=()):
    """A count read from another process's SQLite file (WAL: it never waits for the writer)."""
    try:
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
        try:
            return connection.execute(sql, arguments).fetchone()[0]
        finally:
            connection.close()
    except sqlite3.OperationalError:
        return 0


def wait_for(what, condition, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


def measure_pull(binary, work):
    """One pull of 1,000 new scores: the measured device is stopped (SIGSTOP, counters on and
    zeroed) while the other device writes the scores and pushes them; resumed, it sees one
    hint and pulls them as one page. Counted until the last score is stored."""
    cloud = pathlib.Path(work) / "cloud.sqlite"
    puller = Server(binary, pathlib.Path(work) / "puller", cloud=f"sqlite:{cloud}", handle="bench.puller")
    writer = Writer(binary, pathlib.Path(work) / "writer", f"sqlite:{cloud}")
    try:
        holes = PULLED // PLAYERS + 1
        course = writer.api("POST", "/api/v1/courses", {"name": "Pull Park", "holes": [{"number": n, "par": 3} for n in range(1, holes + 1)]})
        players = [writer.api("POST", "/api/v1/players", {"displayName": f"Puller {i:02}", "handle": f"pull{i:02}"})["id"] for i in range(PLAYERS)]
        round_ = writer.api("POST", "/api/v1/rounds", {"courseID": course["id"], "start": True, "players": [{"playerID": p} for p in players]})
        domain = puller.data / "domain.sqlite"
        connection = writer.connection()

        def scores(hole):
            for player in players:
                writer.api("POST", f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player, "hole": hole, "strokes": 3}, connection)

        # The first hole is a warm-up: the round, its players and a pull of scores, not counted.
        scores(1)
        wait_for("the warm-up pull", lambda: count_rows(domain, "SELECT COUNT(*) FROM score_events") == PLAYERS)
        puller.control("-i", "on")
        puller.control("-z")
        os.kill(puller.process.pid, signal.SIGSTOP)
        try:
            for hole in range(2, holes + 1):
                scores(hole)
            wait_for("the writer's push", lambda: count_rows(cloud, "SELECT COUNT(*) FROM records WHERE type = 'scoreEvent'") == PULLED + PLAYERS)
        finally:
            os.kill(puller.process.pid, signal.SIGCONT)
        wait_for("the pull", lambda: count_rows(domain, "SELECT COUNT(*) FROM score_events") == PULLED + PLAYERS)
        connection.close()
        return puller.collect("pull-1000", 1)
    finally:
        writer.stop()
        puller.stop()


def measure_all(server, club, chosen, rounds):
    results = {}
    leaderboard = f"/rounds/{club.round}/leaderboard"
    writer = server.connection()
    _, _, first = server.request("GET", leaderboard)
    returning = {"Cookie": "hyzer_csrf=" + cookies_of(first).get("hyzer_csrf", "")}
    plans = {
        "score": lambda n: repeat(n, lambda: club.next_score(writer)),
        "spectator": lambda n: repeat(n * 2, page_getter(server, leaderboard, {})),
        "returning": lambda n: repeat(n * 2, page_getter(server, leaderboard, returning)),
        "signed-in": lambda n: repeat(n * 2, page_getter(server, leaderboard, {"Cookie": signed_in_cookie(server)})),
        "season-standings": lambda n: repeat(
            max(1, n // 4), lambda: (club.next_score(writer), server.api("GET", f"/api/v1/seasons/{club.season}/standings", connection=writer))),
        "round-ratings": lambda n: repeat(
            max(1, n // 4), lambda: (club.next_score(writer), server.api("GET", f"/api/v1/rounds/{club.round}/ratings", connection=writer))),
    }
    for name in chosen:
        if name == "pull-1000":
            continue
        if name == "live-100":
            streams = subscribers(server, f"/rounds/{club.round}/events", 100)

            def one_frame():
                club.next_score(writer)
                for s in streams:
                    read_frame(s)
            for _ in range(3):
                one_frame()
            results[name] = server.measure(name, repeat(10, one_frame))
            for s in streams:
                s.close()
        else:
            # The first requests fill caches and compile templates: a warm-up, not counted.
            plans[name](8)()
            results[name] = server.measure(name, plans[name](rounds))
        print(f"  {name:18} {results[name][0]:>12,.0f} instructions per request ({results[name][2]} requests)", flush=True)
    return results


def top_functions(dump, per, limit=25):
    """The costliest functions of a dump, inclusive of nothing: self cost per request."""
    done = subprocess.run(["callgrind_annotate", "--threshold=99", str(dump)], capture_output=True, text=True, check=True)
    found = {}
    for line in done.stdout.splitlines():
        match = re.match(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.+?)(?:\s+\[.*\])?$", line)
        if not match:
            continue
        name = match.group(2).strip()
        if name.startswith("PROGRAM TOTALS") or "file:function" in name:
            continue
        found[name] = int(match.group(1).replace(",", "")) / per
    return dict(sorted(found.items(), key=lambda item: -item[1])[:limit])


def demangled(names):
    """Swift's names as people read them (`swift demangle`), the C ones as they are."""
    if not names or not shutil.which("swift"):
        return names
    done = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True, text=True)
    lines = done.stdout.splitlines()
    return lines if done.returncode == 0 and len(lines) == len(names) else names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "hyzer"))
    parser.add_argument("--budget", default=str(BUDGET))
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--requests", type=int, default=200, help="requests per path (pages take twice as many)")
    parser.add_argument("--write", action="store_true", help="write the counts measured as the budget")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (dumps, valgrind.log)")
    parser.add_argument("--hello", help="hyzer-bench binary: count the bare hello route too, and each page's cost beside it")
    arguments = parser.parse_args()
    for tool in ("valgrind", "callgrind_control", "callgrind_annotate"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: apt-get install -y valgrind")
    chosen = [p for p in arguments.paths.split(",") if p]
    unknown = [p for p in chosen if p not in PATHS]
    if unknown:
        raise SystemExit(f"unknown paths {unknown}; known: {', '.join(PATHS)}")

    work = tempfile.mkdtemp(prefix="hyzer-bench-check-")
    print(f"callgrind on {arguments.binary} (work folder {work})", flush=True)
    server = Server(arguments.binary, work)
    try:
        club = Club(server)
        results = measure_all(server, club, chosen, arguments.requests)
    finally:
        server.stop()
    if "pull-1000" in chosen:
        results["pull-1000"] = measure_pull(arguments.binary, pathlib.Path(work) / "pull")
        print(f"  {'pull-1000':18} {results['pull-1000'][0]:>12,.0f} instructions per page of {PULLED:,} scores", flush=True)
    profiles = {name: top_functions(dump, count) for name, (_, dump, count) in results.items()}
    hello = None
    if arguments.hello:
        hello = measure_hello(arguments.hello, pathlib.Path(work) / "hello", arguments.requests)
        print(f"  {'bare hello':18} {hello:>12,.0f} instructions per request (Hummingbird's hello route, nothing added)")
        for name in ("spectator", "returning", "signed-in"):
            if name in results:
                print(f"  {name:18} {results[name][0] / hello:>12.2f} x the bare hello")

    budget_path = pathlib.Path(arguments.budget)
    if arguments.write:
        old = json.loads(budget_path.read_text()) if budget_path.exists() else {"paths": {}}
        for name, (per, _, _) in results.items():
            old["paths"][name] = {"what": PATHS[name], "instructions": round(per), "functions": {k: round(v) for k, v in profiles[name].items()}}
        if hello:
            # Not checked: Hummingbird's own cost, the floor each page is read beside.
            old["bare-hello"] = {"what": "Hummingbird's bare hello route (hyzer-bench hello)", "instructions": round(hello)}
        old["tolerance"] = TOLERANCE
        budget_path.write_text(json.dumps(old, indent=2, sort_keys=True) + "\n")
        print(f"wrote {budget_path}")
    else:
        budget = json.loads(budget_path.read_text())
        tolerance = budget.get("tolerance", TOLERANCE)
        failed = []
        print(f"\n{'path':18} {'budget':>12} {'measured':>12} {'change':>8}")
        for name, (per, _, _) in results.items():
            entry = budget["paths"].get(name)
            if entry is None:
                print(f"{name:18} {'(none)':>12} {per:>12,.0f}    new: add it with --write")
                failed.append(name)
                continue
            change = per / entry["instructions"] - 1
            print(f"{name:18} {entry['instructions']:>12,} {per:>12,.0f} {change:>+8.1%}{'  OVER BUDGET' if change > tolerance else ''}")
            if change > tolerance:
                failed.append(name)
                grown = sorted(((profiles[name].get(f, 0) - entry["functions"].get(f, 0), f) for f in set(profiles[name]) | set(entry["functions"])), reverse=True)
                print(f"  functions that grew most on {name} (self instructions per request: growth, now):")
                shown = [(delta, function) for delta, function in grown[:10] if delta > 0]
                for (delta, function), readable in zip(shown, demangled([f for _, f in shown])):
                    print(f"    {delta:>+12,.0f}  {profiles[name].get(function, 0):>12,.0f}  {readable[:140]}")
        if failed:
            print(f"\nover budget: {', '.join(failed)}. A slower path is a regression to fix; raising a budget is a commit of its own that says why.")
        if not arguments.keep:
            shutil.rmtree(work, ignore_errors=True)
        sys.exit(1 if failed else 0)
    if not arguments.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
