"""Per-client rate limits (Flask-Limiter): table creation, seat claims, code lookups, new players.

Contract: a client is :func:`liarsdice_demo.edge.clients.client_key` (its address, or its IPv6 /64;
``PROXY_FIX`` makes it the real client behind a proxy). Each limit is a config key holding a limit
string ("6 per minute; 30 per hour"), read at request time:

- ``LIMIT_TABLE_CREATION`` on ``POST /api/tables``, counted per player (their cookie,
  :func:`liarsdice_demo.edge.clients.player_key`; a newcomer, who has none, spends one of the
  address's new players instead), and
  ``LIMIT_TABLE_CREATION_NETWORK`` on the tables it made, counted per network
  (:func:`liarsdice_demo.edge.clients.network_key`: an IPv4 /24, an IPv6 /48), so that many
  addresses of one network, or many players behind one, together make no more tables than that
  (a request refused for any reason spends only the per-player budget);
- ``LIMIT_SEAT_CLAIMS`` on ``POST /api/tables/<code>/seat``, per player, under
  ``LIMIT_SEAT_CLAIMS_ADDRESS`` per address (newcomers included);
- ``LIMIT_CODE_MISSES``, one budget shared by every lookup of a table by code (:data:`LOOKUPS`),
  spent only by misses (a 404, or ``/join`` sending the visitor back to the lobby): once it is
  spent, every lookup waits, so codes cannot be enumerated;
- ``LIMIT_PLAYER_CREATION`` on new player rows per address, and ``LIMIT_PLAYER_CREATION_NETWORK``
  per network, spent by :func:`spend_player_creation` (called where players are made,
  :func:`liarsdice_demo.storage.players.ensure_player`): a new cookie is a new player, so these
  bound what clearing cookies buys.

Before all of these, ``LIMIT_REQUESTS`` (Flask-Limiter's application-wide limit, "20 per second;
600 per minute") bounds every request of a client together, so that one client loading
pages in a loop cannot take the server's one process from everyone else; a WebSocket handshake
the socket gate admitted (:data:`METERED`) is not counted again. Static files (a page's scripts
and styles: a dozen per page, cheap) are not counted (Flask-Limiter leaves the ``static``
endpoint alone), so a classroom behind one address opening a page in the same minute spends a
few requests each. The view limits are
Flask-Limiter decorators applied to ``app.view_functions`` after the blueprints are registered
(:func:`limit_views`), so the views' modules know nothing of them. Counts
live in ``RATELIMIT_STORAGE_URI`` (``memory://`` by default: per process; ``redis://…`` to share
them between workers). A refusal is a 429 with ``Retry-After``: JSON ``{"ok": false, "error":
"too many requests: try again in 46 minutes"}`` under ``/api/``
(:func:`~liarsdice_demo.text.waits.wait_words`), the error page elsewhere. Every answer
keeps the ``Retry-After`` the app gave it, or none (Flask-Limiter would set one on every answer,
from its own windows: :func:`init_app`).
:data:`limiter` is the process's one :class:`~flask_limiter.Limiter`; each ``create_app`` binds it
to the new app (and a fresh storage).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, g, jsonify, render_template, request, url_for
from flask_babel import gettext
from flask_limiter import Limiter, RateLimitExceeded
from limits import parse_many
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response

from liarsdice_demo.edge.clients import client_key, network_key, player_key
from liarsdice_demo.text import i18n
from liarsdice_demo.text.waits import wait_words

DEFAULTS: dict[str, Any] = {
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    "LIMIT_REQUESTS": "20 per second; 600 per minute",
    "LIMIT_TARPIT_SECONDS": 1.0,
    "LIMIT_TABLE_CREATION": "6 per minute; 30 per hour",
    "LIMIT_TABLE_CREATION_NETWORK": "10 per minute; 60 per hour",
    "LIMIT_SEAT_CLAIMS": "20 per minute; 200 per hour",
    "LIMIT_SEAT_CLAIMS_ADDRESS": "60 per minute; 600 per hour",
    "LIMIT_CODE_MISSES": "30 per minute; 300 per hour",
    "LIMIT_PLAYER_CREATION": "30 per minute; 60 per hour",
    "LIMIT_PLAYER_CREATION_NETWORK": "120 per hour",
}
"""Config keys read here (the ``RATELIMIT_*`` ones by Flask-Limiter itself)."""

LOOKUPS = (
    "api.get_table",
    "api.take_seat",
    "pages.table",
    "pages.rules",
    "pages.odds",
    "lobby.join",
)
"""The endpoints that look a table up by the code in the URL: one shared budget of misses."""

PLAYER_SCOPE = "player-creation"
PLAYER_NETWORK_SCOPE = "player-creation-network"
SEAT_SCOPE = "seat-claims-address"
LOOKUP_SCOPE = "code-lookup"
NETWORK_SCOPE = "table-creation-network"


@dataclass(frozen=True)
class Setting:
    """A limit string read from the current app's config at request time (equal by key, so
    decorating the views of a second app adds no second copy of a limit)."""

    key: str

    def __call__(self) -> str:
        return str(current_app.config[self.key])


limiter = Limiter(key_func=client_key, application_limits=[Setting("LIMIT_REQUESTS")])

METERED = "liarsdice.metered"
"""The ``environ`` key set on a request another limit metered already (a WebSocket handshake the
socket gate admitted at its own, stricter, opening rate): Flask-Limiter does not count it again.
Its fixed windows in memory cost a handshake about a sixth of its work under a storm."""


@limiter.request_filter
def _metered_elsewhere() -> bool:
    return bool(request.environ.get(METERED))


def lookup_missed(response: Response) -> bool:
    """Whether a lookup by code found nothing: a 404, or a redirect anywhere but a table page."""
    if response.status_code == 404:
        return True
    if not response.location:
        return False
    table_pages = url_for("pages.table", code="CODE").rsplit("CODE", 1)[0]
    return not urlsplit(response.location).path.startswith(table_pages)


def table_made(response: Response) -> bool:
    """Whether ``POST /api/tables`` made a table (what the per-network budget counts)."""
    return response.status_code == 200


def _spend(budgets: list[tuple[str, str, Callable[[], str]]]) -> int | None:
    """Count one hit against each ``(setting, scope, key)`` budget, or, if any is spent, count
    nothing and return the seconds to wait."""
    if not limiter.enabled:
        return None
    strategy = limiter.limiter
    items = [
        (item, key(), scope)
        for setting, scope, key in budgets
        for item in parse_many(current_app.config[setting])
    ]
    for item, who, scope in items:
        if not strategy.test(item, who, scope):
            reset_at, _ = strategy.get_window_stats(item, who, scope)
            return max(1, math.ceil(reset_at - time.time()))
    for item, who, scope in items:
        strategy.hit(item, who, scope)
    return None


def spend_player_creation() -> None:
    """Count one new player for this client and its network, or raise :class:`TooManyRequests`
    (nothing counted)."""
    wait = _spend(
        [
            ("LIMIT_PLAYER_CREATION", PLAYER_SCOPE, client_key),
            ("LIMIT_PLAYER_CREATION_NETWORK", PLAYER_NETWORK_SCOPE, network_key),
        ]
    )
    if wait is not None:
        raise TooManyRequests("too many new players from this address", retry_after=wait)


def spend_code_miss() -> int | None:
    """Count a lookup by code that found nothing outside the views (a WebSocket to an unknown
    code) against the same budget as the views' misses; the seconds to wait if it is spent."""
    return _spend([("LIMIT_CODE_MISSES", LOOKUP_SCOPE, client_key)])


