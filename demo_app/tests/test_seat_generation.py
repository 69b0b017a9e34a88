"""A seat is bound to its tokens and its generation, never to its name: on a real Redis, a kicked
player's socket on another process is closed when that process catches up, even when it missed
the kick's announcement and a newcomer took the seat under the same name meanwhile."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import redis
from simple_websocket import ConnectionClosed

from liarsdice import engine
from liarsdice.events import BidMade
from liarsdice_demo.edge.protocol import parse
from liarsdice_demo.tables.table_errors import KICKED

from .conftest import Conn, WSPlayer, served
from .test_cluster import two_processes, wait_until


def intent(kind: str, **fields: Any) -> Any:
    return parse(json.dumps({"v": 1, "type": kind, **fields}))


def test_a_kicked_socket_on_another_process_never_inherits_a_namesakes_seat(
    redis_url: str, tmp_path: Path
) -> None:
    # A long lease: the copy on B catches up when the test says so, not on a tick of its own.
    apps, hubs = two_processes(redis_url, tmp_path, 8, LEASE_SECONDS=60.0)
    server = redis.Redis.from_url(redis_url)
    old: WSPlayer | None = None
    try:
        body = {"nickname": "Iris", "preset": "dudo", "seats": 2, "bot_kind": "none"}
        body["public"] = True
        made = apps[0].test_client().post("/api/tables", json=body).json
        code = made["code"]
        sat = apps[1].test_client().post(f"/api/tables/{code}/seat", json={"nickname": "Knox"})
        assert sat.status_code == 200 and sat.json["name"] == "Knox", sat.json
        driver = hubs[0].get(code)
        host = Conn()
        driver.attach(host, made["seat_token"])  # Iris's tab, on A
        with served(apps[1], "live-server-b") as b:
            old = WSPlayer(b, code, sat.json["seat_token"]).connect()  # Knox's tab, on B
            assert old.expect("welcome")["seat"] == 1
            copy = hubs[1].local(code)
            assert copy is not None
            wait_until(lambda: copy.version == driver.version)
            # Redis drops every pub/sub connection: B hears nothing for a second.
            assert server.client_kill_filter(_type="pubsub") >= 2
            driver.handle(host, intent("kick", seat=1))
            newcomer = apps[0].test_client()
            again = newcomer.post(f"/api/tables/{code}/seat", json={"nickname": "Knox"})
            assert again.status_code == 200 and again.json["name"] == "Knox", again.json
            assert copy.version < driver.version  # B missed both the kick and the newcomer
            # B catches up from the store.
            hubs[1].cluster._catch_up()
            wait_until(lambda: copy.version == driver.version)
            # The new Knox plays; the old tab, if it were still open, would see her dice and
            # bid for her on her turn.
            driver.start_now()
            if driver.game.state.round.turn == "Iris":
                bid = engine.legal_bids(driver.config.rules, driver.game.state, "Iris")[0]
                driver.handle(host, intent("bid", quantity=bid.quantity, face=bid.face))
            assert driver.game.state.round.turn == "Knox"
            wait_until(lambda: copy.version == driver.version)
            bid = engine.legal_bids(driver.config.rules, driver.game.state, "Knox")[0]
            with contextlib.suppress(ConnectionClosed):
                old.send("bid", quantity=bid.quantity, face=bid.face)
                old.send("ping")  # answered after the bid is handled
            pong = lambda: any(m["type"] == "pong" for m in old.messages)  # noqa: E731
            wait_until(lambda: pong() or not old.ws.connected)
            played = [e for e in driver.game.events if isinstance(e, BidMade)]
            assert [e.player for e in played] == ["Iris"] * len(played)
            dealt = [m for m in old.messages if m["type"] == "state" and m["view"]]
            assert dealt == []  # never a view of the game, let alone the newcomer's dice
            # It was told, and closed as a kick closes a tab: 4403, "removed".
            assert "removed" in old.expect("kicked")["reason"]
            wait_until(lambda: old is not None and old.ws is not None and not old.ws.connected)
            assert old.ws.close_reason == KICKED and "removed" in old.ws.close_message
            old.close()
    finally:
        if old is not None:
            old.close()
        server.close()
        for hub in hubs:
            hub.shutdown()
