"""The hub's parts alone: the room (a client's caps and the server's) over a fake store, the
sweep over a fake hub, and the delays kept for the load benchmark."""

from __future__ import annotations

import math
import time
from types import SimpleNamespace
from typing import Any

import pytest

from liarsdice_demo.tables.expiry import NEVER_STARTED_SECONDS
from liarsdice_demo.tables.latency import Latency
from liarsdice_demo.tables.room import FULL_RETRY_SECONDS, Room, ServerFull, TooManyTables
from liarsdice_demo.tables.sweep import FINISHED_SECONDS, IDLE_SECONDS, SWEEP_SECONDS, Sweep


class Table:
    """What the room and the sweep read of a live table."""

    def __init__(self, code: str, status: str = "waiting", **fields: Any) -> None:
        self.code, self.status = code, status
        self.client: str | None = fields.get("client")
        self.seating = SimpleNamespace(host_player=fields.get("host_player"))
        self.created: float = fields.get("created", time.time())
        self.touched: float = fields.get("touched", time.monotonic())
        self.game_id: int | None = fields.get("game_id", 1)
        self.driving: bool = fields.get("driving", True)
        self.connections: int = fields.get("connections", 0)
        self.seats: list[Any] = fields.get("seats", [None, None])
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


class Store:
    """A shared store's records, and the tables it dropped."""

    def __init__(self, *records: dict[str, Any]) -> None:
        self.rows = [(f"T{n}", record) for n, record in enumerate(records)]
        self.dropped: list[str] = []

    def records(self) -> list[tuple[str, dict[str, Any]]]:
        return list(self.rows)

    def drop(self, code: str) -> None:
        self.dropped.append(code)


class Hub:
    """What the sweep uses of the hub: its tables, its store and its scheduler."""

    def __init__(self, *tables: Table) -> None:
        self.held = {table.code: table for table in tables}
        self.store = Store()
        self.later: list[tuple[float, Any]] = []
        self.scheduler: Any = SimpleNamespace(call_later=lambda s, fn: self.later.append((s, fn)))

    def tables(self) -> list[Any]:
        return list(self.held.values())

    def forget(self, code: str) -> None:
        del self.held[code]


def record(client: str, status: str = "waiting", host: int | None = None) -> dict[str, Any]:
    return {
        "client": client,
        "host_player": host,
        "status": status,
        "created": time.time(),
        "seats": [],
    }


def test_a_player_at_their_caps_is_refused_and_others_behind_the_same_address_are_not() -> None:
    here = "1.2.3.4"
    store = Store(record(here, host=1), record(here, "playing", 1), record(here, "over", 1))
    settings = {"MAX_TABLES_PER_PLAYER": 2, "MAX_HELD_TABLES_PER_PLAYER": 4}
    room = Room(settings, {}, store.records, Sweep(Hub()))
    with pytest.raises(TooManyTables, match="you already have 2 tables open") as capped:
        room.check(here, 1)  # two live tables: a finished one does not count
    assert capped.value.retry_after == 60
    room.check(here, 2)  # another player in the same household
    room.check(here)  # a newcomer there
    room.check(None)  # a table the server makes itself
    store.rows[0] = ("T0", record(here, "over", 1))
    room.check(here, 1)
    store.rows.append(("T3", record(here, "over", 1)))  # four held: the held cap
    with pytest.raises(TooManyTables, match="you have 4 tables still open"):
        room.check(here, 1)


def test_an_address_has_a_ceiling_over_all_its_players() -> None:
    here = "1.2.3.4"
    store = Store(*(record(here, "playing", host) for host in (1, 2, 3)))
    settings = {"MAX_TABLES_PER_ADDRESS": 3, "MAX_HELD_TABLES_PER_ADDRESS": 5}
    room = Room(settings, {}, store.records, Sweep(Hub()))
    for player in (4, None):  # a new player there, or a newcomer: the address is full
        with pytest.raises(TooManyTables, match="3 tables made from your internet connection"):
            room.check(here, player)
    room.check("5.6.7.8", 4)
    store.rows = [(f"T{n}", record(here, "over", n)) for n in range(5)]
    with pytest.raises(TooManyTables, match="5 tables made from your internet connection are"):
        room.check(here, 9)


