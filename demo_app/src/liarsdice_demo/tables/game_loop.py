"""A table's turn cycle: deal, play a move, then the next turn, the pause after a reveal, or the end.

Contract: :class:`GameLoop` runs under the table's lock (its caller's, or the clock's for a
scheduled job) and wires the table's parts in order: the match plays the move, the clock starts
the next turn (or the pause after a reveal, or stops), the bots move when it is their turn, and
every change is stored and then broadcast (the table's ``broadcast``). Only the process that
drives the table (``driving``) schedules the clock's jobs and saves a finished game. What the
loop uses of its table is :class:`LoopTable`. A game that reaches its ruleset's move limit is stopped:
every connection is told why, and nothing is saved.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from liarsdice import phrases
from liarsdice.errors import BadTableSize
from liarsdice.i18n import Catalog
from liarsdice.models import Action, TimeoutAction
from liarsdice_demo.tables import bot_driver, forgiving, stand_in
from liarsdice_demo.tables.clock import TurnClock
from liarsdice_demo.tables.composition import TableConfig
from liarsdice_demo.tables.match import OVER, REVEAL, STOPPED, Match
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.seating import Seating
from liarsdice_demo.tables.table_errors import TableError

_, _n = Catalog(__name__).markers()


class Announcing(Protocol):
    """What the loop uses of the table's fan-out (a :class:`~.fanout.Fanout` is one)."""

    @property
    def announce(self) -> list[dict[str, Any]]:
        """Messages for every connection, sent by the next broadcast."""

    @property
    def timing(self) -> list[float]:
        """Stamps of actions waiting for their broadcast."""


class Dealing(Protocol):
    """What the loop uses of the table's storage (a :class:`~.table_storage.TableStorage`)."""

    def new_game(self) -> None: ...


class Saving(Protocol):
    """What the loop uses of the table's saver (a :class:`~.saving.GameSaver` is one)."""

    def later(self) -> None: ...


class LoopTable(Protocol):
    """What a :class:`GameLoop` uses of its table (a ``TableSession`` is one)."""

    @property
    def config(self) -> TableConfig: ...
    @property
    def hub(self) -> Any:
        """Provides ``settings["REVEAL_PAUSE"]``."""

    @property
    def driving(self) -> bool: ...
    @property
    def seating(self) -> Seating: ...
    @property
    def match(self) -> Match: ...
    @property
    def clock(self) -> TurnClock: ...
    @property
    def fanout(self) -> Announcing: ...
    @property
    def storage(self) -> Dealing: ...
    @property
    def saver(self) -> Saving: ...
    def broadcast(self) -> None: ...


