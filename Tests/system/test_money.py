"""The club's money through the API, as a treasurer's scripts would drive it: three league nights
of one season with paid and unpaid check-ins (a fee taken back, a fee paid late, amounts other
than the season's fee), an ace by a paid player and aces by unpaid ones, a capped ace pot
overflowing (by fees and by hand), a closest-to-the-pin pot with no winner rolling over, purse
payouts by place with two-way ties, payouts adjusted and paid in cash or credit, and refused
requests that write nothing. After every step each balance, purse, payout and ace is checked
against an independent computation of the rules, written here; the ledger adds up to the
balances. Then two devices on one cloud record money at the same moment and converge with
nothing lost or doubled."""
import csv
import io
import threading
import time
import uuid

HOLES = 9
PAR = 3


# The rules, computed here independently of the server.

def fee(plan, division):
    """The entry fee of `division`: its own, else the "*" one."""
    return plan["entry"][division] if division in plan["entry"] else plan["entry"]["*"]


def split(cents, plan):
    """{fund: cents} of an amount paid: fixed shares first in their order (each as far as the
    amount goes), then percentages of what is left, rounded down; the cents rounding leaves go
    to the club. Funds given nothing are left out."""
    shares = plan["split"]
    result, left = {}, cents
    for share in shares:
        if "cents" in share:
            amount = min(share["cents"], left)
            result[share["fund"]] = result.get(share["fund"], 0) + amount
            left -= amount
    rest = left
    for share in shares:
        if "percent" in share:
            amount = rest * share["percent"] // 100
            result[share["fund"]] = result.get(share["fund"], 0) + amount
            left -= amount
    result["club"] = result.get("club", 0) + left
    return {fund: amount for fund, amount in result.items() if amount > 0}


