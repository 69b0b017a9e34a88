"""Pages other than the lobby: a table, its rules and odds, the leaderboard, players, replays.

Contract: a table page hands the seat token only to the player (by cookie) who holds that seat;
everyone else gets the page as a spectator, with a button to sit while seats are free. Rules and
odds come from the same code as the game (``Ruleset.describe``, ``liarsdice.oddspage``). Every page
reads in the request's language (:mod:`liarsdice_demo.text.i18n`), the rules too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from liarsdice.errors import RulesetError
from liarsdice.events import CallMade, RoundStarted
from liarsdice.i18n import render
from liarsdice.oddspage import odds_table
from liarsdice.reducer import apply_event
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import to_data
from liarsdice_demo.storage import history, ratings
from liarsdice_demo.storage.db import get_db
from liarsdice_demo.storage.players import display_name, player_by_id
from liarsdice_demo.tables import titles
from liarsdice_demo.tables.composition import ConfigError, build_rules
from liarsdice_demo.tables.hub import current_hub
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.text import charts, narrate, places
from liarsdice_demo.text.i18n import page_locale
from liarsdice_demo.text.render import markdown

bp = Blueprint("pages", __name__)
MAX_ID = 2**31 - 1
"""The largest id every supported database stores (PostgreSQL's ``integer``); a larger id in a
URL names nothing (looking it up would fail in the driver, not find nothing)."""


@bp.app_template_global()
def names(seat_names: Sequence[str]) -> str:
    """Seat names as a list in the page's language ("Iris and Knox"), a bot's "(bot)" too."""
    return render(narrate.listing(seat_names), page_locale())


def _table(code: str) -> TableSession:
    table = current_hub().get(code)
    if table is None:
        abort(
            404,
            description=gettext(
                "No live table has the code %(code)s. Finished games are in the history.",
                code=repr(code),
            ),
        )
    return table


@bp.get("/t/<code>")
def table(code: str) -> str:
    """The table page: the game for a seated player, the public view for anyone else.

    The join key goes to the page only for a seated player (to share) or a visitor whose
    ``?key=`` is right (to sit); everyone else's share link is the bare page address."""
    live = _table(code)
    seat = live.seat_of(g.player["id"]) if g.player else None
    given = request.args.get("key")
    shown = seat is not None or (not live.public and live.admits(given))
    return render_template(
        "table.html",
        table=live,
        config=live.config.summary(page_locale()),
        seat_token=live.seat_token(seat) if seat else None,
        join_key=live.join_key if shown else None,
        nickname=g.player["nickname"] if g.player else "",
    )


@bp.get("/t/<code>/rules")
def rules(code: str) -> str:
    """The rules of this table's exact combination, from ``Ruleset.describe()``."""
    live = _table(code)
    body = markdown(live.config.rules.describe(locale=page_locale()))
    return render_template("rules.html", table=live, body=body)


@bp.get("/t/<code>/odds")
def odds(code: str) -> str:
    """The odds of this table's combination as charts, wild and non-wild side by side (the wild
    column counts the table's wild faces, ``compared_wild``)."""
    live = _table(code)
    config = live.config
    default = config.seats * config.dice_per_player
    dice = request.args.get("dice", type=int) or default
    dice = max(1, min(dice, 6 * 5))
    hand: tuple[int, ...] = ()
    seat = live.seat_of(g.player["id"]) if g.player else None
    if seat is not None and request.args.get("hand") == "mine":
        hand = live.known_dice(seat.name)
    table_odds = odds_table(config.rules, dice, hand or None)
    return render_template(
        "odds.html",
        table=live,
        dice=dice,
        default=default,
        hand=hand,
        seated=seat is not None,
        odds=table_odds,
        wild_label=charts.wild_label(table_odds),
        charts=charts.odds_charts(table_odds),
    )


@bp.get("/rules")
def rules_preview() -> str:
    """The rules of any combination given in the query (``?preset=&variants=a,b``)."""
    data = {
        "preset": request.args.get("preset") or None,
        "variants": [v for v in (request.args.get("variants") or "").split(",") if v],
    }
    try:
        ruleset, *_ = build_rules(data)
    except ConfigError as problem:
        abort(400, description=str(problem))
    body = markdown(ruleset.describe(locale=page_locale()))
    return render_template("rules.html", table=None, body=body)


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers that ask for ``/favicon.ico`` without reading the page's icon link get the SVG."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@bp.get("/leaderboard")
def leaderboard() -> str:
    """Rated players, best first."""
    return render_template(
        "leaderboard.html",
        board=history.leaderboard(get_db()),
        rating_explained=ratings.explained(),
    )


@bp.get("/players/<int:player_id>")
def player(player_id: int) -> str:
    """A player's rating and games."""
    if player_id > MAX_ID:
        abort(404, description=gettext("No such player."))
    db = get_db()
    row = player_by_id(db, player_id)
    if row is None:
        abort(404, description=gettext("No such player."))
    entry = next((e for e in history.leaderboard(db, 10_000) if e["id"] == player_id), None)
    return render_template(
        "player.html",
        player=row,
        name=display_name(row["nickname"], row["bot_kind"]),
        entry=entry,
        games=[
            {**game, "title": titles.game_title(game, page_locale())}
            for game in history.player_games(db, player_id)
        ],
        rating_explained=ratings.explained(),
    )


@bp.get("/games/<int:game_id>")
def replay(game_id: int) -> str:
    """Step through a finished game, event by event (all dice shown: the game is over)."""
    if game_id > MAX_ID:
        abort(404, description=gettext("No such game."))
    db = get_db()
    row = history.game(db, game_id)
    if row is None:
        abort(404, description=gettext("No such game."))
    events = history.load_events(row["events"])
    try:
        ruleset = Ruleset.build(json.loads(row["variants"]), json.loads(row["options"]))
    except RulesetError:
        ruleset = None  # a variant of that game is no longer installed: highlight the face only
    frames = []
    locale = page_locale()
    state = None
    matching: list[int] | None = None
    for event in events:
        if isinstance(event, CallMade) and state is not None and state.round is not None:
            face = state.round.current_bid.face if state.round.current_bid else 0
            faces = ruleset.hooks.matching_faces(state, face) if ruleset else {face}
            matching = sorted(faces)
        elif isinstance(event, RoundStarted):
            matching = None
        state = apply_event(state, event)
        text = narrate.line(event)
        if text is None:
            continue
        frames.append({"text": render(text, locale), "state": to_data(state), "matching": matching})
    return render_template(
        "replay.html",
        game={**row, "title": titles.game_title(row, locale)},
        players=history.game_players(db, game_id),
        frames=frames,
        options=json.loads(row["options"]),
        place_text=places.place_text,
    )
