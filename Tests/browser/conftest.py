"""Shared helpers and session fixtures of the browser tests (test_browser.py, test_console.py, test_docs.py).

One session: a fresh PostgreSQL database (dropped at the end) on the test server (PODIUM_TEST_DATABASE_URL's, or
127.0.0.1:PODIUM_PG_PORT), an emptied Redis db 11, the frontend page (frontend/index.html) served by Python from two
origins, only the first listed in PODIUM_CORS_ORIGINS, and one `podium serve` (fixture `podium`: its base URL,
the bootstrap admin key PODIUM_ADMIN_KEY, both origins and a player-token maker), with webhook deliveries dead
after one failed attempt. Fixture `browser` is Debian's Chromium launched by Playwright. Helpers (http_json,
free_port, psql, server_time, start_podium, TcpProxy, ...) are imported with `from conftest import ...`. Screenshots
go to .local/browser/.
"""

import contextlib
import email.utils
import functools
import glob
import http.server
import json
import os
import pathlib
import re
import secrets
import shutil
import socket
import string
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))
from podium import sign_player_token  # noqa: E402  (the Python client's signer makes the session's player tokens)

FRONTEND = pathlib.Path(__file__).resolve().parent / "frontend"
OUT = ROOT / ".local" / "browser"
CHROMIUM = "/usr/bin/chromium"
GROUP = "class-4b"  # the group player tokens vouch for
TIMEOUT_MS = 20_000

