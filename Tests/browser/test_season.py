"""A league night from check-in to the season table: the coach opens check-in, the TV shows the
link and its QR code, an athlete follows the link on a 360 px phone, signs in and checks in, a
coach adds a walk-up, the night is played, and the season table appears on the TV without a
reload."""
import datetime

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Server
from test_league import wait

COACH = Server.USERS["coach"]
ATHLETE = Server.USERS["athlete"]


def sign_in_here(page, handle, password):
    page.find_element(By.NAME, "handle").send_keys(handle)
    page.find_element(By.NAME, "password").send_keys(password)
    page.find_element(By.XPATH, "//form[@action='/signin']//button[normalize-space()='Sign in']").click()
    wait(page).until(lambda d: "/signin" not in d.current_url)


def tv_text(tv, selector):
    """The text of what `selector` finds on the TV, hidden or not (the TV shows one page at a time)."""
    return tv.execute_script("const n = document.querySelector(arguments[0]); return n ? n.textContent.replace(/\\s+/g, ' ').trim() : null;", selector)


def test_a_night_from_the_check_in_link_to_the_season_table_on_the_tv(server, browser_factory):
    today = datetime.date.today().isoformat()
    _, season = server.post("/api/v1/seasons", {"name": "Tuesday league", "startsOn": today, "divisions": ["MPO", "FPO"]})
    _, night = server.post("/api/v1/events", {"name": "Night 1", "divisions": ["MPO", "FPO"], "seasonID": season["id"]})
    event_id = night["id"]

    tv = browser_factory(1920, 1080)
    tv.get(f"{server.base}/tv?page=3")
    tv.execute_script("window.notReloaded = true;")
    assert tv_text(tv, f".tv-checkin[data-round='{event_id}']") is None, "check-in is not open yet"

    # The coach opens check-in on the night's page; the TV shows the link and its code live.
    coach = browser_factory(1280, 900)
    coach.get(f"{server.base}/signin?next=/events/{event_id}")
    sign_in_here(coach, COACH[0], COACH[2])
    coach.find_element(By.XPATH, "//button[starts-with(normalize-space(), 'Open check-in')]").click()
    wait(coach).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".check-in-link img"))
    panel = f".tv-checkin[data-round='{event_id}']"
    wait(tv).until(lambda d: tv_text(d, panel) is not None)
    link = tv_text(tv, f"{panel} .tv-checkin-link")
    assert link == f"{server.base}/c/{event_id[:8]}", link
    wait(tv).until(lambda d: d.execute_script(f"const i = document.querySelector(\"{panel} img\"); return i && i.complete && i.naturalWidth > 0;"))
    assert "0 players checked in" in tv_text(tv, panel)

    # An athlete's phone follows the link: asked to sign in, then checks in to FPO.
    phone = browser_factory(360, 740)
    # Headless Chrome keeps windows at least 500 px wide: emulate the phone's screen instead.
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    phone.get(link)
    wait(phone).until(lambda d: d.current_url.startswith(f"{server.base}/events/{event_id}"))
    phone.find_element(By.XPATH, "//a[normalize-space()='Sign in to check in']").click()
    sign_in_here(phone, ATHLETE[0], ATHLETE[2])
    assert phone.current_url.startswith(f"{server.base}/events/{event_id}")
    form = phone.find_element(By.XPATH, "//form[.//button[normalize-space()='Check me in']]")
    Select(form.find_element(By.NAME, "division")).select_by_value("FPO")
    form.find_element(By.XPATH, ".//button").click()
    wait(phone).until(lambda d: d.find_elements(By.XPATH, "//button[normalize-space()='Change my division']"))
    assert phone.execute_script("return window.innerWidth") == 360
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 360, "the check-in page fits the phone"
    wait(tv).until(lambda d: "1 player checked in" in (tv_text(d, panel) or ""))

    # A walk-up, added by the coach with the fee paid.
    coach.get(f"{server.base}/events/{event_id}")
    walk_up = coach.find_element(By.XPATH, "//form[.//input[@name='walkUpName']]")
    walk_up.find_element(By.NAME, "walkUpName").send_keys("Wanda Walker")
    Select(walk_up.find_element(By.NAME, "division")).select_by_value("MPO")
    walk_up.find_element(By.NAME, "walkUpPaid").click()
    walk_up.find_element(By.XPATH, ".//button").click()
    wait(coach).until(lambda d: "2 checked in · 1 paid the entry fee" in d.find_element(By.CSS_SELECTOR, ".check-in .meta").text)
    wait(tv).until(lambda d: "2 players checked in" in (tv_text(d, panel) or ""))

    # The night is played with those checked in (and a demo player in MPO) and completed.
    checkins = server.get(f"/api/v1/events/{event_id}/checkins")["checkins"]
    players = server.get("/api/v1/players")["players"]
    athlete = next(p for p in players if p["handle"] == ATHLETE[0])
    wanda = next(c for c in checkins if c["displayName"] == "Wanda Walker")
    other = next(p for p in players if p["role"] == "athlete" and p["id"] not in (athlete["id"], wanda["playerID"]) and p["handle"] != "wanda.walker")
    _, course = server.post("/api/v1/courses", {"name": "Two holes", "holes": [{"number": 1, "par": 3}, {"number": 2, "par": 3}]})
    entries = [{"playerID": c["playerID"], "division": c["division"]} for c in checkins] + [{"playerID": other["id"], "division": "MPO"}]
    _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "eventID": event_id, "start": True, "players": entries})
    for player, strokes in ((wanda["playerID"], 2), (other["id"], 3), (athlete["id"], 3)):
        for hole in (1, 2):
            status, _ = server.post(f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player, "hole": hole, "strokes": strokes})
            assert status == 201

    # The season table reaches the TV live: Wanda, a walk-up, leads MPO with 2 points (first of two).
    table = f".tv-season[data-board='season/{season['id']}/MPO']"
    wait(tv).until(lambda d: tv_text(d, f"{table} tbody tr") is not None)
    first = tv.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0] + ' tbody tr:first-child td')).map(c => c.textContent.trim());", table)
    assert first[:3] == ["1", "Wanda Walker", "2"], first
    assert tv_text(tv, f".tv-season[data-board='season/{season['id']}/FPO'] tbody tr") is not None
    assert tv.execute_script("return window.notReloaded === true;"), "the TV updated without a reload"


