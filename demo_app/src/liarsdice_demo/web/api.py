"""The JSON API (``/api``): the catalog of variants, validating a combination, tables and seats.

Contract: every response is JSON; a refusal is ``{"ok": false, "error": text}`` with a 4xx
status, where ``text`` is fit to show a player (a ruleset refusal is the core's own message).
``/api/validate`` also answers, accepted or refused, with ``defaults``: the value each option of
the combination takes unless the table sets it (:func:`combination_defaults`), so the lobby shows
the effective defaults and sends only the options the player changed.

Access: a table is private unless created with ``"public": true``; ``/api/tables`` lists public
tables only. Creating one answers with its share link (``url``, holding the ``join_key``); a seat
at a private table needs ``"key"`` (403 without it, and nothing changes). A nickname that passes
for another seat's at the table or a rated player's (same Unicode TR39 skeleton, another string:
"Hana" with the Cyrillic letter U+0430 for its "a"), or holds a character that shows nothing, is
refused (422) before any player is created or renamed. One player has at most
``MAX_TABLES_PER_PLAYER`` tables open, one address ``MAX_TABLES_PER_ADDRESS``: 429 with
``Retry-After`` beyond that. The
join key never appears in ``/api/tables`` or ``/api/tables/<code>``.

Health: ``GET /api/health`` answers 200 ``{"ok": true}`` only when the SQL database and the live
table store (Redis in shared mode) both answer now; else 503 ``{"ok": false, "down": [...],
"error": text}`` with ``Retry-After`` (what a proxy's health check should ask).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, g, jsonify, request, url_for
from flask_babel import gettext
from sqlalchemy import text as sql
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from liarsdice.i18n import Text, render
from liarsdice_demo.edge.clients import client_key
from liarsdice_demo.edge.protocol import MAX_DEPTH, nesting
from liarsdice_demo.storage.db import get_db
from liarsdice_demo.storage.players import clean_nickname, ensure_player, lookalike_on_board
from liarsdice_demo.tables.composition import (
    ConfigError,
    build_rules,
    catalog,
    combination_defaults,
    parse_config,
    parse_table_size,
)
from liarsdice_demo.tables.hub import ServerFull, TooManyTables, current_hub
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.tables.table_errors import Forbidden, TableError
from liarsdice_demo.text.i18n import page_locale

bp = Blueprint("api", __name__, url_prefix="/api")


def _refuse(text: str | Text, status: int = 400, **extra: Any) -> tuple[Response, int]:
    return jsonify(ok=False, error=render(text, page_locale()), **extra), status


def _name_refusal(nickname: str, table: TableSession | None = None) -> str | Text | None:
    """Why the request's player may not take ``nickname``: it passes for the name of another
    seat at ``table`` or of a player on the leaderboard (Unicode TR39 skeletons); ``None`` when
    it does not. Asked before any player is created or renamed."""
    me = g.player["id"] if g.player else None
    refused = table.name_refusal(me, nickname) if table is not None else None
    if refused is not None:
        return refused
    other = lookalike_on_board(get_db(), nickname, me)
    if other is None:
        return None
    return gettext(
        "the name %(name)s looks like %(other)s on the leaderboard: choose another",
        name=nickname,
        other=other,
    )


def _body() -> dict[str, Any]:
    """The request's JSON object (``{}`` if it is not one); text nested deeper than the protocol
    allows is not parsed at all (the parser would recurse on it)."""
    if nesting(request.get_data(as_text=True)) > MAX_DEPTH:
        return {}
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else {}


@bp.get("/health")
def health() -> Response | tuple[Response, int]:
    """Whether this process can serve players now: its SQL database and its live table store
    answer (each asked once, now)."""
    hub = current_hub()
    try:
        get_db().execute(sql("SELECT 1"))
        database = True
    except SQLAlchemyError:
        database = False
    store = hub.store.ping()
    if database and store:
        return jsonify(ok=True)
    down: list[str] = []
    said: list[str] = []
    if not database:
        down.append("database")
        said.append(gettext("the database does not answer"))
    if not store:
        down.append("redis" if hub.cluster is not None else "live tables")
        said.append(gettext("the table store does not answer"))
    wait = int(current_app.config["OUTAGE_RETRY_AFTER"])
    answer, status = _refuse("; ".join(said), 503, down=down, retry_after=wait)
    answer.headers["Retry-After"] = str(wait)
    return answer, status


@bp.get("/catalog")
def get_catalog() -> Response:
    """Installed variants with their options, presets and bot kinds."""
    return jsonify(catalog(page_locale()))


@bp.post("/validate")
def validate() -> Response | tuple[Response, int]:
    """Check a combination (``preset``, ``variants``, ``options``), and the table's ``seats``
    and ``dice_per_player`` where given, without making a table.

    Accepted: the variants, calls, resolved options, effective ``defaults`` and rules text.
    Refused: the reason, and the ``defaults`` of the combination as far as they can be known.
    """
    data = _body()
    try:
        rules, *_ = build_rules(data)
        parse_table_size(rules, data, given_only=True)
    except ConfigError as problem:
        return _refuse(str(problem), 422, defaults=combination_defaults(data))
    return jsonify(
        ok=True,
        variants=list(rules.names),
        calls=list(rules.calls),
        options=dict(rules.options),
        defaults=combination_defaults(data),
        rules_markdown=rules.describe(),
    )


def share_link(table: TableSession) -> str:
    """The table's share link: its page with the join key (for the host and seated players)."""
    return url_for("pages.table", code=table.code, key=table.join_key, _external=True)


