"""Players without registration: a random token in a cookie names a player row.

Contract: before each request ``g.player`` is the cookie's player row (or ``None``);
:func:`ensure_player` creates a player with a nickname and arranges for the cookie to be set;
only a hash of the token is stored. Bots are player rows too (``bot_kind`` set, no token), so they
get ratings like anyone.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3

from flask import Flask, current_app, g, request
from werkzeug.wrappers import Response

from liarsdice_demo.db import get_db

COOKIE = "ld_player"
NICKNAME = re.compile(r"^[\w .'-]{1,20}$")


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
        token = secrets.token_urlsafe(32)
        cursor = db.execute(
            "INSERT INTO players (token_hash, nickname) VALUES (?, ?)", (_hash(token), nickname)
        )
        db.commit()
        player_id = cursor.lastrowid
        g.new_token = token
    g.player = db.execute("SELECT * FROM players WHERE id = ?", (player_id,)).fetchone()
    return g.player


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
    g.player = player_by_token(get_db(), request.cookies.get(COOKIE))


def _set_cookie(response: Response) -> Response:
    token = g.get("new_token")
    if token:
        response.set_cookie(
            COOKIE,
            token,
            max_age=60 * 60 * 24 * 365,
            httponly=True,
            samesite="Lax",
            secure=current_app.config.get("SESSION_COOKIE_SECURE", False),
        )
    return response


def init_app(app: Flask) -> None:
    """Load ``g.player`` before each request and set a new player's cookie after it."""
    app.before_request(_load)
    app.after_request(_set_cookie)
