"""SQL storage of players, ratings and finished games through SQLAlchemy Core: any database URL.

Contract: ``DATABASE_URL`` (a SQLAlchemy URL) names the database; without it, the ``DATABASE``
SQLite file (``sqlite:///<DATABASE>``), the embedded default that needs no server. Several hosts
share players and ratings through one server database, e.g. PostgreSQL
(``postgresql+psycopg://user:password@host/dbname``, driver from the ``postgres`` extra).

- The schema is defined once (:data:`metadata`: :data:`players`, :data:`games`,
  :data:`game_players`). :func:`init_schema` creates what is missing, adds the columns an older
  database lacks (:data:`ADDED_COLUMNS`) and then the indexes, so neither a new nor an old
  database needs a setup step; processes starting at once do not trip over each other.
- :func:`engine_for` gives the one :class:`~sqlalchemy.engine.Engine` of a URL in this process
  (the app keeps it in ``app.extensions``; the hub's worker threads reach it by URL).
  :func:`get_db` is the current request's connection (rows are read as mappings:
  ``row["nickname"]``, and ``row.nickname`` in templates), closed when the request ends.
- :func:`writing` runs a read-modify-write as one transaction in which what is read stays as
  read until the commit. On SQLite it is ``BEGIN IMMEDIATE``: the write lock is taken before the
  first read, so writers (threads or processes) are serialized, each waiting up to
  :data:`BUSY_TIMEOUT` seconds for the others. On other databases, the rows a writer reads and
  then updates are read ``FOR UPDATE`` (:func:`~liarsdice_demo.storage.history.save_game` does).
  Other transactions are SQLite's deferred ones, the server's default elsewhere.
- Timestamps are set by Python, not the database: UTC text ``YYYY-MM-DD HH:MM:SS``
  (:func:`utcnow`), the format SQLite's ``datetime('now')`` wrote before, so old and new rows
  compare and display alike on every backend.

SQLite connections have foreign keys on, WAL mode and a busy timeout of :data:`BUSY_TIMEOUT`.
The embedded live-table store (:mod:`liarsdice_demo.storage.live_store`) keeps using the ``DATABASE``
file through the standard library: :func:`connect` and :func:`write_transaction`.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from flask import Flask, current_app, g
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    inspect,
    make_url,
)
from sqlalchemy.exc import (
    ArgumentError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
)
from sqlalchemy.pool import NullPool

EXTENSION = "liarsdice_db"
"""``app.extensions`` key: the app's :class:`~sqlalchemy.engine.Engine`."""
BUSY_TIMEOUT = 30.0
"""Seconds a SQLite connection waits for another writer's lock before ``database is locked``."""
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
EXAMPLES = "e.g. postgresql+psycopg://user:password@host/dbname or sqlite:////path/to/file.sqlite"
"""What a database URL looks like, for the errors about one."""
IMMEDIATE = "liarsdice_immediate"
"""Connection ``info`` key: the next transaction :func:`writing` begins is ``BEGIN IMMEDIATE``."""


def utcnow() -> str:
    """The current UTC time as stored: ``YYYY-MM-DD HH:MM:SS``."""
    return datetime.now(UTC).strftime(TIME_FORMAT)


metadata = MetaData()
players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token_hash", Text, unique=True),  # NULL for bots
    Column("nickname", Text, nullable=False),
    Column("bot_kind", Text),  # NULL for humans
    Column("mu", Float, nullable=False, default=25.0),
    Column("sigma", Float, nullable=False, default=25.0 / 3),
    Column("rated_games", Integer, nullable=False, default=0),
    Column("created_at", Text, nullable=False, default=utcnow),
    Column("last_seen", Text),  # NULL: not seen since created_at
    UniqueConstraint("nickname", "bot_kind"),
)
games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_code", Text, nullable=False),
    Column("title", Text, nullable=False),
    Column("variants", Text, nullable=False),  # JSON list
    Column("options", Text, nullable=False),  # JSON object
    Column("preset", Text),
    Column("rated", Integer, nullable=False),
    Column("dice_per_player", Integer, nullable=False),
    Column("winner", Text, nullable=False),  # the winners, joined (history.WINNERS_JOINED)
    Column("events", Text, nullable=False),  # JSON list, liarsdice.serialization
    Column("finished_at", Text, nullable=False, default=utcnow),
    Column("live_key", Text),  # the live table's uid and game number: saved once
    Index("games_live_key", "live_key", unique=True),
)
game_players = Table(
    "game_players",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("seat", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("place", Integer, nullable=False),
    Column("rating_before", Float),
    Column("rating_after", Float),
    Index("game_players_player", "player_id"),
)

ADDED_COLUMNS = (players.c.last_seen, games.c.live_key)
"""Columns added to the schema after its first release (an older database gets them)."""


def sqlite_url(path: str | Path) -> str:
    """The URL of the SQLite file at ``path``."""
    return f"sqlite:///{path}"


def shown(url: str) -> str:
    """``url`` (a database's or Redis's) fit to print: its password, in the address or in a query
    field named like one, replaced by ``***``; text that is not a URL has whatever lies between a
    ``:`` and an ``@`` hidden."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return re.sub(r":[^:@/]*@", ":***@", url)
    user, at, host = parts.netloc.rpartition("@")
    netloc = f"{user.partition(':')[0]}:***@{host}" if at and ":" in user else parts.netloc
    fields = parse_qsl(parts.query, keep_blank_values=True)
    query = "&".join(f"{k}={'***' if 'pass' in k.lower() else v}" for k, v in fields)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


@functools.cache
def engine_for(url: str) -> Engine:
    """This process's engine for ``url``, made on first use. SQLite: a new connection per
    checkout (as cheap as opening the file; nothing pooled to leak across ``fork``) with foreign
    keys on, WAL, the busy timeout, and ``BEGIN`` emitted by us (``IMMEDIATE`` in
    :func:`writing`); a server database: a pool whose connections are checked before use.
    ``RuntimeError`` when the URL's driver is not installed."""
    try:
        parsed = make_url(url)
        if parsed.get_backend_name() != "sqlite":
            return create_engine(parsed, pool_pre_ping=True)
        engine = create_engine(parsed, poolclass=NullPool)
    except (ArgumentError, NoSuchModuleError):
        raise RuntimeError(
            f"not a database URL this app knows: {shown(url)} ({EXAMPLES})"
        ) from None
    except ImportError as problem:
        hint = f" ({EXAMPLES})" if "psycopg2" in url else ""
        if "postgres" in url and not hint:
            hint = " (pip install 'liarsdice-rules-demo[postgres]')"
        raise RuntimeError(f"no driver for {shown(url)}: {problem}{hint}") from None
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _: Any) -> None:
    """Settings of each new SQLite connection; the driver's own ``BEGIN`` is turned off."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    """Emit SQLite's ``BEGIN``: ``IMMEDIATE`` (the write lock, at once) inside :func:`writing`."""
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get(IMMEDIATE) else "BEGIN")


