"""A putting league night through the API, as a club's phones would score it: stations at two
distances, a few putts from each, points per made putt. Every player's points, putts made and
position after each entry, and the night's season points, are checked against an independent
computation written here; refusals write nothing; putting rates nobody and wins no ace pot."""
import csv
import io
import random
import time

from test_formats import athletes, field_size_points, ranked

LAYOUT = {"stations": 4, "distances": [{"feet": 15, "points": 1}, {"feet": 25, "points": 2}, {"feet": 33, "points": 3}], "putts": 3}


def lies(layout):
    """[(lie number, station, feet, points)]: each station's distances in turn."""
    out = []
    for station in range(1, layout["stations"] + 1):
        for offset, distance in enumerate(layout["distances"]):
            out.append((len(out) + 1, station, distance["feet"], distance["points"]))
    return out


def test_a_putting_night_scored_by_its_players(servers, tmp_path):
    cloud = tmp_path / "cloud.sqlite"
    server = servers.server("putting", handle="coach", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    server.start()
    rng = random.Random(7)
    course = server.api("POST", "/api/v1/courses", {"name": "Clubhouse green", "holes": [{"number": n, "par": 3} for n in range(1, 10)]})
    season = server.api("POST", "/api/v1/seasons", {"name": "Winter putting", "divisions": ["Open"]})
    night = server.api("POST", "/api/v1/events", {"name": "Putting night 1", "divisions": ["Open"], "seasonID": season["id"]})["id"]
    tokens, names = athletes(server, "Putter", 7)
    players = sorted(tokens)
    entries = [{"playerID": p, "division": "Open"} for p in players]

    # Refused layouts write nothing, and each names its field.
    before = len(server.api("GET", "/api/v1/rounds")["rounds"])
    for body, field in [({"format": "putting"}, "putting"),
                        ({"format": "putting", "putting": {**LAYOUT, "stations": 0}}, "putting.stations"),
                        ({"format": "putting", "putting": {**LAYOUT, "putts": 11}}, "putting.putts"),
                        ({"format": "putting", "putting": {**LAYOUT, "distances": [{"feet": 15, "points": 1}] * 2}}, "putting.distances"),
                        ({"format": "stroke", "putting": LAYOUT}, "putting")]:
        status, _, problem = server.exchange("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": night, "players": entries, **body})
        assert status == 422 and any(e["field"] == field for e in problem["errors"]), (body, problem)
    assert len(server.api("GET", "/api/v1/rounds")["rounds"]) == before

    round_ = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": night, "players": entries, "start": True,
                                                   "format": "putting", "putting": LAYOUT})
    rid = round_["id"]
    layout = lies(LAYOUT)
    assert round_["format"] == "putting" and round_["putting"]["maxPoints"] == 4 * 3 * (1 + 2 + 3)
    assert [(l["number"], l["station"], l["feet"], l["points"]) for l in round_["putting"]["lies"]] == layout
    assert [h["number"] for h in round_["holes"]] == [l[0] for l in layout], "the lies are the round's holes"

    # Putts are entered lie by lie on the round page: a putting round has no cards.
    status, _, problem = server.exchange("POST", f"/api/v1/rounds/{rid}/cards", {"auto": {"shotgun": True}})
    assert status == 422 and "no cards" in problem["errors"][0]["message"], problem

    # Refused putts: past the putts, a lie not in the layout, strokes and made together,
    # someone else's putts (no card), penalties.
    someone = players[0]
    for body, status_wanted in [({"playerID": someone, "hole": 1, "made": 4}, 422),
                                ({"playerID": someone, "hole": 13, "made": 1}, 422),
                                ({"playerID": someone, "hole": 1, "made": -1}, 422),
                                ({"playerID": someone, "hole": 1, "made": 1, "strokes": 1}, 422),
                                ({"playerID": someone, "hole": 1, "made": 1, "penalties": 1}, 422),
                                ({"playerID": someone, "hole": 1, "strokes": 2}, 422),
                                ({"playerID": someone, "hole": 1, "strokes": "DNF"}, 422),
                                ({"playerID": players[1], "hole": 1, "made": 1}, 403)]:
        status, _, problem = server.exchange("POST", f"/api/v1/rounds/{rid}/scores", body, token=tokens[someone])
        assert status == status_wanted, (body, status, problem)
    assert server.api("GET", f"/api/v1/rounds/{rid}/scores")["events"] == []

    made = {p: {} for p in players}

    def check_board(label):
        points = {p: sum(count * layout[lie - 1][3] for lie, count in made[p].items()) for p in players}
        started = {p: -points[p] for p in players if made[p]}
        positions = ranked(started)
        board = server.api("GET", f"/api/v1/rounds/{rid}/standings")["standings"]
        assert [row["playerID"] for row in board if row["thru"]] == sorted(started, key=lambda p: (started[p], -len(made[p]), names[p], p)), label
        for row in board:
            p = row["playerID"]
            assert row["thru"] == len(made[p]) and row["strokes"] == sum(made[p].values()), (label, row)
            assert row["points"] == points[p], (label, row)
            assert row["position"] == (positions[p] if made[p] else "–"), (label, row)
        return points

    # Every player putts every lie on their own phone, one player at a time; the board is
    # checked after each.
    for player in players:
        for lie, _, _, _ in layout:
            count = rng.choice([0, 1, 1, 2, 2, 3])
            server.api("POST", f"/api/v1/rounds/{rid}/scores", {"playerID": player, "hole": lie, "made": count}, token=tokens[player])
            made[player][lie] = count
        check_board(f"after {names[player]}")
    # A coach corrects a lie: the new count supersedes the old.
    current = next(e for e in server.api("GET", f"/api/v1/rounds/{rid}/scores")["events"]
                   if e["playerID"] == players[2] and e["hole"] == 5 and e["current"])
    server.api("POST", f"/api/v1/rounds/{rid}/scores", {"playerID": players[2], "hole": 5, "made": 3, "supersedes": current["id"]})
    made[players[2]][5] = 3
    points = check_board("after the correction")

    # The pages: the layout, lies in the entry form, points on the board and the TV.
    page = server.request("GET", f"/rounds/{rid}")[1]
    assert "Putting" in page and "4 stations, each at 15 ft (1 point a putt), 25 ft (2 points a putt)" in page
    assert "Station 2 · 25 ft" in page and 'name="made"' in page
    leader = max(players, key=lambda p: points[p])
    board_html = server.request("GET", f"/rounds/{rid}/leaderboard")[1]
    assert ">Points</th>" in board_html and ">Made</th>" in board_html
    row = board_html[board_html.index(f'data-player="{leader}"'):]
    assert f'<td class="topar none">{points[leader]}</td>' in row[:row.index("</tr>")]
    assert names[leader] in server.request("GET", "/tv", auth=False)[1]

    # The results CSV and the night's page say points, not to par.
    status, _, text = server.exchange("GET", f"/rounds/{rid}/results.csv")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert status == 200 and "To par" not in rows[0]
    assert {r["Name"]: (int(r["Points"]), int(r["Total"])) for r in rows} == {names[p]: (points[p], sum(made[p].values())) for p in players}
    night_page = server.request("GET", f"/events/{night}")[1]
    assert ">Points</th>" in night_page and ">Made</th>" in night_page and "To par" not in night_page
    assert "Holes ·" not in night_page, "putts are no hole statistics"
    # A putting round is its night's only round.
    status, _, problem = server.exchange("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": night, "players": entries})
    assert status == 409 and "only round" in problem["detail"], problem

    # Every player signs for their putts: the lies are what must be entered, not the course's holes.
    for player in players:
        server.api("POST", f"/api/v1/rounds/{rid}/signatures", {"playerID": player}, token=tokens[player])

    server.api("POST", f"/api/v1/rounds/{rid}/complete", {})

    # Season points go by points (the most first), with the same field-size rule as stroke play.
    want = field_size_points({p: -points[p] for p in players})
    table = server.api("GET", f"/api/v1/seasons/{season['id']}/standings")
    got = {row["playerID"]: row["points"] for division in table["divisions"] for row in division["standings"]}
    assert got == want
    # Putts are not throws: nobody is rated, and a single made putt is no ace; the player page
    # lists no putting night among a player's rounds.
    assert "rates nobody" in server.api("GET", f"/api/v1/rounds/{rid}/ratings")["reason"]
    assert rid not in server.request("GET", f"/players/{players[0]}")[1]
    assert server.api("GET", f"/api/v1/rounds/{rid}/ratings")["ratings"] == []
    assert server.api("GET", f"/api/v1/events/{night}/money")["aces"] == []

    # A second device on the same cloud has every putt, the misses (0 made) included, and the
    # same board.
    assert any(count == 0 for lies_made in made.values() for count in lies_made.values())
    other = servers.server("putting-b", handle="coach", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    other.start()
    want_board = server.api("GET", f"/api/v1/rounds/{rid}/standings")["standings"]
    deadline = time.monotonic() + 30
    while True:
        status, _, board = other.exchange("GET", f"/api/v1/rounds/{rid}/standings")
        if status == 200 and board["standings"] == want_board:
            break
        assert time.monotonic() < deadline, f"the second device never showed the same board: {board}"
        time.sleep(0.1)
    assert other.api("GET", f"/api/v1/rounds/{rid}")["putting"] == round_["putting"]
