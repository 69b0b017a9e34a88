"""Real WebSocket clients against a live server: full games, privacy, reconnection, hijacking."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections import Counter
from typing import Any

from simple_websocket import ConnectionClosed

from liarsdice.chance import RiggedRandom
from liarsdice.events import RoundStarted
from liarsdice.game import Game
from liarsdice_demo.edge.protocol import MAX_MESSAGE
from liarsdice_demo.storage import history
from liarsdice_demo.storage.db import engine_for

CASINO_RULES: dict[str, Any] = {
    "preset": None,
    "variants": ["revolver", "calza", "winner-opens"],
    "options": {"calza.reward": "table-pays"},
}
"""The casino preset's rules without the preset, which is for 5 dice each: for quick tables."""


def make_table(app: Any, **fields: Any) -> tuple[dict[str, Any], Any]:
    host = app.test_client()
    body = {"nickname": "Iris", "preset": "dudo", "seats": 4, "bot_kind": "random"}
    made = host.post("/api/tables", json={**body, **fields}).json
    assert made["ok"], made
    return made, host


def sit(app: Any, code: str, nickname: str) -> dict[str, Any]:
    key = app.extensions["liarsdice_hub"].get(code).join_key  # what the share link carries
    body = {"nickname": nickname, "key": key}
    sat = app.test_client().post(f"/api/tables/{code}/seat", json=body).json
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
    made, _ = make_table(
        app,
        preset=None,
        variants=["dice-loss", "calza"],
        dice_per_player=2,
        turn_seconds=5,
        rated=True,
    )
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

    # Knox drops out; while he is away a bot plays his turns after the grace.
    app.config.update(AWAY_GRACE=0.2)
    kp.close()
    rng = random.Random(7)

    def knox_stood_in() -> bool:
        log = last_state(iris)["log"]
        return "Knox is away: a bot plays for them" in log or table.status == "over"

    wait_until(knox_stood_in, timeout=40, step=lambda: play_turn(iris, rng))
    away = last_state(iris)["table"]["seats"][1]
    assert away["name"] == "Knox" and away["connected"] is False
    assert away["stand_in"] is True or table.status == "over"

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
    made, _ = make_table(app, **CASINO_RULES, seats=3, dice_per_player=3)
    code = made["code"]
    iris = make_player(code, made["seat_token"])
    iris.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(code)
    rng = random.Random(3)
    wait_until(lambda: table.status == "over", timeout=60, step=lambda: play_turn(iris, rng))
    wait_until(lambda: table.game_id is not None)
    with engine_for(app.config["DATABASE_URL"]).connect() as conn:
        events = history.load_events(history.game(conn, table.game_id)["events"])
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
    late = app.test_client().post(
        f"/api/tables/{code}/seat", json={"nickname": "Thief", "key": made["join_key"]}
    )
    assert late.status_code == 409
    # Only the host may start.
    live = app.extensions["liarsdice_hub"].get(code)
    knox_token = live.seat_token(live.seats[1])
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
    my_turn(iris)  # the first round is dealt: Iris opens it
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


def test_a_flood_is_throttled_then_closed_and_other_tables_keep_moving(
    app: Any, make_player: Any
) -> None:
    made, _ = make_table(app, seats=2, bot_kind="none")
    flooder = make_player(made["code"])
    flooder.expect("welcome")
    hub = app.extensions["liarsdice_hub"]
    from liarsdice_demo.tables.composition import parse_config

    other = hub.create(parse_config({"preset": "dudo", "seats": 3}), start=True)
    sent = 0
    with contextlib.suppress(ConnectionClosed, OSError):  # the server closes it mid-flood
        for _ in range(1000):
            flooder.send("ping")
            sent += 1
    wait_until(lambda: other.status == "over", timeout=30)
    wait_until(lambda: flooder.ws is not None and not flooder.ws.connected, timeout=10)
    assert flooder.ws is not None
    assert (flooder.ws.close_reason, flooder.ws.close_message) == (
        1008,
        "too many messages: closed",
    )
    wait_until(lambda: any(m["type"] == "error" for m in flooder.messages), timeout=10)
    errors = [m for m in flooder.messages if m["type"] == "error"]
    # Warned at the first message dropped after one let through; a loaded machine sends slowly
    # enough for the bucket to let one through mid-flood, and warns again.
    assert errors and {e["error"] for e in errors} == {"too many messages: slow down"}
    pongs = [m for m in flooder.messages if m["type"] == "pong"]
    assert len(pongs) <= 30  # the burst, then nothing


