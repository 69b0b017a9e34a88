"""The rule laws on teams, alone and beside every compatible installed variant, plus a law of its
own: a game ends with one whole team winning, the team that still has a player."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from liarsdice import Ruleset
from liarsdice.testing.driver import Step, show_state, timeline
from liarsdice.testing.laws import LawViolation
from liarsdice_teams import team, team_of

WHOLE_TEAM = "a game ends with every player of the one team left standing winning, and nobody else"


def one_whole_team_wins(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Law: once the game is over, its winners are exactly the players of one team, and that
    team has a living player (the other has none)."""
    for step in timeline(steps):
        after = step.after
        if after is None or not after.over:
            continue
        standing = {team_of(after, p.name) for p in after.alive}
        expected = team(after, standing.pop()) if len(standing) == 1 else None
        if after.winners != expected:
            raise LawViolation(
                WHOLE_TEAM,
                rules,
                f"won by {list(after.winners)}, but the team left standing is {expected}",
                show_state(after),
            )


pytestmark = pytest.mark.liarsdice_variant("teams", laws=[one_whole_team_wins])
