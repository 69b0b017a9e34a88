"""Variant ``chips``: the loser pays a chip into the pot and keeps every die; no chips, out."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Game, Ruleset, RulesetError
from liarsdice.simulate import random_action
from liarsdice_chips import chips


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return Ruleset.build(["chips"], {"chips.start": 2})


def lose_a_round(game: Game, loser: str) -> None:
    """Play a round that ``loser`` loses by challenging a true bid (every die shows 2)."""
    game.start_round({p.name: [2] * p.dice for p in game.state.alive})
    opener = game.state.round.opener  # type: ignore[union-attr]
    if opener == loser:
        game.bid(loser, 9, 6)  # a lie: the next player challenges, the bidder loses
        game.call(game.state.round.turn)  # type: ignore[union-attr]
    else:
        game.bid(opener, 1, 2)
        while game.state.round.turn != loser:  # type: ignore[union-attr]
            game.bid(game.state.round.turn, game.state.round.bids[-1].bid.quantity + 1, 2)  # type: ignore[union-attr]
        game.call(loser)


def test_chips_are_the_only_cost_and_the_dice_stay(rules: Ruleset) -> None:
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=3, first_opener="Ann")
    lose_a_round(game, "Ben")
    assert chips(game.state, rules.options) == {"Ann": 2, "Ben": 1, "Cid": 2}
    assert [p.dice for p in game.state.players] == [3, 3, 3]
    assert game.state.plugin("chips")["pot"] == 1
    assert game.view("Cid").seats[1].public == {"chips": 1}
    lose_a_round(game, "Ben")
    assert not game.state.player("Ben").alive  # out of chips: his dice leave with him
    assert game.state.plugin("chips")["pot"] == 2
    assert any("out of chips" in str(event) for event in game.events)


def test_the_last_player_with_chips_wins(rules: Ruleset) -> None:
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(4), dice_per_player=2)
    while not game.over:
        game.start_round()
        while not game.state.round.over:  # type: ignore[union-attr]
            game.act(random_action(rules, game.state, game.rng))
    final = game.state
    held = chips(final, rules.options)
    assert final.winner is not None and held[final.winner] >= 1
    assert all(held[p.name] == 0 for p in final.players if not p.alive)
    assert final.plugin("chips")["pot"] == 2 * 3 - held[final.winner]


def test_the_rules_page_says_what_a_round_costs() -> None:
    page = Ruleset.build(["chips"], {"chips.start": 5}).describe()
    assert "Every player starts with 5 chips" in page
    assert "the last player with chips wins" in page
    uk = Ruleset.build(["chips"]).describe("uk")
    assert "На початку гри кожен гравець має 3 фішки" in uk


def test_a_bad_start_is_refused() -> None:
    with pytest.raises(RulesetError, match=r"chips\.start"):
        Ruleset.build(["chips"], {"chips.start": 0})
