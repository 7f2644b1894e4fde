"""A coach checks in the night's players at once on a 360 px phone (#37, item 5): ticks,
a division picked only beside the first-timer, one tap, everyone listed; the page fits."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_backups import sign_in
from test_offline import COACH, phone, wait


def test_a_coach_ticks_the_nights_players_and_picks_a_division_only_for_the_first_timer(server, browser_factory):
    _, season = server.post("/api/v1/seasons", {"name": "League", "divisions": ["MPO", "FPO"]})
    _, event = server.post("/api/v1/events", {"name": "Week 1", "divisions": ["MPO", "FPO"], "seasonID": season["id"]})
    athletes = [p for p in server.get("/api/v1/players")["players"] if p["role"] == "athlete"][:3]
    server.patch(f"/api/v1/players/{athletes[0]['id']}", {"division": "FPO"})
    server.patch(f"/api/v1/players/{athletes[1]['id']}", {"division": "MPO"})

    page = phone(browser_factory)
    sign_in(page, server, *COACH[::2])
    page.get(f"{server.base}/events/{event['id']}")
    # A coach's menu is one line that scrolls on its own, not a third of the first screen.
    menu = page.execute_script("return document.querySelector('header.topbar').getBoundingClientRect().height")
    assert menu <= 100, f"the signed-in menu takes {menu} px of a 740 px screen (two lines: the club, the menu)"
    form = page.find_element(By.CSS_SELECTOR, "form.check-in-many")
    for athlete in athletes:
        form.find_element(By.NAME, f"chosen[{athlete['id']}]").click()
    assert not form.find_elements(By.NAME, f"division[{athletes[0]['id']}]"), "a known division is not asked"
    Select(form.find_element(By.NAME, f"division[{athletes[2]['id']}]")).select_by_value("FPO")
    form.find_element(By.NAME, f"paid[{athletes[1]['id']}]").click()
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360, "the ticks fit the phone"
    form.find_element(By.XPATH, ".//button[normalize-space()='Check in the ticked players']").click()
    wait(page).until(lambda d: "3 checked in · 1 paid the entry fee" in d.find_element(By.CSS_SELECTOR, ".check-in .meta").text)
    listed = {c["playerID"]: c["division"] for c in server.get(f"/api/v1/events/{event['id']}/checkins")["checkins"]}
    assert listed == {athletes[0]["id"]: "FPO", athletes[1]["id"]: "MPO", athletes[2]["id"]: "FPO"}
