"""Fixtures for the demo app: an app on a temporary database, test clients, a live server, and
real Redis and PostgreSQL servers for the tests of shared storage.

Every fixture stops what it started: the hub's threads, the live server and its handler threads.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from simple_websocket import Client, ConnectionClosed
from werkzeug.serving import make_server
from wsproto.events import CloseConnection

from liarsdice_demo import create_app
from liarsdice_demo.edge.protocol import encode
from liarsdice_demo.storage import db
from liarsdice_demo.storage.live_store import LiveStore

# Solved endgames and the hard bot's books from this run's memory (tox gives its own directory),
# never the developer's cache: a book built there would change what the hard bot plays here.
os.environ.setdefault("LIARSDICE_ENDGAME_CACHE", "")

SETTINGS = {
    "TESTING": True,
    "BOT_DELAY": 0.0,
    "REVEAL_PAUSE": 0.0,
    # one client makes every request here: test_limits.py tests the limits themselves
    "LIMIT_TABLE_CREATION": "1000 per minute",
    "LIMIT_SEAT_CLAIMS": "1000 per minute",
    "LIMIT_CODE_MISSES": "1000 per minute",
    "LIMIT_PLAYER_CREATION": "1000 per minute",
    "LIMIT_REQUESTS": "10000 per second",
    "LIMIT_TARPIT_SECONDS": 0.0,
}
"""The settings of the ``app`` fixture's apps, besides their database."""


@pytest.fixture
def sql_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    """An app like ``app``'s whose players and games are in ``database_url`` (SQLite, PostgreSQL)."""
    app = create_app(
        {**SETTINGS, "DATABASE": str(tmp_path / "x.sqlite"), "DATABASE_URL": database_url}
    )
    yield app
    app.extensions["liarsdice_hub"].shutdown()


@pytest.fixture
def app(tmp_path: Any) -> Iterator[Any]:
    """An app with its own SQLite file, bots that act at once and no pause after a reveal."""
    app = create_app({**SETTINGS, "DATABASE": str(tmp_path / "demo.sqlite")})
    yield app
    app.extensions["liarsdice_hub"].shutdown()


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


def read_at_once(app: Any) -> Any:
    """``app`` with each response's body read (and closed) before werkzeug's server writes it.

    The server leaves a body open when its client resets the connection: draining the socket
    after the write raises before it closes the body, so a static file's handle is left to the
    garbage collector, whose ``ResourceWarning`` fails the test that happens to be running."""

    def wsgi(environ: Any, start_response: Any) -> list[bytes]:
        body = app(environ, start_response)
        try:
            return [b"".join(body)]
        finally:
            if hasattr(body, "close"):
                body.close()

    return wsgi


