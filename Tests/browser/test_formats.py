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


def test_a_coach_makes_a_bracket_starts_a_match_and_the_bracket_follows_it_live(server, browser_factory):
    from selenium.webdriver.support.ui import Select
    from test_season import sign_in_here
    from conftest import Server

    _, course = server.post("/api/v1/courses", {"name": "Match three", "holes": [{"number": n, "par": 3} for n in range(1, 4)]})
    players = [p for p in server.get("/api/v1/players")["players"] if p["role"] == "athlete"][:3]
    _, cup = server.post("/api/v1/events", {"name": "Club cup"})

    coach = phone(browser_factory)
    coach.get(f"{server.base}/signin")
    sign_in_here(coach, *Server.USERS["coach"][::2])
    # From the event page: make the bracket of three (seeded by rating: nobody has one, so as listed).
    coach.get(f"{server.base}/events/{cup['id']}")
    coach.find_element(By.LINK_TEXT, "Make a bracket").click()
    for player in players:
        coach.find_element(By.CSS_SELECTOR, f"input[name='playerIDs[]'][value='{player['id']}']").click()
    Select(coach.find_element(By.NAME, "seedBy")).select_by_value("rating")
    coach.find_element(By.XPATH, "//button[normalize-space()='Make the bracket']").click()
    wait(coach).until(lambda d: d.current_url.endswith(f"/events/{cup['id']}/bracket"))
    assert "Through on a bye" in coach.page_source and fits(coach)
    bracket = server.get(f"/api/v1/events/{cup['id']}/bracket")
    first = next(m for m in bracket["rounds"][0]["matches"] if not m["bye"])

    # A spectator watches the bracket on the TV view.
    tv = browser_factory(1280, 720)
    tv.get(f"{server.base}/events/{cup['id']}/bracket?tv=1")
    wait(tv).until(lambda d: d.execute_script("return document.documentElement.dataset.live") == "open")
    assert "bracket-tv" in tv.find_element(By.TAG_NAME, "body").get_attribute("class")

    # The coach starts the ready match: the new-round form knows the match; a course is chosen.
    coach.find_element(By.PARTIAL_LINK_TEXT, "Start ").click()
    wait(coach).until(lambda d: "/rounds/new" in d.current_url)
    Select(coach.find_element(By.NAME, "courseID")).select_by_value(course["id"])
    coach.find_element(By.XPATH, "//button[normalize-space()='Create round']").click()
    wait(coach).until(lambda d: "/rounds/" in d.current_url and "/new" not in d.current_url)
    round_id = coach.current_url.rstrip("/").split("/rounds/")[1].split("?")[0]
    assert "Match play" in coach.page_source
    a, b = first["a"], first["b"]
    for hole, (x, y) in enumerate([(2, 3), (3, 3), (3, 4)], start=1):
        server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": a, "hole": hole, "strokes": x})
        server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": b, "hole": hole, "strokes": y})
    # The TV's bracket follows at once: the match is decided and its winner in the final.
    cell = f".bracket-match[data-match='{first['id']}'] .bracket-status"
    wait(tv).until(lambda d: "wins 2up" in d.find_element(By.CSS_SELECTOR, cell).text)
    final = server.get(f"/api/v1/events/{cup['id']}/bracket")["rounds"][1]["matches"][0]
    assert a in (final.get("a"), final.get("b"))
    winner_name = next(p["displayName"] for p in players if p["id"] == a)
    wait(tv).until(lambda d: winner_name in d.find_element(By.CSS_SELECTOR, f".bracket-match[data-match='{final['id']}']").text)
    # Without JavaScript the bracket is the same server-rendered page, decided match included.
    assert "wins 2up" in server.get_text(f"/events/{cup['id']}/bracket")
    # The signal goes: the TV says so and keeps the last bracket it had.
    server.stop()
    wait(tv).until(lambda d: d.execute_script("return document.documentElement.dataset.live") == "down")
    assert "wins 2up" in tv.find_element(By.CSS_SELECTOR, cell).text
    server.start()
    wait(tv).until(lambda d: d.execute_script("return document.documentElement.dataset.live") == "open")
    coach.get(f"{server.base}/rounds/{round_id}")
    assert coach.find_element(By.LINK_TEXT, "see how it stands in the bracket").get_attribute("href").endswith(f"/events/{cup['id']}/bracket")


