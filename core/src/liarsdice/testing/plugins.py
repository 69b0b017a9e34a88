"""Install plugins that are not packaged, for as long as a ``with`` block lasts.

A plugin under development (or a deliberately broken one, to prove a law can fail) has no entry
point yet. :func:`extra_variants` adds it next to the installed ones by standing in for the
entry-point lookup of :mod:`liarsdice.discovery`, clearing the discovery caches on the way in and
out::

    with extra_variants({"my-variant": my_module}):
        rules = Ruleset.build(["dice-loss", "my-variant"])

:class:`Immortal` is such a broken plugin, shared by the tests that need a game that cannot end;
:class:`NaturalAce` one whose counting depends on the dice rolled, which the odds cannot price.
:data:`ANTICLOCKWISE` is a sound one that the kit plays every variant beside: play passes to the
right, to check that a variant's "next player" is the player who really plays next.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from liarsdice import discovery as _discovery
from liarsdice.events import DiceChanged
from liarsdice.hookspecs import hookimpl
from liarsdice.models import GameState, Resolution
from liarsdice.options import VariantInfo


class FakeEntryPoint:
    """Just enough of ``importlib.metadata.EntryPoint``: ``name``, ``load()`` and ``dist.name``."""

    def __init__(self, name: str, plugin: Any, distribution: str) -> None:
        self.name = name
        self.plugin = plugin
        self.dist = types.SimpleNamespace(name=distribution)

    def load(self) -> Any:
        return self.plugin


def clear_discovery_caches() -> None:
    """Forget the installed variants (and presets) found so far, so the next lookup rediscovers."""
    for name in ("installed", "_registered"):
        cached = getattr(_discovery, name, None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


@contextmanager
def extra_variants(plugins: Mapping[str, Any], distribution: str = "unpackaged") -> Iterator[None]:
    """Within the block, ``plugins`` (variant name -> plugin module or object) are installed too.

    A name that is already installed is replaced. Not thread-safe: it patches module state.
    """
    original = _discovery._entry_points

    def patched() -> dict[str, Any]:
        found: dict[str, Any] = dict(original())
        found.update(
            {name: FakeEntryPoint(name, plugin, distribution) for name, plugin in plugins.items()}
        )
        return dict(sorted(found.items()))

    clear_discovery_caches()
    setattr(_discovery, "_entry_points", patched)  # noqa: B010 - mypy: a fake of a private function
    try:
        yield
    finally:
        setattr(_discovery, "_entry_points", original)  # noqa: B010
        clear_discovery_caches()


class Immortal:
    """A deliberately broken variant (install it as ``immortal``, beside dice-loss): a loser
    down to one die gets a die back, so nobody is ever put out and no game ends. The law "every
    game ends within the ruleset's move limit" fails on it."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo("Immortal", "nobody is eliminated", after=("dice-loss",))

    @hookimpl
    def liarsdice_settle(self, state: GameState, resolution: Resolution) -> list[DiceChanged]:
        return [
            DiceChanged(loser, +1, "spared")
            for loser in resolution.losers
            if state.player(loser).dice == 1
        ]


class NaturalAce:
    """A real family the kit cannot price (install it as ``natural-ace``): wild ones count toward
    a face only when at least one natural die of that face is on the table. It plays right (the
    engine counts the revealed dice), but ``matching_faces`` then depends on the hidden dice, so
    the odds, which count each unseen die on its own, are wrong: "2 fours" among 4 unseen dice is
    true with 32.0%, not the 13.2% the binomial gives. The law "which faces count does not
    depend on the dice rolled" refuses it."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo("Natural ace", "wild ones count only beside a natural")

    @hookimpl
    def liarsdice_matching_faces(self, state: GameState, face: int) -> frozenset[int] | None:
        if face == 1 or state.round is None:
            return None
        natural = any(face in roll for roll in state.round.rolls.values())
        return None if natural else frozenset({face})


NATURAL_ACE = NaturalAce()
"""The natural-ace family, by an importable name (the replay command names it)."""


ANTICLOCKWISE_NAME = "anticlockwise"
"""The name the kit installs :data:`ANTICLOCKWISE` under."""


class Anticlockwise:
    """A test variant that reverses the direction of play: after a bid (or a call that does not
    end the round) the turn passes to the next living player anticlockwise. Seats, and who opens,
    stay as the other variants say. The kit plays each variant beside it (the law case
    ``anticlockwise``)."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo("Anticlockwise", "play passes to the right (a test of the kit)")

    @hookimpl
    def liarsdice_next_turn(self, state: GameState, player: str) -> str:
        alive = [p.name for p in state.players if p.alive]
        return alive[alive.index(player) - 1]


ANTICLOCKWISE = Anticlockwise()
"""The direction-reversing test variant, by an importable name (the replay command names it)."""