def test_reveal_names_the_counted_faces_and_spectators_see_no_dice(
    app: Any, make_player: Any
) -> None:
    made, _ = make_table(app, **CASINO_RULES, seats=3, dice_per_player=2)
    code = made["code"]
    iris = make_player(code, made["seat_token"])
    iris.expect("welcome")
    watcher = make_player(code)
    watcher.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(code)
    rng = random.Random(5)

    def offered() -> set[str]:
        return {
            call
            for m in iris.messages
            if m["type"] == "state" and m["legal"]
            for call in m["legal"]["calls"]
        }

    for _ in range(5):  # Iris may be out before anyone bids ahead of her: then play again
        wait_until(lambda: table.status == "over", timeout=60, step=lambda: play_turn(iris, rng))
        if offered():
            break
        iris.send("rematch")
        wait_until(lambda: table.status == "playing", timeout=10)
    assert "exact" in offered()  # calza is on at a casino table
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
    assert (tabs[0].ws.close_reason, tabs[0].ws.close_message) == (
        4409,
        "this seat is open in another tab: this one was closed",
    )
    state = tabs[3].expect("state")
    assert state["table"]["seats"][0]["connected"] is True


# --- payloads, face-up dice, calls that do not end the round ------------------------------------


def rig_dice(monkeypatch: Any, rounds: list[dict[str, list[int]]], rerolls: Any = ()) -> None:
    """Make tables deal ``rounds`` (one ``{player: roll}`` per round, in order) and draw the bluff
    rerolls ``rerolls`` (one list of faces per reroll), through the real table code."""
    queued = list(rounds)

    class RiggedGame(Game):
        def __init__(self, rules: Any, players: Any, rng: Any = None, **kwargs: Any) -> None:
            rigged = RiggedRandom(1)
            rigged.rig("reroll", rerolls)
            super().__init__(rules, players, rigged, **kwargs)

        def start_round(self, rolls: Any = None) -> Any:
            if rolls is None and queued:
                rolls = queued.pop(0)
            return super().start_round(rolls)

    monkeypatch.setattr("liarsdice_demo.tables.match.Game", RiggedGame)


def two_humans(app: Any, make_player: Any, variants: list[str]) -> tuple[Any, Any, Any, Any]:
    """A started table of Iris (seat 0, opens) and Knox, 3 dice each, no bots; and a spectator."""
    made, _ = make_table(
        app, preset=None, variants=variants, seats=2, bot_kind="none", dice_per_player=3
    )
    code = made["code"]
    knox = sit(app, code, "Knox")
    iris = make_player(code, made["seat_token"])
    iris.expect("welcome")
    kp = make_player(code, knox["seat_token"])
    kp.expect("welcome")
    watcher = make_player(code)
    watcher.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(code)
    wait_until(lambda: table.status == "playing")
    return table, iris, kp, watcher


def next_state(player: Any, condition: Any) -> dict[str, Any]:
    """The next state message (with a game view) for which ``condition(state)`` holds."""
    while True:
        state = player.expect("state")
        if state["view"] is not None and condition(state):
            return state


def my_turn(player: Any) -> dict[str, Any]:
    """The next state that offers this player a move."""
    return next_state(player, lambda state: state["legal"])


def received_until_pong(player: Any) -> list[dict[str, Any]]:
    """Everything ``player`` receives before the answer to a ping sent now: a socket's messages
    arrive in order, so whatever the server queued for it before the ping is in there."""
    ident = f"sync-{player.next_id}"
    assert player.ws is not None
    player.ws.send(json.dumps({"v": 1, "type": "ping", "id": ident}))
    found = []
    while True:
        message = player.inbox.get(timeout=10)
        if message["type"] == "pong" and message.get("id") == ident:
            return found
        found.append(message)


def bids_made(count: int) -> Any:
    return lambda state: len(state["view"]["bids"]) == count


