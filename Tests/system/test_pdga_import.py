"""`scripts/import-pdga-round.py`, as docs/league-night.md tells a club to try ratings on real rounds:
it loads a published PDGA round into a running server through the API and prints how close
Hyzer's round ratings land to the PDGA's; the figures are the ones the Swift tests keep."""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "pdga-ratings"


def test_a_published_round_loads_and_rates_within_the_kept_bounds(servers):
    server = servers.server("pdga", handle="coach")
    server.start()
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "import-pdga-round.py"), str(DATA / "78666-MPO-1.json"), "--url", server.base,
         "--token", server.token], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = re.search(r"over (\d+) players: median ([\d.]+), 90th percentile (\d+)", done.stdout)
    assert found, done.stdout[-500:]
    players, median, p90 = int(found[1]), float(found[2]), int(found[3])
    assert players >= 100 and median <= 3 and p90 <= 3, found[0]
    # The round is on its page, rated; the layout's page has its holes.
    round_url = re.search(r"round: \S+/rounds/([0-9a-f-]+)", done.stdout)[1]
    rated = server.api("GET", f"/api/v1/rounds/{round_url}/ratings")
    assert rated["provisional"] is False and len(rated["ratings"]) >= 100
    course = re.search(r"layout: \S+/courses/([0-9a-f-]+)", done.stdout)[1]
    status, page = server.request("GET", f"/courses/{course}", auth=False)
    assert status == 200 and "1 round · " in page and 'class="board hole-stats"' in page
