"""Attacks on the demo server that stay inside every per-client limit: compression bombs from many
addresses, and a handshake storm from one.

Usage: uv run python benchmarks/demo_attacks.py bomb [--addresses 320] [--seconds 10]
       uv run python benchmarks/demo_attacks.py storm [--threads 320] [--seconds 10]

Starts the real server (``liarsdice-demo``: gunicorn's gevent worker, as documented for hosting)
with :func:`demo_sockets.server`, and runs the attack in a separate process (so that its busy loop
does not delay the probe). :data:`demo_sockets.PROBES` probe sockets on another table ping it
every 150 ms before (the baseline, in the same run), during and after the attack; each line gives
the round trip's median, p95, p99 and max, the pings lost (no pong within
:data:`PONG_TIMEOUT`, or the probe socket closed) and the worker's resident memory (before,
peak during, and :data:`SETTLE` seconds after the attack).

``bomb``: from each of ``--addresses`` loopback addresses (127.2.x.y), one socket at a time,
opened at most twice a second (the default opening rate), sends one compressed text frame of
about 16 KB that inflates to 16 MiB of zeros (permessage-deflate, negotiated as browsers do),
then reads until the server closes; the close codes are counted.
``storm``: ``--threads`` connections from ONE address reconnect as fast as the server answers;
the handshakes' outcomes (101 then the close code, or the HTTP status) are counted.
Prints figures; asserts nothing.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import base64  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from collections import Counter  # noqa: E402

import gevent  # noqa: E402
from demo_sockets import (  # noqa: E402
    PROBE_EVERY,
    PROBES,
    WSClient,
    create_tables,
    percentiles,
    rss_mb,
    server,
)

PONG_TIMEOUT = 3.0
"""Seconds after which a probe's ping counts as lost."""
SETTLE = 10.0
"""Seconds after the attack at which the worker's memory is read again."""
BOMB_INFLATED = 16 * 1024 * 1024


def bomb_frame() -> bytes:
    """One masked (with a zero key), compressed, final text frame whose payload inflates to
    :data:`BOMB_INFLATED` zero bytes: a fresh deflate stream, as a new socket's first message."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = deflate.compress(bytes(BOMB_INFLATED)) + deflate.flush(zlib.Z_SYNC_FLUSH)
    payload = payload[:-4]  # permessage-deflate drops the sync flush's tail
    header = bytes([0xC1])  # FIN, RSV1 (compressed), text
    if len(payload) < 65536:
        header += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    else:
        header += bytes([0x80 | 127]) + len(payload).to_bytes(8, "big")
    return header + b"\0\0\0\0" + payload


def handshake(port: int, code: str, source: str) -> tuple[socket.socket, bytes]:
    """Send a WebSocket handshake offering compression; the socket and the server's answer
    (the status line and headers, and whatever followed them in the same read)."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        data = sock.recv(4096)
        if not data:
            break
        answer += data
    return sock, answer


def close_code(sock: socket.socket, already: bytes) -> str:
    """Read until the server closes; the first close frame's code (``"eof"`` if none came)."""
    data = already
    try:
        while True:
            at = data.find(b"\x88")  # an unmasked, final close frame
            if at >= 0 and len(data) >= at + 4:
                return str(int.from_bytes(data[at + 2 : at + 4], "big"))
            more = sock.recv(65536)
            if not more:
                return "eof"
            data = data[-8:] + more
    except OSError:
        return "reset"


def after_headers(answer: bytes) -> bytes:
    """What followed the headers in the server's first answer."""
    return answer.split(b"\r\n\r\n", 1)[-1]


def outcome(answer: bytes) -> tuple[bool, str]:
    """Whether the handshake was accepted, and its HTTP status code."""
    status = answer.split(b"\r\n", 1)[0].split(b" ")
    code = status[1].decode() if len(status) > 1 else "none"
    return code == "101", code


def bomber(
    port: int, code: str, source: str, until: float, stats: Counter[str], frame: bytes
) -> None:
    """From ``source``: open a socket (at most twice a second), send ``frame``, count the close."""
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            sock, answer = handshake(port, code, source)
            upgraded, status = outcome(answer)
            if upgraded:
                sock.sendall(frame)
                stats[f"closed {close_code(sock, after_headers(answer))}"] += 1
            else:
                stats[f"http {status}"] += 1
            sock.close()
        except OSError as problem:
            stats[type(problem).__name__] += 1
        gevent.sleep(max(0.0, 0.5 - (time.monotonic() - started)))


def stormer(port: int, code: str, source: str, until: float, stats: Counter[str]) -> None:
    """Reconnect from ``source`` as fast as the server answers; count the outcomes."""
    while time.monotonic() < until:
        try:
            sock, answer = handshake(port, code, source)
            upgraded, status = outcome(answer)
            if upgraded:
                stats[f"upgraded, closed {close_code(sock, after_headers(answer))}"] += 1
            else:
                stats[f"http {status}"] += 1
            sock.close()
        except OSError as problem:
            stats[type(problem).__name__] += 1
            gevent.sleep(0.05)


