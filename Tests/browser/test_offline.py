"""Scoring with no signal, in real Chromium against the real server: the card page kept on
the phone, holes typed with no network (DevTools offline *and* the server stopped, since
DevTools' switch may not reach the service worker), every entry sent once when the signal
returns, refusals shown beside the hole, and entries never sent as someone else's."""
import json
import urllib.request

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, JavascriptException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Server
from test_backups import sign_in

ATHLETE = Server.USERS["athlete"]
COACH = Server.USERS["coach"]
SECOND = ("bea.second", "athlete", "second password 123")


def wait(driver, seconds=20):
    return WebDriverWait(driver, seconds, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException, JavascriptException))


def nine_hole_round(server, handles):
    """A 9-hole round under way with one card (starting on hole 1) of the players `handles`."""
    _, course = server.post("/api/v1/courses", {"name": "Nine in the woods", "holes": [{"number": n, "par": 3} for n in range(1, 10)]})
    players = {p["handle"]: p for p in server.get("/api/v1/players")["players"]}
    ids = [players[h]["id"] for h in handles]
    _, round_ = server.post("/api/v1/rounds", {"courseID": course["id"], "name": "Night in the woods", "start": True,
                                               "players": [{"playerID": i} for i in ids]})
    _, cards = server.post(f"/api/v1/rounds/{round_['id']}/cards", {"cards": [{"name": "Card 1", "startingHole": 1, "playerIDs": ids}]})
    return round_["id"], cards["cards"][0]["id"], ids


def another_player(server):
    """A demo player (no account) to share the athlete's card."""
    return next(p["handle"] for p in server.get("/api/v1/players")["players"] if p["role"] == "athlete" and p["handle"] != ATHLETE[0])


def phone(browser_factory):
    page = browser_factory(360, 740)
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    page.execute_cdp_cmd("Network.enable", {})
    return page


def offline(page, cut=True):
    page.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": cut, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def open_card(page, server, round_id, card_id):
    page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}")
    # Kept for offline: the service worker controls the page and the card is saved.
    wait(page).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    wait(page).until(lambda d: d.find_element(By.CSS_SELECTOR, ".offline-ready").text.startswith("Ready offline"))


def click(page, selector):
    """Clicks what `selector` finds; False (to be tried again) when the page redrew it meanwhile."""
    try:
        page.find_element(By.CSS_SELECTOR, selector).click()
        return True
    except (NoSuchElementException, StaleElementReferenceException):
        return False


def hole_shown(page):
    return page.find_element(By.CSS_SELECTOR, ".card-head h1").text.split(" par")[0]


def save(page, values=None):
    """Sets each player's throws (player id → number), saves, and waits for the next hole."""
    before = hole_shown(page) + page.current_url
    for player, strokes in (values or {}).items():
        field = page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{player}'] input[name^=strokes]")
        page.execute_script("arguments[0].value = arguments[1]", field, str(strokes))
    page.find_element(By.CSS_SELECTOR, "button.save-hole").click()
    wait(page).until(lambda d: hole_shown(d) + d.current_url != before)


def counter(page):
    box = page.find_element(By.ID, "outbox-status")
    return {key: int(box.get_attribute("data-" + key) or 0) for key in ("waiting", "refused", "flagged")}, box.text


def events(server, round_id):
    return server.get(f"/api/v1/rounds/{round_id}/scores")["events"]