@contextmanager
def writing(conn: Connection) -> Iterator[Connection]:
    """One write transaction on ``conn``: committed on success, rolled back on any error.

    A transaction ``conn`` is in (a request's reads) is ended first, so the writes start from
    the latest data. On SQLite the transaction is ``BEGIN IMMEDIATE`` (see the module's
    docstring); elsewhere the caller locks what it reads (``SELECT … FOR UPDATE``).
    """
    if conn.in_transaction():
        conn.rollback()
    conn.info[IMMEDIATE] = True
    try:
        transaction = conn.begin()
    finally:
        conn.info.pop(IMMEDIATE, None)
    with transaction:
        yield conn


def _create_missing(conn: Connection) -> None:
    """The tables that do not exist, the columns they lack, then every missing index."""
    metadata.create_all(conn, checkfirst=True)
    inspector = inspect(conn)
    for column in ADDED_COLUMNS:
        name = column.table.name
        if column.name not in {c["name"] for c in inspector.get_columns(name)}:
            declared = column.type.compile(dialect=conn.dialect)
            conn.exec_driver_sql(f"ALTER TABLE {name} ADD COLUMN {column.name} {declared}")
    for table in metadata.sorted_tables:
        for index in table.indexes:
            index.create(conn, checkfirst=True)


def init_schema(engine: Engine, attempts: int = 3) -> None:
    """Create what the database lacks (idempotent), in one write transaction.

    Another process doing the same at once is waited for on SQLite; on a server database one of
    the two may fail on the other's new table or column, and then looks again (``attempts``).
    """
    for attempt in range(1, attempts + 1):
        try:
            with engine.connect() as conn, writing(conn):
                _create_missing(conn)
            return
        except (IntegrityError, ProgrammingError):
            if attempt == attempts:
                raise


def get_db() -> Connection:
    """The current request's connection, opened on first use."""
    if "db" not in g:
        g.db = current_app.extensions[EXTENSION].connect()
    connection: Connection = g.db
    return connection


def close_db(_: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened (what it did not commit is undone)."""
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def init_app(app: Flask) -> None:
    """Resolve ``DATABASE_URL`` (default: the ``DATABASE`` file), keep its engine in
    ``app.extensions``, create the schema now and close each request's connection when the
    request ends. ``RuntimeError`` when the database cannot be reached."""
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    url = app.config.get("DATABASE_URL") or sqlite_url(app.config["DATABASE"])
    app.config["DATABASE_URL"] = url
    engine = engine_for(url)
    database = engine.url.database
    if engine.url.get_backend_name() == "sqlite" and database:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    try:
        init_schema(engine)
    except OperationalError as problem:
        raise RuntimeError(f"cannot reach the database at {shown(url)}: {problem.orig}") from None
    app.extensions[EXTENSION] = engine
    app.teardown_appcontext(close_db)


def connect(path: str | Path) -> sqlite3.Connection:
    """A new stdlib connection to the SQLite file at ``path`` (rows as ``sqlite3.Row``), for the
    embedded live-table store; the caller closes it.

    The connection keeps the module's default (legacy) transaction handling: a DML statement
    opens a deferred transaction, ``with conn`` commits it. ``timeout`` is SQLite's busy timeout.
    """
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction of a :func:`connect` connection: committed on success,
    rolled back on any error. ``conn`` must not be in a transaction already."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.rollback()
        raise
    conn.commit()
