"""The OpenAPI document against the real server, and schemathesis over every operation.

One `hyzer serve` (the binary in $HYZER_BIN, else the debug build's) with its own data folder,
the demo round seeded and an admin's API token:

- every operation the document names answers a well-formed request with something other
  than 404/405, so the document names no route the server lacks (the Swift test
  OpenAPIDocumentTests checks the other direction);
- schemathesis (the `st` CLI, one worker) loads the document from the server's own
  /api/v1/openapi.json and runs the examples, coverage, fuzzing and stateful phases over all
  operations with $HYZER_FUZZ_EXAMPLES examples per operation (default 25) and the seed
  $HYZER_SEED (default 1), checking for no 5xx and that status codes, content types,
  headers and bodies are the documented ones;
- nothing is written by a refused request: around every call schemathesis makes, a hook reads a
  fingerprint of domain.sqlite, and a 4xx (or any GET) must leave it unchanged;
- afterwards the server is alive, answers /healthz, and logged no "Request failed" (a 500);
- bodies that are not JSON (a closing bracket first, unbalanced, truncated) are a 400 on every
  JSON operation, on a server of its own: what the fuzzer hits only now and then, every time.

The examples phase has nothing to run while the document gives no examples.

The summary `schemathesis: operations=N examples=E failures=F seed=S` is printed and written to
test-output/fuzz-summary.txt; the CLI's output, its JSON report, every call's record and the
server log are in test-output/fuzz/.

This file is also the schemathesis hooks module (SCHEMATHESIS_HOOKS points at it): loaded that
way it registers the hooks at the bottom and nothing else happens.
"""
import copy
import hashlib
import json
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from conftest import OUTPUT, Server, binary  # noqa: E402 — the hooks process loads this file by path

FUZZ_OUTPUT = OUTPUT / "fuzz"
SUMMARY = OUTPUT / "fuzz-summary.txt"
CHECKS = ["not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
          "response_schema_conformance"]
PHASES = ["examples", "coverage", "fuzzing", "stateful"]


def examples_per_operation():
    return int(os.environ.get("HYZER_FUZZ_EXAMPLES", "25"))


def seed():
    return int(os.environ.get("HYZER_SEED", "1"))


# The stored state --------------------------------------------------------------------------


