"""How a live table is kept in its store and caught up from it.

Contract: :meth:`TableStorage.record` is the table as JSON data; :meth:`TableStorage.persist`
commits the record and the game's new events as the version the table was loaded at, before
anything is sent (a table calls it first thing when it broadcasts). A commit refused because
another process changed the table first (:class:`~liarsdice_demo.storage.live_store.StoreConflict`) makes
the table reload itself from the store (:meth:`TableStorage.refresh`), and the work that failed
runs once more on the fresh state (:meth:`TableStorage.retrying`): the engine then judges it
again, so of two conflicting actions one is applied and the other gets a clear refusal.
:meth:`TableStorage.sync` catches up with a change another process announced. After a reload,
the process that drives the table re-arms its clock (:meth:`.Driver.rearm`).

:class:`TableStorage` is a part of a ``TableSession`` (its ``storage``); what it uses of the
table is :class:`KeptTable`. :meth:`~TableStorage.retrying`, :meth:`~TableStorage.refresh` and
:meth:`~TableStorage.sync` take the table's re-entrant lock themselves (they also run from the
scheduler and from the store's announcements); :meth:`~TableStorage.persist`,
:meth:`~TableStorage.load` and :meth:`~TableStorage.record` run under the caller's.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from liarsdice.bidkinds import BidKind
from liarsdice.events import RoundResolved
from liarsdice.game import Game
from liarsdice.i18n import Text
from liarsdice.models import Bid, Resolution
from liarsdice.serialization import from_data, to_data
from liarsdice_demo.storage.live_store import StoreConflict, StoredTable
from liarsdice_demo.tables.clock import TurnClock
from liarsdice_demo.tables.composition import TableConfig, parse_config
from liarsdice_demo.tables.match import Match
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.seating import Seating
from liarsdice_demo.tables.table_errors import REMOVED
from liarsdice_demo.text import narrate

T = TypeVar("T")


class Outbox(Protocol):
    """What the storage uses of the table's fan-out (a :class:`~.fanout.Fanout` is one)."""

    announce: list[dict[str, Any]]

    def dismiss(self, seat: Seat, reason: str | Text) -> None: ...


class Rearming(Protocol):
    """What the storage uses of the table's driver (a :class:`~.driving.Driver` is one)."""

    def rearm(self, resume: bool = False) -> None: ...


class KeptTable(Protocol):
    """What :class:`TableStorage` uses of its table (a ``TableSession`` is one): the fields it
    stores and loads, its parts, and what it does after a reload."""

    uid: str
    created: float
    touched: float

    @property
    def code(self) -> str: ...
    @property
    def config(self) -> TableConfig: ...
    @property
    def client(self) -> str | None: ...
    @property
    def lock(self) -> threading.RLock: ...
    @property
    def hub(self) -> Any:
        """Provides ``store``, ``forget`` and ``record_latency``."""

    @property
    def driving(self) -> bool: ...
    @property
    def seating(self) -> Seating: ...
    @property
    def match(self) -> Match: ...
    @property
    def clock(self) -> TurnClock: ...
    @property
    def fanout(self) -> Outbox: ...
    @property
    def driver(self) -> Rearming: ...
    def close(self) -> None: ...
    def broadcast(self) -> None: ...


