"""liarsdice-demo: play any combination of installed liarsdice variants in the browser.

``create_app(config)`` is the app factory: SQL storage (:mod:`.storage.db`, SQLite by default),
players by cookie (:mod:`.storage.players`), the request guard (:mod:`.edge.guard`: CSRF, security
headers, ProxyFix), the per-client rate limits (:mod:`.edge.limits`), the per-client cap on
requests in flight and the deadline for request bodies (:mod:`.edge.admission`), the table hub
(:mod:`.tables.hub`), the WebSocket endpoint (:mod:`.web.sockets`, with its socket gate
:mod:`.edge.gate`), the languages (:mod:`.text.i18n`: Flask-Babel, English, Ukrainian and Russian)
and the blueprints for the lobby, the JSON API and the other pages. Run it with ``liarsdice-demo``,
which serves it with gunicorn's gevent worker (:mod:`.serve`), or under a gunicorn command line of
your own (see the README).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from flask_babel import gettext
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from liarsdice_demo.edge import admission, gate, guard, handshake_budget, limits
from liarsdice_demo.storage import db, persistence, players
from liarsdice_demo.storage.live_store import StoreUnavailable
from liarsdice_demo.tables import hub, stand_in
from liarsdice_demo.text import i18n
from liarsdice_demo.web import api, lobby, pages, sockets

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "BOT_DELAY": 0.9,
    "AWAY_GRACE": stand_in.DEFAULT_GRACE,
    "REVEAL_PAUSE": 4.0,
    "HUB_WORKERS": 4,
    "MAX_TABLES": 2000,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "SOCK_SERVER_OPTIONS": {"ping_interval": 25, "max_message_size": 16 * 1024},
    "OUTAGE_RETRY_AFTER": 5,
    "ALLOW_REDIS_WITHOUT_AOF": False,
    **admission.DEFAULTS,
    **gate.DEFAULTS,
    **handshake_budget.DEFAULTS,
    **guard.DEFAULTS,
    **limits.DEFAULTS,
    **players.DEFAULTS,
}


ENV_PREFIX = "LIARSDICE_DEMO"
"""Environment variables ``LIARSDICE_DEMO_<KEY>`` set config keys (values parsed as JSON)."""


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A new app. Config comes from the defaults, then environment variables
    ``LIARSDICE_DEMO_<KEY>`` (e.g. ``LIARSDICE_DEMO_MAX_SOCKETS_PER_CLIENT=8``), then ``config``
    (``DATABASE``: the SQLite file, by default ``liarsdice.sqlite`` in the instance folder;
    ``DATABASE_URL`` (also read from the plain ``DATABASE_URL`` variable): a SQLAlchemy URL for
    players, ratings and finished games instead of that file, e.g. PostgreSQL shared by hosts;
    ``REDIS_URL`` (also read from the plain ``REDIS_URL`` variable): keep live tables in Redis;
    ``BOT_DELAY``/``REVEAL_PAUSE``/``AWAY_GRACE`` (before a bot stands in for an away player):
    seconds; the socket caps, the handshake budget's, the guard's, the rate limits' and the player
    expiry's keys: :mod:`.edge.gate`, :mod:`.edge.handshake_budget`, :mod:`.edge.guard`,
    :mod:`.edge.limits`, :mod:`.storage.players`). With
    ``REDIS_URL``, Redis must keep an append-only file (``RuntimeError`` naming the fix, unless
    ``ALLOW_REDIS_WITHOUT_AOF``: :mod:`.storage.persistence`). A request that finds the table store
    or the SQL database unreachable gets a 503 with ``Retry-After: OUTAGE_RETRY_AFTER`` (seconds,
    sent as set). Every error under ``/api/`` is JSON, ``{"ok": false, "error": text}`` (413 and
    503 included); elsewhere it is the error page."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config["DATABASE"] = os.path.join(app.instance_path, "liarsdice.sqlite")
    app.config.from_prefixed_env(ENV_PREFIX)
    for key in ("REDIS_URL", "DATABASE_URL"):
        if os.environ.get(key) and not app.config.get(key):
            app.config[key] = os.environ[key]
    if config:
        app.config.update(config)
    if app.config.get("REDIS_URL"):
        persistence.require_aof(
            app.config["REDIS_URL"], bool(app.config["ALLOW_REDIS_WITHOUT_AOF"])
        )
    i18n.init_app(app)
    limits.init_app(app)
    admission.init_app(app)  # inside ProxyFix, which guard.init_app may wrap around it
    db.init_app(app)
    guard.init_app(app)
    players.init_app(app)
    hub.init_app(app)
    sockets.init_app(app)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    limits.limit_views(app)

    @app.errorhandler(HTTPException)
    def _error(error: HTTPException) -> Response:
        return _answer(i18n.http_error(error), error.code or 500)

    @app.errorhandler(StoreUnavailable)
    def _store_down(problem: Exception) -> Response:
        return _unavailable(gettext("The table store cannot be reached: try again in a moment."))

    if app.extensions[hub.KEY].cluster is not None:  # redis-py's errors outside the store's calls
        import redis

        app.register_error_handler(redis.RedisError, _store_down)

    @app.errorhandler(OperationalError)
    def _database_down(problem: OperationalError) -> Response:
        log.error("the SQL database cannot be reached: %s", problem.orig or problem)
        return _unavailable(gettext("The database cannot be reached: try again in a moment."))

    return app


def _answer(shown: dict[str, Any], status: int, **extra: Any) -> Response:
    """An error answer: JSON under ``/api/`` (``shown``'s description as its ``error``, and
    ``extra``), else the error page showing ``shown`` (:func:`.text.i18n.http_error`)."""
    if request.path.startswith("/api/"):
        return make_response(jsonify(ok=False, error=shown["description"], **extra), status)
    return make_response(render_template("error.html", error=shown), status)


def _unavailable(text: str) -> Response:
    """A 503 saying ``text``, to be retried in ``OUTAGE_RETRY_AFTER`` seconds."""
    wait = int(current_app.config["OUTAGE_RETRY_AFTER"])
    answer = _answer(i18n.http_error(ServiceUnavailable(text)), 503, retry_after=wait)
    answer.headers["Retry-After"] = str(wait)
    return answer


__all__ = ["create_app"]
