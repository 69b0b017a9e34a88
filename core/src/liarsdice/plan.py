"""The engine's step plan for one ruleset: which steps of a round take their fused path.

A step takes its fused path where no plugin but the baseline hooks it. The engine then applies the
baseline's rule (:mod:`liarsdice.standard`) to its draft directly: no frozen state, no dispatch and
no contract check (the baseline's answers are trusted). Where a plugin hooks a step, its generic
path asks the hooks as before. The rules still come only from the baseline and the plugins, so
both paths give the same events; ``tests/core/test_plan.py`` plays the same games down both.
"""

from __future__ import annotations

import attrs

from liarsdice import standard
from liarsdice.dispatch import Hooks


@attrs.frozen
class StepPlan:
    """Which steps take their fused path (``True``) for one ruleset's hooks."""

    challenge: bool
    """The call's ruling: only the baseline's ``resolve_call`` (a challenge, on the draft's bids)."""
    timeout: bool
    """A timeout's ruling: only the baseline's ``timeout``."""
    winners: bool
    """The game's end: only the baseline's ``game_winners`` (the last player alive)."""
    opener: bool
    """The next opener: only the baseline's ``next_opener`` (the loser, else the caller)."""
    turn: bool
    """The next turn: only the baseline's ``next_turn`` (clockwise, as ``BidMade`` folds it)."""

    @classmethod
    def of(cls, hooks: Hooks, baseline: object) -> StepPlan:
        """The plan for ``hooks`` whose baseline is the plugin ``baseline``: a step is fused where
        no other plugin overrides it, and only if the baseline is :mod:`liarsdice.standard` (an
        entry point may load another)."""
        fused = {"resolve_call", "timeout", "game_winners", "next_opener", "next_turn"}
        baseline_only = fused - hooks.overridden if baseline is standard else set()
        return cls(
            challenge="resolve_call" in baseline_only,
            timeout="timeout" in baseline_only,
            winners="game_winners" in baseline_only,
            opener="next_opener" in baseline_only,
            turn="next_turn" in baseline_only,
        )

    @classmethod
    def generic(cls) -> StepPlan:
        """The plan with every step on its generic path (what the fused paths are checked
        against)."""
        return cls(False, False, False, False, False)
