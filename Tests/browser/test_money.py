"""A night's money on a coach's 360 px phone: the fees came in by fund, the ace in the scores is
proposed the ace pot, the coach confirms it with one tap and marks the winner's purse payout
paid in cash; every step fits the screen and the books show it."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_bag_tags import fits, phone
from test_league import wait
from test_season import sign_in_here

COACH = ("cory.coach", "coach password 123")


def test_a_coach_pays_the_ace_pot_and_the_winner_from_a_phone(server, browser_factory):
    demo = server.get(f"/api/v1/rounds/{server.get('/api/v1/rounds')['rounds'][0]['id']}")
    course = server.get("/api/v1/courses")["courses"][0]["id"]
    players = demo["players"][:3]
    _, season = server.post("/api/v1/seasons", {"name": "Money league", "divisions": ["MPO"]})
    _, ace = server.post("/api/v1/pots", {"name": "Ace pot", "kind": "ace"})
    server.patch(f"/api/v1/seasons/{season['id']}", {"fees": {"entry": {"MPO": 1000}, "split": [
        {"fund": ace["id"], "cents": 200}, {"fund": "purse", "percent": 100}], "payout": {"percentages": [70, 30]}}})
    _, night = server.post("/api/v1/events", {"name": "Money night", "divisions": ["MPO"], "seasonID": season["id"]})
    for player in players:
        server.post(f"/api/v1/events/{night['id']}/checkins", {"playerID": player["id"], "division": "MPO", "paid": True})
    _, round_ = server.post("/api/v1/rounds", {"courseID": course, "start": True, "eventID": night["id"],
                                                "players": [{"playerID": p["id"], "division": "MPO"} for p in players]})
    for index, player in enumerate(players):
        for hole in demo["holes"]:
            strokes = 1 if index == 0 and hole["number"] == 1 else 3 + index
            server.post(f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player["id"], "hole": hole["number"], "strokes": strokes})
    server.post(f"/api/v1/rounds/{round_['id']}/complete", {})

    page = phone(browser_factory)
    page.get(f"{server.base}/signin?next=/events/{night['id']}/money")
    sign_in_here(page, *COACH)
    wait(page).until(lambda d: "/money" in d.current_url)
    incoming = page.find_element(By.CSS_SELECTOR, ".money-in").text
    assert "$24.00" in incoming and "$6.00" in incoming, incoming  # 3 × 8.00 to the purse, 3 × 2.00 to the ace pot
    assert "1 ace × $6.00 from Ace pot" in page.find_element(By.CSS_SELECTOR, ".money-aces").text
    assert fits(page), "the night's money fits a 360 px phone"

    page.find_element(By.XPATH, "//button[normalize-space()=\"Confirm the ace pot's payout\"]").click()
    wait(page).until(lambda d: "The payout is recorded." in d.page_source)
    assert "Ace pot: $0.00" in page.find_element(By.CSS_SELECTOR, ".money-pots").text.replace("\n", " ")
    assert not page.find_elements(By.XPATH, "//button[normalize-space()=\"Confirm the ace pot's payout\"]"), "paid once"

    winner = page.find_element(By.CSS_SELECTOR, f"tr[data-player='{players[0]['id']}']")
    assert "$16.80" in winner.text, winner.text  # 70 % of the 24.00 purse
    Select(winner.find_element(By.NAME, "method")).select_by_value("cash")
    winner.find_element(By.XPATH, ".//button[normalize-space()='Record']").click()
    wait(page).until(lambda d: "Paid (cash)" in d.find_element(By.CSS_SELECTOR, f"tr[data-player='{players[0]['id']}']").text)
    assert fits(page)

    ledger = server.get("/api/v1/money/ledger")
    assert ledger["balanceCents"] == 3000 - 600 - 1680
    assert sum(line["cents"] for line in ledger["lines"]) == ledger["balanceCents"]
