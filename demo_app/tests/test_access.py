"""Who may find and sit at a table: private by default, long codes, the share link's key, the
host's kick and the per-client table cap."""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any

from simple_websocket import Client, ConnectionClosed

from liarsdice_demo.tables.hub import CODE_LETTERS
from liarsdice_demo.tables.sweep import FINISHED_SECONDS, IDLE_SECONDS
from liarsdice_demo.web import sockets

from .conftest import closed_with, create_in_lobby

PRIVATE = "this table is private"


def create(client: Any, **fields: Any) -> dict[str, Any]:
    body = {"nickname": "Iris", "preset": "dudo", "seats": 3, "bot_kind": "none", **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.json
    return response.json


def seat(app: Any, code: str, nickname: str, **fields: Any) -> Any:
    """A new visitor (own cookie jar) asks for a seat; the response."""
    body = {"nickname": nickname, **fields}
    return app.test_client().post(f"/api/tables/{code}/seat", json=body)


def table_of(app: Any, code: str) -> Any:
    return app.extensions["liarsdice_hub"].get(code)


def taken(app: Any, code: str) -> list[str | None]:
    return [s.name if s else None for s in table_of(app, code).seats]


# --- listing -------------------------------------------------------------------------------------


def test_tables_are_private_by_default_and_not_listed(client: Any) -> None:
    made = create(client)
    assert made["public"] is False
    assert client.get("/api/tables").json["tables"] == []
    lobby = client.get("/").get_data(as_text=True)
    assert made["code"] not in lobby


def test_public_tables_are_listed_until_over(app: Any, client: Any) -> None:
    private = create(client)
    public = create(client, public=True)
    listed = [t["code"] for t in client.get("/api/tables").json["tables"]]
    assert listed == [public["code"]]
    lobby = client.get("/").get_data(as_text=True)
    assert public["code"] in lobby and private["code"] not in lobby
    table_of(app, public["code"]).status = "over"
    assert client.get("/api/tables").json["tables"] == []
    assert public["code"] not in client.get("/").get_data(as_text=True)


def test_public_must_be_a_boolean(client: Any) -> None:
    for value in ("yes", 1, None, [True]):
        answer = client.post("/api/tables", json={"nickname": "Iris", "public": value})
        assert answer.status_code == 422, value
        assert "public" in answer.json["error"]
    assert client.get("/api/tables").json["tables"] == []


def test_lobby_create_form_has_an_unchecked_public_box(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    box = re.search(r"<input[^>]*id=\"public\"[^>]*>", page)
    assert box is not None and "checked" not in box.group(0)


# --- codes ---------------------------------------------------------------------------------------


def test_codes_are_eight_unambiguous_letters_and_case_insensitive(app: Any, client: Any) -> None:
    codes = {create(client)["code"] for _ in range(3)}
    assert len(CODE_LETTERS) == 24 and not set("IO") & set(CODE_LETTERS)
    for code in codes:
        assert len(code) == 8 and set(code) <= set(CODE_LETTERS)
        assert client.get(f"/api/tables/{code.lower()}").json["code"] == code
        assert client.get(f"/t/{code.lower()}").status_code == 200
        joined = client.get(f"/join?code={code.lower()}")
        assert joined.status_code == 302 and joined.location.endswith(f"/t/{code}")
    four = next(iter(codes))[:4]
    assert "missing=" in client.get(f"/join?code={four}").location


def test_join_accepts_a_pasted_share_link(client: Any) -> None:
    made = create(client)
    joined = client.get("/join", query_string={"code": made["url"]})
    assert joined.status_code == 302
    assert joined.location.endswith(f"/t/{made['code']}?key={made['join_key']}")


# --- the join key --------------------------------------------------------------------------------


def test_private_seat_needs_the_share_links_key(app: Any, client: Any) -> None:
    made = create(client)
    code = made["code"]
    assert made["url"].endswith(f"/t/{code}?key={made['join_key']}")
    before = taken(app, code)
    for fields in ({}, {"key": "not-the-key"}, {"key": made["join_key"][:-1]}, {"key": 7}):
        refused = seat(app, code, "Knox", **fields)
        assert refused.status_code == 403, fields
        assert refused.json["error"] == "this table is private: ask its host for the share link"
        assert "ld_player" not in refused.headers.get("Set-Cookie", "")  # no player was made
        assert taken(app, code) == before
    sat = seat(app, code, "Knox", key=made["join_key"])
    assert sat.status_code == 200 and sat.json["seat"] == 1
    assert taken(app, code) == ["Iris", "Knox", None]


def test_public_seat_needs_no_key(app: Any, client: Any) -> None:
    made = create(client, public=True)
    sat = seat(app, made["code"], "Knox")
    assert sat.status_code == 200 and sat.json["seat"] == 1


def test_the_key_goes_only_to_seated_players_and_key_holders(app: Any, client: Any) -> None:
    made = create(client)
    code, key = made["code"], made["join_key"]
    assert key in client.get(f"/t/{code}").get_data(as_text=True)  # the host's share link
    stranger = app.test_client().get(f"/t/{code}").get_data(as_text=True)
    markup = re.sub(r'<script type="application/json" id="text">.*?</script>', "", stranger)
    assert key not in stranger and "ask its host" not in markup  # the page's script says it
    guessed = app.test_client().get(f"/t/{code}?key=wrong").get_data(as_text=True)
    assert key not in guessed
    invited = app.test_client().get(f"/t/{code}?key={key}").get_data(as_text=True)
    boot = json.loads(re.search(r'id="boot">(.*?)</script>', invited).group(1))  # type: ignore[union-attr]
    assert boot["key"] == key and boot["public"] is False
    assert key not in json.dumps(client.get(f"/api/tables/{code}").json)
    assert key not in json.dumps(client.get("/api/tables").json)
    assert key not in client.get("/").get_data(as_text=True)


def test_spectator_with_only_the_code_watches_and_never_sees_the_key(
    app: Any, client: Any, make_player: Any
) -> None:
    made = create(client, bot_kind="random")
    code, key = made["code"], made["join_key"]
    watcher = make_player(code.lower())
    assert watcher.expect("welcome")["seat"] is None
    watcher.expect("state")
    host = make_player(code, made["seat_token"])
    host.expect("welcome")
    host.send("start")
    watcher.expect("state", timeout=10)
    time.sleep(0.3)
    assert watcher.messages and all(key not in json.dumps(m) for m in watcher.messages)
    assert all(key not in json.dumps(m) for m in host.messages)


# --- kick ----------------------------------------------------------------------------------------


def seated(app: Any, client: Any, make_player: Any) -> tuple[dict[str, Any], Any, Any, Any]:
    """A private table with the host and Knox seated and connected: (made, host, knox, knox's
    own test client)."""
    made = create(client)
    knox_client = app.test_client()
    body = {"nickname": "Knox", "key": made["join_key"]}
    sat = knox_client.post(f"/api/tables/{made['code']}/seat", json=body).json
    host = make_player(made["code"], made["seat_token"])
    host.expect("welcome")
    knox = make_player(made["code"], sat["seat_token"])
    knox.expect("welcome")
    return made, host, knox, knox_client


def test_only_the_host_may_kick(app: Any, client: Any, make_player: Any) -> None:
    made, host, knox, _ = seated(app, client, make_player)
    knox.send("kick", seat=0)
    assert "only the table's host" in knox.expect("error", re="kick")["error"]
    host.send("kick", seat=0)
    assert "own seat" in host.expect("error", re="kick")["error"]
    host.send("kick", seat=2)
    assert "empty" in host.expect("error", re="kick")["error"]
    host.send("kick", seat=True)
    assert "must be a int" in host.expect("error")["error"]
    watcher = make_player(made["code"])
    watcher.expect("welcome")
    watcher.send("kick", seat=1)
    assert "spectators cannot act" in watcher.expect("error", re="kick")["error"]
    assert taken(app, made["code"]) == ["Iris", "Knox", None]


def test_no_kick_after_the_start(app: Any, client: Any, make_player: Any) -> None:
    made, host, _, _ = seated(app, client, make_player)
    host.send("start")
    host.expect("state", timeout=10)
    host.send("kick", seat=1)
    assert "before the game starts" in host.expect("error", re="kick")["error"]
    assert taken(app, made["code"])[:2] == ["Iris", "Knox"]


def test_host_kicks_a_seat_and_that_player_cannot_sit_again(
    app: Any, client: Any, make_player: Any
) -> None:
    made, host, knox, knox_client = seated(app, client, make_player)
    code, key = made["code"], made["join_key"]
    host.send("kick", seat=1)
    kicked = knox.expect("kicked")
    assert kicked["seat"] == 1 and "removed" in kicked["reason"]
    deadline = time.monotonic() + 10
    while knox.ws.connected:  # closed by the server, with 4403
        assert time.monotonic() < deadline, "the kicked socket stayed open"
        time.sleep(0.05)
    assert knox.ws.close_reason == 4403
    assert taken(app, code) == ["Iris", None, None]
    while host.expect("state")["table"]["seats"][1] is not None:
        pass  # states from before the kick; expect() fails if the emptied seat never shows
    # Knox (same cookie) cannot sit again, even with the key; the seat stays empty.
    again = knox_client.post(f"/api/tables/{code}/seat", json={"nickname": "Knox", "key": key})
    assert again.status_code == 403 and "removed you" in again.json["error"]
    assert taken(app, code) == ["Iris", None, None]
    # Someone else takes the freed seat.
    lu = seat(app, code, "Lu", key=key)
    assert lu.status_code == 200 and lu.json["seat"] == 1
    assert taken(app, code) == ["Iris", "Lu", None]


# --- the per-client table cap --------------------------------------------------------------------


def from_address(app: Any, address: str) -> Any:
    """A test client whose requests come from ``address``."""
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = address
    return other


def test_one_player_hosts_a_bounded_number_of_live_tables(app: Any, client: Any) -> None:
    app.config["MAX_TABLES_PER_PLAYER"] = 3
    app.config["MAX_TABLES"] = 5
    mine = [create(client) for _ in range(3)]
    refused = client.post("/api/tables", json={"nickname": "Iris", "preset": "dudo"})
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.json["ok"] is False and "3 tables open" in refused.json["error"]
    assert len(app.extensions["liarsdice_hub"].tables()) == 3
    # Another player is not held back by the first one's tables.
    other = from_address(app, "10.0.0.2")
    assert create(other)["ok"]
    # A finished table leaves the client's cap at once (a solo player plays on), and the hub
    # closes it 10 minutes after its last action.
    hub = app.extensions["liarsdice_hub"]
    finished = table_of(app, mine[0]["code"])
    finished.status, finished.game_id = "over", 1  # its game saved (unsaved, it stays open)
    assert create(client)["ok"]
    # The global cap, finished tables included, still answers 503 for everyone.
    body = {"nickname": "Lu", "preset": "dudo"}
    full = from_address(app, "10.0.0.3").post("/api/tables", json=body)
    assert full.status_code == 503
    finished.touched -= FINISHED_SECONDS + 1
    hub.sweep.run()
    assert hub.get(mine[0]["code"]) is None
    assert create(from_address(app, "10.0.0.3"))["ok"]


def test_an_idle_table_is_closed_even_while_watched(
    app: Any, client: Any, make_player: Any
) -> None:
    made = create(client)
    watcher = make_player(made["code"])
    watcher.expect("welcome")
    table = table_of(app, made["code"])
    table.touched -= IDLE_SECONDS + 1
    app.extensions["liarsdice_hub"].sweep.run()
    assert app.extensions["liarsdice_hub"].get(made["code"]) is None
    deadline = time.monotonic() + 10
    while watcher.ws is not None and watcher.ws.connected:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert watcher.ws is not None
    assert (watcher.ws.close_reason, watcher.ws.close_message) == (
        4404,
        "this table has closed: start a new one from the lobby",
    )


def test_sockets_to_unknown_codes_spend_the_lookup_budget(app: Any, live_server: str) -> None:
    app.config["LIMIT_CODE_MISSES"] = "2 per minute"
    url = f"ws://{live_server}/ws/NOSUCHTB"
    for _ in range(2):
        assert closed_with(Client.connect(url)) == (4404, "no live table has the code 'NOSUCHTB'")
    code, reason = closed_with(Client.connect(url))
    assert code == 1013 and reason.startswith("too many unknown codes: try again in ")
    assert app.test_client().get("/api/tables/NOSUCHTB").status_code == 429  # one budget


def test_a_socket_that_never_says_hello_is_closed_even_if_it_talks(
    live_server: str, app: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(sockets, "HELLO_SECONDS", 0.5)
    made = create(app.test_client())
    ws = Client.connect(f"ws://{live_server}/ws/{made['code']}")
    with contextlib.suppress(ConnectionClosed, OSError):
        for _ in range(20):
            ws.send(json.dumps({"v": 1, "type": "ping"}))
            time.sleep(0.1)
    assert closed_with(ws) == (1008, "say hello first: closed")


# --- the table page in a browser -----------------------------------------------------------------


def test_share_link_sit_kick_and_gone_table_in_the_browser(
    app: Any, live_server: str, browser: Any
) -> None:
    errors: list[str] = []

    def page() -> Any:
        opened = browser.new_context().new_page()  # a context per person: own cookies
        opened.on("pageerror", lambda error: errors.append(str(error)))
        return opened

    host = page()
    host.goto(f"http://{live_server}/")
    assert not host.is_checked("#public")
    code = create_in_lobby(host, live_server, bot_kind="none")
    link = host.input_value("#share")
    key = app.extensions["liarsdice_hub"].get(code).join_key
    assert link.endswith(f"/t/{code}?key={key}")
    # With only the code: watch, no way to sit.
    stranger = page()
    stranger.goto(f"http://{live_server}/t/{code}")
    stranger.wait_for_selector("#waiting:visible")
    assert "private" in stranger.inner_text("#waiting-text")
    assert not stranger.is_visible("#sit-form")
    # With the share link: sit.
    guest = page()
    guest.goto(link)
    guest.fill("#sit-nickname", "Knox")
    guest.click("#sit")
    guest.wait_for_selector("#connection:has-text('you are Knox')")
    # The host removes Knox, whose page stops for good.
    host.click("button.kick[data-kick='1']")
    guest.wait_for_selector("#connection:has-text('removed you')")
    assert guest.is_visible("#connection a[href='/']")
    seats = app.extensions["liarsdice_hub"].get(code).seats
    assert seats[0] is not None and seats[1] is None
    # The table goes away: the spectator's page tries again, learns the table is gone (close
    # code 4404; under this development server Chromium sees 1006, and the page's check of
    # /api/tables/<code> answers 404) and stops for good.
    table = app.extensions["liarsdice_hub"]._tables.pop(code)
    for conn in list(table.fanout.spectators):
        conn.abandon()
    stranger.wait_for_selector("#connection:has-text('no live table')")
    assert stranger.is_visible("#connection a[href='/']")
    assert not errors, errors
