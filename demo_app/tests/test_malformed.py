"""Hostile and malformed WebSocket messages against a live server (issue 11): each one gets one
``error`` reply, nothing is logged as an error, and the socket keeps answering."""

from __future__ import annotations

import functools
import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liarsdice_demo.edge.connection import Connection
from liarsdice_demo.edge.protocol import (
    FIELDS,
    MAX_DEPTH,
    MAX_INT,
    MAX_MESSAGE,
    ProtocolError,
    encode,
    error,
    parse,
)
from liarsdice_demo.web import sockets

SERVER_TYPES = {"welcome", "state", "reveal", "error", "pong", "stopped"}


def make_table(app: Any) -> dict[str, Any]:
    made = (
        app.test_client()
        .post(
            "/api/tables",
            json={"nickname": "Iris", "preset": "dudo", "seats": 2, "bot_kind": "none"},
        )
        .json
    )
    assert made["ok"], made
    return made


def replies_until_pong(player: Any, tag: int, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Ping with id ``tag``; every message that arrives before its pong."""
    player.send_raw(json.dumps({"v": 1, "type": "ping", "id": tag}))
    found = []
    while True:
        data = player.inbox.get(timeout=timeout)
        if data.get("type") == "pong" and data.get("id") == tag:
            return found
        found.append(data)


def server_errors(caplog: Any) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.fixture
def unthrottled(app: Any, monkeypatch: Any) -> None:
    """Sockets without the rate limits, so a test can send many messages quickly."""
    monkeypatch.setattr(sockets, "Connection", functools.partial(Connection, rate=1e6, burst=10**6))
    gate = app.extensions[sockets.KEY]
    monkeypatch.setattr(gate, "message_rate", 1e6)
    monkeypatch.setattr(gate, "message_burst", 10**6)
    monkeypatch.setattr(gate, "byte_rate", 1e9)
    monkeypatch.setattr(gate, "byte_burst", 10**9)


@pytest.fixture
def seated(app: Any, make_player: Any, unthrottled: None) -> Any:
    made = make_table(app)
    iris = make_player(made["code"], made["seat_token"])
    assert iris.expect("welcome")["seat"] == 0
    replies_until_pong(iris, 0)  # the first state has arrived; the socket is quiet
    return iris


DEEP = "[" * 1000 + "]" * 1000
MALFORMED = [
    pytest.param(DEEP, "nested too deeply", id="2000-char-brackets"),
    pytest.param(
        json.dumps({"v": 1, "type": "ping", "x": json.loads("[" * 17 + "]" * 17)}),
        "nested too deeply",
        id="deep-in-an-object",
    ),
    pytest.param(json.dumps({"v": True, "type": "ping"}), "unsupported protocol", id="v-true"),
    pytest.param(json.dumps({"v": 1.0, "type": "ping"}), "unsupported protocol", id="v-float"),
    pytest.param(json.dumps({"v": "1", "type": "ping"}), "unsupported protocol", id="v-string"),
    pytest.param(json.dumps([{"v": 1, "type": "ping"}]), "a message is a JSON object", id="list"),
    pytest.param('"ping"', "a message is a JSON object", id="string"),
    pytest.param("null", "a message is a JSON object", id="null"),
    pytest.param("x" * (MAX_MESSAGE + 1), "message too large", id="oversized"),
    pytest.param("[" * (MAX_MESSAGE + 1), "message too large", id="oversized-deep"),
    pytest.param("{", "malformed JSON", id="truncated"),
    pytest.param(json.dumps({"v": 1, "type": "x" * 1000}), "unknown message type", id="long-type"),
    pytest.param(
        json.dumps({"v": 1, "type": "bid", "quantity": True, "face": 5}),
        "must be a int",
        id="bool-quantity",
    ),
]


@pytest.mark.parametrize(("raw", "needle"), MALFORMED)
def test_a_malformed_message_gets_one_error_and_the_socket_survives(
    seated: Any, caplog: Any, raw: str, needle: str
) -> None:
    caplog.set_level(logging.INFO)
    seated.send_raw(raw)
    replies = replies_until_pong(seated, 1)
    assert [m["type"] for m in replies] == ["error"]
    assert needle in replies[0]["error"]
    assert len(replies[0]["error"]) < 200  # the client's text is not echoed in bulk
    assert replies_until_pong(seated, 2) == []  # still answering
    assert server_errors(caplog) == []


@pytest.mark.parametrize("token", ["ümlaut-token", "\u2603" * 30, "tok\x00en"])
def test_a_non_ascii_seat_token_is_refused_and_hello_works_after(
    app: Any, make_player: Any, caplog: Any, token: str
) -> None:
    caplog.set_level(logging.INFO)
    made = make_table(app)
    thief = make_player(made["code"], hello=False)
    thief.send_raw(json.dumps({"v": 1, "type": "hello", "seat_token": token, "id": 7}))
    error = thief.expect("error", re="hello")
    assert "seat token is not valid" in error["error"] and error["id"] == 7
    thief.send_raw(DEEP)  # and before hello, the deep message is refused too
    assert "nested too deeply" in thief.expect("error")["error"]
    thief.send_raw(json.dumps({"v": 1, "type": "hello", "seat_token": made["seat_token"]}))
    assert thief.expect("welcome")["seat"] == 0
    assert server_errors(caplog) == []


def ping(**fields: Any) -> str:
    return json.dumps({"v": 1, "type": "ping", **fields})


SURROGATE = "text must be valid Unicode"
TOO_BIG = f"integers are at most {MAX_INT} in size"
NOT_FINITE = "numbers must be finite"
UNENCODABLE = [
    pytest.param(ping(id="\ud800"), "field 'id': " + SURROGATE, id="id-lone-surrogate"),
    pytest.param(ping(id="ok\udfff"), "field 'id': " + SURROGATE, id="id-low-surrogate"),
    pytest.param(ping(id=2**64), "field 'id': " + TOO_BIG, id="id-2**64"),
    pytest.param(ping(id=-(2**63) - 1), "field 'id': " + TOO_BIG, id="id-below-int64"),
    pytest.param(ping(id=MAX_INT + 1), "field 'id': " + TOO_BIG, id="id-2**53"),
    pytest.param(ping(id=10**2000), "field 'id': " + TOO_BIG, id="id-2000-digits"),
    pytest.param(ping(id=float("nan")), "field 'id': " + NOT_FINITE, id="id-NaN"),
    pytest.param(ping(id=float("inf")), "field 'id': " + NOT_FINITE, id="id-Infinity"),
    pytest.param(ping(x=[float("-inf")]), "field 'x': " + NOT_FINITE, id="minus-Infinity"),
    pytest.param(
        '{"v": 1, "type": "ping", "x": 1e400}', "field 'x': " + NOT_FINITE, id="1e400-overflows"
    ),
    pytest.param(ping(**{"\ud800": 1}), "a field name: " + SURROGATE, id="key-surrogate"),
    pytest.param(
        json.dumps({"v": 1, "type": "call", "kind": "\ud800"}),
        "field 'kind': " + SURROGATE,
        id="call-kind",
    ),
    pytest.param(
        json.dumps({"v": 1, "type": "hello", "seat_token": "\ud800"}),
        "field 'seat_token': " + SURROGATE,
        id="seat-token",
    ),
    pytest.param(
        json.dumps({"v": 1, "type": "bid", "quantity": 1, "face": 2, "payload": {"x": [2**64]}}),
        "field 'payload': " + TOO_BIG,
        id="payload-int",
    ),
    pytest.param(
        json.dumps({"v": 1, "type": "bid", "quantity": 1, "face": 2, "payload": {"\udc00": 1}}),
        "field 'payload': " + SURROGATE,
        id="payload-key",
    ),
    pytest.param(
        json.dumps({"v": 1, "type": "bid", "quantity": 2**64, "face": 2}),
        "field 'quantity': " + TOO_BIG,
        id="bid-quantity",
    ),
]


@pytest.mark.parametrize(("raw", "expected"), UNENCODABLE)
def test_a_value_that_cannot_be_encoded_is_a_protocol_error(raw: str, expected: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse(raw)
    assert str(refused.value).startswith(expected)
    encode(error(str(refused.value)))  # and the reply itself encodes


def test_the_largest_exact_integers_and_any_valid_text_pass() -> None:
    assert parse(ping(id=MAX_INT)).id == MAX_INT
    assert parse(ping(id=-MAX_INT)).id == -MAX_INT
    assert parse(ping(id="\U0001f3b2 \u2603")).id == "\U0001f3b2 \u2603"  # a pair is fine
    bid = parse(
        json.dumps({"v": 1, "type": "bid", "quantity": 1, "face": 2, "payload": {"x": 1.5}})
    )
    assert bid.fields["payload"] == {"x": 1.5}


@pytest.mark.parametrize(("raw", "expected"), UNENCODABLE)
def test_an_unencodable_message_gets_an_error_each_time_and_logs_nothing(
    seated: Any, caplog: Any, raw: str, expected: str
) -> None:
    caplog.set_level(logging.INFO)
    for tag in range(10, 15):  # the same message, again and again
        seated.send_raw(raw)
        replies = replies_until_pong(seated, tag)
        assert [(m["type"], m["error"][: len(expected)]) for m in replies] == [("error", expected)]
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_bug_tripped_again_and_again_is_logged_once_per_client(
    app: Any, seated: Any, caplog: Any, monkeypatch: Any
) -> None:
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(sockets, "bugs_logged", sockets.LogOnce())
    with app.app_context():
        table = app.extensions["liarsdice_hub"].get(seated.code)

    def broken(conn: Any, intent: Any) -> None:
        raise RuntimeError("a bug in the server")

    monkeypatch.setattr(table, "handle", broken)
    for tag in range(20, 30):
        seated.send_raw(json.dumps({"v": 1, "type": "start"}))
        replies = replies_until_pong(seated, tag)
        assert [m["error"] for m in replies] == ["internal error: the message was not handled"]
    assert len(server_errors(caplog)) == 1


def test_the_depth_cap_ignores_brackets_inside_strings(seated: Any) -> None:
    seated.send_raw(json.dumps({"v": 1, "type": "ping", "id": 3, "note": "[" * 500}))
    assert seated.expect("pong")["id"] == 3
    nested: Any = 1
    for _ in range(MAX_DEPTH - 1):  # the message object is level 1
        nested = [nested]
    seated.send_raw(json.dumps({"v": 1, "type": "ping", "id": 4, "x": nested}))
    assert seated.expect("pong")["id"] == 4


def test_a_huge_game_id_is_not_found(client: Any) -> None:
    assert client.get("/games/99999999999999999999999").status_code == 404
    assert client.get(f"/games/{2**63}").status_code == 404
    assert client.get(f"/games/{2**63 - 1}").status_code == 404


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
FIELD_NAMES = sorted({name for fields in FIELDS.values() for name in fields} | {"id"})
MESSAGES = JSON | st.builds(
    lambda v, kind, extra: {**extra, "v": v, "type": kind},
    st.one_of(st.just(1), JSON),
    st.sampled_from([*FIELDS, "teleport"]) | JSON,
    st.dictionaries(st.sampled_from(FIELD_NAMES), JSON, max_size=4),
)


def test_fuzzed_messages_get_valid_replies_and_log_no_errors(seated: Any, caplog: Any) -> None:
    caplog.set_level(logging.INFO)
    tags = iter(range(1000, 10**6))

    @settings(
        max_examples=50,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(MESSAGES)
    def check(value: Any) -> None:
        seated.send_raw(json.dumps(value))
        for reply in replies_until_pong(seated, next(tags)):
            assert reply.get("v") == 1 and reply.get("type") in SERVER_TYPES, reply
            if reply["type"] == "error":
                assert isinstance(reply["error"], str) and reply["error"]
                assert "internal error" not in reply["error"]

    check()
    assert server_errors(caplog) == []


@pytest.mark.parametrize("path", ["/api/validate", "/api/tables"])
def test_a_deeply_nested_json_body_is_refused_without_a_traceback(
    client: Any, caplog: Any, path: str
) -> None:
    body = '{"a":' + "[" * 5000 + "]" * 5000 + "}"
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 422
    assert not server_errors(caplog)


def test_a_bot_kind_that_is_not_text_is_refused(client: Any, caplog: Any) -> None:
    for kind in ([1], {"a": 1}, 3):
        response = client.post(
            "/api/tables", json={"nickname": "Iris", "preset": "dudo", "bot_kind": kind}
        )
        assert response.status_code == 422
        assert "bot kind" in response.get_json()["error"]
    assert not server_errors(caplog)


def test_the_lobby_shows_no_text_from_the_address_bar(client: Any) -> None:
    page = client.get("/?error=Your+account+is+locked&missing=ABCDEFGHIJK").get_data(as_text=True)
    assert "account is locked" not in page
    assert "No live table has the code ABCDEFGH." in page
