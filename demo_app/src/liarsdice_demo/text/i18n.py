"""The demo's languages: Flask-Babel over the gettext catalogs in ``liarsdice_demo/locale``.

Contract: a request reads in one of :data:`liarsdice.i18n.LOCALES`, chosen by
:func:`select_locale`: a ``?lang=`` switch (every page links to it, and the choice is remembered
in the ``lang`` cookie for a year), else that cookie, else the browser's ``Accept-Language``,
else English. :func:`page_locale` is that choice as a code (``"en"``, ``"uk"``, ``"ru"``), for
code that renders core and plugin messages (:func:`liarsdice.i18n.render`) or a socket that
remembers its reader's language at connect time.

The demo's own messages are the gettext domain ``liarsdice_demo``: Python code marks them with
Flask-Babel's ``gettext``/``ngettext`` (``N_`` for a constant translated where it is shown),
templates with ``_()``/``ngettext()`` (``%(name)s`` fields). The catalogs are the ``.po``
files themselves, read through :func:`liarsdice.i18n.translations` (:class:`DemoDomain`); nothing
is compiled. Text the pages' scripts write is translated here too (:func:`client_text`) and
embedded in each page as JSON, since a script cannot read a catalog.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from babel import Locale
from babel.support import NullTranslations
from flask import Flask, has_request_context, request
from flask_babel import Babel, Domain, get_locale, gettext, ngettext
from werkzeug.exceptions import HTTPException
from werkzeug.utils import cached_property
from werkzeug.wrappers import Response

from liarsdice import i18n
from liarsdice.bots import bot_kinds, bot_title, by_level
from liarsdice.i18n import LANGUAGE_NAMES, LOCALES

DOMAIN = "liarsdice_demo"
"""The gettext domain of the demo's own messages (``locale/<lang>/LC_MESSAGES/<domain>.po``)."""
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
SWITCH = "lang"
"""The query parameter of the language switch (``?lang=uk``)."""
DEFAULT = "en"


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (translate it where it is shown)."""
    return message


class DemoDomain(Domain):
    """Flask-Babel's domain reading the demo's ``.po`` catalogs through core's loader."""

    def __init__(self) -> None:
        super().__init__(domain=DOMAIN)

    def get_translations(self) -> NullTranslations:
        return i18n.translations(DOMAIN, page_locale())


class DemoBabel(Babel):
    """Flask-Babel with :class:`DemoDomain` as the app's domain."""

    @cached_property
    def domain_instance(self) -> Domain:
        return DemoDomain()


def _known(code: str | None) -> str | None:
    return code if code in LOCALES else None


def select_locale() -> str:
    """The request's language: the switch, the cookie, ``Accept-Language``, English."""
    return (
        _known(request.args.get(SWITCH))
        or _known(request.cookies.get(COOKIE))
        or request.accept_languages.best_match(LOCALES)
        or DEFAULT
    )


def page_locale() -> str:
    """The locale code of the current request (``"en"`` outside a request)."""
    if not has_request_context():
        return DEFAULT
    return str(get_locale() or DEFAULT)


def shown(value: Any) -> str:
    """A core or plugin message (``str`` or :class:`liarsdice.i18n.Text`) in the page's language."""
    return i18n.render(value, page_locale())


def language_links() -> list[dict[str, Any]]:
    """The language switch: each language's name, its link (this page with ``?lang=``) and
    whether it is the page's."""
    current = page_locale()
    links = []
    for code in LOCALES:
        query = {key: value for key, value in request.args.items(multi=True) if key != SWITCH}
        query[SWITCH] = code
        links.append(
            {
                "code": code,
                "name": LANGUAGE_NAMES[code],
                "href": f"{request.path}?{urlencode(query)}",
                "current": code == current,
            }
        )
    return links


