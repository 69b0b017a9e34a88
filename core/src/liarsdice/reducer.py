"""The fold of events into game state, with no rules in it: the rules decide which events happen.

Every event is folded by :class:`Draft`, a game state open for change: it checks the event against
the state, changes the state in place and gives a frozen :class:`~liarsdice.models.GameState`
when asked. :func:`apply_event` and :func:`replay` are the pure entry points. An event that
cannot apply (a plugin returned an effect that would break an invariant, or an event log was
tampered with) raises :class:`InvalidEvent` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from liarsdice.draft import DraftState
from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
    DiceRerolled,
    DiceShown,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    Notice,
    OpenerChosen,
    PluginStateSet,
    PrivateStateSet,
    RoundResolved,
    RoundStarted,
    TimedOut,
    TurnPassed,
)
from liarsdice.models import GameState, PlacedBid, PlayerState, Sight, remove_dice

_FACES = frozenset(range(1, 7))
_ANNOUNCEMENTS = (CallMade, TimedOut, Notice)


class InvalidEvent(ValueError):
    """An event does not fit the state it was applied to."""


class Draft(DraftState):
    """A game state open for change, folding one event at a time.

    The fields, :meth:`freeze` and the reads are :class:`~liarsdice.draft.DraftState`'s.
    :meth:`apply` checks an event before it changes anything, so an event that raises
    :class:`InvalidEvent` leaves the draft as it was; folding many events between two reads costs
    one snapshot. Treat the fields as read only; only :meth:`apply` changes them.
    """

    __slots__ = ()

    @classmethod
    def started(cls, event: GameStarted) -> Draft:
        """The draft of a game that ``event`` starts."""
        return cls(_started(event))

    # --- folding ------------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Fold ``event`` in; raise :class:`InvalidEvent`, changing nothing, if it does not fit."""
        kind = event.__class__
        if kind is BidMade:
            self._bid_made(event)  # type: ignore[arg-type]
        elif kind in _ANNOUNCEMENTS:
            return
        else:
            _FOLDS[kind](self, event)

    def _game_started(self, event: GameStarted) -> None:
        self._load(_started(event))

    def _round_started(self, event: RoundStarted) -> None:
        rolls = event.rolls
        dealt = {player.name: player.dice for player in self.players if player.dice}
        if (
            rolls.keys() != dealt.keys()
            or any(len(rolls[name]) != dice for name, dice in dealt.items())
            or not _FACES.issuperset(face for roll in rolls.values() for face in roll)
        ):
            self._check_rolls(rolls)  # the usual deal failed a quick check: say what is wrong
        self.fold_deal(event)

    def fold_deal(self, event: RoundStarted) -> None:
        """Fold ``event`` without checking its rolls against the seats: for a deal the engine
        made from this draft's seats (:func:`liarsdice.engine.deal`), right by construction.
        Its sights are checked."""
        if event.sights:
            self._check_sights(event.sights, event.rolls)
        self.number, self.opener, self.turn = event.number, event.opener, event.opener
        self.rolls, self.dice_in_play = event.rolls, sum(map(len, event.rolls.values()))
        self.bids, self.resolution, self.sights = (), None, event.sights
        self.shown, self.private = {}, {}
        self.next_opener = None
        self._round_changed()

    def _bid_made(self, event: BidMade) -> None:
        self._round_open()
        self.turn = self.next_alive(event.player)
        self.bids = (*self.bids, PlacedBid(event.player, event.bid))
        self._round_changed()

    def _turn_passed(self, event: TurnPassed) -> None:
        self._round_open()
        if not self.player(event.player).alive:
            raise InvalidEvent(f"{event.player} is out and cannot take the turn")
        self.turn = event.player
        self._round_changed()

    def _round_resolved(self, event: RoundResolved) -> None:
        self._round_open()
        self.resolution = event.resolution
        self._round_changed()

    def _dice_shown(self, event: DiceShown) -> None:
        hidden = self._hidden(event.player)
        try:
            remove_dice(hidden, event.dice)
        except ValueError:
            raise InvalidEvent(
                f"{event.player} cannot show {list(event.dice)}: "
                f"their hidden dice are {list(hidden)}"
            ) from None
        earlier = self.shown.get(event.player, ())
        self.shown = {**self.shown, event.player: (*earlier, *event.dice)}
        self._round_changed()

    def _dice_rerolled(self, event: DiceRerolled) -> None:
        hidden = self._hidden(event.player)
        if len(event.faces) != len(event.dice) or not _FACES.issuperset(event.faces):
            raise InvalidEvent(
                f"rerolling {list(event.dice)} must give as many faces 1-6, not {list(event.faces)}"
            )
        try:
            remove_dice(hidden, event.dice)
        except ValueError:
            raise InvalidEvent(
                f"{event.player} cannot reroll {list(event.dice)}: "
                f"their hidden dice are {list(hidden)}"
            ) from None
        kept = remove_dice(self.rolls[event.player], event.dice)
        self.rolls = {**self.rolls, event.player: (*kept, *event.faces)}
        self._round_changed()

    def _private_state_set(self, event: PrivateStateSet) -> None:
        self._round_open()
        if event.player not in self.rolls:
            raise InvalidEvent(f"{event.player} is not playing this round")
        mine = self.private.get(event.plugin, {})
        own = {**mine.get(event.player, {}), event.key: event.value}
        self.private = {**self.private, event.plugin: {**mine, event.player: own}}
        self._round_changed()

    def _dice_changed(self, event: DiceChanged) -> None:
        seat = self.seat(event.player)
        player = self.players[seat]
        dice = player.dice + event.delta
        if not player.alive or not 0 <= dice <= self.dice_per_player:
            raise InvalidEvent(
                f"{event.player} cannot go from {player.dice} to {dice} dice "
                f"(alive={player.alive}, starting count {self.dice_per_player}): {event.reason}"
            )
        self._seat_changed(seat, PlayerState(player.name, dice, player.alive))

    def _eliminated(self, event: Eliminated) -> None:
        seat = self.seat(event.player)
        if not self.players[seat].alive:
            raise InvalidEvent(f"{event.player} is already out")
        self._seat_changed(seat, PlayerState(event.player, 0, False))

    def _plugin_state_set(self, event: PluginStateSet) -> None:
        own = {**self.plugins.get(event.plugin, {}), event.key: event.value}
        self.plugins = {**self.plugins, event.plugin: own}
        self._state = None

    def _opener_chosen(self, event: OpenerChosen) -> None:
        if not self.player(event.player).alive:
            raise InvalidEvent(f"{event.player} is out and cannot open")
        self.next_opener = event.player
        self._state = None

    def _game_won(self, event: GameWon) -> None:
        if not event.winners:
            raise InvalidEvent("a game is won by at least one player")
        for name in event.winners:
            self.player(name)  # KeyError for a stranger, as for any event
        self.winners, self.next_opener = tuple(event.winners), None
        self._state = None

    # --- checking -----------------------------------------------------------------------------

    def _round_open(self) -> None:
        if not self.in_round:
            raise InvalidEvent("no round is being played")

    def _check_sights(
        self, sights: tuple[Sight, ...], rolls: Mapping[str, tuple[int, ...]]
    ) -> None:
        """Raise :class:`InvalidEvent` unless each sight is of a viewer at the table (or a
        spectator), once, and names players who rolled dice."""
        viewers = [sight.viewer for sight in sights]
        names = {player.name for player in self.players}
        if len(set(viewers)) != len(viewers) or not names.issuperset(v for v in viewers if v):
            raise InvalidEvent(f"sights {viewers} are not of distinct viewers at the table")
        for sight in sights:
            if not set(sight.owners) <= set(rolls):
                raise InvalidEvent(
                    f"{sight.viewer} sees dice of {list(sight.owners)}, not all dealt"
                )

    def _check_rolls(self, rolls: Mapping[str, tuple[int, ...]]) -> None:
        """Raise :class:`InvalidEvent` unless ``rolls`` holds a roll of the right size for every
        living player (a living player with no dice may have none) and nothing else."""
        strangers = set(rolls).difference(player.name for player in self.players)
        if strangers:
            raise InvalidEvent(
                f"rolls for {', '.join(sorted(strangers))}, who are not at the table"
            )
        for player in self.players:
            roll = rolls.get(player.name)
            expected = player.dice if player.alive else None
            if (roll is None and expected) or (roll is not None and len(roll) != expected):
                raise InvalidEvent(f"{player.name} must roll {expected or 0} dice")
            if roll and not _FACES.issuperset(roll):
                raise InvalidEvent(f"{player.name}'s roll {list(roll)} has a face outside 1-6")

    def _hidden(self, player: str) -> tuple[int, ...]:
        self._round_open()
        if player not in self.rolls:
            raise InvalidEvent(f"{player} holds no dice this round")
        roll = self.rolls[player]
        shown = self.shown.get(player)
        return roll if not shown else remove_dice(roll, shown)


