"""Per-client rate limits (Flask-Limiter): table creation, seat claims, code lookups, new players.

Contract: a client is :func:`liarsdice_demo.clients.client_key` (its address, or its IPv6 /64;
``PROXY_FIX`` makes it the real client behind a proxy). Each limit is a config key holding a limit
string ("6 per minute; 30 per hour"), read at request time:

- ``LIMIT_TABLE_CREATION`` on ``POST /api/tables``;
- ``LIMIT_SEAT_CLAIMS`` on ``POST /api/tables/<code>/seat``;
- ``LIMIT_CODE_MISSES``, one budget shared by every lookup of a table by code (:data:`LOOKUPS`),
  spent only by misses (a 404, or ``/join`` sending the visitor back to the lobby): once it is
  spent, every lookup waits, so codes cannot be enumerated;
- ``LIMIT_PLAYER_CREATION`` on new player rows, spent by :func:`spend_player_creation` (called
  where players are made, :func:`liarsdice_demo.players.ensure_player`).

Before all of these, ``LIMIT_REQUESTS`` (Flask-Limiter's application-wide limit, "20 per second;
600 per minute") bounds every request of a client together, so that one client loading
pages in a loop cannot take the server's one process from everyone else. The view limits are
Flask-Limiter decorators applied to ``app.view_functions`` after the blueprints are registered
(:func:`limit_views`), so the views' modules know nothing of them. Counts
live in ``RATELIMIT_STORAGE_URI`` (``memory://`` by default: per process; ``redis://…`` to share
them between workers). A refusal is a 429 with ``Retry-After``: JSON ``{"ok": false, "error":
"too many requests: try again in N s"}`` under ``/api/``, the error page elsewhere.
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

from liarsdice_demo import i18n
from liarsdice_demo.clients import client_key

DEFAULTS: dict[str, Any] = {
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    "LIMIT_REQUESTS": "20 per second; 600 per minute",
    "LIMIT_TARPIT_SECONDS": 1.0,
    "LIMIT_TABLE_CREATION": "6 per minute; 30 per hour",
    "LIMIT_SEAT_CLAIMS": "20 per minute; 200 per hour",
    "LIMIT_CODE_MISSES": "30 per minute; 300 per hour",
    "LIMIT_PLAYER_CREATION": "10 per hour",
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
LOOKUP_SCOPE = "code-lookup"


@dataclass(frozen=True)
class Setting:
    """A limit string read from the current app's config at request time (equal by key, so
    decorating the views of a second app adds no second copy of a limit)."""

    key: str

    def __call__(self) -> str:
        return str(current_app.config[self.key])


limiter = Limiter(key_func=client_key, application_limits=[Setting("LIMIT_REQUESTS")])


def lookup_missed(response: Response) -> bool:
    """Whether a lookup by code found nothing: a 404, or a redirect anywhere but a table page."""
    if response.status_code == 404:
        return True
    if not response.location:
        return False
    table_pages = url_for("pages.table", code="CODE").rsplit("CODE", 1)[0]
    return not urlsplit(response.location).path.startswith(table_pages)


def _spend(setting: str, scope: str) -> int | None:
    """Count one hit of this client against the limit in config ``setting`` (shared by
    ``scope``); if it is spent, count nothing and return the seconds to wait."""
    if not limiter.enabled:
        return None
    strategy, client = limiter.limiter, client_key()
    items = parse_many(current_app.config[setting])
    for item in items:
        if not strategy.test(item, client, scope):
            reset_at, _ = strategy.get_window_stats(item, client, scope)
            return max(1, math.ceil(reset_at - time.time()))
    for item in items:
        strategy.hit(item, client, scope)
    return None


def spend_player_creation() -> None:
    """Count one new player for this client, or raise :class:`TooManyRequests` (nothing counted)."""
    wait = _spend("LIMIT_PLAYER_CREATION", PLAYER_SCOPE)
    if wait is not None:
        raise TooManyRequests("too many new players from this address", retry_after=wait)


def spend_code_miss() -> int | None:
    """Count a lookup by code that found nothing outside the views (a WebSocket to an unknown
    code) against the same budget as the views' misses; the seconds to wait if it is spent."""
    return _spend("LIMIT_CODE_MISSES", LOOKUP_SCOPE)


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
    wait = g.retry_after = retry_seconds(error)
    text = gettext("too many requests: try again in %(wait)s s", wait=wait)
    headers = {"Retry-After": str(wait)}
    if request.path.startswith("/api/"):
        return jsonify(ok=False, error=text), 429, headers
    shown = TooManyRequests(description=text[0].upper() + text[1:] + ".")
    return render_template("error.html", error=i18n.http_error(shown)), 429, headers


def _same_retry_after(response: Response) -> Response:
    """Keep a 429's ``Retry-After`` equal to the wait its message states (Flask-Limiter rewrites
    the header from its own clock; this hook runs after it)."""
    wait = g.get("retry_after")
    if response.status_code == 429 and wait is not None:
        response.headers["Retry-After"] = str(wait)
    return response


def _decorate(app: Flask, endpoint: str, decorator: Callable[[Any], Any]) -> None:
    app.view_functions[endpoint] = decorator(app.view_functions[endpoint])


def init_app(app: Flask) -> None:
    """Bind :data:`limiter` to ``app``: call it before any other request hook, so a refused
    request costs no database work (its application-wide limit, ``LIMIT_REQUESTS``, is checked
    first of all)."""
    app.after_request(_same_retry_after)  # registered first, so it runs after the limiter's
    limiter.init_app(app)
    app.register_error_handler(429, too_many_requests)


def limit_views(app: Flask) -> None:
    """Put the limits on ``app``'s views (call it after the blueprints are registered: a missing
    endpoint is a ``KeyError``)."""
    _decorate(app, "api.create_table", limiter.limit(Setting("LIMIT_TABLE_CREATION")))
    _decorate(app, "api.take_seat", limiter.limit(Setting("LIMIT_SEAT_CLAIMS")))
    lookup = limiter.shared_limit(
        Setting("LIMIT_CODE_MISSES"), scope=LOOKUP_SCOPE, deduct_when=lookup_missed
    )
    for endpoint in LOOKUPS:
        _decorate(app, endpoint, lookup)
