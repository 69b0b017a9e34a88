"""The replay of the longest game the demo's move limits allow: what it costs to send, in bytes,
time and the worker's memory, and whether other tables feel it.

Usage: uv run python benchmarks/demo_replay.py [--runs 5] [--locale en] [--games chips20 worst]
       uv run python benchmarks/demo_replay.py --ping [--games worst] [--connections 8] [--seconds 10]

The games (``demo_app/tests/replays.py``), 6 players x 5 dice, every player making the lowest
legal bid: ``chips20``, under ``chips`` with ``chips.start=20`` (dice never leave the table, a
lost round costs a chip: 6 x 20 - 1 = 119 rounds of up to 181 moves), calling at the top of the
bid ladder (the issue's 87 MB page); ``worst``, the same with calza's ``regain-die`` (its move
limit is 557 rounds: x 3 + 200), where the player on turn calls exact whenever the bid is exactly
right (a round that costs nobody anything) until only the moves the end needs are left: the
longest finished game the move limits allow. The baseline is a one-round game (2 x 1 die) in the
same process. All are saved through the app's store and read as a browser does: the page
``/games/<id>``, then every page of its steps (the address the page names). Prints the move limit
and what each game used of it; per game the page's size, the number of responses, their total
and the largest; the time to read the whole replay and the slowest response (medians of
``--runs``, after a first read) with the ratio to the baseline; the peak of the Python heap
while answering the first read (``tracemalloc``) and the process's resident memory before and
after. A page from before the steps existed (the whole game inside the page) is measured the
same way: this command on an older commit prints its figures.

``--ping`` starts the real server (``liarsdice-demo``, gunicorn's gevent worker, as
``demo_sockets.py`` does), saves the last of ``--games`` in its database, and while
``--connections`` keep-alive connections from one address (in a process of their own) read the
whole replay again and again,
5 probe sockets on another table ping it every 150 ms: the round trip's percentiles before (the
baseline, in the same run) and during, and the worker's resident memory. Prints figures; asserts
nothing.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gevent  # noqa: E402
from demo_sockets import address, create_tables, percentiles, probe, rss_mb, server  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "demo_app" / "tests"))
from replays import CHIPS_20, SHORT, STALL, STALLING, store  # noqa: E402

from liarsdice.events import BidMade, CallMade, RoundStarted  # noqa: E402
from liarsdice_demo import create_app  # noqa: E402
from liarsdice_demo.tables.composition import parse_config  # noqa: E402

STEPS = re.compile(r'<script type="application/json" id="replay">(.*?)</script>')
"""Where the page names the address of its steps (absent in pages from before the steps)."""
Get = Callable[[str], bytes]
"""Read an address (a path) and answer the body."""


def read_replay(get: Get, game_id: int, locale: str) -> list[tuple[int, float]]:
    """Read game ``game_id``'s replay as its page's script does: (bytes, seconds) per response."""
    answers: list[tuple[int, float]] = []

    def timed(path: str) -> bytes:
        started = time.perf_counter()
        body = get(path)
        answers.append((len(body), time.perf_counter() - started))
        return body

    page = timed(f"/games/{game_id}?lang={locale}").decode()
    named = STEPS.search(page)
    following: int | None = 0 if named else None
    while following is not None:
        steps = json.loads(timed(f"{json.loads(named.group(1))['steps']}&from={following}"))  # type: ignore[union-attr]
        following = steps["next"]
    return answers


def rss_now() -> float:
    return rss_mb(os.getpid())


def measure(get: Get, game_id: int, locale: str, runs: int) -> dict[str, Any]:
    """Sizes, median times and memory of reading the replay of ``game_id`` ``runs`` times."""
    rss_before = rss_now()
    tracemalloc.start()
    answers = read_replay(get, game_id, locale)
    heap = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    totals, slowest = [], []
    for _ in range(runs):
        timed = read_replay(get, game_id, locale)
        totals.append(sum(seconds for _, seconds in timed))
        slowest.append(max(seconds for _, seconds in timed))
    sizes = [size for size, _ in answers]
    return {
        "page": sizes[0],
        "responses": len(sizes),
        "total": sum(sizes),
        "largest": max(sizes),
        "seconds": statistics.median(totals),
        "slowest": statistics.median(slowest),
        "heap": heap / 2**20,
        "rss": (rss_before, rss_now()),
    }


GAMES = {
    "chips20": ("chips.start=20: 6 x 5 dice, the lowest bid every turn", CHIPS_20, 0),
    "worst": ("chips.start=20 + calza regain-die: right exact calls till the end", STALLING, STALL),
}
"""The long games: the issue's (``chips20``) and the longest the move limits allow (``worst``)."""


