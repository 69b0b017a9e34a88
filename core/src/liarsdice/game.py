"""``Game``: a small stateful wrapper over the engine, keeping the state and the event log."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from random import Random

from liarsdice import engine
from liarsdice.errors import IllegalAction
from liarsdice.events import Event
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState, TimeoutAction
from liarsdice.reducer import Draft, replay
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, player_view


class Game:
    """One game under ``rules``. ``rng`` defaults to ``secrets.SystemRandom()`` (live play).

    ``state`` is always the current state and ``events`` the full log, so
    ``liarsdice.reducer.replay(game.events) == game.state``. The game keeps a
    :class:`~liarsdice.reducer.Draft` and freezes ``state`` when it is read, so moves in a row
    cost no snapshot each; after a plugin error the draft is rebuilt from the log.
    """

    def __init__(
        self,
        rules: Ruleset,
        players: Sequence[str],
        rng: Random | None = None,
        *,
        dice_per_player: int = 5,
        first_opener: str | None = None,
    ) -> None:
        self.rules = rules
        self.rng = rng if rng is not None else secrets.SystemRandom()
        self._draft, self.events = engine.start_game(
            rules, players, self.rng, dice_per_player=dice_per_player, first_opener=first_opener
        )

    @classmethod
    def resume(cls, rules: Ruleset, events: Sequence[Event], rng: Random | None = None) -> Game:
        """The game whose log so far is ``events`` (as kept by a store), ready to go on.

        Raises :class:`~liarsdice.reducer.InvalidEvent` if ``events`` is not a game's log.
        """
        game = cls.__new__(cls)
        game.rules = rules
        game.rng = rng if rng is not None else secrets.SystemRandom()
        game.events = list(events)
        game._draft = Draft(replay(game.events))
        return game

    def follow(self, events: Sequence[Event]) -> None:
        """Append ``events`` that another copy of this game produced (read from a shared store),
        folding each in order. An event that does not fit raises
        :class:`~liarsdice.reducer.InvalidEvent`; the events before it are kept."""
        for event in events:
            self._draft.apply(event)
            self.events.append(event)

    @property
    def state(self) -> GameState:
        """The state after every event so far."""
        return self._draft.freeze()

    def _record(self, play: Callable[[Draft], list[Event]]) -> list[Event]:
        kept = self._draft.frozen
        try:
            events = play(self._draft)
        except IllegalAction:  # refused before anything changed
            raise
        except BaseException:  # a plugin broke the move half way: back to the state before it
            self._draft = Draft(kept if kept is not None else replay(self.events))
            raise
        self.events.extend(events)
        return events

    def start_round(self, rolls: Mapping[str, Sequence[int]] | None = None) -> list[Event]:
        """Roll (or take ``rolls``) and open the next round; returns the new events."""
        return self._record(
            lambda draft: engine.open_round(self.rules, draft, self.rng, rolls=rolls)
        )

    def act(self, action: Action) -> list[Event]:
        """Apply ``action`` (raises ``IllegalAction``, changing nothing, if it is illegal)."""
        return self._record(lambda draft: engine.advance(self.rules, draft, action, self.rng))

    def bid(self, player: str, quantity: int, face: int) -> list[Event]:
        """``player`` bids ``quantity`` dice showing ``face``."""
        return self.act(BidAction(player, Bid(quantity, face)))

    def call(self, player: str, kind: str = "challenge") -> list[Event]:
        """``player`` calls the bid on the table."""
        return self.act(CallAction(player, kind))

    def timeout(self, player: str) -> list[Event]:
        """``player``'s clock runs out."""
        return self.act(TimeoutAction(player))

    def view(self, player: str | None) -> PlayerView:
        """What ``player`` may see (``None``: a spectator)."""
        return player_view(self.rules, self.state, player)

    @property
    def over(self) -> bool:
        return self._draft.over
