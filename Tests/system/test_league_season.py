"""Two league seasons of eight nights each on one running server, through the API as a club's
scripts would drive them: two divisions, walk-ups added at check-in (one comes back later),
entry fees, a DNF, handicaps, and both points rules — season A places on net by the club's
table with points for taking part and the best 6 nights counting, season B on gross by field
size. Every table is checked against an independent computation of the rules in
docs/league-night.md ("League seasons"), and the season pages, CSV, round boards and handicap history agree."""
import csv
import io
import math
import random

HOLES = 9
PAR = 3
TABLE = [10, 8, 6, 5, 4, 3, 2, 1]


def away(value):
    """Rounds half away from zero, as the server does."""
    return math.copysign(math.floor(abs(value) + 0.5), value)


def handicap(earlier, percent=100):
    """The percentage method over the last 5 finished rounds (to par), scaled to 18 holes."""
    used = earlier[-5:]
    raw = sum(to_par * 18 / HOLES for to_par in used) / len(used) * percent / 100
    value = away(raw * 10) / 10
    return value, int(away(value * HOLES / 18))


def place_points(results, rule):
    """{player: (place or None, points)} of one division's night; results {player: (score, dnf)}."""
    finishers = sorted((score, player) for player, (score, dnf) in results.items() if not dnf)
    points, start = {}, 0
    while start < len(finishers):
        end = start
        while end + 1 < len(finishers) and finishers[end + 1][0] == finishers[start][0]:
            end += 1
        places = range(start + 1, end + 2)
        if rule == "table":
            values = [TABLE[min(p, len(TABLE)) - 1] for p in places]
        else:
            values = [len(finishers) - p + 1 for p in places]
        share = sum(values) // len(values)
        for _, player in finishers[start:end + 1]:
            points[player] = (start + 1, share)
        start = end + 1
    for player, (_, dnf) in results.items():
        if dnf:
            points[player] = (None, 0)
    return points


def expected_table(nights, season):
    """{division: [(position, player, points)]} for `nights`, a list of {player: (division, to_par, dnf, finished)}."""
    earlier, per_player = {}, {}
    for night in nights:
        by_division = {}
        for player, (division, to_par, dnf, finished) in night.items():
            score = to_par
            if season["net"] and len(earlier.get(player, [])) >= season["minimumRounds"]:
                score -= handicap(earlier[player])[1]
            by_division.setdefault(division, {})[player] = (score, dnf)
        for division, results in by_division.items():
            for player, (place, points) in place_points(results, season["rule"]).items():
                per_player.setdefault((division, player), []).append(points + season["participation"])
        for player, (_, to_par, _, finished) in night.items():
            if finished:
                earlier.setdefault(player, []).append(to_par)
    tables = {}
    for (division, player), points in per_player.items():
        best = season["bestNights"]
        counted = sorted(points, reverse=True)[:best] if best else points
        tables.setdefault(division, []).append((sum(counted), player))
    result = {}
    for division, rows in tables.items():
        rows.sort(key=lambda row: -row[0])
        positioned, start = [], 0
        while start < len(rows):
            end = start
            while end + 1 < len(rows) and rows[end + 1][0] == rows[start][0]:
                end += 1
            label = f"T{start + 1}" if end > start else str(start + 1)
            positioned += [(label, player, total) for total, player in rows[start:end + 1]]
            start = end + 1
        result[division] = positioned
    return result


def play_season(server, name, body, course_id, club, rng):
    season = server.api("POST", "/api/v1/seasons", {"name": name, "divisions": ["MPO", "FPO"], **body})
    nights, walk_ups, returning = [], {}, None
    for number in range(1, 9):
        event = server.api("POST", "/api/v1/events", {"name": f"{name} night {number}", "divisions": ["MPO", "FPO"], "seasonID": season["id"]})
        entries = {}
        for index, (player, division) in enumerate(club):
            if rng.random() < 0.15:
                continue  # missed this night
            checked = server.api("POST", f"/api/v1/events/{event['id']}/checkins",
                                 {"playerID": player, "division": division, "paid": index % 2 == 0})
            entries[checked["playerID"]] = division
        # A walk-up each night, in alternating divisions; the night-2 walk-up comes back on night 5.
        division = "MPO" if number % 2 else "FPO"
        walk_up = server.api("POST", f"/api/v1/events/{event['id']}/checkins",
                             {"walkUp": {"displayName": f"{name} walk-up {number}"}, "division": division, "paid": True})
        entries[walk_up["playerID"]] = division
        walk_ups[walk_up["playerID"]] = division
        if number == 2:
            returning = walk_up["playerID"]
        if number == 5:
            again = server.api("POST", f"/api/v1/events/{event['id']}/checkins", {"playerID": returning, "division": walk_ups[returning]})
            entries[again["playerID"]] = walk_ups[returning]
        listed = server.api("GET", f"/api/v1/events/{event['id']}/checkins")
        assert {row["playerID"] for row in listed["checkins"]} == set(entries)

        round_ = server.api("POST", "/api/v1/rounds", {"courseID": course_id, "eventID": event["id"], "start": True,
                                                       "players": [{"playerID": p, "division": d} for p, d in entries.items()]})
        night, quitter = {}, (sorted(entries)[0] if number == 3 else None)
        for player, division in entries.items():
            strokes = [rng.choice([2, 3, 3, 3, 4, 4, 5]) for _ in range(HOLES)]
            played = strokes[:-2] if player == quitter else strokes
            for hole, count in enumerate(played, start=1):
                server.api("POST", f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player, "hole": hole, "strokes": count})
            night[player] = (division, sum(played) - PAR * len(played), player == quitter, player != quitter)
        server.api("POST", f"/api/v1/rounds/{round_['id']}/complete", {})
        nights.append(night)
    return season, nights, round_["id"]