def test_a_bluff_bid_shows_dice_to_all_and_rerolls_in_secret(
    app: Any, make_player: Any, monkeypatch: Any
) -> None:
    rig_dice(monkeypatch, [{"Iris": [5, 2, 3], "Knox": [3, 3, 1]}], rerolls=[[6, 4]])
    _table, iris, knox, watcher = two_humans(app, make_player, ["bluff", "dice-loss"])
    offer = my_turn(iris)["legal"]
    bluff = offer["payloads"]["bid"]["bluff"]
    assert {"show": [5]} in bluff and {"show": [2, 3]} in bluff
    assert {"show": [2, 3, 5]} not in bluff  # one die stays under the cup to be rerolled
    assert set(offer["payloads"]) == {"bid"}  # no call reads a payload at this table
    assert not [m for m in knox.messages if m["type"] == "state" and m["legal"]]

    iris.send("bid", quantity=2, face=5, payload={"bluff": {"show": [5]}})
    mine = next_state(iris, bids_made(1))
    assert mine["view"]["own_dice"] == [5, 6, 4]  # the owner sees the new faces
    assert mine["view"]["seats"][0]["shown"] == [5]
    seen = next_state(knox, bids_made(1))
    assert seen["view"]["seats"][0]["shown"] == [5] and seen["view"]["seats"][0]["dice"] == 3
    assert seen["view"]["own_dice"] == [3, 3, 1] and seen["view"]["revealed"] is None
    assert "Iris puts 1 die face up: 5" in seen["log"]
    assert "Iris rerolls 2 dice under the cup" in seen["log"]
    assert seen["legal"]["payloads"]["bid"]["bluff"][0] == {"show": [1]}  # Knox's own dice
    spectated = next_state(watcher, bids_made(1))
    assert spectated["view"]["seats"][0]["shown"] == [5] and spectated["view"]["own_dice"] is None

    # Before the cups are lifted, nothing Knox or the spectator got holds Iris's hidden dice,
    # before or after the reroll: only the die she put face up.
    hidden = [[2, 3], [3, 2], [6, 4], [4, 6], [5, 2, 3], [5, 6, 4]]
    for player, own in ((knox, [3, 3, 1]), (watcher, None)):
        for message in player.messages:
            offered = (message.get("legal") or {}).get("payloads", {}).get("bid", {})
            for choice in offered.get("bluff", []):  # a seat is offered only its own dice
                assert own is not None and not Counter(choice["show"]) - Counter(own)
            for found in int_lists({k: v for k, v in message.items() if k != "legal"}):
                assert found == own or found not in hidden, f"Iris's hidden dice in {message}"
            if message["type"] == "state" and message["view"]:
                assert message["view"]["private"] == {}
                assert message["view"]["revealed"] is None
                for line in message["log"]:
                    assert "6 4" not in line and "2 3" not in line, line

    # Once Knox calls, everyone sees the dice as they lie: face-up and rerolled alike.
    knox.send("call", kind="challenge")
    reveal = watcher.expect("reveal")
    assert reveal["rolls"]["Iris"] == [5, 6, 4] and reveal["count"] == 2
    assert not [m for m in iris.messages + knox.messages if m["type"] == "error"]


