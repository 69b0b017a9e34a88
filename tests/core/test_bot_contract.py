"""The policy contract of docs/bots.md: every built-in kind keeps it, and the kit's check catches
a bot that breaks it (a policy that does not sum to 1, an illegal action, a policy that changes
on one view or with dice the player cannot see, a ``decide`` that ignores the policy)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from liarsdice import Ruleset
from liarsdice.bots import BadPolicy, bot_kinds, checked_policy, sample
from liarsdice.bots.odds_bot import OddsBot
from liarsdice.models import Action, Bid, BidAction, CallAction
from liarsdice.testing.bots import BotContractBroken, check_bot
from liarsdice.views import PlayerView

PRESETS = ["casino", "dudo", "perudo", "cheko"]


@pytest.mark.parametrize("kind", ["random", "odds", "bayes", "mixed"])
@pytest.mark.parametrize("preset", PRESETS)
def test_every_built_in_kind_keeps_the_contract(
    kind: str, preset: str, rules_of_preset: Callable[[str], Ruleset]
) -> None:
    rules = rules_of_preset(preset)  # the preset's rules at any table size
    assert check_bot(bot_kinds()[kind], rules, games=2, seed=hash(preset) % 100) > 10


def test_the_contract_holds_with_payloads_and_teams() -> None:
    for names in (["bluff", "dice-loss"], ["teams", "dice-loss"]):
        rules = Ruleset.build(names)
        for kind in ("random", "mixed"):
            assert check_bot(bot_kinds()[kind], rules, games=1, players=4) > 0


def test_sample_draws_in_proportion_and_a_certain_action_costs_no_draw() -> None:
    a, b = CallAction("p", "challenge"), BidAction("p", Bid(3, 4))
    rng = Random(1)
    drawn = Counter(sample({a: 0.25, b: 0.75}, rng) for _ in range(4000))
    assert 0.22 < drawn[a] / 4000 < 0.28
    before = rng.getstate()
    assert sample({b: 1.0}, rng) == b and rng.getstate() == before
    with pytest.raises(BadPolicy, match="sum to"):
        checked_policy({a: 0.5})
    with pytest.raises(BadPolicy, match="negative"):
        checked_policy({a: 1.5, b: -0.5})
    with pytest.raises(BadPolicy, match="sum to"):
        checked_policy({})


class _Broken(OddsBot):
    """An odds bot with one fault, chosen by ``fault``."""

    fault = ""

    def policy(self, view: PlayerView) -> dict[Action, float]:
        policy = dict(super().policy(view))
        assert view.viewer is not None
        if self.fault == "sum":
            return {action: p * 0.9 for action, p in policy.items()}
        if self.fault == "illegal":
            return {BidAction(view.viewer, Bid(99, 5)): 1.0}
        return policy

    def decide(self, view: PlayerView) -> Action:
        chosen = super().decide(view)
        if self.fault == "ignores" and view.bids and isinstance(chosen, BidAction):
            return CallAction(chosen.player, "challenge")
        return chosen


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("sum", "sum to"),
        ("illegal", "illegal action"),
        ("ignores", "never takes"),
    ],
)
def test_the_check_catches_a_broken_bot(fault: str, message: str) -> None:
    rules = Ruleset.build(preset="dudo")

    def factory(rules: Ruleset, rng: Random) -> _Broken:
        bot = _Broken(rules, rng)
        bot.fault = fault
        return bot

    with pytest.raises(BotContractBroken, match=message):
        check_bot(factory, rules, games=2, dice_per_player=5)


def test_the_check_catches_a_policy_that_changes_on_one_view() -> None:
    rules = Ruleset.build(preset="dudo")

    class Restless(OddsBot):
        def policy(self, view: PlayerView) -> dict[Action, float]:
            assert view.viewer is not None
            first = next(iter(super().policy(view)))
            other = CallAction(view.viewer, "challenge")
            if not view.bids or first == other or self.rng.random() < 0.5:
                return {first: 1.0}
            return {first: 0.5, other: 0.5}

    with pytest.raises(BotContractBroken, match="asked twice"):
        check_bot(Restless, rules, games=2, dice_per_player=5)


def test_the_check_catches_a_bot_that_sees_hidden_dice() -> None:
    """A bot handed the real state (as a careless driver might) decides on dice it may not see."""
    rules = Ruleset.build(preset="dudo")
    table: dict[str, Any] = {}

    class Peeker(OddsBot):
        def policy(self, view: PlayerView) -> dict[Action, float]:
            assert view.viewer is not None
            policy = dict(super().policy(view))
            rolls = table["state"].round.rolls
            others = sum(sum(r) for name, r in rolls.items() if name != view.viewer)
            if view.bids and others % 2:
                return {CallAction(view.viewer, "challenge"): 1.0}
            return policy

    import liarsdice.testing.bots as kit

    original = kit.player_view

    def spying_view(rules: Ruleset, state: Any, player: str) -> PlayerView:
        table["state"] = state
        return original(rules, state, player)

    kit.player_view = spying_view  # type: ignore[assignment]
    try:
        with pytest.raises(BotContractBroken, match="re-dealt"):
            check_bot(Peeker, rules, games=3, dice_per_player=5)
    finally:
        kit.player_view = original  # type: ignore[assignment]


def test_an_action_at_probability_0_is_no_breach() -> None:
    """A policy may list actions it never takes; asked twice it is still the same policy."""

    class Listing(OddsBot):
        def policy(self, view: PlayerView) -> dict[Action, float]:
            assert view.viewer is not None
            policy = dict(super().policy(view))
            if view.bids:
                policy.setdefault(CallAction(view.viewer, "challenge"), 0.0)
            return policy

    assert check_bot(Listing, Ruleset.build(preset="dudo"), games=1, dice_per_player=5) > 0
