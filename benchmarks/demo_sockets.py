"""How many WebSockets the demo server holds, and whether one client's flood slows other tables.

Usage: uv run python benchmarks/demo_sockets.py hold [--counts 1000 2500 5000 10000]
       uv run python benchmarks/demo_sockets.py flood [--flooders 32] [--seconds 10]
       uv run python benchmarks/demo_sockets.py pages [--flooders 8] [--seconds 10]

Starts the real server (``liarsdice-demo``: gunicorn's gevent worker, as documented for hosting)
in a subprocess on a free port with its default limits, and drives it from this process with
gevent and raw sockets (wsproto framing, compression offered as browsers do). Clients are spread
over loopback addresses (127.1.x.y), so the per-client caps apply as they would to many real
clients: each address holds at most 16 sockets and creates a few tables.

``hold`` opens idle spectator sockets (hello, welcome and state read, then silent) in steps up to
each count, and at each step five probe sockets on another table send ``ping`` every 150 ms for
``--seconds``: prints the round trip's median, p95, p99 and max, and the server's resident memory.
``flood``: ``--flooders`` sockets from one address send pings as fast as they can (reconnecting
when the server closes them); the probe measures another table's ping before (the baseline, in the
same run) and during the flood, from one flooding client and then from as many clients as sockets.
``pages``: ``--flooders`` keep-alive connections from one address request the lobby page in a loop
while the probe measures another table's ping.
Prints figures; asserts nothing.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import contextlib  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402

import gevent  # noqa: E402
from gevent.pool import Pool  # noqa: E402
from wsproto import ConnectionType, WSConnection  # noqa: E402
from wsproto.events import (  # noqa: E402
    AcceptConnection,
    CloseConnection,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)
from wsproto.extensions import PerMessageDeflate  # noqa: E402
from wsproto.utilities import LocalProtocolError, RemoteProtocolError  # noqa: E402

PER_ADDRESS = 16
SPECTATORS_PER_TABLE = 190
TABLES_PER_ADDRESS = 4
PROBES = 5
PROBE_EVERY = 0.15
PROBE_TEXT = f"{PROBES} probe sockets ping every {PROBE_EVERY * 1000:.0f} ms"


def address(n: int) -> str:
    """The n-th client address on loopback (127.1.0.1, 127.1.0.2, ...)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


