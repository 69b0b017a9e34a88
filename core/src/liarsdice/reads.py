"""What a hook implementation reads of the game: the declaration that lets the engine memoise it.

A hook implementation that takes no ``state`` reads nothing of the game, so its answer depends on
its other arguments alone. One that takes ``state`` may say which parts of it the answer depends
on, with :func:`reads`::

    @hookimpl
    @reads("last_bidder")
    def liarsdice_call_problem(state, player, call): ...

The engine then asks such a hook once for each value of those parts (and of its other arguments)
and reuses the answer, without freezing a state (:mod:`liarsdice.memo`). A declaration that leaves
out something the answer depends on gives stale answers: the kit's law
:func:`~liarsdice.testing.laws.memo.memoised_answers_agree` catches it in a plugin's own suite.

The parts that may be named are the keys of :data:`READS`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from liarsdice.reducer import Draft

F = TypeVar("F", bound=Callable[..., Any])

ATTRIBUTE = "liarsdice_reads"
"""The attribute :func:`reads` sets on an implementation: a frozenset of names in :data:`READS`."""

PLUGIN_PREFIX = "plugin:"
"""``"plugin:NAME"`` names plugin ``NAME``'s public state (``state.plugins[NAME]``)."""


class _Same:
    """A key part equal only to itself: a plugin state mapping, which a draft replaces whole
    whenever it changes (the key holds it, so its identity is never reused)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


def _last_bidder(draft: Draft) -> str | None:
    return draft.bids[-1].player if draft.bids else None


READS: dict[str, Callable[[Draft], Hashable]] = {
    "seats": lambda d: tuple(d.players),
    "round": lambda d: d.number,
    "opener": lambda d: d.opener,
    "turn": lambda d: d.turn,
    "dice_in_play": lambda d: d.dice_in_play,
    "opening": lambda d: not d.bids,
    "bid": lambda d: d.current_bid,
    "last_bidder": _last_bidder,
    "bids": lambda d: d.bids,
}
"""The parts of a game an implementation may declare it reads, each as the value it has in a draft:

- ``seats``: every seat's name, dice and whether they are alive (``state.players``);
- ``round``: the round's number; ``opener``: who opened it; ``turn``: whose turn it is;
- ``dice_in_play``: the dice in this round;
- ``opening``: whether no bid has been made this round; ``bid``: the bid on the table (or None);
  ``last_bidder``: who made it (or None); ``bids``: every bid of the round;
- ``plugin:NAME``: plugin ``NAME``'s public state (``state.plugins.get(NAME)``).

Nothing that is the same all game needs declaring: the options, the seats' names in order and
``dice_per_player`` are part of every key.
"""


def view(name: str) -> Callable[[Draft], Hashable]:
    """The function giving part ``name`` of a draft; ``KeyError`` for a name not in
    :data:`READS` (nor ``plugin:NAME``)."""
    if name.startswith(PLUGIN_PREFIX) and len(name) > len(PLUGIN_PREFIX):
        plugin = name[len(PLUGIN_PREFIX) :]
        return lambda d: _Same(d.plugins.get(plugin))
    return READS[name]


def unknown(names: frozenset[str]) -> list[str]:
    """The names in ``names`` that name no part of a game."""
    found = []
    for name in sorted(names):
        try:
            view(name)
        except KeyError:
            found.append(name)
    return found


def reads(*names: str) -> Callable[[F], F]:
    """Declare the parts of the game (keys of :data:`READS`, or ``plugin:NAME``) that a hook
    implementation's answer depends on, besides its arguments other than ``state``. Raises
    ``ValueError`` at once for a name that names no part."""
    declared = frozenset(names)
    wrong = unknown(declared)
    if wrong:
        raise ValueError(
            f"reads({', '.join(map(repr, wrong))}): not a part of the game; known: "
            f"{', '.join(READS)}, or 'plugin:NAME'"
        )

    def mark(function: F) -> F:
        setattr(function, ATTRIBUTE, declared)
        return function

    return mark


def declared(function: Callable[..., Any]) -> frozenset[str] | None:
    """What ``function`` declared it reads with :func:`reads`, or ``None``."""
    found = getattr(function, ATTRIBUTE, None)
    return found if isinstance(found, frozenset) else None
