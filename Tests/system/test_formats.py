"""Formats through the API, as a league's scripts would drive them: a random-draw doubles
night with a cali (best shot) in a season, scored by the players on their phones' API, then a
stroke-play night of the same players. Every team score, position and season point is checked
against an independent computation written here, and the pages, the results CSV and the TV
show the teams."""
import csv
import io
import random

from conftest import PASSWORD

HOLES = 9
PAR = 3


def ranked(totals):
    """{id: position} by total (lower is better), ties sharing "T<n>" as the boards write them."""
    order = sorted(totals, key=lambda key: totals[key])
    positions = {}
    for index, key in enumerate(order):
        tied = [k for k in order if totals[k] == totals[key]]
        first = order.index(tied[0]) + 1
        positions[key] = f"T{first}" if len(tied) > 1 else str(first)
    return positions


def field_size_points(totals):
    """{id: points} by the field-size rule: first gets as many as finished, ties share the
    average of the places they cover, rounded down."""
    order = sorted(totals, key=lambda key: totals[key])
    count = len(order)
    points = {}
    for key in order:
        tied = [k for k in order if totals[k] == totals[key]]
        start = order.index(tied[0]) + 1
        places = range(start, start + len(tied))
        points[key] = sum(max(count - place + 1, 0) for place in places) // len(tied)
    return points


def athletes(server, name, count):
    """`count` athletes named "<name> <n>", each with their own API token (their phone):
    ({id: token}, {id: display name})."""
    tokens, names = {}, {}
    for index in range(count):
        handle = f"{name.lower()}{index}"
        server.cli("admin", "create-user", handle, "--role", "athlete", "--name", f"{name} {index}", input=PASSWORD + "\n")
        token = server.cli("admin", "token", handle).strip().splitlines()[-1].strip()
        me = next(p for p in server.api("GET", "/api/v1/players")["players"] if p["handle"] == handle)
        tokens[me["id"]], names[me["id"]] = token, me["displayName"]
    return tokens, names


