"""Real WebSocket clients against a live server: full games, privacy, reconnection, hijacking."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from liarsdice.events import RoundStarted
from liarsdice_demo import history
from liarsdice_demo.db import connect
from liarsdice_demo.protocol import MAX_MESSAGE


def make_table(app: Any, **fields: Any) -> tuple[dict[str, Any], Any]:
    host = app.test_client()
    body = {"nickname": "Iris", "preset": "dudo", "seats": 4, "bot_kind": "random"}
    made = host.post("/api/tables", json={**body, **fields}).json
    assert made["ok"], made
    return made, host


def sit(app: Any, code: str, nickname: str) -> dict[str, Any]:
    sat = app.test_client().post(f"/api/tables/{code}/seat", json={"nickname": nickname}).json
    assert sat["ok"], sat
    return sat


def play_turn(player: Any, rng: random.Random) -> bool:
    """Act on the latest state if it is this player's turn; True if it acted."""
    states = [m for m in player.drain() if m["type"] == "state"]
    if not states:
        return False
    legal = states[-1]["legal"]
    if not legal:
        return False
    if legal["calls"] and (rng.random() < 0.4 or not legal["bids"]):
        player.send("call", kind=rng.choice(legal["calls"]))
    else:
        quantity, face = legal["bids"][0]
        player.send("bid", quantity=quantity, face=face)
    return True


def last_state(player: Any) -> dict[str, Any]:
    return [m for m in player.messages if m["type"] == "state"][-1]