class StoreFingerprint:
    """What the server has stored in domain.sqlite.

    `PRAGMA data_version` on one long-lived read-only connection changes whenever another
    connection commits, so it is read around every call; the content (a digest of every row of
    every table, and the row counts) is recomputed only when it moved. Two fingerprints are equal
    when the content is: a commit that changed nothing is noted (`version`) but is no write."""

    def __init__(self, path):
        self.path = str(path)
        # schemathesis calls the hooks from its worker thread (one at a time: --workers 1).
        self.connection = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10, isolation_level=None,
                                          check_same_thread=False)
        self.connection.execute("PRAGMA busy_timeout = 10000")
        self._version = None
        self._tables = None

    def close(self):
        self.connection.close()

    def read(self):
        """{"version": data_version, "tables": {table: [rows, sha256 of the rows]}}."""
        connection = self.connection
        connection.execute("BEGIN")
        try:
            version = connection.execute("PRAGMA data_version").fetchone()[0]
            if version != self._version or self._tables is None:
                self._tables = self._content()
                self._version = version
            return {"version": version, "tables": self._tables}
        finally:
            connection.execute("COMMIT")

    def _content(self):
        tables = {}
        names = [row[0] for row in self.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for name in names:
            digest, count = hashlib.sha256(), 0
            try:
                rows = self.connection.execute(f'SELECT * FROM "{name}" ORDER BY rowid')
            except sqlite3.OperationalError:  # a WITHOUT ROWID table
                rows = sorted(self.connection.execute(f'SELECT * FROM "{name}"'), key=repr)
            for row in rows:
                digest.update(repr(row).encode())
                count += 1
            tables[name] = [count, digest.hexdigest()[:16]]
        return tables

    @staticmethod
    def changed_tables(before, after):
        names = sorted(set(before["tables"]) | set(after["tables"]))
        return [f"{name} ({before['tables'].get(name, [0])[0]} -> {after['tables'].get(name, [0])[0]} rows)"
                for name in names if before["tables"].get(name) != after["tables"].get(name)]


def assert_nothing_written(before, after, what):
    changed = StoreFingerprint.changed_tables(before, after)
    assert not changed, f"{what} changed the stored state: {', '.join(changed)}"


# The server -------------------------------------------------------------------------------


def fuzz_server(data, log_path):
    """One `hyzer serve` with its own data folder (the demo round seeded), an admin and the
    admin's API token."""
    return Server(binary(), log_path.stem, data, extra=["--cloud", "none", "--demo", "--backup-interval", "off"],
                  handle="ada.admin", role="admin", log_path=log_path)


def seed_world(server):
    """Real ids for the fuzzer and the route check: the demo round (active) with two cards, an
    event with a scheduled round, and a finished event whose two players tie for first."""
    rounds = server.api("GET", "/api/v1/rounds")["rounds"]
    assert rounds, "the demo round was not seeded"
    demo = server.api("GET", f"/api/v1/rounds/{rounds[0]['id']}")
    players = [p["id"] for p in demo["players"]]
    handles = [p["handle"] for p in demo["players"]]
    course = server.api("GET", "/api/v1/courses")["courses"][0]
    holes = [h["number"] for h in course["holes"]]
    cards = server.api("POST", f"/api/v1/rounds/{demo['id']}/cards", {"cards": [
        {"name": "Card A", "playerIDs": players[:3]}, {"name": "Card B", "playerIDs": players[3:6]}]})["cards"]
    event = server.api("POST", "/api/v1/events", {"name": "Fuzz Open"})
    scheduled = server.api("POST", "/api/v1/rounds", {
        "courseID": course["id"], "eventID": event["id"], "name": "Fuzz Open R1", "start": False,
        "players": [{"playerID": p} for p in players[:4]]})
    spare = server.api("POST", "/api/v1/rounds", {
        "courseID": course["id"], "name": "Fuzz spare", "players": [{"playerID": p} for p in players[:3]]})
    tied = server.api("POST", "/api/v1/events", {"name": "Fuzz Tie"})
    tie_round = server.api("POST", "/api/v1/rounds", {
        "courseID": course["id"], "eventID": tied["id"], "name": "Fuzz Tie R1",
        "players": [{"playerID": p} for p in players[:2]]})
    csv = "playerID," + ",".join(map(str, holes)) + "\n" + "".join(
        p + "," + ",".join("3" for _ in holes) + "\n" for p in players[:2])
    server.api("POST", f"/api/v1/rounds/{tie_round['id']}/results", csv, content_type="text/csv")
    server.api("POST", f"/api/v1/rounds/{tie_round['id']}/complete")
    scores = server.api("GET", f"/api/v1/rounds/{demo['id']}/scores")["events"]
    return {
        "round": demo["id"], "players": players, "handles": handles, "course": course["id"], "holes": holes,
        "cards": {demo["id"]: [card["id"] for card in cards]}, "card_players": {c["id"]: c["playerIDs"] for c in cards},
        "event": event["id"], "scheduled_round": scheduled["id"], "tied_event": tied["id"], "tie_round": tie_round["id"],
        # The demo round keeps its cards and stays active for scoring; start, complete and
        # setting cards go to the other rounds (scheduled, active, completed).
        "rounds": [demo["id"], scheduled["id"], tie_round["id"]], "spare_rounds": [scheduled["id"], spare["id"], tie_round["id"]],
        "events": [event["id"], tied["id"]],
        "scores": [e["id"] for e in scores if e["current"]][:20],
    }


# The tests --------------------------------------------------------------------------------

try:
    import pytest
except ImportError:  # loaded as a hooks module by a schemathesis without pytest around
    pytest = None

if pytest is not None and __name__ != "_schemathesis_hooks":

    @pytest.fixture(scope="module")
    def fuzz():
        FUZZ_OUTPUT.mkdir(parents=True, exist_ok=True)
        data = pathlib.Path(tempfile.mkdtemp(prefix="hyzer-fuzz-"))
        server = fuzz_server(data, FUZZ_OUTPUT / "server.log")
        try:
            assert server.start()
            server.world = seed_world(server)
            yield server
        finally:
            server.stop()
            shutil.rmtree(data, ignore_errors=True)

    def test_the_document_names_no_route_the_server_lacks(fuzz):
        """Every path and method of the served document answers a well-formed request with
        something other than 404/405 (ids are real; state changes are kept to conflicts)."""
        document = fuzz.api("GET", "/api/v1/openapi.json", auth=False)
        world = fuzz.world
        demo, players = world["round"], world["players"]
        card = world["cards"][demo][0]
        ids = {"rounds": demo, "events": world["event"]}
        # Well-formed requests; start/complete/playoff are sent where they conflict (409).
        samples = {
            "createRound": {"courseID": world["course"], "players": [{"playerID": players[0]}], "start": False,
                            "name": "Route check"},
            "recordScore": {"playerID": players[0], "hole": world["holes"][-1], "strokes": 3},
            "setCards": {"cards": [{"name": "Card A", "playerIDs": players[:3]}, {"name": "Card B", "playerIDs": players[3:6]}]},
            "scoreCardHole": {"scores": [{"playerID": p, "strokes": 3} for p in world["card_players"][card]]},
            "signCard": {"playerID": players[0]},
            "importRoundResults": f"handle,{world['holes'][0]}\n{world['handles'][0]},3\n",
            "createCourse": {"name": "Route Check Course", "holes": [{"number": 1, "par": 3}]},
            "createPlayer": {"displayName": "Route Check", "handle": "route.check"},
            "importPlayers": "name,handle\nRoute Import,route.import\n",
            "createEvent": {"name": "Route Check Event"},
            "recordPlayoff": {"winner": players[0]},
            "editPlayer": {"displayName": "Route Edited"},
            "editCourse": {"name": "Route Edited Course"},
            "editEvent": {"name": "Route Edited Event"},
            "editRound": {"name": "Route Edited Round"},
        }
        # Edits and removals act on records made for them, never on what other checks use.
        def spare_player():
            return fuzz.api("POST", "/api/v1/players", {"displayName": "Route Spare", "handle": f"route.{uuid.uuid4().hex[:8]}"})["id"]
        edited, late = spare_player(), spare_player()
        course = fuzz.api("POST", "/api/v1/courses", {"name": "Route Edit Course", "holes": [{"number": 1, "par": 3}]})["id"]
        event = fuzz.api("POST", "/api/v1/events", {"name": "Route Edit Event"})["id"]

        def spare_round():
            return fuzz.api("POST", "/api/v1/rounds", {"courseID": course, "start": False, "name": "Route Edit Round",
                                                        "players": [{"playerID": edited}]})["id"]
        removed_round, joined_round = spare_round(), spare_round()
        samples["addLateArrival"] = {"playerID": late}
        samples["createSeason"] = {"name": "Route Check Season", "divisions": ["MPO"]}
        season = fuzz.api("POST", "/api/v1/seasons", {"name": "Route Season"})["id"]
        spare_season = fuzz.api("POST", "/api/v1/seasons", {"name": "Route Spare Season"})["id"]
        samples["editSeason"] = {"name": "Route Edited Season"}
        samples["enterPlayerRating"] = {"rating": 900}
        checked_night = fuzz.api("POST", "/api/v1/events", {"name": "Route Check-in Night"})["id"]
        fuzz.api("POST", f"/api/v1/events/{checked_night}/checkins", {"playerID": late})
        tags = fuzz.api("POST", "/api/v1/tags", {"name": "Route Tags", "tags": 5})["id"]
        samples["createTagPool"] = {"name": "Route Check Tags", "tags": [1, 2, 7]}
        samples["recordTagMove"] = {"kind": "assign", "tag": 1, "playerID": players[0]}
        fuzz.api("POST", f"/api/v1/tags/{tags}/moves", {"kind": "assign", "tag": 2, "playerID": players[1]})
        fuzz.api("POST", f"/api/v1/tags/{tags}/moves", {"kind": "assign", "tag": 3, "playerID": players[2]})
        challenge = fuzz.api("POST", f"/api/v1/tags/{tags}/challenges", {"challengerID": players[1], "challengedIDs": [players[2]]})["id"]
        samples["issueTagChallenge"] = {"challengerID": players[2], "challengedIDs": [players[1]]}
        samples["answerTagChallenge"] = {"answer": "decline"}
        pot = fuzz.api("POST", "/api/v1/pots", {"name": "Route Pot", "kind": "ace"})["id"]
        samples["createPot"] = {"name": "Route Check Pot", "kind": "ctp"}
        samples["contributeToPot"] = {"cents": 100}
        samples["payPot"] = {"eventID": world["event"], "playerIDs": []}
        samples["recordPursePayout"] = {"playerID": players[0]}
        cup = fuzz.api("POST", "/api/v1/events", {"name": "Route Cup"})["id"]
        cup_bracket = fuzz.api("POST", f"/api/v1/events/{cup}/bracket", {"seeds": players[:4]})
        open_cup = fuzz.api("POST", "/api/v1/events", {"name": "Route Open Cup"})["id"]
        samples["createBracket"] = {"seeds": players[:3]}
        samples["concedeMatch"] = {"matchID": cup_bracket["rounds"][0]["matches"][0]["id"], "playerID": players[0]}
        overrides = {("completeRound", "id"): world["scheduled_round"],
                     ("editPlayer", "id"): edited, ("removePlayer", "id"): edited,
                     ("editCourse", "id"): course, ("removeCourse", "id"): course,
                     ("editEvent", "id"): event, ("removeEvent", "id"): event,
                     ("editRound", "id"): removed_round, ("removeRound", "id"): removed_round,
                     ("addLateArrival", "id"): joined_round, ("withdrawPlayer", "id"): joined_round,
                     ("withdrawPlayer", "playerID"): late, ("reopenRound", "id"): joined_round,
                     ("getSeason", "id"): season, ("getSeasonStandings", "id"): season, ("getPlayerHandicaps", "id"): players[0],
                     ("editSeason", "id"): spare_season, ("removeSeason", "id"): spare_season,
                     ("cancelCheckIn", "id"): checked_night, ("cancelCheckIn", "playerID"): late,
                     ("getPlayerRatings", "id"): players[0], ("enterPlayerRating", "id"): late, ("getCourseStats", "id"): world["course"],
                     ("getTagPool", "id"): tags, ("recordTagMove", "id"): tags, ("getTagHistory", "id"): tags, ("getPlayerTags", "id"): players[0],
                     ("listTagChallenges", "id"): tags, ("issueTagChallenge", "id"): tags, ("answerTagChallenge", "id"): tags,
                     ("answerTagChallenge", "challengeID"): challenge,
                     ("getPot", "id"): pot, ("contributeToPot", "id"): pot, ("payPot", "id"): pot,
                     ("createBracket", "id"): open_cup, ("getBracket", "id"): cup, ("concedeMatch", "id"): cup}
        answered, wrong = [], []
        for path, operations in document["paths"].items():
            for method, operation in operations.items():
                if method not in ("get", "post", "put", "patch", "delete"):
                    continue
                name = operation.get("operationId", f"{method} {path}")
                concrete = path
                for parameter in ("id", "cardID", "hole", "playerID", "challengeID"):
                    if "{" + parameter + "}" not in concrete:
                        continue
                    if (name, parameter) in overrides:
                        value = overrides[(name, parameter)]
                    elif parameter == "id":
                        value = ids["events" if path.startswith("/api/v1/events/") else "rounds"]
                    elif parameter == "cardID":
                        value = card
                    else:
                        value = world["holes"][0]
                    concrete = concrete.replace("{" + parameter + "}", str(value))
                assert "{" not in concrete, f"{method.upper()} {path}: a path parameter this test does not know"
                body = None
                content = (operation.get("requestBody") or {}).get("content", {})
                if content:
                    body = samples.get(name, "" if "text/csv" in content else {})
                status, _, parsed = fuzz.exchange(method.upper(), concrete, body)
                answered.append(f"{status} {method.upper()} {path}")
                if status in (404, 405):
                    wrong.append(f"{method.upper()} {concrete} ({name}) answered {status}: {parsed}")
        print("\n".join(answered))
        assert len(answered) >= 20, f"the document names only {len(answered)} operations"
        assert not wrong, "the document names routes the server lacks:\n" + "\n".join(wrong)

    def test_the_fingerprint_sees_every_write(fuzz):
        """The 4xx check can fail: the fingerprint moves on an insert (201) and on an update
        (a round started: 200), and stays put around a refused request (409, 422, 400)."""
        world = fuzz.world
        store = StoreFingerprint(fuzz.data_dir / "domain.sqlite")
        try:
            before = store.read()
            status, _, _ = fuzz.exchange("POST", "/api/v1/players", {"displayName": "Fingerprint Probe", "handle": f"fp.{uuid.uuid4().hex[:8]}"})
            assert status == 201
            with pytest.raises(AssertionError, match=r"changed the stored state: (.*, )?players \(\d+ -> \d+ rows\)"):
                assert_nothing_written(before, store.read(), "a 201 (player created)")

            scheduled = fuzz.api("POST", "/api/v1/rounds", {"courseID": world["course"], "start": False, "name": "Fingerprint probe",
                                                             "players": [{"playerID": world["players"][0]}]})
            before = store.read()
            fuzz.api("POST", f"/api/v1/rounds/{scheduled['id']}/start")
            with pytest.raises(AssertionError, match=r"changed the stored state: (.*, )?rounds"):
                assert_nothing_written(before, store.read(), "a 200 (round started: an update, no new row)")

            for method, path, body, expected in [
                ("POST", f"/api/v1/rounds/{scheduled['id']}/start", None, 409),
                ("POST", "/api/v1/players", {"displayName": "Fingerprint Probe", "handle": "ada.admin"}, 422),
                ("POST", "/api/v1/players", "{\"displayName\": 1", 400),
            ]:
                before = store.read()
                status, _, parsed = fuzz.exchange(method, path, body, content_type="application/json" if isinstance(body, str) else None)
                assert status == expected, f"{method} {path}: {status} {parsed}"
                assert_nothing_written(before, store.read(), f"{method} {path} ({status})")
        finally:
            store.close()

    def test_schemathesis_finds_no_fault(fuzz, capsys):
        """schemathesis over every operation (it leaves out the document's own GET
        /api/v1/openapi.json, which the route check covers): no 5xx; documented statuses,
        content types, headers and bodies; no 4xx (and no GET) writes; the server survives
        without logging a 500."""
        pytest.importorskip("schemathesis")
        examples, run_seed = examples_per_operation(), seed()
        calls_path, report_path = FUZZ_OUTPUT / "calls.jsonl", FUZZ_OUTPUT / "schemathesis-report.json"
        output_path = FUZZ_OUTPUT / "schemathesis-output.txt"
        for path in (calls_path, report_path, output_path, SUMMARY):
            path.unlink(missing_ok=True)
        world = fuzz.world
        known = {"rounds": world["rounds"], "spare_rounds": world["spare_rounds"], "events": world["events"], "cards": world["cards"],
                 "players": world["players"], "courses": [world["course"]], "scores": world["scores"],
                 "handles": world["handles"], "holes": world["holes"], "token": fuzz.token}
        env = dict(os.environ, SCHEMATHESIS_HOOKS=str(pathlib.Path(__file__).resolve()),
                   HYZER_FUZZ_CALLS=str(calls_path), HYZER_FUZZ_STORE=str(fuzz.data_dir / "domain.sqlite"),
                   HYZER_FUZZ_KNOWN=json.dumps(known), NO_COLOR="1")
        command = [
            sys.executable, "-m", "schemathesis.cli", "run", f"{fuzz.base}/api/v1/openapi.json",
            "--header", f"Authorization: Bearer {fuzz.token}",
            "--checks", ",".join(CHECKS), "--phases", ",".join(PHASES),
            "--max-examples", str(examples), "--seed", str(run_seed), "--workers", "1",
            "--generation-database", "none", "--request-timeout", "10",
            "--report", "json", "--report-json-path", str(report_path), "--no-color",
        ]
        started = time.monotonic()
        with open(output_path, "w") as output:
            done = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT, env=env, cwd=FUZZ_OUTPUT,
                                  timeout=max(600, examples * 20))
        duration = time.monotonic() - started
        text = output_path.read_text(errors="replace").replace(fuzz.token, "[token]")
        output_path.write_text(text)
        assert report_path.exists(), f"schemathesis wrote no report (exit {done.returncode}):\n{text[-4000:]}"
        report = json.loads(report_path.read_text())
        cases = report["test_cases"]
        operations = report["operations"]["tested"]
        failures = cases["with_failures"] + cases["errored"]

        calls = [json.loads(line) for line in calls_path.read_text().splitlines()] if calls_path.exists() else []
        refused = [c for c in calls if c["status"] is not None and 400 <= c["status"] < 500]
        writing = [c for c in calls if c.get("changed") and c["status"] is not None and (400 <= c["status"] < 500 or c["method"] == "GET")]
        silent_commits = [c for c in calls if c.get("commit_without_change") and c["status"] is not None and 400 <= c["status"] < 500]
        unanswered = [c for c in calls if c["status"] is None]

        alive = fuzz.alive()
        healthy = False
        if alive:
            try:
                healthy = fuzz.exchange("GET", "/healthz", auth=False, timeout=5)[0] == 200
            except OSError:
                healthy = False
        log = fuzz.log_text()
        request_failed = [line for line in log.splitlines() if "Request failed" in line]
        fatal = [line for line in log.splitlines() if "Fatal error" in line or "Program crashed" in line]

        summary = f"schemathesis: operations={operations} examples={cases['generated']} failures={failures} seed={run_seed}"
        details = (f"fuzz: calls={len(calls)} refused={len(refused)} refused_or_get_writes={len(writing)} "
                   f"unanswered={len(unanswered)} server_alive={'yes' if alive and healthy else 'no'} "
                   f"request_failed_lines={len(request_failed)} stop_reason={report.get('stop_reason')} "
                   f"examples_per_operation={examples} duration={duration:.1f}s")
        SUMMARY.write_text(summary + "\n" + details + "\n")
        with capsys.disabled():
            print("\n" + summary + "\n" + details)

        problems = []
        if failures or report.get("stop_reason") != "completed" or done.returncode != 0:
            problems.append(f"schemathesis found {failures} failing test cases (exit {done.returncode}, "
                            f"stop reason {report.get('stop_reason')}): "
                            + "; ".join(f"{f['title']} x{f['count']} in {', '.join(f.get('operations', []))}" for f in report.get("failures", []))
                            + "".join(f"; error: {e['title']} x{e['count']}" for e in report.get("errors", []))
                            + "\n" + failure_sections(text))
        for call in writing[:20]:
            problems.append(f"{call['method']} {call['path']} answered {call['status']} but changed the stored state "
                            f"({', '.join(call['changed'])}):\n    {call['curl']}")
        if calls and not any(c.get("changed") for c in calls if c["status"] is not None and 200 <= c["status"] < 300):
            problems.append("no successful call changed the fingerprint: the 4xx check would see nothing")
        if silent_commits:
            print(f"note: {len(silent_commits)} refused calls committed without changing any row, e.g. "
                  f"{silent_commits[0]['method']} {silent_commits[0]['path']} ({silent_commits[0]['status']})")
        if not (alive and healthy):
            last = unanswered[-3:] or calls[-3:]
            problems.append("the server is gone or does not answer /healthz:\n" + "\n".join(fatal[:5])
                            + ("\ncalls that got no answer (or the last ones):\n" + "\n".join(f"    {c['curl'][:500]}" for c in last) if last else ""))
        if request_failed:
            problems.append(f"the server logged {len(request_failed)} 500s (\"Request failed\"):\n" + "\n".join(request_failed[:10]))
        assert not problems, "\n\n".join(problems)


    MALFORMED_BODIES = [b"}", b"]", b"x}", b'"a"]', b"{}}", b"[]]", b"{", b"nul"]

    def test_malformed_json_bodies_are_refused_not_fatal():
        """What the fuzzer finds now and then, every time: each JSON operation answers bodies that
        are not JSON (a closing bracket first, unbalanced, truncated) with a 400, and lives on.
        Its own server, so a crash here leaves the other tests' server alone."""
        FUZZ_OUTPUT.mkdir(parents=True, exist_ok=True)
        data = pathlib.Path(tempfile.mkdtemp(prefix="hyzer-fuzz-malformed-"))
        server = fuzz_server(data, FUZZ_OUTPUT / "server-malformed.log")
        try:
            assert server.start()
            world = seed_world(server)
            document = server.api("GET", "/api/v1/openapi.json", auth=False)
            wrong = []
            for path, operations in document["paths"].items():
                for method, operation in operations.items():
                    if "application/json" not in (operation.get("requestBody") or {}).get("content", {}):
                        continue
                    concrete = (path.replace("{id}", world["event"] if path.startswith("/api/v1/events/") else world["round"])
                                .replace("{cardID}", world["cards"][world["round"]][0]).replace("{hole}", "1"))
                    for body in MALFORMED_BODIES:
                        try:
                            status, _, parsed = server.exchange(method.upper(), concrete, body, content_type="application/json")
                        except OSError as error:
                            # The crash's own lines, once the process has written them (or in 2 s).
                            deadline = time.monotonic() + 2
                            while server.alive() and "Fatal error" not in server.log_text() and time.monotonic() < deadline:
                                time.sleep(0.05)
                            fatal = [line for line in server.log_text().splitlines() if "Fatal error" in line or " at /" in line][:4]
                            raise AssertionError(
                                f"{method.upper()} {path} with the body {body!r} got no answer ({error}); the server "
                                f"{'is still running' if server.alive() else 'is gone'}:\n" + "\n".join(fatal)) from error
                        if status != 400:
                            wrong.append(f"{method.upper()} {path} with {body!r}: {status} {parsed}")
            assert server.request("GET", "/healthz", auth=False)[0] == 200
            assert not wrong, "bodies that are not JSON should be a 400:\n" + "\n".join(wrong)
        finally:
            server.stop()
            shutil.rmtree(data, ignore_errors=True)