def build(url: str, name: str) -> int:
    """Play and save the long game ``name``; print what it used of its move limit; its id."""
    title, data, stall = GAMES[name]
    started = time.perf_counter()
    game_id, events = store(url, data, stall=stall)
    built = time.perf_counter() - started
    config = parse_config(data)
    limit = config.rules.move_limit(config.seats, config.dice_per_player)
    moves = sum(isinstance(event, BidMade | CallMade) for event in events)
    rounds = sum(isinstance(event, RoundStarted) for event in events)
    print(f"{name}: {title} (played in {built:.1f} s)")
    print(f"  move limit {limit.moves} moves ({limit.rounds} rounds x {limit.turns} turns)")
    print(
        f"  played {moves} moves ({moves / limit.moves:.0%}) in {rounds} rounds, {len(events)} events"
    )
    return game_id


def in_process(args: argparse.Namespace) -> None:
    folder = tempfile.mkdtemp()
    app = create_app(
        {"DATABASE": os.path.join(folder, "replay.sqlite"), "RATELIMIT_ENABLED": False}
    )
    url = app.config["DATABASE_URL"]
    games = {"short": store(url, SHORT)[0]} | {name: build(url, name) for name in args.games}
    client = app.test_client()

    def get(path: str) -> bytes:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        return bytes(answer.data)

    figures = {}
    for name, game_id in games.items():
        found = figures[name] = measure(get, game_id, args.locale, args.runs)
        print(
            f"{name:>7}: page {found['page'] / 1024:8.1f} KB, {found['responses']:2d} responses, "
            f"total {found['total'] / 2**20:7.2f} MB, largest {found['largest'] / 2**20:6.2f} MB; "
            f"read in {found['seconds'] * 1000:8.1f} ms (slowest response "
            f"{found['slowest'] * 1000:7.1f} ms); heap peak {found['heap']:7.1f} MB, "
            f"RSS {found['rss'][0]:.0f} -> {found['rss'][1]:.0f} MB"
        )
    short = figures["short"]
    for name in args.games:
        found = figures[name]
        print(
            f"ratio {name}/short: time {found['seconds'] / short['seconds']:.0f}x, "
            f"bytes {found['total'] / short['total']:.0f}x (medians of {args.runs} runs)"
        )
    app.extensions["liarsdice_hub"].shutdown()


def reader(port: int, source: str, game_id: int, until: float, stats: dict[str, int]) -> None:
    """Read the whole replay over one keep-alive connection again and again until ``until``
    (and stop there, between two responses)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0))

    def get(path: str) -> bytes:
        if time.monotonic() >= until:
            raise TimeoutError("time is up")  # between two responses, not after a whole read
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        stats[str(response.status)] = stats.get(str(response.status), 0) + 1
        if response.status != 200:
            raise http.client.HTTPException(response.status)
        return body

    while time.monotonic() < until:
        try:
            read_replay(get, game_id, "en")
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0))
            gevent.sleep(0.05)
    conn.close()


def readers(args: argparse.Namespace) -> None:
    """The readers of ``--ping``, in a process of their own (so that reading and parsing the
    answers does not delay the probe): prints the answers' statuses as JSON."""
    stats: dict[str, int] = {}
    until = time.monotonic() + args.seconds
    gevent.joinall(
        [
            gevent.spawn(reader, args.port, address(3000), args.game_id, until, stats)
            for _ in range(args.connections)
        ]
    )
    print(json.dumps(stats))


def ping(args: argparse.Namespace) -> None:
    database = os.path.join(tempfile.mkdtemp(), "replay.sqlite")
    with server(database) as (port, worker):
        game_id = build(f"sqlite:///{database}", args.games[-1])
        probe_code = create_tables(port, 1, first_address=1000)[0]
        print(
            f"liarsdice-demo: 5 probe sockets ping another table every 150 ms while "
            f"{args.connections} connections from one address read game {game_id}'s replay, "
            f"{args.seconds} s each"
        )
        print(f"baseline, no load: {percentiles(probe(port, probe_code, args.seconds))}")
        before = rss_mb(worker)
        command = [sys.executable, __file__, "--readers", "--port", str(port)]
        command += ["--game-id", str(game_id), "--seconds", str(args.seconds + 1)]
        command += ["--connections", str(args.connections)]
        attacker = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        peak = [before]

        def watch() -> None:
            while True:
                peak.append(rss_mb(worker))
                gevent.sleep(0.2)

        watcher = gevent.spawn(watch)
        gevent.sleep(0.5)
        rtts = probe(port, probe_code, args.seconds)
        stats = json.loads(attacker.communicate()[0])
        watcher.kill()
        print(f"{args.connections} connections reading: {percentiles(rtts)}  (responses {stats})")
        print(f"worker RSS: {before:.0f} MB before, {max(peak):.0f} MB at most during")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--locale", default="en", choices=["en", "uk", "ru"])
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--ping", action="store_true")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--readers", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--game-id", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    (readers if args.readers else ping if args.ping else in_process)(args)


if __name__ == "__main__":
    main()
