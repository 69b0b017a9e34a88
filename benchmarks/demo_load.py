"""Load figures for the demo's table hub: concurrent bot-only tables in 1, 2 or 4 processes.

Usage: uv run python benchmarks/demo_load.py [--tables 200 1000] [--seconds 10]
       [--processes 1 2 4] [--redis URL] [--bot-delay 0.5] [--workers 4] [--preset dudo]
       [--seats 4] [--runs 1] [--skip-embedded] [--threads]

Each run starts fresh processes (this script with ``--child``). Each patches the standard library
with gevent first, as the served app's gevent worker does, so the hub's scheduler, its workers and
the sockets' senders are greenlets (``--threads``: plain OS threads instead, as this benchmark ran
before the app was served by gevent). In each process, a hub keeps its share of N
bot-only tables playing at once, each watched by one spectator socket stand-in (the real
per-socket outbox and sender thread, with a socket that discards what it is sent). Tables start spread
evenly over one bot delay (real tables do not deal in the same millisecond). Every bot move is
scheduled ``bot-delay`` seconds after the turn starts; **action p50/p99** is the delay from that
due time to the moment the resulting state has been stored, serialised and queued for every
socket of the table in the process that drives it (scheduler lag, lock waits, the engine, the
store's commit, the views, JSON).

Rows:

- ``embedded, no writes``: one process, the SQLite store's commit replaced by a no-op (the hub as
  it was before live tables were stored): the baseline, run in the same script;
- ``embedded``: one process, every change committed to SQLite before its broadcast;
- ``redis xP``: P processes sharing one Redis (``--redis URL``, else a ``redis-server`` started
  on a free port). Each process makes and drives its share of the tables; each table still has
  one spectator, placed round robin over the P processes as a load balancer would place it, so
  (P-1)/P of the changes reach their spectator through another process: **fanout p50/p99** is the
  delay from a commit (Redis's clock) to that change's broadcast in the other process.

Prints actions per second, the percentiles and the ratio of each row's action p99 to the
baseline's; the median of ``--runs`` runs for each figure. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


class NullSocket:
    """Stands in for a WebSocket: accepts and drops every message."""

    def send(self, text: str) -> None:
        pass


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def wait_for(paths: list[Path]) -> None:
    while not all(path.exists() for path in paths):
        time.sleep(0.05)


def child(job: dict[str, Any]) -> None:
    """One process of a run: make this process's tables, watch the next process's, measure;
    processes meet through files in ``job["folder"]``."""
    if not job["threads"]:
        from gevent import monkey

        monkey.patch_all()
    from liarsdice_demo import create_app
    from liarsdice_demo.edge.connection import Connection
    from liarsdice_demo.tables.composition import parse_config

    index, processes, folder = job["index"], job["processes"], Path(job["folder"])
    settings = {
        "DATABASE": job["database"],
        "BOT_DELAY": job["bot_delay"],
        "REVEAL_PAUSE": job["bot_delay"],
        "HUB_WORKERS": job["workers"],
        "MAX_TABLES": 100_000,
        "MEASURE": True,
    }
    if job["redis"]:
        settings["REDIS_URL"] = job["redis"]
    app = create_app(settings)
    hub = app.extensions["liarsdice_hub"]
    if job["no_writes"]:
        hub.store.commit = lambda code, version, *rest: version + 1
    config = parse_config({"preset": job["preset"], "seats": job["seats"], "bot_kind": "random"})
    conns = []

    def watch(table: Any) -> None:
        conn = Connection(NullSocket())
        conns.append(conn)
        table.attach(conn, None)

    mine = [hub.create(config) for _ in range(job["tables"] // processes)]
    (folder / f"codes-{index}.json").write_text(json.dumps([t.code for t in mine]))
    wait_for([folder / f"codes-{i}.json" for i in range(processes)])
    for maker in range(processes):  # the k-th table of each process: a spectator on (maker+k) % P
        codes = json.loads((folder / f"codes-{maker}.json").read_text())
        for k, code in enumerate(codes):
            if (maker + k) % processes == index:
                watch(hub.get(code))
    for k, table in enumerate(mine):  # tables start spread over one bot delay, as in life
        hub.scheduler.call_later(job["bot_delay"] * k / len(mine), table.start_now)
    time.sleep(1.0 + job["bot_delay"])  # the start-up is not measured
    hub.take_latency()
    hub.take_latency("fanout")
    started = time.monotonic()
    time.sleep(job["seconds"])
    elapsed = time.monotonic() - started
    found = {"action": hub.take_latency(), "fanout": hub.take_latency("fanout"), "s": elapsed}
    (folder / f"result-{index}.json").write_text(json.dumps(found))
    wait_for([folder / f"result-{i}.json" for i in range(processes)])  # all measured: stop
    hub.shutdown()
    for conn in conns:
        conn.close()


def run(job: dict[str, Any]) -> dict[str, float]:
    """One run of ``job`` in fresh processes; the figures over all of them."""
    with tempfile.TemporaryDirectory() as folder:
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    json.dumps({**job, "index": i, "folder": folder}),
                ]
            )
            for i in range(job["processes"])
        ]
        for proc in procs:
            proc.wait()
        actions: list[float] = []
        fanout: list[float] = []
        seconds = 0.0
        for i in range(job["processes"]):
            path = Path(folder) / f"result-{i}.json"
            if path.exists():
                found = json.loads(path.read_text())
                actions += found["action"]
                fanout += found["fanout"]
                seconds = max(seconds, found["s"])
    return {
        "actions_per_s": len(actions) / seconds if seconds else float("nan"),
        "p50": 1000 * percentile(actions, 0.5),
        "p99": 1000 * percentile(actions, 0.99),
        "fan50": 1000 * percentile(fanout, 0.5),
        "fan99": 1000 * percentile(fanout, 0.99),
    }


def start_redis(folder: str) -> tuple[subprocess.Popen[bytes], str]:
    """A redis-server on a free port keeping its append-only file in ``folder``, as the app
    requires (``persistence.require_aof``), and its URL."""
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit(
            "no redis-server: install it (apt-get install redis-server) or --redis URL"
        )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "yes",
            "--dir",
            folder,
        ],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, f"redis://127.0.0.1:{port}/0"


def flush(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(json.loads(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--redis", help="a Redis URL (default: start redis-server here)")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--preset", default="dudo")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--skip-embedded", action="store_true")
    parser.add_argument("--threads", action="store_true", help="OS threads, not gevent")
    args = parser.parse_args()
    redis_folder = tempfile.TemporaryDirectory(prefix="liarsdice-load-redis-")
    server, url = (None, args.redis) if args.redis else start_redis(redis_folder.name)
    rows = []
    if not args.skip_embedded:
        rows += [("embedded, no writes", 1, None, True), ("embedded", 1, None, False)]
    rows += [(f"redis x{p}", p, url, False) for p in args.processes]
    print(
        f"preset {args.preset}, {args.seats} random bots per table, bot delay {args.bot_delay} s, "
        f"{args.workers} hub workers per process, {args.seconds} s per run, median of {args.runs}, "
        f"{'OS threads' if args.threads else 'gevent'}"
    )
    header = ("mode", "tables", "actions/s", "p50 ms", "p99 ms", "fan p50", "fan p99", "p99 x")
    print("{:<20} {:>6} {:>10} {:>8} {:>8} {:>8} {:>8} {:>6}".format(*header))
    try:
        with tempfile.TemporaryDirectory() as folder:
            for count in args.tables:
                baseline = None
                for name, processes, redis_url, no_writes in rows:
                    figures = []
                    for attempt in range(args.runs):
                        if redis_url:
                            flush(redis_url)
                        database = Path(folder) / f"load-{count}-{processes}-{attempt}.sqlite"
                        job = {
                            "tables": count,
                            "processes": processes,
                            "redis": redis_url,
                            "no_writes": no_writes,
                            "database": str(database),
                            "seconds": args.seconds,
                            "bot_delay": args.bot_delay,
                            "workers": args.workers,
                            "preset": args.preset,
                            "seats": args.seats,
                            "threads": args.threads,
                        }
                        figures.append(run(job))
                    row = {key: statistics.median(f[key] for f in figures) for key in figures[0]}
                    baseline = baseline or row["p99"]
                    print(
                        f"{name:<20} {count:>6} {row['actions_per_s']:>10.1f} {row['p50']:>8.2f} "
                        f"{row['p99']:>8.2f} {row['fan50']:>8.2f} {row['fan99']:>8.2f} "
                        f"{row['p99'] / baseline:>6.2f}",
                        flush=True,
                    )
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        redis_folder.cleanup()


if __name__ == "__main__":
    main()