@bp.post("/tables")
def create_table() -> Response | tuple[Response, int]:
    """Make a table; the caller (nickname required) takes seat 1 and becomes its host.

    ``public`` (a boolean, default false) lists it in the lobby and lets anyone sit; ``start``
    (a boolean, default false) fills the empty seats with bots and deals at once (the lobby's
    quick game; a 422 if the table has no bots to fill them). The answer carries the share link
    (``url``) and its ``join_key``."""
    data = _body()
    public, start = data.get("public", False), data.get("start", False)
    if not isinstance(public, bool):
        return _refuse(gettext("'public' is true or false"), 422)
    if not isinstance(start, bool):
        return _refuse(gettext("'start' is true or false"), 422)
    try:
        nickname = clean_nickname(data.get("nickname"))
        config = parse_config(data)
    except (ConfigError, ValueError) as problem:
        return _refuse(str(problem), 422)
    lookalike = _name_refusal(nickname)
    if lookalike is not None:
        return _refuse(lookalike, 422)
    if start and config.bot_kind is None:
        return _refuse(gettext("a table that starts at once needs bots for its empty seats"), 422)
    hub, client = current_hub(), client_key()
    try:
        known = g.player["id"] if g.player is not None else None
        hub.check_room(client, known)  # before a player row is made; create checks again, locked
        player = ensure_player(nickname)
        table = hub.create(
            config, host=(player["id"], nickname), start=start, public=public, client=client
        )
    except (TooManyTables, ServerFull) as problem:
        status = 429 if isinstance(problem, TooManyTables) else 503
        answer, status = _refuse(str(problem), status, retry_after=problem.retry_after)
        answer.headers["Retry-After"] = str(problem.retry_after)
        return answer, status
    seat = table.seat_of(player["id"])
    assert seat is not None
    return jsonify(
        ok=True,
        code=table.code,
        public=table.public,
        url=share_link(table),
        join_key=table.join_key,
        seat=seat.index,
        seat_token=table.seat_token(seat),
    )


@bp.get("/tables")
def list_tables() -> Response:
    """Public tables waiting or playing, newest first (private ones are never listed)."""
    return jsonify(tables=current_hub().listed()[:100])


@bp.get("/tables/<code>")
def get_table(code: str) -> Response | tuple[Response, int]:
    """One live table's settings and seats (public information only)."""
    table = current_hub().get(code)
    if table is None:
        return _refuse(gettext("no live table has the code %(code)s", code=repr(code)), 404)
    return jsonify(ok=True, **table.summary(), config=table.config.summary(page_locale()))


@bp.post("/tables/<code>/seat")
def take_seat(code: str) -> Response | tuple[Response, int]:
    """Sit at table ``code`` (or get back the seat you hold): the seat token comes back.

    A private table needs ``key``, the share link's secret: without it (or for a player the host
    removed) 403, before any player is created or renamed."""
    table = current_hub().get(code)
    if table is None:
        return _refuse(gettext("no live table has the code %(code)s", code=repr(code)), 404)
    data = _body()
    refused = table.refusal(g.player["id"] if g.player else None, data.get("key"))
    if refused is not None:
        return _refuse(refused, 403)
    try:
        nickname = clean_nickname(data.get("nickname") or (g.player and g.player["nickname"]))
    except ValueError as problem:
        return _refuse(str(problem), 422)
    lookalike = _name_refusal(nickname, table)
    if lookalike is not None:
        return _refuse(lookalike, 422)
    player = ensure_player(nickname)
    try:
        seat = table.sit(player["id"], nickname, data.get("key"))
        token = table.seat_token(seat)  # Forbidden if another process removed the seat meanwhile
    except Forbidden as problem:
        return _refuse(problem.text, 403)
    except TableError as problem:
        return _refuse(problem.text, 409)
    return jsonify(ok=True, code=table.code, seat=seat.index, name=seat.name, seat_token=token)
