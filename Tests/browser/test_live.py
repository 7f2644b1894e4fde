"""What a club sees: scores reach the TV and the round page by themselves, the TV says when
it is stale and recovers alone, and it fits the wall display."""
import re

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

from conftest import OUTPUT, response_headers


def demo(server):
    round_id = server.get("/api/v1/rounds")["rounds"][0]["id"]
    players = server.get(f"/api/v1/rounds/{round_id}")["players"]
    return round_id, players


def board_cell(driver, player_id, cell):
    return driver.execute_script(
        "const r = document.querySelector(`.leaderboard tr[data-player='${arguments[0]}'] td.${arguments[1]}`);"
        "return r ? r.textContent.trim() : null;", player_id, cell)


def scorecard_cell(driver, player_id, hole):
    return driver.execute_script(
        "const c = document.querySelector(`#scorecard tr[data-player='${arguments[0]}'] td[data-hole='${arguments[1]}']`);"
        "return c ? c.textContent.trim() : null;", player_id, hole)


def settle(driver, condition, what):
    # Waits for a state the page announces on <html data-…>; a timeout says what it showed.
    try:
        WebDriverWait(driver, 10).until(condition)
    except TimeoutException:
        shown = driver.execute_script(
            "const d = document.documentElement.dataset; return {live: d.live, liveVersion: d.liveVersion, tvLayout: d.tvLayout};")
        raise AssertionError(f"{what}; the page shows {shown}") from None


def wait_live(driver, version=None):
    # The page is live once its stream is open and it has applied a frame: the one for
    # `version` if given (a round page's frames carry the round's version; the TV's its own count).
    wanted = None if version is None else str(version)
    settle(driver, lambda d: d.execute_script(
        "const e = document.documentElement; return e.dataset.live === 'open' && !!e.dataset.liveVersion"
        " && (arguments[0] === null || e.dataset.liveVersion === arguments[0]);", wanted),
        f"the stream never showed {'a frame' if wanted is None else 'version ' + wanted}")


def test_a_posted_score_reaches_the_tv_and_the_round_page_within_two_seconds(server, browser_factory):
    round_id, players = demo(server)
    player = players[-1]["id"]
    tv, page = browser_factory(), browser_factory(1280, 900)
    tv.get(server.base + "/tv")
    page.get(server.base + f"/rounds/{round_id}")
    # Both streams are open and show the state before the score: it arrives as a change.
    wait_live(page, server.get(f"/api/v1/rounds/{round_id}/standings")["version"])
    wait_live(tv)
    assert board_cell(tv, player, "thru") is not None
    thru_before = board_cell(tv, player, "thru")

    status, _ = server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": player, "hole": 18, "strokes": 2})
    assert status == 201
    expected = server.get(f"/api/v1/rounds/{round_id}/standings")
    row = next(r for r in expected["standings"] if r["playerID"] == player)

    WebDriverWait(tv, 2).until(lambda d: board_cell(d, player, "strokes") == str(row["strokes"]))
    WebDriverWait(page, 2).until(lambda d: scorecard_cell(d, player, 18) == "2")
    WebDriverWait(page, 2).until(lambda d: board_cell(d, player, "strokes") == str(row["strokes"]))
    assert board_cell(tv, player, "thru") != thru_before
    # The browser took both streams gzipped, and read each frame as it came.
    for driver, path in ((tv, "/tv/events"), (page, f"/rounds/{round_id}/events")):
        headers = response_headers(driver, path)
        assert headers is not None and headers.get("content-encoding") == "gzip", (path, headers)


def test_the_tv_shows_a_stale_banner_and_recovers_after_a_restart(server, browser_factory):
    round_id, players = demo(server)
    player = players[-1]["id"]
    tv = browser_factory()
    tv.get(server.base + "/tv")
    WebDriverWait(tv, 10).until(lambda d: board_cell(d, player, "thru") is not None)
    banner = lambda d: d.execute_script("return !document.getElementById('tv-stale').hidden")
    assert not banner(tv)

    server.stop()
    WebDriverWait(tv, 10).until(banner)
    text = tv.execute_script("return document.getElementById('tv-stale').textContent")
    assert text.startswith("Connection lost — showing data from ")
    tv.save_screenshot(str(OUTPUT / "tv-stale.png"))

    server.start()
    status, _ = server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": player, "hole": 17, "strokes": 3})
    assert status == 201
    row = next(r for r in server.get(f"/api/v1/rounds/{round_id}/standings")["standings"] if r["playerID"] == player)
    WebDriverWait(tv, 15).until(lambda d: board_cell(d, player, "strokes") == str(row["strokes"]))
    WebDriverWait(tv, 5).until(lambda d: not banner(d))


