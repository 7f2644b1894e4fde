"""A randomized league night against the real server (#37): Hypothesis runs random sequences of
a night's operations — score, correct, a card's hole, two card-mates' phones cross-checking each
other, late arrival (and onto the card), withdraw, complete, reopen, rename, edit a par, check
in, undo a check-in, sign — and after every step checks that the API's standings, the round
page, the leaderboard page (for a coach and for the public), the TV and the round's live stream
all show the state a model of the night predicts: the round's status, every player's position,
to-par, holes played, DNF and signature, the holes scorekeepers disagree on, and who can still
be scored (the round page's score form, the card page's steppers). The card page is checked
hole by hole: its mismatch line and hole links, withdrawn players, holes a player missed.

Defects of this kind live between features (a page cache and a reopen, the boards and a
withdrawal): each feature's own tests pass while the pages show a state the data no longer has.

Seeded (HYZER_NIGHT_SEED, default fixed), shrunk on failure. Size: HYZER_NIGHT_NIGHTS nights of
HYZER_NIGHT_STEPS steps each (a few hundred steps in `make test`; `make soak` runs thousands).
"""
import html
import os
import queue
import re
import socket
import threading
import time
import uuid

import pytest
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, get_state_machine_test, initialize, invariant, precondition, rule

NIGHTS = int(os.environ.get("HYZER_NIGHT_NIGHTS", "16"))
STEPS = int(os.environ.get("HYZER_NIGHT_STEPS", "30"))
SEED = int(os.environ.get("HYZER_NIGHT_SEED", "3737"))
HOLES = 4
CLUB = 8  # players in the club; a night starts with 4 of them on one card
PHONES = 2  # the first players of the club are athletes who score the card on their phones
DIVISION = "MPO"
SETTLE = 10  # seconds a live frame may take to show a change


# MARK: The model


class Night:
    """What the night should show, computed here independently of the server's rules."""

    def __init__(self, players, pars):
        self.status = "active"
        self.players = list(players)  # in the round, in order added
        self.withdrawn = set()
        self.pars = dict(pars)  # hole → par
        # (player, hole) → its entries nothing superseded, oldest first: (reporter, strokes,
        # a coach's decision). The newest counts; entries that differ are a mismatch.
        self.leaves = {}
        self.signed = set()
        self.checked_in = set()
        self.name = ""

    @property
    def scores(self):
        return {key: leaves[-1][1] for key, leaves in self.leaves.items()}

    def mismatch(self, player, hole):
        return len({strokes for _, strokes, _ in self.leaves.get((player, hole), [])}) > 1

    def mismatches(self):
        return sum(1 for player, hole in self.leaves if self.mismatch(player, hole))

    def coach_enters(self, player, hole, strokes):
        """A coach's first score of a hole decides nothing; a coach's correction decides it."""
        self.leaves[(player, hole)] = [("coach", strokes, (player, hole) in self.leaves)]

    def phone_entry(self, reporter, player, hole, strokes, card):
        """What a card-mate's phone entry comes to: "unchanged", "refused" or "recorded"."""
        leaves = self.leaves.get((player, hole), [])
        if player not in card:
            return "refused"
        if player in self.signed and leaves and leaves[-1][1] == strokes:
            return "unchanged"
        if any(who == reporter and value == strokes for who, value, _ in leaves):
            return "unchanged"
        if (self.status != "active" or (reporter in self.withdrawn and reporter != player) or player in self.withdrawn
                or player in self.signed or any(value != strokes and decided for _, value, decided in leaves)):
            return "refused"
        self.leaves[(player, hole)] = [leaf for leaf in leaves if leaf[0] != reporter] + [(reporter, strokes, False)]
        return "recorded"

    def thru(self, player):
        return sum(1 for hole in self.pars if (player, hole) in self.scores)

    def to_par(self, player):
        return sum(self.scores[(player, hole)] - par for hole, par in self.pars.items() if (player, hole) in self.scores)

    def strokes(self, player):
        return sum(self.scores[(player, hole)] for hole in self.pars if (player, hole) in self.scores)

    def dnf(self, player):
        return player in self.withdrawn or (self.status == "completed" and self.thru(player) < len(self.pars))

    def scorable(self, player):
        return self.status == "active" and player in self.players and player not in self.withdrawn

    def rows(self):
        """{player: (position, to-par text, thru text, dnf, signed)} as every board shows them."""
        ranked = sorted((p for p in self.players if not self.dnf(p) and self.thru(p) > 0), key=self.to_par)
        positions = {}
        start = 0
        while start < len(ranked):
            end = start
            while end + 1 < len(ranked) and self.to_par(ranked[end + 1]) == self.to_par(ranked[start]):
                end += 1
            label = f"T{start + 1}" if end > start else str(start + 1)
            for player in ranked[start:end + 1]:
                positions[player] = label
            start = end + 1
        rows = {}
        for player in self.players:
            dnf, thru = self.dnf(player), self.thru(player)
            if dnf:
                position, to_par = "DNF", "DNF"
            elif thru == 0:
                position, to_par = "–", "–"
            else:
                position, value = positions[player], self.to_par(player)
                to_par = "E" if value == 0 else (f"+{value}" if value > 0 else str(value))
            shown_thru = "–" if thru == 0 else ("F" if thru >= len(self.pars) else str(thru))
            rows[player] = (position, to_par, shown_thru, dnf, player in self.signed)
        return rows


