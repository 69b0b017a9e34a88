"""One live table: its seats, the game being played, its clock and its connections.

Contract: every public method takes the table's own lock, so one table's work never waits on
another's. The server is authoritative: clients send intents (:mod:`liarsdice_demo.protocol`),
the table validates them against the engine and, when they change something, sends every seat its
own view (``liarsdice.views.player_view``) and spectators the public view. Nothing about a table
is sent to a connection except through :meth:`TableSession._state_for`, which holds no dice but
the seat's own and the dice players have put face up (and no private plugin state but the seat's
own), and the reveal after a call, which is public by the rules. Payloads a seat may send with a
bid or a call are offered only to that seat, on its turn.

Deferred work (bot turns, the turn clock, the pause after a reveal, saving a finished game) runs
on the hub's scheduler; each job carries the generation number it was scheduled for and does
nothing if the table has moved on since.

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

import hmac
import logging
import secrets
import threading
import time
from random import Random
from typing import Any

from liarsdice import engine, phrases
from liarsdice.bots import make_bot
from liarsdice.errors import IllegalAction
from liarsdice.events import Eliminated, Event, GameWon, RoundResolved
from liarsdice.game import Game
from liarsdice.i18n import Catalog, Text
from liarsdice.limits import MoveLimit
from liarsdice.models import (
    NO_PAYLOAD,
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    TimeoutAction,
)
from liarsdice.serialization import to_data
from liarsdice.views import public_events
from liarsdice_demo import narrate
from liarsdice_demo.composition import TableConfig
from liarsdice_demo.live_store import StoreConflict, StoreUnavailable
from liarsdice_demo.protocol import Intent, encode, error, message
from liarsdice_demo.seat import Seat, digest
from liarsdice_demo.table_storage import TableStorage

BOT_NAMES = ("Ada", "Boris", "Cleo", "Dmitri", "Esme", "Felix")
MAX_SPECTATORS = 200
MAX_CONNS_PER_SEAT = 3
MAX_TOKENS_PER_SEAT = 8
"""Seat tokens kept per seat (one is handed out per page load or seat request): the oldest go."""
LOG_LINES = 80
SAVE_RETRY_MAX = 60.0
"""Seconds between two attempts at most to save a finished game the SQL database refused."""

log = logging.getLogger(__name__)


_, _n = Catalog(__name__).markers()


class TableError(ValueError):
    """A request about a table cannot be granted; ``text`` says why, in any language."""

    def __init__(self, text: str | Text) -> None:
        self.text = text
        super().__init__(str(text))


class Forbidden(TableError):
    """The caller may not do that at this table (no share-link key, or removed by the host)."""


PRIVATE = _("this table is private: ask its host for the share link")
BANNED = _("the host removed you from this table: you cannot sit at it again")
KICKED = 4403
"""WebSocket close code sent to the connections of a seat the host removed."""
GONE = 4404
"""WebSocket close code: no live table has this code (any more); clients stop reconnecting."""
REPLACED = 4409
"""WebSocket close code sent to a seat's oldest tab when a newer one takes its place."""