def test_the_tv_fits_the_wall_display(server, browser_factory):
    for width, height in ((1920, 1080), (3840, 2160)):
        tv = browser_factory(width, height)
        tv.get(server.base + "/tv")
        # The layout is final once the stream's boards are in and paged with the fonts loaded.
        settle(tv, lambda d: d.execute_script(
            "const e = document.documentElement; return e.dataset.tvLayout === 'ready' && !!e.dataset.liveVersion"
            " && document.querySelectorAll('.tv-round tbody tr').length > 0;"), f"the TV layout never settled at {width}x{height}")
        tv.save_screenshot(str(OUTPUT / f"tv-{width}x{height}.png"))
        size = tv.execute_script(
            "const e = document.documentElement; return [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight,"
            " getComputedStyle(document.body).cursor, getComputedStyle(document.body).overflow];")
        scroll_width, client_width, scroll_height, client_height, cursor, overflow = size
        assert scroll_width <= client_width, f"horizontal scrollbar at {width}x{height}: {size}"
        assert scroll_height <= client_height, f"vertical overflow at {width}x{height}: {size}"
        assert cursor == "none" and overflow == "hidden"


def test_long_boards_are_paged(server, browser_factory):
    # A 30-player round cannot fit one 1080p screen: the TV pages through it by itself.
    course = server.post_form("/courses", {"name": "Field Day", "holeCount": "9"})
    course_id = course.split("courseID=")[1]
    for i in range(30):
        server.post_form("/players", {"displayName": f"Player {i:02d}", "handle": f"field{i:02d}"})
    form = server.get_text("/rounds/new")
    ids = re.findall(r'name="playerIDs\[\]" value="([0-9a-f-]{36})"> Player', form)
    assert len(ids) == 30
    location = server.post_form("/rounds", [("courseID", course_id), ("name", "Field Day"), ("startNow", "1")] + [("playerIDs[]", i) for i in ids])
    round_id = location.rsplit("/", 1)[1]

    tv = browser_factory()
    tv.get(server.base + f"/tv?round={round_id}&page=3")
    WebDriverWait(tv, 10).until(lambda d: d.execute_script("return document.querySelectorAll('.tv-active tbody tr').length") == 30)
    visible = lambda d: d.execute_script(
        "return Array.from(document.querySelectorAll('.tv-round.tv-active tbody tr')).filter(r => !r.classList.contains('tv-hidden'))"
        ".map(r => r.getAttribute('data-player'))")
    first = visible(tv)
    assert 0 < len(first) < 30
    assert tv.execute_script("return document.querySelector('.tv-active .tv-page-indicator').textContent").startswith("Page 1 of")
    WebDriverWait(tv, 8).until(lambda d: visible(d) and visible(d) != first)
    assert tv.execute_script("return document.querySelector('.tv-active .tv-page-indicator').textContent").startswith("Page 2 of")
    size = tv.execute_script("const e = document.documentElement; return [e.scrollHeight, e.clientHeight]")
    assert size[0] <= size[1], f"a page overflows the screen: {size}"


def test_a_player_who_moves_up_gets_an_arrow_and_a_highlight(server, browser_factory):
    round_id, _ = demo(server)
    before = server.get(f"/api/v1/rounds/{round_id}/standings")
    standings = before["standings"]
    ranked = [row for row in standings if row["thru"] > 0 and not row["dnf"]]
    last = ranked[-1]
    page = browser_factory(1280, 900)
    page.get(server.base + f"/rounds/{round_id}/leaderboard")
    # The board on screen is the stream's, as of now: the ace below arrives as a move.
    wait_live(page, before["version"])
    # An ace on a par 3 lifts the last player two strokes, above at least one other.
    status, _ = server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": last["playerID"], "hole": 16, "strokes": 1})
    assert status == 201
    after = server.get(f"/api/v1/rounds/{round_id}/standings")["standings"]
    assert [r["playerID"] for r in after].index(last["playerID"]) < [r["playerID"] for r in standings].index(last["playerID"])
    arrow = lambda d: d.execute_script(
        "const r = document.querySelector(`.leaderboard tr[data-player='${arguments[0]}']`);"
        "return r ? [r.querySelector('.move') ? r.querySelector('.move').textContent : null, r.classList.contains('moved')] : null;",
        last["playerID"])
    WebDriverWait(page, 3).until(lambda d: arrow(d) and arrow(d)[0] == "▲")
    assert arrow(page)[1], "the moved row is highlighted"


def test_opening_a_board_flashes_nothing_and_a_new_score_flashes_its_row(server, browser_factory):
    round_id, _ = demo(server)
    before = server.get(f"/api/v1/rounds/{round_id}/standings")
    player = next(row for row in before["standings"] if row["thru"] < 18 and not row["dnf"])
    for path in (f"/rounds/{round_id}/leaderboard", f"/rounds/{round_id}"):
        page = browser_factory(1280, 900)
        page.get(server.base + path)
        # The frame a stream opens with is the board already on screen: no row flashes.
        wait_live(page, before["version"])
        flashing = page.execute_script("return document.querySelectorAll('.leaderboard tr.updated, .leaderboard tr.moved').length")
        assert flashing == 0, f"{path}: {flashing} rows flash on opening"
    hole = player["thru"] + 1
    status, _ = server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": player["playerID"], "hole": hole, "strokes": 3})
    assert status == 201
    WebDriverWait(page, 5).until(lambda d: d.execute_script(
        "return document.querySelectorAll('.leaderboard tr.updated, .leaderboard tr.moved').length") >= 1)
    marked = page.execute_script(
        "return Array.from(document.querySelectorAll('.leaderboard tr.updated, .leaderboard tr.moved')).map(r => r.dataset.player)")
    assert player["playerID"] in marked
