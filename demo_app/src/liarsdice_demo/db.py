"""SQLite storage (stdlib ``sqlite3``): one connection per request, the schema created on start.

Contract: :func:`get_db` returns the request's connection (rows as :class:`sqlite3.Row`), closed at
the end of the request; :func:`connect` opens a standalone connection for code running outside a
request (the hub's worker threads), which the caller closes. :func:`write_transaction` runs a
read-modify-write as one ``BEGIN IMMEDIATE`` transaction, so concurrent writers (threads or
processes) are serialized and wait up to :data:`BUSY_TIMEOUT` seconds for each other instead of
failing. :func:`init_app` creates the schema if it is missing and adds the columns an older
database lacks (:data:`ADDED_COLUMNS`), so neither a fresh nor an old database file needs a setup
step.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app, g

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    token_hash TEXT UNIQUE,            -- NULL for bots
    nickname TEXT NOT NULL,
    bot_kind TEXT,                     -- NULL for humans
    mu REAL NOT NULL DEFAULT 25.0,
    sigma REAL NOT NULL DEFAULT 8.333333333333334,
    rated_games INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (datetime('now')),
    last_seen TEXT,                    -- UTC; NULL: not seen since created_at
    UNIQUE (nickname, bot_kind)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    table_code TEXT NOT NULL,
    title TEXT NOT NULL,
    variants TEXT NOT NULL,            -- JSON list
    options TEXT NOT NULL,             -- JSON object
    preset TEXT,
    rated INTEGER NOT NULL,
    dice_per_player INTEGER NOT NULL,
    winner TEXT NOT NULL,
    events TEXT NOT NULL,              -- JSON list, liarsdice.serialization
    finished_at TEXT NOT NULL DEFAULT (datetime('now')),
    live_key TEXT                      -- the live table's uid and game number: saved once
);
CREATE TABLE IF NOT EXISTS game_players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    place INTEGER NOT NULL,
    rating_before REAL,
    rating_after REAL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS game_players_player ON game_players(player_id);
"""

ADDED_COLUMNS = (("players", "last_seen", "TEXT"), ("games", "live_key", "TEXT"))
"""Columns added to the schema after its first release: (table, column, declaration)."""

BUSY_TIMEOUT = 30.0
"""Seconds a connection waits for another writer's lock before ``database is locked``."""


def connect(path: str | Path) -> sqlite3.Connection:
    """A new connection to the database at ``path`` (rows as ``sqlite3.Row``); caller closes it.

    The connection keeps the module's default (legacy) transaction handling: a DML statement
    opens a deferred transaction, ``with conn`` commits it. ``timeout`` is SQLite's busy timeout.
    """
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on any error.

    The write lock is taken before the first read, so what is read inside the block cannot be
    changed by another connection before the block's writes commit (a deferred transaction would
    read outside any lock, or in WAL mode fail with ``SQLITE_BUSY`` when upgrading to a write).
    Another writer holding the lock is waited for (the busy timeout), not failed on. ``conn``
    must not be in a transaction already.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.rollback()
        raise
    conn.commit()


def get_db() -> sqlite3.Connection:
    """The current request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def add_missing_columns(conn: sqlite3.Connection) -> None:
    """``ALTER TABLE … ADD COLUMN`` each of :data:`ADDED_COLUMNS` the database lacks, in one write
    transaction (so two processes starting at once do not both add it)."""
    with write_transaction(conn):
        for table, column, declaration in ADDED_COLUMNS:
            present = {row["name"] for row in conn.execute(f"PRAGMA table_info({table})")}
            if column not in present:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def init_schema(path: str | Path) -> None:
    """Create the tables that do not exist yet and add missing columns (idempotent); WAL mode
    for concurrent readers."""
    conn = connect(path)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.executescript(SCHEMA)
        conn.commit()
        add_missing_columns(conn)
        conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS games_live_key ON games(live_key)")
        conn.commit()
    finally:
        conn.close()


def init_app(app: Flask) -> None:
    """Create the schema now and close each request's connection when the request ends."""
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    init_schema(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
