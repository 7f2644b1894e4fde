"""kill -9 a device at random points of push and pull (including between the cloud commit and
the local synced mark), restart, N times: every acknowledged event exists exactly once in the
cloud and on every device.

Two devices, A and B, share one embedded cloud (a SQLite file). Each trial picks a device and a
fault, seeded: a crash point (`HYZER_TEST_CRASH_AT=<point>@<p>`, the process SIGKILLs itself
there) or a kill -9 from outside after 0–300 ms. A burst of scores and corrections goes to that
device (and a few to the other, which stays up) until it dies; it is killed at the end of the
trial if it is still alive, then restarted without faults, and some requests that got no
answer are sent again with the same id (a client retrying). At the end both devices sync until
they are idle and hold the cloud's set of score events, and:

- every acknowledged event (200 or 201) is exactly once in the cloud and in each device's
  domain.sqlite, with the content that was sent;
- no score event id is stored twice anywhere (ids compared case-insensitively);
- both devices list the same events and show the same standings and conflicts (none).

HYZER_KILL_TRIALS (default 10) and HYZER_SEED (default random, printed) replay a run.
"""
import collections
import dataclasses
import os
import random
import threading
import time
import uuid

from conftest import OUTPUT, NoAnswer, read_only

TRIALS = int(os.environ.get("HYZER_KILL_TRIALS", "10"))
SEED = int(os.environ["HYZER_SEED"]) if os.environ.get("HYZER_SEED") else random.SystemRandom().randrange(1, 2**31)
POINTS = ["push.claimed", "push.saved", "push.marked", "pull.fetched", "pull.applied"]
HOLES, PLAYERS = 36, 30
CONVERGE_SECONDS = 60
SCORE_TYPE = "scoreEvent"  # RecordType.scoreEvent (Sources/HyzerCore/Sync/CloudRecord.swift)


@dataclasses.dataclass
class Sent:
    """One POST /scores as the client made it, and what came back."""
    id: str
    device: str
    round: str
    player: str
    hole: int
    strokes: int
    supersedes: str | None
    trial: int
    outcome: str = "planned"   # acknowledged | unanswered | rejected
    status: int | None = None
    detail: object = None
    retried: bool = False

    def body(self):
        body = {"id": self.id, "playerID": self.player, "hole": self.hole, "strokes": self.strokes}
        if self.supersedes:
            body["supersedes"] = self.supersedes
        return body


class Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.sent = {}

    def add(self, sent):
        with self.lock:
            self.sent[sent.id] = sent

    def record(self, sent, outcome, status=None, detail=None):
        with self.lock:
            sent.outcome, sent.status, sent.detail = outcome, status, detail

    def of(self, outcome):
        with self.lock:
            return [s for s in self.sent.values() if s.outcome == outcome]


class Club:
    """The course, players and rounds on the devices, and which (player, hole) slots are free."""

    def __init__(self, a, b, rng):
        self.a, self.b, self.rng = a, b, rng
        course = a.api("POST", "/api/v1/courses", {"name": "Kill Park", "holes": [{"number": n, "par": 3} for n in range(1, HOLES + 1)]})
        self.course = course["id"]
        self.players = [a.api("POST", "/api/v1/players", {"displayName": f"Thrower {i:02d}", "handle": f"thrower.{i:02d}"})["id"]
                        for i in range(PLAYERS)]
        self.rounds = []
        self.free = []
        self.new_round()

    def new_round(self):
        created = self.a.api("POST", "/api/v1/rounds", {"courseID": self.course, "name": f"Kill round {len(self.rounds) + 1}",
                                                        "start": True, "players": [{"playerID": p} for p in self.players]})
        round_id = created["id"]
        # B must know the round and its players before it can take scores for it.
        deadline = time.monotonic() + 30
        while True:
            self.b.request("POST", "/api/v1/sync/now")
            status, body = self.b.request("GET", f"/api/v1/rounds/{round_id}")
            if status == 200 and len(body.get("players", [])) == PLAYERS and body.get("status") == "active":
                break
            assert time.monotonic() < deadline, f"B never received round {round_id} (last answer {status}: {body})"
            time.sleep(0.1)
        slots = [(round_id, p, h) for p in self.players for h in range(1, HOLES + 1)]
        self.rng.shuffle(slots)
        self.rounds.append(round_id)
        self.free.extend(slots)

    def ensure(self, count):
        while len(self.free) < count:
            self.new_round()

    def take(self):
        return self.free.pop()


