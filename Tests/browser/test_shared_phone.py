"""A phone passed from one person to the next (issue 36, finding 2): whichever way the first
person's session ends, the next person who signs in on that phone never sees the first one's
kept pages (their name, their controls, a coach's fee log), online or with no signal
(DevTools offline and the server stopped), and IndexedDB keeps no card made for them."""
import http.cookiejar
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import NoRedirect, Server
from test_backups import sign_in
from test_offline import another_player, nine_hole_round, offline, phone, wait

COACH = Server.USERS["coach"]
ATHLETE = Server.USERS["athlete"]
ADMIN = ("ada.admin", "admin", "admin password 123")
# How long the "expired" case's session still has after it signs in (its pages are kept then).
SHORT = 8


def first_user(server, ending):
    """Who hands the phone on: the coach, or an admin (sign out everywhere is on /admin)."""
    if ending == "everywhere-here":
        server.cli("admin", "create-user", ADMIN[0], "--role", "admin", input=ADMIN[2])
        return ADMIN
    return COACH


def league_night(server):
    """A night whose fee log (a coach's) has a line, a round with a card of the athlete, and
    another round's card the athlete never opens (the card IndexedDB would keep for the coach)."""
    _, night = server.post("/api/v1/events", {"name": "Tuesday league"})
    players = server.get("/api/v1/players")["players"]
    athlete = next(p["id"] for p in players if p["handle"] == ATHLETE[0])
    server.post(f"/api/v1/events/{night['id']}/checkins", {"playerID": athlete, "paid": True})
    round_id, card_id, _ = nine_hole_round(server, [ATHLETE[0], another_player(server)])
    others = [p["handle"] for p in players if p["role"] == "athlete" and p["handle"] != ATHLETE[0]][:2]
    other_round, other_card, _ = nine_hole_round(server, others)
    return (f"/rounds/{round_id}/cards/{card_id}", f"/events/{night['id']}", f"/rounds/{round_id}",
            f"/rounds/{other_round}/cards/{other_card}")


def shows_nothing_of(page, user, user_id, where):
    """The page shown holds neither the user's name, nor their controls, nor a coach's fee log."""
    html = page.page_source
    for private in (f"Sign out @{user[0]}", user_id, "Fee log", "fee-log", "Mark paid", "Mark not paid", "/rounds/new?eventID"):
        assert private not in html, f"{where}: the phone shows {private!r} of @{user[0]}"
    meta = page.find_elements(By.CSS_SELECTOR, "meta[name=hyzer-viewer]")
    assert not meta or meta[0].get_attribute("content") != user_id, where


def kept_card_viewers(page):
    """The viewer of every card kept in IndexedDB (None for an anonymous one)."""
    return page.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const opening = indexedDB.open('hyzer');
        opening.onupgradeneeded = () => opening.transaction.abort();
        opening.onerror = () => done([]);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains('cards')) { db.close(); done([]); return; }
          const all = db.transaction(['cards']).objectStore('cards').getAll();
          all.onsuccess = () => { db.close(); done(all.result.map(c => c.viewer ? c.viewer.playerID : null)); };
          all.onerror = () => done(['unreadable']);
        };
    """)


def sign_out_everywhere_elsewhere(server, handle, password):
    """The person signs in on a laptop (a plain HTTP client) and ends every session from there."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    form_token = lambda: next(c.value for c in jar if c.name == "hyzer_csrf")
    opener.open(server.base + "/signin", timeout=5).read()
    for path, fields in (("/signin", {"handle": handle, "password": password}), ("/signout/everywhere", {})):
        if path == "/signout/everywhere":
            # A signed-in page hands out this session's form token.
            opener.open(server.base + "/", timeout=5).read()
        body = urllib.parse.urlencode({"csrf": form_token(), **fields}).encode()
        try:
            opener.open(urllib.request.Request(server.base + path, data=body, method="POST"), timeout=10)
            raise AssertionError(f"{path} did not redirect")
        except urllib.error.HTTPError as error:
            assert error.code == 303, f"{path} answered {error.code}"


def end_session(ending, page, server, user):
    """Ends the user's session on the phone in one of the ways a session ends."""
    players = {p["handle"]: p["id"] for p in server.get("/api/v1/players")["players"]}
    if ending == "signout":
        page.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
        wait(page).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "meta[name=hyzer-viewer]"))
    elif ending == "everywhere-here":
        page.get(server.base + "/admin")
        page.find_element(By.CSS_SELECTOR, "form[action='/signout/everywhere'] button").click()
        wait(page).until(lambda d: "/signin" in d.current_url)
    elif ending == "everywhere-elsewhere":
        sign_out_everywhere_elsewhere(server, user[0], user[2])
    elif ending == "disabled":
        server.cli("admin", "create-user", ADMIN[0], "--role", "admin", input=ADMIN[2])
        coach_token = server.token
        server.token = server.cli("admin", "token", ADMIN[0]).strip()
        try:
            server.post_form(f"/admin/users/{players[user[0]]}/disable", {})
        finally:
            server.token = coach_token
    elif ending == "reset":
        server.cli("admin", "reset-password", user[0], input="a brand new password 456")
    elif ending == "expired":
        left = SHORT - (time.time() - page.signed_in_at)
        assert left > 0, "the pages took longer to keep than the short session lasts"
        time.sleep(left + 1)


