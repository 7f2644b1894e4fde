"""The clubhouse TV on a 1920×1080 wall display on a league night: the check-in page shows the
link whole, then once the night's round is under way its 9-player division is on one page,
across the screen's width beside another board, with its title on one line, and the check-in
page has left the rotation."""
import datetime

from selenium.webdriver.support.ui import WebDriverWait

NAMES = ["Maximiliana Bartholomew", "Alexander Hamilton-Smythe", "Christopher Montgomery", "Evangeline Featherstone",
         "Theodora Kowalczyk", "Jo Lee", "Sam Wu", "Bob Stone", "Ray Park"]
NIGHT = "Tuesday Evening Summer League Night 7"

# Where the text of an element breaks onto a new line: for each line after the first, the
# character the line before ends with; and how many lines there are.
LINES = """
    const element = document.querySelector(arguments[0]);
    if (!element) return null;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const chars = [];
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.height > 0 && node.data[i].trim()) chars.push([node.data[i], rect.top, rect.height]);
      }
    }
    const endings = [];
    for (let i = 1; i < chars.length; i++) {
      if (chars[i][1] > chars[i - 1][1] + chars[i - 1][2] / 2) endings.push(chars[i - 1][0]);
    }
    const box = element.getBoundingClientRect();
    return {endings: endings, lines: endings.length + 1, height: box.height, right: box.right,
            lineHeight: parseFloat(getComputedStyle(element).lineHeight), text: element.textContent};
"""


def wall_display(browser_factory):
    tv = browser_factory(1920, 1080)
    # The window has browser chrome around the page: make the page itself 1920×1080.
    tv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
    return tv


def test_a_league_night_fills_the_wall_display(server, browser_factory):
    today = datetime.date.today().isoformat()
    _, season = server.post("/api/v1/seasons", {"name": "Tuesday league", "startsOn": today, "divisions": ["MPO", "FPO"]})
    _, night = server.post("/api/v1/events", {"name": NIGHT, "divisions": ["MPO", "FPO"], "seasonID": season["id"]})
    server.patch(f"/api/v1/events/{night['id']}", {"checkInOpen": True})
    ids = [server.post("/api/v1/players", {"displayName": name, "handle": f"wall{i}"})[1]["id"] for i, name in enumerate(NAMES)]
    _, course = server.post("/api/v1/courses", {"name": "Riverside", "holes": [{"number": h, "par": 3} for h in range(1, 19)]})

    tv = wall_display(browser_factory)
    tv.get(f"{server.base}/tv?page=3")
    assert tv.execute_script("return [window.innerWidth, window.innerHeight]") == [1920, 1080]

    # The check-in page comes round: its link breaks nowhere, or only after a '/'.
    panel = f".tv-checkin[data-round='{night['id']}']"
    WebDriverWait(tv, 15).until(lambda d: d.execute_script(f"const s = document.querySelector(\"{panel}\"); return !!s && s.classList.contains('tv-active');"))
    link = tv.execute_script(LINES, f"{panel} .tv-checkin-link")
    assert link["text"] == f"{server.base}/c/{night['id'][:8]}"
    assert all(ending == "/" for ending in link["endings"]), f"the address breaks inside a word: {link}"
    assert link["right"] <= 1920
    title = tv.execute_script(LINES, f"{panel} h1")
    assert title["lines"] == 1 and title["height"] <= 1.5 * title["lineHeight"], title

    # The night's round starts with its nine players in MPO.
    _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "name": NIGHT, "eventID": night["id"], "start": True,
                                               "players": [{"playerID": i, "division": "MPO"} for i in ids]})
    for k, player in enumerate(ids):
        status, _ = server.post(f"/api/v1/rounds/{round_['id']}/scores", {"playerID": player, "hole": 1, "strokes": 2 + k % 3})
        assert status == 201
    board = f"{round_['id']}/MPO"

    # The check-in page has left the rotation; the division is in it, in one run of rows.
    rotation = lambda d: d.execute_script("return window.HyzerTV.rotation();")
    WebDriverWait(tv, 10).until(lambda d: any(key.startswith(board + "#") for page in rotation(d) for key in page)
                                and not d.execute_script(f"return !!document.querySelector(\"{panel}\");"))
    pages = rotation(tv)
    assert not [key for page in pages for key in page if key.startswith("checkin/")], pages
    assert [key for page in pages for key in page if key.startswith(board + "#")] == [board + "#0"], pages
    # Fewer pages than boards: the division's page holds another board beside it.
    assert len(next(page for page in pages if board + "#0" in page)) >= 2, pages
    assert len(pages) < sum(len(page) for page in pages), pages

    # When its page comes round: all nine rows at once, the boards across the screen's width.
    section = f".tv-round[data-board='{board}']"
    WebDriverWait(tv, 15).until(lambda d: d.execute_script(f"const s = document.querySelector(\"{section}\"); return !!s && s.classList.contains('tv-active');"))
    shown = tv.execute_script("""
        const section = document.querySelector(arguments[0]);
        const rows = Array.from(section.querySelectorAll("tbody tr[data-player]"));
        const onScreen = rows.filter(r => { const b = r.getBoundingClientRect(); return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight; });
        const boards = Array.from(document.querySelectorAll(".tv-round.tv-active")).map(s => s.getBoundingClientRect());
        const first = rows[0].getBoundingClientRect();
        return {rows: rows.length, onScreen: onScreen.length, width: section.getBoundingClientRect().width,
                left: Math.min(...boards.map(b => b.left)), right: Math.max(...boards.map(b => b.right)),
                rowHeight: first.height, below: innerHeight - first.top,
                scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
    """, section)
    assert shown["rows"] == 9 and shown["onScreen"] == 9, shown
    assert shown["right"] - shown["left"] >= 0.8 * 1920, f"the boards use {shown['right'] - shown['left']} px of 1920: {shown}"
    assert shown["width"] >= 0.4 * 1920, shown
    # Room under the header for a division of sixteen.
    assert 16 * shown["rowHeight"] <= shown["below"], shown
    assert shown["scroll"][0] <= 1920 and shown["scroll"][1] <= 1080, shown
    title = tv.execute_script(LINES, f"{section} h1")
    assert title["lines"] == 1 and title["height"] <= 1.5 * title["lineHeight"], title
    assert title["text"].strip().endswith("MPO"), "the division shows even when the name is cut short"