def _remember(response: Response) -> Response:
    """Keep a language chosen with the switch in the cookie; say the page varies by language."""
    chosen = _known(request.args.get(SWITCH))
    if chosen is not None and request.cookies.get(COOKIE) != chosen:
        response.set_cookie(
            COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", secure=request.is_secure
        )
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def init_app(app: Flask) -> None:
    """Flask-Babel with the demo's domain and locale selector, the cookie, template helpers."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_DOMAIN", DOMAIN)
    DemoBabel(app, locale_selector=select_locale)
    app.after_request(_remember)
    app.jinja_env.globals.update(
        shown=shown, page_locale=page_locale, client_text=client_text, status_name=status_name
    )
    app.context_processor(lambda: {"languages": language_links()} if has_request_context() else {})


# --- words shared by pages and scripts ----------------------------------------------------------


def bot_words(kind: str, locale: str) -> str:
    """What players call bot ``kind`` inside a sentence in ``locale``: its title
    (:func:`liarsdice.bots.bot_title`) from a small letter, "hard bot", "складний бот"."""
    title = bot_title(kind).render(locale)
    return title[:1].lower() + title[1:]


STATUSES = {
    "waiting": N_("waiting"),
    "playing": N_("playing"),
    "over": N_("over"),
    "stopped": N_("stopped"),
}
"""A table's status as the lobby says it."""


def status_name(status: str) -> str:
    """A table's status (``"waiting"``…) in the page's language."""
    return str(gettext(STATUSES[status])) if status in STATUSES else status


def face_word(face: int, n: int) -> str:
    """The name of ``face`` after the number ``n`` ("1 five", "3 fives")."""
    words: dict[int, Callable[[int], str]] = {
        1: lambda n: ngettext("one", "ones", n),
        2: lambda n: ngettext("two", "twos", n),
        3: lambda n: ngettext("three", "threes", n),
        4: lambda n: ngettext("four", "fours", n),
        5: lambda n: ngettext("five", "fives", n),
        6: lambda n: ngettext("six", "sixes", n),
    }
    return words[face](n) if face in words else f"face-{face}"


def plural_forms(message: Callable[[int], str]) -> dict[str, str]:
    """A plural message for a script: its form for each CLDR plural category of the page's
    language ("one", "few", "many", "other"), which the script picks with ``Intl.PluralRules``."""
    rule = Locale.parse(page_locale()).plural_form
    forms: dict[str, str] = {}
    for n in range(0, 200):
        forms.setdefault(rule(n), message(n))
    return forms


def client_text() -> dict[str, Any]:
    """Everything the pages' scripts write for players, in the page's language: a string with
    ``{name}`` fields, or (with a count ``{n}``) its forms by plural category. Every page embeds
    it, and it depends on the language only, so it is made once per language: callers must not
    change it."""
    return _client_text(page_locale())


