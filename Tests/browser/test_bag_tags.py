"""Bag tags in a browser: a coach assigns tags from the pool's page, a tag round is played and
completed through the API, and a 360 px phone reads the pool's page (holders in tag order,
the week's movement) and the round page's swap (each player's tag in and out), both fitting
the screen; the TV shows the tag board without a reload."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_league import wait
from test_season import sign_in_here, tv_text

COACH = ("cory.coach", "coach password 123")


def phone(browser_factory):
    page = browser_factory(360, 740)
    # Headless Chrome keeps windows at least 500 px wide: emulate the phone's screen instead.
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    return page


def fits(page):
    return page.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def test_tags_change_hands_and_every_screen_shows_it(server, browser_factory):
    course = server.get("/api/v1/courses")["courses"][0]["id"]
    holes = [h["number"] for h in server.get(f"/api/v1/rounds/{server.get('/api/v1/rounds')['rounds'][0]['id']}")["holes"]]
    players = []
    for index, name in enumerate(["Tara Tee", "Finn Fairway", "Cal Chains"]):
        _, player = server.post("/api/v1/players", {"displayName": name, "handle": f"tagbrowser{index}"})
        players.append(player)
    _, pool = server.post("/api/v1/tags", {"name": "Tuesday tags", "tags": 3})

    tv = browser_factory(1920, 1080)
    tv.get(f"{server.base}/tv")
    tv.execute_script("window.notReloaded = true;")

    # The coach assigns every tag from the pool's page: tag 1 to Tara, 2 to Finn, 3 to Cal.
    coach = browser_factory(1280, 900)
    coach.get(f"{server.base}/signin?next=/tags/{pool['id']}")
    sign_in_here(coach, *COACH)
    for tag, player in zip(["1", "2", "3"], players):
        form = coach.find_element(By.XPATH, "//form[.//button[normalize-space()='Assign the tag']]")
        Select(form.find_element(By.NAME, "tag")).select_by_value(tag)
        Select(form.find_element(By.NAME, "playerID")).select_by_value(player["id"])
        form.find_element(By.XPATH, ".//button").click()
        wait(coach).until(lambda d: d.find_elements(By.CSS_SELECTOR, f".tag-holders tr[data-tag='{tag}'][data-player='{player['id']}']"))
    board = f".tv-tags[data-round='tags-{pool['id']}']"
    wait(tv).until(lambda d: "Cal Chains" in (tv_text(d, board) or ""))

    # A tag round: Cal (tag 3) shoots best, Finn (tag 2) worst.
    _, round_ = server.post("/api/v1/rounds", {"courseID": course, "name": "Tag night", "tagsID": pool["id"],
                                                "players": [{"playerID": p["id"]} for p in players]})
    for player, strokes in zip(players, [3, 4, 2]):
        for hole in holes:
            server.post(f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player["id"], "hole": hole, "strokes": strokes})
    server.post(f"/api/v1/rounds/{round_['id']}/complete", {})

    # The phone: the pool's holders in tag order, everyone new this week.
    page = phone(browser_factory)
    page.get(f"{server.base}/tags/{pool['id']}")
    rows = [row.text for row in page.find_elements(By.CSS_SELECTOR, ".tag-holders tbody tr")]
    assert [row.split("\n")[0].split(" ")[0] for row in rows] == ["#1", "#2", "#3"], rows
    assert "Cal Chains" in rows[0] and "Tara Tee" in rows[1] and "Finn Fairway" in rows[2], rows
    assert "How tags change hands" in page.page_source
    assert fits(page), "the pool's page fits the phone"

    # The round's page shows each player's tag in and out, in finishing order.
    page.get(f"{server.base}/rounds/{round_['id']}")
    swap = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in page.find_elements(By.CSS_SELECTOR, ".tag-exchange tbody tr")]
    assert swap == [["Cal Chains", "#3", "#1"], ["Tara Tee", "#1", "#2"], ["Finn Fairway", "#2", "#3"]], swap
    assert fits(page), "the round page fits the phone"

    # Finn challenges Cal from the pool's page (a coach issues it for him); Cal's answer, by
    # the coach here, starts their tag round on the course.
    coach.get(f"{server.base}/tags/{pool['id']}")
    form = coach.find_element(By.XPATH, "//form[.//button[normalize-space()='Issue the challenge']]")
    Select(form.find_element(By.NAME, "challengerID")).select_by_value(players[1]["id"])
    Select(form.find_element(By.NAME, "challengedID")).select_by_value(players[2]["id"])
    form.find_element(By.XPATH, ".//button").click()
    wait(coach).until(lambda d: "The challenge is issued." in d.page_source)
    coach.find_element(By.XPATH, "//button[normalize-space()='Accept: start the round']").click()
    wait(coach).until(lambda d: "its tag round has started" in d.page_source)
    duel = coach.find_element(By.XPATH, "//li[@data-challenge]//a[normalize-space()='its round']").get_attribute("href")
    coach.get(duel)
    assert "A tag round of" in coach.page_source and "Finn Fairway" in coach.page_source

    # The TV followed without a reload.
    wait(tv).until(lambda d: tv_text(d, f"{board} tbody tr td.name") == "Cal Chains")
    assert tv.execute_script("return window.notReloaded === true")
