"""The director's league night without the command line, in Chromium: the first admin from the
setup link, players imported from a CSV file through the page, a misspelled name and a wrong par
fixed, a late arrival added to the round under way, the round completed (confirmed), reopened and
completed again, the demo data archived; then every public page at 360 px with long names and
150 players, measured as a phone lays it out."""
import json
import re
import tempfile
import time
import urllib.request
from pathlib import Path

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import OUTPUT


def wait(driver):
    # A check may read the page while a form's answer replaces it (Chromium then reports the
    # node as stale, or as not in the document): try again until the new page is there.
    return WebDriverWait(driver, 10, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException, WebDriverException))

PLAYERS = [("Ann Archer", "ann.archer"), ("Jonh Smith", "john.smith"), ("Cara Diaz", "cara"), ("Dee Evans", "dee"),
           ("Eli Fox", "eli"), ("Fay Gill", "fay"), ("Gus Hale", "gus"), ("Ivy Jones", "ivy"), ("Kit Lowe", "kit"), ("Max Moss", "max")]


def setup_link(server):
    """The link the server logs once its first pull has shown the cloud has no admin either."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        log = (OUTPUT / "server.log").read_text(errors="replace")
        links = re.findall(rf"http://127\.0\.0\.1:{server.port}/setup\?token=[\w-]+", log)
        if links:
            return links[-1]
        time.sleep(0.05)
    raise AssertionError("the server logged no setup link")


def go(page, element):
    """Clicks a link or a form's button and waits until the answer's page has replaced this one."""
    old = page.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(page, 10).until(lambda d: not old_is_current(old))
    WebDriverWait(page, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def old_is_current(element):
    try:
        element.is_enabled()
        return True
    except (StaleElementReferenceException, WebDriverException):
        return False


def submit(page, form_selector="form.form"):
    go(page, page.find_element(By.CSS_SELECTOR, f"{form_selector} button[type=submit]"))


def notice(page):
    return wait(page).until(lambda d: d.find_element(By.CSS_SELECTOR, ".notice.saved").text)


def fill(page, name, value):
    field = page.find_element(By.NAME, name)
    field.clear()
    field.send_keys(value)


def standings(server, round_id):
    return {row["displayName"]: row for row in server.get(f"/api/v1/rounds/{round_id}/standings")["standings"]}


def test_a_directors_night_end_to_end_in_the_browser(server, browser_factory):
    page = browser_factory(1280, 900)

    # The first admin, from the link the server printed.
    page.get(setup_link(server))
    fill(page, "displayName", "Dana Director")
    fill(page, "handle", "dana")
    fill(page, "password", "director password 123")
    submit(page)
    wait(page).until(lambda d: "Sign out @dana" in d.find_element(By.TAG_NAME, "header").text)

    # Ten players from a CSV file, chosen in the file picker (one name misspelled).
    csv = Path(tempfile.mkdtemp()) / "players.csv"
    csv.write_text("\ufeffname,handle\n" + "".join(f"{name},{handle}\n" for name, handle in PLAYERS), encoding="utf-8")
    page.get(server.base + "/players/import")
    page.find_element(By.CSS_SELECTOR, "[data-csv-file]").send_keys(str(csv))
    wait(page).until(lambda d: "jonh smith" in d.find_element(By.NAME, "csv").get_attribute("value").lower())
    submit(page)
    assert notice(page) == "Imported: 10 added, 0 updated."

    # The misspelled name, found by searching and fixed on its edit page.
    page.get(server.base + "/players?q=jonh")
    rows = page.find_elements(By.CSS_SELECTOR, ".directory li")
    assert len(rows) == 1 and "Jonh Smith" in rows[0].text
    go(page, rows[0].find_element(By.LINK_TEXT, "Edit"))
    fill(page, "displayName", "John Smith")
    submit(page)
    assert notice(page) == "Saved."
    assert "John Smith" in page.find_element(By.CSS_SELECTOR, ".directory").text

    # A nine-hole course typed with a wrong par (hole 5 is a par 4), an event, a round under way.
    page.get(server.base + "/courses/new")
    fill(page, "name", "Riverside")
    fill(page, "holeCount", "9")
    fill(page, "pars", "3 3 3 3 3 3 3 3 3")
    submit(page)
    page.get(server.base + "/events/new")
    fill(page, "name", "Thursday League")
    fill(page, "divisions", "MPO, FPO")
    submit(page)
    wait(page).until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Thursday League")
    event_url = page.current_url
    go(page, page.find_element(By.LINK_TEXT, "Add a round"))
    courses = Select(page.find_element(By.NAME, "courseID"))
    courses.select_by_index(next(i for i, option in enumerate(courses.options) if option.text.startswith("Riverside")))
    fill(page, "name", "Week 1")
    players = {p["handle"]: p["id"] for p in server.get("/api/v1/players")["players"]}
    for handle, division in [("ann.archer", "FPO"), ("john.smith", "MPO"), ("cara", "FPO"), ("dee", "MPO")]:
        page.find_element(By.CSS_SELECTOR, f"input[name='playerIDs[]'][value='{players[handle]}']").click()
        Select(page.find_element(By.NAME, f"divisions[{players[handle]}]")).select_by_value(division)
    submit(page)
    wait(page).until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Week 1")
    round_id = page.current_url.rstrip("/").rsplit("/", 1)[1]
    # Everyone plays hole 5 in 4; Ann and John play all nine.
    for handle in ("ann.archer", "john.smith", "cara", "dee"):
        for hole in ([1, 2, 3, 4, 5, 6, 7, 8, 9] if handle in ("ann.archer", "john.smith") else [1, 5]):
            server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": players[handle], "hole": hole, "strokes": 4 if hole == 5 else 3})
    assert standings(server, round_id)["John Smith"]["toPar"] == 1, "with the wrong par, hole 5 is a bogey"

    # The wrong par, fixed on the course's edit page: every board reads it.
    page.get(server.base + "/courses")
    go(page, next(li for li in page.find_elements(By.CSS_SELECTOR, ".directory li") if "Riverside" in li.text).find_element(By.LINK_TEXT, "Edit"))
    par5 = page.find_element(By.CSS_SELECTOR, "input[aria-label='Par of hole 5']")
    par5.clear()
    par5.send_keys("4")
    submit(page)
    assert notice(page) == "Saved."
    assert standings(server, round_id)["John Smith"]["toPar"] == 0

    # A late arrival, with a division, added to the round under way.
    page.get(f"{server.base}/rounds/{round_id}")
    go(page, page.find_element(By.LINK_TEXT, "Edit round"))
    Select(page.find_element(By.NAME, "playerID")).select_by_value(players["eli"])
    Select(page.find_element(By.NAME, "division")).select_by_value("MPO")
    go(page, page.find_element(By.CSS_SELECTOR, f"form[action='/rounds/{round_id}/players'] button"))
    assert notice(page) == "Added to the round."
    assert "Eli Fox" in standings(server, round_id)

    # Complete, confirmed on a page that names who becomes DNF; reopen; complete again.
    def complete():
        page.get(f"{server.base}/rounds/{round_id}")
        go(page, page.find_element(By.LINK_TEXT, "Complete round…"))
        listed = page.find_element(By.CSS_SELECTOR, "ul.directory").text
        assert "Cara Diaz" in listed and "Dee Evans" in listed and "Eli Fox" in listed and "Ann Archer" not in listed
        go(page, page.find_element(By.CSS_SELECTOR, f"form[action='/rounds/{round_id}/complete'] button"))
        wait(page).until(lambda d: "completed" in d.find_element(By.CSS_SELECTOR, ".page-head .badge").get_attribute("class"))

    complete()
    board = standings(server, round_id)
    assert sorted(name for name, row in board.items() if row["dnf"]) == ["Cara Diaz", "Dee Evans", "Eli Fox"]
    go(page, page.find_element(By.CSS_SELECTOR, f"form[action='/rounds/{round_id}/reopen'] button"))
    wait(page).until(lambda d: "active" in d.find_element(By.CSS_SELECTOR, ".page-head .badge").get_attribute("class"))
    assert not any(row["dnf"] for row in standings(server, round_id).values()), "reopening restores them"
    complete()

    # The demo data, archived in one action on /admin: gone from the lists, kept as history.
    demo_round = next(r["id"] for r in server.get("/api/v1/rounds")["rounds"] if r["name"] == "Tuesday League")
    page.get(server.base + "/admin")
    go(page, page.find_element(By.CSS_SELECTOR, "form[action='/admin/demo/remove'] button"))
    assert notice(page) == "The demo data is removed."
    assert "Remove the demo data" not in page.page_source
    assert [r["name"] for r in server.get("/api/v1/rounds")["rounds"]] == ["Week 1"]
    assert all(c["name"] != "Maple Hill DGC" for c in server.get("/api/v1/courses")["courses"])
    assert server.get(f"/api/v1/rounds/{demo_round}/standings")["standings"], "the demo round's results stay"
    page.get(event_url)
    assert "Week 1" in page.page_source
    assert '<span class="badge"></span>' not in page.page_source, "no empty pill after names"
    page.get(f"{server.base}/rounds/{round_id}")
    assert not page.find_elements(By.ID, "live-status"), "a completed round is not 'Live'"


def test_every_public_page_fits_a_360_px_phone(server, browser_factory):
    # 150 players, some with long names, in an event with divisions, on cards, with scores.
    long = "Maximiliana Bartholomew-Featherstonehaugh"
    rows = "".join(f"{long if i % 10 == 0 else 'Player Number'} {i},p{i:03d}\n" for i in range(150))
    request = urllib.request.Request(server.base + "/api/v1/players/import", data=("name,handle\n" + rows).encode(), method="POST",
                                     headers={"content-type": "text/csv", "Authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        players = json.load(response)["players"]
    _, event = server.post("/api/v1/events", {"name": "The Very Long Named Autumn Championship Series Final", "divisions": ["MPO", "FPO", "MA40"]})
    _, course = server.post("/api/v1/courses", {"name": "Riverside Long Course", "holes": [{"number": n, "par": 3} for n in range(1, 19)]})
    entries = [{"playerID": p["id"], "division": ["MPO", "FPO", "MA40"][i % 3]} for i, p in enumerate(players)]
    _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "name": "Final round", "eventID": event["id"], "players": entries})
    _, cards = server.post(f"/api/v1/rounds/{round_['id']}/cards", {"cards": [
        {"name": f"Card {c + 1}", "startingHole": c % 18 + 1, "playerIDs": [e["playerID"] for e in entries[c * 5:(c + 1) * 5]]} for c in range(30)]})
    for p in players[:40]:
        server.post(f"/api/v1/rounds/{round_['id']}/scores", {"playerID": p["id"], "hole": 1, "strokes": 3})

    page = browser_factory(360, 740)
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    paths = ["/", "/events", f"/events/{event['id']}", f"/rounds/{round_['id']}", f"/rounds/{round_['id']}/leaderboard",
             f"/rounds/{round_['id']}/leaderboard?division=MPO", f"/rounds/{round_['id']}/cards/{cards['cards'][0]['id']}", "/tv", "/signin",
             f"/players/{players[0]['id']}", f"/courses/{course['id']}"]
    too_wide = {}
    for path in paths:
        page.get(server.base + path)
        # A phone's layout viewport grows to fit its content, so the document's own widths tell:
        # what scrolls sideways is wider than what is shown.
        scroll, client = page.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if scroll > client:
            too_wide[path] = (scroll, client)
    assert not too_wide, f"pages wider than a 360 px phone: {too_wide}"

    # The columns that matter stay on the leaderboard: position, player, to par, thru.
    page.get(f"{server.base}/rounds/{round_['id']}/leaderboard")
    # The live stream may replace the table as the page opens: read it once it holds still.
    shown = wait(page).until(lambda d: [th.text for th in d.find_element(By.CSS_SELECTOR, "table.board").find_elements(By.CSS_SELECTOR, "thead th") if th.is_displayed()])
    assert shown == ["Pos", "Player", "To par", "Thru"], shown
    page.get(f"{server.base}/events/{event['id']}")
    shown = wait(page).until(lambda d: [th.text for th in d.find_element(By.CSS_SELECTOR, "table.event-board").find_elements(By.CSS_SELECTOR, "thead th") if th.is_displayed()])
    assert shown[:2] == ["Pos", "Player"] and "To par" in shown and "Thru" in shown, shown
