"""Per-client rate limits (429 with Retry-After, nothing changed) and bounded player rows."""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, insert, inspect, select, text, update

from liarsdice_demo import create_app
from liarsdice_demo.edge import limits
from liarsdice_demo.storage import db
from liarsdice_demo.storage.db import get_db
from liarsdice_demo.storage.players import purge_idle_players

TABLE = {"nickname": "Iris", "preset": "casino", "seats": 3}
LOOSE = "1000 per minute"
WAIT = re.compile(r"^too many requests: try again in (\d+) (second|minute|hour)s?$")
UNIT = {"second": 1, "minute": 60, "hour": 3600}


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Any]:
    """Apps with loose limits except those given; every one is shut down at the end."""
    made: list[Any] = []

    def make(**config: Any) -> Any:
        app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(tmp_path / f"limits{len(made)}.sqlite"),
                "BOT_DELAY": 0.0,
                "REVEAL_PAUSE": 0.0,
                "LIMIT_TABLE_CREATION": LOOSE,
                "LIMIT_TABLE_CREATION_NETWORK": LOOSE,
                "LIMIT_SEAT_CLAIMS": LOOSE,
                "LIMIT_SEAT_CLAIMS_ADDRESS": LOOSE,
                "LIMIT_CODE_MISSES": LOOSE,
                "LIMIT_PLAYER_CREATION": LOOSE,
                "LIMIT_PLAYER_CREATION_NETWORK": LOOSE,
                "MAX_TABLES_PER_PLAYER": 1000,  # the hub's own caps: not what is tested here
                "MAX_TABLES_PER_ADDRESS": 1000,
                "LIMIT_REQUESTS": "10000 per second",
                "LIMIT_TARPIT_SECONDS": 0.0,
                **config,
            }
        )
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["liarsdice_hub"].shutdown()


def rows(app: Any, sql: str = "SELECT COUNT(*) FROM players") -> int:
    with app.app_context():
        return int(get_db().execute(text(sql)).scalar_one())


