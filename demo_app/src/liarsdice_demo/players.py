"""Players without registration: a random token in a cookie names a player row.

Contract: before each request ``g.player`` is the cookie's player row (or ``None``);
:func:`ensure_player` creates a player with a nickname and arranges for the cookie to be set;
only a hash of the token is stored. Bots are player rows too (``bot_kind`` set, no token), so they
get ratings like anyone. The cookie is ``Secure`` when the request came over HTTPS (behind a
proxy: see ``PROXY_FIX`` in :mod:`liarsdice_demo.guard`) or ``SESSION_COOKIE_SECURE`` is set.

Rows stay bounded: new players per client are rate-limited
(:func:`liarsdice_demo.limits.spend_player_creation`, a 429 and no row when refused), a
player's ``last_seen`` is touched when their cookie is used (at most once per
:data:`SEEN_EVERY` seconds), and human players who never finished a game and were not seen for
``PLAYER_TTL_DAYS`` days are deleted (:func:`purge_idle_players`, run at a player creation at
most once per ``PLAYER_PURGE_SECONDS``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, current_app, g, request
from werkzeug.wrappers import Response

from liarsdice_demo.db import get_db
from liarsdice_demo.limits import spend_player_creation

COOKIE = "ld_player"
NICKNAME = re.compile(r"^[\w .'-]{1,20}$")
SEEN_EVERY = 3600
"""Seconds between two updates of a player's ``last_seen`` (not a write per request)."""
PURGES = "liarsdice_player_purge"
"""``app.extensions`` key: when idle players were last purged (``time.monotonic()``)."""

DEFAULTS: dict[str, Any] = {
    "PLAYER_TTL_DAYS": 30,
    "PLAYER_PURGE_SECONDS": 3600,
}
"""Config keys: days after which an idle player without a finished game is deleted; seconds
between two purges."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_nickname(raw: object) -> str:
    """``raw`` stripped, or ``ValueError`` saying why it cannot be a nickname."""
    if not isinstance(raw, str):
        raise ValueError("a nickname is text")
    name = " ".join(raw.split())
    if not NICKNAME.match(name):
        raise ValueError("a nickname is 1 to 20 letters, digits, spaces or . ' - _")
    if name.lower().endswith("(bot)"):
        raise ValueError("that nickname is reserved for bots")
    return name


def player_by_token(db: sqlite3.Connection, token: str | None) -> sqlite3.Row | None:
    """The human player holding ``token``, or ``None``."""
    if not token:
        return None
    return db.execute("SELECT * FROM players WHERE token_hash = ?", (_hash(token),)).fetchone()


def ensure_player(nickname: str) -> sqlite3.Row:
    """The request's player, created (or renamed) with ``nickname``; sets the cookie if new."""
    db = get_db()
    if g.player is not None:
        if g.player["nickname"] != nickname:
            db.execute("UPDATE players SET nickname = ? WHERE id = ?", (nickname, g.player["id"]))
            db.commit()
        player_id = g.player["id"]
    else:
        spend_player_creation()
        _maybe_purge(db)
        token = secrets.token_urlsafe(32)
        cursor = db.execute(
            "INSERT INTO players (token_hash, nickname, last_seen) VALUES (?, ?, datetime('now'))",
            (_hash(token), nickname),
        )
        db.commit()
        player_id = cursor.lastrowid
        g.new_token = token
    g.player = db.execute("SELECT * FROM players WHERE id = ?", (player_id,)).fetchone()
    return g.player


def purge_idle_players(db: sqlite3.Connection, days: float) -> int:
    """Delete the human players not seen for ``days`` days who have no finished game (no
    ``game_players`` row); commits and returns how many went."""
    cursor = db.execute(
        "DELETE FROM players WHERE bot_kind IS NULL"
        " AND COALESCE(last_seen, created_at) < datetime('now', ?)"
        " AND NOT EXISTS (SELECT 1 FROM game_players WHERE game_players.player_id = players.id)",
        (f"-{float(days)} days",),
    )
    db.commit()
    return cursor.rowcount


_purge_lock = threading.Lock()


def _maybe_purge(db: sqlite3.Connection) -> None:
    """Purge idle players if the last purge is ``PLAYER_PURGE_SECONDS`` old (or none ran yet)."""
    app = current_app
    with _purge_lock:
        last = app.extensions.get(PURGES)
        now = time.monotonic()
        if last is not None and now - last < app.config["PLAYER_PURGE_SECONDS"]:
            return
        app.extensions[PURGES] = now
    purge_idle_players(db, app.config["PLAYER_TTL_DAYS"])


def _touch(db: sqlite3.Connection, player: sqlite3.Row) -> None:
    """Record that ``player`` was seen, unless that was done in the last :data:`SEEN_EVERY` s."""
    cutoff = (datetime.now(UTC) - timedelta(seconds=SEEN_EVERY)).strftime("%Y-%m-%d %H:%M:%S")
    if player["last_seen"] is not None and player["last_seen"] >= cutoff:
        return
    db.execute("UPDATE players SET last_seen = datetime('now') WHERE id = ?", (player["id"],))
    db.commit()


def bot_player(db: sqlite3.Connection, name: str, kind: str) -> int:
    """The player id of the bot seat called ``name`` of ``kind``, created on first use."""
    row = db.execute(
        "SELECT id FROM players WHERE nickname = ? AND bot_kind = ?", (name, kind)
    ).fetchone()
    if row is not None:
        return int(row["id"])
    cursor = db.execute("INSERT INTO players (nickname, bot_kind) VALUES (?, ?)", (name, kind))
    return int(cursor.lastrowid or 0)


def _load() -> None:
    g.new_token = None
    token = request.cookies.get(COOKIE)
    g.player = player_by_token(get_db(), token) if token else None
    if g.player is not None:
        _touch(get_db(), g.player)


def _set_cookie(response: Response) -> Response:
    token = g.get("new_token")
    if token:
        response.set_cookie(
            COOKIE,
            token,
            max_age=60 * 60 * 24 * 365,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure or bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
    return response


def init_app(app: Flask) -> None:
    """Load ``g.player`` before each request and set a new player's cookie after it."""
    app.before_request(_load)
    app.after_request(_set_cookie)
