"""Signing an 18-hole card on a 360 px phone: the review of the whole card keeps each name
readable in a column of its own that stays in place, and the holes scroll sideways inside
the table's frame, not the page."""
from selenium.webdriver.common.by import By

from conftest import Server
from test_backups import sign_in
from test_league import wait

ATHLETE = Server.USERS["athlete"]
LONG_NAME = "Maximiliana Bartholomew"


def test_the_names_of_an_18_hole_card_stay_readable_when_signing_on_a_phone(server, browser_factory):
    _, course = server.post("/api/v1/courses", {"name": "Eighteen", "holes": [{"number": h, "par": 3 + h % 2} for h in range(1, 19)]})
    athlete = next(p for p in server.get("/api/v1/players")["players"] if p["handle"] == ATHLETE[0])
    _, long_named = server.post("/api/v1/players", {"displayName": LONG_NAME, "handle": "maximiliana"})
    ids = [athlete["id"], long_named["id"]]
    _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "name": "Night", "start": True, "players": [{"playerID": i} for i in ids]})
    _, cards = server.post(f"/api/v1/rounds/{round_['id']}/cards", {"cards": [{"name": "Card 1", "startingHole": 1, "playerIDs": ids}]})
    for hole in range(1, 19):
        for player in ids:
            status, _ = server.post(f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player, "hole": hole, "strokes": 3})
            assert status == 201

    page = browser_factory(360, 740)
    # Headless Chrome keeps windows at least 500 px wide: emulate the phone's screen instead.
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    page.get(f"{server.base}/rounds/{round_['id']}/cards/{cards['cards'][0]['id']}#sign")
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.review-card tbody th.name"))
    assert page.execute_script("return window.innerWidth") == 360

    measure = """
        const cell = Array.from(document.querySelectorAll("table.review-card tbody th.name")).find(c => c.textContent.trim() === arguments[0]);
        const text = cell.firstChild;
        // Each word on one line: its characters' boxes all share a top.
        const broken = [];
        for (const match of text.data.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(text, match.index);
          range.setEnd(text, match.index + match[0].length);
          const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
        const box = cell.getBoundingClientRect();
        const style = getComputedStyle(cell);
        const frame = cell.closest(".table-scroll");
        return {width: box.width, left: box.left, broken: broken,
                textHeight: box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
                lineHeight: parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.45,
                frame: [frame.scrollWidth, frame.clientWidth], page: document.documentElement.scrollWidth};
    """
    before = page.execute_script(measure, LONG_NAME)
    assert before["width"] >= 90, f"the name column is {before['width']} px wide: {before}"
    assert before["broken"] == [], f"words broken across lines: {before}"
    # Two words, two lines at most (a name set one letter per line is many times taller).
    assert before["textHeight"] <= 2.5 * before["lineHeight"], before
    # The holes scroll inside the table's frame; the page itself does not scroll sideways.
    assert before["page"] <= 360, before
    assert before["frame"][0] > before["frame"][1], before

    # Scrolled to the last holes, the names are still in view where they were.
    page.execute_script("const f = document.querySelector('table.review-card').closest('.table-scroll'); f.scrollLeft = f.scrollWidth;")
    wait(page).until(lambda d: d.execute_script("return document.querySelector('table.review-card').closest('.table-scroll').scrollLeft > 0"))
    after = page.execute_script(measure, LONG_NAME)
    assert abs(after["left"] - before["left"]) < 1, (before, after)
    last = page.execute_script("const c = document.querySelector('table.review-card thead th:nth-last-child(3)'); const b = c.getBoundingClientRect(); return [c.textContent.trim(), b.left, b.right];")
    assert last[0] == "18" and last[2] <= 360 and last[1] >= after["left"] + after["width"] - 1, last
