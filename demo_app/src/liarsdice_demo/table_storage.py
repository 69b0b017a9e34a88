"""How a live table is kept in its store and caught up from it (a part of ``TableSession``).

Contract: :meth:`TableStorage.record` is the table as JSON data; ``_persist`` commits the record
and the game's new events as the version the table was loaded at, before anything is sent (a
table calls it first thing when it broadcasts). A commit refused because another process changed
the table first (:class:`~liarsdice_demo.live_store.StoreConflict`) makes the table reload itself
from the store (:meth:`TableStorage.refresh`), and the work that failed runs once more on the
fresh state (``_retrying``): the engine then judges it again, so of two conflicting actions one is
applied and the other gets a clear refusal. :meth:`TableStorage.sync` catches up with a change
another process announced. The table's clock and bots run only in the process that *drives* it
(:attr:`TableStorage.driving`: always, with the embedded SQLite store; the holder of the table's
lease, with Redis): :meth:`TableStorage.drive` starts driving a table another process drove (or
that was stored before a restart), resuming its clock with the time it had left, never less than
:data:`RESUME_GRACE`.
"""

from __future__ import annotations

import functools
import json
import secrets
import threading
import time
from collections.abc import Callable
from random import Random
from typing import Any, TypeVar

from liarsdice.bots import make_bot
from liarsdice.events import Event, RoundResolved
from liarsdice.game import Game
from liarsdice.i18n import Text
from liarsdice.limits import MoveLimit
from liarsdice.models import Bid, Resolution
from liarsdice.serialization import from_data, to_data
from liarsdice_demo import narrate
from liarsdice_demo.composition import TableConfig, parse_config
from liarsdice_demo.live_store import StoreConflict, StoredTable
from liarsdice_demo.protocol import message
from liarsdice_demo.seat import Seat

T = TypeVar("T")

RESTARTING = 1012
"""WebSocket close code ("service restart") for sockets of a copy dropped because the store was
unreachable: clients reconnect."""

RESUME_GRACE = 15.0
"""After a restart or a takeover, a running clock resumes with the time it had left, but never
less than this (or the whole turn, if shorter): players need a moment to reconnect."""


