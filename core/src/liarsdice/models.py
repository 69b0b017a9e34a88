"""The data model: bids, actions, game state and call resolutions.

Every class is a frozen, slotted attrs class. State is changed only by folding events into it
(see :mod:`liarsdice.reducer`); serialisation lives in :mod:`liarsdice.serialization`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import attrs

JSON: TypeAlias = Any
"""A value that survives ``json.dumps``/``json.loads`` unchanged (plugin state is made of these)."""

RankKey: TypeAlias = tuple[float, ...]
"""A bid's place in the total order of bids: tuples compared element by element."""

Payload: TypeAlias = Mapping[str, JSON]
"""Extra data on a bid or a call, keyed by the name of the plugin that reads it (see
:class:`~liarsdice.options.VariantInfo` ``payloads``): ``{"bluff": {"show": [5, 5]}}``."""

NO_PAYLOAD: Payload = {}

FACE_NAMES = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}
FACE_NAME = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@attrs.frozen
class Bid:
    """ "At least ``quantity`` dice on the whole table show ``face``"."""

    quantity: int
    face: int

    @property
    def whole(self) -> bool:
        """True when the quantity and the face are whole numbers (ints, not floats or bools)."""
        return type(self.quantity) is int and type(self.face) is int

    def __str__(self) -> str:
        names = FACE_NAME if self.quantity == 1 else FACE_NAMES
        return f"{self.quantity} {names.get(self.face, f'face-{self.face}')}"


# --- actions: what a player (or the clock) asks the engine to do -------------------------------


@attrs.frozen
class BidAction:
    """``player`` raises to ``bid``; ``payload`` carries plugins' extra data (see :data:`Payload`)."""

    player: str
    bid: Bid
    payload: Payload = attrs.field(default=NO_PAYLOAD, hash=False)


@attrs.frozen
class CallAction:
    """``player`` makes a call of ``kind`` (a registered call kind), with an optional ``payload``."""

    player: str
    kind: str = "challenge"
    payload: Payload = attrs.field(default=NO_PAYLOAD, hash=False)


@attrs.frozen
class TimeoutAction:
    """``player``'s turn clock ran out."""

    player: str


Action: TypeAlias = BidAction | CallAction | TimeoutAction


# --- state ---------------------------------------------------------------------------------------


@attrs.frozen
class PlayerState:
    """A seat: the player's name, how many dice they hold, and whether they are still in."""

    name: str
    dice: int
    alive: bool = True


@attrs.frozen
class PlacedBid:
    """A bid on the round's history: who made it and what it was."""

    player: str
    bid: Bid


@attrs.frozen
class Resolution:
    """The ruling on a call (or a timeout): who lost the round and who won it.

    ``count`` is the number of dice that matched the bid when the cups were lifted; it is ``None``
    when nothing was revealed (a timeout). ``success`` is the caller's view: a challenge succeeds when
    the bid was a lie, an exact call when the count equals the quantity.
    """

    call: str
    caller: str
    bidder: str | None
    bid: Bid | None
    count: int | None
    success: bool
    losers: tuple[str, ...]
    winners: tuple[str, ...]


@attrs.frozen
class Sight:
    """Whose dice under the cup ``viewer`` (a player, or ``None`` for a spectator) sees this
    round, where the rules make it other than their own dice only (``liarsdice_dice_visible``)."""

    viewer: str | None
    owners: tuple[str, ...]


def sight_of(sights: Sequence[Sight], viewer: str | None) -> frozenset[str]:
    """Whose dice under the cups ``viewer`` sees in a round with these ``sights``: what their
    :class:`Sight` says, else their own (nobody's for a spectator)."""
    for sight in sights:
        if sight.viewer == viewer:
            return frozenset(sight.owners)
    return frozenset() if viewer is None else frozenset({viewer})


@attrs.frozen
class RoundState:
    """One round: the rolls, the bids so far, whose turn it is, and the ruling once called.

    ``rolls`` holds every die of every living player. ``shown`` holds, per player, the dice they
    have put face up for everyone this round (always some of their ``rolls``); the rest are hidden
    under the cup. ``private`` is per-player plugin state for this round, ``private[plugin][player]``
    a JSON mapping that only ``player`` may see until the cups are lifted (see
    :func:`liarsdice.views.player_view`). Both start empty each round. ``sights`` records the
    viewers whose sight the rules changed this round (:class:`Sight`); everyone else sees their
    own dice under the cup and nobody else's (:meth:`sees`).
    """

    number: int
    opener: str
    rolls: Mapping[str, tuple[int, ...]]
    dice_in_play: int
    turn: str
    bids: tuple[PlacedBid, ...] = ()
    resolution: Resolution | None = None
    shown: Mapping[str, tuple[int, ...]] = attrs.field(factory=dict)
    private: Mapping[str, Mapping[str, Mapping[str, JSON]]] = attrs.field(factory=dict)
    sights: tuple[Sight, ...] = ()

    def sees(self, viewer: str | None) -> frozenset[str]:
        """The players whose dice under the cup ``viewer`` sees this round (before the cups are
        lifted): their own by default, nobody's for a spectator, else what a :class:`Sight`
        says."""
        return sight_of(self.sights, viewer)

    @property
    def current_bid(self) -> Bid | None:
        """The bid on the table, or ``None`` before the opener has bid."""
        return self.bids[-1].bid if self.bids else None

    @property
    def over(self) -> bool:
        """True once a call or a timeout has ended the round."""
        return self.resolution is not None

    @property
    def lifted(self) -> bool:
        """True once a call has lifted the cups: every roll and secret is public."""
        return self.resolution is not None and self.resolution.count is not None

    def hidden(self, player: str) -> tuple[int, ...]:
        """``player``'s dice still under the cup: their roll without the dice shown.
        ``KeyError`` if ``player`` rolled no dice this round."""
        roll = self.rolls[player]
        shown = self.shown.get(player)
        return roll if not shown else remove_dice(roll, shown)