class WSClient:
    """A minimal blocking WebSocket client on a gevent socket, bound to a source address."""

    def __init__(self, port: int, target: str, source: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as browsers do
        self.ws = WSConnection(ConnectionType.CLIENT)
        offer = Request(
            host=f"127.0.0.1:{port}", target=target, extensions=[PerMessageDeflate()]
        )  # compression offered, as browsers do
        self.sock.sendall(self.ws.send(offer))
        self.pending: list[dict] = []
        self.closed: tuple[int, str] | None = None
        if not any(isinstance(e, AcceptConnection) for e in self._read()):
            raise ConnectionError(f"handshake refused: {self.closed}")

    def _read(self) -> list[object]:
        data = self.sock.recv(65536)
        self.ws.receive_data(data or None)
        events = list(self.ws.events())
        for event in events:
            if isinstance(event, Ping):
                self.sock.sendall(self.ws.send(event.response()))
            elif isinstance(event, TextMessage):
                self.pending.append(json.loads(event.data))
            elif isinstance(event, CloseConnection):
                self.closed = (event.code, event.reason)
            elif isinstance(event, RejectConnection):
                self.closed = (event.status_code, "rejected")
        if not data and self.closed is None:
            self.closed = (1006, "connection lost")
        return events

    def send(self, kind: str, **fields: object) -> None:
        text = json.dumps({"v": 1, "type": kind, **fields})
        self.sock.sendall(self.ws.send(TextMessage(data=text)))

    def expect(self, kind: str) -> dict:
        while True:
            for i, msg in enumerate(self.pending):
                if msg["type"] == kind:
                    del self.pending[: i + 1]
                    return msg
            if self.closed:
                raise ConnectionError(f"closed {self.closed}")
            self._read()

    def close(self) -> None:
        self.sock.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(db: str | None = None) -> Iterator[tuple[int, int]]:
    """``liarsdice-demo`` (gunicorn's gevent worker) on a free port with its default limits, its
    SQLite file ``db`` (by default a new one); yields the port and the worker's pid."""
    port, folder = free_port(), tempfile.mkdtemp()
    db = db or os.path.join(folder, "bench.sqlite")
    cmd = [sys.executable, "-m", "liarsdice_demo", "--port", str(port), "--db", db]
    log = open(os.path.join(folder, "server.log"), "wb")  # noqa: SIM115
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("liarsdice-demo did not start") from None
            time.sleep(0.2)
    try:
        yield port, worker_pid(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()
        print(f"server log: {log.name}")


def worker_pid(master: int) -> int:
    """gunicorn's (only) worker process."""
    time.sleep(1)
    found = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout
    return int(found.split()[0])


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def maker_address(n: int) -> str:
    """The n-th table maker's address, each in its own /24 (127.3.0.1, 127.3.1.1, ...), so the
    creation limit per network does not stop the set-up."""
    return f"127.3.{n % 250}.{n // 250 + 1}"


def create_tables(port: int, count: int, first_address: int) -> list[str]:
    """``count`` waiting public tables, made by clients from ``maker_address(first_address)``
    on."""
    codes: list[str] = []
    n = first_address
    while len(codes) < count:
        conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(maker_address(n), 0))
        cookie = ""
        for _ in range(min(TABLES_PER_ADDRESS, count - len(codes))):
            body = json.dumps({"nickname": "bench", "preset": "dudo", "seats": 2, "public": True})
            headers = {"Content-Type": "application/json", "Cookie": cookie}
            conn.request("POST", "/api/tables", body, headers)
            response = conn.getresponse()
            made = json.loads(response.read())
            if not made.get("ok"):
                raise RuntimeError(f"table not created: {made}")
            cookie = (response.getheader("Set-Cookie") or cookie).split(";")[0] or cookie
            codes.append(made["code"])
        conn.close()
        n += 1
    return codes


def percentiles(rtts: list[float]) -> str:
    ms = sorted(x * 1000 for x in rtts)
    pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    return (
        f"p50 {statistics.median(ms):6.2f}  p95 {pick(0.95):6.2f}  p99 {pick(0.99):6.2f}"
        f"  max {ms[-1]:7.2f} ms  ({len(ms)} pings)"
    )


def probe(port: int, code: str, seconds: float) -> list[float]:
    """Ping round trips to table ``code`` for ``seconds``: :data:`PROBES` spectator sockets from
    their own addresses, each pinging every :data:`PROBE_EVERY` s (within the per-socket limit)."""
    rtts: list[float] = []

    def one(source: str) -> None:
        client = WSClient(port, f"/ws/{code}", source)
        client.send("hello")
        client.expect("welcome")
        end, n = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            n += 1
            started = time.perf_counter()
            client.send("ping", id=n)
            client.expect("pong")
            rtts.append(time.perf_counter() - started)
            gevent.sleep(PROBE_EVERY)
        client.close()

    gevent.joinall(
        [gevent.spawn(one, f"127.0.0.{250 - i}") for i in range(PROBES)], raise_error=True
    )
    return rtts


def open_spectator(port: int, code: str, source: str) -> WSClient:
    """A spectator that then sits idle, answering the server's pings as a browser does."""
    client = WSClient(port, f"/ws/{code}", source)
    client.send("hello")
    client.expect("welcome")
    client.expect("state")
    gevent.spawn(idle, client)
    return client


def idle(client: WSClient) -> None:
    with contextlib.suppress(OSError):
        while client.closed is None:
            client._read()
            client.pending.clear()


def hold(args: argparse.Namespace) -> None:
    with server() as (port, pid):
        top = max(args.counts)
        codes = create_tables(port, top // SPECTATORS_PER_TABLE + 2, first_address=1000)
        probe_code, codes = codes[0], codes[1:]
        held: list[WSClient] = []
        pool = Pool(200)
        print(f"liarsdice-demo worker pid {pid}; {len(codes)} tables; {PROBE_TEXT}")
        rtts = probe(port, probe_code, args.seconds)
        print(f"{0:>6} sockets held  ping {percentiles(rtts)}  rss {rss_mb(pid):7.1f} MB")
        for count in sorted(args.counts):
            started = time.monotonic()
            jobs = [
                pool.spawn(
                    open_spectator,
                    port,
                    codes[i // SPECTATORS_PER_TABLE],
                    address(i // PER_ADDRESS),
                )
                for i in range(len(held), count)
            ]
            gevent.joinall(jobs)
            failed = [job.exception for job in jobs if job.exception]
            held += [job.value for job in jobs if job.value is not None]
            opened = time.monotonic() - started
            rtts = probe(port, probe_code, args.seconds)
            print(
                f"{len(held):>6} sockets held  ping {percentiles(rtts)}  rss {rss_mb(pid):7.1f} MB"
                f"  (opened {len(jobs)} in {opened:.1f} s, {len(failed)} failed)"
            )
            if failed:
                print(f"        first failure: {failed[0]!r}")
        for client in held:
            client.close()


def flooder(
    port: int, code: str, source: str, until: float, stats: dict[str, int], control: bool
) -> None:
    """Send pings (protocol messages, or ``control`` frames, never reading the pongs) as fast as
    the socket takes them; reconnect whenever the server closes it."""
    while time.monotonic() < until:
        try:
            client = WSClient(port, f"/ws/{code}", source)
            client.send("hello")
            frame = client.ws.send(Ping(payload=b"x" * 125))
            while time.monotonic() < until:
                if control:
                    client.sock.sendall(frame)
                else:
                    client.send("ping")
                stats["sent"] += 1
                if stats["sent"] % 50 == 0:
                    gevent.sleep(0)
        except (OSError, ConnectionError, LocalProtocolError, RemoteProtocolError):
            stats["closed"] += 1  # closed, or refused (a handshake closed unread is a bad answer)
            gevent.sleep(0.05)


def flood(args: argparse.Namespace) -> None:
    with server() as (port, _):
        probe_code, flood_code = create_tables(port, 2, first_address=1000)
        print(f"liarsdice-demo: {PROBE_TEXT} on another table, {args.seconds} s each")
        print(
            f"baseline, no flood:                {percentiles(probe(port, probe_code, args.seconds))}"
        )
        scenarios = (
            ("one client", False, False),
            ("one client per socket", True, False),
            ("control frames, one client", False, True),
        )
        for label, spread, control in scenarios:
            attack = [sys.executable, __file__, "_flooders", "--port", str(port)]
            attack += ["--code", flood_code, "--seconds", str(args.seconds + 1)]
            attack += ["--flooders", str(args.flooders)]
            attack += ["--spread"] * spread + ["--control"] * control
            attacker = subprocess.Popen(attack, stdout=subprocess.PIPE, text=True)
            gevent.sleep(0.5)
            rtts = probe(port, probe_code, args.seconds)
            stats = json.loads(attacker.communicate()[0])
            print(
                f"{args.flooders} flooding sockets, {label + ':':<28}{percentiles(rtts)}"
                f"  ({stats['sent']} pings sent, {stats['closed']} closes)"
            )
            gevent.sleep(3)


def flooders(args: argparse.Namespace) -> None:
    """The attacking side of ``flood``, in its own process (so that its busy loop does not
    delay the probe's): prints what it sent as JSON."""
    stats = {"sent": 0, "closed": 0}
    until = time.monotonic() + args.seconds
    offset = 100 if args.control else 0
    jobs = [
        gevent.spawn(
            flooder,
            args.port,
            args.code,
            address((2000 + i if args.spread else 2000) + offset),
            until,
            stats,
            args.control,
        )
        for i in range(args.flooders)
    ]
    gevent.joinall(jobs, timeout=args.seconds + 1)
    gevent.killall(jobs)  # a send the server no longer reads blocks: that is the point
    print(json.dumps(stats))


def page_loader(port: int, source: str, until: float, stats: dict[str, int]) -> None:
    """Request the lobby page over one keep-alive connection as fast as the server answers."""
    conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0))
    while time.monotonic() < until:
        try:
            conn.request("GET", "/")
            response = conn.getresponse()
            response.read()
            stats[str(response.status)] = stats.get(str(response.status), 0) + 1
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0))
    conn.close()


def pages(args: argparse.Namespace) -> None:
    with server() as (port, _):
        probe_code = create_tables(port, 1, first_address=1000)[0]
        print(f"liarsdice-demo: {PROBE_TEXT} while one client loads pages, {args.seconds} s each")
        print(f"baseline, no load:            {percentiles(probe(port, probe_code, args.seconds))}")
        stats: dict[str, int] = {}
        until = time.monotonic() + args.seconds + 1
        loaders = [
            gevent.spawn(page_loader, port, address(3000), until, stats)
            for _ in range(args.flooders)
        ]
        gevent.sleep(0.5)
        rtts = probe(port, probe_code, args.seconds)
        gevent.joinall(loaders)
        print(f"{args.flooders} connections loading /: {percentiles(rtts)}  (responses {stats})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["hold", "flood", "pages", "_flooders"])
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--spread", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--control", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 2500, 5000, 10000])
    parser.add_argument("--flooders", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    {"hold": hold, "flood": flood, "pages": pages, "_flooders": flooders}[args.mode](args)


if __name__ == "__main__":
    main()
