"""axe-core (through axe-selenium-python) on every page a club uses, as the public sees them
and as a coach does, on a desktop and on a 360 px phone: no violations of WCAG 2 A/AA or
axe's best practices (landmarks, regions, contrast, labels, names)."""
import json

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import OUTPUT
from test_backups import sign_in

COACH = ("cory.coach", "coach password 123")


def violations(page):
    axe = Axe(page)
    axe.inject()
    found = axe.run()["violations"]
    return [f"{v['id']} ({v['impact']}): {', '.join(str(n['target']) for n in v['nodes'][:3])}" for v in found]


@pytest.fixture
def club(server):
    """The demo round (scored), an event, and a round planned on cards (for the card page)."""
    demo_id = server.get("/api/v1/rounds")["rounds"][0]["id"]
    demo = server.get(f"/api/v1/rounds/{demo_id}")
    course = server.get("/api/v1/courses")["courses"][0]["id"]
    _, season = server.post("/api/v1/seasons", {"name": "Summer league", "divisions": ["MPO", "FPO"], "points": {"rule": "table", "table": [10, 8, 6], "bestNights": 4}})
    _, event = server.post("/api/v1/events", {"name": "Thursday League", "divisions": ["MPO", "FPO"], "seasonID": season["id"]})
    _, carded = server.post("/api/v1/rounds", {"courseID": course, "name": "Cards night", "eventID": event["id"],
                                               "players": [{"playerID": p["id"], "division": "MPO"} for p in demo["players"]]})
    _, cards = server.post(f"/api/v1/rounds/{carded['id']}/cards", {"auto": {"shotgun": True}})
    card = f"/rounds/{carded['id']}/cards/{cards['cards'][0]['id']}"
    # Check-in open, with a player in: the night's QR code, its list with the fee and undo
    # buttons, and the TV's check-in page.
    server.patch(f"/api/v1/events/{event['id']}", {"checkInOpen": True})
    # Money: an ace pot and a CTP pot the season's fees pay into, so the night's money page
    # has a fee in, a payout, a pot to pay and a winner to choose.
    _, ace = server.post("/api/v1/pots", {"name": "Ace pot", "kind": "ace", "capCents": 50000})
    _, ctp = server.post("/api/v1/pots", {"name": "CTP", "kind": "ctp"})
    server.patch(f"/api/v1/seasons/{season['id']}", {"fees": {"entry": {"*": 1000}, "split": [
        {"fund": ace["id"], "cents": 100}, {"fund": ctp["id"], "cents": 100}, {"fund": "purse", "percent": 70}, {"fund": "club", "percent": 30}],
        "payout": {"percentages": [60, 40]}}})
    server.post(f"/api/v1/events/{event['id']}/checkins", {"playerID": demo["players"][0]["id"], "division": "MPO", "paid": True})
    # Bag tags: a pool with the demo's players holding tags, and a completed tag round.
    _, tags = server.post("/api/v1/tags", {"name": "Club tags", "tags": 10})
    for number, player in enumerate(demo["players"][:4], start=1):
        server.post(f"/api/v1/tags/{tags['id']}/moves", {"kind": "assign", "tag": number, "playerID": player["id"]})
    _, tag_round = server.post("/api/v1/rounds", {"courseID": course, "name": "Tag round", "tagsID": tags["id"],
                                                  "players": [{"playerID": p["id"]} for p in demo["players"][:4]]})
    for index, player in enumerate(demo["players"][:4]):
        for hole in demo["holes"]:
            server.post(f"/api/v1/rounds/{tag_round['id']}/scores", {"playerID": player["id"], "hole": hole["number"], "strokes": 3 + index % 2})
    server.post(f"/api/v1/rounds/{tag_round['id']}/complete", {})
    server.post(f"/api/v1/tags/{tags['id']}/challenges", {"challengerID": demo["players"][3]["id"], "challengedIDs": [demo["players"][0]["id"]]})
    # A best shot doubles round with a cali, on cards: its page names the format, the rule and
    # the teams; its card page scores teams.
    _, doubles = server.post("/api/v1/rounds", {"courseID": course, "name": "Doubles", "format": "bestShot", "draw": {"teamsOf": 2},
                                                "players": [{"playerID": p["id"]} for p in demo["players"][:5]]})
    _, doubles_cards = server.post(f"/api/v1/rounds/{doubles['id']}/cards", {"auto": {"shotgun": True}})
    doubles_card = f"/rounds/{doubles['id']}/cards/{doubles_cards['cards'][0]['id']}"
    # A bracket of five (three byes) with its first match under way, and its TV view.
    _, cup = server.post("/api/v1/events", {"name": "Club cup"})
    _, bracket = server.post(f"/api/v1/events/{cup['id']}/bracket", {"seeds": [p["id"] for p in demo["players"][:5]]})
    ready = next(m for m in bracket["rounds"][0]["matches"] if not m["bye"])
    server.post("/api/v1/rounds", {"courseID": course, "format": "match", "matchID": ready["id"]})
    # A putting round with putts in: its layout, lie-by-lie entry and points board.
    _, putting = server.post("/api/v1/rounds", {"courseID": course, "name": "Putting", "format": "putting",
                                                "putting": {"stations": 2, "distances": [{"feet": 15, "points": 1}, {"feet": 25, "points": 2}], "putts": 3},
                                                "players": [{"playerID": p["id"]} for p in demo["players"][:3]]})
    for lie in range(1, 5):
        server.post(f"/api/v1/rounds/{putting['id']}/scores", {"playerID": demo["players"][0]["id"], "hole": lie, "made": lie % 4})
    # A mulligan night with a mulligan used and one bought, on a card: its section, the sale
    # form (coach), the Mulligans column and the card's mulligan fields.
    _, mulligans = server.post("/api/v1/rounds", {"courseID": course, "name": "Mulligans", "mulligans": {"given": 1, "forSale": 2},
                                                  "players": [{"playerID": p["id"]} for p in demo["players"][:3]]})
    server.post(f"/api/v1/rounds/{mulligans['id']}/mulligans", {"playerID": demo["players"][1]["id"], "count": 1})
    _, mulligan_cards = server.post(f"/api/v1/rounds/{mulligans['id']}/cards", {"auto": {"shotgun": True}})
    server.post(f"/api/v1/rounds/{mulligans['id']}/scores", {"playerID": demo["players"][1]["id"], "hole": 1, "strokes": 3, "mulligans": 2})
    mulligan_card = f"/rounds/{mulligans['id']}/cards/{mulligan_cards['cards'][0]['id']}"
    public = [f"/rounds/{mulligans['id']}", f"/rounds/{mulligans['id']}/leaderboard", mulligan_card, f"/rounds/{putting['id']}", f"/rounds/{putting['id']}/leaderboard", f"/events/{cup['id']}/bracket", f"/events/{cup['id']}/bracket?tv=1", f"/rounds/{doubles['id']}", doubles_card, "/tags", f"/tags/{tags['id']}", f"/rounds/{tag_round['id']}", "/", f"/rounds/{demo_id}", f"/rounds/{demo_id}/leaderboard", f"/events/{event['id']}", "/events", "/tv", "/signin", card,
              "/seasons", f"/seasons/{season['id']}", f"/players/{demo['players'][0]['id']}", f"/courses/{course}"]
    coach = public + [f"/events/{event['id']}/bracket/new", "/tags/new", "/seasons/new", f"/seasons/{season['id']}/edit", "/rounds/new", "/courses", "/courses/new", f"/courses/{course}/edit", "/players", "/players/new", "/events/new", "/sync",
                      f"/rounds/{demo_id}/edit", f"/rounds/{carded['id']}", "/invites",
                      "/money", f"/pots/{ace['id']}", f"/events/{event['id']}/money", f"/seasons/{season['id']}/fees"]
    return public, coach, demo_id, demo["players"]