def client_at(app: Any, address: str) -> Any:
    """A test client whose requests come from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def live_tables(app: Any) -> int:
    return len(app.extensions["liarsdice_hub"].tables())


def assert_refused(response: Any) -> int:
    """A JSON 429 with a matching ``Retry-After``; the seconds to wait."""
    assert response.status_code == 429
    assert response.json["ok"] is False
    said = WAIT.match(response.json["error"])
    assert said, response.json
    wait, unit = int(response.headers["Retry-After"]), UNIT[said.group(2)]
    assert 1 <= wait <= 3601
    # the words round up to whole minutes (or hours) what the header says in seconds
    assert int(said.group(1)) == (wait if unit == 1 else -(-wait // unit)), (wait, said.group(0))
    return wait


def test_the_limits_wrap_the_views(make_app: Any) -> None:
    app = make_app()
    for endpoint in ("api.create_table", "api.take_seat", *limits.LOOKUPS):
        view = app.view_functions[endpoint]
        assert getattr(view, "__wrapper-limiter-instance") == limits.limiter, endpoint


def test_table_creation_is_limited_per_player(make_app: Any) -> None:
    app = make_app(LIMIT_TABLE_CREATION="2 per minute")
    client = app.test_client()
    # The first table is made as a newcomer (it spends a new player of the address's instead).
    for _ in range(3):
        assert client.post("/api/tables", json=TABLE).status_code == 200
    assert assert_refused(client.post("/api/tables", json=TABLE)) <= 61
    assert live_tables(app) == 3
    # Another player behind the same address, and another address, have their own budgets.
    sibling = app.test_client()
    assert sibling.post("/api/tables", json=TABLE).status_code == 200
    assert sibling.post("/api/tables", json=TABLE).status_code == 200
    other = client_at(app, "198.51.100.9")
    assert other.post("/api/tables", json=TABLE).status_code == 200


def test_a_classroom_behind_one_address_sits_down_under_the_default_limits(
    make_app: Any,
) -> None:
    """30 fresh browsers from one address in a minute: 6 hosts make tables of 5 and 24 guests
    take the seats. (With 10 new players an hour per address, the 11th was refused for most of
    an hour: "try again in 2744 s".)"""
    defaults = {key: value for key, value in limits.DEFAULTS.items() if key.startswith("LIMIT_")}
    # Not the app-wide 20 requests a second: 30 pupils do not click in the same second.
    app = make_app(**{**defaults, "LIMIT_TARPIT_SECONDS": 0.0, "LIMIT_REQUESTS": LOOSE})
    hosts = [app.test_client() for _ in range(6)]
    tables = [host.post("/api/tables", json={**TABLE, "seats": 5}).json for host in hosts]
    assert all(table["ok"] for table in tables), tables
    for table in tables:
        for guest in range(4):
            body = {"nickname": f"Pupil {guest}", "key": table["join_key"]}
            taken = app.test_client().post(f"/api/tables/{table['code']}/seat", json=body)
            assert taken.status_code == 200, taken.json
    assert rows(app) == 30 and live_tables(app) == 6


@pytest.mark.parametrize(
    ("first", "neighbour", "elsewhere"),
    [
        ("198.51.100.1", "198.51.100.254", "198.51.101.1"),  # IPv4: one /24
        ("2001:db8:7:1::1", "2001:db8:7:ffff::9", "2001:db8:8::1"),  # IPv6: one /48, two /64s
    ],
)
def test_new_players_are_limited_per_network(
    make_app: Any, first: str, neighbour: str, elsewhere: str
) -> None:
    app = make_app(LIMIT_PLAYER_CREATION_NETWORK="2 per hour")
    for address in (first, neighbour):
        assert client_at(app, address).post("/api/tables", json=TABLE).status_code == 200
    assert assert_refused(client_at(app, neighbour).post("/api/tables", json=TABLE)) > 60
    assert rows(app) == 2
    assert client_at(app, elsewhere).post("/api/tables", json=TABLE).status_code == 200


def test_seat_claims_have_a_ceiling_per_address(make_app: Any) -> None:
    app = make_app(LIMIT_SEAT_CLAIMS_ADDRESS="3 per minute")
    host = client_at(app, "198.51.100.50")
    made = host.post("/api/tables", json={**TABLE, "seats": 6}).json
    body = {"nickname": "Knox", "key": made["join_key"]}
    guests = [app.test_client() for _ in range(4)]  # four players behind one address
    for guest in guests[:3]:
        assert guest.post(f"/api/tables/{made['code']}/seat", json=body).status_code == 200
    assert_refused(guests[3].post(f"/api/tables/{made['code']}/seat", json=body))


@pytest.mark.parametrize(
    ("first", "neighbour", "elsewhere"),
    [
        ("198.51.100.1", "198.51.100.254", "198.51.101.1"),  # IPv4: one /24
        ("2001:db8:7:1::1", "2001:db8:7:ffff::9", "2001:db8:8::1"),  # IPv6: one /48, two /64s
    ],
)
def test_table_creation_is_limited_per_network(
    make_app: Any, first: str, neighbour: str, elsewhere: str
) -> None:
    app = make_app(LIMIT_TABLE_CREATION_NETWORK="2 per minute")
    for address in (first, neighbour):  # two clients (each its own per-client budget)...
        assert client_at(app, address).post("/api/tables", json=TABLE).status_code == 200
    # ... of one network spend one budget of tables made.
    assert assert_refused(client_at(app, neighbour).post("/api/tables", json=TABLE)) <= 61
    assert live_tables(app) == 2
    assert client_at(app, elsewhere).post("/api/tables", json=TABLE).status_code == 200


def test_only_tables_made_spend_the_network_budget(make_app: Any) -> None:
    app = make_app(LIMIT_TABLE_CREATION_NETWORK="2 per minute")
    client = client_at(app, "203.0.113.5")
    for _ in range(3):  # a mistyped form is not a table
        assert client.post("/api/tables", json={**TABLE, "seats": 9}).status_code == 422
    for _ in range(2):
        assert client.post("/api/tables", json=TABLE).status_code == 200
    assert_refused(client.post("/api/tables", json=TABLE))


def test_an_answer_keeps_the_retry_after_the_app_gave_it(make_app: Any) -> None:
    app = make_app(LIMIT_REQUESTS="50 per minute")
    app.add_url_rule("/api/busy", "busy", lambda: ({"ok": False}, 503, {"Retry-After": "5"}))
    client = app.test_client()
    assert "Retry-After" not in client.get("/api/catalog").headers  # nothing to retry
    busy = client.get("/api/busy")
    # Flask-Limiter would say when its own minute ends (4, 43, 58 s...), not the app's 5 s.
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "5"


def test_a_second_app_does_not_double_the_counting(make_app: Any) -> None:
    """Decorating a second app's views adds no second copy of a limit (each request hits once)."""
    make_app()
    app = make_app(LIMIT_TABLE_CREATION="3 per minute")
    client = app.test_client()
    for _ in range(4):  # the first as a newcomer, then 3 as a player
        assert client.post("/api/tables", json=TABLE).status_code == 200
    assert client.post("/api/tables", json=TABLE).status_code == 429


