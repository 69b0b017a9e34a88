"""The "does something" law: a variant changes at least one legal move or ruling, found by a seeded
search over games; a presentation plugin opts out explicitly."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Bid, GameState, PluginStateSet, Ruleset, VariantInfo, hookimpl
from liarsdice.ruleset import BASELINE, installed
from liarsdice.testing import LawViolation, extra_variants, running, suite
from liarsdice.testing.relevance import DOES_SOMETHING, baseline_for, variant_changes_play

SHIPPED = sorted(set(installed()) - {BASELINE})


@pytest.mark.parametrize("variant", SHIPPED)
def test_every_shipped_variant_changes_a_move_or_a_ruling(variant: str) -> None:
    found = variant_changes_play(variant)
    assert found and "presentation" not in found and "no ruleset" not in found


class Dead:
    """A dead hook: refuses bids of more than 1,000 dice, which no table has."""

    info = VariantInfo("Dead", "refuses what never happens")

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return self.info

    @staticmethod
    @hookimpl
    def liarsdice_bid_problem(bid: Bid) -> str | None:
        return "too many dice" if bid.quantity > 1000 else None


class Diary(Dead):
    """Keeps a diary in its own plugin state: remembering is not changing the game."""

    @staticmethod
    @hookimpl
    def liarsdice_round_started(state: GameState, rng: Random) -> list[PluginStateSet]:
        assert state.round is not None
        return [PluginStateSet("diary", "rounds", state.round.number)]


def test_a_variant_that_changes_nothing_breaks_the_law() -> None:
    with extra_variants({"dead": Dead()}), pytest.raises(LawViolation) as caught:
        variant_changes_play("dead", games=3)
    message = str(caught.value)
    assert DOES_SOMETHING in message and "dead changed no legal move" in message
    assert "VariantInfo(presentation=True)" in message


def test_its_own_plugin_state_is_not_a_change() -> None:
    with extra_variants({"diary": Diary()}), pytest.raises(LawViolation, match="diary changed no"):
        variant_changes_play("diary", games=3)


def test_a_presentation_plugin_opts_out() -> None:
    quiet = Dead()
    quiet.info = VariantInfo("Quiet", "only presents", presentation=True)
    with extra_variants({"quiet": quiet}):
        assert "presentation" in variant_changes_play("quiet")


def test_the_law_is_a_case_of_every_suite() -> None:
    cases = [case.name for case in suite.law_cases("calza", combine=False)]
    assert cases == ["alone", *suite.SEEDED_CASES]
    assert suite.SEEDED_CASES == (
        suite.RELEVANCE_CASE,
        suite.ISOLATION_CASE,
        suite.SNAPSHOT_CASE,
        suite.ANTICLOCKWISE_CASE,
    )
    run = running.run_case(suite.law_cases("calza", combine=False)[1])
    assert "exact" in run.found  # calza's difference: an exact call is offered
    assert suite.RELEVANCE_CASE not in [c.name for c in suite.law_cases(BASELINE)]


def test_without_the_variant_means_without_what_needs_it() -> None:
    rules = Ruleset.build(["dice-loss", "palifico"])
    without = baseline_for(rules, "palifico")
    assert without is not None and without.names == (BASELINE, "dice-loss")
    # dice-loss is the only economics: palifico needs it, so both go and another economy steps in
    other = baseline_for(rules, "dice-loss")
    assert other is not None and other.names == (BASELINE, "chips")  # the first, by name


class Pretender(Dead):
    """Declares itself presentation-only, but refuses every bid on threes."""

    info = VariantInfo("Pretender", "claims to only present", presentation=True)

    @staticmethod
    @hookimpl
    def liarsdice_bid_problem(bid: Bid) -> str | None:
        return "no threes" if bid.face == 3 else None


def test_a_presentation_plugin_that_changes_the_game_breaks_the_law() -> None:
    with extra_variants({"pretender": Pretender()}), pytest.raises(LawViolation) as caught:
        variant_changes_play("pretender", games=3)
    assert "declares VariantInfo(presentation=True) but changes the game" in str(caught.value)
