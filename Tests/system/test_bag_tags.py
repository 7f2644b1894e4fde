"""A season of bag-tag rounds through the API, as a club's scripts would drive it: tags
assigned, random rounds with ties and DNFs, players who hold no tag, a trade and a reclaim
between rounds, and a correction to an earlier round after later ones completed. After every
step the holders the server derives are checked against an independent computation of the rule
in docs/bag-tags.md, written here; a second device on the same cloud derives the same holders,
and the pool's page, CSV and round pages agree."""
import csv
import io
import random
import time

HOLES = 9


def swap(holders, finishers):
    """holders {player: tag}; finishers {player: strokes}. The rule: finishers holding a tag,
    ordered by strokes then incoming tag, take the pooled tags lowest first."""
    entering = [(strokes, holders[player], player) for player, strokes in finishers.items() if player in holders]
    entering.sort()
    tags = sorted(tag for _, tag, _ in entering)
    result = dict(holders)
    for (_, _, player), tag in zip(entering, tags):
        result[player] = tag
    return result


def replay(steps, rounds):
    """Steps in the order they happened: ("assign", tag, player), ("reclaim", tag),
    ("trade", a, b) and ("round", round_id); rounds {round_id: {player: strokes}} as they stand
    now (completed rounds' finishers)."""
    holders = {}
    for step in steps:
        kind = step[0]
        if kind == "assign":
            holders = {p: t for p, t in holders.items() if t != step[1]}
            holders[step[2]] = step[1]
        elif kind == "reclaim":
            holders = {p: t for p, t in holders.items() if t != step[1]}
        elif kind == "trade":
            a, b = step[1], step[2]
            holders[a], holders[b] = holders[b], holders[a]
        elif kind == "round" and step[1] in rounds:
            holders = swap(holders, rounds[step[1]])
    return holders


def served(server, pool_id):
    pool = server.api("GET", f"/api/v1/tags/{pool_id}")
    return {holder["playerID"]: holder["tag"] for holder in pool["holders"]}


def play(server, course_id, pool_id, players, rng, tie=False, dnf=None):
    """A tag round of `players`, every hole scored, completed; returns (round id, {player: strokes}) of its finishers."""
    round_ = server.api("POST", "/api/v1/rounds", {"courseID": course_id, "start": True, "tagsID": pool_id,
                                                   "players": [{"playerID": p} for p in players]})
    assert round_["tagsID"] == pool_id
    totals, scores = {}, {}
    for index, player in enumerate(players):
        strokes = [rng.randint(2, 5) for _ in range(HOLES)]
        if tie and index == 1:
            strokes = list(scores[players[0]])
        scores[player] = strokes
        for hole, count in enumerate(strokes, start=1):
            value = "DNF" if player == dnf and hole == HOLES else count
            event = server.api("POST", f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player, "hole": hole, "strokes": value})
            scores.setdefault(("events", player), {})[hole] = event["event"]["id"]
        if player != dnf:
            totals[player] = sum(strokes)
    server.api("POST", f"/api/v1/rounds/{round_['id']}/complete", {})
    return round_["id"], totals, scores


