"""The ``random`` bot: the random policy of ``liarsdice simulate``, played from a view."""

from __future__ import annotations

from random import Random

import attrs

from liarsdice import engine
from liarsdice.bots import Policy, sample
from liarsdice.models import Action, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset
from liarsdice.simulate import (
    CHALLENGE_PROBABILITY,
    LOWEST_RAISES,
    OUT_OF_TURN_PROBABILITY,
    PAYLOAD_PROBABILITY,
)
from liarsdice.views import PlayerView, view_state


class RandomBot:
    """The policy of ``liarsdice simulate``'s random player: when it can call, it calls with
    probability 0.3 (every legal call kind alike; always when no raise is left), otherwise it bids
    one of the 10 lowest legal raises alike; a plugin's payload goes with a move with probability
    0.3 (each plugin alike, then each choice alike). Out of turn, it makes a call it may make there
    with probability 0.1."""

    def __init__(self, rules: Ruleset, rng: Random) -> None:
        self.rules = rules
        self.rng = rng

    def policy(self, view: PlayerView) -> Policy:
        assert view.viewer is not None
        state = view_state(view)
        player = view.viewer
        calls = engine.legal_calls(self.rules, state, player) if view.bids else []
        bids = engine.legal_bids(self.rules, state, player, LOWEST_RAISES)
        call_share = CHALLENGE_PROBABILITY if bids else 1.0
        moves: list[tuple[BidAction | CallAction, float]] = []
        moves += [(CallAction(player, kind), call_share / len(calls)) for kind in calls]
        bid_share = 1.0 - call_share if calls else 1.0
        moves += [(BidAction(player, bid), bid_share / len(bids)) for bid in bids]
        if not moves:
            raise RuntimeError(f"{player} has no legal action")
        policy: dict[Action, float] = {}
        for action, chance in moves:
            for variant, share in self._with_payloads(state, action):
                policy[variant] = policy.get(variant, 0.0) + chance * share
        return policy

    def _with_payloads(
        self, state: GameState, action: BidAction | CallAction
    ) -> list[tuple[Action, float]]:
        """``action`` alone, and with each payload plugins offer for it, with their chances."""
        if not self.rules.payload_readers:
            return [(action, 1.0)]
        offered = engine.payload_choices(self.rules, state, action)
        if not offered:
            return [(action, 1.0)]
        found: list[tuple[Action, float]] = [(action, 1.0 - PAYLOAD_PROBABILITY)]
        for plugin, choices in sorted(offered.items()):
            share = PAYLOAD_PROBABILITY / len(offered) / len(choices)
            found += [(attrs.evolve(action, payload={plugin: choice}), share) for choice in choices]
        return found

    def decide(self, view: PlayerView) -> Action:
        return sample(self.policy(view), self.rng)

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
