"""The rule laws on the revolver, alone and beside every compatible installed variant, plus a law of
its own written with the kit's helpers (docs/testing.md shows it as the example)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest

from liarsdice import Ruleset
from liarsdice.events import RoundResolved
from liarsdice.testing.driver import Step, show_move, show_state, timeline
from liarsdice.testing.laws import LawViolation
from liarsdice_revolver import bullets

ONLY_LOSERS_LOAD = "only a round's losers load bullets"


def only_losers_load_bullets(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Law: a player's bullets change only in a move that resolves a round they lost."""
    for step in timeline(steps):
        if step.state is None or step.after is None:
            continue
        before, after = bullets(step.state), bullets(step.after)
        losers = {
            loser
            for event in step.events
            if isinstance(event, RoundResolved)
            for loser in event.resolution.losers
        }
        for player, loaded in after.items():
            if loaded != before.get(player, 0) and player not in losers:
                raise LawViolation(
                    ONLY_LOSERS_LOAD,
                    rules,
                    f"{player}'s bullets went from {before.get(player, 0)} to {loaded}, "
                    "though they lost nothing",
                    f"{show_state(step.state)} || move: {show_move(step.action)}",
                )


pytestmark = pytest.mark.liarsdice_variant("revolver", laws=[only_losers_load_bullets])


def test_the_own_law_fails_when_a_bystander_loads() -> None:
    from liarsdice.testing import RandomChooser, play_game
    from liarsdice.testing.driver import BidAction

    rules = Ruleset.build(["revolver"])
    game = play_game(rules, ["a", "b"], 2, 0, RandomChooser(0), weights=(1, 0, 0))
    step = next(s for s in timeline(game.steps) if isinstance(s.action, BidAction))
    assert step.after is not None
    loaded = attrs.evolve(step.after, plugins={"revolver": {"bullets": {"b": 1}}})
    only_losers_load_bullets(rules, [step])
    with pytest.raises(LawViolation, match=ONLY_LOSERS_LOAD):
        only_losers_load_bullets(rules, [attrs.evolve(step, after=loaded)])
