"""The request guard: cross-site and non-JSON state changes refused, security headers, cookies."""

from __future__ import annotations

import http.client
import json
import re
from pathlib import Path
from typing import Any

import pytest
from simple_websocket import Client
from sqlalchemy import func, select

from liarsdice_demo import create_app
from liarsdice_demo.storage import db
from liarsdice_demo.storage.db import get_db

from .conftest import create_in_lobby

FOREIGN = {"Origin": "https://evil.example"}
SAME = {"Origin": "http://localhost"}  # the test client's own origin
TABLE = {"nickname": "Iris", "preset": "casino", "seats": 3}


def counts(app: Any) -> tuple[int, int]:
    """(live tables, player rows)."""
    with app.app_context():
        players = get_db().execute(select(func.count()).select_from(db.players)).scalar()
    return len(app.extensions["liarsdice_hub"].tables()), players


def make_table(client: Any) -> dict[str, Any]:
    made = client.post("/api/tables", json=TABLE, headers=SAME)
    assert made.status_code == 200, made.json
    return made.json


def taken(client: Any, code: str) -> int:
    return client.get(f"/api/tables/{code}").json["taken"]


def test_a_foreign_origin_cannot_create_a_table(app: Any, client: Any) -> None:
    answer = client.post("/api/tables", json=TABLE, headers=FOREIGN)
    assert answer.status_code == 403
    assert answer.json == {"ok": False, "error": "cross-site request refused"}
    assert counts(app) == (0, 0)
    assert client.get_cookie("ld_player") is None


def test_a_foreign_origin_cannot_take_a_seat(app: Any, client: Any) -> None:
    made = make_table(client)
    other = app.test_client()
    body = {"nickname": "Knox", "key": made["join_key"]}
    answer = other.post(f"/api/tables/{made['code']}/seat", json=body, headers=FOREIGN)
    assert answer.status_code == 403
    assert taken(client, made["code"]) == 1 and counts(app) == (1, 1)
    # The same request from the site itself is accepted.
    answer = other.post(f"/api/tables/{made['code']}/seat", json=body, headers=SAME)
    assert answer.status_code == 200 and taken(client, made["code"]) == 2


@pytest.mark.parametrize("headers", [{}, SAME])
def test_a_text_plain_post_is_refused(app: Any, client: Any, headers: dict[str, str]) -> None:
    body = json.dumps(TABLE)
    answer = client.post("/api/tables", data=body, content_type="text/plain", headers=headers)
    assert answer.status_code == 415 and answer.json["ok"] is False
    assert counts(app) == (0, 0)
    form = client.post("/api/tables", data=TABLE, headers=headers)  # an HTML form's encoding
    assert form.status_code == 415 and counts(app) == (0, 0)


def test_a_same_origin_json_post_works(app: Any, client: Any) -> None:
    made = make_table(client)
    assert made["ok"] and counts(app) == (1, 1)
    assert client.post("/api/validate", json={"preset": "dudo"}, headers=SAME).json["ok"]


@pytest.mark.parametrize("site", ["same-site", "cross-site"])
def test_a_foreign_sec_fetch_site_without_origin_is_refused(
    app: Any, client: Any, site: str
) -> None:
    answer = client.post("/api/tables", json=TABLE, headers={"Sec-Fetch-Site": site})
    assert answer.status_code == 403 and counts(app) == (0, 0)


@pytest.mark.parametrize("site", ["same-origin", "none"])
def test_an_own_sec_fetch_site_passes(client: Any, site: str) -> None:
    answer = client.post("/api/tables", json=TABLE, headers={"Sec-Fetch-Site": site})
    assert answer.status_code == 200


def test_an_origin_beats_sec_fetch_site_and_allowed_origins_pass(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "guard.sqlite"),
            "ALLOWED_ORIGINS": ["https://play.example/"],
        }
    )
    try:
        client = app.test_client()
        allowed = {"Origin": "https://play.example", "Sec-Fetch-Site": "cross-site"}
        assert client.post("/api/tables", json=TABLE, headers=allowed).status_code == 200
        assert client.post("/api/tables", json=TABLE, headers=FOREIGN).status_code == 403
        null = client.post("/api/tables", json=TABLE, headers={"Origin": "null"})
        assert null.status_code == 403
    finally:
        app.extensions["liarsdice_hub"].shutdown()


def test_a_get_from_another_site_is_not_refused(client: Any) -> None:
    """Links from elsewhere still work: only state changes and sockets are checked."""
    assert client.get("/", headers={**FOREIGN, "Sec-Fetch-Site": "cross-site"}).status_code == 200


UPGRADE = {
    "Upgrade": "websocket",
    "Connection": "Upgrade",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version": "13",
}