def test_a_season_of_tag_rounds_end_to_end(servers, tmp_path):
    cloud = tmp_path / "cloud.sqlite"
    server = servers.server("tags-a", handle="coach", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    server.start()
    rng = random.Random(40)
    course = server.api("POST", "/api/v1/courses", {"name": "Tag Nine", "holes": [{"number": n, "par": 3} for n in range(1, HOLES + 1)]})
    players = [server.api("POST", "/api/v1/players", {"displayName": f"Tagger {i:02}", "handle": f"tagger{i:02}"})["id"] for i in range(10)]
    pool = server.api("POST", "/api/v1/tags", {"name": "Club tags", "tags": 12})
    assert pool["unassigned"] == list(range(1, 13)) and pool["holders"] == []

    steps, rounds = [], {}

    def check(label):
        expected = replay(steps, rounds)
        assert served(server, pool["id"]) == expected, label

    for index, player in enumerate(players[:8]):
        server.api("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "assign", "tag": index + 1, "playerID": player})
        steps.append(("assign", index + 1, player))
    check("after assigning")

    # Refused moves write nothing.
    status, _, _ = server.exchange("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "assign", "tag": 1, "playerID": players[9]})
    assert status == 409
    status, _, _ = server.exchange("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "assign", "tag": 40, "playerID": players[9]})
    assert status == 422
    status, _, _ = server.exchange("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "trade", "playerIDs": [players[0], players[9]]})
    assert status == 409
    check("after refused moves")

    plays = {}
    for number in range(6):
        field = rng.sample(players, 7)
        dnf = field[-1] if number in (1, 4) else None
        round_id, totals, scores = play(server, course["id"], pool["id"], field, rng, tie=number in (0, 3), dnf=dnf)
        steps.append(("round", round_id))
        rounds[round_id] = totals
        plays[round_id] = (field, scores)
        check(f"after round {number + 1}")
        if number == 1:
            holders = replay(steps, rounds)
            a, b = sorted(holders, key=holders.get)[:2]
            server.api("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "trade", "playerIDs": [b, a]})
            steps.append(("trade", b, a))
            check("after a trade")
        if number == 3:
            holders = replay(steps, rounds)
            lost = max(holders.values())
            server.api("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "reclaim", "tag": lost})
            steps.append(("reclaim", lost))
            server.api("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "assign", "tag": 12, "playerID": players[9]})
            steps.append(("assign", 12, players[9]))
            check("after a reclaim and an assignment")

    # No move while a tag round of the pool is in play: it would fall before the round's swap.
    playing = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "start": True, "tagsID": pool["id"],
                                                    "players": [{"playerID": p} for p in players[:2]]})
    status, _, refusal = server.exchange("POST", f"/api/v1/tags/{pool['id']}/moves", {"kind": "reclaim", "tag": 1})
    assert status == 409 and "in play" in refusal["detail"], refusal
    server.api("DELETE", f"/api/v1/rounds/{playing['id']}", expect=(200, 204))
    check("a refused move wrote nothing")

    # A challenge, accepted: a tag round of its two players on the course, exchanged like any.
    holders = replay(steps, rounds)
    low, high = sorted(holders, key=holders.get)[-2:]
    for body, expected in (({"challengerID": high, "challengedIDs": [low], "days": 0}, 422),
                           ({"challengerID": high, "challengedIDs": [high]}, 422),
                           ({"challengerID": high, "challengedIDs": [players[8]]}, 422),
                           ({"challengerID": high, "challengedIDs": ["not-an-id"]}, 422)):
        status, _, refusal = server.exchange("POST", f"/api/v1/tags/{pool['id']}/challenges", body)
        assert status == expected, (body, status, refusal)
    assert server.api("GET", f"/api/v1/tags/{pool['id']}/challenges")["challenges"] == [], "refused challenges wrote nothing"
    challenge = server.api("POST", f"/api/v1/tags/{pool['id']}/challenges", {"challengerID": high, "challengedIDs": [low]})
    assert challenge["status"] == "open"
    accepted = server.api("POST", f"/api/v1/tags/{pool['id']}/challenges/{challenge['id']}", {"answer": "accept", "courseID": course["id"]})
    assert accepted["status"] == "accepted" and accepted["roundID"]
    duel = accepted["roundID"]
    assert server.api("GET", f"/api/v1/rounds/{duel}")["tagsID"] == pool["id"]
    for player, strokes in ((high, 2), (low, 4)):
        for hole in range(1, HOLES + 1):
            server.api("POST", f"/api/v1/rounds/{duel}/scores", {"playerID": player, "hole": hole, "strokes": strokes})
    server.api("POST", f"/api/v1/rounds/{duel}/complete", {})
    steps.append(("round", duel))
    rounds[duel] = {high: 2 * HOLES, low: 4 * HOLES}
    check("after an accepted challenge")
    assert served(server, pool["id"])[high] == holders[low], "the challenger took the lower tag"
    # Another, declined; answering it twice is refused.
    second_challenge = server.api("POST", f"/api/v1/tags/{pool['id']}/challenges", {"challengerID": low, "challengedIDs": [high]})
    assert server.api("POST", f"/api/v1/tags/{pool['id']}/challenges/{second_challenge['id']}", {"answer": "decline"})["status"] == "declined"
    status, _, _ = server.exchange("POST", f"/api/v1/tags/{pool['id']}/challenges/{second_challenge['id']}", {"answer": "accept", "courseID": course["id"]})
    assert status == 409
    listed = {c["id"]: c["status"] for c in server.api("GET", f"/api/v1/tags/{pool['id']}/challenges")["challenges"]}
    assert listed == {challenge["id"]: "accepted", second_challenge["id"]: "declined"}
    check("a declined challenge moves nothing")

    # A correction to round 2 after four later rounds: its winner took 20 more on the first
    # hole, which puts them last there.
    second = [step[1] for step in steps if step[0] == "round"][1]
    field, scores = plays[second]
    finishers = dict(rounds[second])
    winner = min(finishers, key=lambda p: (finishers[p], p))
    server.api("POST", f"/api/v1/rounds/{second}/reopen", {})
    del rounds[second]
    check("a reopened tag round gives its swap back")
    server.api("POST", f"/api/v1/rounds/{second}/scores",
               {"playerID": winner, "hole": 1, "strokes": scores[winner][0] + 20, "supersedes": scores[("events", winner)][1]})
    server.api("POST", f"/api/v1/rounds/{second}/complete", {})
    finishers[winner] += 20
    rounds[second] = finishers
    check("a correction re-derives every later swap")

    # The history lists every change in order, the rounds' exchanges among them.
    history = server.api("GET", f"/api/v1/tags/{pool['id']}/history")["changes"]
    assert [c["kind"] for c in history].count("round") == 7
    assert [c["challengeID"] for c in history if c["kind"] == "challenge"] == [challenge["id"], second_challenge["id"]]
    assert [c["roundID"] for c in history if c["kind"] == "round"] == [s[1] for s in steps if s[0] == "round"]

    # A player's tags; the CSV and the page show the same holders.
    holders = replay(steps, rounds)
    first = min(holders, key=holders.get)
    mine = server.api("GET", f"/api/v1/players/{first}/tags")["tags"]
    assert mine[0]["tag"] == holders[first] and mine[0]["best"] <= holders[first]
    status, _, body = server.exchange("GET", f"/tags/{pool['id']}/holders.csv")
    assert status == 200
    rows = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
    assert {row["playerID"]: int(row["tag"]) for row in rows if row["playerID"]} == holders
    status, _, page = server.exchange("GET", f"/tags/{pool['id']}")
    assert status == 200 and "How tags change hands" in page
    status, _, body = server.exchange("GET", f"/tags/{pool['id']}/history.csv")
    moves = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
    assert len(moves) == sum(len(change["moves"]) for change in history)
    first_round = next(change for change in history if change["kind"] == "round")
    assert [row for row in moves if row["kind"] == "round"][0]["roundID"] == first_round["roundID"]
    # One tag's history: every change it took part in, and no other.
    tag = holders[first]
    status, _, page = server.exchange("GET", f"/tags/{pool['id']}?tag={tag}")
    assert f"History of tag #{tag}" in page
    involved = [c for c in history if any(m["from"] == tag or m["to"] == tag for m in c["moves"])]
    assert page.count("<li><span class=\"meta\">") == len(involved)
    # The check-in desk sees each player's tag.
    night = server.api("POST", "/api/v1/events", {"name": "Tag night check-in"})
    server.api("POST", f"/api/v1/events/{night['id']}/checkins", {"playerID": first})
    status, _, page = server.exchange("GET", f"/events/{night['id']}")
    assert f'<span class="badge tag" title="Bag tag">#{tag}</span>' in page
    status, _, round_page = server.exchange("GET", f"/rounds/{second}")
    assert status == 200 and "Bag tags" in round_page and "tag-exchange" in round_page
    status, _, board_page = server.exchange("GET", f"/rounds/{second}/leaderboard")
    assert status == 200 and "tag-exchange" in board_page

    # A second device on the same cloud derives the same holders.
    other = servers.server("tags-b", handle="coach", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    other.start()
    deadline = time.monotonic() + 30
    while True:
        status, _, _ = other.exchange("GET", f"/api/v1/tags/{pool['id']}")
        if status == 200 and served(other, pool["id"]) == holders:
            break
        assert time.monotonic() < deadline, "the second device never derived the same holders"
        time.sleep(0.1)
