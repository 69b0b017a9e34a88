"""The lobby blueprint: the front page (create a table, join by code, live tables) and ``/join``.

Contract: pages only; table creation itself goes through the JSON API
(:mod:`liarsdice_demo.api`), which the lobby's script calls after validating the combination.
The lobby lists public tables only (:meth:`TableHub.listed`); ``/join`` takes a table code (any
case) or a pasted share link, whose join key it carries over to the table page.
"""

from __future__ import annotations

import re

from flask import Blueprint, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from liarsdice_demo import history
from liarsdice_demo.composition import DEFAULT_TURN, MAX_SEATS, MIN_SEATS, catalog
from liarsdice_demo.db import get_db
from liarsdice_demo.hub import CODE_LENGTH, current_hub
from liarsdice_demo.i18n import page_locale

bp = Blueprint("lobby", __name__)
CODE = re.compile(rf"^[A-Za-z]{{{CODE_LENGTH}}}$")
LINK = re.compile(rf"/t/([A-Za-z]{{{CODE_LENGTH}}})/?(?:\?key=([\w-]{{1,64}}))?$")
"""A pasted share link: ``…/t/<CODE>?key=<KEY>``."""


@bp.get("/")
def index() -> str:
    """The lobby."""
    return render_template(
        "lobby.html",
        catalog=catalog(page_locale()),
        tables=current_hub().listed()[:30],
        games=history.recent_games(get_db(), 10),
        nickname=g.player["nickname"] if g.player else "",
        min_seats=MIN_SEATS,
        max_seats=MAX_SEATS,
        default_turn=DEFAULT_TURN,
        missing=request.args.get("missing", "")[:CODE_LENGTH],
    )


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
