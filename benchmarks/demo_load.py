"""Load figures for the demo's table hub: concurrent bot-only tables in 1, 2 or 4 processes.

Usage: uv run python benchmarks/demo_load.py [--tables 200 1000] [--seconds 10]
       [--processes 1 2 4] [--redis URL] [--bot-delay 0.5] [--workers 4] [--preset dudo]
       [--seats 4] [--runs 1] [--skip-embedded]

Each run starts fresh processes (``multiprocessing``, spawn). In each, a hub keeps its share of N
bot-only tables playing at once, each watched by one spectator socket stand-in (the real
per-socket outbox and sender thread, with a socket that discards what it is sent). Every bot move
is scheduled ``bot-delay`` seconds after the turn starts; **action p50/p99** is the delay from that
due time to the moment the resulting state has been stored, serialised and queued for every
socket of the table in the process that drives it (scheduler lag, lock waits, the engine, the
store's commit, the views, JSON).

Rows:

- ``embedded, no writes``: one process, the SQLite store's commit replaced by a no-op (the hub as
  it was before live tables were stored): the baseline, run in the same script;
- ``embedded``: one process, every change committed to SQLite before its broadcast;
- ``redis xP``: P processes sharing one Redis (``--redis URL``, else a ``redis-server`` started
  on a free port). Each process drives its own tables and also watches every table of the next
  process with one spectator, so each change is fanned out across processes: **fanout p50/p99**
  is the delay from a commit (Redis's clock) to that change's broadcast in the other process.

Prints actions per second, the percentiles and the ratio of each row's action p99 to the
baseline's; the median of ``--runs`` runs for each figure. Asserts nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import socket
import statistics
import subprocess
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


def worker(job: dict[str, Any], index: int, codes: Any, barrier: Any, results: Any) -> None:
    """One process of a run: make this process's tables, watch the next process's, measure."""
    from liarsdice_demo import create_app
    from liarsdice_demo.composition import parse_config
    from liarsdice_demo.connection import Connection

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

    mine = []
    for _ in range(job["tables"] // job["processes"]):
        table = hub.create(config)
        watch(table)
        mine.append(table.code)
    codes[index] = mine
    barrier.wait()
    if job["processes"] > 1:
        for code in codes[(index + 1) % job["processes"]]:
            watch(hub.get(code))
    for table in hub.tables():
        if table.code in mine:
            table.start_now()
    time.sleep(1.0)  # the start-up burst is not measured
    hub.take_latency()
    hub.take_latency("fanout")
    started = time.monotonic()
    time.sleep(job["seconds"])
    elapsed = time.monotonic() - started
    results.put((hub.take_latency(), hub.take_latency("fanout"), elapsed))
    barrier.wait()  # nobody stops while another process still measures
    hub.shutdown()
    for conn in conns:
        conn.close()


def run(job: dict[str, Any]) -> dict[str, float]:
    """One run of ``job`` in fresh processes; the figures over all of them."""
    spawn = multiprocessing.get_context("spawn")
    with spawn.Manager() as manager:
        codes = manager.dict()
        barrier = manager.Barrier(job["processes"])
        results = manager.Queue()
        procs = [
            spawn.Process(target=worker, args=(job, i, codes, barrier, results))
            for i in range(job["processes"])
        ]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        actions, fanout, seconds = [], [], 0.0
        while not results.empty():
            a, f, elapsed = results.get()
            actions += a
            fanout += f
            seconds = max(seconds, elapsed)
    return {
        "actions_per_s": len(actions) / seconds if seconds else float("nan"),
        "p50": 1000 * percentile(actions, 0.5),
        "p99": 1000 * percentile(actions, 0.99),
        "fan50": 1000 * percentile(fanout, 0.5),
        "fan99": 1000 * percentile(fanout, 0.99),
    }


def start_redis() -> tuple[subprocess.Popen[bytes], str]:
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit(
            "no redis-server: install it (apt-get install redis-server) or --redis URL"
        )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
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
    args = parser.parse_args()
    server, url = (None, args.redis) if args.redis else start_redis()
    rows = []
    if not args.skip_embedded:
        rows += [("embedded, no writes", 1, None, True), ("embedded", 1, None, False)]
    rows += [(f"redis x{p}", p, url, False) for p in args.processes]
    print(
        f"preset {args.preset}, {args.seats} random bots per table, bot delay {args.bot_delay} s, "
        f"{args.workers} hub workers per process, {args.seconds} s per run, median of {args.runs}"
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


if __name__ == "__main__":
    main()
