"""The rule laws on chips, alone and beside every compatible installed variant, plus a law of its
own: chips only ever leave a round's losers, one each, into the pot."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from liarsdice import Ruleset
from liarsdice.events import RoundResolved
from liarsdice.testing.driver import Step, show_move, show_state, timeline
from liarsdice.testing.laws import LawViolation
from liarsdice_chips import chips

LOSERS_PAY = "a round's losers pay one chip each into the pot, and nobody else pays"


def losers_pay_the_pot(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Law: across a move, each player's chips drop by one if they lost the round it resolved
    and stay put otherwise, and the pot grows by what was paid."""
    for step in timeline(steps):
        if step.state is None or step.after is None:
            continue
        before, after = chips(step.state, rules.options), chips(step.after, rules.options)
        losers = [
            loser
            for event in step.events
            if isinstance(event, RoundResolved)
            for loser in event.resolution.losers
        ]
        expected = {name: n - losers.count(name) for name, n in before.items()}
        pot = step.after.plugin("chips").get("pot", 0) - step.state.plugin("chips").get("pot", 0)
        if after != expected or pot != len(losers):
            raise LawViolation(
                LOSERS_PAY,
                rules,
                f"chips went from {before} to {after} and the pot by {pot}, with losers {losers}",
                f"{show_state(step.state)} || move: {show_move(step.action)}",
            )


pytestmark = pytest.mark.liarsdice_variant("chips", laws=[losers_pay_the_pot])