def test_seat_claims_are_limited(make_app: Any) -> None:
    app = make_app(LIMIT_SEAT_CLAIMS="2 per minute")
    host = app.test_client()
    tables = [host.post("/api/tables", json={**TABLE, "seats": 4}).json for _ in range(2)]
    guest = client_at(app, "198.51.100.20")
    body = {"nickname": "Knox"}
    assert guest.post("/api/tables", json=TABLE).status_code == 200  # now a player
    for made in tables:
        url = f"/api/tables/{made['code']}/seat"
        assert guest.post(url, json={**body, "key": made["join_key"]}).status_code == 200
    third = host.post("/api/tables", json={**TABLE, "seats": 4}).json
    refused = guest.post(
        f"/api/tables/{third['code']}/seat", json={**body, "key": third["join_key"]}
    )
    assert_refused(refused)
    assert host.get(f"/api/tables/{third['code']}").json["taken"] == 1


def test_only_lookup_misses_count_and_they_share_one_budget(make_app: Any) -> None:
    app = make_app(LIMIT_CODE_MISSES="3 per minute")
    client = app.test_client()
    code = client.post("/api/tables", json=TABLE).json["code"]
    for _ in range(10):  # finding a table costs nothing
        assert client.get(f"/api/tables/{code}").status_code == 200
        assert client.get(f"/t/{code}").status_code == 200
    assert client.get("/join", query_string={"code": code}).location.endswith(f"/t/{code}")
    # Three misses, each on a different kind of lookup...
    assert client.get("/api/tables/ZZZZZZZZ").status_code == 404
    assert client.get("/t/ZZZZZZZZ/odds").status_code == 404
    assert "missing=" in client.get("/join", query_string={"code": "ZZZZZZZZ"}).location
    # ...spend the budget: now every lookup waits, even of a live table.
    assert_refused(client.get(f"/api/tables/{code}"))
    assert_refused(client.post(f"/api/tables/{code}/seat", json={}))
    page = client.get(f"/t/{code}")
    assert page.status_code == 429 and int(page.headers["Retry-After"]) >= 1
    assert "too many requests: try again in" in page.get_data(as_text=True).lower()
    assert client.get("/join", query_string={"code": code}).status_code == 429
    assert client.get(f"/t/{code}/rules").status_code == 429
    # Other pages and other clients are not affected.
    assert client.get("/").status_code == 200
    other = client_at(app, "198.51.100.30")
    assert other.get(f"/api/tables/{code}").status_code == 200


def test_the_eleventh_new_player_in_an_hour_is_refused(make_app: Any) -> None:
    app = make_app(LIMIT_PLAYER_CREATION="10 per hour")  # as a deployment may set it
    clients = [app.test_client() for _ in range(10)]
    made = [client.post("/api/tables", json=TABLE) for client in clients]
    assert all(answer.status_code == 200 for answer in made)
    newcomer = app.test_client()
    wait = assert_refused(newcomer.post("/api/tables", json=TABLE))
    assert 3000 < wait <= 3600
    assert rows(app) == 10 and live_tables(app) == 10
    assert newcomer.get_cookie("ld_player") is None
    # The wait is said in minutes, in the reader's language.
    for lang, unit in (("uk", "хв"), ("ru", "мин")):
        reader = app.test_client()  # (the language choice is remembered in a cookie)
        said = reader.post(f"/api/tables?lang={lang}", json=TABLE).json["error"]
        assert re.search(rf" (\d+)\s{unit}$", said), said
    # A seat claim would make a player too: refused the same way.
    table = made[0].json
    body = {"nickname": "Knox", "key": table["join_key"]}
    assert_refused(newcomer.post(f"/api/tables/{table['code']}/seat", json=body))
    assert rows(app) == 10
    # A player who has a cookie makes no new row: still welcome; another address has its own budget.
    assert clients[0].post("/api/tables", json=TABLE).status_code == 200
    elsewhere = client_at(app, "198.51.100.40")
    assert elsewhere.post("/api/tables", json=TABLE).status_code == 200
    assert rows(app) == 11