def test_two_eight_night_seasons_end_to_end(servers):
    server = servers.server("league", handle="coach")
    server.start()
    rng = random.Random(26)
    course = server.api("POST", "/api/v1/courses", {"name": "Nine", "holes": [{"number": n, "par": PAR} for n in range(1, HOLES + 1)]})
    club = []
    for index in range(10):
        player = server.api("POST", "/api/v1/players", {"displayName": f"Player {index:02}", "handle": f"player{index:02}"})
        club.append((player["id"], "MPO" if index < 6 else "FPO"))

    rules = {
        "A": {"net": True, "rule": "table", "participation": 1, "bestNights": 6, "minimumRounds": 2},
        "B": {"net": False, "rule": "fieldSize", "participation": 0, "bestNights": None, "minimumRounds": 3},
    }
    a, a_nights, a_last = play_season(server, "Season A", {
        "placesBy": "net", "points": {"rule": "table", "table": TABLE, "pastTable": "last", "participation": 1, "bestNights": 6},
        "handicap": {"method": "percentage", "percent": 100, "minimumRounds": 2}}, course["id"], club, rng)
    b, b_nights, _ = play_season(server, "Season B", {
        "placesBy": "gross", "points": {"rule": "fieldSize"}, "handicap": {"method": "bestOfRecent"}}, course["id"], club, rng)

    for season, nights, rule in ((a, a_nights, rules["A"]), (b, b_nights, rules["B"])):
        table = server.api("GET", f"/api/v1/seasons/{season['id']}/standings")
        got = {d["name"]: [(row["position"], row["playerID"], row["points"]) for row in d["standings"]] for d in table["divisions"]}
        want = expected_table(nights, rule)
        assert set(got) == {"MPO", "FPO"}
        for division in ("MPO", "FPO"):
            assert sorted(got[division], key=lambda r: r[1]) == sorted(want[division], key=lambda r: r[1]), f"{season['name']} {division}"
            assert [r[2] for r in got[division]] == sorted((r[2] for r in got[division]), reverse=True)
        # Every night is listed per player; season A counts 6 of them at most.
        for division in table["divisions"]:
            for row in division["standings"]:
                counted = [n for n in row["nights"] if n["counted"]]
                assert row["nightsCounted"] == len(counted) and (rule["bestNights"] is None or len(counted) <= rule["bestNights"])
        # The page and the CSV say the same.
        page = server.request("GET", f"/seasons/{season['id']}")[1]
        assert season["name"] in page and "walk-up 2" in page
        status, headers, text = server.exchange("GET", f"/seasons/{season['id']}/standings.csv")
        assert status == 200 and headers["Content-Type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
        assert len(rows) - 1 == sum(len(d["standings"]) for d in table["divisions"])

    # Season A's last round shows net beside gross; handicap history lists its nights.
    entries = server.api("GET", f"/api/v1/rounds/{a_last}/standings")["standings"]
    assert all("net" in entry and "netPosition" in entry for entry in entries)
    assert any("handicap" in entry for entry in entries)
    regular = club[0][0]
    history = server.api("GET", f"/api/v1/players/{regular}/handicaps")
    assert history["history"], "a regular has a handicap on later nights"
    assert {h["method"] for h in history["history"]} <= {"percentage", "bestOfRecent"}
    walk_up_2 = next(row for d in server.api("GET", f"/api/v1/seasons/{a['id']}/standings")["divisions"]
                     for row in d["standings"] if row["displayName"] == "Season A walk-up 2")
    assert len(walk_up_2["nights"]) == 2, "the night-2 walk-up came back on night 5"
