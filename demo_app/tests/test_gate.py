"""The socket gate alone: caps, the opening rate, the message budget shared by a client's sockets,
the flood bar, and the server cap taken from the open-file limit."""

from __future__ import annotations

import resource
from typing import Any

import pytest

from liarsdice_demo.edge import gate as gate_module
from liarsdice_demo.edge.clients import key_for
from liarsdice_demo.edge.gate import (
    MeteredSocket,
    Refused,
    SocketGate,
    connection_capacity,
    socket_capacity,
)


def make(**overrides: Any) -> SocketGate:
    settings: dict[str, Any] = {
        "max_sockets": 100,
        "max_per_client": 3,
        "opens_rate": 0.001,
        "opens_burst": 10,
        "message_rate": 0.001,
        "message_burst": 5,
        "flood_penalty": 60.0,
    }
    return SocketGate(**{**settings, **overrides})


def refusal(gate: SocketGate, client: str) -> tuple[int, str]:
    with pytest.raises(Refused) as refused:
        gate.admit(client)
    return refused.value.code, refused.value.reason


def test_a_client_holds_at_most_its_cap_and_a_released_place_is_free_again() -> None:
    gate = make()
    for _ in range(3):
        gate.admit("a")
    code, reason = refusal(gate, "a")
    assert code == 1013 and "3 connections open" in reason
    gate.admit("b")  # another client is not affected
    gate.release("a")
    gate.admit("a")
    assert gate.open == 4
    assert refusal(gate, "a")[0] == 1013  # a holds 3 again: full
    gate.admit("b")  # b holds 2 of its 3


def test_the_server_cap_counts_every_client() -> None:
    gate = make(max_sockets=2)
    gate.admit("a")
    gate.admit("b")
    assert refusal(gate, "c") == (1013, "the server is full: try again later")
    assert gate.open == 2


def test_opening_sockets_too_fast_is_refused_even_after_closing_them() -> None:
    gate = make(opens_burst=4, max_per_client=100)
    for _ in range(4):
        gate.admit("a")
        gate.release("a")
    code, reason = refusal(gate, "a")
    assert code == 1013 and reason.startswith("too many connections opened: try again in ")
    assert gate.open == 0


def test_a_clients_sockets_share_one_message_budget() -> None:
    gate = make()
    gate.admit("a")
    gate.admit("a")
    gate.admit("b")
    allowed = sum(gate.allow_message("a") for _ in range(20))
    assert allowed == 5  # the burst, across both of a's sockets
    assert gate.allow_message("b")


def test_a_barred_client_stays_barred_until_the_penalty_ends(monkeypatch: Any) -> None:
    gate = make()
    gate.admit("a")
    assert gate.barred("a") == 0
    gate.bar("a")
    assert gate.barred("a") == pytest.approx(60, abs=1)
    assert gate.barred("b") == 0
    now = gate_module.time.monotonic()
    monkeypatch.setattr(gate_module.time, "monotonic", lambda: now + 61)
    assert gate.barred("a") == 0


def test_the_server_cap_follows_the_open_file_limit(monkeypatch: Any) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda which: (20000, 40000))
    assert connection_capacity() == 20000 - gate_module.RESERVED_FDS
    assert socket_capacity() == 20000 - gate_module.RESERVED_FDS - gate_module.PAGE_CONNECTIONS
    assert SocketGate.from_config({}).max_sockets == socket_capacity()
    assert SocketGate.from_config({"MAX_SOCKETS": 7}).max_sockets == 7


def test_a_client_is_its_ipv4_address_or_its_ipv6_64() -> None:
    assert key_for("203.0.113.7") == "203.0.113.7"
    assert key_for("2001:db8:1:2:aaaa::1") == key_for("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert key_for("2001:db8:1:3::1") != key_for("2001:db8:1:2::1")
    assert key_for("::ffff:198.51.100.4") == "198.51.100.4"
    assert key_for(None) == "?"


def test_reading_past_a_clients_byte_budget_waits_and_the_budget_is_shared(
    monkeypatch: Any,
) -> None:
    gate = make(byte_rate=1000.0, byte_burst=4000)
    gate.admit("a")
    gate.admit("b")

    class Raw:
        def recv(self, size: int) -> bytes:
            return b"x" * size

        def fileno(self) -> int:
            return 7

    slept: list[float] = []
    monkeypatch.setattr(gate_module.time, "sleep", slept.append)
    first, second = MeteredSocket(Raw(), gate, "a"), MeteredSocket(Raw(), gate, "a")
    first.recv(3000)
    assert slept == []  # within the burst
    second.recv(3000)  # the same client's other socket: 2000 bytes over
    assert slept == [gate_module.MAX_READ_DELAY]  # 2 s of debt, waited out a second at a time
    MeteredSocket(Raw(), gate, "b").recv(3000)  # another client has its own budget
    assert len(slept) == 1
    assert first.fileno() == 7  # everything else is the socket
