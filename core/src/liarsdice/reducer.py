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
from liarsdice.models import (
    JSON,
    Bid,
    GameState,
    PlacedBid,
    PlayerState,
    Resolution,
    RoundState,
    Sight,
    remove_dice,
)

_FACES = frozenset(range(1, 7))
_ANNOUNCEMENTS = (CallMade, TimedOut, Notice)


class InvalidEvent(ValueError):
    """An event does not fit the state it was applied to."""


class Draft:
    """A game state open for change, folding one event at a time.

    The fields mirror :class:`~liarsdice.models.GameState` and, flattened, its round (``number``
    is 0 before the first round). :meth:`apply` checks an event before it changes anything, so
    an event that raises :class:`InvalidEvent` leaves the draft as it was. :meth:`freeze` gives
    the frozen state, rebuilding only the parts (seats, round, game) changed since the last
    freeze: folding many events between two reads costs one snapshot. Treat the fields as read
    only; only :meth:`apply` changes them.
    """

    __slots__ = (
        "_players_state",
        "_ring",
        "_round_state",
        "_seats",
        "_state",
        "_table",
        "bids",
        "dice_in_play",
        "dice_per_player",
        "next_opener",
        "number",
        "opener",
        "players",
        "plugins",
        "private",
        "resolution",
        "rolls",
        "shown",
        "sights",
        "turn",
        "winners",
    )

    def __init__(self, state: GameState) -> None:
        """A draft of ``state``; freezing it unchanged gives ``state`` itself."""
        self._load(state)

    @classmethod
    def started(cls, event: GameStarted) -> Draft:
        """The draft of a game that ``event`` starts."""
        return cls(_started(event))

    def _load(self, state: GameState) -> None:
        self.players = list(state.players)
        self.dice_per_player = state.dice_per_player
        self.next_opener = state.next_opener
        self.winners = state.winners
        self.plugins = state.plugins
        self._load_round(state.round)
        self._state: GameState | None = state
        self._players_state: tuple[PlayerState, ...] | None = state.players
        self._round_state = state.round
        self._seats: dict[str, int] | None = None
        self._ring: dict[str, str] | None = None
        self._table: tuple[tuple[str, ...], int] | None = None

    def _load_round(self, round_: RoundState | None) -> None:
        if round_ is None:
            self.number, self.opener, self.turn, self.dice_in_play = 0, "", "", 0
            self.rolls: Mapping[str, tuple[int, ...]] = {}
            self.bids: tuple[PlacedBid, ...] = ()
            self.resolution: Resolution | None = None
            self.shown: Mapping[str, tuple[int, ...]] = {}
            self.private: Mapping[str, Mapping[str, Mapping[str, JSON]]] = {}
            self.sights: tuple[Sight, ...] = ()
            return
        self.number, self.opener, self.turn = round_.number, round_.opener, round_.turn
        self.rolls, self.dice_in_play = round_.rolls, round_.dice_in_play
        self.bids, self.resolution = round_.bids, round_.resolution
        self.shown, self.private, self.sights = round_.shown, round_.private, round_.sights

    # --- reading ------------------------------------------------------------------------------

    def freeze(self) -> GameState:
        """The state as it is now (the same object until the next change)."""
        state = self._state
        if state is None:
            players = self._players_state
            if players is None:
                players = self._players_state = tuple(self.players)
            round_ = self._round_state
            if round_ is None and self.number:
                round_ = self._round_state = RoundState(
                    self.number,
                    self.opener,
                    self.rolls,
                    self.dice_in_play,
                    self.turn,
                    self.bids,
                    self.resolution,
                    self.shown,
                    self.private,
                    self.sights,
                )
            state = self._state = GameState(
                players, self.dice_per_player, round_, self.next_opener, self.winners, self.plugins
            )
        return state

    @property
    def frozen(self) -> GameState | None:
        """The state :meth:`freeze` last gave, if nothing has changed since; else ``None``."""
        return self._state

    @property
    def table(self) -> tuple[tuple[str, ...], int]:
        """The seats' names in order and the dice each started with: the same all game."""
        table = self._table
        if table is None:
            table = self._table = (tuple(p.name for p in self.players), self.dice_per_player)
        return table

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return bool(self.winners)

    @property
    def in_round(self) -> bool:
        """True while a round is being played (started, not yet resolved)."""
        return self.number > 0 and self.resolution is None

    @property
    def current_bid(self) -> Bid | None:
        """The bid on the table, or ``None`` before the opener has bid."""
        return self.bids[-1].bid if self.bids else None

    def seat(self, name: str) -> int:
        """0-based seat index of ``name``; ``KeyError`` if nobody of that name sits here."""
        seats = self._seats
        if seats is None:
            seats = self._seats = {p.name: i for i, p in enumerate(self.players)}
        return seats[name]

    def player(self, name: str) -> PlayerState:
        """The seat of ``name``; ``KeyError`` if nobody of that name sits here."""
        return self.players[self.seat(name)]

    def next_alive(self, name: str, *, include_self: bool = False) -> str:
        """The first living player clockwise from ``name`` (``name`` itself if ``include_self``)."""
        if include_self and self.player(name).alive:
            return name
        ring = self._ring
        if ring is None:
            ring = self._ring = self._clockwise()
        return ring[name]

    def _clockwise(self) -> dict[str, str]:
        """For each seat's name, the first living player clockwise after it (its own name when
        it is the only one alive); ``ValueError`` when nobody is alive."""
        players = self.players
        count = len(players)
        ring = {}
        for start, player in enumerate(players):
            for offset in range(1, count + 1):
                candidate = players[(start + offset) % count]
                if candidate.alive:
                    ring[player.name] = candidate.name
                    break
            else:
                raise ValueError("no living player")
        return ring

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

    def _round_open(self) -> None:
        if not self.in_round:
            raise InvalidEvent("no round is being played")

    def _round_changed(self) -> None:
        self._round_state = self._state = None

    def _seat_changed(self, seat: int, player: PlayerState) -> None:
        if self.players[seat].alive != player.alive:
            self._ring = None
        self.players[seat] = player
        self._players_state = self._state = None

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

    def _hidden(self, player: str) -> tuple[int, ...]:
        self._round_open()
        if player not in self.rolls:
            raise InvalidEvent(f"{player} holds no dice this round")
        roll = self.rolls[player]
        shown = self.shown.get(player)
        return roll if not shown else remove_dice(roll, shown)

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