class TableStorage:
    """The store-facing part of a live table ``table`` (a ``TableSession``)."""

    def __init__(self, table: KeptTable) -> None:
        self.table = table
        self.version = 0
        """The version of the stored table this copy holds (commits so far)."""
        self.stored_events = 0
        """How many of the game's events the store holds."""
        self.stored_record: dict[str, Any] | None = None
        """The record as last committed."""

    def record(self) -> dict[str, Any]:
        """What the store keeps of this table besides its event log, as JSON data."""
        table = self.table
        seating, match, clock = table.seating, table.match, table.clock
        return {
            "uid": table.uid,
            "config": table.config.to_data(),
            "title": table.config.title,
            "host_player": seating.host_player,
            "public": seating.public,
            "client": table.client,
            "join_key": seating.join_key,
            "created": table.created,
            "banned": sorted(seating.banned),
            "seats": seating.to_data(),
            "seat_generation": seating.generation,
            "status": match.status,
            "game": match.game_no,
            "moves": match.moves,
            "deadline": clock.deadline_at,
            "reveal": _reveal_data(match.reveal),
            "pause_until": clock.pause_until,
            "eliminated": [list(out) for out in match.eliminated],
            "resolutions": match.resolutions,
            "stopped": None if match.stopped is None else to_data(match.stopped),
            "game_id": match.game_id,
            "ratings": match.ratings,
        }

    def persist(self) -> None:
        """Store what changed since the last commit (the record, the game's new events) as one
        commit on the version this table holds; :class:`StoreConflict` if the store moved on."""
        table = self.table
        match = table.match
        record = self.record()
        events = match.game.events[self.stored_events :] if match.game is not None else []
        if not events and record == self.stored_record:
            return
        first = self.stored_events
        self.version = table.hub.store.commit(
            table.code, self.version, record, match.game_no, first, events
        )
        self.stored_record = record
        self.stored_events += len(events)

    def new_game(self) -> None:
        """A new game is dealt: the store holds none of its events yet."""
        self.stored_events = 0

    def retrying(self, work: Callable[[], T]) -> T:
        """``work()`` under the table's lock. If another process changed the table first (the
        commit is refused, or ``work`` refuses with a ``ValueError`` while the store holds a
        newer version), reload the table and run ``work()`` once more on the fresh state."""
        table = self.table
        with table.lock:
            try:
                return work()
            except StoreConflict:
                self.refresh()
            except ValueError:  # TableError, IllegalAction: judged on a copy that was behind?
                if table.hub.store.version(table.code) <= self.version:
                    raise
                self.refresh()
            return work()

    def refresh(self) -> None:
        """Reload the table from the store (it changed elsewhere), drive it on if this process
        drives it, and send the sockets here the fresh state. A table the store no longer holds
        is closed."""
        table = self.table
        with table.lock:
            stored = table.hub.store.table(table.code)
            if stored is None:
                table.hub.forget(table.code)
                table.close()
                return
            self.load(stored)
            if table.driving:
                table.driver.rearm()
            table.broadcast()

    def sync(
        self, version: int, announced: float | None = None, change: StoredTable | None = None
    ) -> None:
        """Catch up with what another process stored as ``version`` or later (the new events,
        the record), tell this process's sockets, and re-arm the clock if this process drives
        the table. ``change``: the announced change itself (its record, and its events from
        ``first``), used when it follows this copy's version, else the store is read;
        ``announced``: when the change was committed, for the load benchmark."""
        table = self.table
        with table.lock:
            if version <= self.version:
                return  # caught up already
            stored = change if change is not None and self._continues(change) else None
            if stored is None:
                game_no = table.match.game_no
                stored = table.hub.store.table(table.code, game_no, self.stored_events)
            if (
                stored is not None
                and stored.first
                and not self._continues(stored, any_version=True)
            ):
                stored = table.hub.store.table(table.code)  # this copy cannot follow: take it all
            if stored is None:
                table.hub.forget(table.code)
                table.close()
                return
            if stored.version <= self.version:
                return  # our own commit, or one we have already read
            match = table.match
            resolved = match.status == "playing" and any(
                isinstance(event, RoundResolved) for event in stored.events
            )
            stopped = match.status != "stopped" and stored.record["status"] == "stopped"
            self.load(stored)
            if resolved and match.reveal is not None:
                table.fanout.announce.append(match.reveal)
            if stopped:
                table.fanout.announce.append(match.stopped_message())
            try:
                if table.driving:
                    table.driver.rearm()
                table.broadcast()
            except StoreConflict:  # the driver changed it meanwhile: start from what is stored
                self.refresh()
            if announced is not None:
                table.hub.record_latency([time.time() - announced], "fanout")

    def _continues(self, stored: StoredTable, any_version: bool = False) -> bool:
        """True when ``stored`` (a change from position ``first``) follows this copy: the next
        version (unless ``any_version``), and the events after those this copy holds."""
        if not any_version and stored.version != self.version + 1:
            return False
        match = self.table.match
        if stored.record["game"] != match.game_no:
            return stored.first == 0
        held = len(match.game.events) if match.game is not None else 0
        return stored.first == held == self.stored_events

    def load(self, stored: StoredTable) -> None:
        """Take every field from ``stored`` (the game: only its new events, when ``stored``
        continues the game this table holds); jobs scheduled before do nothing any more."""
        table = self.table
        seating, match, clock, fanout = table.seating, table.match, table.clock, table.fanout
        record = stored.record
        clock.invalidate()
        fanout.announce = []
        table.touched = time.monotonic()
        table.uid, seating.join_key, table.created = (
            record["uid"],
            record["join_key"],
            record["created"],
        )
        seating.banned = set(record["banned"])
        # seat_generation is absent from tables stored before it
        generation = record.get("seat_generation", 0)
        if record["seats"] != seating.to_data() or generation != seating.generation:
            for gone in seating.load(record["seats"], generation, table.config.rules):
                fanout.dismiss(gone, REMOVED)  # another process removed it: closed 4403 here too
        match.status = record["status"]
        match.stopped = None if record["stopped"] is None else from_data(record["stopped"], Text)
        kind = table.config.rules.bid_kind
        match.moves, match.reveal = record["moves"], _reveal_from(record["reveal"], kind)
        match.game_id, match.ratings = record["game_id"], record["ratings"]
        match.eliminated = [(name, when) for name, when in record["eliminated"]]
        match.resolutions = record["resolutions"]
        # pause_until is absent from tables stored before it
        clock.load(record["deadline"], record.get("pause_until"))
        held = match.game if record["game"] == match.game_no else None  # the same game
        if stored.first and held is not None and stored.first == len(held.events):
            held.follow(stored.events)
            match.narrate(stored.events)
        elif stored.events:
            config = table.config
            match.game = Game.resume(config.rules, stored.events)
            players = len(match.game.state.players)
            match.limit = config.rules.move_limit(players, config.dice_per_player)
            match.log.clear()
            match.narrate(stored.events)
        else:
            match.game = None
        match.game_no = record["game"]
        self.version = stored.version
        self.stored_events = len(match.game.events) if match.game is not None else 0
        self.stored_record = self.record()