class TableSession(TableStorage):
    """A live table. ``hub`` provides ``scheduler``, ``settings``, ``store`` and ``save_game``."""

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
        self.host_player = host_player
        self.public = public
        """Listed in the lobby, and anyone with the code may sit (else only with the join key)."""
        self.client = client
        """The address that created the table (for the per-client table cap)."""
        self.join_key = secrets.token_urlsafe(12)
        """The share link's secret: needed to sit at a private table. Never sent on a socket."""
        self.uid = secrets.token_hex(8)
        """Tells this table from any later one given the same code (names its games' records)."""
        self.game_no = 0
        """How many games this table has dealt (the current one's number)."""
        self._banned: set[int] = set()
        self.lock = threading.RLock()
        self.seats: list[Seat | None] = [None] * config.seats
        self.status = "waiting"
        self.game: Game | None = None
        self.game_id: int | None = None
        self.ratings: dict[str, dict[str, float]] | None = None
        self.created = time.time()
        self.touched = time.monotonic()
        self._spectators: set[Any] = set()
        self._gen = 0
        self._deadline: float | None = None
        self._deadline_at: float | None = None  # the same moment, as wall-clock time (stored)
        self._reveal: dict[str, Any] | None = None
        self._pause_until: float | None = None
        """When the pause after a reveal ends (wall-clock time, stored), if one is running."""
        self._log = narrate.Log(LOG_LINES)
        self._eliminated: list[tuple[str, int]] = []
        self._resolutions = 0
        self._bot_due: float | None = None
        self._moves = 0
        self._limit: MoveLimit | None = None
        self.stopped: Text | None = None
        """Why the game was stopped without a winner (status ``stopped``), else ``None``."""
        self.timing: list[float] = []
        """Stamps of actions (monotonic) waiting for their broadcast: for the load benchmark."""
        self.driving = True
        """This process runs the table's clock and bots (see :mod:`.table_storage`)."""
        self._version = 0
        self._stored_events = 0
        self._stored_record: dict[str, Any] | None = None
        self._announce: list[dict[str, Any]] = []
        """Messages for every connection, sent (after the store's commit) by the next broadcast."""
        self._closed = False
        """The hub dropped this table (:meth:`close`): its sockets are being closed."""

    # --- seats -----------------------------------------------------------------------------------

    def admits(self, key: object) -> bool:
        """True when ``key`` lets a newcomer sit: any key at a public table, else the join key
        (compared in constant time, as UTF-8 bytes)."""
        if self.public:
            return True
        if not isinstance(key, str):
            return False
        given = key.encode("utf-8", "surrogatepass")
        return hmac.compare_digest(self.join_key.encode("utf-8"), given)

    def refusal(self, player_id: int | None, key: object) -> Text | None:
        """Why ``player_id`` (``None``: a newcomer) with ``key`` may not sit here, or ``None``
        (the host, and a player already seated, need no key)."""
        with self.lock:
            if player_id is not None and player_id == self.host_player:
                return None
            if player_id is not None and self.seat_of(player_id) is not None:
                return None
            if player_id in self._banned:
                return BANNED
            return None if self.admits(key) else PRIVATE

    def sit(self, player_id: int, nickname: str, key: object = None) -> Seat:
        """Seat ``player_id`` (or return the seat they hold); :class:`Forbidden` without the join
        key of a private table or for a player the host removed; ``TableError`` if no seat."""
        return self._retrying(lambda: self._sit(player_id, nickname, key))

    def _sit(self, player_id: int, nickname: str, key: object) -> Seat:
        mine = self.seat_of(player_id)
        if mine is not None:
            return mine
        refused = self.refusal(player_id, key)
        if refused is not None:
            raise Forbidden(refused)
        if self.status != "waiting":
            raise TableError(_("the game has started: you can watch, and sit at the next table"))
        free = [i for i, seat in enumerate(self.seats) if seat is None]
        if not free:
            raise TableError(_("every seat at this table is taken"))
        seat = Seat(free[0], self._unique(nickname), "human", player_id)
        self.seats[seat.index] = seat
        self._broadcast()
        return seat

    def seat_token(self, seat: Seat) -> str:
        """A new secret token for ``seat`` (its holder's tab sends it in ``hello``); the seat's
        older tokens stay valid, up to :data:`MAX_TOKENS_PER_SEAT`. Stored before it is given."""
        token = secrets.token_urlsafe(18)

        def add() -> None:
            held = next(s for s in self.seats if s is not None and s.name == seat.name)
            held.token_hashes = [*held.token_hashes[1 - MAX_TOKENS_PER_SEAT :], digest(token)]
            self._persist()

        self._retrying(add)
        return token

    def seat_of(self, player_id: int | None) -> Seat | None:
        """The human seat held by ``player_id``, if any."""
        with self.lock:
            for seat in self.seats:
                if seat is not None and seat.kind == "human" and seat.player_id == player_id:
                    return seat
            return None

    def _unique(self, name: str) -> str:
        taken = {seat.name for seat in self.seats if seat is not None}
        candidate, n = name, 2
        while candidate in taken:
            candidate, n = f"{name} {n}", n + 1
        return candidate

    def _fill_with_bots(self) -> None:
        kind = self.config.bot_kind
        for index, seat in enumerate(self.seats):
            if seat is None and kind is not None:
                name = self._unique(BOT_NAMES[index] + narrate.BOT_SUFFIX)
                bot = make_bot(kind, self.config.rules, Random(secrets.randbits(64)))
                self.seats[index] = Seat(index, name, "bot", None, bot_kind=kind, bot=bot)
        self.seats = [seat for seat in self.seats if seat is not None]
        for index, seat in enumerate(self.seats):
            seat.index = index
            assert seat is not None
            for conn in seat.conns:
                conn.seat = index

    # --- connections -----------------------------------------------------------------------------

    def attach(self, conn: Any, token: str | None) -> None:
        """Attach ``conn`` to the seat whose token is ``token`` (a spectator when ``None``)."""
        with self.lock:
            seat = None
            if token is not None:
                seat = self._seat_by_token(token)
                if seat is None:
                    raise TableError(_("that seat token is not valid at this table"))
            if seat is None:
                if len(self._spectators) >= MAX_SPECTATORS:
                    raise TableError(_("this table has as many spectators as it can take"))
                self._spectators.add(conn)
            else:
                if len(seat.conns) >= MAX_CONNS_PER_SEAT:
                    oldest = next(iter(seat.conns))
                    del seat.conns[oldest]
                    oldest.abandon(
                        REPLACED, "this seat is open in another tab: this one was closed"
                    )
                seat.conns[conn] = None
            conn.seat = seat.index if seat else None
            conn.table = self
            conn.greeted = True
            self.touched = time.monotonic()
            conn.send(
                message(
                    "welcome",
                    code=self.code,
                    seat=conn.seat,
                    name=seat.name if seat else None,
                    config=self.config.summary(conn.locale),
                )
            )
            if seat is not None:
                self._mark(seat.name)
            else:
                conn.send(self._state_for(None))

    def _seat_by_token(self, token: str) -> Seat | None:
        return next((seat for seat in self.seats if seat is not None and seat.holds(token)), None)

    def detach(self, conn: Any) -> None:
        """Forget ``conn``; a seat left without connections shows as away (its clock still runs)."""
        with self.lock:
            self._spectators.discard(conn)
            for seat in self.seats:
                if seat is not None and conn in seat.conns:
                    del seat.conns[conn]
                    if self._closed:  # the store has dropped the table: nothing to record
                        return
                    try:
                        self._mark(seat.name)
                    except StoreUnavailable:
                        self.abandon("the table store is unreachable: reconnecting")

    def keep_present(self) -> None:
        """Record again this process's sockets in the seats that lack it (a driver forgot them
        when this process's heartbeat was late)."""
        with self.lock:
            node = self.hub.node
            missing = [s.name for s in self.seats if s and s.conns and node not in s.nodes]
            for name in missing:
                self._mark(name)

    def _mark(self, name: str) -> None:
        """Record in seat ``name`` whether this process holds sockets of it (every process's
        players see who is away), and broadcast."""
        node = self.hub.node

        def mark() -> None:
            seat = next((s for s in self.seats if s is not None and s.name == name), None)
            if seat is not None and bool(seat.conns) != (node in seat.nodes):
                if seat.conns:
                    seat.nodes.append(node)
                else:
                    seat.nodes.remove(node)
            self._broadcast()

        self._retrying(mark)

    def close(self, reason: str) -> None:
        """Close every connection of this table (code :data:`GONE`): the hub has dropped it."""
        with self.lock:
            self._closed = True
            seated = [conn for seat in self.seats if seat is not None for conn in seat.conns]
            for conn in [*seated, *self._spectators]:
                conn.abandon(GONE, reason)

    @property
    def connections(self) -> int:
        with self.lock:
            seated = sum(len(seat.conns) for seat in self.seats if seat is not None)
            return seated + len(self._spectators)

    # --- intents ---------------------------------------------------------------------------------

    def handle(self, conn: Any, intent: Intent) -> None:
        """Carry out ``intent`` from ``conn``, or reply with an error and change nothing."""
        with self.lock:
            self.touched = time.monotonic()
            try:
                self._retrying(lambda: self._handle(conn, intent))
            except TableError as problem:
                conn.send(error(problem.text, intent))
            except IllegalAction as illegal:
                conn.send(error(phrases.clauses(illegal.reasons), intent))
            except StoreConflict:
                text = _("the table changed at that moment: look again and retry")
                conn.send(error(text, intent))
            except StoreUnavailable:
                text = _(
                    "the server cannot reach its table store: nothing was played, try again soon"
                )
                conn.send(error(text, intent))
                self.abandon("the table store is unreachable: reconnecting")

    def _handle(self, conn: Any, intent: Intent) -> None:
        if intent.type == "ping":
            conn.send(message("pong", id=intent.id))
            return
        if intent.type == "hello":
            raise TableError(_("already greeted: one hello per connection"))
        seat = self.seats[conn.seat] if conn.seat is not None else None
        if seat is None:
            raise TableError(_("spectators cannot act: take a seat first"))
        if intent.type == "start":
            self._start(seat)
        elif intent.type == "rematch":
            self._rematch(seat)
        elif intent.type == "kick":
            self._kick(seat, intent.fields["seat"])
        elif intent.type == "bid":
            bid = Bid(intent.fields["quantity"], intent.fields["face"])
            self._act(BidAction(seat.name, bid, intent.fields.get("payload") or NO_PAYLOAD))
        elif intent.type == "call":
            kind = intent.fields["kind"]
            self._act(CallAction(seat.name, kind, intent.fields.get("payload") or NO_PAYLOAD))

    def _playing(self) -> Game:
        if self.status != "playing" or self.game is None:
            raise TableError(_("no game is being played at this table"))
        return self.game

    def _act(self, action: Action) -> None:
        game = self._playing()
        round_ = game.state.round
        if round_ is None or round_.over:
            raise TableError(_("the round is over: the next one starts in a moment"))
        self._apply(action)

    def _start(self, seat: Seat) -> None:
        if self.status != "waiting":
            raise TableError(_("the game has already started"))
        if seat.player_id != self.host_player:
            raise TableError(_("only the table's host can start the game"))
        self._start_now()

    def start_now(self) -> None:
        """Fill empty seats with bots (or drop them) and deal; ``TableError`` if under 2 seats."""
        self._retrying(self._start_now)

    def _start_now(self) -> None:
        if self.status != "waiting":
            raise TableError(_("the game has already started"))
        taken = sum(seat is not None for seat in self.seats)
        if self.config.bot_kind is None and taken < 2:
            raise TableError(_("a game needs 2 players: share the link, or add bots"))
        self._fill_with_bots()
        self._new_game()

    def _kick(self, host: Seat, index: int) -> None:
        """The host empties seat ``index`` before the start; its player may not sit again."""
        if host.player_id != self.host_player:
            raise TableError(_("only the table's host can remove a player"))
        if self.status != "waiting":
            raise TableError(_("players can only be removed before the game starts"))
        if index == host.index:
            raise TableError(_("the host cannot remove their own seat"))
        target = self.seats[index] if 0 <= index < len(self.seats) else None
        if target is None:
            raise TableError(_("that seat is empty"))
        self.seats[index] = None
        if target.player_id is not None:
            self._banned.add(target.player_id)
        reason = _("the host removed you from this table")
        for conn in list(target.conns):
            conn.send(message("kicked", seat=index, reason=reason))
            conn.seat = None
            conn.abandon(KICKED, reason.render(conn.locale))
        self._log.append(_("The host removed {player}.", player=target.name))
        self._broadcast()

    def _rematch(self, seat: Seat) -> None:
        if self.status == "stopped":
            raise TableError(_("this table's rules could not finish a game: open a new table"))
        if self.status != "over":
            raise TableError(_("a rematch is offered once the game is over"))
        seat.rematch = True
        humans = [s for s in self.seats if s is not None and s.kind == "human"]
        present = [s for s in humans if s.present] or humans
        if all(s.rematch for s in present):
            self._new_game()
        else:
            self._broadcast()

    # --- the game loop ---------------------------------------------------------------------------

    def _new_game(self) -> None:
        names = [seat.name for seat in self.seats if seat is not None]
        for seat in self.seats:
            if seat is not None:
                seat.rematch = False
        self.game = Game(self.config.rules, names, dice_per_player=self.config.dice_per_player)
        self.game_no += 1
        self._stored_events = 0
        self._limit = self.config.rules.move_limit(len(names), self.config.dice_per_player)
        self._moves = 0
        self.stopped = None
        self.status = "playing"
        self.game_id = None
        self.ratings = None
        self._reveal = None
        self._eliminated = []
        self._resolutions = 0
        self._log.clear()
        self._narrate(self.game.events)
        self._narrate(self.game.start_round())
        self._next_turn()

    def _apply(self, action: Action, due: float | None = None) -> None:
        """Apply ``action`` (``due``: when it was scheduled to happen, for latency figures)."""
        game = self._playing()
        stamp = due if due is not None else time.monotonic()
        before = game.state
        matching: list[int] | None = None
        if isinstance(action, CallAction) and before.round and before.round.current_bid:
            face = before.round.current_bid.face
            matching = sorted(self.config.rules.hooks.matching_faces(before, face))
        events = game.act(action)
        self._moves += 1
        self._narrate(events)
        self.timing.append(stamp)
        for event in events:
            if isinstance(event, RoundResolved):
                self._resolutions += 1
                self._reveal = self._reveal_message(event, matching)
                self._announce.append(self._reveal)
            elif isinstance(event, Eliminated):
                self._eliminated.append((event.player, self._resolutions))
        if game.over:
            self._finish()
        elif self._limit is not None and self._moves >= self._limit.moves:
            self._stop(self._limit)
        elif game.state.round is not None and game.state.round.over:
            self._pause(self.hub.settings["REVEAL_PAUSE"])
            self._broadcast()
        else:
            self._next_turn()

    def _reveal_message(self, event: RoundResolved, matching: list[int] | None) -> dict[str, Any]:
        r = event.resolution
        assert self.game is not None and self.game.state.round is not None
        revealed = r.count is not None
        return message(
            "reveal",
            round=self.game.state.round.number,
            call=r.call,
            caller=r.caller,
            bidder=r.bidder,
            bid=to_data(r.bid),
            count=r.count,
            success=r.success,
            losers=list(r.losers),
            winners=list(r.winners),
            rolls=to_data(dict(self.game.state.round.rolls)) if revealed else None,
            matching_faces=matching if revealed else None,
            explanation=narrate.ruling(r),
        )

    def _pause(self, seconds: float, until: float | None = None) -> None:
        """Stop the clock; the next round starts in ``seconds`` (the reveal stays up till then).
        ``until``: the stored end of a pause that is going on (``seconds`` is what is left)."""
        self._gen += 1
        self._set_deadline(None)
        self._pause_until = until if until is not None else time.time() + seconds
        gen = self._gen
        if self.driving:
            self.hub.scheduler.call_later(seconds, lambda: self._job(gen, self._next_round))

    def _next_round(self) -> None:
        assert self.game is not None
        self._reveal = self._pause_until = None
        self._narrate(self.game.start_round())
        self._next_turn()

    def _next_turn(self, seconds: float | None = None) -> None:
        """Start the clock of the player whose turn it is (``seconds``: what is left of it, else
        the whole turn) and, for a bot, schedule its move; then broadcast."""
        self._gen += 1
        seconds = self.config.turn_seconds if seconds is None else seconds
        self._set_deadline(seconds)
        if self.driving:
            self._arm(seconds)
        self._broadcast()

    def _arm(self, seconds: float) -> None:
        """Schedule the turn's time-out in ``seconds`` and, for a bot, its move."""
        assert self.game is not None and self.game.state.round is not None
        gen, scheduler, delay = self._gen, self.hub.scheduler, self.hub.settings["BOT_DELAY"]
        scheduler.call_later(seconds, lambda: self._job(gen, self._time_out))
        turn = self.game.state.round.turn
        seat = next(s for s in self.seats if s is not None and s.name == turn)
        if seat.kind == "bot":
            self._bot_due = time.monotonic() + delay
            scheduler.call_later(delay, lambda: self._job(gen, self._bot_turn))

    def _set_deadline(self, seconds: float | None) -> None:
        """The turn clock runs out ``seconds`` from now (``None``: no clock is running)."""
        if seconds is None:
            self._deadline = self._deadline_at = None
        else:
            self._deadline = time.monotonic() + seconds
            self._deadline_at = time.time() + seconds

    def _job(self, gen: int, fn: Any) -> None:
        """Run ``fn`` if the table is still where it was when the job was scheduled; if another
        process changed it meanwhile, catch up instead (which schedules what is due now)."""
        with self.lock:
            if gen == self._gen and self.status == "playing" and self.driving:
                try:
                    fn()
                except StoreConflict:
                    self.refresh()

    def _time_out(self) -> None:
        assert self.game is not None and self.game.state.round is not None
        self._apply(TimeoutAction(self.game.state.round.turn))

    def _bot_turn(self) -> None:
        assert self.game is not None and self.game.state.round is not None
        turn = self.game.state.round.turn
        seat = next(s for s in self.seats if s is not None and s.name == turn)
        action = seat.bot.decide(self.game.view(turn))
        try:
            self._apply(action, due=self._bot_due)
        except IllegalAction:
            self._apply(TimeoutAction(turn))  # a bot that breaks the rules forfeits its turn

    def _finish(self) -> None:
        assert self.game is not None
        self.status = "over"
        self._gen += 1
        self._set_deadline(None)
        self._broadcast()  # stores the table first: a restart that finds it unsaved saves it
        if self.driving:
            self._save_later()

    def _save_later(self) -> None:
        """Save the finished game to the history, on a scheduler worker."""
        record = self._history_record()
        self.hub.scheduler.submit(lambda: self._save(record))

    def _history_record(self) -> dict[str, Any]:
        """The finished game as :func:`liarsdice_demo.history.save_game` stores it."""
        assert self.game is not None
        winner = next(e.player for e in self.game.events if isinstance(e, GameWon))
        return {
            "code": self.code,
            "live_key": f"{self.uid}:{self.game_no}",
            "config": self.config,
            "seats": [
                {
                    "seat": s.index,
                    "name": s.name,
                    "player_id": s.player_id,
                    "bot_kind": s.bot_kind,
                }
                for s in self.seats
                if s is not None
            ],
            "places": self._places(winner),
            "winner": winner,
            "events": list(self.game.events),
        }

    def _stop(self, limit: MoveLimit) -> None:
        """End a game that reached the ruleset's move limit without a winner: it is not saved."""
        self.status = "stopped"
        self._gen += 1
        self._set_deadline(None)
        fields = {"moves": self._moves, "why": limit.explain()}
        if self.config.rated:
            self.stopped = _(
                "This table's rules could not finish the game: it was stopped with no winner "
                "after {moves} moves, the most they allow {why}. The game is not saved or rated.",
                **fields,
            )
        else:
            self.stopped = _(
                "This table's rules could not finish the game: it was stopped with no winner "
                "after {moves} moves, the most they allow {why}. The game is not saved.",
                **fields,
            )
        self._log.append(_("The game is stopped: no winner after {moves} moves.", **fields))
        self._announce.append(message("stopped", reason=self.stopped, moves=self._moves))
        self._broadcast()

    def _places(self, winner: str) -> dict[str, int]:
        """Places by order of elimination: 1 for the winner; players out on the same call share."""
        places = {winner: 1}
        ahead = 1
        groups: dict[int, list[str]] = {}
        for name, when in self._eliminated:
            groups.setdefault(when, []).append(name)
        for when in sorted(groups, reverse=True):
            for name in groups[when]:
                places[name] = ahead + 1
            ahead += len(groups[when])
        return places

    def _save(self, record: dict[str, Any], attempt: int = 0) -> None:
        """Save ``record``; while the SQL database cannot take it, try again later (at most every
        :data:`SAVE_RETRY_MAX` seconds) for as long as this process drives the table."""
        try:
            game_id, ratings = self.hub.save_game(record)
        except Exception as problem:  # the database is unreachable (any driver's error)
            delay = min(SAVE_RETRY_MAX, 2.0**attempt)
            log.warning(
                "table %s: finished game not saved (%s); trying again in %.0f s",
                self.code,
                problem,
                delay,
            )
            self.hub.scheduler.call_later(delay, lambda: self._save_again(record, attempt + 1))
            return

        def note() -> None:
            if self.status == "over" and record["live_key"] == f"{self.uid}:{self.game_no}":
                self.game_id, self.ratings = game_id, ratings or self.ratings
                self._broadcast()

        self._retrying(note)

    def _save_again(self, record: dict[str, Any], attempt: int) -> None:
        with self.lock:
            unsaved = self.game_id is None and record["live_key"] == f"{self.uid}:{self.game_no}"
            if not (unsaved and self.driving and self.status == "over"):
                return
        self._save(record, attempt)

    # --- messages --------------------------------------------------------------------------------

    def _narrate(self, events: list[Event]) -> None:
        """Add the log lines of ``events``, as a spectator may see them (the log is public)."""
        for event in public_events(events, None):
            text = narrate.line(event, self.config.rules.calls)
            if text:
                self._log.append(text)

    def _table_data(self) -> dict[str, Any]:
        host = self.host_player
        remaining = None
        if self._deadline is not None:
            remaining = max(0.0, round(self._deadline - time.monotonic(), 2))
        return {
            "code": self.code,
            "status": self.status,
            "seats": [
                seat.public(seat.kind == "human" and seat.player_id == host)
                if seat is not None
                else None
                for seat in self.seats
            ],
            "turn_seconds": self.config.turn_seconds,
            "remaining": remaining,
            "game_id": self.game_id,
            "ratings": self.ratings,
            "stopped": self.stopped,
        }

    def _state_for(self, seat: Seat | None) -> dict[str, Any]:
        """The state message for ``seat`` (``None``: a spectator): its own view only."""
        view = legal = None
        if self.game is not None:
            name = seat.name if seat is not None else None
            view = to_data(self.game.view(name))
            state = self.game.state
            if (
                name is not None
                and self.status == "playing"
                and state.round is not None
                and state.round.turn == name
                and not state.round.over
            ):
                rules = self.config.rules
                bids = engine.legal_bids(rules, state, name)
                calls = engine.legal_calls(rules, state, name)
                legal = {
                    "bids": [[b.quantity, b.face] for b in bids],
                    "calls": calls,
                    "payloads": self._payloads(state, name, bids, calls),
                }
        return message(
            "state",
            table=self._table_data(),
            seat=seat.index if seat is not None else None,
            view=view,
            legal=legal,
            reveal=self._reveal,
            log=self._log,
        )

    def _payloads(
        self, state: GameState, name: str, bids: list[Bid], calls: list[str]
    ) -> dict[str, dict[str, list[Any]]]:
        """The payloads on offer to ``name`` on their turn: for ``"bid"`` and each legal call
        kind that some plugin reads a payload of, ``{plugin: [values it would accept now]}``
        (``engine.payload_choices``). Bid payloads are asked for the lowest legal bid; the engine
        re-checks the payload with the bid actually sent."""
        rules = self.config.rules
        actions: list[Action] = [CallAction(name, kind) for kind in calls]
        if bids:
            actions.insert(0, BidAction(name, bids[0]))
        offered: dict[str, dict[str, list[Any]]] = {}
        for action in actions:
            key = "bid" if isinstance(action, BidAction) else action.kind
            if not rules.payload_readers.get(key):
                continue
            choices = engine.payload_choices(rules, state, action)
            if choices:
                offered[key] = choices
        return offered

    def _broadcast(self) -> None:
        """Store what changed, then send every connection the announcements waiting (a reveal,
        a stop) and its own state."""
        self._persist()
        announce, self._announce = self._announce, []
        everyone = [conn for seat in self.seats if seat is not None for conn in seat.conns]
        for data in announce:
            _send_each(data, [*everyone, *self._spectators])
        for seat in self.seats:
            if seat is not None and seat.conns:
                _send_each(self._state_for(seat), list(seat.conns))  # once for the seat's tabs
        if self._spectators:
            _send_each(self._state_for(None), list(self._spectators))
        if self.timing:
            self.hub.record_latency([time.monotonic() - stamp for stamp in self.timing])
            self.timing.clear()

    def own_dice(self, name: str) -> tuple[int, ...]:
        """The dice ``name`` holds this round (only ever shown to that seat's player)."""
        with self.lock:
            if self.game is None or self.game.state.round is None:
                return ()
            return tuple(self.game.state.round.rolls.get(name, ()))


def _send_each(data: dict[str, Any], conns: list[Any]) -> None:
    """Send ``data`` to each of ``conns``, encoded once per language they read."""
    encoded: dict[str, str] = {}
    for conn in conns:
        text = encoded.get(conn.locale)
        if text is None:
            text = encoded[conn.locale] = encode(data, conn.locale)
        conn.send(text)
