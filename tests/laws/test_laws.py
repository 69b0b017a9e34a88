"""The rule laws, run by Hypothesis over the baseline with dice loss (wild ones on and off) and over
every valid combination of installed variants.

The profile comes from $HYPOTHESIS_PROFILE: "fast" (the default, a quick pass) or "thorough".
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given

from liarsdice import Ruleset, VariantInfo, hookimpl
from liarsdice.ruleset import installed
from liarsdice.testing import GAME_LAWS, RandomChooser, check_game, check_ruleset, laws, play_game
from liarsdice.testing import strategies as lst
from liarsdice.testing.driver import ILLEGAL, TIMEOUT, timeline
from liarsdice.testing.plugins import extra_variants

WILD_ONES = [True, False]


def dice_loss(wild_ones: bool) -> lst.SearchStrategy[Ruleset]:
    return lst.rulesets(["dice-loss"], options={"standard.wild_ones": wild_ones})


@pytest.mark.parametrize("wild_ones", WILD_ONES)
def test_bid_order_is_a_strict_total_order(wild_ones: bool) -> None:
    laws.bid_order(Ruleset.build(["dice-loss"], {"standard.wild_ones": wild_ones}), max_dice=36)


@pytest.mark.parametrize("wild_ones", WILD_ONES)
@pytest.mark.parametrize("law", GAME_LAWS, ids=lambda law: law.__name__)
@given(data=lst.st.data())
def test_game_law(law: laws.GameLaw, wild_ones: bool, data: lst.st.DataObject) -> None:
    game = data.draw(lst.games(dice_loss(wild_ones)), label="game")
    law(game.rules, game.steps)


@given(
    game=lst.games(
        dice_loss(True), table=lst.tables(2, 6, 1, 5), max_moves=2000, weights=(30, 1, 1)
    )
)
def test_dice_loss_games_end_at_any_table_size(game: lst.PlayedGame) -> None:
    """Dice loss takes a die every round, so a game ends within players x dice - 1 rounds."""
    check_game(game.rules, game.steps)
    assert game.complete, game
    final = game.final
    assert final is not None and final.round is not None
    assert final.round.number <= len(final.players) * final.dice_per_player - 1


@given(rules=lst.rulesets())
def test_every_installed_combination_keeps_the_ruleset_laws(rules: Ruleset) -> None:
    check_ruleset(rules)


@given(game=lst.games())
def test_every_installed_combination_keeps_the_game_laws(game: lst.PlayedGame) -> None:
    check_game(game.rules, game.steps)


# --- the kit itself -------------------------------------------------------------------------------


@given(rules=lst.rulesets())
def test_rulesets_are_valid_and_options_fit_their_declarations(rules: Ruleset) -> None:
    assert Ruleset.build(rules.names, rules.options).options == rules.options
    for key, value in rules.options.items():
        assert rules.option(key).parse(value) == value


@given(rules=lst.rulesets(["dice-loss", "revolver"], include=["revolver"]))
def test_rulesets_keep_the_included_variants(rules: Ruleset) -> None:
    assert "revolver" in rules.names


@given(table=lst.tables())
def test_tables_have_two_to_six_players_with_one_to_five_dice(table: lst.Table) -> None:
    assert 2 <= len(table.players) <= 6 and len(set(table.players)) == len(table.players)
    assert 1 <= table.dice_per_player <= 5


@given(bid=lst.bids(), roll=lst.rolls())
def test_bids_and_rolls_are_well_formed(bid: lst.Bid, roll: tuple[int, ...]) -> None:
    assert 1 <= bid.quantity <= 30 and 1 <= bid.face <= 6
    assert 1 <= len(roll) <= 5 and all(1 <= die <= 6 for die in roll)


def test_the_driver_tries_every_kind_of_move() -> None:
    rules = Ruleset.build(["dice-loss"])
    seen: Counter[str] = Counter()
    for seed in range(20):
        game = play_game(rules, ["a", "b", "c"], 2, seed, RandomChooser(seed))
        assert game.complete
        seen.update(step.intent for step in game.steps)
        seen.update(type(step.action).__name__ for step in timeline(game.steps))
    assert seen[ILLEGAL] and seen[TIMEOUT] and seen["BidAction"] and seen["CallAction"], seen


class Nothing:
    """A plugin that only says what it is."""

    @staticmethod
    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo("Nothing", "does nothing")


def test_extra_variants_installs_and_uninstalls() -> None:
    with extra_variants({"nothing": Nothing}):
        assert "nothing" in installed()
        assert Ruleset.build(["dice-loss", "nothing"]).names == ("standard", "dice-loss", "nothing")
    assert "nothing" not in installed()
