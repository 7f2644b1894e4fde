"""A late arrival on a phone's card (#37, item 6), through card.js at 360 px: the card keeps
its place when a player joins it mid-round, and the holes it played before are blank ("missed")
for the newcomer, so one tap on Save never records holes they did not play."""
from selenium.webdriver.common.by import By

from test_backups import sign_in
from test_offline import COACH, hole_shown, nine_hole_round, open_card, phone, save, wait


def test_a_late_arrival_does_not_pull_the_card_back_and_missed_holes_stay_unscored(server, browser_factory):
    demo = [p["handle"] for p in server.get("/api/v1/players")["players"] if p["role"] == "athlete"][:3]
    round_id, card_id, ids = nine_hole_round(server, demo[:2])
    for hole in (1, 2, 3):
        server.post(f"/api/v1/rounds/{round_id}/cards/{card_id}/holes/{hole}", {"scores": [{"playerID": i, "strokes": 3} for i in ids]})
    newcomer = next(p["id"] for p in server.get("/api/v1/players")["players"] if p["handle"] == demo[2])
    server.post(f"/api/v1/rounds/{round_id}/players", {"playerID": newcomer, "cardID": card_id})

    page = phone(browser_factory)
    sign_in(page, server, *COACH[::2])
    open_card(page, server, round_id, card_id)
    assert hole_shown(page) == "Hole 4", "the card stays on its next hole"

    # Back on hole 2: the newcomer's box is blank and says why; the others show their 3s.
    page.find_element(By.CSS_SELECTOR, "nav.card-holes a[href='?hole=2']").click()
    wait(page).until(lambda d: hole_shown(d) == "Hole 2")
    field = page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{newcomer}'] input[name^=strokes]")
    assert field.get_attribute("value") == "" and field.get_attribute("placeholder") == "missed" and not field.get_attribute("required")
    assert "Missed" in page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{newcomer}'] .missed-note").text
    # One tap saves the others' correction and nothing for the newcomer.
    save(page, {ids[0]: 4})
    wait(page).until(lambda d: any(e["playerID"] == ids[0] and e["hole"] == 2 and e["strokes"] == 4
                                   for e in server.get(f"/api/v1/rounds/{round_id}/scores")["events"]))
    assert not [e for e in server.get(f"/api/v1/rounds/{round_id}/scores")["events"] if e["playerID"] == newcomer]

    # On hole 4, which the card has not played, everyone starts at par.
    page.find_element(By.CSS_SELECTOR, "nav.card-holes a[href='?hole=4']").click()
    wait(page).until(lambda d: hole_shown(d) == "Hole 4")
    field = page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{newcomer}'] input[name^=strokes]")
    assert field.get_attribute("value") == "3" and field.get_attribute("required")
