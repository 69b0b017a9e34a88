"""The ``random`` bot: the random policy of ``liarsdice simulate``, played from a view."""

from __future__ import annotations

from random import Random

from liarsdice.models import Action
from liarsdice.ruleset import Ruleset
from liarsdice.simulate import random_action
from liarsdice.views import PlayerView, view_state


class RandomBot:
    """Calls with probability 0.3 when it can, otherwise bids one of the 10 lowest legal raises."""

    def __init__(self, rules: Ruleset, rng: Random) -> None:
        self.rules = rules
        self.rng = rng

    def decide(self, view: PlayerView) -> Action:
        return random_action(self.rules, view_state(view), self.rng)