class GameLoop:
    """The turn cycle of ``table``."""

    def __init__(self, table: LoopTable) -> None:
        self.table = table

    def start(self) -> None:
        """Fill empty seats with bots (or drop them) and deal; ``TableError`` if the game has
        started, or it would have under 2 players or fewer than the table's preset takes (and
        then no seat is dropped)."""
        table = self.table
        if table.match.status != "waiting":
            raise TableError(_("the game has already started"))
        taken = sum(seat is not None for seat in table.seating.seats)
        if table.config.bot_kind is None and taken < 2:
            raise TableError(_("a game needs 2 players: share the link, or add bots"))
        players = len(table.seating.seats) if table.config.bot_kind else taken
        try:
            table.config.rules.check_table(players)
        except BadTableSize as too_few:
            reason = phrases.clauses(too_few.reasons)
            raise TableError(
                _("{reason}: wait for more players, or add bots", reason=reason)
            ) from None
        table.seating.fill_with_bots(table.config.bot_kind, table.config.rules)
        self.new_game()

    def host_start(self, seat: Seat) -> None:
        """``seat`` asks to start: only the host may, before the start."""
        table = self.table
        if table.match.status != "waiting":
            raise TableError(_("the game has already started"))
        if seat.player_id != table.seating.host_player:
            raise TableError(_("only the table's host can start the game"))
        self.start()

    def rematch(self, seat: Seat) -> None:
        """``seat`` asks for a rematch; the next game is dealt once every present human has."""
        table = self.table
        if table.match.status == "stopped":
            raise TableError(_("this table's rules could not finish a game: open a new table"))
        if table.match.status != "over":
            raise TableError(_("a rematch is offered once the game is over"))
        seat.rematch = True
        if table.seating.all_want_rematch():
            self.new_game()
        else:
            table.broadcast()

    def act(self, action: Action) -> None:
        """A player's move: ``TableError`` between rounds or games, ``IllegalAction`` if the
        engine refuses it."""
        round_ = self.table.match.playing().state.round
        if round_ is None or round_.over:
            raise TableError(_("the round is over: the next one starts in a moment"))
        self.apply(action)

    def new_game(self) -> None:
        """Deal a new game to the seated players and start its first turn."""
        table = self.table
        seats = [seat for seat in table.seating.seats if seat is not None]
        for seat in seats:
            seat.rematch = seat.forgiven = False
        table.storage.new_game()
        table.match.deal([seat.name for seat in seats])
        self.next_turn()

    def apply(self, action: Action, due: float | None = None) -> None:
        """Apply ``action`` (``due``: when it was scheduled to happen, for latency figures)."""
        table = self.table
        fanout = table.fanout
        stamp = due if due is not None else time.monotonic()
        then = table.match.apply(action, fanout.announce)
        fanout.timing.append(stamp)
        if then is OVER:
            self.finish()
        elif then is STOPPED:
            table.clock.halt()
            fanout.announce.append(table.match.stop())
            table.broadcast()
        elif then is REVEAL:
            self.pause(table.hub.settings["REVEAL_PAUSE"])
            table.broadcast()
        else:
            jump = self.bot_out_of_turn()
            if jump is not None:
                self.apply(jump)
            else:
                self.next_turn()

    def bot_out_of_turn(self) -> Action | None:
        """A call a bot seat makes out of turn right after the move just played (where the rules
        allow one: ``calza.anyone``), asked only by the process that drives the table."""
        table = self.table
        if not table.driving or not table.config.rules.out_of_turn or table.match.game is None:
            return None
        return bot_driver.out_of_turn(table.seating.seats, table.match.game)

    def pause(self, seconds: float, until: float | None = None) -> None:
        """Stop the clock; the next round starts in ``seconds`` (the reveal stays up till then).
        ``until``: the stored end of a pause that is going on (``seconds`` is what is left).

        A pause that goes on in a table just driven again (a restart, a takeover: its stand-ins
        are held, :meth:`.TurnClock.stand_ins_held`) lasts at least as long as they are, and its
        new end is stored: the players who come back see the reveal before the next round."""
        table = self.table
        held = table.clock.stand_ins_held() if until is not None else 0.0
        if held > seconds:
            table.clock.pause(held, self.next_round, None, table.driving)
            table.broadcast()
            return
        table.clock.pause(seconds, self.next_round, until, table.driving)

    def next_round(self) -> None:
        """The pause is over: deal the next round and start its first turn."""
        self.table.clock.pause_until = None
        self.table.match.next_round()
        self.next_turn()

    def next_turn(self, seconds: float | None = None) -> None:
        """Start the clock of the player whose turn it is (``seconds``: what is left of it, else
        the whole turn) and, for a bot, schedule its move; then broadcast."""
        table = self.table
        seconds = table.config.turn_seconds if seconds is None else seconds
        table.clock.start(seconds)
        if table.driving:
            self.arm(seconds)
        table.broadcast()

    def arm(self, seconds: float) -> None:
        """Schedule the turn's time-out in ``seconds`` and, for a bot, its move; for an away
        human, the move of the bot standing in (:mod:`.stand_in`)."""
        seat = self._turn()
        self.table.clock.arm(seconds, self.time_out, self.bot_turn if seat.kind == "bot" else None)
        if seat.kind == "human" and not seat.present:
            self.stand_in_later(seat)

    def presence(self, seat: Seat) -> None:
        """``seat``'s sockets came or went: a player back takes their seat again; a player gone
        on their own turn gets a bot standing in after the grace (by the driver)."""
        if seat.kind != "human":
            return
        if seat.present:
            back = stand_in.hand_back(seat)
            if back is not None:
                self.table.match.log.append(back)
        elif self.table.driving and self._on_turn(seat):
            self.stand_in_later(seat)

    def stand_in_later(self, seat: Seat) -> None:
        """Schedule the move of the bot standing in for away ``seat`` on its turn: after the
        grace (the bot delay once a bot stands in), and not while the clock holds stand-ins
        back (:meth:`.TurnClock.hold_stand_ins`: a table just resumed)."""
        clock = self.table.clock
        wait = max(stand_in.delay(seat, self.table.hub.settings), clock.stand_ins_held())
        clock.later(wait, self.stand_in_turn)

    def stand_in_turn(self) -> None:
        """A bot plays the turn of the away human whose turn it is (nothing if they are back)."""
        table = self.table
        seat, game = self._turn(), table.match.game
        assert game is not None
        if seat.kind != "human" or seat.present or not self._on_turn(seat):
            return
        line = stand_in.take_over(seat, table.config.rules, table.config.bot_kind)
        if line is not None:
            table.match.log.append(line)
        bot_driver.play_turn(seat, game, self.apply)

    def _on_turn(self, seat: Seat) -> bool:
        """True when a round is being played and it is ``seat``'s turn."""
        match = self.table.match
        round_ = match.game.state.round if match.game is not None else None
        return (
            match.status == "playing"
            and round_ is not None
            and not round_.over
            and round_.turn == seat.name
        )

    def time_out(self) -> None:
        """The turn's clock ran out: the player whose turn it is times out, unless the table
        forgives their first timeout (:mod:`.forgiving`): then a bot plays the turn for them."""
        table = self.table
        game = table.match.game
        assert game is not None and game.state.round is not None
        seat = self._turn()
        line = forgiving.forgive(seat, table.config)
        if line is None:
            self.apply(TimeoutAction(game.state.round.turn))
            return
        table.match.log.append(line)
        bot_driver.play_turn(seat, game, self.apply)

    def bot_turn(self) -> None:
        """The bot whose turn it is moves."""
        table = self.table
        seat, game = self._turn(), table.match.game
        assert game is not None
        bot_driver.play_turn(seat, game, self.apply, table.clock.bot_due)

    def finish(self) -> None:
        """The game is won: store and show it, then (the driver) save it to the history."""
        table = self.table
        table.match.status = "over"
        table.clock.halt()
        table.broadcast()  # stores the table first: a restart that finds it unsaved saves it
        if table.driving:
            table.saver.later()

    def _turn(self) -> Seat:
        """The seat whose turn it is."""
        game = self.table.match.game
        assert game is not None and game.state.round is not None
        turn = game.state.round.turn
        return next(s for s in self.table.seating.seats if s is not None and s.name == turn)