class TableStorage:
    """The store-facing half of a live table; ``TableSession`` provides the fields below."""

    code: str
    config: TableConfig
    hub: Any
    host_player: int | None
    public: bool
    client: str | None
    join_key: str
    uid: str
    game_no: int
    created: float
    touched: float
    lock: threading.RLock
    seats: list[Seat | None]
    status: str
    game: Game | None
    game_id: int | None
    ratings: dict[str, dict[str, float]] | None
    stopped: Text | None
    driving: bool
    _banned: set[int]
    _gen: int
    _deadline: float | None
    _deadline_at: float | None
    _reveal: dict[str, Any] | None
    _pause_until: float | None
    _log: narrate.Log
    _eliminated: list[tuple[str, int]]
    _resolutions: int
    _moves: int
    _limit: MoveLimit | None
    _version: int
    _stored_events: int
    _stored_record: dict[str, Any] | None

    # Provided by TableSession:
    _broadcast: Callable[[], None]
    _announce: list[dict[str, Any]]
    _spectators: set[Any]
    _narrate: Callable[[list[Event]], None]
    _pause: Callable[..., None]
    _next_turn: Callable[..., None]
    _arm: Callable[[float], None]
    _save_later: Callable[[], None]
    close: Callable[[str], None]

    @property
    def version(self) -> int:
        """The version of the stored table this copy holds (commits so far)."""
        return self._version

    def summary(self) -> dict[str, Any]:
        """What the lobby lists about this table."""
        with self.lock:
            return summarize(self.code, self.record())

    def record(self) -> dict[str, Any]:
        """What the store keeps of this table besides its event log, as JSON data."""
        return {
            "uid": self.uid,
            "config": self.config.to_data(),
            "title": self.config.title,
            "host_player": self.host_player,
            "public": self.public,
            "client": self.client,
            "join_key": self.join_key,
            "created": self.created,
            "banned": sorted(self._banned),
            "seats": [seat.to_data() if seat is not None else None for seat in self.seats],
            "status": self.status,
            "game": self.game_no,
            "moves": self._moves,
            "deadline": self._deadline_at,
            "reveal": _reveal_data(self._reveal),
            "pause_until": self._pause_until,
            "eliminated": [list(out) for out in self._eliminated],
            "resolutions": self._resolutions,
            "stopped": None if self.stopped is None else to_data(self.stopped),
            "game_id": self.game_id,
            "ratings": self.ratings,
        }

    def _persist(self) -> None:
        """Store what changed since the last commit (the record, the game's new events) as one
        commit on the version this table holds; :class:`StoreConflict` if the store moved on."""
        record = self.record()
        events = self.game.events[self._stored_events :] if self.game is not None else []
        if not events and record == self._stored_record:
            return
        first = self._stored_events
        self._version = self.hub.store.commit(
            self.code, self._version, record, self.game_no, first, events
        )
        self._stored_record = record
        self._stored_events += len(events)

    def save(self) -> None:
        """Store this table now (a new table: before anyone is told its code)."""
        self._retrying(self._persist)

    def _retrying(self, work: Callable[[], T]) -> T:
        """``work()`` under the table's lock. If another process changed the table first (the
        commit is refused, or ``work`` refuses with a ``ValueError`` while the store holds a
        newer version), reload the table and run ``work()`` once more on the fresh state."""
        with self.lock:
            try:
                return work()
            except StoreConflict:
                self.refresh()
            except ValueError:  # TableError, IllegalAction: judged on a copy that was behind?
                if self.hub.store.version(self.code) <= self._version:
                    raise
                self.refresh()
            return work()

    @classmethod
    def restore(cls, stored: StoredTable, hub: Any) -> Any:
        """The table ``stored`` describes, not yet driven (see :meth:`drive`). Raises
        ``ConfigError`` if its rules cannot be built here (a variant not installed) and
        ``InvalidEvent`` if its events are not a game's log."""
        record = stored.record
        config = _config(json.dumps(record["config"], sort_keys=True))
        table = cls(  # type: ignore[call-arg]
            stored.code,
            config,
            hub,
            record["host_player"],
            public=record["public"],
            client=record["client"],
        )
        table.driving = False
        table._load(stored)
        return table

    def refresh(self) -> None:
        """Reload this table from the store (it changed elsewhere), drive it on if this process
        drives it, and send the sockets here the fresh state. A table the store no longer holds
        is closed."""
        with self.lock:
            stored = self.hub.store.table(self.code)
            if stored is None:
                self.hub.forget(self.code)
                self.close("this table has closed: start a new one from the lobby")
                return
            self._load(stored)
            if self.driving:
                self._rearm()
            self._broadcast()

    def sync(
        self, version: int, announced: float | None = None, change: StoredTable | None = None
    ) -> None:
        """Catch up with what another process stored as ``version`` or later (the new events,
        the record), tell this process's sockets, and re-arm the clock if this process drives
        the table. ``change``: the announced change itself (its record, and its events from
        ``first``), used when it follows this copy's version, else the store is read;
        ``announced``: when the change was committed, for the load benchmark."""
        with self.lock:
            if version <= self._version:
                return  # caught up already
            stored = change if change is not None and self._continues(change) else None
            if stored is None:
                stored = self.hub.store.table(self.code, self.game_no, self._stored_events)
            if (
                stored is not None
                and stored.first
                and not self._continues(stored, any_version=True)
            ):
                stored = self.hub.store.table(self.code)  # this copy cannot follow: take it all
            if stored is None:
                self.hub.forget(self.code)
                self.close("this table has closed: start a new one from the lobby")
                return
            if stored.version <= self._version:
                return  # our own commit, or one we have already read
            resolved = self.status == "playing" and any(
                isinstance(event, RoundResolved) for event in stored.events
            )
            stopped = self.status != "stopped" and stored.record["status"] == "stopped"
            self._load(stored)
            if resolved and self._reveal is not None:
                self._announce.append(self._reveal)
            if stopped:
                self._announce.append(message("stopped", reason=self.stopped, moves=self._moves))
            try:
                if self.driving:
                    self._rearm()
                self._broadcast()
            except StoreConflict:  # the driver changed it meanwhile: start from what is stored
                self.refresh()
            if announced is not None:
                self.hub.record_latency([time.time() - announced], "fanout")

    def _continues(self, stored: StoredTable, any_version: bool = False) -> bool:
        """True when ``stored`` (a change from position ``first``) follows this copy: the next
        version (unless ``any_version``), and the events after those this copy holds."""
        if not any_version and stored.version != self._version + 1:
            return False
        if stored.record["game"] != self.game_no:
            return stored.first == 0
        held = len(self.game.events) if self.game is not None else 0
        return stored.first == held == self._stored_events

    def _load(self, stored: StoredTable) -> None:
        """Take every field from ``stored`` (the game: only its new events, when ``stored``
        continues the game this table holds); jobs scheduled before do nothing any more."""
        record = stored.record
        self._gen += 1
        self._announce = []
        self.touched = time.monotonic()
        self.uid, self.join_key, self.created = record["uid"], record["join_key"], record["created"]
        self._banned = set(record["banned"])
        if record["seats"] != [seat.to_data() if seat else None for seat in self.seats]:
            self._load_seats(record["seats"])
        self.status = record["status"]
        self.stopped = None if record["stopped"] is None else from_data(record["stopped"], Text)
        self._moves, self._reveal = record["moves"], _reveal_from(record["reveal"])
        self._pause_until = record.get("pause_until")  # absent from tables stored before it
        self.game_id, self.ratings = record["game_id"], record["ratings"]
        self._eliminated = [(name, when) for name, when in record["eliminated"]]
        self._resolutions = record["resolutions"]
        self._deadline_at = record["deadline"]
        left = None if self._deadline_at is None else self._deadline_at - time.time()
        self._deadline = None if left is None else time.monotonic() + left
        same_game = self.game is not None and record["game"] == self.game_no
        if stored.first and same_game and stored.first == len(self.game.events):  # type: ignore[union-attr]
            self.game.follow(stored.events)  # type: ignore[union-attr]
            self._narrate(stored.events)
        elif stored.events:
            self.game = Game.resume(self.config.rules, stored.events)
            players = len(self.game.state.players)
            self._limit = self.config.rules.move_limit(players, self.config.dice_per_player)
            self._log.clear()
            self._narrate(stored.events)
        else:
            self.game = None
        self.game_no = record["game"]
        self._version = stored.version
        self._stored_events = len(self.game.events) if self.game is not None else 0
        self._stored_record = self.record()

    def _load_seats(self, seats: list[dict[str, Any] | None]) -> None:
        """Seats from the record; each keeps the sockets of the seat of that name, and sockets
        of a seat that is gone (the host removed it) are closed."""
        before = {seat.name: seat for seat in self.seats if seat is not None}
        loaded = []
        for data in seats:
            if data is None:
                loaded.append(None)
                continue
            old = before.pop(data["name"], None)
            seat = Seat(**data) if old is not None else self._seat(data)
            if old is not None:
                seat.bot, seat.conns = old.bot, old.conns
                for conn in seat.conns:
                    conn.seat = seat.index
            loaded.append(seat)
        self.seats = loaded
        for gone in before.values():
            for conn in list(gone.conns):
                reason = "the host removed you from this table"
                conn.send(message("kicked", seat=gone.index, reason=reason))
                conn.seat = None
                conn.abandon(4403, reason)

    def _seat(self, data: dict[str, Any]) -> Seat:
        seat = Seat(**data)
        if seat.bot_kind is not None:
            seat.bot = make_bot(seat.bot_kind, self.config.rules, Random(secrets.randbits(64)))
        return seat

    def drive(self) -> None:
        """Drive this table from now on (after a restart, or when its driver died): see
        :meth:`_rearm`, with the clock resumed."""
        with self.lock:
            self.driving = True
            self._gen += 1
            try:
                self._rearm(resume=True)
            except StoreConflict:  # it changed since this copy was loaded: drive the new state
                self.refresh()

    def keep_nodes(self, alive: Callable[[str], bool]) -> None:
        """Forget the sockets of processes that are gone (``alive(node)`` is false): a restart,
        or a process that died, cannot tell its players' seats that they left."""

        def forget() -> None:
            for seat in self.seats:
                if seat is not None:
                    seat.nodes = [node for node in seat.nodes if alive(node)]
            self._broadcast()

        self._retrying(forget)

    def abandon(self, reason: str) -> None:
        """Drop this process's copy, whose state may hold a change the store never took (it
        was unreachable): stop driving it, forget it, and close its sockets with 1012 so that
        players reconnect and load the table afresh once the store is back."""
        with self.lock:
            self.driving = False
            self._gen += 1
            self.hub.forget(self.code)
            seated = [conn for seat in self.seats if seat is not None for conn in seat.conns]
            for conn in [*seated, *self._spectators]:
                conn.abandon(RESTARTING, reason)

    def stop_driving(self) -> None:
        """Another process drives this table now: this one's clock and bot jobs do nothing."""
        with self.lock:
            self.driving = False
            self._gen += 1

    def _rearm(self, resume: bool = False) -> None:
        """Schedule what the driver must do next in the state just loaded: save a finished game
        not saved yet, start the next round after a reveal, or run the turn's clock: armed to the
        stored deadline (no commit) or, to ``resume`` it, restarted with the time it had left but
        at least :data:`RESUME_GRACE` (a commit). A pause after a reveal goes on with the time it had
        left."""
        if self.status == "over" and self.game_id is None:
            self._save_later()
        if self.status != "playing" or self.game is None or self.game.state.round is None:
            return
        if self.game.state.round.over:  # the pause goes on: a reload or a sync never restarts it
            whole, until = self.hub.settings["REVEAL_PAUSE"], self._pause_until
            left = whole if until is None else max(0.0, min(whole, until - time.time()))
            self._pause(left, until)
        elif resume:
            whole = self.config.turn_seconds
            left = whole if self._deadline_at is None else self._deadline_at - time.time()
            self._next_turn(max(left, min(RESUME_GRACE, whole)))
        elif self._deadline_at is not None:
            self._arm(self._deadline_at - time.time())


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


def _reveal_from(data: dict[str, Any] | None) -> dict[str, Any] | None:
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
    return {**data, "explanation": narrate.ruling(ruling)}