@contextlib.contextmanager
def served(app: Any, name: str = "live-server") -> Iterator[str]:
    """``app`` served on a free port in a thread named ``name``; yields its ``host:port``."""
    server = make_server("127.0.0.1", 0, read_at_once(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=name)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def live_server(app: Any) -> Iterator[str]:
    """The app served on a free port in a thread; yields its ``host:port``."""
    before = set(threading.enumerate())
    try:
        with served(app) as address:
            yield address
    finally:
        deadline = time.monotonic() + 10
        for leftover in set(threading.enumerate()) - before:
            if not leftover.name.startswith("liarsdice-"):  # the hub's, stopped by `app`
                leftover.join(max(0.0, deadline - time.monotonic()))


class Tab:
    """A socket stand-in that drops what it is sent."""

    seat: int | None = None
    table: Any = None
    greeted = False
    locale = "en"

    def send(self, data: Any) -> None:
        pass

    def abandon(self, code: int = 1000, reason: str = "") -> None:
        pass


class ManualScheduler:
    """Jobs run when the test pumps them, in order, whatever their delay."""

    def __init__(self) -> None:
        self.jobs: deque[Callable[[], None]] = deque()
        self.submitted: list[Callable[[], None]] = []

    def call_later(self, delay: float, fn: Callable[[], None]) -> None:
        self.jobs.append(fn)

    def submit(self, fn: Callable[[], None]) -> None:
        self.submitted.append(fn)


class ManualHub:
    """A table's hub with a :class:`ManualScheduler`, an in-memory store and no pauses."""

    def __init__(self) -> None:
        self.settings = {"BOT_DELAY": 0, "REVEAL_PAUSE": 0}
        self.store = LiveStore(":memory:")
        self.node = "here"
        self.scheduler = ManualScheduler()

    def record_latency(self, delays: list[float]) -> None:
        pass


class Conn:
    """A socket stand-in for a table: keeps what it is sent (decoded) and the close code."""

    def __init__(self, locale: str = "en") -> None:
        self.seat: int | None = None
        self.table: Any = None
        self.greeted = False
        self.locale = locale
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    def send(self, data: dict[str, Any] | str) -> None:  # a message, or its text
        self.sent.append(json.loads(data if isinstance(data, str) else encode(data, self.locale)))

    def abandon(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code

    def of(self, kind: str) -> list[dict[str, Any]]:
        """The messages of type ``kind`` sent so far."""
        return [m for m in self.sent if m["type"] == kind]


class WSPlayer:
    """A WebSocket client for one seat (or a spectator) that records every message it receives."""

    def __init__(self, host: str, code: str, token: str | None = None) -> None:
        self.host, self.code, self.token = host, code, token
        self.messages: list[dict[str, Any]] = []
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.ws: Client | None = None
        self._reader: threading.Thread | None = None
        self.next_id = 1

    def connect(self, hello: bool = True) -> WSPlayer:
        self.ws = Client.connect(f"ws://{self.host}/ws/{self.code}")
        self._reader = threading.Thread(target=self._read, args=(self.ws,), name="test-ws-reader")
        self._reader.start()
        if hello:
            self.send("hello", **({"seat_token": self.token} if self.token else {}))
        return self

    def _read(self, ws: Client) -> None:
        while True:
            try:
                raw = ws.receive()
            except ConnectionClosed:
                return
            if raw is None:
                return
            data = json.loads(raw)
            self.messages.append(data)
            self.inbox.put(data)

    def send(self, msg_type: str, /, **fields: Any) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps({"v": 1, "type": msg_type, "id": self.next_id, **fields}))
        self.next_id += 1

    def send_raw(self, text: str) -> None:
        assert self.ws is not None
        self.ws.send(text)

    def expect(self, kind: str, /, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        """The next message of ``kind`` (whose fields equal ``match``), skipping others."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind} message {match} within {timeout} s")
            try:
                data = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if data["type"] == kind and all(data.get(k) == v for k, v in match.items()):
                return data

    def drain(self) -> list[dict[str, Any]]:
        found = []
        while True:
            try:
                found.append(self.inbox.get_nowait())
            except queue.Empty:
                return found

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                self.ws.close()
            self.ws.thread.join(5)
            assert self._reader is not None
            self._reader.join(5)
            self.ws = None


def handshake_request(host: str, path: str) -> bytes:
    """A WebSocket handshake for ``path`` at ``host``, as raw bytes, for tests that speak the wire
    themselves (a storm of handshakes, a frame sent with the handshake)."""
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def closed_with(ws: Client, timeout: float = 10.0) -> tuple[int, str]:
    """The close code and reason the server sent ``ws``."""
    deadline = time.monotonic() + timeout
    with contextlib.suppress(ConnectionClosed):
        while ws.connected and time.monotonic() < deadline:
            ws.receive(timeout=0.2)
    assert not ws.connected, "the server did not close the socket"
    if ws.close_reason == 1005:
        # simple-websocket's client reads only the first event of the handshake's data: a close
        # frame that came with the handshake's response is still waiting in its parser.
        for event in ws.ws.events():
            if isinstance(event, CloseConnection):
                return event.code, event.reason
    return ws.close_reason, ws.close_message


@pytest.fixture
def ws_players() -> Iterator[list[WSPlayer]]:
    """A list to put WSPlayers in; every one is closed at the end of the test."""
    players: list[WSPlayer] = []
    yield players
    for player in players:
        player.close()


@pytest.fixture
def make_player(live_server: str, ws_players: list[WSPlayer]) -> Any:
    def make(code: str, token: str | None = None, hello: bool = True) -> WSPlayer:
        player = WSPlayer(live_server, code, token).connect(hello)
        ws_players.append(player)
        return player

    return make


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
    "--mute-audio",
]


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright; the test is skipped, with the reason, without it."""
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


REDIS_SERVER = shutil.which("redis-server")


def redis_options(port: int, folder: Path, aof: bool = True) -> list[str]:
    """``redis-server``'s options for a test server on ``port`` keeping its files in ``folder``:
    an append-only file (``aof``) and no snapshots."""
    options = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(folder)]
    return [*options, "--appendonly", "yes" if aof else "no"]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: Any) -> Iterator[str]:
    """A real ``redis-server`` on a free port, keeping an append-only file in a temporary folder
    (as the server requires), stopped after the session; skipped with the reason where it is not
    installed, except under CI (``CI`` set), where that fails."""
    if REDIS_SERVER is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install redis-server (apt-get install redis-server)")
        pytest.skip("needs redis-server (apt-get install redis-server)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tmp_path_factory.mktemp("redis")
    server = subprocess.Popen(
        [REDIS_SERVER, *redis_options(port, folder)],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            break
        assert server.poll() is None and time.monotonic() < deadline, "redis-server did not start"
        time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(10)


POSTGRES_BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)), None)
"""The newest PostgreSQL server's binaries (Debian's ``postgresql`` package), if installed."""


