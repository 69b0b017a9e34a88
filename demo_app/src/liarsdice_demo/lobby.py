"""The lobby blueprint: the front page (create a table, join by code, live tables) and ``/join``.

Contract: pages only; table creation itself goes through the JSON API
(:mod:`liarsdice_demo.api`), which the lobby's script calls after validating the combination.
"""

from __future__ import annotations

import re

from flask import Blueprint, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from liarsdice_demo import history
from liarsdice_demo.composition import DEFAULT_TURN, MAX_SEATS, MIN_SEATS, catalog
from liarsdice_demo.db import get_db
from liarsdice_demo.hub import current_hub

bp = Blueprint("lobby", __name__)
CODE = re.compile(r"^[A-Za-z]{4}$")


@bp.get("/")
def index() -> str:
    """The lobby."""
    return render_template(
        "lobby.html",
        catalog=catalog(),
        tables=[t.summary() for t in current_hub().tables()[:30]],
        games=history.recent_games(get_db(), 10),
        nickname=g.player["nickname"] if g.player else "",
        min_seats=MIN_SEATS,
        max_seats=MAX_SEATS,
        default_turn=DEFAULT_TURN,
        error=request.args.get("error"),
    )


@bp.get("/join")
def join() -> Response:
    """Go to the table whose code is in ``?code=`` (back to the lobby with a message if none)."""
    code = (request.args.get("code") or "").strip()
    if not CODE.match(code) or current_hub().get(code) is None:
        return redirect(url_for("lobby.index", error=f"No live table has the code {code[:8]!r}."))
    return redirect(url_for("pages.table", code=code.upper()))