def test_proxy_fix_limits_the_forwarded_client(make_app: Any) -> None:
    app = make_app(LIMIT_PLAYER_CREATION="1 per minute", PROXY_FIX={"x_for": 1})
    first = {"X-Forwarded-For": "203.0.113.1"}
    assert app.test_client().post("/api/tables", json=TABLE, headers=first).status_code == 200
    assert app.test_client().post("/api/tables", json=TABLE, headers=first).status_code == 429
    second = {"X-Forwarded-For": "203.0.113.2"}
    assert app.test_client().post("/api/tables", json=TABLE, headers=second).status_code == 200


def test_the_storage_comes_from_config(make_app: Any) -> None:
    make_app(RATELIMIT_STORAGE_URI="memory://")
    assert type(limits.limiter.storage).__name__ == "MemoryStorage"


def ago(**delta: float) -> str:
    """The UTC time ``delta`` ago, as the database stores times."""
    return (datetime.now(UTC) - timedelta(**delta)).strftime(db.TIME_FORMAT)


def add_player(conn: Connection, name: str, seen: str | None, bot: str | None = None) -> int:
    made = conn.execute(
        insert(db.players),
        {"nickname": name, "bot_kind": bot, "created_at": ago(days=400), "last_seen": seen},
    )
    assert made.inserted_primary_key is not None
    return int(made.inserted_primary_key[0])


def test_idle_players_without_a_game_are_purged(make_app: Any, database_url: str) -> None:
    make_app(DATABASE_URL=database_url)
    with db.engine_for(database_url).connect() as conn:
        with conn.begin():
            old = add_player(conn, "Old", "2000-01-01 00:00:00")
            never = add_player(conn, "Never", None)  # no last_seen: created_at counts
            recent = add_player(conn, "Recent", ago(days=29))
            played = add_player(conn, "Played", "2000-01-01 00:00:00")
            bot = add_player(conn, "Bot (bot)", None, bot="random")
            game = {"table_code": "ABCD", "title": "t", "variants": "[]", "options": "{}"}
            game |= {"rated": 1, "dice_per_player": 5, "winner": "Played", "events": "[]"}
            made = conn.execute(insert(db.games), game).inserted_primary_key
            assert made is not None
            seat = {"game_id": made[0], "player_id": played, "seat": 0, "name": "Played"}
            conn.execute(insert(db.game_players), {**seat, "place": 1})
        assert purge_idle_players(conn, 30) == 2
        left = set(conn.execute(select(db.players.c.id)).scalars())
        assert left == {recent, played, bot}
        assert old not in left and never not in left


def test_a_new_player_triggers_the_purge_at_most_once_per_interval(make_app: Any) -> None:
    app = make_app(PLAYER_TTL_DAYS=30, PLAYER_PURGE_SECONDS=3600)
    engine = db.engine_for(app.config["DATABASE_URL"])
    with engine.begin() as conn:
        add_player(conn, "Old", "2000-01-01 00:00:00")
    app.test_client().post("/api/tables", json=TABLE)
    assert rows(app, "SELECT COUNT(*) FROM players WHERE nickname = 'Old'") == 0
    with engine.begin() as conn:
        add_player(conn, "Old", "2000-01-01 00:00:00")
    app.test_client().post("/api/tables", json=TABLE)  # within the hour: no purge
    assert rows(app, "SELECT COUNT(*) FROM players WHERE nickname = 'Old'") == 1


