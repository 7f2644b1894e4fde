"""What an admin does with backups in a real browser: back up now, then move a backup file in
through the upload form (admin.js sends it as the body with the form token in a header),
confirm on the page that names its time and counts, and see the restored data (with what
the cloud had that is newer, pulled back)."""
import re
import shutil
import tempfile

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ADMIN = ("ada.admin", "admin password 123")


def sign_in(page, server, handle, password):
    page.get(server.base + "/signin")
    page.find_element(By.NAME, "handle").send_keys(handle)
    page.find_element(By.NAME, "password").send_keys(password)
    page.find_element(By.XPATH, "//form[@action='/signin']//button[normalize-space()='Sign in']").click()
    # The deadline is a guard: a sign-in checks a bcrypt hash, slow on a loaded CI machine.
    try:
        WebDriverWait(page, 30).until(lambda d: "/signin" not in d.current_url)
    except TimeoutException:
        # Say what the sign-in page said (a refused or expired form), not just that it stayed.
        said = page.execute_script("return (document.querySelector('main') || document.body).innerText.slice(0, 400)")
        raise AssertionError(f"still on {page.current_url} after signing in as {handle}: {said!r}") from None


def test_an_admin_backs_up_uploads_a_backup_file_and_restores_it(server, browser_factory):
    server.cli("admin", "create-user", ADMIN[0], "--role", "admin", input=ADMIN[1])
    page = browser_factory(1280, 900)
    sign_in(page, server, *ADMIN)

    page.get(server.base + "/admin#backups")
    page.find_element(By.XPATH, "//form[@action='/admin/backups']//button").click()
    WebDriverWait(page, 20).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "p.notice"), "Backup made and verified."))
    name = page.find_element(By.CSS_SELECTOR, "tr[data-backup]").get_attribute("data-backup")
    assert re.fullmatch(r"hyzer-[0-9]{8}-[0-9]{6}-[0-9]{3}Z\.tar\.gz", name), name
    assert "Last verified backup" in page.find_element(By.ID, "backups").text

    # The file as an admin would carry it to another machine.
    carried = tempfile.mkdtemp(prefix="hyzer-carried-")
    path = shutil.copy(f"{server.data_dir}/backups/{name}", carried)

    round_id = server.get("/api/v1/rounds")["rounds"][0]["id"]
    before = server.get(f"/api/v1/rounds/{round_id}/standings")
    player = before["standings"][-1]["playerID"]
    status, _ = server.post(f"/api/v1/rounds/{round_id}/scores", {"playerID": player, "hole": 18, "strokes": 2})
    assert status == 201

    upload = page.find_element(By.ID, "backup-upload")
    upload.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(path)
    upload.find_element(By.XPATH, ".//button").click()
    WebDriverWait(page, 20).until(EC.url_matches(r"/admin/backups/hyzer-[^/]+/restore$"))
    confirm = page.find_element(By.TAG_NAME, "main").text
    assert "Restore this backup?" in confirm
    assert re.search(r"\d+ players, 1 course, 1 round, \d+ score events", confirm), confirm
    assert "cannot take away scores the cloud has" in confirm

    page.find_element(By.XPATH, "//button[starts-with(normalize-space(), 'Restore the backup of')]").click()
    WebDriverWait(page, 30).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "p.notice"), "Backup restored."))
    backups = page.find_element(By.ID, "backups").text
    assert "Restored the backup of" in backups and "safety" in backups
    # The server syncs with its embedded cloud, which has the score posted after the backup:
    # restored, then pulled back, it is there again (nothing pushed is lost by a restore).
    expected_thru = next(r for r in before["standings"] if r["playerID"] == player)["thru"] + 1

    def pulled_back(_):
        after = server.get(f"/api/v1/rounds/{round_id}/standings")
        row = next(r for r in after["standings"] if r["playerID"] == player)
        return after if row["thru"] == expected_thru else None

    after = WebDriverWait(page, 20, poll_frequency=0.1).until(pulled_back)
    assert after["version"] > before["version"]
    shutil.rmtree(carried, ignore_errors=True)