# MARK: Reading what the server shows

ROW = re.compile(r'<tr data-player="([0-9a-f-]{36})"( class="dnf")?>(.*?)</tr>', re.S)
CELL = re.compile(r'<td class="(pos|topar[^"]*|thru)">(.*?)</td>', re.S)
BOARD = re.compile(r'<section class="leaderboard" id="leaderboard-([0-9a-f-]{36})" data-round="[^"]*" data-version="(\d+)">(.*?)</section>', re.S)


def board_rows(fragment):
    """{player: (position, to-par, thru, dnf, signed)} of the leaderboard tables in `fragment`."""
    rows = {}
    for player, dnf, body in ROW.findall(fragment):
        cells = {}
        for name, text in CELL.findall(body):
            cells.setdefault(name.split()[0], html.unescape(text.strip()))
        assert player not in rows, f"{player} is listed twice on one board"
        rows[player] = (cells.get("pos"), cells.get("topar"), cells.get("thru"), bool(dnf), 'class="signed"' in body)
    return rows


def boards_of(page, round_id):
    """The version and rows of each leaderboard of this round on a page (the TV may split one)."""
    return [(int(version), board_rows(body)) for rid, version, body in BOARD.findall(page) if rid == round_id]


def badge(page):
    found = re.search(r'<span class="badge (\w+)">', page)
    return found.group(1) if found else None


