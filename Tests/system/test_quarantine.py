"""Sync never drops a record in silence, against a real PostgreSQL cloud.

Two `hyzer serve` instances share the cloud. The cloud also gets two rows no build of today
reads, written straight into PostgreSQL: a player whose payload is damaged, and a record of
a type a newer version would write ("trophy"). Instance B runs as a build that does not know
fee payments yet (HYZER_TEST_UNKNOWN_TYPES: a newer build cannot be made on demand, so this
one reads a type it knows as unknown).

B must apply everything readable, keep the three others with their reasons (API, /sync,
/metrics), and, restarted as a build that knows fee payments, apply the payment it kept.
"""
import json
import re
import time
import uuid

import pytest

from conftest import Postgres

WAIT = 30


@pytest.fixture
def postgres():
    server = Postgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


def wait_for(what, probe, timeout=WAIT):
    """Polls `probe` until it returns something true, asking B to sync meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def inject(postgres, type_, id_, payload):
    """A row as another device's build (or a damaged one) would leave it, with the zone's
    next change number and the hint the instances listen for."""
    hlc = f"{int(time.time() * 1000):015d}-{0:010d}-{str(uuid.uuid4()).upper()}"
    postgres.psql(
        "WITH z AS (UPDATE hyzer_zones SET seq = seq + 1 WHERE zone = 'club' RETURNING seq) "
        "INSERT INTO hyzer_records (zone, type, id, hlc, payload, seq) "
        f"SELECT 'club', '{type_}', '{id_}', '{hlc}', convert_to('{payload}', 'UTF8'), seq FROM z; "
        "SELECT pg_notify('hyzer_changes', 'club system-test');", url=postgres.url)


def quarantined(server):
    return server.api("GET", "/api/v1/sync")["quarantined"]


def test_unreadable_rows_are_kept_and_a_build_that_reads_them_applies_them(servers, postgres):
    flags = ["--cloud", postgres.url, "--backup-interval", "off"]
    a = servers.server("quarantine-a", extra=flags, handle="ada.coach")
    b = servers.server("quarantine-b", extra=flags, handle="ben.coach")
    a.start()
    older = {"HYZER_TEST_UNKNOWN_TYPES": "feePayment"}
    b.start(env=older)

    night = a.api("POST", "/api/v1/events", {"name": "Week 1", "divisions": ["MPO"]})
    dee = a.api("POST", "/api/v1/players", {"displayName": "Dee", "handle": "dee"})
    a.api("POST", f"/api/v1/events/{night['id']}/checkins", {"playerID": dee["id"], "division": "MPO", "paid": True})
    course = a.api("POST", "/api/v1/courses", {"name": "Quarantine Park", "holes": [{"number": n, "par": 3} for n in range(1, 10)]})
    round_ = a.api("POST", "/api/v1/rounds", {"courseID": course["id"], "name": "Q round", "start": True,
                                              "players": [{"playerID": dee["id"]}]})
    a.api("POST", f"/api/v1/rounds/{round_['id']}/scores", {"playerID": dee["id"], "hole": 1, "strokes": 3})
    damaged = str(uuid.uuid4())
    inject(postgres, "player", damaged, "not json")
    inject(postgres, "trophy", "trophy-3", '{"tag": 3}')

    # Everything readable reaches B; the three others are kept, not skipped.
    wait_for("B to keep three records", lambda: b.request("POST", "/api/v1/sync/now") and quarantined(b) == 3)
    def scores_on_b():
        status, body = b.request("GET", f"/api/v1/rounds/{round_['id']}")
        return status == 200 and body
    wait_for("A's round on B", scores_on_b)
    listed = b.api("GET", f"/api/v1/events/{night['id']}/checkins")
    assert [row["playerID"] for row in listed["checkins"]] == [dee["id"]]
    assert b.api("GET", f"/api/v1/events/{night['id']}/fees")["payments"] == [], "B reads no fee payments yet"
    status, page = b.request("GET", "/sync")
    assert status == 200 and "Records kept unread (3)" in page, page
    assert "not JSON" in page and "trophy" in page and damaged in page
    assert "does not know the record type &quot;feePayment&quot;" in page
    status, metrics = b.request("GET", "/metrics", auth=False)
    assert re.search(r'(?m)^hyzer_sync_records_total\{[^}]*result="quarantined"[^}]*\} 3(\.0)?$', metrics), metrics
    assert "kept in the quarantine" in b.log_text()

    # Restarted as a build that knows fee payments: the payment applies, the rest stays.
    b.stop()
    b.start()
    wait_for("B to apply the fee payment", lambda: quarantined(b) == 2)
    payments = b.api("GET", f"/api/v1/events/{night['id']}/fees")["payments"]
    assert [(p["playerID"], p["paid"]) for p in payments] == [(dee["id"], True)]
    assert "Applied quarantined records this version can read" in b.log_text()
    # Nothing else was lost: A's own data on A is as it was, and B agrees on the round.
    round_on_b = b.api("GET", f"/api/v1/rounds/{round_['id']}")
    round_on_a = a.api("GET", f"/api/v1/rounds/{round_['id']}")
    assert json.dumps(round_on_b, sort_keys=True) == json.dumps(round_on_a, sort_keys=True)