class Restorable(Protocol):
    """What :func:`restore` sets of the table it makes (a ``TableSession`` is one)."""

    driving: bool

    @property
    def storage(self) -> TableStorage: ...


R = TypeVar("R", bound=Restorable)


def restore(make: Callable[..., R], stored: StoredTable, hub: Any) -> R:
    """The table ``stored`` describes, made by ``make`` (``TableSession``), not yet driven (see
    :meth:`.Driver.drive`). Raises ``ConfigError`` if its rules cannot be built here (a
    variant not installed) and ``InvalidEvent`` if its events are not a game's log."""
    record = stored.record
    config = _config(json.dumps(record["config"], sort_keys=True))
    table = make(
        stored.code,
        config,
        hub,
        record["host_player"],
        public=record["public"],
        client=record["client"],
    )
    table.driving = False
    table.storage.load(stored)
    return table


def summarize(code: str, record: dict[str, Any]) -> dict[str, Any]:
    """What the lobby lists about the table stored as ``record``."""
    config = record["config"]
    return {
        "code": code,
        "title": record["title"],
        "status": record["status"],
        "seats": len(record["seats"]),
        "taken": sum(seat is not None for seat in record["seats"]),
        "rated": config["rated"],
        "bot_kind": config["bot_kind"],
        "public": record["public"],
    }


@functools.lru_cache(maxsize=256)
def _config(data: str) -> TableConfig:
    """The table config of ``data`` (JSON), built once per distinct config: a process loading
    many tables of one combination builds its ruleset once."""
    return parse_config(json.loads(data))


def _reveal_data(reveal: dict[str, Any] | None) -> dict[str, Any] | None:
    """A reveal message as stored: without its explanation, which its ruling's fields give."""
    if reveal is None:
        return None
    return {key: value for key, value in reveal.items() if key != "explanation"}


def _reveal_from(data: dict[str, Any] | None, kind: BidKind) -> dict[str, Any] | None:
    """A stored reveal message, its explanation worked out again from its ruling's fields (a
    text any language can read)."""
    if data is None:
        return None
    ruling = Resolution(
        call=data["call"],
        caller=data["caller"],
        bidder=data["bidder"],
        bid=None if data["bid"] is None else from_data(data["bid"], Bid),
        count=data["count"],
        success=data["success"],
        losers=tuple(data["losers"]),
        winners=tuple(data["winners"]),
    )
    return {**data, "explanation": narrate.ruling(ruling, kind)}