def test_a_random_draw_doubles_night_with_a_cali(servers):
    server = servers.server("formats", handle="coach")
    server.start()
    rng = random.Random(42)
    course = server.api("POST", "/api/v1/courses", {"name": "Doubles Nine", "holes": [{"number": n, "par": PAR} for n in range(1, HOLES + 1)]})
    season = server.api("POST", "/api/v1/seasons", {"name": "Doubles season", "divisions": ["MA1"]})
    night = server.api("POST", "/api/v1/events", {"name": "Doubles night", "divisions": ["MA1"], "seasonID": season["id"]})["id"]

    # Nine players with their own tokens (their phones), all checked in.
    tokens, names = athletes(server, "Doubles", 9)
    for player in tokens:
        server.api("POST", f"/api/v1/events/{night}/checkins", {"playerID": player, "division": "MA1"})
    players = set(tokens)

    # Refused drafts write nothing.
    before = len(server.api("GET", "/api/v1/rounds")["rounds"])
    for body, field in [({"format": "bestShot"}, "teams"),
                        ({"format": "bestShot", "draw": {"teamsOf": 4}}, "draw"),
                        ({"format": "stroke", "draw": {"teamsOf": 2}}, "format"),
                        ({"format": "match", "draw": {"teamsOf": 2}}, "format"),
                        ({"format": "bestShot", "teams": [{"playerIDs": sorted(players)[:2]}]}, "teams")]:
        status, _, problem = server.exchange("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": night, **body})
        assert status == 422 and any(e["field"] == field for e in problem["errors"]), (body, problem)
    assert len(server.api("GET", "/api/v1/rounds")["rounds"]) == before

    # The draw: from the night's check-ins, four teams of two and a cali.
    round_ = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": night, "format": "bestShot",
                                                   "draw": {"teamsOf": 2, "balance": "none"}, "start": True})
    rid = round_["id"]
    teams = round_["teams"]
    assert round_["format"] == "bestShot" and round_["caliRule"] == "twoDiscs"
    assert sorted(len(t["playerIDs"]) for t in teams) == [1, 2, 2, 2, 2]
    assert [t["cali"] for t in teams if len(t["playerIDs"]) == 1] == [True] and not any(t["cali"] for t in teams if len(t["playerIDs"]) == 2)
    drawn = [p for t in teams for p in t["playerIDs"]]
    assert sorted(drawn) == sorted(players) and {p["id"] for p in round_["players"]} == players
    for team in teams:
        members = [names[p] for p in team["playerIDs"]]
        assert team["name"] == (f"{members[0]} (cali)" if team["cali"] else " & ".join(members))
    team_of = {p: t for t in teams for p in t["playerIDs"]}
    # The team round is the night's only round: its table cannot add teams to other rounds.
    status, _, problem = server.exchange("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": night,
                                                                     "players": [{"playerID": p, "division": "MA1"} for p in drawn[:2]]})
    assert status == 409 and "only round" in problem["detail"], problem

    # Cards: two teams to a card, team-mates together.
    cards = server.api("POST", f"/api/v1/rounds/{rid}/cards", {"auto": {"shotgun": True}})["cards"]
    for team in teams:
        assert sum(1 for card in cards if set(team["playerIDs"]) <= set(card["playerIDs"])) == 1, "a team is on one card"
    card_of = {p: card["id"] for card in cards for p in card["playerIDs"]}

    # Refusals: a player's own id, both ids, a team of another card, an unknown team.
    someone = drawn[0]
    mine = team_of[someone]
    other_card = next(t for t in teams if card_of[t["playerIDs"][0]] != card_of[someone])
    status, _, problem = server.exchange("POST", f"/api/v1/rounds/{rid}/scores", {"playerID": someone, "hole": 1, "strokes": 3},
                                         token=tokens[someone])
    assert status == 422 and mine["name"] in problem["errors"][0]["message"], problem
    status, _, _ = server.exchange("POST", f"/api/v1/rounds/{rid}/scores",
                                   {"playerID": someone, "teamID": mine["id"], "hole": 1, "strokes": 3}, token=tokens[someone])
    assert status == 422
    status, _, _ = server.exchange("POST", f"/api/v1/rounds/{rid}/scores", {"teamID": other_card["id"], "hole": 1, "strokes": 3},
                                   token=tokens[someone])
    assert status == 403
    status, _, _ = server.exchange("POST", f"/api/v1/rounds/{rid}/scores", {"teamID": "7b3c1e9e-0000-4000-8000-000000000000", "hole": 1,
                                                                             "strokes": 3})
    assert status == 422
    assert server.api("GET", f"/api/v1/rounds/{rid}/scores")["events"] == []

    # Every team scores every hole, entered by one of its players or a card-mate.
    strokes = {t["id"]: {} for t in teams}

    def check_board(label):
        totals = {tid: sum(holes.values()) for tid, holes in strokes.items() if holes}
        positions = ranked({tid: total - PAR * len(strokes[tid]) for tid, total in totals.items()})
        board = server.api("GET", f"/api/v1/rounds/{rid}/standings")["standings"]
        by_team = {row["teamID"]: row for row in board}
        assert set(by_team) == {t["id"] for t in teams}, label
        for team in teams:
            row = by_team[team["id"]]
            assert row["playerID"] == team["id"] and row["playerIDs"] == team["playerIDs"] and row["displayName"] == team["name"]
            holes = strokes[team["id"]]
            assert (row["thru"], row["strokes"]) == (len(holes), sum(holes.values())), (label, team["name"])
            if holes:
                assert row["toPar"] == sum(holes.values()) - PAR * len(holes) and row["position"] == positions[team["id"]], (label, row)

    for team in teams:
        scorers = team["playerIDs"] + [p for p in players if card_of[p] == card_of[team["playerIDs"][0]]]
        for hole in range(1, HOLES + 1):
            count = rng.choice([2, 2, 3, 3, 3, 4])
            server.api("POST", f"/api/v1/rounds/{rid}/scores", {"teamID": team["id"], "hole": hole, "strokes": count},
                       token=tokens[rng.choice(scorers)])
            strokes[team["id"]][hole] = count
        check_board(f"after {team['name']}")
    # A correction of a team's hole supersedes its score.
    fixed = teams[0]["id"]
    current = next(e for e in server.api("GET", f"/api/v1/rounds/{rid}/scores")["events"]
                   if e["playerID"] == fixed and e["hole"] == 5 and e["current"])
    server.api("POST", f"/api/v1/rounds/{rid}/scores", {"teamID": fixed, "hole": 5, "strokes": 1, "supersedes": current["id"]},
               token=tokens[teams[0]["playerIDs"][0]])
    strokes[fixed][5] = 1
    check_board("after the correction")

    # Pages, the results CSV and the TV show the teams.
    page = server.request("GET", f"/rounds/{rid}")[1]
    assert "Best shot" in page and "Two discs" in page and all(t["name"].replace("&", "&amp;") in page for t in teams)
    leaderboard = server.request("GET", f"/rounds/{rid}/leaderboard")[1]
    assert all(t["name"].replace("&", "&amp;") in leaderboard for t in teams)
    # A team has no player page and no handle: its name leads to the round's team list.
    assert not any(f"/players/{t['id']}" in leaderboard for t in teams) and 'class="handle">@<' not in leaderboard
    assert f'href="/rounds/{rid}#teams"' in leaderboard and 'id="teams"' in page
    status, _, text = server.exchange("GET", f"/rounds/{rid}/results.csv")
    assert status == 200
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert sorted(r[next(k for k in r if "name" in k.lower())] for r in rows) == sorted(t["name"] for t in teams), rows[:2]
    tv = server.request("GET", "/tv", auth=False)[1]
    assert teams[0]["name"].replace("&", "&amp;") in tv

    server.api("POST", f"/api/v1/rounds/{rid}/complete", {})

    # Night 2: the same players at stroke play.
    night2 = server.api("POST", "/api/v1/events", {"name": "Stroke night", "divisions": ["MA1"], "seasonID": season["id"]})["id"]
    stroke = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "eventID": night2, "start": True,
                                                   "players": [{"playerID": p, "division": "MA1"} for p in sorted(players)]})
    assert stroke["format"] == "stroke" and "teams" not in stroke
    solo = {}
    for player in sorted(players):
        solo[player] = 0
        for hole in range(1, HOLES + 1):
            count = rng.choice([2, 3, 3, 4])
            server.api("POST", f"/api/v1/rounds/{stroke['id']}/scores", {"playerID": player, "hole": hole, "strokes": count})
            solo[player] += count
    server.api("POST", f"/api/v1/rounds/{stroke['id']}/complete", {})

    # Season points: each player takes their team's points from night 1, their own from night 2.
    team_points = field_size_points({t["id"]: sum(strokes[t["id"]].values()) for t in teams})
    own_points = field_size_points(solo)
    want = {p: team_points[team_of[p]["id"]] + own_points[p] for p in players}
    table = server.api("GET", f"/api/v1/seasons/{season['id']}/standings")
    got = {row["playerID"]: row for division in table["divisions"] for row in division["standings"]}
    assert {p: got[p]["points"] for p in got} == want
    for player in players:
        nights = {n["eventID"]: n for n in got[player]["nights"]}
        assert nights[night]["points"] == team_points[team_of[player]["id"]] and nights[night2]["points"] == own_points[player]
    assert all(got[p]["displayName"] == names[p] for p in players)
    # A team round rates nobody: only the stroke round has ratings.
    assert server.api("GET", f"/api/v1/rounds/{rid}/ratings")["ratings"] == []