def test_a_putting_night_made_on_a_phone_and_putts_entered_there_reach_the_tv_live(server, browser_factory):
    from selenium.webdriver.support.ui import Select
    from test_season import sign_in_here
    from conftest import Server

    players = {p["handle"]: p for p in server.get("/api/v1/players")["players"]}
    me = players[ATHLETE[0]]
    course = server.get("/api/v1/courses")["courses"][0]["id"]

    # A coach makes the putting round from the new-round form on a phone.
    coach = phone(browser_factory)
    coach.get(f"{server.base}/signin")
    sign_in_here(coach, *Server.USERS["coach"][::2])
    coach.get(f"{server.base}/rounds/new")
    coach.find_element(By.NAME, "name").send_keys("Putting league")
    Select(coach.find_element(By.NAME, "courseID")).select_by_value(course)
    others = [p for p in players.values() if p["role"] == "athlete" and p["id"] != me["id"]][:2]
    for player in [me, *others]:
        coach.find_element(By.CSS_SELECTOR, f"input[name='playerIDs[]'][value='{player['id']}']").click()
    Select(coach.find_element(By.NAME, "format")).select_by_value("putting")
    coach.find_element(By.NAME, "stations").send_keys("2")
    coach.find_element(By.NAME, "distances").send_keys("15:1, 25:2")
    coach.find_element(By.NAME, "putts").send_keys("3")
    start = coach.find_element(By.NAME, "startNow")
    if not start.is_selected():
        start.click()
    coach.find_element(By.XPATH, "//button[normalize-space()='Create round']").click()
    wait(coach).until(lambda d: "/rounds/" in d.current_url and "/new" not in d.current_url)
    round_id = coach.current_url.rstrip("/").split("/rounds/")[1].split("?")[0].split("#")[0]
    detail = server.get(f"/api/v1/rounds/{round_id}")
    assert detail["format"] == "putting" and detail["putting"]["maxPoints"] == 2 * 3 * 3
    assert "2 stations, each at 15 ft (1 point a putt), 25 ft (2 points a putt)" in coach.page_source

    # The TV follows the round.
    tv = browser_factory(1280, 720)
    tv.get(f"{server.base}/rounds/{round_id}/leaderboard")
    wait(tv).until(lambda d: d.execute_script("return document.documentElement.dataset.live") == "open")

    # The player enters their putts on their phone, lie by lie; 0 made is a score too.
    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    page.get(f"{server.base}/rounds/{round_id}")
    assert fits(page), "the putting round fits a 360 px phone"
    for lie, made in [(1, 3), (2, 0), (4, 2)]:
        Select(page.find_element(By.NAME, "playerID")).select_by_value(me["id"])
        Select(page.find_element(By.NAME, "hole")).select_by_value(str(lie))
        field = page.find_element(By.NAME, "made")
        field.clear()
        field.send_keys(str(made))
        page.find_element(By.XPATH, "//button[normalize-space()='Save score']").click()
        wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#scorecard tr[data-player='{me['id']}'] td[data-hole='{lie}'] a"))
    points = 3 * 1 + 0 * 2 + 2 * 2
    row = server.get(f"/api/v1/rounds/{round_id}/standings")["standings"][0]
    assert (row["playerID"], row["points"], row["strokes"], row["thru"]) == (me["id"], points, 5, 3)
    # The TV shows the points without a reload.
    cell = f"tr[data-player='{me['id']}'] td.topar"
    wait(tv).until(lambda d: d.find_element(By.CSS_SELECTOR, cell).text == str(points))
    assert "Points" in tv.find_element(By.CSS_SELECTOR, "table.board thead").text

    # More putts than the lie has are refused on the page, with the reason beside the field.
    Select(page.find_element(By.NAME, "playerID")).select_by_value(me["id"])
    Select(page.find_element(By.NAME, "hole")).select_by_value("3")
    page.find_element(By.NAME, "made").send_keys("4")
    page.find_element(By.XPATH, "//button[normalize-space()='Save score']").click()
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".field-error"))
    assert "from 0 to 3" in page.find_element(By.CSS_SELECTOR, ".field-error").text
    assert server.get(f"/api/v1/rounds/{round_id}/standings")["standings"][0]["thru"] == 3