def test_holes_typed_with_no_signal_survive_a_closed_tab_and_a_restarted_server_and_are_sent_once(server, browser_factory):
    round_id, card_id, (me, other) = nine_hole_round(server, [ATHLETE[0], another_player(server)])
    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, round_id, card_id)
    # The round page, seen once with a signal, is kept for reading.
    page.get(f"{server.base}/rounds/{round_id}")
    page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}")
    wait(page).until(lambda d: d.find_element(By.CSS_SELECTOR, ".offline-ready").text.startswith("Ready offline"))

    # The signal goes: the page's network and the server itself.
    offline(page)
    server.stop()
    for hole in range(1, 7):
        assert hole_shown(page) == f"Hole {hole}"
        save(page, {me: 3 + hole % 2, other: 2})
    assert hole_shown(page) == "Hole 7"
    # Running totals come from the phone: 4+3+4+3+4+3 = 21 on par 18.
    assert "Round so far: 21 (+3 to par)" in page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{me}'] .running").text
    counts, text = counter(page)
    assert counts["waiting"] == 6 and "6 holes waiting to send" in text

    # The tab is closed and the card opened again, still with no signal: the kept page opens.
    first = page.current_window_handle
    page.switch_to.new_window("tab")
    fresh = page.current_window_handle
    page.switch_to.window(first)
    page.close()
    page.switch_to.window(fresh)
    offline(page)
    page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}")
    wait(page).until(lambda d: "Offline — showing data from" in d.find_element(By.CSS_SELECTOR, ".offline-copy").text)
    wait(page).until(lambda d: counter(d)[0]["waiting"] == 6)
    assert hole_shown(page) == "Hole 7"
    wait(page).until(lambda d: click(d, "nav.card-holes a.hole-link[href='?hole=6']"))
    wait(page).until(lambda d: hole_shown(d) == "Hole 6")
    assert "waiting to send" in page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{me}'] .entry-waiting").text
    # Every page says what waits; the round page shows the last state the phone saw.
    page.get(f"{server.base}/rounds/{round_id}")
    wait(page).until(lambda d: "Offline — showing data from" in d.find_element(By.CSS_SELECTOR, ".offline-copy").text)
    wait(page).until(lambda d: counter(d)[0]["waiting"] == 6)
    assert page.find_elements(By.CSS_SELECTOR, f".leaderboard tbody tr[data-player='{me}']")

    # A new server process starts; a spectator watches the round live.
    server.start()
    assert events(server, round_id) == []
    spectator = browser_factory(1280, 900)
    spectator.get(f"{server.base}/rounds/{round_id}")
    wait(spectator).until(lambda d: d.execute_script("return document.documentElement.dataset.live") == "open")

    # The signal returns: every hole is sent, once.
    offline(page, False)
    wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0)
    sent = events(server, round_id)
    assert len(sent) == 12
    assert sorted((e["playerID"], e["hole"]) for e in sent) == sorted((p, h) for p in (me, other) for h in range(1, 7))
    assert all(e["reportedBy"] == me for e in sent)
    assert page.find_element(By.ID, "outbox-status").get_attribute("hidden") is not None
    row = f".leaderboard tbody tr[data-player='{me}'] td.thru"
    wait(spectator).until(lambda d: d.find_element(By.CSS_SELECTOR, row).text == "6")

    # An answer lost on the way: the same entries are sent again, and recorded once.
    replayed = page.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const ids = arguments[0];
        HyzerOutbox.open().then(db => {
          const tx = db.transaction(['outbox'], 'readwrite');
          ids.forEach((e, i) => tx.objectStore('outbox').put({id: e.id, seq: i + 1, roundID: e.roundID, cardID: arguments[1],
            playerID: e.playerID, hole: e.hole, strokes: e.strokes, penalties: e.penalties, author: arguments[2], state: 'sending'}));
          tx.oncomplete = () => HyzerOutbox.flush().then(() => HyzerOutbox.entries()).then(list => done(list.length));
        });
    """, sent, card_id, me)
    assert replayed == 0
    assert len(events(server, round_id)) == 12


def test_two_phones_that_disagree_offline_show_the_same_single_mismatch(server, browser_factory):
    server.cli("admin", "create-user", SECOND[0], "--role", "athlete", input=SECOND[2])
    round_id, card_id, (me, second) = nine_hole_round(server, [ATHLETE[0], SECOND[0]])
    phones = []
    for user in (ATHLETE, SECOND):
        page = phone(browser_factory)
        sign_in(page, server, user[0], user[2])
        open_card(page, server, round_id, card_id)
        offline(page)
        phones.append(page)
    # Both score hole 1 with no signal; they disagree on the athlete's throws.
    save(phones[0], {me: 3, second: 4})
    save(phones[1], {me: 5, second: 4})
    for page in phones:
        assert counter(page)[0]["waiting"] == 1
        offline(page, False)
        page.execute_script("window.dispatchEvent(new Event('online'))")
    for page in phones:
        wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0)
    standings = server.get(f"/api/v1/rounds/{round_id}/standings")
    assert [(c["playerID"], c["hole"]) for c in standings["conflicts"]] == [(me, 1)]
    for page in phones:
        # The phone opens its kept copy at once and then draws the card as the server has it.
        page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}?hole=1")
        wait(page).until(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('fieldset.card-player.mismatch')).map(f => f.dataset.player)") == [me])
    round_page = phones[0]
    round_page.get(f"{server.base}/rounds/{round_id}")
    listed = round_page.find_elements(By.CSS_SELECTOR, "section.conflicts li")
    assert len(listed) == 1 and "hole 1" in listed[0].text


def test_an_entry_on_a_card_a_coach_signed_meanwhile_is_refused_shown_and_kept_until_dismissed(server, browser_factory):
    round_id, card_id, (me, other) = nine_hole_round(server, [ATHLETE[0], another_player(server)])
    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, round_id, card_id)
    for _ in range(9):
        save(page, {me: 3, other: 3})
    wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0)
    page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}?hole=4")
    wait(page).until(lambda d: hole_shown(d) == "Hole 4")

    offline(page)
    # The coach signs the other player's card (they have no phone) while this phone is offline.
    status, _ = server.post(f"/api/v1/rounds/{round_id}/signatures", {"playerID": other})
    assert status == 200
    save(page, {me: 3, other: 5})
    offline(page, False)
    page.execute_script("window.dispatchEvent(new Event('online'))")
    wait(page, 30).until(lambda d: counter(d)[0]["refused"] == 1)
    counts, text = counter(page)
    assert counts["waiting"] == 0 and "not accepted" in text
    # The score stands; the phone says why beside hole 4, and keeps the entry until dismissed.
    assert next(e for e in server.get(f"/api/v1/rounds/{round_id}/standings")["standings"] if e["playerID"] == other)["strokes"] == 27
    wait(page).until(lambda d: click(d, "nav.card-holes a.hole-link.refused"))
    wait(page).until(lambda d: hole_shown(d) == "Hole 4")
    note = page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{other}'] .entry-refused")
    assert "signed their card" in note.text
    page.get(f"{server.base}/rounds/{round_id}")
    wait(page).until(lambda d: counter(d)[0]["refused"] == 1)
    page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}?hole=4")
    wait(page).until(lambda d: click(d, f"fieldset[data-player='{other}'] .entry-refused button.dismiss"))
    wait(page).until(lambda d: counter(d)[0]["refused"] == 0)
    assert not page.find_elements(By.CSS_SELECTOR, ".entry-refused")


def test_a_session_ended_while_offline_asks_to_sign_in_and_never_sends_as_the_next_person(server, browser_factory):
    round_id, card_id, (me, other) = nine_hole_round(server, [ATHLETE[0], another_player(server)])
    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, round_id, card_id)
    offline(page)
    save(page, {me: 4, other: 3})
    save(page, {me: 2, other: 3})

    # The athlete ends every session from another device.
    laptop = browser_factory(1280, 900)
    sign_in(laptop, server, ATHLETE[0], ATHLETE[2])
    ended = laptop.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const token = document.querySelector('meta[name=csrf-token]').content;
        fetch('/signout/everywhere', {method: 'POST', body: new URLSearchParams({csrf: token}), credentials: 'same-origin', redirect: 'manual'})
          .then(r => done(r.status || 'redirect'), e => done(String(e)));
    """)
    assert ended in (0, 303, "redirect")

    offline(page, False)
    page.execute_script("window.dispatchEvent(new Event('online'))")
    wait(page, 30).until(lambda d: "sign in to send them" in counter(d)[1])
    assert events(server, round_id) == []

    # Someone else signs in on that phone: the entries are flagged, not sent as theirs.
    sign_in(page, server, COACH[0], COACH[2])
    page.get(f"{server.base}/rounds/{round_id}")
    wait(page).until(lambda d: counter(d)[0]["flagged"] == 4)
    assert "wait for them to sign in" in counter(page)[1]
    assert events(server, round_id) == []

    # The athlete signs in again: everything is sent, as theirs.
    page.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
    wait(page).until(lambda d: d.execute_script("return !document.querySelector('meta[name=hyzer-viewer]')"))
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    wait(page, 30).until(lambda d: counter(d)[0] == {"waiting": 0, "refused": 0, "flagged": 0})
    sent = events(server, round_id)
    assert len(sent) == 4 and all(e["reportedBy"] == me for e in sent)


