"""Pages other than the lobby: a table, its rules and odds, the leaderboard, players, replays.

Contract: a table page hands the seat token only to the player (by cookie) who holds that seat;
everyone else gets the page as a spectator, with a button to sit while seats are free. Rules and
odds come from the same code as the game (``Ruleset.describe``, ``liarsdice.oddspage``). Every page
reads in the request's language (:mod:`liarsdice_demo.text.i18n`), the rules too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from importlib.metadata import version
from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.errors import RulesetError
from liarsdice.events import Event
from liarsdice.i18n import LOCALES, render
from liarsdice.kindodds import kind_odds
from liarsdice.odds import SAMPLES
from liarsdice.oddspage import odds_table
from liarsdice.ruleset import Ruleset
from liarsdice_demo.storage import history, ratings
from liarsdice_demo.storage.db import get_db
from liarsdice_demo.storage.players import display_name, player_by_id
from liarsdice_demo.tables import titles
from liarsdice_demo.tables.composition import ConfigError, build_rules
from liarsdice_demo.tables.hub import current_hub
from liarsdice_demo.tables.phrases import PHRASES
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.text import charts, narrate, places
from liarsdice_demo.text.folding import YIELD_EVERY
from liarsdice_demo.text.i18n import page_locale
from liarsdice_demo.text.render import markdown
from liarsdice_demo.text.replay import STEPS_FORMAT, steps_page

bp = Blueprint("pages", __name__)
MAX_ID = 2**31 - 1
"""The largest id every supported database stores (PostgreSQL's ``integer``); a larger id in a
URL names nothing (looking it up would fail in the driver, not find nothing)."""
REPLAY_VERSION = f"{version('liarsdice-rules-demo')}/{version('liarsdice-rules')}"
"""What a replay's steps are made by (the app's and core's versions): part of their ETag, with the
steps' format, so a new release is never answered "not modified" with an old page."""
STEPS_CACHING = "public, max-age=86400"
"""A page of steps depends only on its address (and the release): any cache may keep it a day."""


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
        phrases={key: words.render(page_locale()) for key, words in PHRASES.items()},
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
    shown = {"table": live, "dice": dice, "default": default, "hand": hand}
    shown["seated"] = seat is not None
    if config.rules.bid_kind is not COUNT_OF_FACE:  # bids of another kind: each bid's chances
        kind = kind_odds(config.rules, dice, hand or None)
        return render_template("odds.html", **shown, kind_odds=kind, samples=f"{SAMPLES:,}")
    table_odds = odds_table(config.rules, dice, hand or None)
    return render_template(
        "odds.html",
        **shown,
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
        board=history.leaderboard(get_db(), locale=page_locale()),
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
    entry = next(
        (e for e in history.leaderboard(db, 10_000, page_locale()) if e["id"] == player_id), None
    )
    return render_template(
        "player.html",
        player=row,
        name=display_name(row["nickname"], row["bot_kind"], page_locale()),
        entry=entry,
        games=[
            {**game, "title": titles.game_title(game, page_locale())}
            for game in history.player_games(db, player_id)
        ],
        rating_explained=ratings.explained(),
    )


def _stored_game(game_id: int) -> dict[str, Any]:
    """The stored game ``game_id`` without its event log (404 when there is none)."""
    row = history.game(get_db(), game_id, events=False) if game_id <= MAX_ID else None
    if row is None:
        abort(404, description=gettext("No such game."))
    return row


def _cached(response: Response, etag: str, cache_control: str) -> Response:
    """``response`` with ``etag`` and ``Cache-Control``, or a 304 when the request's
    ``If-None-Match`` holds ``etag``."""
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    return response.make_conditional(request)


@bp.get("/games/<int:game_id>")
def replay(game_id: int) -> Response:
    """A finished game: its title, winners and players, and the controls that step through it
    (all dice shown: the game is over). The steps come from :func:`replay_steps`."""
    row = _stored_game(game_id)
    locale = page_locale()
    page = render_template(
        "replay.html",
        game={**row, "title": titles.game_title(row, locale)},
        players=history.game_players(get_db(), game_id),
        steps_url=url_for("pages.replay_steps", game_id=game_id, locale=locale),
        place_text=places.place_text,
    )
    response = Response(page, mimetype="text/html")
    # The page names the visitor in its header: cached by their browser only, asked again each time.
    etag = hashlib.sha256(response.get_data()).hexdigest()[:32]
    return _cached(response, etag, "private, no-cache")


@bp.get("/games/<int:game_id>/steps")
def replay_steps(game_id: int) -> Response:
    """A page of the game's steps from ``?from=`` (0 by default) in ``?locale=``, as
    :mod:`liarsdice_demo.text.replay` makes it (JSON, at most ``replay.CAP`` bytes). A finished game
    never changes: the ETag is made of the game, the page and the app's version, and is checked
    before any work."""
    given, locale = request.args.get("from", "0"), request.args.get("locale", "")
    if not (given.isascii() and given.isdigit() and len(given) <= 9) or locale not in LOCALES:
        abort(
            400,
            description=gettext("Ask for the steps with from=0 or more and locale=en, uk or ru."),
        )
    first = int(given)
    row = _stored_game(game_id)
    key = f"{REPLAY_VERSION}/{STEPS_FORMAT}:{row['id']}:{row['live_key']}:{first}:{locale}"
    etag = hashlib.sha256(key.encode()).hexdigest()[:32]
    if request.if_none_match.contains(etag):
        return _cached(Response(status=304), etag, STEPS_CACHING)
    try:
        ruleset = Ruleset.build(json.loads(row["variants"]), json.loads(row["options"]))
    except RulesetError:
        ruleset = None  # a variant of that game is no longer installed: highlight the face only

    def read(position: int) -> Iterator[tuple[list[Event], int]]:  # the log read only when folded
        return history.event_batches(history.game_events(get_db(), game_id), YIELD_EVERY, position)

    stored = (current_app.config["DATABASE_URL"], row["id"], row["live_key"])
    page = steps_page(read, stored, ruleset, locale, first)
    if first >= page.total:
        abort(404, description=gettext("This game has no step %(number)s.", number=first))
    response = Response(page.encode(), mimetype="application/json")
    return _cached(response, etag, STEPS_CACHING)
