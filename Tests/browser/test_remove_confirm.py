"""Remove on an edit page asks first: one click shows what would be removed and what is kept,
and nothing is removed until that page's own button is pressed; Cancel goes back. Plain
forms, so it works the same with JavaScript off."""
from selenium.webdriver.common.by import By

from conftest import Server
from test_backups import sign_in
from test_league import wait

COACH = Server.USERS["coach"]


def player_names(server):
    return [p["displayName"] for p in server.get("/api/v1/players")["players"]]


def ask_to_remove(page, edit_url):
    page.get(edit_url)
    page.find_element(By.XPATH, "//form[contains(@action, '/remove')]//button[normalize-space()='Remove']").click()
    wait(page).until(lambda d: d.find_element(By.TAG_NAME, "h1").text.startswith("Remove the "))


def test_remove_asks_first_and_removes_only_once_confirmed(server, browser_factory):
    _, player = server.post("/api/v1/players", {"displayName": "Wrong Name", "handle": "wrong.name"})
    page = browser_factory(1280, 900)
    sign_in(page, server, COACH[0], COACH[2])
    edit = f"{server.base}/players/{player['id']}/edit"

    # One click on Remove: a question naming the player and what is kept; nothing removed.
    ask_to_remove(page, edit)
    assert page.find_element(By.TAG_NAME, "h1").text == "Remove the player “Wrong Name”?"
    assert "Kept either way" in page.find_element(By.CSS_SELECTOR, "section.remove-confirm").text
    assert "Wrong Name" in player_names(server)

    # Cancel goes back to the edit page, still nothing removed.
    page.find_element(By.LINK_TEXT, "Cancel").click()
    wait(page).until(lambda d: d.current_url == edit)
    assert "Wrong Name" in player_names(server)

    # Asked again and confirmed: removed, and the list says so.
    ask_to_remove(page, edit)
    page.find_element(By.XPATH, "//button[normalize-space()='Yes, remove Wrong Name']").click()
    wait(page).until(lambda d: d.current_url.endswith("/players?notice=deleted"))
    assert "Removed." in page.find_element(By.TAG_NAME, "main").text
    assert "Wrong Name" not in player_names(server)


def test_remove_asks_first_with_javascript_off(server, browser_factory):
    course = server.post_form("/courses", {"name": "Typo Park", "holeCount": "9"})
    course_id = course.split("courseID=")[1]
    page = browser_factory(1280, 900)
    page.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    sign_in(page, server, COACH[0], COACH[2])

    ask_to_remove(page, f"{server.base}/courses/{course_id}/edit")
    assert page.find_element(By.TAG_NAME, "h1").text == "Remove the course “Typo Park”?"
    assert "Typo Park" in [c["name"] for c in server.get("/api/v1/courses")["courses"]]
    page.find_element(By.XPATH, "//button[normalize-space()='Yes, remove Typo Park']").click()
    wait(page).until(lambda d: d.current_url.endswith("/courses?notice=deleted"))
    assert "Typo Park" not in [c["name"] for c in server.get("/api/v1/courses")["courses"]]
