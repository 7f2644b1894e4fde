"""/seasons/new shows only the fields that apply (#37, item 13): the points table once points come
from the club's table, a handicap's details once there is a handicap; without JavaScript all."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_backups import sign_in
from test_offline import COACH, wait


def shown(page, name):
    return page.find_element(By.NAME, name).is_displayed()


def test_the_season_form_shows_what_applies(server, browser_factory):
    page = browser_factory(1280, 900)
    sign_in(page, server, *COACH[::2])
    page.get(server.base + "/seasons/new")
    assert not shown(page, "table") and not shown(page, "pastTable"), "field-size points need no table"
    assert not shown(page, "percent") and not shown(page, "minimumRounds"), "no handicap, no details"
    Select(page.find_element(By.NAME, "rule")).select_by_value("table")
    wait(page).until(lambda d: shown(d, "table") and shown(d, "pastTable"))
    Select(page.find_element(By.NAME, "handicap")).select_by_value("percentage")
    wait(page).until(lambda d: shown(d, "percent") and shown(d, "minimumRounds"))
    Select(page.find_element(By.NAME, "handicap")).select_by_value("rating")
    wait(page).until(lambda d: not shown(d, "percent") and shown(d, "minimumRounds"))

    plain = browser_factory(1280, 900)
    plain.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    sign_in(plain, server, *COACH[::2])
    plain.get(server.base + "/seasons/new")
    assert shown(plain, "table") and shown(plain, "percent"), "without JavaScript every field shows"
