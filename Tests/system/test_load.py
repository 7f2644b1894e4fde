"""1,000 live subscribers on one round while scores are posted: no request fails, every
subscriber ends on the final state, and the server's memory comes back once they leave.

HYZER_LOAD_SECONDS sets how long scores are posted (10 in `make test`, 60 in `make soak`);
HYZER_LOAD_SUBSCRIBERS how many streams (1,000). The figures go to test-output/soak-load.txt.
"""
import os
import re
import selectors
import socket
import threading
import time

from conftest import OUTPUT, steady

SECONDS = float(os.environ.get("HYZER_LOAD_SECONDS", "10"))
SUBSCRIBERS = int(os.environ.get("HYZER_LOAD_SUBSCRIBERS", "1000"))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


class Subscriber:
    """One raw stream: the newest `id:` it has read, and whether it is still open."""

    def __init__(self, server, path):
        self.sock = socket.create_connection((server.host, server.port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.buffer = b""
        self.last_id = None
        self.status = None
        self.open = True

    def read(self):
        try:
            chunk = self.sock.recv(262144)
        except BlockingIOError:
            return
        except ConnectionError:
            chunk = b""
        if not chunk:
            self.open = False
            return
        self.buffer += chunk
        if self.status is None and b"\r\n\r\n" in self.buffer:
            head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
            self.status = head.split(b"\r\n", 1)[0].decode()
        # Keep only what follows the last complete event; remember its id.
        if b"\n\n" in self.buffer:
            complete, _, self.buffer = self.buffer.rpartition(b"\n\n")
            ids = re.findall(rb"(?m)^id: ?(\d+)$", complete)
            if ids:
                self.last_id = int(ids[-1])


class Crowd:
    """Many subscribers on one path, read together with one selector."""

    def __init__(self, server, path, count):
        self.server = server
        self.members = [Subscriber(server, path) for _ in range(count)]
        self.selector = selectors.DefaultSelector()
        for member in self.members:
            self.selector.register(member.sock, selectors.EVENT_READ, member)

    def pump(self, seconds):
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            for key, _ in self.selector.select(timeout=0.05):
                key.data.read()

    def wait_for(self, version, seconds=20):
        """Reads until every open member has `version` (or the time is up)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(m.last_id != version for m in self.members if m.open):
            self.pump(0.2)

    def leave(self):
        """Everyone closes; waits until the server counts no subscriber, and returns its count."""
        for member in self.members:
            self.selector.unregister(member.sock)
            member.sock.close()
        self.selector.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and subscribers_open(self.server) != 0:
            time.sleep(0.05)
        return subscribers_open(self.server)


def rss_within(pid, bound_kib, timeout=10):
    """The process's RSS once it is at most `bound_kib`, or as it is after `timeout` seconds
    (the caller's assertion then says by how much it is over)."""
    deadline = time.monotonic() + timeout
    while (rss := rss_kib(pid)) > bound_kib and time.monotonic() < deadline:
        time.sleep(0.1)
    return rss


def test_a_thousand_subscribers_follow_scores_to_the_final_state(servers):
    server = servers.server("load", extra=["--cloud", "none", "--backup-interval", "off", "--demo",
                                            # every screen here is one machine: no share per address
                                            "--max-streams-per-client", "0"], handle="cory.coach")
    assert server.start()
    round_id = server.api("GET", "/api/v1/rounds")["rounds"][0]["id"]
    players = [p["id"] for p in server.api("GET", f"/api/v1/rounds/{round_id}")["players"]]
    path = f"/rounds/{round_id}/events"
    # Warm up (templates, caches, the first frames) before the baseline.
    for _ in range(3):
        server.request("GET", f"/rounds/{round_id}", auth=False)
    baseline = steady(lambda: rss_kib(server.process.pid), interval=0.1)

    crowd = Crowd(server, path, SUBSCRIBERS)
    subscribers = crowd.members
    crowd.pump(2)
    loaded = rss_kib(server.process.pid)

    failures, posted, done = [], [], threading.Event()

    def post_scores():
        # Corrections of every hole, round and round: each is a new version of the round.
        current = {}
        for event in server.api("GET", f"/api/v1/rounds/{round_id}/scores")["events"]:
            if event.get("current"):
                current[(event["playerID"], event["hole"])] = event["id"]
        end = time.monotonic() + SECONDS
        turn = 0
        while time.monotonic() < end:
            player, hole = players[turn % len(players)], 1 + (turn // len(players)) % 18
            body = {"playerID": player, "hole": hole, "strokes": 2 + turn % 4}
            if (player, hole) in current:
                body["supersedes"] = current[(player, hole)]
            status, answer = server.request("POST", f"/api/v1/rounds/{round_id}/scores", body, timeout=10)
            if status != 201:
                failures.append((status, answer))
            else:
                current[(player, hole)] = answer["event"]["id"]
                posted.append(status)
            turn += 1
        done.set()

    poster = threading.Thread(target=post_scores)
    poster.start()
    while not done.is_set():
        crowd.pump(0.2)
    poster.join()
    final = server.api("GET", f"/api/v1/rounds/{round_id}/standings")["version"]
    crowd.wait_for(final)
    peak = rss_kib(server.process.pid)

    statuses = {s.status for s in subscribers}
    behind = [s.last_id for s in subscribers if s.last_id != final]
    closed = sum(not s.open for s in subscribers)
    # The hub lets go of every stream: the count the server reports returns to zero.
    left_open = crowd.leave()
    # Memory comes back to the system some time after the last stream closes, with no event
    # to wait on: wait for the bound itself, a deadline only as a guard.
    after = rss_within(server.process.pid, baseline + 16 * 1024)

    # A second crowd, with no new scores: what stays after it leaves is what a crowd keeps
    # (nothing, when streams give their memory back); the first crowd's remainder also holds
    # the store's page caches, filled by the new scores.
    second = Crowd(server, path, SUBSCRIBERS)
    second.wait_for(final)
    second_peak = rss_kib(server.process.pid)
    second_behind = sum(m.last_id != final for m in second.members)
    second.leave()
    second_after = rss_within(server.process.pid, after + 4 * 1024)

    summary = (f"load: subscribers={SUBSCRIBERS} seconds={SECONDS:g} posted={len(posted)} failed={len(failures)} "
               f"final_version={final} behind={len(behind)} closed_early={closed} "
               f"rss_kib baseline={baseline} with_subscribers={loaded} peak={peak} after={after} "
               f"second_crowd_peak={second_peak} after_second_crowd={second_after}")
    print("\n" + summary)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / "soak-load.txt").write_text(summary + "\n")

    assert not failures, f"{len(failures)} score requests failed, e.g. {failures[:3]}"
    assert len(posted) > 0
    assert statuses == {"HTTP/1.1 200 OK"}, statuses
    assert closed == 0, f"{closed} streams were closed by the server"
    assert not behind, f"{len(behind)} subscribers did not end on version {final}: e.g. {behind[:5]}"
    assert left_open == 0, f"the server still counts {left_open} subscribers after all left"
    assert second_behind == 0, f"{second_behind} subscribers of the second crowd did not get version {final}"
    # Back to baseline: a crowd's streams give their memory back (a little allocator slack
    # allowed); the first time, SQLite's page caches (bounded by their size) fill with the
    # new scores as well.
    assert second_after <= after + 4 * 1024, summary
    assert after <= baseline + 16 * 1024, summary


def subscribers_open(server):
    status, text = server.request("GET", "/metrics", auth=False)
    match = re.search(r"(?m)^hyzer_live_subscribers (\S+)", text if isinstance(text, str) else "")
    return int(float(match.group(1))) if match else -1
