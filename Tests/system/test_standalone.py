"""The installed binary runs from any folder with no --resources (#37): `scripts/install-hyzer`
(what `make install` runs) puts it in PREFIX/bin and its pages in PREFIX/share/hyzer, where it
finds them; copied without them, it says where it looked instead of serving broken pages."""
import os
import subprocess
import time
import urllib.request

from conftest import ROOT, binary, free_port


def serve(exe, data, cwd):
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("HYZER_")}
    process = subprocess.Popen([str(exe), "serve", "--port", str(port), "--data-dir", str(data)], cwd=cwd, env=environment,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return process, f"http://127.0.0.1:{port}"


def get(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode()


def test_an_installed_binary_finds_its_pages_from_any_folder(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run([str(ROOT / "scripts/install-hyzer"), str(binary()), str(prefix)], check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # Reached through a link too, as /usr/local/bin links often are.
    (tmp_path / "link").symlink_to(prefix / "bin/hyzer")
    for exe in (prefix / "bin/hyzer", tmp_path / "link"):
        process, base = serve(exe, tmp_path / f"data-{exe.name}", elsewhere)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    get(base + "/healthz")
                    break
                except OSError:
                    assert process.poll() is None, f"{exe} exited: {process.stdout.read()}"
                    assert time.monotonic() < deadline, f"{exe} never answered"
                    time.sleep(0.05)
            status, page = get(base + "/signin")
            assert status == 200 and '<link rel="stylesheet" href="/hyzer.css' in page, page[:300]
            status, css = get(base + "/hyzer.css")
            assert status == 200 and css == (ROOT / "Public/hyzer.css").read_text()
            status, document = get(base + "/api/v1/openapi.json")
            assert status == 200 and '"openapi"' in document
        finally:
            process.terminate()
            process.wait(timeout=15)


def test_a_binary_without_its_pages_says_where_it_looked(tmp_path):
    lonely = tmp_path / "bin"
    lonely.mkdir()
    (lonely / "hyzer").write_bytes(binary().read_bytes())
    (lonely / "hyzer").chmod(0o755)
    process, _ = serve(lonely / "hyzer", tmp_path / "data", tmp_path)
    output, _ = process.communicate(timeout=30)
    assert process.returncode != 0
    assert "Templates/, Public/ and OpenAPI/ were not found" in output and str(tmp_path / "share/hyzer") in output and "make install" in output, output
