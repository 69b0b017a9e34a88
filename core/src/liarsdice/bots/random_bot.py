"""The ``random`` bot: the random policy of ``liarsdice simulate``, played from a view."""

from __future__ import annotations

from random import Random

from liarsdice import engine
from liarsdice.models import Action, CallAction
from liarsdice.ruleset import Ruleset
from liarsdice.simulate import OUT_OF_TURN_PROBABILITY, random_turn_action
from liarsdice.views import PlayerView, view_state


class RandomBot:
    """Calls with probability 0.3 when it can, otherwise bids one of the 10 lowest legal raises;
    out of turn, makes a call it may make there with probability 0.1."""

    def __init__(self, rules: Ruleset, rng: Random) -> None:
        self.rules = rules
        self.rng = rng

    def decide(self, view: PlayerView) -> Action:
        return random_turn_action(self.rules, view_state(view), self.rng)

    def interject(self, view: PlayerView) -> Action | None:
        assert view.viewer is not None
        state = view_state(view)
        calls = [
            kind
            for kind in engine.legal_calls(self.rules, state, view.viewer)
            if kind in self.rules.out_of_turn
        ]
        if not calls or self.rng.random() >= OUT_OF_TURN_PROBABILITY:
            return None
        return CallAction(view.viewer, self.rng.choice(calls))
