"""The lobby blueprint: the front page (create a table, join by code, live tables) and ``/join``.

Contract: pages only; table creation itself goes through the JSON API
(:mod:`liarsdice_demo.web.api`), which the lobby's script calls after validating the combination.
The lobby's quick game (:func:`quick_game`) is a preset table of bots that starts at once,
created through the same ``POST /api/tables`` (so the same limits and caps apply). The lobby lists
public tables only (:meth:`TableHub.listed`); ``/join`` takes a table code (any
case) or a pasted share link, whose join key it carries over to the table page.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from liarsdice_demo.storage import history
from liarsdice_demo.storage.db import get_db
from liarsdice_demo.tables.composition import DEFAULT_TURN, MAX_SEATS, MIN_SEATS, catalog
from liarsdice_demo.tables.hub import CODE_LENGTH, current_hub
from liarsdice_demo.tables.titles import game_title
from liarsdice_demo.text.i18n import page_locale

bp = Blueprint("lobby", __name__)
CODE = re.compile(rf"^[A-Za-z]{{{CODE_LENGTH}}}$")
LINK = re.compile(rf"/t/([A-Za-z]{{{CODE_LENGTH}}})/?(?:\?key=([\w-]{{1,64}}))?$")
"""A pasted share link: ``…/t/<CODE>?key=<KEY>``."""
QUICK_PRESET = "dudo"
"""A newcomer's rules: a timeout loses a die (the casino's revolver makes it fatal), and the
first one of each game is forgiven (``forgive_first_timeout``: a bot plays that turn)."""
QUICK_SEATS = 4
QUICK_LEVELS = ("hard", "medium")
"""The quick game's bots: the first installed kind of these levels, in this order."""


def quick_game(found: dict[str, Any]) -> dict[str, Any]:
    """The quick game's settings from a :func:`catalog`: :data:`QUICK_PRESET` (else the first
    preset the demo can seat), :data:`QUICK_SEATS` seats and bots of a :data:`QUICK_LEVELS`
    level (else the strongest installed), each player's first timeout forgiven, with the titles
    the lobby shows."""
    presets = [p for p in found["presets"] if p["fits_demo"]]
    preset = next(
        (p for p in presets if p["name"] == QUICK_PRESET), presets[0] if presets else None
    )
    bots = found["bots"]
    ranked = [b for level in QUICK_LEVELS for b in bots if b["level"] == level] + bots[::-1]
    bot = ranked[0] if ranked else None
    return {
        "preset": preset["name"] if preset else None,
        "preset_title": preset["title"] if preset else "",
        "seats": QUICK_SEATS,
        "bot_kind": bot["kind"] if bot else None,
        "bot_label": bot["label"] if bot else "",
        "forgive_first_timeout": True,
    }


@bp.get("/")
def index() -> str:
    """The lobby."""
    locale = page_locale()
    found = catalog(locale)
    games = [
        {**game, "title": game_title(game, locale)} for game in history.recent_games(get_db(), 10)
    ]
    return render_template(
        "lobby.html",
        catalog=found,
        quick=quick_game(found),
        tables=[_titled(table, locale) for table in current_hub().listed()[:30]],
        games=games,
        nickname=g.player["nickname"] if g.player else "",
        min_seats=MIN_SEATS,
        max_seats=MAX_SEATS,
        default_turn=DEFAULT_TURN,
        missing=request.args.get("missing", "")[:CODE_LENGTH],
    )


def _titled(summary: dict[str, Any], locale: str) -> dict[str, Any]:
    """A listed table's summary with its title in ``locale`` (a table another process holds
    keeps the stored English title)."""
    table = current_hub().local(summary["code"])
    return summary if table is None else {**summary, "title": table.config.title_in(locale)}


@bp.get("/join")
def join() -> Response:
    """Go to the table whose code (or share link) is in ``?code=`` (back to the lobby with a
    message if there is no such live table)."""
    given = (request.args.get("code") or "").strip()
    code, key = given, None
    link = LINK.search(given)
    if link is not None:
        code, key = link.group(1), link.group(2)
    if not CODE.match(code) or current_hub().get(code) is None:
        shown = code[:CODE_LENGTH]
        return redirect(url_for("lobby.index", missing=shown))
    return redirect(url_for("pages.table", code=code.upper(), key=key))