class LiveStream:
    """The round's live stream read on a thread: the latest standings frame is kept."""

    def __init__(self, server, round_id):
        self.latest = None
        self.frames = queue.Queue()
        self.socket = socket.create_connection((server.host, server.port), timeout=60)
        self.socket.sendall(f"GET /rounds/{round_id}/events HTTP/1.1\r\nHost: {server.host}:{server.port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                while b"\n\n" in buffer:
                    frame, buffer = buffer.split(b"\n\n", 1)
                    text = frame.decode(errors="replace")
                    if "event: standings" in text:
                        data = "\n".join(line[6:] for line in text.splitlines() if line.startswith("data: "))
                        self.frames.put(data)
        except OSError:
            return

    def wait_for(self, expected, deadline):
        """The latest frame's rows once they equal `expected`, or the last rows seen at the deadline."""
        while True:
            try:
                while True:
                    self.latest = self.frames.get_nowait()
            except queue.Empty:
                pass
            seen = board_rows(self.latest) if self.latest is not None else None
            if seen == expected or time.monotonic() >= deadline:
                return seen
            try:
                self.latest = self.frames.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pass

    def close(self):
        try:
            self.socket.close()
        except OSError:
            pass


# MARK: The machine


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    from conftest import Servers

    made = Servers()
    try:
        server = made.server("random-night", handle="coach")
        server.start()
        from conftest import PASSWORD

        players, tokens = [], []
        for index in range(PHONES):
            handle = f"phone{index:02}"
            server.cli("admin", "create-user", handle, "--role", "athlete", "--name", f"Player {index:02}", input=PASSWORD + "\n")
            tokens.append(server.cli("admin", "token", handle).strip().splitlines()[-1].strip())
        listed = server.api("GET", "/api/v1/players")["players"]
        players += [next(p["id"] for p in listed if p["handle"] == f"phone{index:02}") for index in range(PHONES)]
        for index in range(PHONES, CLUB):
            created = server.api("POST", "/api/v1/players", {"displayName": f"Player {index:02}", "handle": f"night{index:02}"})
            players.append(created["id"])
        yield server, players, tokens
    finally:
        made.cleanup()


def test_a_randomized_night_shows_the_same_state_everywhere(club):
    server, club_players, athletes = club
    nights = iter(range(1, 10_000))
    taken = []
    # How often the card page showed each state: a night that never shows one checks nothing.
    shown_states = {"mismatch": 0, "missed": 0, "withdrawn": 0}

    class RandomNight(RuleBasedStateMachine):
        @initialize()
        def open_the_night(self):
            number = next(nights)
            # A season of its own: a season of hundreds of nights is no club's, and would make
            # every step pay for all of them.
            season = server.api("POST", "/api/v1/seasons", {"name": f"Random league {number}", "divisions": [DIVISION]})["id"]
            self.event = server.api("POST", "/api/v1/events", {"name": f"Night {number}", "divisions": [DIVISION], "seasonID": season})["id"]
            self.course = server.api("POST", "/api/v1/courses", {"name": f"Layout {number}", "holes": [{"number": n, "par": 3} for n in range(1, HOLES + 1)]})["id"]
            first = club_players[:4]
            for player in first:
                server.api("POST", f"/api/v1/events/{self.event}/checkins", {"playerID": player, "division": DIVISION})
            created = server.api("POST", "/api/v1/rounds", {"courseID": self.course, "eventID": self.event, "start": True, "name": f"Night {number}",
                                                           "players": [{"playerID": p, "division": DIVISION} for p in first]})
            self.round = created["id"]
            cards = server.api("POST", f"/api/v1/rounds/{self.round}/cards",
                               {"cards": [{"name": "Card 1", "startingHole": 1, "playerIDs": first}]})
            self.card = cards["cards"][0]["id"]
            self.card_players = list(first)
            self.model = Night(first, {n: 3 for n in range(1, HOLES + 1)})
            self.model.checked_in = set(first)
            self.model.name = f"Night {number}"
            self.stream = LiveStream(server, self.round)
            self.steps = []

        def teardown(self):
            taken.append(len(getattr(self, "steps", [])))
            if getattr(self, "stream", None):
                self.stream.close()
            if getattr(self, "round", None):
                server.api("DELETE", f"/api/v1/rounds/{self.round}", expect=(200, 204, 404))

        def refused(self, method, path, body=None):
            status, answer = server.request(method, path, body, timeout=10)
            assert 400 <= status < 500 and status not in (401, 403), f"{method} {path} should be refused (409/422/404), got {status}: {answer}"

        # Operations

        @rule(player=st.integers(0, CLUB - 1), hole=st.integers(1, HOLES), strokes=st.integers(1, 7))
        def score(self, player, hole, strokes):
            """A coach enters or corrects a hole through the API."""
            player = club_players[player]
            self.steps.append(f"score {player[:4]} hole {hole}: {strokes}")
            path = f"/api/v1/rounds/{self.round}/scores"
            body = {"playerID": player, "hole": hole, "strokes": strokes}
            if self.model.scorable(player) and (player, hole) not in self.model.leaves:
                server.api("POST", path, body, expect=(200, 201))
                self.model.coach_enters(player, hole, strokes)
            elif self.model.scorable(player):
                # A hole already scored is corrected by naming the score it replaces.
                status, answer = server.request("POST", path, body, timeout=10)
                assert status == 409 and answer.get("currentEventID"), f"a second score without supersedes: {status} {answer}"
                server.api("POST", path, {**body, "supersedes": answer["currentEventID"]}, expect=(200, 201))
                self.model.coach_enters(player, hole, strokes)
            else:
                self.refused("POST", path, body)

        @rule(hole=st.integers(1, HOLES), values=st.lists(st.integers(2, 5), min_size=4, max_size=4))
        def card_hole(self, hole, values):
            """The card's scorekeeper (a coach here) saves a hole for everyone on the card still playing."""
            self.steps.append(f"card hole {hole}: {values}")
            playing = [p for p in self.card_players if self.model.scorable(p)]
            path = f"/api/v1/rounds/{self.round}/cards/{self.card}/holes/{hole}"
            if not playing:
                return
            body = {"scores": [{"playerID": p, "strokes": v} for p, v in zip(playing, values)]}
            if self.model.status == "active":
                server.api("POST", path, body, expect=(200,))
                for p, v in zip(playing, values):
                    leaves = self.model.leaves.get((p, hole), [])
                    # The same score, agreed by everyone, is left as it is.
                    if not (leaves and leaves[-1][1] == v and not self.model.mismatch(p, hole)):
                        self.model.coach_enters(p, hole, v)
            else:
                self.refused("POST", path, body)

        @rule(phone=st.integers(0, PHONES - 1), player=st.integers(0, 3), hole=st.integers(1, HOLES), strokes=st.integers(2, 5))
        def phone_entry(self, phone, player, hole, strokes):
            """A card-mate's phone sends one entry, as its outbox does: it corrects only that
            scorekeeper's own entry, so card-mates who disagree make a mismatch."""
            self.from_phone(phone, player, hole, strokes)

        @rule(player=st.integers(0, 3), hole=st.integers(1, HOLES), strokes=st.integers(2, 4))
        def phones_disagree(self, player, hole, strokes):
            """Both card-mates' phones enter the same hole, one throw apart."""
            self.from_phone(0, player, hole, strokes)
            self.from_phone(1, player, hole, strokes + 1)

        def from_phone(self, phone, player, hole, strokes):
            reporter = club_players[phone]
            player = self.card_players[player % len(self.card_players)] if self.card_players else club_players[player]
            self.steps.append(f"phone of {reporter[:4]}: {player[:4]} hole {hole}: {strokes}")
            body = {"scores": [{"id": str(uuid.uuid4()), "playerID": player, "hole": hole, "strokes": strokes}]}
            status, answer = server.request("POST", f"/api/v1/rounds/{self.round}/cards/{self.card}/scores", body, timeout=10,
                                            token=athletes[phone])
            if reporter not in self.card_players:
                assert status == 403, f"a phone off the card was answered {status}: {answer}"
                return
            assert status == 200, f"the phone's entry was answered {status}: {answer}"
            expected = self.model.phone_entry(reporter, player, hole, strokes, self.card_players)
            outcome = answer["results"][0]
            assert outcome["outcome"] == expected, f"the phone's entry {outcome}, the model says {expected}"
            assert (outcome.get("reason") is not None) == (expected == "refused"), f"a refusal without its reason, or the reverse: {outcome}"

        @rule(player=st.integers(0, CLUB - 1))
        def join_card(self, player):
            """A coach puts a late arrival on the card, where they missed the holes played before."""
            player = club_players[player]
            if player not in self.model.players or player in self.card_players or self.model.status != "active":
                return
            self.steps.append(f"onto the card {player[:4]}")
            self.card_players.append(player)
            server.api("POST", f"/api/v1/rounds/{self.round}/cards",
                       {"cards": [{"name": "Card 1", "startingHole": 1, "playerIDs": self.card_players}]}, expect=(200,))

        @rule(player=st.integers(0, CLUB - 1))
        def late_arrival(self, player):
            player = club_players[player]
            self.steps.append(f"late arrival {player[:4]}")
            path = f"/api/v1/rounds/{self.round}/players"
            body = {"playerID": player, "division": DIVISION}
            if self.model.status == "active" and (player not in self.model.players or player in self.model.withdrawn):
                server.api("POST", path, body, expect=(200, 201))
                if player not in self.model.players:
                    self.model.players.append(player)
                self.model.withdrawn.discard(player)
                # A late arrival on a league night is checked in too (unless they already are).
                self.model.checked_in.add(player)
            else:
                self.refused("POST", path, body)

        @rule(player=st.integers(0, CLUB - 1))
        def withdraw(self, player):
            player = club_players[player]
            self.steps.append(f"withdraw {player[:4]}")
            path = f"/api/v1/rounds/{self.round}/players/{player}"
            in_play = player in self.model.players and player not in self.model.withdrawn
            has_scores = self.model.thru(player) > 0
            if self.model.status == "active" and in_play and (has_scores or len(self.model.players) > 1):
                server.api("DELETE", path, expect=(200,))
                if has_scores:
                    self.model.withdrawn.add(player)
                else:
                    self.model.players.remove(player)
                    if player in self.card_players:
                        self.card_players.remove(player)
            else:
                self.refused("DELETE", path)

        @precondition(lambda self: self.model.status == "active")
        @rule()
        def complete(self):
            self.steps.append("complete")
            server.api("POST", f"/api/v1/rounds/{self.round}/complete", {}, expect=(200,))
            self.model.status = "completed"

        @rule()
        def reopen(self):
            self.steps.append("reopen")
            path = f"/api/v1/rounds/{self.round}/reopen"
            if self.model.status == "completed":
                server.api("POST", path, {}, expect=(200,))
                self.model.status = "active"
            else:
                self.refused("POST", path, {})

        @rule(suffix=st.sampled_from(["", " (rain)", " · B", " <late>", " & co"]))
        def rename(self, suffix):
            self.steps.append(f"rename {suffix!r}")
            self.model.name = self.model.name.split(" ")[0] + " " + self.model.name.split(" ")[1] + suffix
            server.api("PATCH", f"/api/v1/rounds/{self.round}", {"name": self.model.name}, expect=(200,))

        @rule(hole=st.integers(1, HOLES), par=st.integers(2, 5))
        def edit_par(self, hole, par):
            self.steps.append(f"par of hole {hole}: {par}")
            self.model.pars[hole] = par
            holes = [{"number": n, "par": self.model.pars[n]} for n in range(1, HOLES + 1)]
            server.api("PATCH", f"/api/v1/courses/{self.course}", {"holes": holes}, expect=(200,))

        @rule(player=st.integers(0, CLUB - 1))
        def check_in(self, player):
            player = club_players[player]
            self.steps.append(f"check in {player[:4]}")
            server.api("POST", f"/api/v1/events/{self.event}/checkins", {"playerID": player, "division": DIVISION}, expect=(200, 201))
            self.model.checked_in.add(player)

        @rule(player=st.integers(0, CLUB - 1))
        def undo_check_in(self, player):
            player = club_players[player]
            self.steps.append(f"undo check-in {player[:4]}")
            path = f"/api/v1/events/{self.event}/checkins/{player}"
            if player in self.model.checked_in:
                server.api("DELETE", path, expect=(200, 204))
                self.model.checked_in.discard(player)
            else:
                self.refused("DELETE", path)

        @rule(player=st.integers(0, CLUB - 1))
        def sign(self, player):
            player = club_players[player]
            self.steps.append(f"sign {player[:4]}")
            path = f"/api/v1/rounds/{self.round}/signatures"
            finished = self.model.thru(player) == len(self.model.pars) or self.model.dnf(player)
            # Signing again is a no-op that answers as the first did.
            disagreed = any(self.model.mismatch(player, hole) for hole in self.model.pars)
            may = player in self.model.players and ((finished and not disagreed) or player in self.model.signed)
            if may:
                server.api("POST", path, {"playerID": player}, expect=(200, 201))
                self.model.signed.add(player)
            else:
                self.refused("POST", path, {"playerID": player})

        # The check after every step

        @invariant()
        def every_page_shows_the_night(self):
            if not hasattr(self, "model"):
                return
            where = " after: " + " → ".join(self.steps[-8:])
            expected = self.model.rows()

            standings = server.api("GET", f"/api/v1/rounds/{self.round}/standings")
            version = standings["version"]
            api_rows = {}
            for entry in standings["standings"]:
                api_rows[entry["playerID"]] = entry
            assert set(api_rows) == set(expected), f"API players {set(api_rows)} ≠ model {set(expected)}{where}"
            for player, (position, _, _, dnf, signed) in expected.items():
                entry = api_rows[player]
                assert (entry["position"], entry["dnf"], entry["thru"]) == (position, dnf, self.model.thru(player)), \
                    f"API row of {player[:4]}: {entry} ≠ {expected[player]}{where}"
                if self.model.thru(player) and not dnf:
                    assert entry["toPar"] == self.model.to_par(player), f"API to-par of {player[:4]}: {entry}{where}"
            detail = server.api("GET", f"/api/v1/rounds/{self.round}")
            assert detail["status"] == self.model.status, f"API status {detail['status']}{where}"
            assert detail["name"] == self.model.name, f"API name {detail['name']!r}{where}"

            # The round page and the leaderboard page, for a coach and for the public.
            for who, auth in (("coach", True), ("public", False)):
                for path in (f"/rounds/{self.round}", f"/rounds/{self.round}/leaderboard"):
                    status, page = server.request("GET", path, auth=auth, timeout=10)
                    assert status == 200, f"GET {path} ({who}): {status}"
                    assert badge(page) == self.model.status, f"{path} ({who}) says {badge(page)}, the night is {self.model.status}{where}"
                    boards = boards_of(page, self.round)
                    assert boards, f"{path} ({who}) shows no board{where}"
                    shown = {}
                    for board_version, rows in boards:
                        assert board_version == version, f"{path} ({who}) shows version {board_version}, the API {version}{where}"
                        shown.update(rows)
                    assert shown == expected, f"{path} ({who}) rows differ:\n{diff(shown, expected)}{where}"
                    assert html.escape(self.model.name, quote=False) in page, f"{path} ({who}) lacks the name {self.model.name!r}{where}"
                    disputed = set(re.findall(r'(\d+) hole\(s\) where the scorekeepers disagree', page))
                    count = self.model.mismatches()
                    assert disputed == ({str(count)} if count else set()), f"{path} ({who}) counts {disputed} disputed holes, the model {count}{where}"

            # Who can be scored: the round page's form and the card page's steppers (a coach's view).
            page = server.request("GET", f"/rounds/{self.round}", timeout=10)[1]
            form = re.search(r'<form method="post" action="/rounds/[^"]+/scores".*?</form>', page, re.S)
            scorable = {p for p in self.model.players if self.model.scorable(p)}
            if self.model.status == "active":
                assert form, f"an active round's page has no score form{where}"
                offered = set(re.findall(r'<option value="([0-9a-f-]{36})"', form.group(0)))
                assert offered == scorable, f"the score form offers {offered}, scorable are {scorable}{where}"
            else:
                assert not form, f"a {self.model.status} round's page offers a score form{where}"
            card = server.request("GET", f"/rounds/{self.round}/cards/{self.card}", timeout=10)[1]
            steppers = set(re.findall(r'name="strokes\[([0-9a-f-]{36})\]"', card))
            assert steppers == {p for p in self.card_players if p in scorable}, f"the card offers {steppers}{where}"
            self.check_card(where)

            # The TV: an active round's boards, split over pages as they may be; a completed one is off.
            tv = server.request("GET", "/tv", auth=False, timeout=10)[1]
            tv_boards = boards_of(tv, self.round)
            if self.model.status == "active":
                shown = {}
                for board_version, rows in tv_boards:
                    shown.update(rows)
                assert shown == expected, f"the TV's rows differ:\n{diff(shown, expected)}{where}"
            else:
                assert not tv_boards, f"a completed round is still on the TV{where}"

            # The live stream's latest frame comes to the same rows.
            seen = self.stream.wait_for(expected, time.monotonic() + SETTLE)
            assert seen == expected, f"the live stream's rows differ:\n{diff(seen or {}, expected)}{where}"

            # Check-ins.
            listed = server.api("GET", f"/api/v1/events/{self.event}/checkins")["checkins"]
            assert {row["playerID"] for row in listed} == self.model.checked_in, f"check-ins {listed}{where}"

        def check_card(self, where):
            """The card page at one hole (each in turn): the card's mismatch line and hole links,
            and per player a mismatch, a withdrawal or a hole missed (blank, not par)."""
            hole = len(self.steps) % HOLES + 1
            card = server.request("GET", f"/rounds/{self.round}/cards/{self.card}?hole={hole}", timeout=10)[1]
            model = self.model
            playing = [p for p in self.card_players if p not in model.withdrawn]
            scores = model.scores
            disputed = [n for n in range(1, HOLES + 1) if any(model.mismatch(p, n) for p in self.card_players)]
            line = re.search(r'<p class="field-error card-mismatches" role="status"( hidden)?>Card-mates disagree on hole <span>(.*?)</span>', card)
            assert line, f"the card page has no mismatch line{where}"
            shown = [] if line.group(1) else [int(n) for n in line.group(2).split(", ")]
            shown_states["mismatch"] += bool(shown)
            assert shown == disputed, f"the card's mismatch line names holes {shown}, the model {disputed}{where}"
            links = dict(re.findall(r'<a href="\?hole=(\d+)" class="hole-link([^"]*)">', card))
            assert {int(n) for n, classes in links.items() if "mismatch" in classes.split()} == set(disputed), \
                f"the card's hole links mark {links}, disputed are {disputed}{where}"
            done = {n for n in range(1, HOLES + 1) if all((p, n) in scores for p in playing)}
            assert {int(n) for n, classes in links.items() if "done" in classes.split()} == done, f"the card's done holes {links} ≠ {done}{where}"
            if model.status != "active":
                # A closed round's card is a list to read: who withdrew, who is disputed here.
                assert card.count('<span class="meta">withdrew</span>') == sum(1 for p in self.card_players if p in model.withdrawn), \
                    f"the closed card's withdrawals{where}"
                assert card.count('<span class="field-error">mismatch: ') == sum(1 for p in self.card_players if model.mismatch(p, hole)), \
                    f"the closed card's mismatches at hole {hole}{where}"
                return
            withdrawn = set(re.findall(r'<div class="card-withdrawn" data-player="([0-9a-f-]{36})">', card))
            shown_states["withdrawn"] += bool(withdrawn)
            shown_states["missed"] += 'data-note="missed"' in card
            assert withdrawn == {p for p in self.card_players if p in model.withdrawn}, f"the card shows {withdrawn} as withdrawn{where}"
            fieldsets = dict(re.findall(r'<fieldset class="card-player[^"]*" data-player="([0-9a-f-]{36})">(.*?)</fieldset>', card, re.S))
            classes = {player: names for names, player in re.findall(r'<fieldset class="card-player([^"]*)" data-player="([0-9a-f-]{36})">', card)}
            assert set(fieldsets) == set(playing), f"the card's hole {hole} lists {set(fieldsets)}, playing are {playing}{where}"
            for player in playing:
                missed = (player, hole) not in scores and any((other, hole) in scores for other in playing if other != player)
                assert ('data-note="missed"' in fieldsets[player]) == missed, f"hole {hole} of {player[:4]}: missed should be {missed}{where}"
                mismatch = model.mismatch(player, hole)
                assert ("mismatch" in classes[player].split()) == mismatch, f"hole {hole} of {player[:4]}: mismatch should be {mismatch}{where}"
                assert ("Mismatch: " in fieldsets[player]) == mismatch, f"hole {hole} of {player[:4]}: the mismatch note{where}"

    night = get_state_machine_test(RandomNight, settings=settings(
        max_examples=NIGHTS, stateful_step_count=STEPS, deadline=None, database=None,
        suppress_health_check=list(HealthCheck), print_blob=True))
    seed(SEED)(night)()
    print(f"randomized night: {len(taken)} nights, {sum(taken)} steps (seed {SEED}); card pages showing {shown_states}")
    assert all(shown_states.values()), f"the card page never showed one of {shown_states}"
    assert sum(taken) >= NIGHTS * STEPS // 2, f"only {sum(taken)} steps were run"


def diff(shown, expected):
    lines = []
    for player in sorted(set(shown) | set(expected)):
        if shown.get(player) != expected.get(player):
            lines.append(f"  {player[:8]}: shown {shown.get(player)} expected {expected.get(player)}")
    return "\n".join(lines) or "  (same)"
