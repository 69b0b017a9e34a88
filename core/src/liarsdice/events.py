"""Events: the only way game state changes.

The engine turns an action into events and folds them into the state with
:func:`liarsdice.reducer.apply_event`; replaying a game's events rebuilds its state exactly.
Plugins return *effects*, which are the subset of events marked in :data:`Effect`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

import attrs

from liarsdice.models import JSON, Bid, Resolution


@attrs.frozen
class GameStarted:
    """A game begins with these players, clockwise, each holding ``dice_per_player`` dice."""

    players: tuple[str, ...]
    dice_per_player: int


@attrs.frozen
class RoundStarted:
    """Round ``number`` begins: ``opener`` bids first; ``rolls`` are every living player's dice."""

    number: int
    opener: str
    rolls: Mapping[str, tuple[int, ...]]


@attrs.frozen
class BidMade:
    """``player`` bid ``bid``; the turn passes clockwise."""

    player: str
    bid: Bid


@attrs.frozen
class CallMade:
    """``player`` called the bid on the table with a call of ``kind``."""

    player: str
    kind: str


@attrs.frozen
class TimedOut:
    """``player``'s clock ran out."""

    player: str


@attrs.frozen
class RoundResolved:
    """The round ends with this ruling (the cups are lifted if ``resolution.count`` is not None)."""

    resolution: Resolution


@attrs.frozen
class DiceChanged:
    """Effect: ``player``'s dice change by ``delta`` (negative: lost, positive: regained)."""

    player: str
    delta: int
    reason: str


@attrs.frozen
class Eliminated:
    """Effect: ``player`` is out of the game; any dice they held leave with them."""

    player: str
    reason: str


@attrs.frozen
class PluginStateSet:
    """Effect: plugin ``plugin`` sets ``key`` of its state to ``value`` (a JSON value)."""

    plugin: str
    key: str
    value: JSON


@attrs.frozen
class Notice:
    """Effect: a public message with no effect on state (for example a revolver pull)."""

    plugin: str
    text: str
    player: str | None = None


@attrs.frozen
class OpenerChosen:
    """``player`` opens the next round."""

    player: str


@attrs.frozen
class GameWon:
    """The game is over and ``player`` won it."""

    player: str


Effect: TypeAlias = DiceChanged | Eliminated | PluginStateSet | Notice
"""What plugins may return from the economics and flow hooks."""

Event: TypeAlias = (
    GameStarted
    | RoundStarted
    | BidMade
    | CallMade
    | TimedOut
    | RoundResolved
    | DiceChanged
    | Eliminated
    | PluginStateSet
    | Notice
    | OpenerChosen
    | GameWon
)

EFFECT_TYPES = (DiceChanged, Eliminated, PluginStateSet, Notice)
