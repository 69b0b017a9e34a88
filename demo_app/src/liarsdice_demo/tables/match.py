"""The game being played at a table and what it leaves: status, moves, the reveal, the log, places.

Contract: :class:`Match` wraps the engine's :class:`~liarsdice.game.Game` with what the table
shows and stores about it; it takes no lock and sends nothing. :meth:`Match.apply` plays one
action and says what comes next (:data:`OVER`, :data:`STOPPED`, :data:`REVEAL` or :data:`TURN`).
The log holds only public lines (``narrate``); the reveal after a call is public by the rules. A
game that reaches its ruleset's move limit without a winner is stopped (:meth:`Match.stop`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from liarsdice import engine
from liarsdice.events import Eliminated, Event, RoundResolved
from liarsdice.game import Game
from liarsdice.i18n import Catalog, Text
from liarsdice.limits import MoveLimit
from liarsdice.models import Action, CallAction
from liarsdice.serialization import to_data
from liarsdice.views import public_events
from liarsdice_demo.edge.protocol import message
from liarsdice_demo.tables.composition import TableConfig
from liarsdice_demo.tables.table_errors import TableError
from liarsdice_demo.text import narrate

LOG_LINES = 80
OVER, STOPPED, REVEAL, TURN = "over", "stopped", "reveal", "turn"
"""What comes after an action: the game is won, stopped, a round was called, the next turn."""

_, _n = Catalog(__name__).markers()


class Match:
    """The current game of a table (``game`` is ``None`` before the first deal)."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.game: Game | None = None
        self.game_no = 0
        """How many games this table has dealt (the current one's number)."""
        self.status = "waiting"
        """``waiting``, ``playing``, ``over`` or ``stopped``."""
        self.game_id: int | None = None
        """The finished game's id in the history, once saved."""
        self.ratings: dict[str, dict[str, float]] | None = None
        self.stopped: Text | None = None
        """Why the game was stopped without a winner (status ``stopped``), else ``None``."""
        self.moves = 0
        self.limit: MoveLimit | None = None
        self.reveal: dict[str, Any] | None = None
        """The reveal message of the last call, while its pause runs (or the game is over)."""
        self.log = narrate.Log(LOG_LINES)
        self.eliminated: list[tuple[str, int]] = []
        """Who went out, and after how many resolved rounds."""
        self.resolutions = 0

    def playing(self) -> Game:
        """The game, while one is played; else ``TableError``."""
        if self.status != "playing" or self.game is None:
            raise TableError(_("no game is being played at this table"))
        return self.game

    def deal(self, names: list[str]) -> None:
        """Start a new game of ``names`` and its first round."""
        config = self.config
        self.game = Game(config.rules, names, dice_per_player=config.dice_per_player)
        self.game_no += 1
        self.limit = config.rules.move_limit(len(names), config.dice_per_player)
        self.moves = 0
        self.stopped = None
        self.status = "playing"
        self.game_id = None
        self.ratings = None
        self.reveal = None
        self.eliminated = []
        self.resolutions = 0
        self.log.clear()
        self.narrate(self.game.events)
        self.narrate(self.game.start_round())

    def apply(self, action: Action, announce: list[dict[str, Any]]) -> str:
        """Play ``action`` (``IllegalAction`` if the engine refuses it: nothing changes), add a
        reveal to ``announce``, and say what comes next: :data:`OVER`, :data:`STOPPED` (the move
        limit: call :meth:`stop`), :data:`REVEAL` (a round was called) or :data:`TURN`."""
        game = self.playing()
        before = game.state
        matching: list[int] | None = None
        if isinstance(action, CallAction) and before.round and before.round.current_bid:
            matching = sorted(
                engine.counted_faces(self.config.rules, before, before.round.current_bid)
            )
        events = game.act(action)
        self.moves += 1
        self.narrate(events)
        for event in events:
            if isinstance(event, RoundResolved):
                self.resolutions += 1
                self.reveal = self.reveal_message(event, matching)
                announce.append(self.reveal)
            elif isinstance(event, Eliminated):
                self.eliminated.append((event.player, self.resolutions))
        if game.over:
            return OVER
        if self.limit is not None and self.moves >= self.limit.moves:
            return STOPPED
        if game.state.round is not None and game.state.round.over:
            return REVEAL
        return TURN

    def next_round(self) -> None:
        """Deal the next round (the reveal comes down)."""
        assert self.game is not None
        self.reveal = None
        self.narrate(self.game.start_round())

    def stop(self) -> dict[str, Any]:
        """Stop a game that reached the move limit without a winner (it is not saved); the
        ``stopped`` message for every connection."""
        assert self.limit is not None
        self.status = "stopped"
        fields = {"moves": self.moves, "why": self.limit.explain()}
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
        self.log.append(_("The game is stopped: no winner after {moves} moves.", **fields))
        return self.stopped_message()

    def stopped_message(self) -> dict[str, Any]:
        """The ``stopped`` message: why, and after how many moves."""
        return message("stopped", reason=self.stopped, moves=self.moves)

    def reveal_message(self, event: RoundResolved, matching: list[int] | None) -> dict[str, Any]:
        """The public reveal of the call ``event`` resolved: the cups are lifted (the rolls
        and ``matching`` faces are shown when the call counted dice)."""
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
            explanation=narrate.ruling(r, self.config.rules.bid_kind),
        )

    def narrate(self, events: list[Event]) -> None:
        """Add the log lines of ``events``, as a spectator may see them (the log is public)."""
        for event in public_events(events, None):
            text = narrate.line(event, self.config.rules.calls, self.config.rules.bid_kind)
            if text:
                self.log.append(text)

    def places(self, winners: Sequence[str]) -> dict[str, int]:
        """Places: 1 for every winner (a winning team's players out already too), then the others
        by order of elimination; players out on the same call share a place."""
        places = dict.fromkeys(winners, 1)
        ahead = len(places)
        groups: dict[int, list[str]] = {}
        for name, when in self.eliminated:
            if name not in places:
                groups.setdefault(when, []).append(name)
        for when in sorted(groups, reverse=True):
            for name in groups[when]:
                places[name] = ahead + 1
            ahead += len(groups[when])
        return places

    def known_dice(self, name: str) -> tuple[int, ...]:
        """The dice ``name`` can see this round (only ever shown to that seat's player): their
        own unless the rules hide them, others' where the rules show them, the dice face up."""
        if self.game is None or self.game.state.round is None:
            return ()
        return self.game.view(name).known_dice