def test_pass_then_doubt(app: Any, make_player: Any, monkeypatch: Any) -> None:
    rounds = [
        {"Iris": [2, 3, 4], "Knox": [6, 6, 6]},  # Knox passes honestly
        {"Iris": [2, 2], "Knox": [3, 4, 5]},  # Knox passes with mixed dice
    ]
    rig_dice(monkeypatch, rounds)
    _table, iris, knox, watcher = two_humans(app, make_player, ["pass", "dice-loss"])
    assert "pass" not in my_turn(iris)["legal"]["calls"]  # the opener cannot pass
    iris.send("bid", quantity=2, face=3)
    offer = my_turn(knox)["legal"]
    assert offer["calls"] == ["challenge", "pass"] and offer["payloads"] == {}
    knox.send("call", kind="pass")
    answer = my_turn(iris)
    assert answer["legal"]["calls"] == ["doubt"]  # raise or doubt the pass, nothing else
    assert answer["view"]["turn"] == "Iris" and answer["view"]["bids"][-1]["player"] == "Iris"
    assert "Knox passes" in answer["log"]
    assert answer["view"]["private"] == {}  # Knox's secret is his own...
    own = next_state(knox, lambda state: state["view"]["private"])
    assert own["view"]["private"] == {"pass": {"Knox": {"honest": True}}}  # ...he sees it
    iris.send("call", kind="challenge")
    assert "Knox has just passed" in iris.expect("error", re="call")["error"]

    iris.send("call", kind="doubt")
    reveal = watcher.expect("reveal")
    assert (reveal["call"], reveal["success"], reveal["losers"]) == ("doubt", False, ["Iris"])
    assert reveal["explanation"] == (
        "Iris doubted the pass: Knox's dice were all alike — Iris loses the round"
    )
    assert reveal["rolls"]["Knox"] == [6, 6, 6]

    # Round 2: Iris (who lost) opens with 2 dice; Knox's pass is a lie this time.
    def round_two() -> bool:
        state = last_state(iris)
        return state["legal"] is not None and state["view"]["round"] == 2

    wait_until(round_two, timeout=10)
    iris.drain()
    iris.send("bid", quantity=1, face=4)
    next_state(knox, lambda state: state["legal"] and state["view"]["round"] == 2)
    knox.send("call", kind="pass")
    next_state(iris, lambda state: state["legal"] and state["legal"]["calls"] == ["doubt"])
    iris.send("call", kind="doubt")
    reveal = watcher.expect("reveal", round=2)
    assert (reveal["success"], reveal["losers"], reveal["winners"]) == (True, ["Knox"], ["Iris"])
    assert reveal["explanation"] == (
        "Iris doubted the pass: Knox's dice were not all alike — Knox loses the round"
    )
    wait_until(lambda: "Knox loses 1 die: lost the round" in last_state(watcher)["log"])
    assert not [m for m in knox.messages if m["type"] == "error"]


def test_a_malformed_payload_is_refused_and_changes_nothing(
    app: Any, make_player: Any, monkeypatch: Any
) -> None:
    rig_dice(monkeypatch, [{"Iris": [5, 2, 3], "Knox": [3, 3, 1]}])
    table, iris, knox, _watcher = two_humans(app, make_player, ["bluff", "dice-loss"])
    my_turn(iris)
    bid = {"v": 1, "type": "bid", "quantity": 2, "face": 5}
    deep: Any = [1]
    for _ in range(12):
        deep = [deep]
    cases = [
        ({**bid, "payload": [5]}, "field 'payload' must be a JSON object"),
        ({**bid, "payload": "bluff"}, "field 'payload' must be a JSON object"),
        ({"v": 1, "type": "call", "kind": "challenge", "payload": 3}, "must be a JSON object"),
        ({**bid, "payload": {"bluff": deep}}, "nested too deeply"),
        ({**bid, "payload": {"nope": {}}}, "payload 'nope' is not for bid"),
        ({**bid, "payload": {"bluff": [5]}}, 'bluff: the payload is {"show"'),
        ({**bid, "payload": {"bluff": {"show": [6]}}}, "only show dice from under your cup"),
        ({**bid, "payload": {"bluff": {"show": [5, 2, 3]}}}, "keep at least one die"),
    ]
    received_until_pong(knox)  # whatever was on its way to Knox has arrived
    for raw, needle in cases:
        iris.drain()
        before = list(table.game.events)
        iris.send_raw(json.dumps(raw))
        assert needle in iris.expect("error")["error"]
        assert list(table.game.events) == before
        assert table.game.state.round.turn == "Iris"
        news = received_until_pong(knox)
        assert not [m for m in news if m["type"] == "state"]  # nothing changed to broadcast
    iris.send("bid", quantity=2, face=5, payload={"bluff": {"show": [5, 5]}})
    assert "only show dice from under your cup" in iris.expect("error", re="bid")["error"]
    iris.send("bid", quantity=2, face=5, payload={})  # an empty payload is no payload
    assert next_state(knox, bids_made(1))["view"]["bids"] == [
        {"player": "Iris", "bid": {"quantity": 2, "face": 5}}
    ]