@attrs.frozen
class GameState:
    """The whole game. ``plugins`` holds plugin-owned state, one JSON mapping per plugin name;
    ``winners`` is empty until the game is over, then names everyone who won it (one player, or
    several where the rules say so: a whole team)."""

    players: tuple[PlayerState, ...]
    dice_per_player: int
    round: RoundState | None = None
    next_opener: str | None = None
    winners: tuple[str, ...] = ()
    plugins: Mapping[str, Mapping[str, JSON]] = attrs.field(factory=dict)

    def player(self, name: str) -> PlayerState:
        """The seat of ``name``; ``KeyError`` if nobody of that name sits here."""
        for player in self.players:
            if player.name == name:
                return player
        raise KeyError(name)

    def seat(self, name: str) -> int:
        """0-based seat index of ``name``."""
        for index, player in enumerate(self.players):
            if player.name == name:
                return index
        raise KeyError(name)

    @property
    def alive(self) -> tuple[PlayerState, ...]:
        """Living players in seat order."""
        return tuple(p for p in self.players if p.alive)

    @property
    def dice_in_play(self) -> int:
        """Dice held by living players."""
        return sum(p.dice for p in self.players if p.alive)

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return bool(self.winners)

    @property
    def winner(self) -> str | None:
        """The game's one winner: ``None`` while it goes on, and when several players won it."""
        return self.winners[0] if len(self.winners) == 1 else None

    def next_alive(self, name: str, *, include_self: bool = False) -> str:
        """The first living player clockwise from ``name`` (``name`` itself if ``include_self``)."""
        players = self.players
        start = self.seat(name)
        offsets = range(0 if include_self else 1, len(players) + 1)
        for offset in offsets:
            candidate = players[(start + offset) % len(players)]
            if candidate.alive:
                return candidate.name
        raise ValueError("no living player")

    def clockwise_from(self, name: str) -> tuple[str, ...]:
        """Every other living player, clockwise starting after ``name``."""
        start = self.seat(name)
        count = len(self.players)
        ordered = (self.players[(start + i) % count] for i in range(1, count))
        return tuple(p.name for p in ordered if p.alive)

    def plugin(self, name: str) -> Mapping[str, JSON]:
        """The plugin-owned public state of plugin ``name`` (empty if it has none yet)."""
        return self.plugins.get(name, {})

    def private(self, plugin: str, player: str) -> Mapping[str, JSON]:
        """Plugin ``plugin``'s private state for ``player`` this round (empty if none)."""
        if self.round is None:
            return {}
        return self.round.private.get(plugin, {}).get(player, {})


def opening_state(dice_in_play: int, hand: tuple[int, ...] = ()) -> GameState:
    """A state at the start of a first round with ``dice_in_play`` dice: the viewer ``"you"``
    holding ``hand`` (if any) and seats of up to 5 unseen dice (shown as 0, which matches no face)
    for the rest. For questions asked before any game exists: odds pages, rules pages."""
    others = dice_in_play - len(hand)
    players = [PlayerState("you", len(hand))] if hand else []
    rolls: dict[str, tuple[int, ...]] = {"you": hand} if hand else {}
    seat = 0
    while others > 0:
        seat += 1
        dice = min(5, others)
        players.append(PlayerState(f"seat{seat}", dice))
        rolls[f"seat{seat}"] = (0,) * dice
        others -= dice
    if len(players) < 2:
        players.append(PlayerState("empty", 0))
    opener = players[0].name
    round_ = RoundState(1, opener, rolls, dice_in_play, opener)
    return GameState(tuple(players), max(p.dice for p in players), round_)


def remove_dice(roll: tuple[int, ...], dice: tuple[int, ...]) -> tuple[int, ...]:
    """``roll`` without one die of each face in ``dice`` (a multiset difference, order kept).

    Raises ``ValueError`` if ``roll`` does not hold every die of ``dice``.
    """
    left = list(roll)
    for die in dice:
        try:
            left.remove(die)
        except ValueError:
            raise ValueError(f"{list(roll)} holds no {die} to take out") from None
    return tuple(left)