def test_a_full_server_says_when_the_sweep_frees_a_place() -> None:
    held = {"NEW": Table("NEW", client="1.2.3.4")}
    sweep = Sweep(Hub())
    sweep.next_at = time.monotonic() + 10  # the next sweep is in 10 s, then every minute
    room = Room({"MAX_TABLES": 1}, held, None, sweep)  # the embedded store: this process's
    with pytest.raises(ServerFull) as full:
        room.check("5.6.7.8")
    wait = full.value.retry_after
    assert NEVER_STARTED_SECONDS <= wait <= NEVER_STARTED_SECONDS + SWEEP_SECONDS
    assert f"try again in {math.ceil(wait / 60)} minutes" in str(full.value)
    held["NEW"].status = "playing"  # when a game being played ends is not known
    with pytest.raises(ServerFull) as full:
        room.check("5.6.7.8")
    assert full.value.retry_after == FULL_RETRY_SECONDS
    held["NEW"].status = "over"  # a finished one closes after its last action
    held["NEW"].touched = time.monotonic() - FINISHED_SECONDS + 5
    with pytest.raises(ServerFull) as full:
        room.check("5.6.7.8")
    assert full.value.retry_after == 10  # at the next sweep


def test_with_a_shared_store_every_process_s_tables_fill_the_server() -> None:
    store = Store(record("1.2.3.4"), record("5.6.7.8", "over"))
    room = Room({"MAX_TABLES": 3}, {}, store.records, Sweep(Hub()))
    room.check("9.9.9.9")
    store.rows.append(("T2", record("5.6.7.8", "playing")))
    with pytest.raises(ServerFull) as full:  # another process's never-started table frees one
        room.check("9.9.9.9")
    assert NEVER_STARTED_SECONDS <= full.value.retry_after <= NEVER_STARTED_SECONDS + SWEEP_SECONDS


def test_the_sweep_closes_what_this_process_drives_once_expired() -> None:
    now = time.monotonic()
    idle = Table("IDLE", "playing", touched=now - IDLE_SECONDS - 1)
    done = Table("DONE", "over", touched=now - FINISHED_SECONDS - 1)
    unsaved = Table("KEEP", "over", touched=now - 10 * IDLE_SECONDS, game_id=None)
    fresh = Table("HERE", "playing")
    elsewhere = Table("COPY", "playing", touched=now - IDLE_SECONDS - 1, driving=False)
    watched = Table("SEEN", "playing", driving=False, connections=1)
    hub = Hub(idle, done, unsaved, fresh, elsewhere, watched)
    sweep = Sweep(hub)
    sweep.run()
    assert set(hub.held) == {"KEEP", "HERE", "SEEN"}  # the copy nobody here uses is forgotten
    assert hub.store.dropped == ["IDLE", "DONE"]  # what another process drives is not closed
    assert idle.closed and done.closed and not elsewhere.closed
    assert hub.later == [(SWEEP_SECONDS, sweep.run)]
    assert sweep.next_at == pytest.approx(time.monotonic() + SWEEP_SECONDS, abs=1)


def test_a_never_started_table_closes_minutes_after_a_seated_player_was_last_seen() -> None:
    wall = time.time()
    host = SimpleNamespace(kind="human", present=True)
    table = Table("WAIT", created=wall - NEVER_STARTED_SECONDS - 1, seats=[host, None])
    hub = Hub(table)
    sweep = Sweep(hub)
    sweep.run()
    assert "WAIT" in hub.held and sweep.seen["WAIT"] >= wall  # the host is there: it stays
    host.present = False
    sweep.run()
    assert "WAIT" in hub.held  # the host's page reloads: the table waits
    sweep.seen["WAIT"] -= NEVER_STARTED_SECONDS + 1
    sweep.run()
    assert "WAIT" not in hub.held and hub.store.dropped == ["WAIT"]
    sweep.forget("WAIT")
    assert sweep.seen == {}


def test_the_sweep_knows_of_no_closing_while_every_game_is_played() -> None:
    sweep = Sweep(Hub())
    assert sweep.frees_in([Table("PLAY", "playing")], []) is None
    assert sweep.frees_in([], [("T0", record("1.2.3.4"))]) is not None


def test_delays_are_kept_only_while_measuring_and_taken_once() -> None:
    settings: dict[str, Any] = {}
    latency = Latency(settings)
    latency.record([0.1])
    assert latency.take() == []
    settings["MEASURE"] = True
    latency.record([0.1, 0.2])
    latency.record([0.3], "fanout")
    assert latency.take() == [0.1, 0.2] and latency.take() == []
    assert latency.take("fanout") == [0.3]