def _as_postgres(folder: Path, **popen: Any) -> dict[str, Any]:
    """Popen arguments that run a command in ``folder``, as the ``postgres`` user when this is
    root (initdb and postgres refuse to run as root)."""
    if os.geteuid() == 0:
        popen.update(user="postgres", group="postgres", extra_groups=[])
    return {**popen, "cwd": folder}


def create_database(server_url: str) -> str:
    """A new, empty database on the server of ``server_url`` (a unique name); its URL."""
    import psycopg

    name = f"test_{secrets.token_hex(6)}"
    plain = server_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A real PostgreSQL server on a free port of 127.0.0.1 (trust auth, no durability), with a
    database ``liarsdice``; stopped and deleted after the session. Skipped with the reason where
    it is not installed, except under CI (``CI`` set), where that fails. Tests that need a clean
    schema take a database of their own: :func:`create_database`."""
    if POSTGRES_BIN is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install postgresql (apt-get install postgresql)")
        pytest.skip("needs PostgreSQL's server (apt-get install postgresql)")
    import psycopg

    folder = Path(tempfile.mkdtemp(prefix="liarsdice-postgres-"))  # not under pytest's 0700 tmp
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    initdb = [POSTGRES_BIN / "initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]
    subprocess.run(
        [*initdb, "--locale=C", "--no-sync"],
        **_as_postgres(folder, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE),
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = [
        "fsync=off",
        "synchronous_commit=off",
        "full_page_writes=off",
        "max_connections=200",
    ]
    server = subprocess.Popen(
        [POSTGRES_BIN / "postgres", "-D", data, "-p", str(port), "-h", "127.0.0.1", "-k", folder]
        + [arg for setting in settings for arg in ("-c", setting)],
        **_as_postgres(folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    )
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    deadline = time.monotonic() + 30
    while True:
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=2) as conn:
                conn.execute("CREATE DATABASE liarsdice")
            break
        except psycopg.OperationalError:
            assert server.poll() is None and time.monotonic() < deadline, "postgres did not start"
            time.sleep(0.1)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/liarsdice"
    finally:
        server.send_signal(signal.SIGINT)  # fast shutdown: clients are disconnected
        server.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: Any, tmp_path: Path) -> Iterator[str]:
    """A fresh database for the SQL layer: a SQLite file, then a new PostgreSQL database."""
    if request.param == "sqlite":
        url = db.sqlite_url(tmp_path / "test.sqlite")
    else:
        url = create_database(request.getfixturevalue("postgres_url"))
    yield url
    db.engine_for(url).dispose()  # the pool's connections: closed


def create_in_lobby(
    page: Any, host: str, *, switched_on: tuple[str, ...] = (), **choices: str
) -> str:
    """Create a table through the lobby's form (nickname Iris, dudo's rules, then ``choices``:
    form field id -> value, and the bool options ``switched_on`` ticked); returns the new table's
    code, with ``page`` on the table. Dudo's rules are the dudo preset at 5 dice each, else its
    variants (dice loss, calza) without the preset, which is for 5 dice only."""
    page.goto(f"http://{host}/")
    page.fill("#nickname", "Iris")
    if choices.get("dice_per_player", "5") == "5":
        page.select_option("#preset", "dudo")
    else:
        page.select_option("#preset", "")
        for variant in ("dice-loss", "calza"):
            page.check(f"input[name=variant][value={variant}]")
    for field, value in choices.items():
        if field in ("bot_kind", "preset"):
            page.select_option(f"#{field}", value)
        else:
            page.fill(f"#{field}", value)
    for key in switched_on:
        page.check(f"input[data-key='{key}']")
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    return str(page.url.split("/t/")[1].split("?")[0])
