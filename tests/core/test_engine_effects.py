"""How the engine applies plugin answers: False refuses, losses clamp, no dice change mid-round."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import pytest

from liarsdice import (
    Bid,
    BidAction,
    CallAction,
    DiceChanged,
    Game,
    IllegalAction,
    PluginError,
    Resolution,
    Ruleset,
    engine,
    hookimpl,
)
from liarsdice.dispatch import Effects
from liarsdice.models import GameState
from liarsdice.options import VariantInfo
from liarsdice.testing.plugins import extra_variants


class NoFives:
    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo("No fives", "a test plugin: fives may not be bid")

    @hookimpl
    def liarsdice_face_allowed(self, face: int) -> bool | None:
        return False if face == 5 else None


class LoseThree:
    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo(
            "Lose three", "a test plugin: a lost round costs three dice", economics=True
        )

    @hookimpl
    def liarsdice_settle(self, resolution: Resolution) -> Sequence[DiceChanged]:
        return [DiceChanged(loser, -3, "lost three") for loser in resolution.losers]


class GrowsMidRound:
    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo("Grows", "a test plugin: takes a die when a bid is made")

    @hookimpl
    def liarsdice_bid_made(self, player: str) -> Sequence[DiceChanged]:
        return [DiceChanged(player, -1, "mid-round")]


def _game(*variants: str, plugins: dict[str, object]) -> Game:
    with extra_variants(plugins):
        rules = Ruleset.build(["dice-loss", *variants])
    game = Game(rules, ["Ann", "Bob"], Random(1), dice_per_player=2)
    game.start_round({"Ann": [5, 2], "Bob": [3, 4]})
    return game


def test_face_allowed_false_refuses_the_face_with_a_reason() -> None:
    game = _game("no-fives", plugins={"no-fives": NoFives()})
    before = game.state
    with pytest.raises(IllegalAction, match="bids on fives are not allowed"):
        game.bid("Ann", 1, 5)
    assert game.state is before
    assert all(bid.face != 5 for bid in engine.legal_bids(game.rules, game.state, "Ann"))


def test_a_loss_larger_than_the_dice_held_takes_what_is_there() -> None:
    game = _game("lose-three", plugins={"lose-three": LoseThree()})
    game.bid("Ann", 4, 6)
    game.call("Bob")  # no sixes: Ann loses three dice, holds two: out
    ann = game.state.player("Ann")
    assert (ann.dice, ann.alive) == (0, False)
    assert game.state.winner == "Bob"


def test_dice_may_not_change_outside_settling() -> None:
    game = _game("grows", plugins={"grows": GrowsMidRound()})
    before = game.state
    with pytest.raises(PluginError, match="only in liarsdice_settle"):
        game.bid("Ann", 1, 2)
    assert game.state is before


class SettleReadsState:
    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo("Reads", "a test plugin: its settle reads the state")

    @hookimpl
    def liarsdice_settle(self, state: object) -> Sequence[DiceChanged]:
        assert state is not None, "an implementation that takes state is given one"
        return []


def _states_given_to_settle(rules: Ruleset) -> list[GameState | None]:
    """The ``state`` the engine gives ``settle`` for a challenge that ends a round (Ann bid one
    four, Bob holds a four and calls)."""
    given: list[GameState | None] = []
    settle = rules.hooks.settle

    def spy(state: GameState | None, resolution: Resolution, rng: Random) -> Effects:
        given.append(state)
        return settle(state, resolution, rng)

    rules.hooks.settle = spy
    draft, _ = engine.start_game(rules, ["Ann", "Bob"], Random(1), dice_per_player=2)
    engine.open_round(rules, draft, Random(1), rolls={"Ann": [5, 2], "Bob": [3, 4]})
    engine.advance(rules, draft, BidAction(draft.turn, Bid(1, 4)), Random(0))
    events = engine.advance(rules, draft, CallAction(draft.turn), Random(0))
    assert [e.delta for e in events if isinstance(e, DiceChanged)] == [-1]
    return given


def test_an_effect_hook_whose_implementations_take_no_state_is_asked_without_one() -> None:
    # dice-loss's settle takes only the resolution: nothing is frozen for it at a round's end.
    rules = Ruleset.build(["dice-loss"])
    assert "settle" in rules.hooks.stateless
    assert _states_given_to_settle(rules) == [None]


def test_an_effect_hook_is_given_the_state_when_one_implementation_takes_it() -> None:
    with extra_variants({"reads": SettleReadsState()}):
        rules = Ruleset.build(["dice-loss", "reads"])
    assert "settle" not in rules.hooks.stateless
    (given,) = _states_given_to_settle(rules)
    assert isinstance(given, GameState)