def test_without_javascript_the_card_page_is_plain_forms_and_still_scores(server, browser_factory):
    round_id, card_id, (me, other) = nine_hole_round(server, [ATHLETE[0], another_player(server)])
    page = phone(browser_factory)
    page.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}")
    assert not page.find_elements(By.CSS_SELECTOR, ".offline-ready"), "no script ran"
    field = page.find_element(By.CSS_SELECTOR, f"fieldset[data-player='{me}'] input[name^=strokes]")
    field.clear()
    field.send_keys("4")
    page.find_element(By.CSS_SELECTOR, "button.save-hole").click()
    # A form post and a redirect to the next hole, as before the phone kept anything.
    wait(page).until(lambda d: "hole=2" in d.current_url)
    assert hole_shown(page) == "Hole 2"
    assert sorted((e["playerID"], e["strokes"]) for e in events(server, round_id)) == sorted([(me, 4), (other, 3)])
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360


def test_a_whole_round_kept_offline_is_sent_in_requests_the_server_takes(server, browser_factory):
    """450 entries waiting (every hole of a card typed again and again with no signal): sent
    100 at a time, every one delivered, none refused as too large (one request of 450 is)."""
    round_id, card_id, (me, other) = nine_hole_round(server, [ATHLETE[0], another_player(server)])
    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, round_id, card_id)
    # No signal: DevTools offline and the server itself stopped.
    offline(page)
    server.stop()
    waiting = page.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const [roundID, cardID, me, other] = arguments;
        HyzerOutbox.open().then(db => {
          const tx = db.transaction(['outbox'], 'readwrite');
          let seq = 1;
          for (let pass = 0; pass < 25; pass++) for (const player of [me, other]) for (let hole = 1; hole <= 9; hole++) {
            tx.objectStore('outbox').put({id: crypto.randomUUID(), seq: seq++, roundID, cardID, cardName: 'Card 1', playerID: player,
              hole, strokes: 2 + (pass + hole) % 4, penalties: 0, author: me, authorName: 'Abe', state: 'pending'});
          }
          tx.oncomplete = () => HyzerOutbox.entries().then(list => done(list.length));
        });
    """, round_id, card_id, me, other)
    assert waiting == 450
    server.start()
    offline(page, False)
    page.execute_async_script("const done = arguments[arguments.length - 1]; HyzerOutbox.flush().then(() => done(true), () => done(false));")
    wait(page, 60).until(lambda d: d.execute_async_script(
        "const done = arguments[arguments.length - 1]; HyzerOutbox.entries().then(list => done(list.length));") == 0)
    # Delivered, none refused. Within one request the last entry of a hole supersedes the
    # earlier ones there: five requests of at most 100, each holding all 18 holes, record 90.
    sent = events(server, round_id)
    assert len(sent) == 90, f"{len(sent)} recorded"
    # The last pass is what each hole shows.
    standings = server.get(f"/api/v1/rounds/{round_id}/standings")
    mine = next(row for row in standings["standings"] if row["playerID"] == me)
    assert mine["thru"] == 9 and mine["strokes"] == sum(2 + (24 + hole) % 4 for hole in range(1, 10))


def test_a_mismatch_entered_by_a_card_mate_is_flagged_on_every_hole_of_the_card(server, browser_factory):
    server.cli("admin", "create-user", SECOND[0], "--role", "athlete", input=SECOND[2])
    round_id, card_id, (me, second) = nine_hole_round(server, [ATHLETE[0], SECOND[0]])
    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, round_id, card_id)
    save(page, {me: 3, second: 3})
    save(page, {me: 3, second: 3})
    wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0)
    assert hole_shown(page) == "Hole 3"
    assert not page.find_element(By.CSS_SELECTOR, ".card-mismatches").is_displayed()
    # The card-mate's phone says the athlete took 5 on hole 1: the phone, on hole 3, says so.
    token = server.cli("admin", "token", SECOND[0]).strip()
    request = urllib.request.Request(f"{server.base}/api/v1/rounds/{round_id}/cards/{card_id}/holes/1", method="POST",
                                     data=json.dumps({"scores": [{"playerID": me, "strokes": 5}, {"playerID": second, "strokes": 3}]}).encode(),
                                     headers={"content-type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status in (200, 201)
    # As when the phone comes out of a pocket (the page also looks every 20 s while shown).
    page.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    wait(page).until(lambda d: d.find_element(By.CSS_SELECTOR, ".card-mismatches").is_displayed())
    assert "hole 1" in page.find_element(By.CSS_SELECTOR, ".card-mismatches").text
    assert hole_shown(page) == "Hole 3"
    marked = page.find_elements(By.CSS_SELECTOR, "nav.card-holes a.hole-link.mismatch")
    assert [a.text for a in marked] == ["1"]
    # The page as the server makes it (no JavaScript needed) says the same.
    html = server.get_text(f"/rounds/{round_id}/cards/{card_id}?hole=3")
    assert 'class="hole-link done mismatch"' in html and "Card-mates disagree on hole <span>1</span>" in html