@pytest.mark.parametrize("width,height", [(1280, 900), (360, 740)])
def test_pages_have_no_accessibility_violations(server, browser_factory, club, width, height):
    public, coach, demo_id, demo_players = club
    found = {}
    anonymous = browser_factory(width, height)
    for path in public:
        anonymous.get(server.base + path)
        found.update({f"{path} (public)": v for v in [violations(anonymous)] if v})
    # The TV while a row flashes for a new score (its colours for 2.5 s).
    anonymous.get(server.base + "/tv")
    server.post(f"/api/v1/rounds/{demo_id}/scores", {"playerID": demo_players[0]["id"], "hole": 18, "strokes": 2})
    WebDriverWait(anonymous, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "tr.updated"))
    # Held at the flash's first frame, its strongest colour: what a viewer reads first.
    anonymous.execute_script("document.getAnimations().forEach(function (a) { a.pause(); a.currentTime = 0; })")
    found.update({"/tv (a row flashing)": v for v in [violations(anonymous)] if v})
    signed_in = browser_factory(width, height)
    sign_in(signed_in, server, *COACH)
    for path in coach:
        signed_in.get(server.base + path)
        found.update({f"{path} (coach)": v for v in [violations(signed_in)] if v})
    # The invite sheet (made by a form, so not in the list): every player ticked.
    signed_in.get(server.base + "/invites")
    signed_in.find_element(By.XPATH, "//button[normalize-space()='Make the invite sheet']").click()
    WebDriverWait(signed_in, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".invite-card svg"))
    found.update({"invite sheet (coach)": v for v in [violations(signed_in)] if v})
    assert signed_in.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), "the sheet fits"
    # Each card's code sits beside its name and link, never over them (it did at every width).
    overlaps = signed_in.execute_script("""
        return Array.from(document.querySelectorAll('.invite-card')).filter(function (card) {
          var code = card.querySelector('.invite-code svg').getBoundingClientRect();
          return Array.from(card.querySelectorAll('.invite-name, .invite-link')).some(function (text) {
            var box = text.getBoundingClientRect();
            return box.left < code.right - 0.5 && box.right > code.left && box.top < code.bottom && box.bottom > code.top;
          });
        }).length;""")
    assert overlaps == 0, f"{overlaps} invite cards have the QR code over the text"
    (OUTPUT / f"axe-{width}.json").write_text(json.dumps(found, indent=2))
    assert not found, f"axe-core found violations at {width} px: {json.dumps(found, indent=2)}"