def match_result(a_holes, b_holes, regulation):
    """(winner "a"|"b", result text, holes up for a) by match play, computed here: the lower
    score wins a hole; decided once the lead passes the holes left ("3&2"), or up after the
    last ("1up"); level, the first hole won after it decides ("20th")."""
    up = 0
    for played, (a, b) in enumerate(zip(a_holes, b_holes), start=1):
        up += (a < b) - (b < a)
        left = regulation - played
        if played < regulation and abs(up) > left:
            return ("a" if up > 0 else "b"), f"{abs(up)}&{left}", up
        if played == regulation and up:
            return ("a" if up > 0 else "b"), f"{abs(up)}up", up
        if played > regulation and a != b:
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(played % 10 if played % 100 not in (11, 12, 13) else 0, "th")
            return ("a" if a < b else "b"), f"{played}{suffix}", up
    return None, None, up


def test_a_twelve_player_bracket_with_byes_and_a_sudden_death(servers):
    server = servers.server("bracket", handle="coach")
    server.start()
    rng = random.Random(7)
    holes = 6
    course = server.api("POST", "/api/v1/courses", {"name": "Match Six", "holes": [{"number": n, "par": 3} for n in range(1, holes + 1)]})
    cup = server.api("POST", "/api/v1/events", {"name": "Club match play"})["id"]
    seeds = [server.api("POST", "/api/v1/players", {"displayName": f"Seed {n:02}", "handle": f"seed{n}"})["id"] for n in range(1, 13)]

    # Refused brackets write nothing.
    for body, field in [({"seeds": seeds[:1]}, "seeds"), ({"seeds": [seeds[0], seeds[0]]}, "seeds"),
                        ({"seeds": seeds, "players": seeds}, "seeds"), ({"players": seeds, "seedBy": "luck"}, "seedBy"),
                        ({"seeds": seeds, "kind": "double"}, "kind")]:
        status, _, problem = server.exchange("POST", f"/api/v1/events/{cup}/bracket", body)
        assert status == 422 and any(e["field"] == field for e in problem["errors"]), (body, problem)
    assert server.exchange("GET", f"/api/v1/events/{cup}/bracket")[0] == 404

    bracket = server.api("POST", f"/api/v1/events/{cup}/bracket", {"seeds": seeds, "kind": "single"})
    assert [len(r["matches"]) for r in bracket["rounds"]] == [8, 4, 2, 1]
    assert [r["name"] for r in bracket["rounds"]] == ["Round 1", "Quarter-finals", "Semi-finals", "Final"]
    assert server.exchange("POST", f"/api/v1/events/{cup}/bracket", {"seeds": seeds})[0] == 409

    # The independent bracket: 16 slots in seeding order, seeds 13-16 absent (byes for 1-4).
    order = [1, 2]
    while len(order) < 16:
        order = [s for seed in order for s in (seed, len(order) * 2 + 1 - seed)]
    slots = [seeds[s - 1] if s <= 12 else None for s in order]
    first = bracket["rounds"][0]["matches"]
    for index, match in enumerate(first):
        assert (match.get("a"), match.get("b")) == (slots[2 * index], slots[2 * index + 1]), index
        assert match["bye"] == (slots[2 * index + 1] is None)
    assert sum(m["bye"] for m in first) == 4

    def play(match_id, a, b, a_holes, b_holes):
        """Plays a match round through the API, as the players enter their scores."""
        round_ = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "format": "match", "matchID": match_id, "start": True})
        assert round_["format"] == "match" and [p["id"] for p in round_["players"]] == [a, b]
        for hole, (x, y) in enumerate(zip(a_holes, b_holes), start=1):
            server.api("POST", f"/api/v1/rounds/{round_['id']}/scores", {"playerID": a, "hole": hole, "strokes": x})
            server.api("POST", f"/api/v1/rounds/{round_['id']}/scores", {"playerID": b, "hole": hole, "strokes": y})
        server.api("POST", f"/api/v1/rounds/{round_['id']}/complete", {})
        return round_["id"]

    winners = {}  # slot in the next round ← winner, computed here
    entrants = slots
    sudden_death_played = False
    for number in range(4):
        state = server.api("GET", f"/api/v1/events/{cup}/bracket")["rounds"][number]["matches"]
        next_entrants = []
        for index, match in enumerate(state):
            a, b = entrants[2 * index], entrants[2 * index + 1]
            assert (match.get("a"), match.get("b")) == (a, b), (number, index)
            if a is None or b is None:
                assert match["bye"] and match.get("winner") == (a or b) and match["result"] is None
                next_entrants.append(a or b)
                continue
            if number == 0 and index == 1 and not sudden_death_played:
                # Level after the round: a sudden-death round decides it on the 8th hole.
                a_holes, b_holes = [3, 2, 4, 3, 3, 3], [2, 3, 3, 4, 3, 3]
                play(match["id"], a, b, a_holes, b_holes)
                level = next(m for m in server.api("GET", f"/api/v1/events/{cup}/bracket")["rounds"][0]["matches"] if m["id"] == match["id"])
                assert level.get("winner") is None and level["result"] is None and level["holesUp"] == 0 and level["played"] == holes
                extra = ([3, 3, 3, 3, 3, 3], [3, 2, 3, 3, 3, 3])
                sudden = play(match["id"], a, b, *extra)
                a_holes, b_holes = a_holes + extra[0], b_holes + extra[1]
                sudden_death_played = True
                rounds = [sudden]
            else:
                a_holes = [rng.choice([2, 3, 3, 4]) for _ in range(holes)]
                b_holes = [rng.choice([2, 3, 3, 4]) for _ in range(holes)]
                while match_result(a_holes, b_holes, holes)[0] is None:
                    b_holes[-1] = rng.choice([2, 4])
                rounds = [play(match["id"], a, b, a_holes, b_holes)]
            side, result, up = match_result(a_holes, b_holes, holes)
            decided = next(m for m in server.api("GET", f"/api/v1/events/{cup}/bracket")["rounds"][number]["matches"] if m["id"] == match["id"])
            assert (decided.get("winner"), decided["result"]) == ((a if side == "a" else b), result), (number, index, a_holes, b_holes)
            assert decided["holesUp"] == up and decided["roundID"] == rounds[-1]
            next_entrants.append(a if side == "a" else b)
        entrants = next_entrants
        winners[number] = next_entrants
    assert sudden_death_played
    final = server.api("GET", f"/api/v1/events/{cup}/bracket")
    assert final.get("champion") == winners[3][0]
    # A decided match takes no more rounds; a match waiting for its players takes none either.
    decided_id = final["rounds"][0]["matches"][1]["id"]
    status, _, _ = server.exchange("POST", "/api/v1/rounds", {"courseID": course["id"], "format": "match", "matchID": decided_id})
    assert status == 409
    assert any(r["result"] and r["result"].endswith("th") for r in final["rounds"][0]["matches"])