# Loopback only, whatever proxy the environment names.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_json(method, url, credential=None, body=None):
    """One request; returns (status, parsed JSON body or None)."""
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
    if credential:
        request.add_header("Authorization", f"Bearer {credential}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with _opener.open(request, timeout=10) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, None


def server_time(base):
    """The clock of the Podium at `base`, to the second, from its Date header (its clock decides when keys expire)."""
    with _opener.open(f"{base}/healthz", timeout=10) as response:
        return email.utils.parsedate_to_datetime(response.headers["Date"])


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class TcpProxy:
    """A TCP proxy on 127.0.0.1 that forwards every connection to `target` (host, port), for real outages: stop()
    closes the listener and every connection through it (new connections are refused), start() listens again on
    the same port. Threads: one accepts, two per connection copy bytes."""

    def __init__(self, target):
        self.target = target
        self.port = free_port()
        self._lock = threading.Lock()
        self._sockets = set()
        self._listener = None
        self._acceptor = None

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        listener = socket.socket()
        # The port's old connections may still be in TIME_WAIT.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        self._acceptor = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._acceptor.start()

    def stop(self):
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
            listener.close()
            self._acceptor.join(timeout=10)
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for sock in sockets:
            self._close(sock)

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # stopped
            try:
                upstream = socket.create_connection(self.target, timeout=10)
                upstream.settimeout(None)
            except OSError:
                self._close(client)
                continue
            with self._lock:
                if self._listener is not listener:  # stopped meanwhile
                    self._close(client)
                    self._close(upstream)
                    return
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._copy, args=(source, sink), daemon=True).start()

    def _copy(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        with self._lock:
            self._sockets.difference_update((source, sink))
        self._close(source)
        self._close(sink)

    @staticmethod
    def _close(sock):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()


# --- PostgreSQL and Redis -------------------------------------------------------------------------------------

def psql_binary():
    found = shutil.which("psql") or (sorted(glob.glob("/usr/lib/postgresql/*/bin/psql")) or [None])[-1]
    if not found:
        pytest.fail("psql not found (run bash ops/services.sh)")
    return found


def conninfo_for(dbname):
    """The test server's conninfo (PODIUM_TEST_DATABASE_URL's, as libpq takes it), naming database `dbname`."""
    url = os.environ.get("PODIUM_TEST_DATABASE_URL", "")
    if not url:
        return f"host=127.0.0.1 port={os.environ.get('PODIUM_PG_PORT', '5432')} user=postgres dbname={dbname}"
    if "://" in url:
        parts = urllib.parse.urlsplit(url)
        return urllib.parse.urlunsplit(parts._replace(path=f"/{dbname}"))
    without = re.sub(r"\bdbname\s*=\s*('(?:[^'\\]|\\.)*'|\S+)", "", url).strip()
    return f"{without} dbname={dbname}"


def psql(sql):
    subprocess.run([psql_binary(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo_for("postgres"), "-c", sql],
                   check=True, stdin=subprocess.DEVNULL, timeout=60)


@contextlib.contextmanager
def own_storage(prefix, redis_db):
    """A new database named `prefix` and a random suffix, and Redis db `redis_db` emptied, for a Podium of a test's own:
    yields (conninfo, Redis URL); afterwards the database is dropped and the Redis db emptied again."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    redis = f"redis://127.0.0.1:{os.environ.get('PODIUM_REDIS_PORT', '6379')}/{redis_db}"
    flush = ["redis-cli", "-u", redis, "FLUSHDB"]
    subprocess.run(flush, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, timeout=30)
    psql(f"CREATE DATABASE {name}")
    try:
        yield conninfo_for(name), redis
    finally:
        psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        subprocess.run(flush, check=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, timeout=30)


@pytest.fixture(scope="session")
def database():
    name = f"podium_browser_{secrets.token_hex(4)}"
    psql(f"CREATE DATABASE {name}")
    try:
        yield conninfo_for(name)
    finally:
        psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def redis_url():
    url = f"redis://127.0.0.1:{os.environ.get('PODIUM_REDIS_PORT', '6379')}/11"
    subprocess.run(["redis-cli", "-u", url, "FLUSHDB"], check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, timeout=30)
    return url


# --- the frontend's static server and Podium --------------------------------------------------------------------

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def translate_path(self, path):
        """`/ts-client/…` is the TypeScript client (test_client_typescript.py): its test page, and the files of its npm
        package as clients/typescript/build.sh writes them (`/ts-client/dist/src/index.js`, ES modules)."""
        path = path.split("?")[0]
        client = ROOT / "clients" / "typescript"
        if path == "/ts-client/index.html":
            return str(client / "test" / "index.html")
        if path.startswith("/ts-client/dist/") and ".." not in path:
            return str(client / "package" / path.removeprefix("/ts-client/"))
        return super().translate_path(path)


@pytest.fixture(scope="session")
def static_origins():
    """The frontend folder served twice: (listed origin, unlisted origin); also the TypeScript client under /ts-client/."""
    servers = []
    for _ in range(2):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                 functools.partial(QuietHandler, directory=str(FRONTEND)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    try:
        yield tuple(f"http://127.0.0.1:{server.server_address[1]}" for server in servers)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def podium_binary():
    binary = pathlib.Path(os.environ.get("PODIUM_BINARY", ROOT / ".build" / "debug" / "podium"))
    if not binary.is_absolute():
        binary = ROOT / binary
    assert os.access(binary, os.X_OK), f"no podium executable at {binary} (set PODIUM_BINARY)"
    return binary


def new_admin_key():
    return "pdm_" + "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(40))


def start_podium(database, redis_url, admin_key, log_name, **settings):
    """Starts `podium serve` on a free port with the given database, Redis and bootstrap admin key, plus any other
    environment (`settings`, e.g. PODIUM_RULES_FILE, or LD_PRELOAD for a shifted clock); waits until /healthz and
    /readyz answer 200. Returns (process, base URL, open log file); end it with stop(process) and close the log."""
    binary = podium_binary()
    OUT.mkdir(parents=True, exist_ok=True)
    log_path = OUT / log_name
    # Another process may take the port between free_port() and the bind: try again on another one.
    for attempt in range(3):
        port = free_port()
        env = dict(os.environ, PODIUM_DATABASE_URL=database, PODIUM_REDIS_URL=redis_url, PODIUM_PORT=str(port),
                   PODIUM_HOST="127.0.0.1", PODIUM_ADMIN_KEY=admin_key, PODIUM_LOG_LEVEL="warning", **settings)
        log = open(log_path, "w")
        process = subprocess.Popen([str(binary), "serve"], env=env, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        ready = False
        while time.monotonic() < deadline and process.poll() is None:
            try:
                ready = http_json("GET", f"{base}/healthz")[0] == 200 and http_json("GET", f"{base}/readyz")[0] == 200
            except OSError:
                ready = False
            if ready:
                return process, base, log
            time.sleep(0.1)
        stop(process)
        log.close()
    pytest.fail(f"podium did not answer /healthz and /readyz; the end of {log_path}:\n"
                + "\n".join(log_path.read_text(errors="replace").splitlines()[-30:]))


@pytest.fixture(scope="session")
def podium(database, redis_url, static_origins):
    admin_key = new_admin_key()
    kid, secret = "k1", secrets.token_hex(24)
    listed, unlisted = static_origins
    process, base, log = start_podium(database, redis_url, admin_key, "podium.log",
                                      PODIUM_PLAYER_TOKEN_HS256_KEYS=f"{kid}:{secret}", PODIUM_CORS_ORIGINS=listed,
                                      # A failed webhook delivery is dead at once (the console resends dead ones).
                                      PODIUM_WEBHOOK_MAX_ATTEMPTS="1")
    try:
        yield {"base": base, "admin_key": admin_key, "listed": listed, "unlisted": unlisted,
               # A quiz backend's token for a player (ten minutes, vouching for GROUP): token(user_id).
               "token": functools.partial(sign_player_token, kid, secret, groups=[GROUP])}
    finally:
        stop(process)
        log.close()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