def _started(event: GameStarted) -> GameState:
    players = tuple(PlayerState(name, event.dice_per_player) for name in event.players)
    return GameState(players, event.dice_per_player)


_FOLDS: dict[type, Any] = {
    GameStarted: Draft._game_started,
    RoundStarted: Draft._round_started,
    TurnPassed: Draft._turn_passed,
    RoundResolved: Draft._round_resolved,
    DiceChanged: Draft._dice_changed,
    Eliminated: Draft._eliminated,
    PluginStateSet: Draft._plugin_state_set,
    PrivateStateSet: Draft._private_state_set,
    DiceShown: Draft._dice_shown,
    DiceRerolled: Draft._dice_rerolled,
    OpenerChosen: Draft._opener_chosen,
    GameWon: Draft._game_won,
}


def apply_event(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``. Only :class:`GameStarted` may apply to ``None``."""
    if state is None:
        if not isinstance(event, GameStarted):
            raise InvalidEvent("a game must start with GameStarted")
        return Draft.started(event).freeze()
    draft = Draft(state)
    draft.apply(event)
    return draft.freeze()


def replay(events: Iterable[Event]) -> GameState:
    """Rebuild a game's state from its full event log."""
    draft: Draft | None = None
    for event in events:
        if draft is None:
            if not isinstance(event, GameStarted):
                raise InvalidEvent("a game must start with GameStarted")
            draft = Draft.started(event)
        else:
            draft.apply(event)
    if draft is None:
        raise InvalidEvent("an empty event log has no state")
    return draft.freeze()
