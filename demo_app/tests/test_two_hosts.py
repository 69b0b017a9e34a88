"""Two hosts: two served ``liarsdice-demo`` processes, each with its own instance folder and SQLite
file (as two machines would have), share one Redis (live tables) and one PostgreSQL database
(``--database-url``: players, ratings, finished games).

A player made on one host is the same player on the other (cookie, nickname, seat); a rated game
with a player on each host is saved once, and both hosts show the same ratings and history.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from .conftest import WSPlayer, create_database
from .test_cluster import play_to_the_end
from .test_served import free_port, serving

BOARD = re.compile(r'<table class="board" id="board">.*?</table>', re.S)
ME = re.compile(r'<a href="/players/(\d+)">([^<]+)</a>')
"""The header's link to the visitor's own player page (base.html)."""


@pytest.fixture
def hosts(redis_url: str, postgres_url: str, tmp_path: Path) -> Iterator[list[str]]:
    """Two servers, started at once on an empty database (both create the schema); their
    ``host:port``."""
    shared_redis = redis_url.replace("/0", "/5")
    redis.Redis.from_url(shared_redis).flushdb()
    database = create_database(postgres_url)
    started: list[tuple[subprocess.Popen[bytes], Any, str]] = []
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        port = free_port()
        env = dict(os.environ, LIARSDICE_DEMO_BOT_DELAY="0.05", LIARSDICE_DEMO_REVEAL_PAUSE="0")
        cmd = [sys.executable, "-m", "liarsdice_demo", "--port", str(port)]
        cmd += ["--db", str(folder / "liarsdice.sqlite"), "--redis", shared_redis]
        cmd += ["--database-url", database]
        log = open(folder / "server.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        started.append((proc, log, f"127.0.0.1:{port}"))
    try:
        yield [serving(proc, host, Path(log.name)) for proc, log, host in started]
    finally:
        for proc, log, _ in started:
            proc.terminate()
            proc.wait(20)
            log.close()


def call(host: str, path: str, body: dict[str, Any] | None = None, cookie: str = "") -> Any:
    """GET (or POST ``body`` as JSON) with ``cookie``: (status, page text or JSON, new cookie)."""
    request = urllib.request.Request(
        f"http://{host}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Cookie": cookie},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
        given = answer.headers.get("Set-Cookie", "").split(";")[0]
        return answer.status, json.loads(text) if body is not None else text, given


def me(host: str, cookie: str) -> tuple[str, str]:
    """(player id, nickname) of the player ``cookie`` names, as ``host``'s lobby shows it."""
    page = call(host, "/", cookie=cookie)[1]
    found = ME.search(page)
    assert found, page
    return found.group(1), found.group(2)


def board(host: str) -> str:
    """The leaderboard's table on ``host`` ("" while nobody is rated)."""
    found = BOARD.search(call(host, "/leaderboard")[1])
    return found.group() if found else ""


def test_players_ratings_and_history_are_shared_by_two_hosts(hosts: list[str]) -> None:
    one, two = hosts
    body = {
        "nickname": "Iris",
        "variants": ["dice-loss", "calza"],
        "seats": 2,
        "rated": True,
        "dice_per_player": 2,
    }
    status, made, iris = call(one, "/api/tables", body)
    assert status == 200 and iris.startswith("ld_player="), made
    # Iris, made on host 1, is the same player on host 2: her cookie names her there, and
    # host 2 gives her back her seat at the private table without its key.
    assert me(two, iris) == me(one, iris)
    status, again, _ = call(two, f"/api/tables/{made['code']}/seat", {}, cookie=iris)
    assert status == 200 and (again["seat"], again["name"]) == (0, "Iris"), again
    # Knox is made on host 2 and is known on host 1.
    knock = {"nickname": "Knox", "key": made["join_key"]}
    status, sat, knox = call(two, f"/api/tables/{made['code']}/seat", knock)
    assert status == 200 and knox, sat
    assert me(one, knox) == me(two, knox)
    # A rated game: Iris's socket on host 1, Knox's on host 2.
    players = [
        WSPlayer(one, made["code"], made["seat_token"]).connect(),
        WSPlayer(two, made["code"], sat["seat_token"]).connect(),
    ]
    try:
        assert [p.expect("welcome")["seat"] for p in players] == [0, 1]
        players[0].send("start")
        play_to_the_end(players, random.Random(13))
    finally:
        for player in players:
            player.close()
    # Saved once, by whichever host drove the table: both hosts show the same board and game.
    deadline = time.monotonic() + 20
    while "Knox" not in board(one):
        assert time.monotonic() < deadline, "the game was not saved"
        time.sleep(0.2)
    assert board(one) == board(two) and "Iris" in board(two)
    games = [re.findall(r'href="/games/(\d+)"', call(host, "/")[1]) for host in hosts]
    assert games[0] == games[1] and len(games[0]) == 1
    for host in hosts:
        replay = call(host, f"/games/{games[0][0]}")[1]
        assert f"/players/{me(one, iris)[0]}" in replay
        played = json.loads(call(host, f"/games/{games[0][0]}/steps?locale=en")[1])
        assert played["next"] is None and "wins the game" in played["steps"][-1]["text"]