@functools.cache
def _client_text(locale: str) -> dict[str, Any]:
    """:func:`client_text` for ``locale``, made in a request whose page reads in ``locale``."""
    return {
        "lang": locale,
        "faces": {
            str(face): plural_forms(functools.partial(face_word, face)) for face in range(1, 7)
        },
        # api.js
        "serverError": gettext("server error {status}"),
        # lobby.js
        "checking": gettext("checking…"),
        "valid": gettext("✓ {variants} · calls: {calls}"),
        "invalid": gettext("✗ {error}"),
        # replay.js
        "play": gettext("Play"),
        "pause": gettext("Pause"),
        "winnerWord": gettext("Winner"),  # a seat that won, in words beside its colour
        # table.js and replay.js
        "dice": plural_forms(lambda n: ngettext("{n} die", "{n} dice", n)),
        "faceUp": gettext("{value}, face up"),
        "underCup": gettext("under the cup"),
        "ownHidden": gettext("The rules hide your dice from you this round"),
        # a die's name for screen readers (api.js: dieName): "four", "four, face up, counts"
        "dieHidden": gettext("hidden"),
        "dieUp": gettext("face up"),
        "dieCounts": gettext("counts"),
        # table.js
        # a bid of one number (a bid kind of one field: pip-sum's total), "a total of 23"
        "bidTotal": gettext("a total of {total}"),
        "bidTotalLabel": gettext("total"),
        "outOfTurn": gettext(
            "Not your turn, but you may call this bid before the next one is made"
        ),
        "yourTurnTitle": gettext("● Your turn — {title}"),
        "diceNow": plural_forms(lambda n: ngettext("{n} die → {after}", "{n} dice → {after}", n)),
        "out": gettext("out"),  # a seat that is out of the game (now or since earlier rounds)
        "goesOut": gettext("goes out"),  # a loser this ruling puts out of the game
        "away": gettext("away"),
        "standIn": gettext("away — bot playing"),
        "botSeat": gettext(" · {bot}"),
        "botName": gettext("{name} (bot)"),
        "connected": gettext("connected"),
        "connectedAs": gettext("connected · you are {name}"),
        "watching": gettext("watching (spectator)"),
        "kicked": gettext("the host removed you from this table"),
        "tableClosed": gettext("this table has closed: start a new one from the lobby"),
        "replaced": gettext("this seat is open in another tab: this one was closed"),
        "busy": gettext("the server is busy: retrying in {seconds} s…"),
        "lost": gettext("connection lost: reconnecting…"),
        "noTable": gettext("no live table has the code {code}"),
        "disconnected": gettext("Disconnected: {reason}. "),
        "backToLobby": gettext("Back to the lobby"),
        "youWatch": gettext("You are watching."),
        "youAreOut": gettext("You are out of this game."),
        "pickShown": gettext("{value}: goes face up with your bid"),
        "pickHidden": gettext("{value}: click to show it with your bid"),
        "upNote": gettext(" outlined: face up, seen by all"),
        "bid": gettext("Bid"),
        "bidShow": gettext("Bid & show {faces}"),
        "bluffHint": gettext(
            "Bluff: click your dice to put them face up with your bid;"
            " the rest under your cup are rerolled."
        ),
        "bluffShow": gettext("You show {faces} with your bid and reroll the rest under your cup."),
        "bluffRefused": gettext(
            "You cannot show those dice now (keep at least one under your cup)."
        ),
        "yourTurn": gettext("Your turn"),
        "theirTurn": gettext("{name}'s turn"),
        "cupsLifted": gettext("Cups lifted…"),
        "waitingRematch": gettext("Waiting for the others…"),
        "rematch": gettext("Rematch"),
        "rematchVotes": plural_forms(
            lambda n: ngettext(
                "{names} wants a rematch · {n} of {total}",
                "{names} want a rematch · {n} of {total}",
                n,
            )
        ),
        "rematchYou": gettext("You want a rematch · {n} of {total}"),
        "youFirst": gettext("You"),  # the reader, first in a list of names
        "seatElsewhere": gettext(
            "You now play this seat in another tab: this tab is disconnected."
        ),
        "waiting": gettext("Waiting for players: {taken} of {seats} seated. "),
        "emptyBots": gettext("Empty seats get bots when the host starts: {bot}."),
        "emptyDropped": gettext("Empty seats are dropped when the host starts."),
        "privateAsk": gettext(" This table is private: ask its host for the share link to sit."),
        "removeTitle": gettext("Remove {name}: they cannot sit here again"),
        "remove": gettext("remove"),
        "seat": gettext("Seat {number}"),
        "empty": gettext("empty"),
        "bulletsTitle": gettext("bullets in the revolver / chambers"),
        "bullets": plural_forms(
            lambda n: ngettext("{n} bullet of {chambers}", "{n} bullets of {chambers}", n)
        ),
        "counted": gettext("Counted faces: {faces}"),
        "onTable": gettext("{name} bid {bid}"),
        "pull": gettext("{name} loads {loaded} of {chambers} and pulls:"),
        "pullBang": gettext("bang — out"),
        "pullClick": gettext("click — still in"),
        "copied": gettext("Copied"),
        "copyYourself": gettext("The link is selected: copy it"),
        "recap": gettext("Bids: {bids}"),  # the round's bids at a reveal: "Iris 2 fours → …"
        "logDropped": plural_forms(
            lambda n: ngettext(
                "{n} earlier line is not shown here.", "{n} earlier lines are not shown here.", n
            )
        ),
        "logReplay": gettext("Earlier moves are in the replay"),
        "logReplayLater": gettext("The game's replay will have every move once it is over."),
        "wins": gettext("★ {name} wins the game!"),
        "winTogether": gettext("★ {names} win the game!"),
        "team": gettext("team {number}"),
        # summary.js: the game's summary at game over (tables/summary.py)
        "places": gettext("Places"),
        "place": {  # by the ordinal's plural category: "1st place" (uk, ru: "місце 1")
            category: gettext(msgid, place="{n}")
            for category, msgid in (
                ("one", "%(place)sst place"),
                ("two", "%(place)snd place"),
                ("few", "%(place)srd place"),
                ("other", "%(place)sth place"),
            )
        },
        "rating": gettext("rating {after} ({delta})"),
        # The same words as storage.ratings.EXPLAINED (a layer above this one).
        "ratingTitle": gettext(
            "Rating: a cautious estimate, mean \u2212 3 \u00d7 uncertainty; starts at 0, never below."
        ),
        "rounds": plural_forms(lambda n: ngettext("{n} round played", "{n} rounds played", n)),
        "bestCall": gettext("Best call, round {round}: {ruling}"),
        "replayGame": gettext("Replay this game"),
        "onTurn": gettext("on turn"),
        "you": gettext("you"),
        "host": gettext("host"),
        "watchers": plural_forms(lambda n: ngettext("{n} watching", "{n} watching", n)),
        "watchersNamed": plural_forms(
            lambda n: ngettext("{n} watching: {names}", "{n} watching: {names}", n)
        ),
        "guests": plural_forms(lambda n: ngettext("{n} guest", "{n} guests", n)),
        "hostTitle": gettext("The table's host: starts the game, and may remove players before it"),
        "hideRuling": gettext("Hide the ruling"),
        # announce.js and clock.js: what the live region says
        "youOpen": gettext("You open the round."),
        "isOut": gettext("{name} is out."),
        "wonGame": gettext("{player} wins the game!"),
        "wonTogether": gettext("{players} win the game!"),
        "secondsLeft": plural_forms(lambda n: ngettext("{n} second left", "{n} seconds left", n)),
        "bots": {kind: bot_words(kind, locale) for kind in bot_kinds()},
        # seats.js: the seats' controls before the start (tables/intents.py), easiest bot first
        "botTitles": {kind: bot_title(kind).render(locale) for kind in by_level(bot_kinds())},
        "botFor": gettext("Bot for seat {number}"),
        "addBot": gettext("Add"),
        "addBotTitle": gettext("Put this bot in seat {number}"),
        "removeBotTitle": gettext("Take this bot away: the seat is empty again"),
        "sitHere": gettext("Sit here"),
        "sitHereTitle": gettext("Move to seat {number}"),
        # warning.js: the first timeout forgiven (tables/forgiving.py), in that player's banner
        "forgivenWarning": gettext(
            "Your clock ran out: a bot played for you this time; next time you lose the round."
        ),
        "gotIt": gettext("Got it"),
    }


# --- error pages --------------------------------------------------------------------------------

HTTP_NAMES = {
    400: N_("Bad Request"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    413: N_("Request Entity Too Large"),
    415: N_("Unsupported Media Type"),
    429: N_("Too Many Requests"),
    500: N_("Internal Server Error"),
    503: N_("Service Unavailable"),
}
"""The status names an error page shows, translated."""
NOT_HERE = N_("There is no such page here.")
WENT_WRONG = N_("This request could not be answered.")


def http_error(error: HTTPException) -> dict[str, Any]:
    """What an error page shows of ``error``, in the page's language: its code, its name, and its
    description (Werkzeug's own English one replaced by a translated line)."""
    code = error.code or 500
    description = error.description
    if description == type(error).description:  # Werkzeug's default text, in English
        description = gettext(NOT_HERE if code == 404 else WENT_WRONG)
    name = gettext(HTTP_NAMES[code]) if code in HTTP_NAMES else error.name
    return {"code": code, "name": name, "description": description}
