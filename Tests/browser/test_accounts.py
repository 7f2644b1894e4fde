"""What an athlete sees: signing in, entering their own score, being refused a coach's
actions with a message that says why, and signing out again."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import OUTPUT, Server

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def league_night(server):
    """A started round of the athlete and one demo player, made by the coach."""
    form = server.get_text("/rounds/new")
    courses = re.search(r'<select name="courseID".*?</select>', form, re.S).group(0)
    course_id = re.findall(rf'<option value="({UUID})"', courses)[0]
    players = dict((name, pid) for pid, name in re.findall(rf'name="playerIDs\[\]" value="({UUID})"> ([^<]+?) <', form))
    athlete = players.pop(Server.USERS["athlete"][0])
    other = next(iter(players.values()))
    location = server.post_form("/rounds", [("courseID", course_id), ("name", "League night"), ("startNow", "1"),
                                            ("playerIDs[]", athlete), ("playerIDs[]", other)])
    assert re.fullmatch(rf"/rounds/{UUID}", location), location
    return location.rsplit("/", 1)[1], athlete, other


def standing(server, round_id, player_id):
    rows = server.get(f"/api/v1/rounds/{round_id}/standings")["standings"]
    return next(r for r in rows if r["playerID"] == player_id)


def nav_text(driver):
    return driver.find_element(By.CSS_SELECTOR, "header.topbar nav").text


def status_code(driver):
    # Read-only: the status of the document the browser is showing.
    return driver.execute_script("return performance.getEntriesByType('navigation')[0].responseStatus")


def enter_score(driver, player_id, hole, strokes):
    form = driver.find_element(By.CSS_SELECTOR, "form.score-form")
    Select(form.find_element(By.NAME, "playerID")).select_by_value(player_id)
    Select(form.find_element(By.NAME, "hole")).select_by_value(str(hole))
    field = form.find_element(By.NAME, "strokes")
    field.clear()
    field.send_keys(str(strokes))
    before = document_id(driver)
    form.find_element(By.XPATH, ".//button[normalize-space()='Save score']").click()
    WebDriverWait(driver, 10).until(lambda d: document_id(d) not in (before, None))


def document_id(driver):
    # When the current document started; a new one once the browser has loaded another.
    return driver.execute_script("return document.readyState === 'complete' ? performance.timeOrigin : null")


def test_an_athlete_signs_in_scores_their_own_hole_is_refused_coach_actions_and_signs_out(server, browser_factory):
    round_id, athlete, other = league_night(server)
    handle, _, password = Server.USERS["athlete"]
    wait = lambda d, seconds=10: WebDriverWait(d, seconds)
    page = browser_factory(1280, 900)

    # Sign in.
    page.get(server.base + "/signin")
    wait(page).until(EC.presence_of_element_located((By.NAME, "handle"))).send_keys(handle)
    page.find_element(By.NAME, "password").send_keys(password)
    page.find_element(By.XPATH, "//form[@action='/signin']//button[normalize-space()='Sign in']").click()
    wait(page).until(EC.url_to_be(server.base + "/"))
    wait(page).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "header.topbar nav"), f"Sign out @{handle}"))
    assert "Sign in" not in nav_text(page).replace(f"Sign out @{handle}", "")

    # Score their own hole.
    page.get(server.base + f"/rounds/{round_id}")
    wait(page).until(EC.element_to_be_clickable((By.XPATH, "//button[normalize-space()='Save score']")))
    enter_score(page, athlete, 1, 3)
    assert status_code(page) == 200
    assert page.current_url.startswith(server.base + f"/rounds/{round_id}")
    assert not page.find_elements(By.CSS_SELECTOR, ".field-error, .notice.error")
    row = standing(server, round_id, athlete)
    assert (row["strokes"], row["thru"]) == (3, 1), row
    scorecard = (By.CSS_SELECTOR, f"#scorecard tr[data-player='{athlete}'] td[data-hole='1']")
    wait(page).until(EC.text_to_be_present_in_element(scorecard, "3"))
    # For a human: the page from the top, as the athlete opens it again.
    page.get(server.base + f"/rounds/{round_id}")
    wait(page).until(EC.text_to_be_present_in_element(scorecard, "3"))
    wait(page).until(EC.text_to_be_present_in_element((By.ID, "live-status"), "Live"))
    page.save_screenshot(str(OUTPUT / "accounts-round.png"))

    # A coach's action: the athlete is offered only themselves (no card in this round)…
    offered = [o.get_attribute("value") for o in page.find_elements(By.CSS_SELECTOR, "form.score-form select[name=playerID] option")]
    assert other not in offered and athlete in offered, offered
    # …and scoring for someone else anyway (a forged form) is refused, and nothing is recorded.
    page.execute_script("const o = document.createElement('option'); o.value = arguments[0]; o.text = 'forged';"
                        "document.querySelector('form.score-form select[name=playerID]').appendChild(o);", other)
    enter_score(page, other, 1, 4)
    assert "own scores" in page.find_element(By.TAG_NAME, "main").text
    row = standing(server, round_id, other)
    assert (row["strokes"], row["thru"]) == (0, 0), row
    assert standing(server, round_id, athlete)["strokes"] == 3
    # A refusal by role is a 403 page, like every other, saying why.
    assert status_code(page) == 403, f"expected the refusal page (403), got {status_code(page)}: {page.title}"
    assert "Not allowed" in page.title

    # Another: the new-round page needs the coach role.
    page.get(server.base + "/rounds/new")
    heading = wait(page).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".empty-state h1")))
    assert status_code(page) == 403
    assert heading.text == "Not allowed"
    assert "coach role" in page.find_element(By.CSS_SELECTOR, ".empty-state").text
    assert not page.find_elements(By.CSS_SELECTOR, "form[action='/rounds']")

    # Sign out from the header.
    page.find_element(By.XPATH, f"//header//button[normalize-space()='Sign out @{handle}']").click()
    wait(page).until(EC.presence_of_element_located((By.XPATH, "//header//nav/a[normalize-space()='Sign in']")))
    assert f"@{handle}" not in nav_text(page)
    page.get(server.base + "/admin")
    wait(page).until(EC.url_contains("/signin?next="))
    assert page.find_element(By.NAME, "next").get_attribute("value") == "/admin"
