"""Ratings and statistics in a browser: a player's page and a layout's page on a 360 px phone
and printed, and the TV's page of tonight's hardest holes following the scores live."""
import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import OUTPUT
from test_accessibility import violations

RATINGS = [1000, 975, 950, 925, 900, 875]


def post_csv(server, path, text):
    request = urllib.request.Request(server.base + path, data=text.encode(), method="POST",
                                     headers={"content-type": "text/csv", "Authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def rated_club(server):
    """Six players with entered ratings and two completed 9-hole rounds: each player has two
    round ratings (a history line) and every hole statistics."""
    _, course = server.post("/api/v1/courses", {"name": "Nine Baskets", "holes": [{"number": n, "par": 3} for n in range(1, 10)]})
    players = []
    for index, rating in enumerate(RATINGS):
        _, player = server.post("/api/v1/players", {"displayName": f"Rated Player {index}", "handle": f"rated{index}"})
        request = urllib.request.Request(server.base + f"/api/v1/players/{player['id']}/rating", data=json.dumps({"rating": rating}).encode(),
                                         method="PUT", headers={"content-type": "application/json", "Authorization": f"Bearer {server.token}"})
        urllib.request.urlopen(request, timeout=5).close()
        players.append(player)
    for night in range(2):
        _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "name": f"League {night + 1}", "start": True,
                                                   "players": [{"playerID": p["id"]} for p in players]})
        rows = "".join(f"rated{i}," + ",".join(str(3 + (1 if h < i + night else 0)) for h in range(9)) + "\n" for i in range(6))
        post_csv(server, f"/api/v1/rounds/{round_['id']}/results", "handle," + ",".join(str(h) for h in range(1, 10)) + "\n" + rows)
        server.post(f"/api/v1/rounds/{round_['id']}/complete", {})
    return course, players


def test_a_players_and_a_layouts_pages_read_on_a_phone_and_printed(server, browser_factory):
    course, players = rated_club(server)
    last = players[-1]
    page = browser_factory(360, 740)
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    page.get(f"{server.base}/players/{last['id']}")
    assert page.find_element(By.CSS_SELECTOR, ".rating-value").text == "875", "two rated rounds: the entered rating stands"
    assert "Entered by a coach" in page.find_element(By.CSS_SELECTOR, ".player-rating .meta").text
    chart = page.find_element(By.CSS_SELECTOR, "svg.rating-chart")
    assert chart.is_displayed() and 200 <= chart.size["width"] <= 340, chart.size
    ratings = [cell.text for cell in page.find_elements(By.CSS_SELECTOR, ".player-rounds td.rating")]
    assert len(ratings) == 2 and all(r.isdigit() for r in ratings), ratings
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
    page.save_screenshot(str(OUTPUT / "player-page-360.png"))
    # Printed: the chart and the rounds stay, the navigation goes, nothing runs off the page.
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert page.find_element(By.CSS_SELECTOR, "svg.rating-chart").is_displayed()
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    page.get(f"{server.base}/courses/{course['id']}")
    rows = page.find_elements(By.CSS_SELECTOR, "table.hole-stats tbody tr")
    assert len(rows) == 9
    assert "2 rounds · 108 scores" in page.find_element(By.CSS_SELECTOR, ".hole-statistics .meta").text
    # Hole 1 is the one most players took a 4 on: the hardest.
    assert rows[0].find_element(By.CSS_SELECTOR, "td.rank").text == "1"
    bar = rows[0].find_element(By.CSS_SELECTOR, "svg.score-bar")
    assert bar.get_attribute("aria-label").endswith("bogeys") and 60 <= bar.size["width"] <= 200, (bar.get_attribute("aria-label"), bar.size)
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
    page.save_screenshot(str(OUTPUT / "course-page-360.png"))


def test_tonights_hardest_holes_follow_the_scores_on_the_tv(server, browser_factory):
    demo_id = server.get("/api/v1/rounds")["rounds"][0]["id"]
    demo = server.get(f"/api/v1/rounds/{demo_id}")
    holes = len(demo["holes"])
    tv = browser_factory(1280, 720)
    tv.get(server.base + "/tv?page=3")
    first_hole = lambda d: d.execute_script("var r = document.querySelector('.tv-holes tbody tr'); return r && r.getAttribute('data-hole');")
    WebDriverWait(tv, 10).until(lambda d: first_hole(d) is not None)
    assert first_hole(tv) != str(holes)
    # Everyone takes a 9 on the last hole: it tops tonight's hardest holes, on the TV at once.
    for player in demo["players"]:
        server.post(f"/api/v1/rounds/{demo_id}/scores", {"playerID": player["id"], "hole": holes, "strokes": 9})
    WebDriverWait(tv, 5).until(lambda d: first_hole(d) == str(holes))
    # The page comes round in the rotation, readable from across the room.
    WebDriverWait(tv, 20).until(lambda d: d.execute_script("var s = document.querySelector('.tv-holes'); return s && s.classList.contains('tv-active');"))
    heading = tv.find_element(By.CSS_SELECTOR, ".tv-holes h1")
    assert heading.text == "Tonight's hardest holes" and heading.is_displayed()
    row = tv.find_element(By.CSS_SELECTOR, ".tv-holes tbody tr")
    assert row.find_element(By.CSS_SELECTOR, "td.rank").text == "1" and row.find_element(By.CSS_SELECTOR, "td.topar").text.startswith("+")
    assert tv.execute_script("var e = document.documentElement; return e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight;")
    tv.save_screenshot(str(OUTPUT / "tv-hardest-holes.png"))
    found = violations(tv)
    assert not found, found
