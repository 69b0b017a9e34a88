"""Players without registration: a random token in a cookie names a player row.

Contract: before each request ``g.player`` is the cookie's player row, a mapping (or ``None``);
:func:`ensure_player` creates a player with a nickname and arranges for the cookie to be set;
only a hash of the token is stored. Bots are player rows too (``bot_kind`` set, no token), so they
get ratings like anyone; a bot is one player per (name, kind), and :func:`display_name` names it
with its level ("Boris (hard bot)"). The cookie is ``Secure`` when the request came over HTTPS (behind a
proxy: see ``PROXY_FIX`` in :mod:`liarsdice_demo.edge.guard`) or ``SESSION_COOKIE_SECURE`` is set.

Rows stay bounded: new players per client are rate-limited
(:func:`liarsdice_demo.edge.limits.spend_player_creation`, a 429 and no row when refused), a
player's ``last_seen`` is touched when their cookie is used (at most once per
:data:`SEEN_EVERY` seconds), and human players who never finished a game and were not seen for
``PLAYER_TTL_DAYS`` days are deleted (:func:`purge_idle_players`, run at a player creation at
most once per ``PLAYER_PURGE_SECONDS``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, current_app, g, request
from flask_babel import gettext
from sqlalchemy import Connection, RowMapping, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from liarsdice_demo.edge.limits import spend_player_creation
from liarsdice_demo.storage.db import TIME_FORMAT, game_players, get_db, players, utcnow, writing
from liarsdice_demo.text.i18n import bot_words
from liarsdice_demo.text.names import invisible, lookalike

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
    """``raw`` stripped, or ``ValueError`` saying why it cannot be a nickname (one with a
    character that shows nothing, such as a Hangul filler or a zero-width space, says so)."""
    if not isinstance(raw, str):
        raise ValueError(gettext("a nickname is text"))
    name = " ".join(raw.split())
    hidden = invisible(name)
    if hidden is not None:
        code = f"U+{ord(hidden):04X}"
        raise ValueError(
            gettext("a nickname cannot hold invisible or blank characters (%(code)s)", code=code)
        )
    if not NICKNAME.match(name):
        raise ValueError(gettext("a nickname is 1 to 20 letters, digits, spaces or . ' - _"))
    if name.lower().endswith("(bot)"):
        raise ValueError(gettext("that nickname is reserved for bots"))
    return name


def lookalike_on_board(db: Connection, name: str, player_id: int | None) -> str | None:
    """The nickname of a rated player (one on the leaderboard) other than ``player_id`` that
    ``name`` can be taken for (:func:`~liarsdice_demo.text.names.lookalike`), if any."""
    rated = select(players.c.nickname).where(players.c.rated_games > 0).distinct()
    if player_id is not None:
        rated = rated.where(players.c.id != player_id)
    return lookalike(name, db.execute(rated).scalars())


def player_by_token(db: Connection, token: str | None) -> RowMapping | None:
    """The human player holding ``token``, or ``None``."""
    if not token:
        return None
    found = db.execute(select(players).where(players.c.token_hash == _hash(token)))
    return found.mappings().first()


def player_by_id(db: Connection, player_id: int) -> RowMapping | None:
    """The player (human or bot) with id ``player_id``, or ``None``."""
    return db.execute(select(players).where(players.c.id == player_id)).mappings().first()


def ensure_player(nickname: str) -> RowMapping:
    """The request's player, created (or renamed) with ``nickname``; sets the cookie if new."""
    db = get_db()
    if g.player is not None:
        player_id = g.player["id"]
        if g.player["nickname"] != nickname:
            with writing(db):
                db.execute(update(players).where(players.c.id == player_id), {"nickname": nickname})
    else:
        spend_player_creation()
        _maybe_purge(db)
        token = secrets.token_urlsafe(32)
        with writing(db):
            made = db.execute(
                insert(players),
                {"token_hash": _hash(token), "nickname": nickname, "last_seen": utcnow()},
            )
        assert made.inserted_primary_key is not None
        player_id = made.inserted_primary_key[0]
        g.new_token = token
    player = player_by_id(db, player_id)
    assert player is not None
    g.player = player
    return player


def purge_idle_players(db: Connection, days: float) -> int:
    """Delete the human players not seen for ``days`` days who have no finished game (no
    ``game_players`` row); commits and returns how many went."""
    cutoff = (datetime.now(UTC) - timedelta(days=days)).strftime(TIME_FORMAT)
    played = select(game_players.c.player_id).where(game_players.c.player_id == players.c.id)
    with writing(db):
        gone = db.execute(
            delete(players).where(
                players.c.bot_kind.is_(None),
                func.coalesce(players.c.last_seen, players.c.created_at) < cutoff,
                ~played.exists(),
            )
        )
    return gone.rowcount


_purge_lock = threading.Lock()


def _maybe_purge(db: Connection) -> None:
    """Purge idle players if the last purge is ``PLAYER_PURGE_SECONDS`` old (or none ran yet)."""
    app = current_app
    with _purge_lock:
        last = app.extensions.get(PURGES)
        now = time.monotonic()
        if last is not None and now - last < app.config["PLAYER_PURGE_SECONDS"]:
            return
        app.extensions[PURGES] = now
    purge_idle_players(db, app.config["PLAYER_TTL_DAYS"])


def _touch(db: Connection, player: RowMapping) -> None:
    """Record that ``player`` was seen, unless that was done in the last :data:`SEEN_EVERY` s."""
    cutoff = (datetime.now(UTC) - timedelta(seconds=SEEN_EVERY)).strftime(TIME_FORMAT)
    if player["last_seen"] is not None and player["last_seen"] >= cutoff:
        return
    with writing(db):
        db.execute(update(players).where(players.c.id == player["id"]), {"last_seen": utcnow()})


BOT_NAME = "{name} ({bot})"
"""How a bot is named where players read names (leaderboard, player pages): with what players call
its kind (:func:`liarsdice_demo.text.i18n.bot_words`), so each bot identity (a name per kind) reads apart."""
BOT_MARK = re.compile(r"\(bot\)", re.IGNORECASE)
"""The mark in a bot seat's name ("Boris (bot)")."""
PLAIN_BOT_NAME = "{name} (bot)"
"""A bot stored without a kind (``"bot"``)."""


def display_name(nickname: str, bot_kind: str | None, locale: str = "en") -> str:
    """``nickname`` as players read it in ``locale``: a human's as it is, a bot's as "Boris (hard
    bot)", "Boris (складний бот)" (the seat name "Boris (bot)" loses its "(bot)": the kind's
    title says it)."""
    if not bot_kind:
        return nickname
    name = " ".join(BOT_MARK.sub(" ", nickname).split()) or nickname
    if bot_kind == "bot":
        return PLAIN_BOT_NAME.format(name=name)
    return BOT_NAME.format(name=name, bot=bot_words(bot_kind, locale))


def bot_player(db: Connection, name: str, kind: str) -> int:
    """The player id of the bot seat called ``name`` of ``kind``, created on first use (inside
    the caller's write transaction; a concurrent creation of the same bot is waited for)."""
    query = select(players.c.id).where(players.c.nickname == name, players.c.bot_kind == kind)
    found = db.execute(query).scalar()
    if found is None:
        try:
            with db.begin_nested():
                db.execute(insert(players), {"nickname": name, "bot_kind": kind})
        except IntegrityError:  # another transaction created it first, and has committed
            pass
        found = db.execute(query).scalar_one()
    return int(found)


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