def test_mulligans_used_offline_on_a_phone_count_down_and_reach_the_board(server, browser_factory):
    """A mulligan night's card on a 360 px phone with no signal: each player's mulligans left
    count down with the entries kept on the phone, and reach the board once sent."""
    _, course = server.post("/api/v1/courses", {"name": "Mulligan woods", "holes": [{"number": n, "par": 3} for n in range(1, 10)]})
    players = {p["handle"]: p for p in server.get("/api/v1/players")["players"]}
    me = players[ATHLETE[0]]["id"]
    other = next(p["id"] for p in players.values() if p["role"] == "athlete" and p["id"] != me)
    _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "name": "Mulligan night", "start": True,
                                               "players": [{"playerID": me}, {"playerID": other}],
                                               "mulligans": {"given": 1, "forSale": 2, "priceCents": 100}})
    rid = round_["id"]
    status, bought = server.post(f"/api/v1/rounds/{rid}/mulligans", {"playerID": me, "count": 1})
    assert status == 201 and bought["left"] == 2, bought
    _, cards = server.post(f"/api/v1/rounds/{rid}/cards", {"cards": [{"name": "Card 1", "startingHole": 1, "playerIDs": [me, other]}]})
    card_id = cards["cards"][0]["id"]

    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, rid, card_id)

    def left(player):
        return page.find_element(By.CSS_SELECTOR, f".mulligans-left[data-player='{player}']").text

    def use(player, count):
        field = page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{player}'] input[name^=mulligans]")
        page.execute_script("arguments[0].value = arguments[1]", field, str(count))

    assert left(me) == "2 of 2 left" and left(other) == "1 of 1 left"
    assert fits(page), "the mulligan card fits a 360 px phone"

    # No signal: a mulligan on each of two holes, counted down from what the phone keeps.
    offline(page)
    server.stop()
    use(me, 1)
    save(page, {me: 3, other: 4})
    wait(page).until(lambda d: left(me) == "1 of 2 left")
    use(me, 1)
    use(other, 1)
    save(page, {me: 2, other: 3})
    wait(page).until(lambda d: left(me) == "0 of 2 left" and left(other) == "0 of 1 left")
    wait(page).until(lambda d: counter(d)[0]["waiting"] == 2)

    # The signal returns: the mulligans reach the server with the scores, and the board.
    server.start()
    offline(page, False)
    wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0)
    sent = sorted((e["playerID"] == me, e["hole"], e["strokes"], e.get("mulligans", 0)) for e in events(server, rid))
    assert sent == [(False, 1, 4, 0), (False, 2, 3, 1), (True, 1, 3, 1), (True, 2, 2, 1)]
    accounts = {a["playerID"]: a for a in server.get(f"/api/v1/rounds/{rid}")["mulligans"]["players"]}
    assert (accounts[me]["used"], accounts[me]["left"], accounts[me]["holes"]) == (2, 0, [1, 2])
    page.get(f"{server.base}/rounds/{rid}/leaderboard")
    cells = [c.text for c in page.find_elements(By.CSS_SELECTOR, "td.mulligans")]
    assert sorted(cells) == ["1 of 1", "2 of 2"]
    # Without JavaScript the card is a plain form: the Mulligans field is posted with the hole,
    # the count left is the server's, and an entry past it is refused beside the form.
    status, _ = server.post(f"/api/v1/rounds/{rid}/mulligans", {"playerID": me, "count": 1})
    assert status == 201
    plain = phone(browser_factory)
    plain.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    sign_in(plain, server, ATHLETE[0], ATHLETE[2])
    plain.get(f"{server.base}/rounds/{rid}/cards/{card_id}?hole=3")
    assert not plain.find_elements(By.CSS_SELECTOR, ".offline-ready"), "no script ran"
    page = plain
    assert left(me) == "1 of 3 left" and left(other) == "0 of 1 left"
    use(me, 1)
    use(other, 1)
    plain.find_element(By.CSS_SELECTOR, "button.save-hole").click()
    wait(plain).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".notice.error, .field-error"))
    assert "1 mulligan left" not in plain.page_source and "0 mulligans left" in plain.page_source, "the refusal names what is left"
    assert not [e for e in events(server, rid) if e["hole"] == 3], "a refused hole writes nothing"
    use(other, 0)
    use(me, 1)
    plain.find_element(By.CSS_SELECTOR, "button.save-hole").click()
    wait(plain).until(lambda d: "hole=4" in d.current_url)
    assert left(me) == "0 of 3 left"
    third = {e["playerID"]: e.get("mulligans", 0) for e in events(server, rid) if e["hole"] == 3}
    assert third == {me: 1, other: 0}
    assert plain.execute_script("return document.documentElement.scrollWidth") <= 360
