"""The request guard: refuses cross-site and non-JSON state changes, and sets security headers.

Contract: a state-changing request (POST, PUT, PATCH, DELETE) must send ``Content-Type:
application/json`` (else 415) and come from the app's own origin (else 403); so must a
WebSocket handshake (a GET with ``Upgrade: websocket``), for the origin. "Own origin" means: an
``Origin`` header equal to the request's own ``scheme://host`` or listed in ``ALLOWED_ORIGINS``;
without ``Origin``, a ``Sec-Fetch-Site`` of ``cross-site`` or ``same-site`` is refused too. A
request with neither header (curl, scripts, test clients) passes: forging a request with a
victim's cookie takes a browser, and browsers send them. Refusals are JSON (``{"ok": false,
"error": ...}``) and change nothing: the guard runs before any view. Every response carries a
Content-Security-Policy without ``'unsafe-inline'``, ``X-Frame-Options: DENY``, ``nosniff``,
``Referrer-Policy: same-origin`` (a table link's ``?key=`` never leaves the site) and
``Cross-Origin-Opener-Policy: same-origin``.

Behind a reverse proxy, set ``PROXY_FIX`` to the number of proxies setting each header, e.g.
``{"x_for": 1, "x_proto": 1, "x_host": 1}``: the app is then wrapped in Werkzeug's
:class:`~werkzeug.middleware.proxy_fix.ProxyFix`, so ``request.remote_addr`` (the rate limits'
client), ``request.is_secure`` (Secure cookies) and the host (the origin check) are the client's.
Only trust headers your own proxy sets: with ``PROXY_FIX`` on and no proxy, any client can
claim any address. Without it behind a TLS-terminating proxy, the app sees ``http://`` while
browsers send ``Origin: https://…``, and every browser POST is refused as cross-site.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, current_app, jsonify, request
from flask_babel import gettext
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

DEFAULTS: dict[str, Any] = {
    "ALLOWED_ORIGINS": [],
    "PROXY_FIX": None,
}
"""Config keys read by the guard: extra trusted origins (``"https://host"``), the ProxyFix
arguments (``None``: no proxy in front)."""

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FOREIGN_FETCH = frozenset({"cross-site", "same-site"})
HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")
"""A host (and port) safe to write into the CSP header."""

HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def _refuse(text: str, status: int) -> tuple[Response, int]:
    return jsonify(ok=False, error=text), status


def own_origin() -> str:
    """This request's own origin, ``scheme://host[:port]``, lower case."""
    return f"{request.scheme}://{request.host}".lower()


def foreign_request() -> bool:
    """Whether a browser says this request comes from another site (or another origin)."""
    origin = request.headers.get("Origin")
    if origin is not None:
        allowed = {o.rstrip("/").lower() for o in current_app.config["ALLOWED_ORIGINS"]}
        return origin.lower() not in allowed | {own_origin()}
    return request.headers.get("Sec-Fetch-Site", "").lower() in FOREIGN_FETCH


def _is_websocket() -> bool:
    return request.headers.get("Upgrade", "").lower() == "websocket"


def check_request() -> tuple[Response, int] | None:
    """Refuse a foreign state change or socket (403) or a non-JSON state change (415)."""
    changing = request.method in STATE_CHANGING
    if not (changing or _is_websocket()):
        return None
    if foreign_request():
        return _refuse("cross-site request refused", 403)
    if changing and request.mimetype != "application/json":
        return _refuse(gettext("send the request as application/json"), 415)
    return None


def content_security_policy() -> str:
    """The CSP: only this origin's scripts, styles and sockets; no framing, no inline code."""
    host = request.host
    sockets = f" ws://{host} wss://{host}" if HOST.match(host) else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self'{sockets}; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'; object-src 'none'"
    )


def add_headers(response: Response) -> Response:
    """Set the security headers on ``response`` (no ``Server`` header is added)."""
    response.headers["Content-Security-Policy"] = content_security_policy()
    for name, value in HEADERS.items():
        response.headers[name] = value
    return response


def init_app(app: Flask) -> None:
    """Install ProxyFix (if ``PROXY_FIX``), the request check and the response headers."""
    proxies = app.config["PROXY_FIX"]
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, **proxies)  # type: ignore[method-assign]
    app.before_request(check_request)
    app.after_request(add_headers)
