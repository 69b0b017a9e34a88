"""Events: the only way game state changes.

The engine turns an action into events and folds them into the state with
:func:`liarsdice.reducer.apply_event`; replaying a game's events rebuilds its state exactly.
Plugins return *effects*, which are the subset of events marked in :data:`Effect`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeAlias

import attrs

from liarsdice.i18n import Text, as_text
from liarsdice.models import JSON, NO_PAYLOAD, Bid, Payload, Resolution, Sight


@attrs.frozen
class GameStarted:
    """A game begins with these players, clockwise, each holding ``dice_per_player`` dice."""

    players: tuple[str, ...]
    dice_per_player: int


@attrs.frozen
class RoundStarted:
    """Round ``number`` begins: ``opener`` bids first; ``rolls`` are every living player's dice.
    ``sights`` are the viewers whose sight the rules change this round (the engine asks
    ``liarsdice_dice_visible`` as it deals); who sees whose dice is public, the dice are not."""

    number: int
    opener: str
    rolls: Mapping[str, tuple[int, ...]]
    sights: tuple[Sight, ...] = ()


@attrs.frozen
class BidMade:
    """``player`` bid ``bid`` (with ``payload``); the turn passes to the next living player
    clockwise (a :class:`TurnPassed` may follow and give it to someone else)."""

    player: str
    bid: Bid
    payload: Payload = attrs.field(default=NO_PAYLOAD, hash=False)


@attrs.frozen
class CallMade:
    """``player`` made a call of ``kind`` (with ``payload``). A call kind that ends the round is
    followed by :class:`RoundResolved`; one that does not, by :class:`TurnPassed`."""

    player: str
    kind: str
    payload: Payload = attrs.field(default=NO_PAYLOAD, hash=False)


@attrs.frozen
class TurnPassed:
    """The turn goes to ``player`` (after a call that does not end the round, or when the
    ``liarsdice_next_turn`` hook names someone other than the next player clockwise)."""

    player: str


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
    """Effect: ``player``'s dice change by ``delta`` (negative: lost, positive: regained), for
    ``reason`` (a :class:`~liarsdice.i18n.Text`, so each player reads it in their language; a
    plain string is shown as it is)."""

    player: str
    delta: int
    reason: Text = attrs.field(converter=as_text)


@attrs.frozen
class Eliminated:
    """Effect: ``player`` is out of the game, for ``reason`` (a :class:`~liarsdice.i18n.Text` or
    a plain string); any dice they held leave with them."""

    player: str
    reason: Text = attrs.field(converter=as_text)


@attrs.frozen
class PluginStateSet:
    """Effect: plugin ``plugin`` sets ``key`` of its state to ``value`` (a JSON value)."""

    plugin: str
    key: str
    value: JSON


@attrs.frozen
class PrivateStateSet:
    """Effect: plugin ``plugin`` sets ``key`` of its private state for ``player`` this round.

    Only ``player``'s own view carries it, until the cups are lifted. It is cleared when the next
    round starts.
    """

    plugin: str
    player: str
    key: str
    value: JSON


@attrs.frozen
class DiceShown:
    """Effect: ``player`` puts ``dice`` (some of their hidden dice, by face) face up for everyone,
    for the rest of the round."""

    player: str
    dice: tuple[int, ...]


@attrs.frozen
class DiceRerolled:
    """Effect: ``player``'s hidden dice ``dice`` (by face) are rolled again and now show ``faces``.

    Draw ``faces`` from the hook's ``rng``. Both ``dice`` and ``faces`` were under the cup: like
    every event, this one is never shown to players (views are); only the count is public.
    """

    player: str
    dice: tuple[int, ...]
    faces: tuple[int, ...]


@attrs.frozen
class Notice:
    """Effect: a public message with no effect on state (for example a revolver pull): a
    :class:`~liarsdice.i18n.Text`, so each player reads it in their language, or a plain string."""

    plugin: str
    text: Text = attrs.field(converter=as_text)
    player: str | None = None


@attrs.frozen
class OpenerChosen:
    """``player`` opens the next round."""

    player: str


def _names(names: str | Iterable[str]) -> tuple[str, ...]:
    """One name, or several, as a tuple: ``GameWon("Ann")`` is ``GameWon(("Ann",))``."""
    return (names,) if isinstance(names, str) else tuple(names)


@attrs.frozen
class GameWon:
    """The game is over and ``winners`` won it: the last player standing, or everyone the
    ``liarsdice_game_winners`` hook named (a whole team, the out ones included)."""

    winners: tuple[str, ...] = attrs.field(converter=_names)


Effect: TypeAlias = (
    DiceChanged | Eliminated | PluginStateSet | PrivateStateSet | DiceShown | DiceRerolled | Notice
)
"""What plugins may return from the economics and flow hooks. ``DiceChanged`` and ``Eliminated``
only when a round is settled; ``DiceShown``, ``DiceRerolled`` and ``PrivateStateSet`` only while a
round is being played (flow hooks)."""

Event: TypeAlias = (
    GameStarted
    | RoundStarted
    | BidMade
    | CallMade
    | TurnPassed
    | TimedOut
    | RoundResolved
    | DiceChanged
    | Eliminated
    | PluginStateSet
    | PrivateStateSet
    | DiceShown
    | DiceRerolled
    | Notice
    | OpenerChosen
    | GameWon
)

EFFECT_TYPES = (
    DiceChanged,
    Eliminated,
    PluginStateSet,
    PrivateStateSet,
    DiceShown,
    DiceRerolled,
    Notice,
)
SETTLING_EFFECTS = (DiceChanged, Eliminated)
"""Effects allowed only in ``liarsdice_settle``."""
IN_ROUND_EFFECTS = (PrivateStateSet, DiceShown, DiceRerolled)
"""Effects allowed only while a round is being played (the flow hooks)."""