def test_a_websocket_handshake_from_a_foreign_origin_gets_403(client: Any) -> None:
    made = make_table(client)
    answer = client.get(f"/ws/{made['code']}", headers={**UPGRADE, **FOREIGN})
    assert answer.status_code == 403 and answer.json["error"] == "cross-site request refused"


def handshake(host: str, path: str, origin: str) -> int:
    """The status a WebSocket handshake from ``origin`` gets from the live server."""
    conn = http.client.HTTPConnection(host, timeout=10)
    try:
        conn.request("GET", path, headers={**UPGRADE, "Origin": origin})
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_foreign_socket_is_refused_on_a_live_server(app: Any, live_server: str) -> None:
    made = make_table(app.test_client())
    assert handshake(live_server, f"/ws/{made['code']}", FOREIGN["Origin"]) == 403
    assert handshake(live_server, f"/ws/{made['code']}", f"http://{live_server}") == 101
    # simple_websocket sends ``Host`` without the port, so its own origin is the bare address.
    own = Client.connect(
        f"ws://{live_server}/ws/{made['code']}", headers={"Origin": "http://127.0.0.1"}
    )
    try:
        own.send('{"v": 1, "type": "hello", "id": 1}')
        assert '"type"' in own.receive(timeout=10)
    finally:
        own.close()


def test_security_headers_on_every_response(client: Any) -> None:
    made = make_table(client)
    for url in ["/", f"/t/{made['code']}", "/api/catalog", "/static/style.css", "/nowhere"]:
        response = client.get(url)
        response.close()
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self';" in csp and "style-src 'self';" in csp, url
        assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert "connect-src 'self' ws://localhost wss://localhost;" in csp
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
        assert "Server" not in response.headers


INLINE = [
    re.compile(r"<[^>]*\sstyle\s*=", re.I),  # a style attribute
    re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),  # an event handler attribute
    re.compile(r"<style", re.I),
    re.compile(r"javascript:", re.I),
]


def test_no_page_has_inline_script_or_style(app: Any, client: Any) -> None:
    """What the CSP would block: style attributes, handlers, inline scripts (JSON data is fine)."""
    made = make_table(client)
    code = made["code"]
    urls = ["/", f"/t/{code}", f"/t/{code}/rules", f"/t/{code}/odds", "/leaderboard", "/nowhere"]
    urls += ["/players/1", "/rules?preset=dudo"]
    for url in urls:
        page = client.get(url).get_data(as_text=True)
        for pattern in INLINE:
            assert not pattern.search(page), (url, pattern.pattern)
        for script in re.findall(r"<script[^>]*>", page):
            assert "src=" in script or 'type="application/json"' in script, (url, script)


def test_the_player_cookie_is_secure_over_https(app: Any) -> None:
    plain = app.test_client()
    plain.post("/api/tables", json=TABLE)
    assert plain.get_cookie("ld_player").secure is False
    tls = app.test_client()
    tls.post("/api/tables", json=TABLE, base_url="https://localhost")
    assert tls.get_cookie("ld_player", domain="localhost").secure is True


def test_secure_cookies_by_config(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SESSION_COOKIE_SECURE": True}
    )
    try:
        client = app.test_client()
        client.post("/api/tables", json=TABLE)
        assert client.get_cookie("ld_player").secure is True
    finally:
        app.extensions["liarsdice_hub"].shutdown()


def test_proxy_fix_makes_the_forwarded_client_the_request(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite"),
            "PROXY_FIX": {"x_for": 1, "x_proto": 1, "x_host": 1},
        }
    )
    forwarded = {
        "X-Forwarded-For": "203.0.113.7",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "dice.example",
    }
    try:
        client = app.test_client()
        answer = client.post(
            "/api/tables", json=TABLE, headers={**forwarded, "Origin": "https://dice.example"}
        )
        assert answer.status_code == 200 and answer.json["url"].startswith("https://dice.example/")
        assert client.get_cookie("ld_player", domain="localhost").secure is True
        # Without the proxy's headers the same browser origin is foreign.
        refused = client.post("/api/tables", json=TABLE, headers={"Origin": "https://dice.example"})
        assert refused.status_code == 403
    finally:
        app.extensions["liarsdice_hub"].shutdown()


def test_a_huge_player_id_is_404(client: Any) -> None:
    assert client.get("/players/99999999999999999999999").status_code == 404
    assert client.get(f"/players/{2**63 - 1}").status_code == 404


def test_the_pages_break_no_csp_rule_in_a_browser(live_server: str, browser: Any) -> None:
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    code = create_in_lobby(page, live_server)
    page.wait_for_selector(".seat")
    page.goto(f"http://{live_server}/t/{code}/odds")
    page.goto(f"http://{live_server}/t/{code}/rules")
    page.goto(f"http://{live_server}/leaderboard")
    page.wait_for_timeout(300)
    csp = [p for p in problems if "Content Security Policy" in p or "Refused" in p]
    assert not csp, csp