def retry_seconds(error: TooManyRequests) -> int:
    """Whole seconds until the refused request may succeed (at least 1)."""
    reset_at: float | None = None
    if isinstance(error, RateLimitExceeded) and limiter.current_limit is not None:
        reset_at = limiter.current_limit.reset_at
    elif isinstance(error.retry_after, int):
        reset_at = time.time() + error.retry_after
    return max(1, math.ceil(reset_at - time.time())) if reset_at is not None else 60


def too_many_requests(error: TooManyRequests) -> tuple[Response | str, int, dict[str, str]]:
    """The 429 answer: JSON under ``/api/``, the error page elsewhere; ``Retry-After`` set. It is
    held back ``LIMIT_TARPIT_SECONDS`` first: a client asking in a loop gets its answers slowly
    (a waiting request costs a sleeping greenlet, nothing more), so refusing it stays cheap."""
    time.sleep(current_app.config["LIMIT_TARPIT_SECONDS"])
    wait = retry_seconds(error)
    text = gettext("too many requests: try again in %(wait)s", wait=wait_words(wait))
    headers = {"Retry-After": str(wait)}
    if request.path.startswith("/api/"):
        return jsonify(ok=False, error=text), 429, headers
    shown = TooManyRequests(description=text[0].upper() + text[1:] + ".")
    return render_template("error.html", error=i18n.http_error(shown)), 429, headers