def test_last_seen_is_touched_at_most_hourly(make_app: Any, database_url: str) -> None:
    app = make_app(DATABASE_URL=database_url)
    client = app.test_client()
    client.post("/api/tables", json=TABLE)
    iris = db.players.c.nickname == "Iris"
    seen = select(db.players.c.last_seen).where(iris)
    engine = db.engine_for(database_url)
    with engine.begin() as conn:
        conn.execute(update(db.players).where(iris).values(last_seen=ago(minutes=10)))
        before = conn.execute(seen).scalar()
    client.get("/")
    with engine.connect() as conn:
        assert conn.execute(seen).scalar() == before  # seen lately: no write
    with engine.begin() as conn:
        conn.execute(update(db.players).where(iris).values(last_seen=ago(hours=2)))
    client.get("/")
    with engine.connect() as conn:
        assert conn.execute(seen).scalar() >= ago(minutes=1)


def test_an_old_database_gets_the_new_columns_and_indexes(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(  # the first release's schema, without players.last_seen, games.live_key
        "CREATE TABLE players (id INTEGER PRIMARY KEY, token_hash TEXT UNIQUE,"
        " nickname TEXT NOT NULL, bot_kind TEXT, mu REAL NOT NULL DEFAULT 25.0,"
        " sigma REAL NOT NULL DEFAULT 8.333333333333334, rated_games INTEGER NOT NULL DEFAULT 0,"
        " created_at TEXT NOT NULL DEFAULT (datetime('now')), UNIQUE (nickname, bot_kind));"
        "CREATE TABLE games (id INTEGER PRIMARY KEY, table_code TEXT NOT NULL,"
        " title TEXT NOT NULL, variants TEXT NOT NULL, options TEXT NOT NULL, preset TEXT,"
        " rated INTEGER NOT NULL, dice_per_player INTEGER NOT NULL, winner TEXT NOT NULL,"
        " events TEXT NOT NULL, finished_at TEXT NOT NULL DEFAULT (datetime('now')));"
        "INSERT INTO players (nickname) VALUES ('Ada');"
    )
    conn.close()
    engine = db.engine_for(db.sqlite_url(path))
    db.init_schema(engine)
    db.init_schema(engine)  # idempotent
    with engine.connect() as conn:
        schema = inspect(conn)
        assert "last_seen" in {column["name"] for column in schema.get_columns("players")}
        assert "live_key" in {column["name"] for column in schema.get_columns("games")}
        indexes = {index["name"]: index for index in schema.get_indexes("games")}
        assert indexes["games_live_key"]["unique"]
        assert "game_players_player" in {i["name"] for i in schema.get_indexes("game_players")}
        row = conn.execute(select(db.players.c.nickname, db.players.c.last_seen)).one()
        assert tuple(row) == ("Ada", None)


def test_every_request_of_a_client_shares_one_budget(make_app: Any, monkeypatch: Any) -> None:
    app = make_app(LIMIT_REQUESTS="5 per minute", LIMIT_TARPIT_SECONDS=0.75)
    held: list[float] = []
    monkeypatch.setattr(limits.time, "sleep", held.append)
    loader, other = client_at(app, "10.0.0.1"), client_at(app, "10.0.0.2")
    paths = ["/", "/leaderboard", "/api/catalog", "/api/tables", "/players/1"]
    for path in paths:
        response = loader.get(path)
        response.close()
        assert response.status_code in (200, 404), path  # answered, not refused
    refused = loader.get("/")
    assert refused.status_code == 429
    assert WAIT.match(refused.get_data(as_text=True)) is None  # the page, not the JSON
    assert int(refused.headers["Retry-After"]) >= 1
    assert loader.post("/api/tables", json=TABLE).status_code == 429
    assert held == [0.75, 0.75]  # each refusal was held back (the tarpit)
    assert rows(app, "SELECT COUNT(*) FROM players") == 0  # nothing made
    assert other.get("/").status_code == 200


def test_many_processes_creating_the_schema_at_once_all_succeed(database_url: str) -> None:
    engine = db.engine_for(database_url)
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def create() -> None:
        start.wait()
        try:
            db.init_schema(engine)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) >= {"players", "games", "game_players"}
