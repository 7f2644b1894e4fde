"""The backup commands as an operator uses them beside a running server and after stopping it:
results on standard output, progress on standard error, clear refusals."""
import subprocess
import time
import urllib.request

from conftest import ROOT, free_port


def run(server, *args):
    return subprocess.run([str(server.exe), "backup", *args, "--data-dir", str(server.data_dir)], capture_output=True, text=True)


def test_backup_commands_beside_a_running_server_and_after_it_stops(server):
    made = run(server, "create")
    assert made.returncode == 0, made.stderr
    assert "verified" in made.stdout and "copy domain.sqlite" in made.stderr, "progress goes to stderr, one line per step in a pipe"
    name = made.stdout.splitlines()[0].split()[1].rstrip(":")

    listed = run(server, "list")
    assert listed.returncode == 0 and name in listed.stdout and "verified" in listed.stdout

    verified = run(server, "verify", name)
    assert verified.returncode == 0 and verified.stdout.startswith("OK: backup of")

    refused = run(server, "restore", name)
    assert refused.returncode == 1
    assert "The server is running" in refused.stderr and "Usage" not in refused.stderr

    missing = subprocess.run([str(server.exe), "backup", "list", "--data-dir", str(server.data_dir) + "-typo"], capture_output=True, text=True)
    assert missing.returncode == 1 and "There is no data directory" in missing.stderr

    server.stop()
    restored = run(server, "restore", name)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith("Restored the backup of")
    assert "safety" in run(server, "list").stdout


def test_the_backup_interval_is_read_as_written(server, tmp_path):
    bad = subprocess.run([str(server.exe), "serve", "--backup-interval", "every tuesday", "--data-dir", str(tmp_path)], capture_output=True, text=True)
    assert bad.returncode != 0 and "--backup-interval must be" in bad.stderr
    port = free_port()
    off = subprocess.Popen([str(server.exe), "serve", "--backup-interval", "off", "--port", str(port), "--data-dir", str(tmp_path),
                            "--cloud", "none", "--resources", str(ROOT)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert time.time() < deadline, "the server with --backup-interval off did not start"
                time.sleep(0.1)
    finally:
        off.terminate()
        off.wait(timeout=15)
