"""A mulligan night through the API, as a club's phones would score it: a stroke-play round where
every player is given a mulligan and may buy up to two more from the coach. The coach sells and
refunds mulligans; the players enter their own scores hole by hole, using mulligans at random,
and every try past their allowance is refused. After each player's holes, every player's
mulligans (given, bought, used, left, the holes they were used on) and the standings are checked
against an independent computation written here. Refusals write nothing; corrections replace a
hole's mulligans (one freed, a DNF carries none); the leaderboard shows "used of allowed"; a
round without mulligans shows none and takes none; a second device on the same cloud shows the
same mulligans and board."""
import random
import time
import uuid
from html.parser import HTMLParser

from test_formats import athletes, ranked

HOLES = 9
PAR = 3
GIVEN, FOR_SALE, PRICE = 1, 2, 100
SETUP = {"given": GIVEN, "forSale": FOR_SALE, "priceCents": PRICE}
ENTRY_KEYS = ("playerID", "given", "bought", "used", "left", "holes")


class Night:
    """The independent model: what each player bought, and each hole's current score as
    (strokes or "DNF", penalties, mulligans used)."""

    def __init__(self, players):
        self.players = players
        self.bought = {p: 0 for p in players}
        self.scores = {p: {} for p in players}

    def used(self, player):
        return sum(m for strokes, _, m in self.scores[player].values() if strokes != "DNF")

    def allowance(self, player):
        return GIVEN + self.bought[player]

    def left(self, player):
        return self.allowance(player) - self.used(player)

    def entry(self, player):
        holes = sorted(h for h, (strokes, _, m) in self.scores[player].items() if strokes != "DNF" and m > 0)
        return {"playerID": player, "given": GIVEN, "bought": self.bought[player], "used": self.used(player),
                "left": self.left(player), "holes": holes}

    def dnf(self, player):
        return any(strokes == "DNF" for strokes, _, _ in self.scores[player].values())

    def strokes(self, player):
        return sum(s + pen for s, pen, _ in self.scores[player].values() if s != "DNF")

    def to_par(self, player):
        played = sum(1 for s, _, _ in self.scores[player].values() if s != "DNF")
        return self.strokes(player) - PAR * played


class BoardTables(HTMLParser):
    """The leaderboard page's tables: each one's header texts and {player: [cell texts]}."""

    def __init__(self):
        super().__init__()
        self.tables = []
        self.cell = None
        self.row = None
        self.player = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"headers": [], "rows": {}})
        elif tag == "tr" and self.tables:
            self.row, self.player = [], attrs.get("data-player")
        elif tag in ("th", "td") and self.row is not None:
            self.cell = []

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.cell is not None:
            text = " ".join("".join(self.cell).split())
            self.cell = None
            if tag == "th":
                self.tables[-1]["headers"].append(text)
            else:
                self.row.append(text)
        elif tag == "tr" and self.row is not None:
            if self.player:
                self.tables[-1]["rows"][self.player] = self.row
            self.row, self.player = None, None


def board_tables(page):
    """The tables with player rows; every row has a cell under each heading, no more."""
    parser = BoardTables()
    parser.feed(page)
    tables = [t for t in parser.tables if t["rows"]]
    for table in tables:
        for player, cells in table["rows"].items():
            assert len(cells) == len(table["headers"]), (player, table["headers"], cells)
    return tables