def score_ids(path, table, where=""):
    """Counter of lower-cased ids in a table (read-only, safe beside a running server)."""
    connection = read_only(path)
    try:
        return collections.Counter(row[0].lower() for row in connection.execute(f"SELECT id FROM {table} {where}"))
    finally:
        connection.close()


REPLAY = f"HYZER_SEED={SEED} HYZER_KILL_TRIALS={TRIALS} python3 -m pytest Tests/system/test_kill.py"


def test_kill_9_never_loses_or_duplicates_an_acknowledged_score(servers):
    print(f"\nkill -9: seed={SEED} trials={TRIALS} (replay: {REPLAY})")
    journal, report = [], {}
    try:
        soak(servers, journal, report)
    except BaseException as error:
        if "written" not in report:
            # Failed before the final checks (a device did not restart, sync never converged, ...).
            OUTPUT.mkdir(exist_ok=True)
            (OUTPUT / "soak-kill.txt").write_text("\n".join([f"kill -9: FAILED seed={SEED} trials={TRIALS}: {error}",
                                                             f"replay: {REPLAY}"] + journal) + "\n")
            print("\n".join(journal))
        print(f"replay: {REPLAY}")
        raise


def soak(servers, journal, report):
    started = time.monotonic()
    # The fault schedule comes from the seed alone, so a replay kills the same device the same
    # way in every trial; the workload has its own generator (what it draws depends on which
    # requests were answered). Whether a crash point with p < 1 fires is the binary's draw.
    schedule_rng = random.Random(SEED)
    schedule = []
    for _ in range(TRIALS):
        name = schedule_rng.choice("AB")
        if schedule_rng.random() < 0.5:
            schedule.append((name, f"{schedule_rng.choice(POINTS)}@{round(schedule_rng.uniform(0.3, 1.0), 2)}", None))
        else:
            schedule.append((name, None, schedule_rng.uniform(0.0, 0.3)))
    rng = random.Random(f"{SEED}/workload")
    replay = REPLAY

    cloud = servers.folder("hyzer-cloud-") / "cloud.sqlite"
    flags = ["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"]
    a = servers.server("kill-A", extra=flags, handle="coach.a")
    b = servers.server("kill-B", extra=flags, handle="coach.b")
    devices = {"A": a, "B": b}
    for device in devices.values():
        assert device.start(), f"{device.name} did not start; see {device.log_path}"
    club = Club(a, b, rng)
    ledger = Ledger()
    # Acknowledged first entries per device whose slot was not corrected yet.
    correctable = {"A": [], "B": []}
    kills = collections.Counter()

    def plan(device_name, trial, count):
        requests = []
        for _ in range(count):
            candidates = correctable[device_name]
            if candidates and rng.random() < 0.25:
                original = candidates.pop(rng.randrange(len(candidates)))
                sent = Sent(str(uuid.UUID(int=rng.getrandbits(128), version=4)), device_name, original.round, original.player,
                            original.hole, rng.randint(2, 7), original.id, trial)
            else:
                round_id, player, hole = club.take()
                sent = Sent(str(uuid.UUID(int=rng.getrandbits(128), version=4)), device_name, round_id, player, hole,
                            rng.randint(2, 6), None, trial)
            ledger.add(sent)
            requests.append(sent)
        return requests

    def post(sent):
        device = devices[sent.device]
        try:
            status, body = device.request("POST", f"/api/v1/rounds/{sent.round}/scores", sent.body(), timeout=10)
        except NoAnswer as error:
            ledger.record(sent, "unanswered", detail=str(error))
            return False
        if status in (200, 201):
            ledger.record(sent, "acknowledged", status, body)
            if sent.supersedes is None:
                with ledger.lock:
                    correctable[sent.device].append(sent)
        else:
            ledger.record(sent, "rejected", status, body)
        return True

    def burst(requests):
        for index, sent in enumerate(requests):
            if not post(sent):
                # The device is gone: the rest of this thread's requests are never sent.
                for rest in requests[index + 1:]:
                    ledger.record(rest, "unsent")
                return

    for trial in range(1, TRIALS + 1):
        club.ensure(40)
        name, fault, delay = schedule[trial - 1]
        other_name = "B" if name == "A" else "A"
        victim = devices[name]
        # An outside kill lands anywhere in 0-300 ms: a longer burst makes it land mid-burst more often.
        victim_work = [plan(name, trial, 3 if fault else 6) for _ in range(4)]
        other_work = [plan(other_name, trial, 2) for _ in range(2)]

        came_up = True
        if fault:
            victim.stop()
            came_up = victim.start(env={"HYZER_TEST_CRASH_AT": fault})
        threads = [threading.Thread(target=burst, args=(work,), daemon=True) for work in victim_work + other_work]
        for thread in threads:
            thread.start()
        if delay is not None:
            time.sleep(delay)
            victim.kill9()
            kind, how = "external", f"kill -9 after {delay * 1000:.0f} ms"
        for thread in threads:
            thread.join(timeout=60)
            assert not thread.is_alive(), f"trial {trial}: a burst thread hung"
        if delay is None:
            if not came_up:
                kind, how = f"{fault.split('@')[0]} (at start)", f"crash point {fault} fired during start"
            elif victim.wait_exit(1.0):
                kind, how = fault.split("@")[0], f"crash point {fault} fired"
            else:
                victim.kill9()
                kind, how = "not fired: kill -9 at end", f"crash point {fault} never fired: kill -9 at the end"
        code = victim.process.returncode
        assert code == -9, f"trial {trial}: {victim.name} ended with {code}, not SIGKILL; see {victim.log_path}"
        kills[kind] += 1
        assert victim.start(), f"trial {trial}: {victim.name} did not restart; see {victim.log_path}"

        # A client that got no answer may send the same request again.
        trial_requests = [s for work in victim_work + other_work for s in work]
        unanswered = [s for s in trial_requests if s.outcome in ("unanswered", "unsent")]
        for sent in unanswered:
            if rng.random() < 0.5:
                sent.retried = True
                post(sent)
        outcomes = collections.Counter(s.outcome for s in trial_requests)
        journal.append(f"trial {trial}: {victim.name} {how}; " + ", ".join(f"{k}={v}" for k, v in sorted(outcomes.items()))
                       + f"; retried={sum(s.retried for s in trial_requests)}")

    # Both devices up without faults: sync until both are idle and agree with the cloud.
    deadline = time.monotonic() + CONVERGE_SECONDS
    last_sync_now = 0.0
    while True:
        if time.monotonic() - last_sync_now > 1.0:
            for device in devices.values():
                device.api("POST", "/api/v1/sync/now")
            last_sync_now = time.monotonic()
        time.sleep(0.2)
        statuses = {n: d.api("GET", "/api/v1/sync") for n, d in devices.items()}
        stored = {"cloud": score_ids(cloud, "records", f"WHERE type = '{SCORE_TYPE}'")}
        for n, d in devices.items():
            stored[n] = score_ids(d.data_dir / "domain.sqlite", "score_events")
        idle = all(s["pending"] == 0 and s["inFlight"] == 0 and s["failed"] == 0 for s in statuses.values())
        same = set(stored["A"]) == set(stored["B"]) == set(stored["cloud"])
        if idle and same:
            break
        if time.monotonic() > deadline:
            differences = {f"{x}-{y}": sorted(set(stored[x]) - set(stored[y]))[:20]
                           for x in stored for y in stored if x != y and set(stored[x]) - set(stored[y])}
            raise AssertionError(f"devices did not converge within {CONVERGE_SECONDS} s (seed {SEED}; replay: {replay})\n"
                                 f"sync status: {statuses}\nids missing (first 20): {differences}")

    problems = []
    acknowledged = ledger.of("acknowledged")
    lost, duplicated = set(), set()
    for sent in acknowledged:
        for place, ids in stored.items():
            count = ids.get(sent.id.lower(), 0)
            if count == 0:
                lost.add(sent.id)
                problems.append(f"LOST: acknowledged {sent.id} (trial {sent.trial}, {sent.device}, {sent.status}"
                                f"{', retried' if sent.retried else ''}) is missing from {place}")
    sent_ids = {i.lower() for i in ledger.sent}
    for place, ids in stored.items():
        for id, count in ids.items():
            if count > 1:
                duplicated.add(id)
                problems.append(f"DUPLICATED: {id} is stored {count} times in {place}")
            if id not in sent_ids:
                problems.append(f"UNKNOWN: {place} holds score event {id}, which no client sent")
    for sent in ledger.of("rejected"):
        problems.append(f"REJECTED: {sent.id} (trial {sent.trial}, {sent.device}) answered {sent.status}: {sent.detail}")

    # The acknowledged content, as both devices list it; both list the same events.
    histories = {}
    for n, d in devices.items():
        for round_id in club.rounds:
            for event in d.api("GET", f"/api/v1/rounds/{round_id}/scores")["events"]:
                histories.setdefault(n, {})[event["id"].lower()] = event
    for sent in acknowledged:
        event = histories["A"].get(sent.id.lower())
        if event and (event["playerID"].lower(), event["hole"], event["strokes"], (event.get("supersedes") or "").lower()) != \
                (sent.player.lower(), sent.hole, sent.strokes, (sent.supersedes or "").lower()):
            problems.append(f"CHANGED: {sent.id} was sent as {sent.body()} but is listed as {event}")
    if histories.get("A") != histories.get("B"):
        only_a = sorted(set(histories.get("A", {})) - set(histories.get("B", {})))
        only_b = sorted(set(histories.get("B", {})) - set(histories.get("A", {})))
        differ = sorted(i for i in set(histories.get("A", {})) & set(histories.get("B", {})) if histories["A"][i] != histories["B"][i])
        problems.append(f"SCORES DIFFER: only on A {only_a[:10]}, only on B {only_b[:10]}, different {differ[:10]}")
    for round_id in club.rounds:
        boards = {n: d.api("GET", f"/api/v1/rounds/{round_id}/standings") for n, d in devices.items()}
        for key in ("standings", "conflicts"):
            if boards["A"][key] != boards["B"][key]:
                problems.append(f"STANDINGS DIFFER: round {round_id} {key}: A {boards['A'][key]} B {boards['B'][key]}")
        if boards["A"]["conflicts"]:
            problems.append(f"CONFLICTS: round {round_id} shows conflicts although every slot was scored once: {boards['A']['conflicts']}")

    unanswered = [s for s in ledger.sent.values() if s.outcome in ("unanswered", "unsent")]
    stored_unanswered = sum(1 for s in unanswered if s.id.lower() in stored["cloud"])
    summary = f"kill -9: trials={TRIALS} acknowledged={len(acknowledged)} lost={len(lost)} duplicated={len(duplicated)} seed={SEED}"
    details = (f"kills: {dict(kills)}; retried={sum(s.retried for s in ledger.sent.values())}; "
               f"unanswered={len(unanswered)} (of which stored: {stored_unanswered}); rounds={len(club.rounds)}; "
               f"cloud score events={len(stored['cloud'])}; {time.monotonic() - started:.1f} s")
    print(summary)
    print(details)
    OUTPUT.mkdir(exist_ok=True)
    lines = [summary, details]
    if problems:
        lines += [f"replay: {replay}"] + problems[:200]
    lines += journal
    (OUTPUT / "soak-kill.txt").write_text("\n".join(lines) + "\n")
    report["written"] = True
    if problems:
        print("\n".join(journal))
    assert not problems, f"{len(problems)} problem(s) (replay: {replay}):\n" + "\n".join(problems[:50])