def _note_retry_after(response: Response) -> Response:
    """Remember the ``Retry-After`` the app gave ``response`` (this hook runs before
    Flask-Limiter's)."""
    g.limits_retry_after = response.headers.get("Retry-After")
    return response


def _same_retry_after(response: Response) -> Response:
    """Put back the ``Retry-After`` the app gave ``response``, or none: Flask-Limiter sets it on
    every answer from its own windows (a 503's 5 s would arrive as 59), and the app's own value
    is the one its message states (this hook runs after Flask-Limiter's)."""
    wait = g.pop("limits_retry_after", None)
    if wait is None:
        response.headers.pop("Retry-After", None)
    else:
        response.headers["Retry-After"] = wait
    return response


def _newcomer() -> bool:
    """Whether the request carries no player cookie we know: the per-player limits leave it to
    its address's (new players, per address and network; seat claims and tables, per address or
    network)."""
    return player_key() is None


def _player() -> str:
    return player_key() or client_key()


def _decorate(app: Flask, endpoint: str, decorator: Callable[[Any], Any]) -> None:
    app.view_functions[endpoint] = decorator(app.view_functions[endpoint])


def init_app(app: Flask) -> None:
    """Bind :data:`limiter` to ``app``: call it before any other request hook, so a refused
    request costs no database work (its application-wide limit, ``LIMIT_REQUESTS``, is checked
    first of all)."""
    app.after_request(_same_retry_after)  # registered first, so it runs after the limiter's
    limiter.init_app(app)
    app.after_request(_note_retry_after)  # registered last, so it runs before the limiter's
    app.register_error_handler(429, too_many_requests)


def limit_views(app: Flask) -> None:
    """Put the limits on ``app``'s views (call it after the blueprints are registered: a missing
    endpoint is a ``KeyError``)."""
    per_player = limiter.limit(
        Setting("LIMIT_TABLE_CREATION"), key_func=_player, exempt_when=_newcomer
    )
    _decorate(app, "api.create_table", per_player)
    per_network = limiter.shared_limit(
        Setting("LIMIT_TABLE_CREATION_NETWORK"),
        scope=NETWORK_SCOPE,
        key_func=network_key,
        deduct_when=table_made,
    )
    _decorate(app, "api.create_table", per_network)
    claims = limiter.limit(Setting("LIMIT_SEAT_CLAIMS"), key_func=_player, exempt_when=_newcomer)
    _decorate(app, "api.take_seat", claims)
    claims_here = limiter.shared_limit(Setting("LIMIT_SEAT_CLAIMS_ADDRESS"), scope=SEAT_SCOPE)
    _decorate(app, "api.take_seat", claims_here)
    lookup = limiter.shared_limit(
        Setting("LIMIT_CODE_MISSES"), scope=LOOKUP_SCOPE, deduct_when=lookup_missed
    )
    for endpoint in LOOKUPS:
        _decorate(app, endpoint, lookup)