def test_a_corrected_match_replays_the_matches_after_it(servers):
    server = servers.server("bracket-fix", handle="coach")
    server.start()
    course = server.api("POST", "/api/v1/courses", {"name": "Match Three", "holes": [{"number": n, "par": 3} for n in range(1, 4)]})
    cup = server.api("POST", "/api/v1/events", {"name": "Small cup"})["id"]
    s1, s2, s3 = (server.api("POST", "/api/v1/players", {"displayName": f"Fix {n}", "handle": f"fix{n}"})["id"] for n in range(1, 4))
    bracket = server.api("POST", f"/api/v1/events/{cup}/bracket", {"seeds": [s1, s2, s3]})
    semi = next(m for m in bracket["rounds"][0]["matches"] if not m["bye"])
    assert (semi["a"], semi["b"]) == (s2, s3)
    semi_round = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "format": "match", "matchID": semi["id"]})["id"]
    for hole, (x, y) in enumerate([(3, 3), (3, 3), (2, 3)], start=1):
        server.api("POST", f"/api/v1/rounds/{semi_round}/scores", {"playerID": s2, "hole": hole, "strokes": x})
        server.api("POST", f"/api/v1/rounds/{semi_round}/scores", {"playerID": s3, "hole": hole, "strokes": y})
    final = server.api("GET", f"/api/v1/events/{cup}/bracket")["rounds"][1]["matches"][0]
    assert (final["a"], final["b"]) == (s1, s2)
    # A bracket match's players stay its two: nobody joins or leaves the round.
    final_round = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "format": "match", "matchID": final["id"]})["id"]
    assert server.exchange("POST", f"/api/v1/rounds/{final_round}/players", {"playerID": s3})[0] == 409
    assert server.exchange("DELETE", f"/api/v1/rounds/{final_round}/players/{s2}")[0] == 409
    server.api("POST", f"/api/v1/rounds/{final_round}/scores", {"playerID": s1, "hole": 1, "strokes": 2})
    server.api("POST", f"/api/v1/rounds/{final_round}/scores", {"playerID": s2, "hole": 1, "strokes": 3})
    assert server.api("GET", f"/api/v1/events/{cup}/bracket")["rounds"][1]["matches"][0]["holesUp"] == 1

    # The semi-final's last hole is corrected: s3 wins it, so the final is s1 v s3, and the round
    # s1 and s2 began no longer counts for it.
    last = next(e for e in server.api("GET", f"/api/v1/rounds/{semi_round}/scores")["events"] if e["playerID"] == s2 and e["hole"] == 3)
    server.api("POST", f"/api/v1/rounds/{semi_round}/scores", {"playerID": s2, "hole": 3, "strokes": 4, "supersedes": last["id"]})
    now = server.api("GET", f"/api/v1/events/{cup}/bracket")
    assert now["rounds"][0]["matches"][1]["winner"] == s3 and now["rounds"][0]["matches"][1]["result"] == "1up"
    final = now["rounds"][1]["matches"][0]
    assert (final["a"], final["b"], final["roundIDs"], final["holesUp"], final["result"]) == (s1, s3, [], 0, None)
    replay = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "format": "match", "matchID": final["id"]})
    assert [p["id"] for p in replay["players"]] == [s1, s3]
    assert server.api("GET", f"/api/v1/events/{cup}/bracket")["rounds"][1]["matches"][0]["roundID"] == replay["id"]
