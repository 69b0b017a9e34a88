"""What players and the API get when the demo's Redis goes away, and what a Redis loss costs.

Usage: uv run python benchmarks/demo_outage.py outage [--mover knox|iris] [--how kill|stop]
       uv run python benchmarks/demo_outage.py loss [--aof yes|no]

Starts a real ``redis-server`` on a free port in a temporary folder and real ``liarsdice-demo``
servers (subprocesses, as documented for hosting) sharing it and one SQLite file.

``outage``: two processes, A and B; Iris plays through A, Knox through B, at one two-seat table,
and a spectator watches through B. ``redis-server`` is killed (SIGKILL; ``--how stop``: frozen
with SIGSTOP, as a host that stops answering, then resumed with SIGCONT) while it is a player's
turn, and that player (``--mover``: Knox, on the process that does not drive the table, by
default) bids at once. Prints how long the bid took to be refused (an error reply or a closed
socket), the close code each socket got and when, what ``GET /api/tables/<code>`` and ``GET
/api/health`` answer on each process (status, type, ``Retry-After``) once the sockets are closed
(or 8 s on), and how a socket opened then is answered (1005 is simple-websocket's client missing
a close frame that came with the handshake's answer: the server sent 1013); then starts Redis
again and says whether the players get their table back.

``loss``: one process, Redis with ``--appendonly yes`` or without (``--aof no``: the server is
then started with ``LIARSDICE_DEMO_ALLOW_REDIS_WITHOUT_AOF``); a game is played a few moves, then
``redis-server`` is killed with SIGKILL and started again on the same folder; prints whether the
player's socket gets the table back (the same dice and bids) or is closed (4404: the game is lost).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from simple_websocket import Client, ConnectionClosed

VERBS = {"kill": "killed (SIGKILL)", "stop": "frozen (SIGSTOP)"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_redis(folder: Path, port: int, aof: bool) -> subprocess.Popen[bytes]:
    """``redis-server`` on ``port``, its files in ``folder``, with AOF or with no persistence."""
    cmd = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)]
    cmd += ["--save", "", "--appendonly", "yes" if aof else "no"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            time.sleep(0.3)  # loading the AOF
            return proc
        assert time.monotonic() < deadline, "redis-server did not start"
        time.sleep(0.05)


def start_demo(folder: Path, redis_url: str, env: dict[str, str]) -> tuple[str, Any]:
    """A ``liarsdice-demo`` process on a free port; its host once it answers, and the process."""
    port = free_port()
    cmd = [sys.executable, "-m", "liarsdice_demo", "--port", str(port)]
    cmd += ["--db", str(folder / "demo.sqlite"), "--redis", redis_url]
    log = open(folder / f"demo-{port}.log", "wb")  # noqa: SIM115
    settings = {"LIARSDICE_DEMO_BOT_DELAY": "0.2", "LIARSDICE_DEMO_REVEAL_PAUSE": "1", **env}
    proc = subprocess.Popen(
        cmd, env={**os.environ, **settings}, stdout=log, stderr=subprocess.STDOUT
    )
    host = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://{host}/api/catalog", timeout=2).close()
            return host, proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                sys.exit((folder / f"demo-{port}.log").read_text())
            time.sleep(0.2)


def fetch(host: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, str, Any]:
    """Status, ``Content-Type`` and ``Retry-After`` of a request (JSON body: POST), and its body."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://{host}{path}", data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            text, status, headers = answer.read(), answer.status, answer.headers
    except urllib.error.HTTPError as refused:
        text, status, headers = refused.read(), refused.code, refused.headers
    kind = headers.get("Content-Type", "").split(";")[0]
    shown = f"{status} {kind} Retry-After={headers.get('Retry-After')}"
    return status, shown, json.loads(text) if kind == "application/json" else None


