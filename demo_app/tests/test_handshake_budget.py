"""The handshake budget: handshakes spend at most their share of the process's CPU, are let
through one at a time when the event loop is idle, and wait rather than being refused.

The unit tests drive :class:`CpuBudget` and :class:`HandshakeBudget` with a fake clock, CPU clock,
sleep and idle wait (no wall-clock assertions), and the door with a recording app; the served test
holds a handshake in the real server's budget while an established socket is answered.
"""

from __future__ import annotations

import select
import socket
import threading
from typing import Any

import gevent
import pytest
from gevent import socket as green_socket

from liarsdice_demo import create_app
from liarsdice_demo.edge.handshake_budget import CpuBudget, HandshakeBudget
from liarsdice_demo.edge.handshakes import TICKET, HandshakeDoor

from .conftest import SETTINGS, WSPlayer, handshake_request
from .test_handshake_storm import Recorder, call, gate
from .test_served import Serve, post, serve  # noqa: F401 - the fixture


class Fakes:
    """A wall clock and a CPU clock that move only when told, and a sleep and an idle wait that
    record their calls (the sleep moves the wall clock)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.cpu_now = 0.0
        self.calls: list[tuple[str, float]] = []

    def clock(self) -> float:
        return self.now

    def cpu(self) -> float:
        return self.cpu_now

    def sleep(self, seconds: float) -> None:
        self.calls.append(("sleep", seconds))
        self.now += seconds

    def idle(self) -> None:
        self.calls.append(("idle", self.now))

    def budget(self, share: float = 0.5, burst: float = 0.01, waiting: int = 8) -> HandshakeBudget:
        return HandshakeBudget(
            share,
            burst,
            waiting,
            clock=self.clock,
            cpu=self.cpu,
            sleep=self.sleep,
            idle=self.idle,
        )


def test_the_cpu_budget_refills_at_its_share_up_to_its_burst() -> None:
    fakes = Fakes()
    budget = CpuBudget(0.5, 0.01, fakes.clock)
    assert budget.balance == pytest.approx(0.01) and budget.debt() == 0
    budget.charge(0.03)  # 30 ms of CPU: 20 ms in debt, paid back at 0.5 s of CPU per second
    assert budget.balance == pytest.approx(-0.02)
    assert budget.debt() == pytest.approx(0.04)
    fakes.now += 0.03
    assert budget.debt() == pytest.approx(0.01)
    fakes.now += 10  # never more than the burst
    assert budget.balance == pytest.approx(0.01)
    budget.charge(-5.0)  # a CPU clock read backwards is no credit
    assert budget.balance == pytest.approx(0.01)


@pytest.mark.parametrize(
    ("share", "burst", "waiting", "words"),
    [
        (0, 0.01, 8, "share must be in (0, 1]"),
        (1.5, 0.01, 8, "share must be in (0, 1]"),
        (0.5, 0, 8, "burst must be positive"),
        (0.5, 0.01, 0, "at least one handshake must be able to wait"),
    ],
)
def test_a_bad_setting_is_refused_with_its_reason(
    share: float, burst: float, waiting: int, words: str
) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace("]", r"\]")):
        HandshakeBudget(share, burst, waiting)


def test_the_app_refuses_a_bad_handshake_budget(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="handshake CPU share"):
        create_app({**SETTINGS, "DATABASE": str(tmp_path / "x.sqlite"), "HANDSHAKE_CPU_SHARE": 2})


def test_a_handshake_waits_out_the_debt_then_for_the_idle_loop_and_is_charged_its_cpu() -> None:
    fakes = Fakes()
    budget = fakes.budget(share=0.5, burst=0.01)
    first = budget.wait_turn()
    assert first is not None and fakes.calls == [("idle", 0.0)]  # in budget: only the idle wait
    fakes.cpu_now += 0.03  # the handshake spent 30 ms of CPU
    first.done()
    first.done()  # charged once
    assert budget.debt() == pytest.approx(0.04)
    fakes.calls.clear()
    second = budget.wait_turn()
    assert second is not None
    assert fakes.calls[0] == ("sleep", pytest.approx(0.04))  # the debt first, then the idle loop
    assert fakes.calls[-1] == ("idle", pytest.approx(0.04))
    assert all(kind == "sleep" for kind, _ in fakes.calls[:-1])
    second.done()  # no CPU spent: nothing charged
    assert budget.debt() == 0 and budget.waiting == 0


def test_under_gevent_every_pending_read_and_wake_up_goes_before_a_handshake() -> None:
    """Ordering, not timing: a handshake asking first gets its turn only once the established
    greenlets' wake-ups and their sockets' reads have all run."""
    order: list[str] = []
    budget = HandshakeBudget(0.5, 0.01, 8, sleep=gevent.sleep, idle=gevent.idle)
    ours, theirs = green_socket.socketpair()

    def handshake() -> None:
        assert budget.wait_turn() is not None
        order.append("handshake")

    def established(name: str) -> None:
        for step in range(3):
            order.append(f"{name}{step}")
            gevent.sleep(0)

    def reader() -> None:
        for step in range(3):
            ours.recv(1)
            order.append(f"read{step}")

    def writer() -> None:
        for _ in range(3):
            theirs.send(b"x")
            gevent.sleep(0)

    try:
        jobs = [gevent.spawn(handshake)]
        jobs += [gevent.spawn(established, n) for n in "ab"]
        jobs += [gevent.spawn(reader), gevent.spawn(writer)]
        gevent.joinall(jobs, timeout=30, raise_error=True)
    finally:
        ours.close()
        theirs.close()
    assert order[-1] == "handshake", order
    assert sorted(order[:-1]) == sorted(
        [*(f"{n}{i}" for n in "ab" for i in range(3)), *(f"read{i}" for i in range(3))]
    )


def test_past_its_count_of_waiting_handshakes_the_budget_says_no_at_once() -> None:
    fakes = Fakes()
    entered, release = threading.Event(), threading.Event()

    def idle() -> None:  # the event loop stays busy until the test says so
        entered.set()
        release.wait(30)

    budget = HandshakeBudget(0.5, 0.01, 1, clock=fakes.clock, cpu=fakes.cpu, idle=idle)
    tickets: list[Any] = []
    waiter = threading.Thread(target=lambda: tickets.append(budget.wait_turn()))
    waiter.start()
    try:
        assert entered.wait(30) and budget.waiting == 1
        assert budget.wait_turn() is None  # refused, not queued
    finally:
        release.set()
        waiter.join(30)
    assert tickets and tickets[0] is not None and budget.waiting == 0


def test_the_door_lets_a_handshake_in_on_its_turn_and_charges_it_when_the_app_returns() -> None:
    fakes = Fakes()
    budget = fakes.budget(share=0.5, burst=0.01)

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        assert environ[TICKET] is not None and fakes.calls == [("idle", 0.0)]
        fakes.cpu_now += 0.02  # the handshake's work
        start_response("200 OK", [])
        return [b"app"]

    door = HandshakeDoor(app, gate(), tarpit=0, by_peer=True, budget=budget)
    assert call(door, "/ws/ABC")[0] == "200 OK"
    assert budget.debt() == pytest.approx(0.02)  # charged though the app never ended the ticket
    page = Recorder()
    assert call(HandshakeDoor(page, gate(), 0, True, budget), "/lobby")[0] == "200 OK"
    assert TICKET not in page.seen[0]  # pages do not wait in the handshake budget


def test_the_door_answers_503_when_too_many_handshakes_wait() -> None:
    fakes = Fakes()
    entered, release = threading.Event(), threading.Event()

    def idle() -> None:
        entered.set()
        release.wait(30)

    budget = HandshakeBudget(0.5, 0.01, 1, clock=fakes.clock, cpu=fakes.cpu, idle=idle)
    inner = Recorder()
    door = HandshakeDoor(inner, gate(opens_burst=5), tarpit=0, by_peer=True, budget=budget)
    waiting = threading.Thread(target=call, args=(door, "/ws/ABC"))
    waiting.start()
    try:
        assert entered.wait(30)
        status, headers, body = call(door, "/ws/ABC", address="198.51.100.1")
        assert status == "503 Service Unavailable" and not inner.seen
        assert body.decode() == "the server is busy: try again in a moment\n"
        assert headers["Retry-After"] == "5"
    finally:
        release.set()
        waiting.join(30)
    assert len(inner.seen) == 1  # the waiting one was let in, not refused


def handshake_answer(sock: socket.socket, timeout: float) -> bytes:
    """What the server answered a handshake sent on ``sock`` within ``timeout`` (b"" if nothing)."""
    ready, _, _ = select.select([sock], [], [], timeout)
    return sock.recv(4096) if ready else b""


def test_a_served_handshake_waits_in_the_budget_while_an_established_socket_is_answered(
    serve: Serve,  # noqa: F811
) -> None:
    # 0.05 % of a CPU second per second: the first handshake's work (about a millisecond)
    # puts the budget a second or more in debt, so the next handshake waits that long
    host = serve(HANDSHAKE_CPU_SHARE=0.0005, HANDSHAKE_CPU_BURST=0.0001)
    status, made = post(host, "/api/tables", {"nickname": "Iris", "preset": "dudo", "seats": 2})
    assert status == 200, made
    established = WSPlayer(host, made["code"]).connect()
    name, port = host.split(":")
    newcomer = socket.create_connection((name, int(port)), 10)
    try:
        established.expect("welcome")
        newcomer.sendall(handshake_request(host, f"/ws/{made['code']}"))
        for n in range(3):  # answered while the newcomer waits
            established.send("ping", id=n + 1)
            assert established.expect("pong", id=n + 1)
        assert handshake_answer(newcomer, 0) == b""  # not answered yet, and not refused
        answer = handshake_answer(newcomer, 60)
        assert answer.startswith(b"HTTP/1.1 101 Switching Protocols"), answer
    finally:
        newcomer.close()
        established.close()
