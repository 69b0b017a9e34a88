"""The server's table cap under an attack from many addresses: how fast they fill it, and how long
a newcomer is refused afterwards.

Usage: uv run python benchmarks/demo_table_cap.py [--addresses 420] [--networks 2]
           [--seconds 120] [--restart-after 30] [--minutes 120]

Builds the demo app in this process with its default limits and caps (``MAX_TABLES`` 2,000, 5 live
tables per client, the creation limits per client and per network) behind ``PROXY_FIX``, so each
request's ``X-Forwarded-For`` is its client: ``--addresses`` clients spread over ``--networks``
IPv4 /24s (10.a.b.c). Each client keeps its cookie (one player) and asks for a table in turn,
round after round, until the server answers 503 (full), or no client gets a table in a whole
round, or ``--seconds`` pass. The attackers then stop, and time is simulated: every minute, every
table is made one minute older (its ``created`` and its last action) and the hub sweeps, and a
newcomer asks the hub for room (``check_room``, so its own creation limit is not what is
measured), with the ``Retry-After`` it is given. After ``--restart-after`` simulated minutes the
process restarts (the tables as stored, a new app on the same database); ``--restart-after 0``
runs without. Prints the figures; asserts nothing. The hold-back of a refusal
(``LIMIT_TARPIT_SECONDS``) is off: it slows refused attackers, not the filling.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import tempfile
import time
from pathlib import Path
from typing import Any

from liarsdice_demo import create_app

TABLE = {"nickname": "Mallory", "preset": "casino", "seats": 2, "bot_kind": "none"}
NEWCOMER = "192.0.2.1"


def make_app(database: Path) -> Any:
    return create_app(
        {"DATABASE": str(database), "PROXY_FIX": {"x_for": 1}, "LIMIT_TARPIT_SECONDS": 0.0}
    )


def addresses(count: int, networks: int) -> list[str]:
    """``count`` addresses dealt over ``networks`` /24s, 10.a.b.1, 10.a.b.2, ..."""
    spread = []
    for n in range(count):
        net, host = n % networks, 1 + n // networks
        assert host < 255, "too few networks for that many addresses"
        spread.append(f"10.{net // 256}.{net % 256}.{host}")
    return spread


def attack(app: Any, clients: list[str], seconds: float) -> dict[str, Any]:
    """Every client asks for tables in turn until the server is full or nobody gets one."""
    browsers = {address: app.test_client() for address in clients}
    statuses: dict[int, int] = {}
    made, rounds, start = 0, 0, time.monotonic()
    full_at = None
    while full_at is None and time.monotonic() - start < seconds:
        rounds += 1
        got = 0
        for address, browser in browsers.items():
            answer = browser.post("/api/tables", json=TABLE, headers={"X-Forwarded-For": address})
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            if answer.status_code == 200:
                got += 1
            elif answer.status_code == 503:
                full_at = time.monotonic() - start
                break
        made += got
        if not got and full_at is None:
            break
    return {
        "tables": len(hub_of(app).tables()),
        "made": made,
        "rounds": rounds,
        "full_after_s": None if full_at is None else round(full_at, 1),
        "attack_s": round(time.monotonic() - start, 1),
        "answers": dict(sorted(statuses.items())),
    }


def hub_of(app: Any) -> Any:
    return app.extensions["liarsdice_hub"]


def room(app: Any) -> tuple[bool, Any]:
    """Whether the newcomer may make a table now, and the ``Retry-After`` it is given if not."""
    with app.test_request_context("/"):
        try:
            hub_of(app).check_room(NEWCOMER)
        except RuntimeError as full:
            return False, getattr(full, "retry_after", None)
    return True, None


def older(app: Any, seconds: float) -> None:
    """Every table made ``seconds`` earlier and idle ``seconds`` longer; the sweeps due as well."""
    hub = hub_of(app)
    for table in hub.tables():
        table.created -= seconds
        table.touched -= seconds
    for code in list(hub.sweep.seen):
        hub.sweep.seen[code] -= seconds
    hub.sweep.next_at -= seconds


def persist_all(app: Any) -> None:
    for table in hub_of(app).tables():
        with table.lock:
            table.storage.persist()


def refusals(app: Any, database: Path, minutes: int, restart_after: int) -> tuple[Any, list[Any]]:
    """Simulated minutes after the attack until the newcomer gets room (the app in use at the
    end, and the log: minute, tables, room, Retry-After)."""
    log = []
    for minute in range(minutes + 1):
        free, wait = room(app)
        log.append((minute, len(hub_of(app).tables()), free, wait))
        if free:
            break
        if restart_after and minute == restart_after:
            persist_all(app)
            hub_of(app).shutdown()
            app = make_app(database)
        older(app, 60.0)
        hub_of(app).sweep.run()
    return app, log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=420)
    parser.add_argument("--networks", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--restart-after", type=int, default=30)
    parser.add_argument("--minutes", type=int, default=120)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the refusals are expected
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "demo.sqlite"
        app = make_app(database)
        try:
            clients = addresses(args.addresses, args.networks)
            print(
                f"{args.addresses} addresses in {args.networks} /24s:",
                attack(app, clients, args.seconds),
            )
            newcomer = app.test_client().post(
                "/api/tables", json=TABLE, headers={"X-Forwarded-For": NEWCOMER}
            )
            print(
                "a newcomer's request:",
                newcomer.status_code,
                "Retry-After",
                newcomer.headers.get("Retry-After"),
                newcomer.json.get("error") if newcomer.json else None,
            )
            app, log = refusals(app, database, args.minutes, args.restart_after)
            restart = f", restart at minute {args.restart_after}" if args.restart_after else ""
            print(
                f"simulated minutes after the attack{restart} (minute, tables, room, Retry-After):"
            )
            for minute, tables, free, wait in log:
                if minute % 10 == 0 or free or minute <= 6 or minute == args.restart_after + 1:
                    print(f"  {minute:4d} {tables:5d} {'room' if free else 'full':4s} {wait}")
            last = log[-1]
            print("newcomer refused for", last[0] if last[2] else f"over {args.minutes}", "min")
        finally:
            with contextlib.suppress(Exception):
                hub_of(app).shutdown()


if __name__ == "__main__":
    main()