@pytest.mark.parametrize("ending", ["signout", "everywhere-here", "everywhere-elsewhere", "disabled", "reset", "expired"])
def test_the_next_person_on_a_shared_phone_never_sees_the_last_ones_kept_pages(server, browser_factory, ending):
    first = first_user(server, ending)
    card, night, round_page, their_card = league_night(server)
    first_id = next(p["id"] for p in server.get("/api/v1/players")["players"] if p["handle"] == first[0])
    athlete_id = next(p["id"] for p in server.get("/api/v1/players")["players"] if p["handle"] == ATHLETE[0])

    # The first person uses the phone: two cards, the night (with its fee log) and the round
    # are kept on it.
    page = phone(browser_factory)
    sign_in(page, server, first[0], first[2])
    if ending == "expired":
        # No option shortens sessions: the stored session is given a near end, before any page
        # is kept, so every kept page says when it ends.
        page.signed_in_at = time.time()
        with sqlite3.connect(f"{server.data_dir}/sync.sqlite") as db:
            assert db.execute("UPDATE sessions SET expiresAt = ?", (page.signed_in_at + SHORT,)).rowcount == 1
    for path in (their_card, card):
        page.get(server.base + path)
        wait(page).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        wait(page).until(lambda d: d.find_element(By.CSS_SELECTOR, ".offline-ready").text.startswith("Ready offline"))
    page.get(server.base + night)
    assert "Fee log" in page.page_source
    page.get(server.base + round_page)
    page.get(server.base + card)
    wait(page).until(lambda d: d.find_element(By.CSS_SELECTOR, ".offline-ready").text.startswith("Ready offline"))
    assert first_id in kept_card_viewers(page)

    end_session(ending, page, server, first)
    if ending in ("everywhere-elsewhere", "disabled", "reset", "expired"):
        # Ended elsewhere: the phone, signed out now, opens the card link; it is not the kept copy.
        page.get(server.base + card)
        wait(page).until(lambda d: d.execute_script("return document.readyState") == "complete")
        shows_nothing_of(page, first, first_id, f"{ending}, online before anyone signs in")
    if ending == "expired":
        # With no signal the phone knows the session's end by itself.
        offline(page)
        server.stop()
        for path in (card, night):
            page.get(server.base + path)
            shows_nothing_of(page, first, first_id, f"{ending}, offline after the session's end: {path}")
        offline(page, False)
        server.start()

    # The next person signs in on that phone and opens the same links.
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    for path in (card, night, round_page):
        page.get(server.base + path)
        wait(page).until(lambda d: d.execute_script("return document.readyState") == "complete")
        shows_nothing_of(page, first, first_id, f"{ending}, online as the next person: {path}")
    page.get(server.base + card)
    wait(page).until(lambda d: d.find_element(By.CSS_SELECTOR, ".offline-ready").text.startswith("Ready offline"))

    # No signal at all: what the phone kept is the next person's only.
    offline(page)
    server.stop()
    for path in (card, night, round_page, their_card):
        page.get(server.base + path)
        wait(page).until(lambda d: d.execute_script("return document.readyState") == "complete")
        shows_nothing_of(page, first, first_id, f"{ending}, offline as the next person: {path}")
    page.get(server.base + card)
    # Their own card still opens with no signal, as theirs.
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "meta[name=hyzer-kept-copy]"))
    assert page.find_element(By.CSS_SELECTOR, "meta[name=hyzer-viewer]").get_attribute("content") == athlete_id
    viewers = kept_card_viewers(page)
    assert first_id not in viewers, f"IndexedDB keeps a card made for @{first[0]}: {viewers}"


def test_without_javascript_a_shared_phone_shows_each_person_their_own_pages(server, browser_factory):
    """No script, so no worker keeps anything: signing out and in is two form posts, and the
    next person's pages are the server's, theirs alone, on a 360 px phone."""
    card, night, _, _ = league_night(server)
    coach_id = next(p["id"] for p in server.get("/api/v1/players")["players"] if p["handle"] == COACH[0])
    page = phone(browser_factory)
    page.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    sign_in(page, server, COACH[0], COACH[2])
    page.get(server.base + night)
    assert "Fee log" in page.page_source
    page.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "a[href^='/signin']") or "/signin" in d.current_url)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    for path in (card, night):
        page.get(server.base + path)
        shows_nothing_of(page, COACH, coach_id, f"without JavaScript, as the next person: {path}")
    assert f"Sign out @{ATHLETE[0]}" in page.page_source
    page.get(server.base + card)
    assert not page.find_elements(By.CSS_SELECTOR, ".offline-ready"), "no script ran"
    assert page.find_elements(By.CSS_SELECTOR, "button.save-hole"), "the card is the athlete's plain form"
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