def failure_sections(text, limit=6000):
    """The FAILURES and ERRORS sections of the CLI's output."""
    start = min((i for i in (text.find("= ERRORS ="), text.find("= FAILURES =")) if i >= 0), default=-1)
    if start < 0:
        return text[-limit:]
    start = text.rfind("\n", 0, start) + 1
    end = text.find("= WARNINGS =", start)
    if end < 0:
        end = text.find("= SUMMARY =", start)
    section = text[start:end if end > 0 else None]
    return section if len(section) <= limit else section[:limit] + "\n[... see test-output/fuzz/schemathesis-output.txt]"


# The schemathesis hooks -------------------------------------------------------------------

def whole_numbers(value):
    """`value` with every float that is a whole number (3.0) as an int (3)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    return value


ID_KEYS = {"playerID": "players", "winner": "players", "courseID": "courses", "eventID": "events", "supersedes": "scores"}
LIST_KEYS = {"playerIDs": "players"}
MAX_SLOTS = 24


def register_schemathesis_hooks():
    """Registers: a fingerprint of domain.sqlite before and after every call, written with the
    call's status to $HYZER_FUZZ_CALLS; and real ids from $HYZER_FUZZ_KNOWN mixed into the
    generated path parameters and bodies, so the fuzzing phase reaches past the 404s and the
    unknown-player 422s into the scoring rules (201s and 409s)."""
    import schemathesis
    from hypothesis import strategies as st

    known = json.loads(os.environ.get("HYZER_FUZZ_KNOWN", "{}"))
    token = known.get("token") or "\0"
    store = StoreFingerprint(os.environ["HYZER_FUZZ_STORE"])
    calls = open(os.environ["HYZER_FUZZ_CALLS"], "a")
    state = {}

    def curl(case):
        try:
            return case.as_curl_command().replace(token, "[token]")
        except Exception as error:  # noqa: BLE001 — a record without a curl is still a record
            return f"{case.method} {case.formatted_path} (no curl: {error!r})"

    def phase(case):
        meta = getattr(case, "_meta", None)
        try:
            return f"{meta.phase.name.value}/{meta.generation.mode.value}"
        except AttributeError:
            return None

    def record(case, status, after=None, response=None):
        before = state.pop("before", None)
        entry = {"method": case.method.upper(), "path": case.path, "url": case.formatted_path, "status": status,
                 "phase": phase(case)}
        if before is not None and after is not None:
            changed = StoreFingerprint.changed_tables(before, after)
            entry["changed"] = changed
            entry["commit_without_change"] = not changed and before["version"] != after["version"]
        if status is None or status >= 400 or entry.get("changed"):
            entry["curl"] = curl(case)
        if response is not None and status >= 400:
            try:
                entry["answer"] = response.text[:300]
            except Exception:  # noqa: BLE001 — an undecodable answer is still a record
                pass
        calls.write(json.dumps(entry) + "\n")
        calls.flush()

    @schemathesis.hook
    def before_call(context, case, kwargs):
        state["before"] = store.read()

    @schemathesis.hook
    def after_call(context, case, response):
        record(case, response.status_code, store.read(), response)

    @schemathesis.hook
    def after_network_error(context, case, request):
        record(case, None)

    @schemathesis.hook
    def flatmap_path_parameters(context, path_parameters):
        path = context.operation.path
        if not isinstance(path_parameters, dict) or "id" not in path_parameters:
            return st.just(path_parameters)
        if path.startswith("/api/v1/events/"):
            pool = known.get("events", [])
        elif context.operation.method.lower() == "post" and path.rsplit("/", 1)[-1] in ("start", "complete", "cards"):
            pool = known.get("spare_rounds", [])
        else:
            pool = known.get("rounds", [])
        # Known values first: Hypothesis favours the front of sampled_from.
        variants = []
        for identifier in pool:
            variant = dict(path_parameters, id=identifier)
            for card in known.get("cards", {}).get(identifier, []) if "cardID" in path_parameters else []:
                variants.append(dict(variant, cardID=card))
            variants.append(variant)
        return st.sampled_from(variants + [path_parameters])

    def csv_samples(path):
        handles, players, holes = known.get("handles", []), known.get("players", []), known.get("holes", [1])
        if path.endswith("/players/import"):
            return ["name,handle\nFuzz Newcomer,fuzz.newcomer\n",
                    "name,handle,role\nFuzz Coach,fuzz.coach,coach\nFuzz Kid,fuzz.kid,athlete\n",
                    # all or nothing: the second row's handle is taken
                    "name,handle\nFuzz Fresh,fuzz.fresh\nAda Again,ada.admin\n"]
        if path.endswith("/results") and handles:
            header = "handle," + ",".join(map(str, holes[:3]))
            return [f"{header}\n{handles[0]},3,4,3\n",
                    f"playerID,{holes[-1]}\n{players[1]},DNF\n",
                    # all or nothing: the second line's player is not in the round
                    f"{header}\n{handles[2]},2,3,4\nnobody.here,3,3,3\n"]
        return []

    @schemathesis.hook
    def flatmap_body(context, body):
        path = context.operation.path
        samples = csv_samples(path)
        if samples:
            return st.sampled_from(samples + [body])
        if not isinstance(body, dict):
            return st.just(body)
        slots = []

        def walk(value, trail):
            if len(slots) >= MAX_SLOTS:
                return
            if isinstance(value, dict):
                for key, item in value.items():
                    if key in ID_KEYS and isinstance(item, str) and known.get(ID_KEYS[key]):
                        slots.append((trail + [key], item, known[ID_KEYS[key]]))
                    elif key in LIST_KEYS and isinstance(item, list) and known.get(LIST_KEYS[key]):
                        for index, element in enumerate(item[:6]):
                            slots.append((trail + [key, index], element, known[LIST_KEYS[key]]))
                    else:
                        walk(item, trail + [key])
            elif isinstance(value, list):
                for index, item in enumerate(value[:8]):
                    walk(item, trail + [index])

        walk(body, [])

        def apply(choices):
            whole, *ids = choices
            result = copy.deepcopy(body)
            for (trail, _, _), choice in zip(slots, ids):
                target = result
                for step in trail[:-1]:
                    target = target[step]
                target[trail[-1]] = choice
            # JSON Schema counts 3.0 as an integer, the server (as documented) does not: most
            # bodies get their whole floats as integers so they reach the rules behind.
            return whole_numbers(result) if whole else result

        return st.tuples(st.sampled_from([True, True, False]),
                         *[st.sampled_from(pool + [original]) for _, original, pool in slots]).map(apply)


if __name__ == "_schemathesis_hooks" and os.environ.get("HYZER_FUZZ_CALLS"):
    register_schemathesis_hooks()