def wait_until(condition: Any, timeout: float = 30.0, step: Any = None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        if step:
            step()
        time.sleep(0.01)


def test_full_game_with_bots_and_a_reconnect(app: Any, make_player: Any) -> None:
    made, _ = make_table(app, dice_per_player=2, turn_seconds=5, rated=True)
    code = made["code"]
    knox = sit(app, code, "Knox")
    iris = make_player(code, made["seat_token"])
    kp = make_player(code, knox["seat_token"])
    assert iris.expect("welcome")["seat"] == 0
    assert kp.expect("welcome")["name"] == "Knox"
    watcher = make_player(code)
    assert watcher.expect("welcome")["seat"] is None
    iris.send("start")
    hub = app.extensions["liarsdice_hub"]
    table = hub.get(code)
    wait_until(lambda: table.status == "playing")

    # Knox drops out; while he is away his turn times out as the rules say.
    kp.close()
    rng = random.Random(7)

    def knox_timed_out() -> bool:
        return any("Knox's clock ran out" in line for line in last_state(iris)["log"]) or (
            table.status == "over"
        )

    wait_until(knox_timed_out, timeout=40, step=lambda: play_turn(iris, rng))
    away = last_state(iris)["table"]["seats"][1]
    assert away["name"] == "Knox" and away["connected"] is False

    # He comes back with his seat token and gets his seat and his view back.
    back = make_player(code, knox["seat_token"])
    welcome = back.expect("welcome")
    assert welcome["seat"] == 1 and welcome["name"] == "Knox"
    state = back.expect("state")
    assert state["seat"] == 1 and state["view"]["viewer"] == "Knox"

    wait_until(
        lambda: table.status == "over",
        timeout=60,
        step=lambda: (play_turn(iris, rng), play_turn(back, rng)),
    )
    wait_until(lambda: table.game_id is not None)
    wait_until(lambda: last_state(watcher)["table"]["game_id"] is not None)
    final = last_state(watcher)
    winner = final["view"]["winner"]
    assert winner in {seat["name"] for seat in final["table"]["seats"]}
    assert f"{winner} wins the game!" in final["log"]
    assert final["table"]["ratings"] and set(final["table"]["ratings"]) == {
        seat["name"] for seat in final["table"]["seats"]
    }
    # No errors for the players who only acted on their own turns with legal moves.
    assert not [m for m in iris.messages if m["type"] == "error"]

    # Rematch: both humans ask, a new game starts.
    iris.send("rematch")
    back.send("rematch")
    wait_until(lambda: table.status == "playing")
    assert table.game_id is None


def test_a_seat_sees_no_other_players_dice_before_the_reveal(app: Any, make_player: Any) -> None:
    made, _ = make_table(app, preset="casino", seats=3, dice_per_player=3)
    code = made["code"]
    iris = make_player(code, made["seat_token"])
    iris.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(code)
    rng = random.Random(3)
    wait_until(lambda: table.status == "over", timeout=60, step=lambda: play_turn(iris, rng))
    wait_until(lambda: table.game_id is not None)
    conn = connect(app.config["DATABASE"])
    try:
        events = history.load_events(history.game(conn, table.game_id)["events"])
    finally:
        conn.close()
    rolls = {e.number: e.rolls for e in events if isinstance(e, RoundStarted)}
    checked = 0
    for message in iris.messages:
        if message["type"] != "state" or message["view"] is None:
            continue
        view = message["view"]
        assert view["viewer"] == "Iris"
        if view["resolution"] is not None:
            continue  # the cups are lifted: every roll of that round is public now
        assert view["revealed"] is None and message["reveal"] is None
        mine = list(rolls[view["round"]].get("Iris", ()))
        assert view["own_dice"] == (mine or None)
        others = [list(r) for name, r in rolls[view["round"]].items() if name != "Iris"]
        for found in int_lists({k: v for k, v in message.items() if k != "legal"}):
            assert found == mine or found not in others, f"another player's dice in {message}"
        checked += 1
    assert checked > 3


def int_lists(value: Any) -> list[list[int]]:
    """Every list of small ints anywhere in ``value``."""
    found: list[list[int]] = []
    if isinstance(value, dict):
        for item in value.values():
            found += int_lists(item)
    elif isinstance(value, list):
        if value and all(type(x) is int and 1 <= x <= 6 for x in value):
            found.append(value)
        for item in value:
            found += int_lists(item)
    return found


def test_a_seat_cannot_be_hijacked(app: Any, make_player: Any) -> None:
    made, _host = make_table(app, seats=2, bot_kind="none")
    code = made["code"]
    thief = make_player(code, "not-the-token")
    error = thief.expect("error")
    assert "seat token is not valid" in error["error"] and error["re"] == "hello"
    thief.send("start")
    assert "say hello first" in thief.expect("error")["error"]
    # As a spectator, the thief still cannot act.
    thief.send("hello")
    assert thief.expect("welcome")["seat"] is None
    thief.send("start")
    assert "spectators cannot act" in thief.expect("error")["error"]
    # The page shows the thief (another cookie) no token, and the host's token stays the host's.
    page = app.test_client().get(f"/t/{code}").get_data(as_text=True)
    assert made["seat_token"] not in page
    # A real second player can sit; the thief (full table) cannot.
    sit(app, code, "Knox")
    late = app.test_client().post(f"/api/tables/{code}/seat", json={"nickname": "Thief"})
    assert late.status_code == 409
    # Only the host may start.
    knox_token = app.extensions["liarsdice_hub"].get(code).seats[1].token
    knox = make_player(code, knox_token)
    knox.expect("welcome")
    knox.send("start")
    assert "only the table's host" in knox.expect("error")["error"]


def test_bad_messages_get_errors_and_change_nothing(app: Any, make_player: Any) -> None:
    made, _ = make_table(app, seats=3)
    code = made["code"]
    iris = make_player(code, made["seat_token"])
    iris.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(code)
    wait_until(lambda: table.status == "playing")
    cases = [
        ("not json", "malformed JSON"),
        ("[1, 2]", "a message is a JSON object"),
        (json.dumps({"v": 2, "type": "bid"}), "unsupported protocol version"),
        (json.dumps({"v": 1, "type": "teleport"}), "unknown message type"),
        (json.dumps({"v": 1, "type": "bid", "quantity": "3", "face": 5}), "must be a int"),
        ("x" * (MAX_MESSAGE + 1), "message too large"),
        (json.dumps({"v": 1, "type": "hello"}), "already greeted"),
        (json.dumps({"v": 1, "type": "bid", "quantity": 99, "face": 5}), ""),
        (json.dumps({"v": 1, "type": "call", "kind": "exact-ish"}), ""),
    ]
    for raw, needle in cases:
        iris.drain()
        before = list(table.game.events)
        iris.send_raw(raw)
        error = iris.expect("error")
        assert needle in error["error"]
        assert list(table.game.events) == before or not needle  # refused: nothing happened


def test_a_flood_is_throttled_and_other_tables_keep_moving(app: Any, make_player: Any) -> None:
    made, _ = make_table(app, seats=2, bot_kind="none")
    flooder = make_player(made["code"])
    flooder.expect("welcome")
    hub = app.extensions["liarsdice_hub"]
    from liarsdice_demo.composition import parse_config

    other = hub.create(parse_config({"preset": "dudo", "seats": 3}), start=True)
    for _ in range(300):
        flooder.send("ping")
    wait_until(lambda: other.status == "over", timeout=30)
    wait_until(lambda: any(m["type"] == "error" for m in flooder.messages), timeout=10)
    errors = [m for m in flooder.messages if m["type"] == "error"]
    assert "too many messages" in errors[0]["error"]
    pongs = [m for m in flooder.messages if m["type"] == "pong"]
    assert len(pongs) < 300


def test_reveal_names_the_counted_faces_and_spectators_see_no_dice(
    app: Any, make_player: Any
) -> None:
    made, _ = make_table(app, preset="casino", seats=3, dice_per_player=2)
    code = made["code"]
    iris = make_player(code, made["seat_token"])
    iris.expect("welcome")
    watcher = make_player(code)
    watcher.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(code)
    rng = random.Random(5)
    wait_until(lambda: table.status == "over", timeout=60, step=lambda: play_turn(iris, rng))
    offered = {
        call
        for m in iris.messages
        if m["type"] == "state" and m["legal"]
        for call in m["legal"]["calls"]
    }
    assert "exact" in offered  # calza is on at a casino table
    reveals = [m for m in watcher.messages if m["type"] == "reveal" and m["rolls"] is not None]
    assert reveals
    for reveal in reveals:
        face = reveal["bid"]["face"]
        assert reveal["matching_faces"] == sorted({1, face})  # ones are wild at the casino
        counted = sum(
            d in reveal["matching_faces"] for roll in reveal["rolls"].values() for d in roll
        )
        assert counted == reveal["count"]
        assert reveal["explanation"].startswith(reveal["caller"])
    for message in watcher.messages:
        if message["type"] == "state" and message["view"] is not None:
            assert message["view"]["own_dice"] is None and message["legal"] is None
            if message["view"]["resolution"] is None:
                assert message["view"]["revealed"] is None


def test_a_fourth_tab_replaces_the_oldest(app: Any, make_player: Any) -> None:
    made, _ = make_table(app, seats=2, bot_kind="none")
    tabs = []
    for _ in range(4):
        tab = make_player(made["code"], made["seat_token"])
        assert tab.expect("welcome")["seat"] == 0
        tabs.append(tab)
    wait_until(lambda: not tabs[0].ws.connected, timeout=10)
    assert all(tab.ws.connected for tab in tabs[1:])
    state = last_state(tabs[3])
    assert state["table"]["seats"][0]["connected"] is True
