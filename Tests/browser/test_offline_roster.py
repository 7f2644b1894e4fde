"""A card's players change while a phone on it has no signal: a coach withdraws one and adds a
late arrival. When the signal returns, the phone's holes for those still playing are kept, the
withdrawn player's are refused with the reason beside the hole, and the card shows the field as
it now is — in real Chromium on a 360 px phone, DevTools offline."""
import json
import urllib.request

from selenium.webdriver.common.by import By

from test_backups import sign_in
from test_offline import ATHLETE, click, counter, events, hole_shown, nine_hole_round, offline, open_card, phone, save, wait


def players(server, exclude):
    return [p for p in server.get("/api/v1/players")["players"] if p["role"] == "athlete" and p["handle"] not in exclude]


def fieldset(page, player):
    found = page.find_elements(By.CSS_SELECTOR, f"fieldset[data-player='{player}']")
    return found[0] if found else None


def test_a_withdrawal_and_a_late_arrival_made_while_a_phone_is_offline(server, browser_factory):
    others = players(server, {ATHLETE[0]})
    round_id, card_id, (me, leaving, staying) = nine_hole_round(server, [ATHLETE[0], others[0]["handle"], others[1]["handle"]])
    late = others[2]["id"]
    page = phone(browser_factory)
    sign_in(page, server, ATHLETE[0], ATHLETE[2])
    open_card(page, server, round_id, card_id)
    save(page, {me: 3, leaving: 3, staying: 3})
    # Sent and stored: a count of 0 read before the hole's entries were even kept would let
    # them wait behind the cut below.
    wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0 and sum(e["hole"] == 1 for e in events(server, round_id)) == 3)

    offline(page)
    request = urllib.request.Request(f"{server.base}/api/v1/rounds/{round_id}/players/{leaving}", method="DELETE",
                                     headers={"Authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200
    status, _ = server.post(f"/api/v1/rounds/{round_id}/players", {"playerID": late, "cardID": card_id})
    assert status in (200, 201)
    # The server goes down too (DevTools' switch may not reach the service worker). The phone
    # still shows the card as it was: it scores holes 2 and 3 for all three.
    server.stop()
    save(page, {me: 3, leaving: 4, staying: 2})
    save(page, {me: 4, leaving: 4, staying: 3})
    assert counter(page)[0]["waiting"] == 2
    server.start()

    offline(page, False)
    page.execute_script("window.dispatchEvent(new Event('online'))")
    wait(page, 30).until(lambda d: counter(d)[0]["waiting"] == 0 and counter(d)[0]["refused"] == 2)
    assert "not accepted" in counter(page)[1]
    kept = {(e["playerID"], e["hole"]): e["strokes"] for e in events(server, round_id)}
    assert kept[(me, 2)] == 3 and kept[(me, 3)] == 4 and kept[(staying, 2)] == 2 and kept[(staying, 3)] == 3
    assert (leaving, 2) not in kept and (leaving, 3) not in kept
    standing = {s["playerID"]: s for s in server.get(f"/api/v1/rounds/{round_id}/standings")["standings"]}
    assert standing[leaving]["dnf"] and late in standing

    # Still on the page made before: the refused hole's link leads to the reason, in the
    # withdrawn player's box, which takes no entry.
    wait(page).until(lambda d: click(d, "nav.card-holes a.hole-link.refused"))
    wait(page).until(lambda d: hole_shown(d) == "Hole 2")
    box = fieldset(page, leaving)
    assert box.is_displayed() and "withdrawn" in box.find_element(By.CSS_SELECTOR, ".entry-refused").text
    assert not box.find_element(By.CSS_SELECTOR, "input[name^=strokes]").is_enabled()

    # The card, opened again, is the field as it now is: the withdrawn player has no stepper,
    # the late arrival has one, blank on the hole they missed; the refusal says why.
    page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}?hole=2")
    wait(page).until(lambda d: fieldset(d, late) is not None and fieldset(d, late).is_displayed())
    assert fieldset(page, late).find_element(By.CSS_SELECTOR, "input[name^=strokes]").get_attribute("value") == ""
    wait(page).until(lambda d: fieldset(d, leaving) is None or not fieldset(d, leaving).is_displayed()
                     or d.find_elements(By.CSS_SELECTOR, f"fieldset[data-player='{leaving}'] .entry-refused"))
    refusals = page.find_elements(By.CSS_SELECTOR, ".entry-refused")
    assert refusals and "withdrawn" in refusals[0].text, [r.text for r in refusals]
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
    # Without JavaScript the page says the same: the withdrawn line, the late arrival's box.
    html = server.get_text(f"/rounds/{round_id}/cards/{card_id}?hole=2")
    assert f'class="card-withdrawn" data-player="{leaving}"' in html and f"data-player='{late}'" in html.replace('"', "'")
    # Dismissed on holes 2 and 3, the phone holds nothing back.
    for number in (2, 3):
        page.get(f"{server.base}/rounds/{round_id}/cards/{card_id}?hole={number}")
        wait(page).until(lambda d: click(d, f".card-withdrawn[data-player='{leaving}'] .entry-refused button.dismiss"))
    wait(page).until(lambda d: counter(d)[0]["refused"] == 0)
