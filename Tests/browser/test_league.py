"""League night on phones and the clubhouse TV: a card scored hole by hole at 360×740, the
card signed and then locked against the athlete, and the TV showing each division."""
import re

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Server
from test_backups import sign_in
from test_offline import click

ATHLETE = Server.USERS["athlete"]


def league_round(server):
    """An event with MPO and FPO, a 3-hole round of the athlete and two demo players, and one
    card for the three of them starting on hole 2 (so it plays 2, 3, 1)."""
    _, event = server.post("/api/v1/events", {"name": "Tuesday league", "divisions": ["MPO", "FPO"]})
    _, course = server.post("/api/v1/courses", {"name": "Three holes", "holes": [
        {"number": 1, "par": 3}, {"number": 2, "par": 4}, {"number": 3, "par": 3}]})
    players = server.get("/api/v1/players")["players"]
    athlete = next(p for p in players if p["handle"] == ATHLETE[0])
    others = [p for p in players if p["role"] == "athlete" and p["id"] != athlete["id"]][:2]
    entries = [{"playerID": athlete["id"], "division": "MPO"}, {"playerID": others[0]["id"], "division": "MPO"},
               {"playerID": others[1]["id"], "division": "FPO"}]
    _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "name": "League night", "eventID": event["id"], "players": entries})
    _, cards = server.post(f"/api/v1/rounds/{round_['id']}/cards", {"cards": [
        {"name": "Card 1", "startingHole": 2, "playerIDs": [e["playerID"] for e in entries]}]})
    return round_["id"], cards["cards"][0]["id"], athlete, others


def wait(driver):
    # A check may read the page while a form's answer replaces it (Chromium then reports the
    # node as stale, or as not in the document): try again, never sleep.
    return WebDriverWait(driver, 10, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException, WebDriverException))


def standing(server, round_id, player_id):
    return next(r for r in server.get(f"/api/v1/rounds/{round_id}/standings")["standings"] if r["playerID"] == player_id)


def fieldset(page, player_id):
    return page.find_element(By.CSS_SELECTOR, f"fieldset.card-player[data-player='{player_id}']")


def test_a_card_is_scored_hole_by_hole_on_a_phone_signed_and_then_locked(server, browser_factory):
    round_id, card_id, athlete, others = league_round(server)
    card_url = f"{server.base}/rounds/{round_id}/cards/{card_id}"

    # Without JavaScript the page is plain number inputs; the steppers are hidden buttons.
    html = server.get_text(f"/rounds/{round_id}/cards/{card_id}")
    assert len(re.findall(r'<input type="number" inputmode="numeric" min="1" max="99" name="strokes\[', html)) == 3
    assert 'data-step="1" aria-label="One more for' in html and "hidden>+</button>" in html

    page = browser_factory(360, 740)
    # Headless Chrome keeps windows at least 500 px wide: emulate the phone's screen instead.
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    page.get(card_url)
    assert page.find_element(By.TAG_NAME, "h1").text.startswith("Hole 2")
    # Fits a phone: nothing wider than the screen.
    assert page.execute_script("return window.innerWidth") == 360
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
    # Steppers start at par (4) and change by one.
    fieldset(page, athlete["id"]).find_element(By.CSS_SELECTOR, "button[data-step='1']").click()
    fieldset(page, others[0]["id"]).find_element(By.CSS_SELECTOR, "button[data-step='-1']").click()
    assert fieldset(page, athlete["id"]).find_element(By.CSS_SELECTOR, "input[name^=strokes]").get_attribute("value") == "5"
    page.find_element(By.CSS_SELECTOR, "button.save-hole").click()

    # One tap saved the hole for the whole card, and the card's next hole is up at once; the
    # phone's outbox sends the hole behind it.
    wait(page).until(lambda d: "hole=3" in d.current_url)
    wait(page).until(lambda d: standing(server, round_id, athlete["id"])["strokes"] == 5)
    assert standing(server, round_id, others[0]["id"])["strokes"] == 3
    assert standing(server, round_id, others[1]["id"])["strokes"] == 4
    page.find_element(By.CSS_SELECTOR, "button.save-hole").click()
    wait(page).until(lambda d: "hole=1" in d.current_url)
    assert "Save the last hole" in page.find_element(By.CSS_SELECTOR, "button.save-hole").text
    page.find_element(By.CSS_SELECTOR, "button.save-hole").click()
    wait(page).until(lambda d: "#sign" in d.current_url)
    wait(page).until(lambda d: standing(server, round_id, athlete["id"])["thru"] == 3)

    # The athlete signs their own card: only their own sign button is offered.
    # Once the last hole is sent, the page shows the card as the server has it, to sign.
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.review-card"))
    buttons = page.find_elements(By.XPATH, "//section[@class='card-sign']//button")
    assert [b.text for b in buttons] == [f"Sign for {athlete['displayName']}"]
    buttons[0].click()
    wait(page).until(lambda d: "✓ " + athlete["displayName"] + " signed" in d.find_element(By.CSS_SELECTOR, "section.card-sign").text)
    assert standing(server, round_id, athlete["id"]).get("signed") is True

    # Signed: the athlete's own score is shown read-only, without steppers…
    page.get(card_url + "?hole=2")
    own = fieldset(page, athlete["id"]).find_element(By.CSS_SELECTOR, "input[name^=strokes]")
    assert own.get_attribute("readonly") is not None
    assert not fieldset(page, athlete["id"]).find_element(By.CSS_SELECTOR, "button[data-step='-1']").is_displayed()
    # …and a change sent anyway is refused, with the reason beside the hole, and nothing changes.
    page.execute_script("arguments[0].removeAttribute('readonly'); arguments[0].value = '4';", own)
    page.find_element(By.CSS_SELECTOR, "button.save-hole").click()
    wait(page).until(lambda d: click(d, "nav.card-holes a.hole-link.refused"))
    wait(page).until(lambda d: "signed their card" in d.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{athlete['id']}'] .entry-refused").text)
    assert standing(server, round_id, athlete["id"])["strokes"] == 5 + 3 + 3


def test_the_tv_shows_each_division_and_updates_it_live(server, browser_factory):
    round_id, card_id, athlete, others = league_round(server)
    tv = browser_factory(1920, 1080)
    tv.get(f"{server.base}/tv?round={round_id}&page=3")
    wait(tv).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, f".tv-round[data-round='{round_id}']")) == 2)
    # Read in one go: a live frame may redraw the boards between two reads.
    boards = tv.execute_script("""
        return Array.from(document.querySelectorAll(".tv-round[data-round='" + arguments[0] + "']")).map(s =>
          [s.getAttribute("data-board").split("/").pop(), Array.from(s.querySelectorAll("tbody tr[data-player]")).map(r => r.getAttribute("data-player"))]);
    """, round_id)
    assert [name for name, _ in boards] == ["MPO", "FPO"]
    assert boards[1][1] == [others[1]["id"]]
    assert len(boards[0][1]) == 2

    # A score in FPO reaches the FPO page of the TV without a reload.
    status, _ = server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": others[1]["id"], "hole": 1, "strokes": 2})
    assert status == 201
    selector = f".tv-round[data-board='{round_id}/FPO'] tr[data-player='{others[1]['id']}'] td.topar"
    wait(tv).until(lambda d: d.execute_script(f'const c = document.querySelector("{selector}"); return c && c.textContent.trim();') == "-1")