def test_a_phone_without_javascript_checks_in_and_the_tv_keeps_the_link_when_the_network_is_cut(server, browser_factory):
    _, season = server.post("/api/v1/seasons", {"name": "Plain league", "divisions": ["MPO", "FPO"]})
    _, night = server.post("/api/v1/events", {"name": "Plain night", "divisions": ["MPO", "FPO"], "seasonID": season["id"]})
    server.patch(f"/api/v1/events/{night['id']}", {"checkInOpen": True})
    link = f"{server.base}/c/{night['id'][:8]}"

    # The phone's check-in is plain forms: it works with JavaScript off, at 360 px.
    phone = browser_factory(360, 740)
    phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    phone.get(link)
    phone.find_element(By.XPATH, "//a[normalize-space()='Sign in to check in']").click()
    sign_in_here(phone, ATHLETE[0], ATHLETE[2])
    form = phone.find_element(By.XPATH, "//form[.//button[normalize-space()='Check me in']]")
    Select(form.find_element(By.NAME, "division")).select_by_value("MPO")
    form.find_element(By.XPATH, ".//button").click()
    wait(phone).until(lambda d: "1 checked in" in d.find_element(By.CSS_SELECTOR, ".check-in .meta").text)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 360

    # The TV keeps showing the link (with its address filled in) when the network goes, and says it is stale.
    tv = browser_factory(1920, 1080)
    tv.get(f"{server.base}/tv?page=3")
    panel = f".tv-checkin[data-round='{night['id']}'] .tv-checkin-link"
    wait(tv).until(lambda d: tv_text(d, panel) == link)
    tv.execute_cdp_cmd("Network.enable", {})
    tv.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
    server.stop()
    wait(tv).until(lambda d: d.find_element(By.ID, "tv-stale").is_displayed())
    assert tv_text(tv, panel) == link
    server.start()
