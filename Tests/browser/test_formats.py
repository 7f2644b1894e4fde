"""A doubles team scored from a phone with no signal, in real Chromium against the real
server: the card page shows the teams (one score per team per hole), holes typed offline are
sent once when the signal returns, under the team, and the page fits a 360 px screen."""
from selenium.webdriver.common.by import By

from test_bag_tags import fits
from test_backups import sign_in
from test_offline import ATHLETE, counter, events, hole_shown, offline, open_card, phone, save, wait


def test_a_team_score_entered_offline_on_a_phone_reaches_the_board(server, browser_factory):
    _, course = server.post("/api/v1/courses", {"name": "Doubles woods", "holes": [{"number": n, "par": 3} for n in range(1, 10)]})
    players = {p["handle"]: p for p in server.get("/api/v1/players")["players"]}
    me = players[ATHLETE[0]]["id"]
    others = [p["id"] for p in players.values() if p["role"] == "athlete" and p["id"] != me][:3]
    _, round_ = server.post("/api/v1/rounds", {
        "courseID": course["id"], "name": "Doubles night", "start": True, "format": "bestShot",
        "players": [{"playerID": p} for p in [me, *others]],
        "teams": [{"playerIDs": [me, others[0]]}, {"playerIDs": [others[1], others[2]]}]})
    ours, theirs = round_["teams"]
    _, cards = server.post(f"/api/v1/rounds/{round_['id']}/cards", {"cards": [{"name": "Card 1", "startingHole": 1,
                                                                              "playerIDs": [me, *others]}]})
    card_id = cards["cards"][0]["id"]

    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, round_["id"], card_id)
    # The card lists the two teams, not the four players.
    rows = [f.get_attribute("data-player") for f in page.find_elements(By.CSS_SELECTOR, "fieldset[data-player]")]
    assert rows == [ours["id"], theirs["id"]]
    assert ours["name"] in page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{ours['id']}']").text
    assert fits(page), "the team card fits a 360 px phone"

    # No signal: three holes of team scores typed on the phone.
    offline(page)
    server.stop()
    for hole in range(1, 4):
        assert hole_shown(page) == f"Hole {hole}"
        save(page, {ours["id"]: 2, theirs["id"]: 3})
    wait(page).until(lambda d: counter(d)[0]["waiting"] == 3)
    assert "Round so far: 6 (-3 to par)" in page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{ours['id']}'] .running").text

    # The signal returns: every hole is sent once, under the teams, entered by this phone's player.
    server.start()
    offline(page, False)
    wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0)
    sent = events(server, round_["id"])
    assert sorted((e["playerID"], e["hole"], e["strokes"]) for e in sent) == sorted(
        [(ours["id"], h, 2) for h in range(1, 4)] + [(theirs["id"], h, 3) for h in range(1, 4)])
    assert all(e["reportedBy"] == me for e in sent)
    board = server.get(f"/api/v1/rounds/{round_['id']}/standings")["standings"]
    assert [(row["teamID"], row["toPar"], row["thru"]) for row in board] == [(ours["id"], -3, 3), (theirs["id"], 0, 3)]
    assert board[0]["playerIDs"] == [me, others[0]]