def test_a_mulligan_night_scored_by_its_players(servers, tmp_path):
    cloud = tmp_path / "cloud.sqlite"
    server = servers.server("mulligans", handle="coach", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    server.start()
    rng = random.Random(30)
    course = server.api("POST", "/api/v1/courses", {"name": "Mulligan Nine", "holes": [{"number": n, "par": PAR} for n in range(1, HOLES + 1)]})
    night = server.api("POST", "/api/v1/events", {"name": "Mulligan night", "divisions": ["Open"]})["id"]
    tokens, names = athletes(server, "Mully", 7)
    everyone = sorted(tokens)
    players, outsider = everyone[:6], everyone[6]
    entries = [{"playerID": p, "division": "Open"} for p in players]
    base = {"courseID": course["id"], "eventID": night, "players": entries, "start": True}

    # Refused layouts write no round, and each names its field.
    before = len(server.api("GET", "/api/v1/rounds")["rounds"])
    teams = [{"playerIDs": players[i:i + 2]} for i in range(0, 6, 2)]
    putting = {"stations": 2, "distances": [{"feet": 15, "points": 1}], "putts": 3}
    for body, field in [({"mulligans": {**SETUP, "given": 10}}, "mulligans.given"),
                        ({"mulligans": {**SETUP, "given": -1}}, "mulligans.given"),
                        ({"mulligans": {**SETUP, "forSale": 10}}, "mulligans.forSale"),
                        ({"mulligans": {**SETUP, "forSale": -1}}, "mulligans.forSale"),
                        ({"mulligans": {**SETUP, "priceCents": 100_000_001}}, "mulligans.priceCents"),
                        ({"mulligans": {**SETUP, "priceCents": -1}}, "mulligans.priceCents"),
                        ({"mulligans": {"given": 0, "forSale": 0, "priceCents": 100}}, "mulligans"),
                        ({"mulligans": {"given": 0, "forSale": 0}}, "mulligans"),
                        ({"format": "bestShot", "teams": teams, "mulligans": SETUP}, "mulligans"),
                        ({"format": "putting", "putting": putting, "mulligans": SETUP}, "mulligans")]:
        status, _, problem = server.exchange("POST", "/api/v1/rounds", {**base, **body})
        assert status == 422 and any(e["field"] == field for e in problem["errors"]), (body, status, problem)
    assert len(server.api("GET", "/api/v1/rounds")["rounds"]) == before

    round_ = server.api("POST", "/api/v1/rounds", {**base, "format": "stroke", "mulligans": SETUP})
    rid = round_["id"]
    model = Night(players)

    def served_mulligans(on=server):
        detail = on.api("GET", f"/api/v1/rounds/{rid}")
        return detail["mulligans"]

    def events():
        return server.api("GET", f"/api/v1/rounds/{rid}/scores")["events"]

    def check(label):
        """The round's mulligans and the standings against the model."""
        mulligans = served_mulligans()
        assert (mulligans["given"], mulligans["forSale"], mulligans["priceCents"]) == (GIVEN, FOR_SALE, PRICE), (label, mulligans)
        got = {e["playerID"]: {k: e[k] for k in ENTRY_KEYS} for e in mulligans["players"]}
        assert len(mulligans["players"]) == len(got) == len(players), (label, "each player listed once", mulligans["players"])
        assert got == {p: model.entry(p) for p in players}, label
        board = server.api("GET", f"/api/v1/rounds/{rid}/standings")
        started = {p: model.to_par(p) for p in players if model.scores[p] and not model.dnf(p)}
        positions = ranked(started)
        assert {row["playerID"] for row in board["standings"]} == set(players), label
        for row in board["standings"] + [r for d in board["divisions"] for r in d["standings"]]:
            p = row["playerID"]
            assert row["mulligans"] == model.used(p), (label, names[p], row)
            # Mulligans change no score: the throws that counted plus penalties, as usual.
            assert (row["thru"], row["strokes"], row["dnf"]) == (len(model.scores[p]), model.strokes(p), model.dnf(p)), (label, row)
            if model.dnf(p):
                assert row["position"] == "DNF", (label, row)
            elif model.scores[p]:
                assert (row["toPar"], row["position"]) == (model.to_par(p), positions[p]), (label, row)
            else:
                assert row["position"] == "–", (label, row)
        return mulligans

    first = check("a new round")
    assert all(e["holes"] == [] and e["left"] == GIVEN for e in first["players"])

    # Selling: a coach's, within what is for sale; the answer is that player's entry.
    def sell(player, count, expect, token=None, **more):
        body = {"playerID": player, "count": count, **more}
        status, _, answer = server.exchange("POST", f"/api/v1/rounds/{rid}/mulligans", body, token=token)
        assert status == expect, (names.get(player), body, status, answer)
        if expect == 201:
            model.bought[player] += count
            assert {k: answer[k] for k in ENTRY_KEYS} == model.entry(player), (body, answer)
        return answer

    def refused_sale(body, status_wanted, field=None, token=None):
        state = served_mulligans()
        status, _, problem = server.exchange("POST", f"/api/v1/rounds/{rid}/mulligans", body, token=token)
        assert status == status_wanted, (body, status, problem)
        if field:
            assert any(e["field"] == field for e in problem["errors"]), (body, problem)
        assert served_mulligans() == state, f"the refused sale {body} changed the round"

    p0, p1, p2, p3, p4, p5 = players
    sell(p0, 2, 201)
    sell(p1, 1, 201, cents=150)
    sell(p2, 1, 201)
    sell(p2, -1, 201)  # a refund
    sell(p3, 1, 201, cents=0)
    refused_sale({"playerID": p3, "count": 2}, 409)  # 1 + 2 passes the 2 for sale
    refused_sale({"playerID": p0, "count": 1}, 409)  # already bought both
    refused_sale({"playerID": p5, "count": 3}, 409)
    refused_sale({"playerID": p5, "count": -1}, 409)  # a refund of none bought
    refused_sale({"playerID": p2, "count": -1}, 409)  # refunded already
    refused_sale({"playerID": p4, "count": 1}, 403, token=tokens[p4])  # athletes buy from the coach
    refused_sale({"playerID": p5, "count": 1}, 403, token=tokens[p4])
    for body, field in [({"playerID": p5, "count": 0}, "count"),
                        ({"playerID": p5, "count": 10}, "count"),
                        ({"playerID": p5, "count": -10}, "count"),
                        ({"playerID": p5, "count": 1.5}, "count"),
                        ({"playerID": p5}, "count"),
                        ({"count": 1}, "playerID"),
                        ({"playerID": "nobody", "count": 1}, "playerID"),
                        ({"playerID": outsider, "count": 1}, "playerID"),
                        ({"playerID": str(uuid.uuid4()), "count": 1}, "playerID"),
                        ({"playerID": p5, "count": 1, "cents": "100"}, "cents"),
                        ({"playerID": p5, "count": 1, "cents": -100}, "cents"),
                        ({"playerID": p5, "count": -1, "cents": 100}, "cents")]:
        refused_sale(body, 422, field)
    check("after the sales")

    # Refused score bodies write nothing.
    for body in [{"playerID": p5, "hole": 1, "strokes": 3, "mulligans": 10},
                 {"playerID": p5, "hole": 1, "strokes": 3, "mulligans": -1},
                 {"playerID": p5, "hole": 1, "strokes": 3, "mulligans": "1"}]:
        status, _, problem = server.exchange("POST", f"/api/v1/rounds/{rid}/scores", body, token=tokens[p5])
        assert status == 422 and any(e["field"] == "mulligans" for e in problem["errors"]), (body, status, problem)
    assert events() == []

    def over_allowance(player, body, label):
        """A score past the player's allowance: 409, and nothing written."""
        state, count = served_mulligans(), len(events())
        status, _, problem = server.exchange("POST", f"/api/v1/rounds/{rid}/scores", body, token=tokens[player])
        assert status == 409, (label, body, model.entry(player), status, problem)
        assert len(events()) == count and served_mulligans() == state, (label, "a refused score wrote something")

    # Every player enters their own holes, using mulligans at random; each player also tries
    # once to use one more than they have left.
    refusals = 0
    for player in players:
        greedy_hole = rng.randint(1, HOLES)
        for hole in range(1, HOLES + 1):
            strokes = rng.choice([2, 3, 3, 3, 4, 5])
            penalties = 1 if rng.random() < 0.1 else 0
            wanted = rng.choice([0] * 10 + [1, 1, 2])
            body = {"playerID": player, "hole": hole, "strokes": strokes}
            if penalties:
                body["penalties"] = penalties
            if hole == greedy_hole:
                over_allowance(player, {**body, "mulligans": model.left(player) + 1}, f"{names[player]} greedy on {hole}")
                refusals += 1
            if wanted > model.left(player):
                over_allowance(player, {**body, "mulligans": wanted}, f"{names[player]} wanted {wanted} on {hole}")
                refusals += 1
                wanted = model.left(player)
            if wanted or rng.random() < 0.5:
                body["mulligans"] = wanted
            server.api("POST", f"/api/v1/rounds/{rid}/scores", body, token=tokens[player])
            model.scores[player][hole] = (strokes, penalties, wanted)
        check(f"after {names[player]}")
    assert refusals >= len(players)
    # The seed gives a night worth checking: mulligans on two holes, some left over, some all used.
    assert any(len(model.entry(p)["holes"]) >= 2 for p in players) and any(model.left(p) for p in players)
    assert any(model.used(p) and not model.left(p) for p in players)

    def current(player, hole):
        return next(e for e in events() if e["playerID"] == player and e["hole"] == hole and e["current"])

    # A correction replaces its hole's mulligans, it does not add to them. p0 (1 given, 2
    # bought) takes all that is left on one hole: fine; one more is refused.
    hole = max(model.scores[p0], key=lambda h: (model.scores[p0][h][2], -h))
    strokes, penalties, used_there = model.scores[p0][hole]
    fix = {"playerID": p0, "hole": hole, "strokes": strokes, "penalties": penalties}
    over_allowance(p0, {**fix, "mulligans": used_there + model.left(p0) + 1, "supersedes": current(p0, hole)["id"]},
                   "a correction past the allowance")
    if model.left(p0):
        all_in = used_there + model.left(p0)
        server.api("POST", f"/api/v1/rounds/{rid}/scores", {**fix, "mulligans": all_in, "supersedes": current(p0, hole)["id"]},
                   token=tokens[p0])
        model.scores[p0][hole] = (strokes, penalties, all_in)
    same = model.scores[p0][hole][2]
    server.api("POST", f"/api/v1/rounds/{rid}/scores", {**fix, "strokes": strokes + 1, "mulligans": same,
                                                        "supersedes": current(p0, hole)["id"]}, token=tokens[p0])
    model.scores[p0][hole] = (strokes + 1, penalties, same)
    assert model.left(p0) == 0
    check("p0 used every mulligan")
    # No refund leaves a player below none left, and none is sold past what is for sale.
    refused_sale({"playerID": p0, "count": -1}, 409)
    refused_sale({"playerID": p0, "count": 1}, 409)
    # A coach's correction from one mulligan fewer gives one back; then it can be refunded.
    server.api("POST", f"/api/v1/rounds/{rid}/scores", {**fix, "strokes": strokes + 1, "mulligans": same - 1,
                                                        "supersedes": current(p0, hole)["id"]})
    model.scores[p0][hole] = (strokes + 1, penalties, same - 1)
    assert model.left(p0) == 1
    check("a correction freed a mulligan")
    sell(p0, -1, 201)
    assert model.left(p0) == 0

    # A DNF carries no mulligans: a hole corrected to DNF gives its mulligans back, whether the
    # correction says it used some (ignored, or refused) or not.
    quitter = max((p for p in players if p != p0), key=lambda p: (model.used(p), p))
    hole = max(model.scores[quitter], key=lambda h: (model.scores[quitter][h][2], h))
    freed = model.scores[quitter][hole][2]
    dnf = {"playerID": quitter, "hole": hole, "strokes": "DNF", "supersedes": current(quitter, hole)["id"]}
    status, _, answer = server.exchange("POST", f"/api/v1/rounds/{rid}/scores", {**dnf, "mulligans": max(freed, 1)}, token=tokens[quitter])
    assert status in (201, 422), (status, answer)
    if status == 422:
        server.api("POST", f"/api/v1/rounds/{rid}/scores", dnf, token=tokens[quitter])
    before_used = model.used(quitter)
    model.scores[quitter][hole] = ("DNF", 0, 0)
    assert model.used(quitter) == before_used - freed
    check("after a DNF")

    # The leaderboard: a "Mulligans" column reading used of allowed for every player.
    page = server.request("GET", f"/rounds/{rid}/leaderboard")[1]
    tables = board_tables(page)
    assert tables, "the leaderboard shows no table"
    shown = {}
    for table in tables:
        assert "Mulligans" in table["headers"], table["headers"]
        column = table["headers"].index("Mulligans")
        for player, cells in table["rows"].items():
            shown[player] = cells[column]
    assert shown == {p: f"{model.used(p)} of {model.allowance(p)}" for p in players}

    # A completed round sells no more mulligans, refunds none.
    server.api("POST", f"/api/v1/rounds/{rid}/complete", {})
    refused_sale({"playerID": p5, "count": 1}, 409)
    refused_sale({"playerID": p1, "count": -1}, 409)

    # A round without mulligans: no "mulligans" anywhere, no column, and no mulligans taken.
    plain = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "players": [{"playerID": p} for p in players[:2]], "start": True})
    assert "mulligans" not in server.api("GET", f"/api/v1/rounds/{plain['id']}")
    status, _, problem = server.exchange("POST", f"/api/v1/rounds/{plain['id']}/scores",
                                         {"playerID": p0, "hole": 1, "strokes": 3, "mulligans": 1}, token=tokens[p0])
    assert status == 422 and any(e["field"] == "mulligans" for e in problem["errors"]), (status, problem)
    assert server.api("GET", f"/api/v1/rounds/{plain['id']}/scores")["events"] == []
    server.api("POST", f"/api/v1/rounds/{plain['id']}/scores", {"playerID": p0, "hole": 1, "strokes": 3, "mulligans": 0}, token=tokens[p0])
    board = server.api("GET", f"/api/v1/rounds/{plain['id']}/standings")
    assert board["standings"] and not any("mulligans" in row for row in board["standings"]), board["standings"]
    assert "Mulligans" not in [h for t in board_tables(server.request("GET", f"/rounds/{plain['id']}/leaderboard")[1]) for h in t["headers"]]

    # The correction page keeps a hole's mulligans (its form and a coach's one-tap choices say
    # them): a correction made there does not give them back.
    used_here = next(e for e in server.api("GET", f"/api/v1/rounds/{rid}/scores")["events"] if e["current"] and e.get("mulligans"))
    page = server.request("GET", f"/rounds/{rid}/scores/{used_here['id']}/correct")[1]
    assert f'name="mulligans" type="number" inputmode="numeric" min="0" max="9" value="{used_here["mulligans"]}"' in page, page

    # Mulligans given but none for sale, the price left out: free, and none can be bought.
    gift = server.api("POST", "/api/v1/rounds", {"courseID": course["id"], "players": [{"playerID": p} for p in players[:2]],
                                                 "mulligans": {"given": 2, "forSale": 0}})
    gift_mulligans = server.api("GET", f"/api/v1/rounds/{gift['id']}")["mulligans"]
    assert (gift_mulligans["given"], gift_mulligans["forSale"], gift_mulligans["priceCents"]) == (2, 0, 0), gift_mulligans
    assert {e["playerID"]: (e["given"], e["bought"], e["used"], e["left"], e["holes"]) for e in gift_mulligans["players"]} == {
        p: (2, 0, 0, 2, []) for p in players[:2]}
    status, _, problem = server.exchange("POST", f"/api/v1/rounds/{gift['id']}/mulligans", {"playerID": p0, "count": 1})
    assert status == 409, (status, problem)

    # A second device on the same cloud shows the same mulligans and the same board.
    other = servers.server("mulligans-b", handle="coach", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    other.start()

    def by_player(mulligans):
        return {**mulligans, "players": sorted(mulligans["players"], key=lambda e: e["playerID"])}

    want = by_player(check("the completed round"))
    want_board = server.api("GET", f"/api/v1/rounds/{rid}/standings")["standings"]
    deadline = time.monotonic() + 30
    while True:
        status, _, detail = other.exchange("GET", f"/api/v1/rounds/{rid}")
        board_status, _, board = other.exchange("GET", f"/api/v1/rounds/{rid}/standings")
        if status == 200 and board_status == 200 and by_player(detail.get("mulligans") or {"players": []}) == want \
                and board["standings"] == want_board:
            break
        assert time.monotonic() < deadline, (f"the second device never showed the same mulligans and board: "
                                             f"{detail.get('mulligans') if status == 200 else detail}")
        time.sleep(0.1)
    assert [row["mulligans"] for row in board["standings"]] == [model.used(row["playerID"]) for row in board["standings"]]
