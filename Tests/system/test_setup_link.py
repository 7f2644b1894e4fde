"""The setup link on devices that share a cloud: a second device whose accounts arrive by sync
never offers one, and a club's very first device does, once its first pull shows the cloud has
no admin either."""
import re
import time

SETUP = re.compile(r"/setup\?token=")


def wait_for(server, pattern, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = server.log_text()
        if re.search(pattern, text):
            return text
        time.sleep(0.05)
    raise AssertionError(f"{server.name} never logged {pattern!r}; see {server.log_path}")


def test_a_second_device_does_not_offer_a_setup_link_for_a_club_that_has_an_admin(servers):
    cloud = servers.folder() / "cloud.sqlite"
    first = servers.server("first", extra=["--cloud", f"sqlite:{cloud}"])
    first.start()
    log = wait_for(first, r"No admin yet, here or in the cloud\. Create the first one at http://127\.0\.0\.1:\d+/setup\?token=")
    assert len(SETUP.findall(log)) == 1, "one link, after the first pull"
    first.stop()

    # An admin made on the first device reaches the cloud (the server pushes it on start).
    first.cli("admin", "create-user", "ada", "--role", "admin", input="ada admin password 123\n")
    first.token = first.cli("admin", "token", "ada").strip().splitlines()[-1].strip()
    first.start()
    deadline = time.monotonic() + 30
    while True:
        status = first.api("GET", "/api/v1/sync")
        if status["pending"] == 0 and status["inFlight"] == 0 and status["lastSyncAt"]:
            break
        assert time.monotonic() < deadline, f"the first device never pushed its admin: {status}"
        time.sleep(0.05)
    first.stop()

    second = servers.server("second", extra=["--cloud", f"sqlite:{cloud}", "--public-url", "http://192.168.1.20:8080"])
    second.start()
    text = wait_for(second, r"The club's admin arrived from the cloud")
    assert not SETUP.search(text), f"no setup link on a device whose club has an admin:\n{text}"


def test_a_bad_public_url_is_refused_with_a_clear_message(servers):
    server = servers.server("bad-url", extra=["--public-url", "javascript:alert(1)"])
    server.start(wait=False)
    assert server.process.wait(timeout=30) != 0
    assert "--public-url must be an http:// or https:// address" in server.log_text()
