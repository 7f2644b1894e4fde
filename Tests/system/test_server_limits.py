"""The real binary's front door: --version, the connection limit and the header timeout,
exercised with raw sockets (Host: 127.0.0.1; the server refuses other names)."""
import os
import re
import signal
import selectors
import socket
import subprocess
import time

from conftest import binary, steady

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"


def connect(server, timeout=5):
    sock = socket.create_connection((server.host, server.port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_response(sock, timeout):
    """One whole HTTP/1.1 response (Content-Length bodies): (status line, body). Raises
    socket.timeout when nothing (or not all of it) arrives in time."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    match = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    length = int(match.group(1)) if match else 0
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed in the body")
        body += chunk
    return head.split(b"\r\n", 1)[0].decode(), body


def test_version():
    done = subprocess.run([str(binary()), "--version"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "hyzer --version printed nothing"
    assert re.search(r"\d+\.\d+\.\d+", done.stdout), f"not a version: {done.stdout!r}"


def test_connections_beyond_the_limit_wait_their_turn(servers):
    server = servers.server("limits-max-connections", extra=["--cloud", "none", "--backup-interval", "off", "--max-connections", "3",
                                                                    # the three are one client here: no share per client
                                                                    "--max-streams-per-client", "0"])
    assert server.start()
    held = []
    try:
        for _ in range(3):
            sock = connect(server)
            sock.sendall(REQUEST)
            status, _ = read_response(sock, timeout=5)
            assert status == "HTTP/1.1 200 OK", status
            held.append(sock)
        # The three stay open (keep-alive); a fourth is over the limit.
        fourth = connect(server)
        held.append(fourth)
        fourth.sendall(REQUEST)
        fourth.settimeout(1)
        try:
            early = fourth.recv(65536)
        except socket.timeout:
            early = None
        assert early is None, f"the fourth connection was answered at once although 3 were open: {early[:80]!r}"
        # One of the three leaves: the fourth gets its turn.
        held.pop(0).close()
        started = time.monotonic()
        status, body = read_response(fourth, timeout=10)
        assert status.startswith("HTTP/1.1 200"), status
        assert time.monotonic() - started < 10
    finally:
        for sock in held:
            sock.close()


def test_a_burst_of_connections_never_exceeds_the_limit(servers):
    """40 clients at once against --max-connections 5: the server holds at most 5 (counted
    by its own open sockets and by who was answered), and every other one is answered in
    turn as those leave."""
    server = servers.server("limits-burst", extra=["--cloud", "none", "--backup-interval", "off", "--max-connections", "5",
                                                   "--max-streams-per-client", "0"])
    assert server.start()
    steady(server.fd_count)  # start-up done (sync service, observers) before counting sockets

    def sockets():
        # Sockets only: database files opened by the requests are not connections. A
        # descriptor closed between the listing and its reading is no longer held.
        folder = f"/proc/{server.process.pid}/fd"
        count = 0
        for name in os.listdir(folder):
            try:
                count += os.readlink(f"{folder}/{name}").startswith("socket:")
            except FileNotFoundError:
                pass
        return count

    baseline = sockets()
    waiting = [connect(server) for _ in range(40)]
    for sock in waiting:
        sock.sendall(REQUEST)
    answered = []
    try:
        deadline = time.monotonic() + 60
        while waiting and time.monotonic() < deadline:
            # Whoever is answered now keeps its connection open (keep-alive) while the
            # server's sockets are counted: never more than the limit.
            selector = selectors.DefaultSelector()
            for sock in waiting:
                selector.register(sock, selectors.EVENT_READ)
            ready = [key.fileobj for key, _ in selector.select(timeout=2)]
            selector.close()
            now = []
            for sock in ready:
                status, _ = read_response(sock, timeout=5)
                assert status == "HTTP/1.1 200 OK", status
                now.append(sock)
            assert len(now) <= 5, f"{len(now)} answered at once with a limit of 5"
            held = sockets() - baseline
            assert held <= 5, f"the server holds {held} connections with a limit of 5"
            for sock in now:
                waiting.remove(sock)
                answered.append(sock)
                sock.close()
        assert not waiting, f"{len(waiting)} of 40 never answered"
        assert len(answered) == 40
    finally:
        for sock in waiting + answered:
            sock.close()


def test_header_timeout_closes_silent_and_slow_connections(servers):
    server = servers.server("limits-header-timeout", extra=["--cloud", "none", "--backup-interval", "off", "--header-timeout", "1"])
    assert server.start()
    steady(server.fd_count)  # start-up done (sync service, observers) before counting descriptors
    before = server.fd_count()
    silent = [connect(server) for _ in range(50)]
    slow = [connect(server) for _ in range(10)]
    for sock in slow:
        sock.sendall(HALF_HEAD)
    open_sockets = set(silent + slow)
    selector = selectors.DefaultSelector()
    for sock in open_sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    started = time.monotonic()
    try:
        while open_sockets and time.monotonic() - started < 10:
            for key, _ in selector.select(timeout=0.5):
                sock = key.fileobj
                try:
                    chunk = sock.recv(65536)   # a 408 before the close is fine; EOF is what counts
                except (ConnectionResetError, BrokenPipeError):
                    chunk = b""
                except BlockingIOError:
                    continue
                if not chunk:
                    selector.unregister(sock)
                    open_sockets.discard(sock)
        still_open = len(open_sockets)
        closed_after = time.monotonic() - started
        assert still_open == 0, (f"{still_open} of 60 connections ({sum(s in open_sockets for s in silent)} silent, "
                                 f"{sum(s in open_sockets for s in slow)} with half a head) were still open after 10 s")
        print(f"\nheader timeout: 60 connections closed by the server after {closed_after:.1f} s")
    finally:
        selector.close()
        for sock in silent + slow:
            sock.close()

    assert server.request("GET", "/healthz", auth=False)[0] == 200
    # The server let go of every descriptor it took for them.
    deadline = time.monotonic() + 5
    while server.fd_count() > before + 10 and time.monotonic() < deadline:
        time.sleep(0.1)
    after = server.fd_count()
    assert after <= before + 10, f"open descriptors: {before} before the 60 connections, {after} after"


def test_sigterm_ends_the_server_promptly_with_streams_open(servers):
    """A graceful stop must not wait for live streams to end by themselves (they never do):
    each is closed, and the process exits. The time is printed; make bench tracks speed."""
    server = servers.server("limits-sigterm", extra=["--cloud", "none", "--backup-interval", "off", "--demo"], handle="cory.coach")
    assert server.start()
    rounds = server.api("GET", "/api/v1/rounds")["rounds"]
    paths = ["/tv/events"] + [f"/rounds/{rounds[0]['id']}/events"] * 49
    streams = []
    try:
        for path in paths:
            sock = connect(server)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            streams.append(sock)
        for sock in streams:
            sock.settimeout(10)
            first = b""
            while b"\n\n" not in first.partition(b"\r\n\r\n")[2]:
                chunk = sock.recv(65536)
                assert chunk, "a stream closed before its first frame"
                first += chunk
            assert first.startswith(b"HTTP/1.1 200"), first[:80]
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert server.wait_exit(10), "the server was still running 10 s after SIGTERM with 50 streams open"
        print(f"\nSIGTERM with 50 streams open: exited after {time.monotonic() - started:.3f} s, code {server.process.returncode}")
        assert server.process.returncode == 0
        for sock in streams:
            sock.settimeout(5)
            rest = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                rest += chunk
    finally:
        for sock in streams:
            sock.close()
