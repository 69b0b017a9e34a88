"""One live table: the coordinator that holds its lock and wires its parts together.

Contract: a table's work runs under its own re-entrant lock, so one table's work never waits on
another's: every public method takes it (itself, or through the storage's ``retrying`` and
reloads, or the driver), except :meth:`TableSession.admits`, :meth:`TableSession.record` and
:attr:`TableSession.live_key`, which take none, and :meth:`TableSession.broadcast`, which the
parts call under the lock they hold.

The server is authoritative: clients send intents (:mod:`liarsdice_demo.edge.protocol`), the table
validates them against the engine and, when they change something, sends every seat its own view
(``liarsdice.views.player_view``) and spectators the public view. Nothing about a table is sent
to a connection except through :meth:`.Fanout.state_for`, which holds no dice but the seat's own
and the dice players have put face up (and no private plugin state but the seat's own), and the
reveal after a call, which is public by the rules. Payloads a seat may send with a bid or a call
are offered only to that seat, on its turn.

Deferred work (bot turns, the turn clock, the pause after a reveal, saving a finished game) runs
on the hub's scheduler; each job carries the generation number it was scheduled for and does
nothing if the table has moved on since (:mod:`.clock`).

A game that reaches its ruleset's move limit (:meth:`liarsdice.Ruleset.move_limit`) without a
winner is stopped: the table's status becomes ``stopped``, every connection gets a ``stopped``
message saying why (repeated as ``table.stopped`` in every state), nothing is saved or rated and
no rematch is offered. Bots and the clock cannot keep a table of rules that never finish busy.

Access: a table is private unless its host made it public. Anyone with the code may watch, but
taking a seat at a private table needs its join key (the share link's secret, compared in
constant time); the key is never sent on a socket. Before the start the host may ``kick`` a seat:
its connections get a ``kicked`` message and are closed (code 4403), and that player may not sit
at this table again.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from liarsdice import phrases
from liarsdice.errors import IllegalAction
from liarsdice.i18n import Catalog, Text
from liarsdice_demo.edge.gate import TRY_AGAIN_LATER
from liarsdice_demo.edge.protocol import Intent, error
from liarsdice_demo.storage.live_store import StoreConflict, StoredTable, StoreUnavailable
from liarsdice_demo.storage.outage import AWAY_REASON
from liarsdice_demo.tables import intents
from liarsdice_demo.tables.clock import TurnClock
from liarsdice_demo.tables.composition import TableConfig
from liarsdice_demo.tables.driving import Driver
from liarsdice_demo.tables.fanout import Fanout
from liarsdice_demo.tables.game_loop import GameLoop
from liarsdice_demo.tables.match import Match
from liarsdice_demo.tables.refusals import to_the_mover
from liarsdice_demo.tables.saving import GameSaver
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.seating import Seating
from liarsdice_demo.tables.table_errors import CLOSED, GONE, TableError
from liarsdice_demo.tables.table_storage import TableStorage, restore, summarize

_, _n = Catalog(__name__).markers()


def _part(part: str, name: str, doc: str) -> Any:
    """A field of the table kept by its part ``part`` as ``name`` (read and written there)."""

    def put(table: TableSession, value: Any) -> None:
        setattr(getattr(table, part), name, value)

    return property(attrgetter(f"{part}.{name}"), put, doc=doc)


class TableSession:
    """A live table: owns the lock and wires its parts, each with one job: :attr:`seating`,
    :attr:`match`, :attr:`clock`, :attr:`fanout`, :attr:`loop` (the turn cycle), :attr:`storage`
    (the live store), :attr:`driver` (driving) and :attr:`saver` (the history). The seating, the
    match and the fan-out take no lock; the storage (``retrying``, ``refresh``, ``sync``), the
    driver (``drive``, ``abandon``, ``stop``), the saver's retry and the clock's jobs take the
    table's lock themselves, as they also run from the scheduler and the store's syncs. Each part
    names what it uses of the table (a ``Protocol`` in its module). ``hub`` provides
    ``scheduler``, ``settings``, ``store``, ``node``, ``save_game``, ``forget`` and
    ``record_latency``."""

    seats = _part("seating", "seats", "The seats (``None``: empty).")
    join_key = _part("seating", "join_key", "The share link's secret.")
    public = _part("seating", "public", "Listed, and open to anyone.")
    status = _part("match", "status", "waiting, playing, over or stopped.")
    game = _part("match", "game", "The game being played, if any.")
    game_id = _part("match", "game_id", "The finished game's history id.")
    stopped = _part("match", "stopped", "Why the game was stopped, if it was.")
    version = _part("storage", "version", "The stored version this copy holds.")

    def __init__(
        self,
        code: str,
        config: TableConfig,
        hub: Any,
        host_player: int | None,
        *,
        public: bool = False,
        client: str | None = None,
    ) -> None:
        self.code = code
        self.config = config
        self.hub = hub
        self.client = client  # the address that created the table (the per-client cap)
        self.uid = secrets.token_hex(8)
        """Tells this table from any later one given the same code (names its games' records)."""
        self.lock = threading.RLock()
        self.created = time.time()
        self.touched = time.monotonic()
        self.driving = True  # this process runs the clock and bots (see .driving)
        self._closed = False  # the hub dropped this table (close): its sockets are closing
        self.seating = Seating(config.seats, host_player, public)
        self.match = Match(config)
        self.storage = TableStorage(self)
        self.clock = TurnClock(hub, self.lock, self._live, self.storage.refresh)
        self.fanout = Fanout(code, config, self.seating, self.match, self.clock, hub)
        self.saver = GameSaver(self)
        self.loop = GameLoop(self)
        self.driver = Driver(self)

    @property
    def live_key(self) -> str:
        """Names the current game in the history: ``"<uid>:<game number>"``."""
        return f"{self.uid}:{self.match.game_no}"

    def _live(self) -> bool:
        """The clock's jobs may run: a game is played and this process drives it."""
        return self.match.status == "playing" and self.driving

    # --- seats -----------------------------------------------------------------------------------

    def admits(self, key: object) -> bool:
        """True when ``key`` lets a newcomer sit: see :meth:`.Seating.admits`."""
        return self.seating.admits(key)

    def refusal(self, player_id: int | None, key: object) -> Text | None:
        """Why ``player_id`` (``None``: a newcomer) with ``key`` may not sit here, or ``None``
        (the host, and a player already seated, need no key)."""
        with self.lock:
            return self.seating.refusal(player_id, key)

    def name_refusal(self, player_id: int | None, nickname: str) -> Text | None:
        """Why ``player_id`` may not sit here as ``nickname``: see :meth:`.Seating.name_refusal`."""
        with self.lock:
            return self.seating.name_refusal(player_id, nickname)

    def sit(self, player_id: int, nickname: str, key: object = None) -> Seat:
        """Seat ``player_id`` (or return the seat they hold); :class:`Forbidden` without the join
        key of a private table or for a player the host removed; ``TableError`` if no seat."""
        return self.storage.retrying(lambda: self._sit(player_id, nickname, key))

    def _sit(self, player_id: int, nickname: str, key: object) -> Seat:
        mine = self.seating.seat_of(player_id)
        if mine is not None:
            return mine
        seat = self.seating.take(player_id, nickname, key, self.match.status == "waiting")
        renamed = self.seating.renamed(nickname, seat)
        if renamed is not None:
            self.match.log.append(renamed)
        self.broadcast()
        return seat

    def seat_token(self, seat: Seat) -> str:
        """A new secret token for ``seat`` (its holder's tab sends it in ``hello``); the seat's
        older tokens stay valid, up to :data:`MAX_TOKENS_PER_SEAT`. Stored before it is given.
        :class:`Forbidden` if the host removed ``seat``'s player meanwhile."""
        token = secrets.token_urlsafe(18)

        def add() -> None:
            self.seating.add_token(seat.generation, token)
            self.storage.persist()

        self.storage.retrying(add)
        return token

    def seat_of(self, player_id: int | None) -> Seat | None:
        """The human seat held by ``player_id``, if any."""
        with self.lock:
            return self.seating.seat_of(player_id)

    def known_dice(self, name: str) -> tuple[int, ...]:
        """The dice ``name`` can see this round (only ever shown to that seat's player)."""
        with self.lock:
            return self.match.known_dice(name)

    # --- connections -----------------------------------------------------------------------------

    def attach(self, conn: Any, token: str | None) -> None:
        """Attach ``conn`` to the seat whose token is ``token`` (a spectator when ``None``, told
        to the table)."""
        with self.lock:
            seat = None
            if token is not None:
                seat = self.seating.by_token(token)
                if seat is None:
                    raise TableError(_("that seat token is not valid at this table"))
            self.fanout.join(conn, seat)
            conn.table = self
            conn.greeted = True
            self.touched = time.monotonic()
            self.fanout.welcome(conn, seat)
            if seat is not None:
                self._mark(seat.generation)
            else:  # everyone's state: the watchers changed (nothing stored changed)
                self.fanout.broadcast()

    def detach(self, conn: Any) -> None:
        """Forget ``conn``; a seat left without connections shows as away (its clock still runs);
        a watcher gone is told to the table."""
        with self.lock:
            watching = conn in self.fanout.spectators
            seat = self.fanout.leave(conn)
            if self._closed:  # closed: the store has dropped the table
                return
            if watching:  # everyone's state: the watchers changed
                self.fanout.broadcast()
            if seat is None:
                return
            try:
                self._mark(seat.generation)
            except StoreUnavailable:
                self.abandon(AWAY_REASON)

    def keep_present(self) -> None:
        """Record again this process's sockets in the seats that lack it (a driver forgot them
        when this process's heartbeat was late)."""
        with self.lock:
            node = self.hub.node
            missing = [s for s in self.seats if s and s.conns and node not in s.nodes]
            for seat in missing:
                self._mark(seat.generation)

    def keep_nodes(self, alive: Callable[[str], bool]) -> None:
        """Forget the sockets of processes that are gone (``alive(node)`` is false): a restart,
        or a process that died, cannot tell its players' seats that they left."""

        def forget() -> None:
            self.seating.keep_nodes(alive)
            self.broadcast()

        self.storage.retrying(forget)

    def _mark(self, generation: int) -> None:
        """Record in the seat of ``generation`` whether this process holds sockets of it (every
        process's players see who is away), and broadcast."""
        node = self.hub.node

        def mark() -> None:
            self.seating.mark(generation, node)
            seat = self.seating.of_generation(generation)
            if seat is not None:
                self.loop.presence(seat)
            self.broadcast()

        self.storage.retrying(mark)

    def close(self) -> None:
        """Close every connection of this table (code :data:`GONE`, reason :data:`CLOSED`): the hub
        has dropped it."""
        with self.lock:
            self._closed = True
            self.fanout.close_all(GONE, CLOSED)

    @property
    def connections(self) -> int:
        """How many sockets this process holds of the table."""
        with self.lock:
            return self.fanout.count()

    # --- intents ---------------------------------------------------------------------------------

    def handle(self, conn: Any, intent: Intent) -> None:
        """Carry out ``intent`` from ``conn``, or reply with an error and change nothing."""
        with self.lock:
            self.touched = time.monotonic()
            try:
                self.storage.retrying(lambda: intents.carry_out(self, conn, intent))
            except TableError as problem:
                conn.send(error(problem.text, intent))
            except IllegalAction as illegal:
                seat = self.seating.seats[conn.seat] if conn.seat is not None else None
                reasons = to_the_mover(illegal.reasons, seat.name if seat else None)
                why = phrases.clauses(reasons)  # of texts: a text (or "")
                conn.send(error(why if isinstance(why, Text) else str(why), intent))
            except StoreConflict:
                text = _("the table changed at that moment: look again and retry")
                conn.send(error(text, intent))
            except StoreUnavailable:
                text = _(
                    "the server cannot reach its table store: nothing was played, try again soon"
                )
                conn.send(error(text, intent))
                self.abandon(AWAY_REASON)

    def start_now(self) -> None:
        """Fill empty seats with bots (or drop them) and deal; ``TableError`` if under 2 seats."""
        self.storage.retrying(self.loop.start)

    def broadcast(self) -> None:
        """Store what changed, then send every connection the announcements waiting (a reveal,
        a stop) and its own state (the parts call it under the table's lock)."""
        self.storage.persist()
        self.fanout.broadcast()

    # --- the store -------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """What the lobby lists about this table."""
        with self.lock:
            return summarize(self.code, self.storage.record())

    def record(self) -> dict[str, Any]:
        """What the store keeps of this table besides its event log, as JSON data."""
        return self.storage.record()

    def save(self) -> None:
        """Store this table now (a new table: before anyone is told its code)."""
        self.storage.retrying(self.storage.persist)

    @classmethod
    def restore(cls, stored: StoredTable, hub: Any) -> TableSession:
        """The table ``stored`` describes, not yet driven: see :func:`.table_storage.restore`."""
        return restore(cls, stored, hub)

    def refresh(self) -> None:
        """Reload this table from the store: see :meth:`.TableStorage.refresh`."""
        self.storage.refresh()

    def sync(
        self, version: int, announced: float | None = None, change: StoredTable | None = None
    ) -> None:
        """Catch up with what another process stored as ``version`` or later: see
        :meth:`.TableStorage.sync`."""
        self.storage.sync(version, announced, change)

    def drive(self) -> None:
        """Drive this table from now on: see :meth:`.Driver.drive`."""
        self.driver.drive()

    def stop_driving(self) -> None:
        """Another process drives this table now: this one's clock and bot jobs do nothing."""
        self.driver.stop()

    def abandon(self, reason: str) -> None:
        """Drop this process's copy, whose state may hold a change the store never took (it is
        unreachable): stop driving it, forget it, and close its sockets with 1013 ("try again
        later"), so that players come back to the table loaded afresh once the store answers."""
        with self.lock:
            self.driver.stop()
            self._closed = True  # its sockets' goodbyes mark no seat: the copy is gone
            self.hub.forget(self.code)
            self.fanout.close_all(TRY_AGAIN_LATER, reason)
