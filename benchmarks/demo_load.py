"""Load figures for the demo app's table hub: concurrent bot-only tables in one process.

Usage: uv run python benchmarks/demo_load.py [--tables 10 50 100 200 400] [--seconds 10]
       [--bot-delay 0.5] [--workers 4] [--preset dudo] [--seats 4]

For each count N, keeps N bot-only tables playing at once (a finished table is replaced by a new
one), each watched by one spectator socket stand-in (the real per-socket outbox and sender
thread, with a socket that discards what it is sent). Every bot move is scheduled ``bot-delay``
seconds after the turn starts; the delay measured is from that due time to the moment the
resulting state has been serialised and queued for every socket of the table (scheduler lag,
lock waits, the engine, the views, JSON). Finished games are saved to a temporary SQLite file,
as in production. Prints actions per second, median and 99th percentile; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from liarsdice_demo import create_app
from liarsdice_demo.composition import parse_config
from liarsdice_demo.connection import Connection


class NullSocket:
    """Stands in for a WebSocket: accepts and drops every message."""

    def send(self, text: str) -> None:
        pass


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(count: int, seconds: float, args: argparse.Namespace, db: Path) -> dict[str, float]:
    app = create_app(
        {
            "DATABASE": str(db),
            "BOT_DELAY": args.bot_delay,
            "REVEAL_PAUSE": args.bot_delay,
            "HUB_WORKERS": args.workers,
            "MEASURE": True,
        }
    )
    hub = app.extensions["liarsdice_hub"]
    config = parse_config({"preset": args.preset, "seats": args.seats, "bot_kind": "random"})
    live = []
    conns = []

    def add() -> None:
        table = hub.create(config)
        conn = Connection(NullSocket())
        conns.append(conn)
        table.attach(conn, None)
        table.start_now()
        live.append(table)

    try:
        for _ in range(count):
            add()
        hub.take_latency()  # drop the start-up burst
        started = time.monotonic()
        games = 0
        while time.monotonic() - started < seconds:
            time.sleep(0.2)
            for table in [t for t in live if t.status == "over"]:
                live.remove(table)
                games += 1
                add()
        elapsed = time.monotonic() - started
        delays = hub.take_latency()
    finally:
        hub.shutdown()
        for conn in conns:
            conn.close()
    return {
        "tables": count,
        "actions_per_s": len(delays) / elapsed,
        "games": games,
        "median_ms": 1000 * statistics.median(delays) if delays else float("nan"),
        "p99_ms": 1000 * percentile(delays, 0.99) if delays else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 100, 200, 400])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--preset", default="dudo")
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    print(
        f"preset {args.preset}, {args.seats} random bots per table, bot delay {args.bot_delay} s, "
        f"{args.workers} hub workers, {args.seconds} s per run"
    )
    print(f"{'tables':>7} {'actions/s':>10} {'games':>6} {'median ms':>10} {'p99 ms':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for count in args.tables:
            row = run(count, args.seconds, args, Path(folder) / f"load-{count}.sqlite")
            print(
                f"{row['tables']:>7} {row['actions_per_s']:>10.1f} {row['games']:>6} "
                f"{row['median_ms']:>10.2f} {row['p99_ms']:>9.2f}"
            )


if __name__ == "__main__":
    main()