def weights(payout, field):
    """Each paid place's weight for a field of `field` players, first place first."""
    if payout.get("winnerTakesAllUnder") and field < payout["winnerTakesAllUnder"]:
        return [1]
    if payout.get("topThird"):
        places = max(1, field // 3)
        return list(range(places, 0, -1))
    return list(payout["percentages"])


def propose(purse, groups, field, payout):
    """([(player, place, cents)], left): `groups` are the paid finishers in order, tied ones
    together; a group splits the shares of the places it covers evenly (rounded down); places
    past the table pay nothing."""
    table = weights(payout, field)
    shares = [purse * weight // sum(table) for weight in table]
    places, start = [], 0
    for group in groups:
        if start >= len(shares):
            break
        covered = sum(shares[start:start + len(group)])
        places += [(player, start + 1, covered // len(group)) for player in group]
        start += len(group)
    return places, purse - sum(cents for _, _, cents in places)


def finishing_groups(scores):
    """The finishers of a division in order, tied totals in one group; `scores` {player:
    strokes per hole played}, a player who did not play every hole is a DNF."""
    totals = {player: sum(strokes) for player, strokes in scores.items() if len(strokes) == HOLES}
    groups = []
    for total in sorted(set(totals.values())):
        groups.append(sorted(player for player, value in totals.items() if value == total))
    return groups


class Books:
    """The club's funds as the rules move them: "purse", "club" and each pot's id."""

    def __init__(self):
        self.balances = {}
        self.caps = {}  # pot id -> (cap, overflow pot id or None)
        self.payments = {}  # (night, player) -> {fund: cents} of the latest payment ({}: not paid)
        self.paid_out = {}  # (night, player) -> purse cents paid
        self.recorded = {}  # (night, player) -> (cents, method) of the latest purse entry
        self.settled = {}  # (night, division) -> cents moved from the purse to the club
        self.decided = set()  # (night, pot id) paid or rolled over
        self.tables = {}  # night -> the payout table its latest paid fee was paid under
        self.money_in = 0
        self.money_out = 0

    def pot(self, pot_id, cap=None, overflow=None):
        self.caps[pot_id] = (cap, overflow)

    def credit(self, fund, cents):
        cap, overflow = self.caps.get(fund, (None, None))
        before = self.balances.get(fund, 0)
        self.balances[fund] = before + cents
        if cap is None or cents <= 0:
            return
        over = cents - min(cents, max(0, cap - before))
        if over > 0:
            self.balances[fund] -= over
            self.credit(overflow or "club", over)

    def pay_fee(self, night, player, cents, plan):
        """A payment recorded at check-in (0: not paid); the latest one counts."""
        before = self.payments.get((night, player), {})
        after = split(cents, plan) if cents > 0 else {}
        if cents > 0:
            self.tables[night] = plan["payout"]
        self.payments[(night, player)] = after
        self.money_in += sum(after.values()) - sum(before.values())
        for fund in sorted(set(before) | set(after)):
            delta = after.get(fund, 0) - before.get(fund, 0)
            if delta > 0:
                self.credit(fund, delta)
            elif delta < 0:
                self.balances[fund] = self.balances.get(fund, 0) + delta

    def contribute(self, pot_id, cents):
        self.money_in += cents
        if cents > 0:
            self.credit(pot_id, cents)
        else:
            self.balances[pot_id] = self.balances.get(pot_id, 0) + cents

    def pay_pot(self, pot_id, winners, night=None):
        """Each winner's share; what does not divide stays. A night's pot is decided once."""
        self.decided.add((night, pot_id))
        share = self.balances.get(pot_id, 0) // len(winners)
        self.balances[pot_id] -= share * len(winners)
        self.money_out += share * len(winners)
        return share

    def roll_over(self, pot_id, to):
        """No winner: the balance stays, or moves into `to` (filling it as any money in)."""
        if to:
            moved = self.balances.get(pot_id, 0)
            self.balances[pot_id] = 0
            self.credit(to, moved)

    def purse_entry(self, night, player, cents, method):
        """The latest purse entry of a player on a night: money leaves the purse once paid."""
        before = self.paid_out.get((night, player), 0)
        after = cents if method else 0
        self.paid_out[(night, player)] = after
        self.recorded[(night, player)] = (cents, method)
        self.balances["purse"] = self.balances.get("purse", 0) - (after - before)
        self.money_out += after - before

    def settle(self, night, division, cents):
        """What a division's purse leaves goes to the club once every place is paid (the
        night over); a payout undone or changed afterwards moves the difference back."""
        before = self.settled.get((night, division), 0)
        self.settled[(night, division)] = cents
        self.balances["purse"] = self.balances.get("purse", 0) - (cents - before)
        self.balances["club"] = self.balances.get("club", 0) + (cents - before)

    def total(self):
        return sum(self.balances.values())


def expected_money(books, night, divisions, scores, aces, plan, ace_pot, plan_pots):
    """The night's money as the rules give it. `divisions` {player: check-in division};
    `scores` {player: strokes}; `aces` [(player, hole)]; `plan_pots` the pots the plan pays."""
    paid = {player: funds for (event, player), funds in books.payments.items() if event == night and funds}
    money_in = {}
    for funds in paid.values():
        for fund, cents in funds.items():
            money_in[fund] = money_in.get(fund, 0) + cents
    eligible = [(player, hole, paid.get(player, {}).get(ace_pot, 0) > 0) for player, hole in aces]
    winners = sum(1 for _, _, ok in eligible if ok)
    payouts, purses = set(), {}
    for division in sorted({divisions[player] for player in paid if paid[player].get("purse", 0) > 0}):
        payers = {player for player in paid if divisions[player] == division and paid[player].get("purse", 0) > 0}
        purse = sum(paid[player]["purse"] for player in payers)
        groups = [[p for p in group if p in payers] for group in finishing_groups({p: s for p, s in scores.items() if divisions[p] == division})]
        places, _ = propose(purse, [group for group in groups if group], len(payers), books.tables.get(night, plan["payout"]))
        rows = []
        for player, place, cents in places:
            recorded_cents, method = books.recorded.get((night, player), (cents, None))
            rows.append((division, player, place, recorded_cents, cents, method is not None, method))
        payouts |= set(rows)
        purses[division] = {"cents": purse, "field": len(payers), "paidOutCents": sum(r[3] for r in rows if r[5]),
                            "leftCents": purse - sum(r[3] for r in rows)}
        books.settle(night, division, max(0, purses[division]["leftCents"]) if rows and all(r[5] for r in rows) else 0)
    return {
        "final": True,
        "acePotID": ace_pot,
        "in": money_in,
        "aces": sorted(eligible),
        "aceShareCents": books.balances.get(ace_pot, 0) // winners if winners and (night, ace_pot) not in books.decided else 0,
        "payouts": payouts,
        "purses": purses,
        "pots": {pot: books.balances.get(pot, 0) for pot in plan_pots},
    }


def served_money(server, night):
    money = server.api("GET", f"/api/v1/events/{night}/money")
    return money, {
        "final": money["final"],
        "acePotID": money["acePotID"],
        "in": {row["fund"]: row["cents"] for row in money["in"]},
        "aces": sorted((ace["playerID"], ace["hole"], ace["eligible"]) for ace in money["aces"]),
        "aceShareCents": money["aceShareCents"],
        "payouts": {(row["division"], row["playerID"], row["place"], row["cents"], row["proposedCents"], row["paid"], row["method"])
                    for row in money["payouts"]},
        "purses": {row["division"]: {key: row[key] for key in ("cents", "field", "paidOutCents", "leftCents")} for row in money["purses"]},
        "pots": {row["potID"]: row["balanceCents"] for row in money["pots"]},
    }


def pot_balances(server):
    return {pot["id"]: pot["balanceCents"] for pot in server.api("GET", "/api/v1/pots")["pots"]}


def check_ledger(server, books, coach, label):
    """The books add up: every line's cents to each fund's balance and to the total, as the
    independent computation has them; each line says who recorded it on which device."""
    ledger = server.api("GET", "/api/v1/money/ledger")
    lines = ledger["lines"]
    funds = {fund["fund"]: fund["balanceCents"] for fund in ledger["funds"]}
    assert ledger["balanceCents"] == sum(line["cents"] for line in lines) == sum(funds.values()) == books.total(), label
    assert books.total() == books.money_in - books.money_out, label
    assert {f: c for f, c in funds.items() if c} == {f: c for f, c in books.balances.items() if c}, label
    running = 0
    for line in lines:
        running += line["cents"]
        assert line["balanceCents"] == running, (label, line)
        assert line["by"] == coach and line["device"] and line["entryID"], (label, line)
    assert len({line["device"] for line in lines}) == 1, "one device recorded it all"
    for pot_id, balance in pot_balances(server).items():
        pot = server.api("GET", f"/api/v1/pots/{pot_id}")
        assert pot["balanceCents"] == balance == sum(line["cents"] for line in pot["ledger"]) == books.balances.get(pot_id, 0), (label, pot["name"])
        assert all(line["by"] == coach and line["device"] == lines[0]["device"] for line in pot["ledger"]), (label, pot["name"])
    return ledger


def play(server, course_id, night, divisions, scores):
    """The night's round: every player's strokes entered, then completed."""
    round_ = server.api("POST", "/api/v1/rounds", {"courseID": course_id, "eventID": night, "start": True,
                                                   "players": [{"playerID": p, "division": d} for p, d in divisions.items()]})
    for player, strokes in scores.items():
        for hole, count in enumerate(strokes, start=1):
            server.api("POST", f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player, "hole": hole, "strokes": count})
    server.api("POST", f"/api/v1/rounds/{round_['id']}/complete", {})
    return round_["id"]


def card(total, ace_on=None, holes=HOLES):
    """Strokes per hole adding up to `total` (an ace on `ace_on`), `holes` of them played."""
    strokes = [PAR] * HOLES
    if ace_on:
        strokes[ace_on - 1] = 1
    hole = 0
    while sum(strokes) != total:
        if hole + 1 != ace_on:
            step = 1 if sum(strokes) < total else -1
            if 2 <= strokes[hole] + step <= 6:
                strokes[hole] += step
        hole = (hole + 1) % HOLES
    return strokes[:holes]


def test_three_nights_of_club_money(servers):
    server = servers.server("money", handle="coach")
    server.start()
    coach = next(p["id"] for p in server.api("GET", "/api/v1/players")["players"] if p["handle"] == "coach")
    course = server.api("POST", "/api/v1/courses", {"name": "Money Nine", "holes": [{"number": n, "par": PAR} for n in range(1, HOLES + 1)]})
    names = ["M0", "M1", "M2", "M3", "M4", "M5", "F0", "F1", "F2"]
    ids = {name: server.api("POST", "/api/v1/players", {"displayName": f"Player {name}", "handle": f"money{name.lower()}"})["id"]
           for name in names}
    club = {ids[n]: ("MPO" if n.startswith("M") else "FPO") for n in names}
    season = server.api("POST", "/api/v1/seasons", {"name": "Money season", "divisions": ["MPO", "FPO"]})
    books = Books()

    backup = server.api("POST", "/api/v1/pots", {"name": "Ace backup", "kind": "other"})["id"]
    ace = server.api("POST", "/api/v1/pots", {"name": "Ace pot", "kind": "ace", "seasonID": season["id"], "capCents": 1500,
                                              "overflowPotID": backup})
    assert (ace["capCents"], ace["overflowPotID"], ace["balanceCents"], ace["ledger"]) == (1500, backup, 0, [])
    ace = ace["id"]
    ctp = server.api("POST", "/api/v1/pots", {"name": "CTP", "kind": "ctp", "seasonID": season["id"]})["id"]
    books.pot(backup)
    books.pot(ace, cap=1500, overflow=backup)
    books.pot(ctp)
    plan = {"entry": {"MPO": 1000, "*": 500},
            "split": [{"fund": ace, "cents": 100}, {"fund": ctp, "cents": 100}, {"fund": "purse", "percent": 70}, {"fund": "club", "percent": 30}],
            "payout": {"percentages": [50, 30, 20]}}
    assert server.api("PATCH", f"/api/v1/seasons/{season['id']}", {"fees": plan})["fees"]["entry"] == plan["entry"]

    def night_of(number):
        return server.api("POST", "/api/v1/events", {"name": f"Money night {number}", "divisions": ["MPO", "FPO"], "seasonID": season["id"]})["id"]

    def check_in(night, name, body, cents):
        player = ids[name]
        checked = server.api("POST", f"/api/v1/events/{night}/checkins", {"playerID": player, "division": club[player], **body})
        assert checked["paid"] == (cents > 0), (name, body, checked)
        if cents > 0 or (night, player) in books.payments:
            books.pay_fee(night, player, cents, plan)

    def check_night(night, divisions, scores, aces, label):
        _, got = served_money(server, night)
        want = expected_money(books, night, divisions, scores, aces, plan, ace, [ace, ctp])
        for key in want:
            assert got[key] == want[key], f"{label}: {key}"
        return got

    # Night 1: M3 pays and takes it back, M4 pays late, M5 and F1 pay other amounts, F0's fee is
    # recorded again with more, F2 does not pay. M3 (unpaid) wins MPO with an ace; M1 (paid) aces too; M0 is alone second among the
    # payers, M1 and M5 tie behind; M2 paid and quits (DNF). F2 (unpaid) wins FPO with an ace.
    night1 = night_of(1)
    check_in(night1, "M0", {"paid": True}, 1000)
    check_in(night1, "M1", {"paid": True}, 1000)
    check_in(night1, "M2", {"paid": True}, 1000)
    check_in(night1, "M3", {"paid": True}, 1000)
    check_in(night1, "M3", {"paidCents": 0}, 0)
    check_in(night1, "M4", {}, 0)
    check_in(night1, "M5", {"paidCents": 1234}, 1234)
    check_in(night1, "F0", {"paid": True}, 500)
    check_in(night1, "F0", {"paidCents": 600}, 600)
    check_in(night1, "F1", {"paidCents": 350}, 350)
    check_in(night1, "F2", {"paid": False}, 0)
    check_in(night1, "M4", {"paid": True}, 1000)
    assert split(1234, plan) == {ace: 100, ctp: 100, "purse": 723, "club": 311}, "a rounding cent goes to the club"
    scores1 = {ids["M3"]: card(22, ace_on=2), ids["M0"]: card(24), ids["M1"]: card(26, ace_on=4), ids["M5"]: card(26),
               ids["M4"]: card(28), ids["M2"]: card(27, holes=7),
               ids["F2"]: card(23, ace_on=7), ids["F1"]: card(27), ids["F0"]: card(29)}
    aces1 = [(ids["M3"], 2), (ids["M1"], 4), (ids["F2"], 7)]
    play(server, course["id"], night1, club, scores1)
    got = check_night(night1, club, scores1, aces1, "night 1 completed")
    # The hand-worked numbers of this night, so the computation itself is checked too.
    assert got["purses"]["MPO"] == {"cents": 2963, "field": 5, "paidOutCents": 0, "leftCents": 2}
    assert {(row[1], row[2], row[3]) for row in got["payouts"] if row[0] == "MPO"} == {
        (ids["M0"], 1, 1481), (ids["M1"], 2, 740), (ids["M5"], 2, 740)}
    assert got["aces"] == sorted([(ids["M3"], 2, False), (ids["M1"], 4, True), (ids["F2"], 7, False)])
    assert got["aceShareCents"] == 700

    # The ace pot to the eligible ace, the CTP to its winner; paying a pot twice is refused.
    paid = server.api("POST", f"/api/v1/pots/{ace}/payouts", {"eventID": night1, "playerIDs": [ids["M1"]]})["entries"]
    assert [(e["playerID"], e["cents"]) for e in paid] == [(ids["M1"], books.pay_pot(ace, [ids["M1"]], night1))] == [(ids["M1"], 700)]
    paid = server.api("POST", f"/api/v1/pots/{ctp}/payouts", {"eventID": night1, "playerIDs": [ids["F0"]]})["entries"]
    assert [(e["playerID"], e["cents"]) for e in paid] == [(ids["F0"], books.pay_pot(ctp, [ids["F0"]]))]
    # Decided once a night: another decision would erase the payout already handed over.
    status, _, _ = server.exchange("POST", f"/api/v1/pots/{ctp}/payouts", {"eventID": night1, "playerIDs": [ids["F0"]]})
    assert status == 409
    # The night's purses paid as the table proposes.
    for index, (division, player, place, cents, _, _, _) in enumerate(sorted(got["payouts"])):
        method = ("cash", "credit")[index % 2]
        entry = server.api("POST", f"/api/v1/events/{night1}/payouts", {"playerID": player, "method": method})
        assert (entry["cents"], entry["method"]) == (cents, method)
        books.purse_entry(night1, player, cents, method)
    check_night(night1, club, scores1, aces1, "night 1 paid out")
    check_ledger(server, books, coach, "after night 1")

    # Night 2: nobody wins the CTP (it rolls over); money by hand fills the ace pot past its
    # cap, the rest flows to the backup pot; a correction takes some of that back.
    night2 = night_of(2)
    for name in ("M0", "M1", "M4", "F0"):
        check_in(night2, name, {"paid": True}, fee(plan, club[ids[name]]))
    check_in(night2, "M5", {}, 0)
    divisions2 = {ids[n]: club[ids[n]] for n in ("M0", "M1", "M4", "M5", "F0")}
    scores2 = {ids["M5"]: card(24), ids["M0"]: card(25), ids["M4"]: card(26), ids["M1"]: card(27), ids["F0"]: card(28)}
    play(server, course["id"], night2, divisions2, scores2)
    check_night(night2, divisions2, scores2, [], "night 2 completed")
    ctp_before = books.balances[ctp]
    rolled = server.api("POST", f"/api/v1/pots/{ctp}/payouts", {"eventID": night2, "playerIDs": []})["entries"]
    assert len(rolled) == 1 and rolled[0]["kind"] == "rollover"
    ctp_pot = server.api("GET", f"/api/v1/pots/{ctp}")
    assert ctp_pot["balanceCents"] == ctp_before == 400
    assert (ctp_pot["ledger"][-1]["kind"], ctp_pot["ledger"][-1]["cents"], ctp_pot["ledger"][-1]["eventID"]) == ("rollover", 0, night2)
    books.roll_over(ctp, None)
    # A glow-night pot nobody won rolls over into the CTP.
    glow = server.api("POST", "/api/v1/pots", {"name": "Glow night", "kind": "other", "seasonID": season["id"]})["id"]
    books.pot(glow)
    server.api("POST", f"/api/v1/pots/{glow}/contributions", {"cents": 300, "note": "glow night entries"})
    books.contribute(glow, 300)
    rolled = server.api("POST", f"/api/v1/pots/{glow}/payouts", {"eventID": night2, "playerIDs": [], "rolloverTo": ctp})["entries"]
    assert [(e["kind"], e["cents"]) for e in rolled] == [("rollover", 300)]
    books.roll_over(glow, ctp)
    assert server.api("GET", f"/api/v1/pots/{glow}")["balanceCents"] == books.balances[glow] == 0
    ctp_pot = server.api("GET", f"/api/v1/pots/{ctp}")
    assert ctp_pot["balanceCents"] == books.balances[ctp] == 700
    assert (ctp_pot["ledger"][-1]["kind"], ctp_pot["ledger"][-1]["cents"]) == ("rollover", 300)

    for pot_id, cents in ((ace, 900), (ace, 500), (backup, -50), (ctp, 75)):
        entry = server.api("POST", f"/api/v1/pots/{pot_id}/contributions", {"cents": cents, "eventID": night2, "note": "by hand"})
        assert (entry["kind"], entry["cents"], entry["potID"]) == ("contribution", cents, pot_id)
        books.contribute(pot_id, cents)
    assert books.balances[ace] == 1500 and books.balances[backup] == 250
    ace_pot = server.api("GET", f"/api/v1/pots/{ace}")
    assert [(line["kind"], line["cents"]) for line in ace_pot["ledger"][-2:]] == [("in", 500), ("overflow", -300)]
    backup_pot = server.api("GET", f"/api/v1/pots/{backup}")
    assert [(line["kind"], line["cents"]) for line in backup_pot["ledger"]] == [("overflow", 300), ("in", -50)]
    check_night(night2, divisions2, scores2, [], "night 2 after the pots")

    # Refused requests write nothing.
    athlete = "money-athlete"
    server.cli("admin", "create-user", athlete, "--role", "athlete", input="athlete password 1234\n")
    athlete_token = server.cli("admin", "token", athlete).strip().splitlines()[-1].strip()
    before = server.api("GET", "/api/v1/money/ledger")
    pots_before = server.api("GET", "/api/v1/pots")
    fees_before = server.api("GET", f"/api/v1/seasons/{season['id']}")["fees"]
    bad_plan = dict(plan, split=[{"fund": "purse", "percent": 60}, {"fund": "club", "percent": 30}])
    for method, path, body, expected, token in (
            ("POST", f"/api/v1/pots/{uuid.uuid4()}/contributions", {"cents": 100}, 404, None),
            ("POST", f"/api/v1/pots/{ace}/contributions", {"cents": 0}, 422, None),
            ("POST", f"/api/v1/pots/{ace}/contributions", {"cents": 100}, 403, athlete_token),
            ("POST", f"/api/v1/pots/{ace}/contributions", {"cents": 100, "eventID": str(uuid.uuid4())}, 422, None),
            ("POST", "/api/v1/pots", {"name": "Jackpot", "kind": "jackpot"}, 422, None),
            ("POST", "/api/v1/pots", {"name": "No cap", "kind": "other", "overflowPotID": backup}, 422, None),
            ("POST", f"/api/v1/pots/{ace}/payouts", {"eventID": night2, "playerIDs": ["nobody"]}, 422, None),
            ("POST", f"/api/v1/pots/{ace}/payouts", {"eventID": night2, "playerIDs": [ids["M0"]], "rolloverTo": ctp}, 422, None),
            ("POST", f"/api/v1/pots/{ace}/payouts", {"eventID": night2, "playerIDs": [ids["M0"]]}, 403, athlete_token),
            ("POST", f"/api/v1/events/{night2}/payouts", {"playerID": ids["M5"], "method": "cash"}, 422, None),
            ("POST", f"/api/v1/events/{night2}/payouts", {"playerID": ids["M0"], "method": "cheque"}, 422, None),
            ("POST", f"/api/v1/events/{night2}/payouts", {"playerID": ids["M0"], "method": "cash"}, 403, athlete_token),
            ("PATCH", f"/api/v1/seasons/{season['id']}", {"fees": bad_plan}, 422, None),
            ("POST", f"/api/v1/events/{night2}/checkins", {"playerID": ids["M5"], "division": "MPO", "paidCents": -5}, 422, None)):
        status, _, answer = server.exchange(method, path, body, token=token)
        assert status == expected, (method, path, body, status, answer)
    assert server.api("GET", "/api/v1/money/ledger") == before, "a refused request wrote nothing"
    assert server.api("GET", "/api/v1/pots") == pots_before
    assert server.api("GET", f"/api/v1/seasons/{season['id']}")["fees"] == fees_before
    status, _, _ = server.exchange("GET", "/api/v1/money/ledger", token=athlete_token)
    assert status == 403, "the books are a coach's"
    # A player sees only their own aces and payouts of a night.
    status, _, mine = server.exchange("GET", f"/api/v1/events/{night1}/money", token=athlete_token)
    assert status == 200 and mine["payouts"] == [] and mine["aces"] == [] and mine["in"] == []

    entry = server.api("POST", f"/api/v1/events/{night2}/payouts", {"playerID": ids["M0"], "method": "cash"})
    books.purse_entry(night2, ids["M0"], entry["cents"], "cash")
    assert entry["cents"] == 840
    check_night(night2, divisions2, scores2, [], "night 2 paid out")
    check_ledger(server, books, coach, "after night 2")

    # A new plan before night 3: the payments of nights 1 and 2 keep the split they were made
    # under. The purse pays the top third; under 4 players the winner takes all.
    old_in = {night: served_money(server, night)[1]["in"] for night in (night1, night2)}
    plan = {"entry": {"MPO": 1000, "*": 500},
            "split": [{"fund": ace, "cents": 150}, {"fund": ctp, "cents": 100}, {"fund": "purse", "percent": 60}, {"fund": "club", "percent": 40}],
            "payout": {"topThird": True, "winnerTakesAllUnder": 4}}
    server.api("PATCH", f"/api/v1/seasons/{season['id']}", {"fees": plan})
    assert {night: served_money(server, night)[1]["in"] for night in (night1, night2)} == old_in

    # Night 3: everyone pays (M2 more than the fee); every fee's ace share passes the full
    # pot's cap. M1 wins MPO, M0 and M4 tie for second where the table pays one place only.
    # F1 and F2 (both paid) ace; F1 wins FPO alone, the winner taking all.
    night3 = night_of(3)
    for name in names:
        body, cents = ({"paidCents": 2000}, 2000) if name == "M2" else ({"paid": True}, fee(plan, club[ids[name]]))
        check_in(night3, name, body, cents)
    ace_ledger = server.api("GET", f"/api/v1/pots/{ace}")["ledger"]
    assert {(line["kind"], line["cents"]) for line in ace_ledger if line["eventID"] == night3} == {("in", 150), ("overflow", -150)}
    assert books.balances[ace] == 1500 and books.balances[backup] == 250 + 9 * 150
    scores3 = {ids["M1"]: card(23), ids["M0"]: card(25), ids["M4"]: card(25), ids["M2"]: card(27), ids["M3"]: card(28), ids["M5"]: card(30),
               ids["F1"]: card(22, ace_on=5), ids["F2"]: card(24, ace_on=3), ids["F0"]: card(26)}
    aces3 = [(ids["F1"], 5), (ids["F2"], 3)]
    play(server, course["id"], night3, club, scores3)
    got = check_night(night3, club, scores3, aces3, "night 3 completed")
    assert got["purses"]["MPO"] == {"cents": 3300, "field": 6, "paidOutCents": 0, "leftCents": 0}
    assert {(row[1], row[2], row[3]) for row in got["payouts"] if row[0] == "MPO"} == {
        (ids["M1"], 1, 2200), (ids["M0"], 2, 550), (ids["M4"], 2, 550)}
    assert {(row[1], row[3]) for row in got["payouts"] if row[0] == "FPO"} == {(ids["F1"], 450)}
    assert got["aceShareCents"] == 750

    # The ace pot split by the two aces; the CTP to three shares, F1 taking two (the cent
    # that does not divide stays).
    paid = server.api("POST", f"/api/v1/pots/{ace}/payouts", {"eventID": night3, "playerIDs": [ids["F1"], ids["F2"]]})["entries"]
    share = books.pay_pot(ace, [ids["F1"], ids["F2"]], night3)
    assert sorted((e["playerID"], e["cents"]) for e in paid) == sorted([(ids["F1"], share), (ids["F2"], share)])
    paid = server.api("POST", f"/api/v1/pots/{ctp}/payouts", {"eventID": night3, "playerIDs": [ids["M0"], ids["F1"], ids["F1"]]})["entries"]
    share = books.pay_pot(ctp, [ids["M0"], ids["F1"], ids["F1"]])
    assert sorted((e["playerID"], e["cents"]) for e in paid) == sorted([(ids["M0"], share), (ids["F1"], share), (ids["F1"], share)])
    assert books.balances[ctp] == 1, "the cent that does not divide stays in the pot"
    # After the ace pot paid out, money by hand fills it to its cap again and no further.
    server.api("POST", f"/api/v1/pots/{ace}/contributions", {"cents": 1600, "eventID": night3})
    books.contribute(ace, 1600)
    assert books.balances[ace] == 1500

    # The purses: M1 paid in cash as proposed, M4 in cash with the amount given, F1 as credit;
    # M0's payout adjusted down first, then paid by credit at what was adjusted.
    for name, body in (("M1", {"method": "cash"}), ("M4", {"method": "cash", "cents": 550}), ("F1", {"method": "credit"}),
                       ("M0", {"cents": 500})):
        entry = server.api("POST", f"/api/v1/events/{night3}/payouts", {"playerID": ids[name], **body})
        books.purse_entry(night3, ids[name], entry["cents"], body.get("method"))
    got = check_night(night3, club, scores3, aces3, "night 3 adjusted")
    assert (got["purses"]["MPO"]["leftCents"], got["purses"]["MPO"]["paidOutCents"]) == (50, 2750)
    assert (ids["M0"], 500, 550, False) in {(row[1], row[3], row[4], row[5]) for row in got["payouts"]}
    check_ledger(server, books, coach, "after night 3's adjustment")

    for night, divisions, scores, aces in ((night1, club, scores1, aces1), (night2, divisions2, scores2, [])):
        got = served_money(server, night)[1]
        want = expected_money(books, night, divisions, scores, aces, plan, ace, [ace, ctp])
        assert {key: got[key] for key in ("in", "aces")} == {key: want[key] for key in ("in", "aces")}
    # The season's part of the books: its nights' lines and its pots'.
    ledger = server.api("GET", "/api/v1/money/ledger")
    season_ledger = server.api("GET", f"/api/v1/money/ledger?seasonID={season['id']}")
    nights = {night1, night2, night3}
    kept = [line for line in ledger["lines"] if line["eventID"] in nights or line["fund"] in (ace, ctp, glow)]
    assert [line["entryID"] for line in season_ledger["lines"]] == [line["entryID"] for line in kept]
    assert season_ledger["balanceCents"] == sum(line["cents"] for line in kept)

    # M0's adjusted payout marked paid (no amount given): what was adjusted is paid.
    entry = server.api("POST", f"/api/v1/events/{night3}/payouts", {"playerID": ids["M0"], "method": "credit"})
    assert entry["cents"] == 500, f"marking an adjusted payout paid pays what was adjusted, not the proposal: {entry}"
    books.purse_entry(night3, ids["M0"], 500, "credit")
    check_night(night3, club, scores3, aces3, "night 3 paid out")

    # The books at the end add up to every balance.
    ledger = check_ledger(server, books, coach, "at the end")
    assert {line["kind"] for line in ledger["lines"]} == {"fee", "contribution", "overflow", "payout", "rollover", "purse", "settle"}

    # The CSV a treasurer downloads lists the same lines and adds up to the same balance.
    status, headers, text = server.exchange("GET", "/money/ledger.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert [row["Entry"] for row in rows] == [line["entryID"] for line in ledger["lines"]]
    assert sum(int(row["Amount (cents)"]) for row in rows) == ledger["balanceCents"] == books.total()
    assert int(rows[-1]["Balance (cents)"]) == ledger["balanceCents"]


def test_two_devices_record_money_at_once(servers, tmp_path):
    cloud = tmp_path / "cloud.sqlite"
    a = servers.server("money-a", handle="coach", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    a.start()
    b = servers.server("money-b", handle="treasurer", extra=["--cloud", f"sqlite:{cloud}", "--backup-interval", "off"])
    b.start()
    course = a.api("POST", "/api/v1/courses", {"name": "Sync Nine", "holes": [{"number": n, "par": PAR} for n in range(1, HOLES + 1)]})
    players = [a.api("POST", "/api/v1/players", {"displayName": f"Syncer {i}", "handle": f"syncer{i}"})["id"] for i in range(4)]
    season = a.api("POST", "/api/v1/seasons", {"name": "Sync season", "divisions": ["MPO"]})
    ace = a.api("POST", "/api/v1/pots", {"name": "Ace", "kind": "ace", "seasonID": season["id"], "capCents": 1000})["id"]
    ctp = a.api("POST", "/api/v1/pots", {"name": "CTP", "kind": "ctp", "seasonID": season["id"]})["id"]
    plan = {"entry": {"*": 1000}, "split": [{"fund": ace, "cents": 100}, {"fund": ctp, "cents": 100}, {"fund": "purse", "percent": 70},
                                            {"fund": "club", "percent": 30}], "payout": {"percentages": [50, 30, 20]}}
    a.api("PATCH", f"/api/v1/seasons/{season['id']}", {"fees": plan})
    night = a.api("POST", "/api/v1/events", {"name": "Sync night", "divisions": ["MPO"], "seasonID": season["id"]})["id"]
    books = Books()
    books.pot(ace, cap=1000)
    books.pot(ctp)

    def converged(label, check):
        deadline = time.monotonic() + 30
        while True:
            try:
                if check():
                    return
            except AssertionError:
                pass
            assert time.monotonic() < deadline, f"the devices never converged: {label}"
            time.sleep(0.1)

    def has_night():
        status, _, answer = b.exchange("GET", f"/api/v1/seasons/{season['id']}")
        return (status == 200 and answer.get("fees") is not None and set(pot_balances(b)) == {ace, ctp}
                and b.exchange("GET", f"/api/v1/events/{night}")[0] == 200
                and set(players) <= {p["id"] for p in b.api("GET", "/api/v1/players")["players"]})

    converged("the night on the second device", has_night)
    # Both desks take the same player's fee at the same moment: one fee.
    desks = threading.Barrier(2)
    checked = []

    def take_fee(device):
        desks.wait(timeout=10)
        checked.append(device.api("POST", f"/api/v1/events/{night}/checkins", {"playerID": players[3], "division": "MPO", "paid": True}))

    desk_threads = [threading.Thread(target=take_fee, args=(device,)) for device in (a, b)]
    for thread in desk_threads:
        thread.start()
    for thread in desk_threads:
        thread.join(timeout=30)
    assert [c["paid"] for c in checked] == [True, True]
    books.pay_fee(night, players[3], 1000, plan)
    for player in players[:3]:
        a.api("POST", f"/api/v1/events/{night}/checkins", {"playerID": player, "division": "MPO", "paid": True})
        books.pay_fee(night, player, 1000, plan)
    scores = {player: card(24 + index) for index, player in enumerate(players)}
    play(a, course["id"], night, {p: "MPO" for p in players}, scores)
    want = expected_money(books, night, {p: "MPO" for p in players}, scores, [], plan, ace, [ace, ctp])

    def same_money():
        for device in (a, b):
            status, _, _ = device.exchange("GET", f"/api/v1/events/{night}/money")
            if status != 200:
                return False
        got = [served_money(device, night)[1] for device in (a, b)]
        return got[0] == got[1] and all(got[0][key] == want[key] for key in want)

    converged("the night before the money", same_money)

    # At about the same moment, each device: money into the capped ace pot (together past the
    # cap), a purse payout to a different player, the same player's payout marked paid, and the
    # CTP paid to a different winner (one decision: the later counts).
    winner, second, third = (row[1] for row in sorted(want["payouts"], key=lambda row: row[2]))
    ready = threading.Barrier(2)
    answers = {}

    def record(device, cents, payee, method, ctp_winner):
        ready.wait(timeout=10)
        # The CTP first: a device that already has the other's decision finds the pot empty (409).
        status, _, _ = device.exchange("POST", f"/api/v1/pots/{ctp}/payouts", {"eventID": night, "playerIDs": [ctp_winner]})
        answers[device.name] = [
            status,
            device.api("POST", f"/api/v1/pots/{ace}/contributions", {"cents": cents, "eventID": night}),
            device.api("POST", f"/api/v1/events/{night}/payouts", {"playerID": payee, "method": method}),
            device.api("POST", f"/api/v1/events/{night}/payouts", {"playerID": third, "method": method}),
        ]

    threads = [threading.Thread(target=record, args=(a, 700, winner, "cash", winner)),
               threading.Thread(target=record, args=(b, 450, second, "credit", second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert set(answers) == {a.name, b.name}
    assert sorted(answer[0] for answer in answers.values()) in ([201, 201], [201, 409]), answers

    # The independent books: both contributions (past the cap: to the club), both purse
    # payouts, the third's paid once, the CTP paid once (to whichever decision is later).
    books.contribute(ace, 700)
    books.contribute(ace, 450)
    proposed = {row[1]: row[3] for row in want["payouts"]}
    books.purse_entry(night, winner, proposed[winner], "cash")
    books.purse_entry(night, second, proposed[second], "credit")
    books.purse_entry(night, third, proposed[third], "cash")
    ctp_balance = books.balances[ctp]
    books.pay_pot(ctp, [winner])
    assert books.balances[ace] == 1000

    def same_books():
        ledgers = [device.api("GET", "/api/v1/money/ledger") for device in (a, b)]
        keys = [[(line["entryID"], line["fund"], line["kind"], line["cents"]) for line in ledger["lines"]] for ledger in ledgers]
        return keys[0] == keys[1] and len({entry for entry, *_ in keys[0]}) >= len(players) + 2 + 3 + 1 \
            and pot_balances(a) == pot_balances(b)

    converged("the books after recording at once", same_books)
    ledger = a.api("GET", "/api/v1/money/ledger")
    assert b.api("GET", "/api/v1/money/ledger")["balanceCents"] == ledger["balanceCents"]
    lines = ledger["lines"]
    funds = {fund["fund"]: fund["balanceCents"] for fund in ledger["funds"]}
    assert ledger["balanceCents"] == sum(line["cents"] for line in lines) == books.total(), "nothing lost, nothing doubled"
    assert {f: c for f, c in funds.items() if c} == {f: c for f, c in books.balances.items() if c}
    assert sorted(line["cents"] for line in lines if line["kind"] == "contribution") == [450, 700]
    assert sum(line["cents"] for line in lines if line["kind"] == "fee" and line["playerID"] == players[3]) == 1000, \
        "a fee taken at two desks at once counts once"
    payouts = [line for line in lines if line["kind"] == "payout"]
    assert len(payouts) == 1 and payouts[0]["cents"] == -ctp_balance, "one CTP decision counts"
    assert sum(line["cents"] for line in lines if line["kind"] == "purse") == -sum(proposed[p] for p in (winner, second, third))
    # Each line names the device it was recorded on and who recorded it there.
    coach_a = next(p["id"] for p in a.api("GET", "/api/v1/players")["players"] if p["handle"] == "coach")
    coach_b = next(p["id"] for p in b.api("GET", "/api/v1/players")["players"] if p["handle"] == "treasurer")
    contributions = {line["cents"]: (line["by"], line["device"]) for line in lines if line["kind"] == "contribution"}
    assert contributions[700][0] == coach_a and contributions[450][0] == coach_b
    assert contributions[700][1] != contributions[450][1]
    for device in (a, b):
        money = served_money(device, night)[1]
        rows = {row[1]: row for row in money["payouts"]}
        assert rows[winner][5:] == (True, "cash") and rows[second][5:] == (True, "credit") and rows[third][5]
        assert money["purses"]["MPO"]["paidOutCents"] == sum(proposed[p] for p in (winner, second, third))
        assert money["pots"] == {ace: 1000, ctp: 0}
