"""kill -9 in the middle of a group commit: no acknowledged score is lost, none is acknowledged
that was lost, and every stored score has its outbox entry.

One server, `--cloud none`. Each trial creates a round, then restarts the server with a crash
point (`HYZER_TEST_CRASH_AT`), alternating between:

- `score.written`: a batch's scores and outbox entries are written, the transaction is not
  committed: the whole batch must be gone, and nobody in it was answered;
- `score.committed`: the batch is on disk, nobody in it has been answered: it must all be there.

32 scorers post at once (so batches hold many scores) until the server dies. After a restart
without faults, `domain.sqlite` is read directly:

- every acknowledged (201) id is stored, with the content sent;
- every stored id was acknowledged or went unanswered (nothing unknown);
- the crash point fired: `score.written` left unanswered ids unstored, `score.committed` left
  unanswered ids stored;
- every stored score event has an outbox entry (they share a transaction).

HYZER_COMMIT_CRASH_TRIALS (default 4) sets the number of trials.
"""
import os
import threading
import uuid

from conftest import NoAnswer, read_only

TRIALS = int(os.environ.get("HYZER_COMMIT_CRASH_TRIALS", "4"))
SCORERS, HOLES = 32, 36
POINTS = ["score.written", "score.committed"]


def test_a_crash_in_a_group_commit_loses_no_acknowledged_score(servers):
    server = servers.server("group-commit", extra=["--cloud", "none", "--backup-interval", "off"], handle="cory.coach")
    assert server.start()
    course = server.api("POST", "/api/v1/courses", {"name": "Crash Park", "holes": [{"number": n, "par": 3} for n in range(1, HOLES + 1)]})
    players = [server.api("POST", "/api/v1/players", {"displayName": f"Scorer {n}", "handle": f"scorer{n}"})["id"] for n in range(SCORERS)]
    summary = []
    for trial in range(TRIALS):
        point = POINTS[trial % len(POINTS)]
        if not server.alive():
            assert server.start()
        round_id = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "name": f"Trial {trial}",
                                                          "players": [{"playerID": p} for p in players]})["id"]
        server.stop()
        assert server.start(env={"HYZER_TEST_CRASH_AT": f"{point}@0.05"})

        sent, acknowledged, unanswered, refused = {}, set(), set(), []
        lock = threading.Lock()

        def scorer(player):
            for hole in range(1, HOLES + 1):
                score_id = str(uuid.uuid4())
                body = {"id": score_id, "playerID": player, "hole": hole, "strokes": 2 + hole % 4}
                with lock:
                    sent[score_id] = body
                try:
                    status, answer = server.request("POST", f"/api/v1/rounds/{round_id}/scores", body, timeout=10)
                except NoAnswer:
                    with lock:
                        unanswered.add(score_id)
                    return
                with lock:
                    if status == 201:
                        acknowledged.add(score_id)
                    else:
                        refused.append((status, answer))

        threads = [threading.Thread(target=scorer, args=(player,)) for player in players]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        crashed = server.wait_exit(timeout=10)
        if not crashed:
            server.kill9()
        assert crashed and server.process.returncode == -9, f"trial {trial}: the crash point {point} never fired"
        assert not refused, f"trial {trial}: refused {refused[:3]}"

        assert server.start()
        with read_only(server.data_dir / "domain.sqlite") as db:
            stored = {row[0]: row[1:] for row in db.execute(
                "SELECT id, playerID, hole, strokes FROM score_events WHERE roundID = ?", (round_id,))}
            unqueued = db.execute("SELECT COUNT(*) FROM score_events WHERE id NOT IN "
                                  "(SELECT recordID FROM outbox WHERE recordType = 'scoreEvent')").fetchone()[0]
        lost = acknowledged - stored.keys()
        assert not lost, f"trial {trial} ({point}): {len(lost)} acknowledged scores lost, e.g. {sorted(lost)[:3]}"
        for score_id in acknowledged:
            body = sent[score_id]
            assert stored[score_id] == (body["playerID"], body["hole"], body["strokes"]), f"{score_id} stored other content"
        unknown = stored.keys() - acknowledged - unanswered
        assert not unknown, f"trial {trial}: stored ids nobody sent or nobody was told of: {sorted(unknown)[:3]}"
        assert unqueued == 0, f"trial {trial}: {unqueued} stored scores without an outbox entry"
        if point == "score.written":
            assert unanswered - stored.keys(), "the batch in the uncommitted transaction is gone, unanswered"
        else:
            assert unanswered & stored.keys(), "the committed batch is on disk though nobody in it was answered"
        listed = server.api("GET", f"/api/v1/rounds/{round_id}/scores")
        assert len(listed["events"]) == len(stored)
        summary.append(f"trial {trial} {point}: {len(acknowledged)} acknowledged, {len(unanswered)} unanswered "
                       f"({len(unanswered & stored.keys())} of them stored), 0 lost")
    print("\n".join(summary))