def attacker(args: argparse.Namespace) -> None:
    """The attacking side, in its own process: prints its counts as JSON."""
    stats: Counter[str] = Counter()
    frame = bomb_frame()
    until = time.monotonic() + args.seconds
    if args.mode == "_bombers":
        sources = [f"127.2.{n // 250}.{n % 250 + 1}" for n in range(args.addresses)]
        jobs = [gevent.spawn(bomber, args.port, args.code, s, until, stats, frame) for s in sources]
    else:
        jobs = [
            gevent.spawn(stormer, args.port, args.code, "127.3.0.1", until, stats)
            for _ in range(args.threads)
        ]
    gevent.joinall(jobs, timeout=args.seconds + 15)
    gevent.killall(jobs)
    print(json.dumps(stats))


class Probe:
    """:data:`PROBES` spectator sockets on one table, each pinging every :data:`PROBE_EVERY` s;
    a ping with no pong within :data:`PONG_TIMEOUT` (or on a socket that closed) is lost, and the
    socket is opened again."""

    def __init__(self, port: int, code: str) -> None:
        self.port, self.code = port, code
        self.rtts: list[float] = []
        self.lost = 0

    def run(self, seconds: float) -> tuple[list[float], int]:
        """Ping for ``seconds``; the round trips and the count of lost pings."""
        self.rtts, self.lost = [], 0
        until = time.monotonic() + seconds
        jobs = [gevent.spawn(self._one, f"127.0.0.{250 - i}", until) for i in range(PROBES)]
        gevent.joinall(jobs, raise_error=True)
        return self.rtts, self.lost

    def _one(self, source: str, until: float) -> None:
        client: WSClient | None = None
        n = 0
        while time.monotonic() < until:
            try:
                if client is None:
                    client = WSClient(self.port, f"/ws/{self.code}", source)
                    client.send("hello")
                    client.expect("welcome")
                n += 1
                started = time.perf_counter()
                client.send("ping", id=n)
                with gevent.Timeout(PONG_TIMEOUT):
                    client.expect("pong")
                self.rtts.append(time.perf_counter() - started)
            except (OSError, ConnectionError, gevent.Timeout):
                self.lost += 1
                if client is not None:
                    client.close()
                client = None
            gevent.sleep(PROBE_EVERY)
        if client is not None:
            client.close()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_watch(pid: int, until: float, peak: list[float]) -> None:
    """Keep the worker's largest resident memory until ``until`` in ``peak[0]``."""
    while time.monotonic() < until:
        peak[0] = max(peak[0], rss_mb(pid))
        gevent.sleep(0.2)


def line(label: str, rtts: list[float], lost: int) -> str:
    shown = percentiles(rtts) if rtts else "no pongs"
    return f"{label:<8}{shown}  lost {lost}"


def attack(args: argparse.Namespace) -> None:
    with server() as (port, pid):
        probe_code, target_code = create_tables(port, 2, first_address=1000)
        probe = Probe(port, probe_code)
        what = (
            f"{args.addresses} addresses each bombing (16 KB frames inflating to 16 MiB)"
            if args.mode == "bomb"
            else f"{args.threads} connections from one address reconnecting"
        )
        print(
            f"liarsdice-demo: {what}; {PROBES} probe sockets ping another table every "
            f"{PROBE_EVERY * 1000:.0f} ms, {args.seconds:g} s each"
        )
        before_rss = rss_mb(pid)
        print(line("before", *probe.run(args.seconds)) + f"  rss {before_rss:7.1f} MB")
        cmd = [sys.executable, __file__, f"_{args.mode}ers", "--port", str(port)]
        cmd += ["--code", target_code, "--seconds", str(args.seconds + 1)]
        cmd += ["--addresses", str(args.addresses), "--threads", str(args.threads)]
        cpu = cpu_seconds(pid)
        attacking = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        peak = [before_rss]
        watcher = gevent.spawn(memory_watch, pid, time.monotonic() + args.seconds + 2, peak)
        gevent.sleep(0.5)
        during = line("during", *probe.run(args.seconds))
        stats = json.loads(attacking.communicate()[0] or "{}")
        watcher.join()
        cpu = cpu_seconds(pid) - cpu
        print(f"{during}  rss peak {peak[0]:7.1f} MB  worker cpu {cpu:5.1f} s")
        print(f"        attack: {dict(sorted(stats.items()))}")
        gevent.sleep(max(0.0, SETTLE - args.seconds))
        after = line("after", *probe.run(args.seconds))
        print(f"{after}  rss {rss_mb(pid):7.1f} MB ({SETTLE + args.seconds:g} s after the attack)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["bomb", "storm", "_bombers", "_stormers"])
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--addresses", type=int, default=320)
    parser.add_argument("--threads", type=int, default=320)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    (attacker if args.mode.startswith("_") else attack)(args)


if __name__ == "__main__":
    main()