class Player:
    """A socket of one seat (or a spectator): every message, and when and how it closed."""

    def __init__(self, host: str, code: str, token: str | None) -> None:
        self.ws = Client.connect(f"ws://{host}/ws/{code}")
        self.messages: list[tuple[float, dict[str, Any]]] = []
        self.closed: tuple[float, int | None, str] | None = None
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        with contextlib.suppress(ConnectionClosed):  # closed at once: an outage
            self.send("hello", **({"seat_token": token} if token else {}))

    def _read(self) -> None:
        while True:
            try:
                raw = self.ws.receive()
            except ConnectionClosed:
                raw = None
            if raw is None:
                self.closed = (time.monotonic(), self.ws.close_reason, self.ws.close_message)
                return
            self.messages.append((time.monotonic(), json.loads(raw)))

    def send(self, kind: str, **fields: Any) -> None:
        self.ws.send(json.dumps({"v": 1, "type": kind, "id": self.next_id, **fields}))
        self.next_id += 1

    def state(self) -> dict[str, Any] | None:
        states = [m for _, m in self.messages if m["type"] == "state"]
        return states[-1] if states else None

    def since(self, moment: float) -> list[dict[str, Any]]:
        return [m for at, m in self.messages if at >= moment]


def wait(condition: Any, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def on_turn(player: Player) -> bool:
    state = player.state()
    return bool(state and state["legal"] and state["legal"]["bids"])


def bid(player: Player) -> None:
    """``player`` makes the lowest legal bid (its messages so far are forgotten)."""
    state = player.state()
    assert state is not None and state["legal"]
    player.messages.clear()
    quantity, face = state["legal"]["bids"][0]
    player.send("bid", quantity=quantity, face=face)


def outage(folder: Path, who: str, how: str) -> None:
    redis_port = free_port()
    server = start_redis(folder, redis_port, aof=True)
    url = f"redis://127.0.0.1:{redis_port}/0"
    (a, proc_a), (b, proc_b) = start_demo(folder, url, {}), start_demo(folder, url, {})
    try:
        body = {
            "nickname": "Iris",
            "preset": "dudo",
            "seats": 2,
            "turn_seconds": 120,
            "public": True,
        }
        _, _, made = fetch(a, "/api/tables", body)
        code = made["code"]
        _, _, sat = fetch(b, f"/api/tables/{code}/seat", {"nickname": "Knox"})
        iris, knox = Player(a, code, made["seat_token"]), Player(b, code, sat["seat_token"])
        watcher = Player(b, code, None)
        wait(lambda: iris.state() is not None and knox.state() is not None)
        iris.send("start")
        mover = iris if who == "iris" else knox
        other = knox if mover is iris else iris
        while not on_turn(mover):  # the other one bids until it is the mover's turn
            if wait(lambda: on_turn(other) or on_turn(mover)) and on_turn(other):
                bid(other)
        print(
            f"table {code}: Iris on A, Knox and a spectator on B;"
            f" {'Iris' if mover is iris else 'Knox'} to bid"
        )
        for name, host in (("A", a), ("B", b)):
            print(f"  before: {name} /api/health: {fetch(host, '/api/health')[1]}")
        server.send_signal(signal.SIGKILL if how == "kill" else signal.SIGSTOP)
        if how == "kill":
            server.wait(10)
        stopped = time.monotonic()
        bid(mover)
        wait(
            lambda: (
                mover.closed is not None or any(m["type"] == "error" for m in mover.since(stopped))
            ),
            30,
        )
        refused = [m for m in mover.since(stopped) if m["type"] == "error"]
        done = refused and next(at for at, m in mover.messages if m is refused[0])
        done = done or (mover.closed[0] if mover.closed else None)
        print(
            f"redis-server {VERBS[how]}; the bid was refused after {done - stopped:.2f} s"
            if done
            else "the bid was never refused"
        )
        if refused:
            print(f"  the error: {refused[0]['error']!r}")
        wait(lambda: all(p.closed for p in (iris, knox, watcher)), 8)
        for who, player in (("Iris (A)", iris), ("Knox (B)", knox), ("spectator (B)", watcher)):
            if player.closed:
                at, closed_code, reason = player.closed
                print(f"  {who}: closed {closed_code} after {at - stopped:.2f} s ({reason})")
            else:
                got = [m["type"] for m in player.since(stopped)]
                print(f"  {who}: still open 8 s on, sent {got}")
        for name, host in (("A", a), ("B", b)):
            print(f"  {name} GET /api/tables/{code}: {fetch(host, f'/api/tables/{code}')[1]}")
            print(f"  {name} GET /api/health: {fetch(host, '/api/health')[1]}")
        for name, host in (("A", a), ("B", b)):
            asked = time.monotonic()
            late = Player(host, code, sat["seat_token"])
            wait(lambda late=late: late.closed is not None, 10)
            answer = f"closed {late.closed[1]}" if late.closed else "still open"
            print(
                f"  a socket opened on {name} during the outage: {answer} after"
                f" {time.monotonic() - asked:.2f} s"
            )
        if how == "kill":
            server = start_redis(folder, redis_port, aof=True)
        else:
            server.send_signal(signal.SIGCONT)
        back = time.monotonic()
        again = None

        def reconnected() -> bool:
            nonlocal again
            with contextlib.suppress(Exception):
                again = Player(b, code, sat["seat_token"])
                if wait(lambda: again.state() is not None or again.closed is not None, 3):
                    return again.state() is not None
            return False

        ok = wait(reconnected, 30)
        print(
            f"redis-server started again: Knox has the table back after"
            f" {time.monotonic() - back:.2f} s"
            if ok
            else "the table did not come back"
        )
        for name, host in (("A", a), ("B", b)):
            print(f"  after: {name} /api/health: {fetch(host, '/api/health')[1]}")
    finally:
        for proc in (proc_a, proc_b, server):
            proc.terminate()
            proc.wait(20)


def loss(folder: Path, aof: bool) -> None:
    redis_port = free_port()
    server = start_redis(folder, redis_port, aof)
    env = {} if aof else {"LIARSDICE_DEMO_ALLOW_REDIS_WITHOUT_AOF": "true"}
    host, demo = start_demo(folder, f"redis://127.0.0.1:{redis_port}/0", env)
    try:
        body = {"nickname": "Iris", "preset": "dudo", "seats": 3, "turn_seconds": 120}
        _, _, made = fetch(host, "/api/tables", body)
        iris = Player(host, made["code"], made["seat_token"])
        wait(lambda: iris.state() is not None)
        iris.send("start")
        for _ in range(2):
            wait(lambda: on_turn(iris))
            bid(iris)
        wait(lambda: on_turn(iris))
        before = iris.state()
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        killed = time.monotonic()
        server = start_redis(folder, redis_port, aof)
        print(
            f"redis-server (appendonly {'yes' if aof else 'no'}) killed with SIGKILL and"
            f" started again in {time.monotonic() - killed:.2f} s"
        )
        wait(lambda: iris.closed is not None, 10)
        print(f"  Iris's socket: {iris.closed[1:] if iris.closed else 'still open'}")
        again = None

        def answered() -> bool:
            nonlocal again
            again = Player(host, made["code"], made["seat_token"])
            wait(lambda: again.state() is not None or again.closed is not None, 5)
            return again.state() is not None or again.closed[1] != 1013

        wait(answered, 30)
        state = again.state()
        if state is not None:
            kept = state["view"]["bids"] == before["view"]["bids"]
            print(
                f"  reconnected: the game is kept (same bids: {kept}, same dice:"
                f" {state['view']['own_dice'] == before['view']['own_dice']})"
            )
        else:
            print(f"  reconnected: closed {again.closed[1]} ({again.closed[2]}): the game is lost")
    finally:
        demo.terminate()
        demo.wait(20)
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("drill", choices=["outage", "loss"])
    parser.add_argument("--aof", choices=["yes", "no"], default="yes")
    parser.add_argument(
        "--how", choices=["kill", "stop"], default="kill", help="SIGKILL or SIGSTOP"
    )
    parser.add_argument("--mover", choices=["iris", "knox"], default="knox", help="who bids")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="demo-outage-") as folder:
        if args.drill == "outage":
            outage(Path(folder), args.mover, args.how)
        else:
            loss(Path(folder), args.aof == "yes")


if __name__ == "__main__":
    main()
