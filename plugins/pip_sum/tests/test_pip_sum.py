"""Variant ``pip-sum``: bids on the total of the pips, a bid kind of its own.

The range and shape of a total, the sum as the truth at a challenge and an exact call, the words in
en/uk/ru, the refusals (face variants, wild ones), exact odds that sampling confirms, the bots
playing it, and the golden scenarios in ../scenarios/.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from liarsdice import Bid, Game, IllegalAction, Ruleset, engine, narration, odds, scenario
from liarsdice.errors import Conflict
from liarsdice.i18n import render
from liarsdice.tournament import run
from liarsdice_pip_sum import PIP_TOTAL, sum_pmf

SCENARIOS = Path(__file__).parent.parent / "scenarios"
GOLDEN = sorted(
    path
    for path in SCENARIOS.glob("*.json")
    if not path.name.endswith(".out.json") and path.with_suffix(".out.json").exists()
)


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return Ruleset.build(["pip-sum", "dice-loss", "calza"])


def game(rules: Ruleset, rolls: dict[str, list[int]]) -> Game:
    played = Game(rules, list(rolls), Random(0), dice_per_player=len(next(iter(rolls.values()))))
    played.start_round(rolls)
    return played


def test_the_ruleset_plays_totals(rules: Ruleset) -> None:
    assert rules.bid_kind is PIP_TOTAL
    assert rules.ladder(3)[1] == [Bid(total, 0) for total in range(3, 19)]
    assert rules.options["standard.wild_ones"] is False


@pytest.mark.parametrize(
    ("bid", "reason"),
    [
        (Bid(5, 4), "pip-sum: a bid is a total of pips, with no face (face 0, not 4)"),
        (Bid(3, 0), "pip-sum: with 4 dice in play a total is 4 to 24, not 3"),
        (Bid(25, 0), "pip-sum: with 4 dice in play a total is 4 to 24, not 25"),
    ],
)
def test_a_bid_outside_the_range_is_refused_and_changes_nothing(
    rules: Ruleset, bid: Bid, reason: str
) -> None:
    played = game(rules, {"Ann": [1, 2], "Ben": [3, 4]})
    before = played.state
    with pytest.raises(IllegalAction) as refused:
        played.bid("Ann", bid.quantity, bid.face)
    assert [render(reason) for reason in refused.value.reasons] == [reason]
    assert played.state == before


def test_a_raise_names_a_higher_total(rules: Ruleset) -> None:
    played = game(rules, {"Ann": [1, 2], "Ben": [3, 4]})
    played.bid("Ann", 9, 0)
    with pytest.raises(IllegalAction, match="a total of 9 does not raise a total of 9"):
        played.bid("Ben", 9, 0)
    played.bid("Ben", 10, 0)


@pytest.mark.parametrize(("total", "loser"), [(10, "Ann"), (11, "Ben")])
def test_a_challenge_adds_up_the_pips(rules: Ruleset, total: int, loser: str) -> None:
    played = game(rules, {"Ann": [1, 2], "Ben": [3, 4]})  # 10 pips
    played.bid("Ann", total - 1, 0)
    played.bid("Ben", total, 0)
    played.call("Ann")
    ruling = played.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None
    assert ruling.count == 10
    assert ruling.losers == (loser,)


def test_an_exact_call_is_right_on_the_sum(rules: Ruleset) -> None:
    played = game(rules, {"Ann": [6, 5], "Ben": [1, 1]})  # 13 pips
    played.bid("Ann", 13, 0)
    played.call("Ben", "exact")
    ruling = played.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None and ruling.count == 13 and ruling.losers == ()


def test_the_ruling_reads_the_total_and_the_pips(rules: Ruleset) -> None:
    played = game(rules, {"Ann": [1, 2], "Ben": [3, 4]})
    played.bid("Ann", 12, 0)
    played.call("Ben")
    ruling = played.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None
    said = narration.ruling(rules, ruling)
    assert render(said) == "Challenge on Ann's a total of 12: 10 pips counted; Ann loses the round"
    assert "суму 12 (Ann): налічено 10 очок" in render(said, "uk")
    assert "сумму 12 (Ann): насчитано 10 очков" in render(said, "ru")


@pytest.mark.parametrize(
    ("value", "uk", "ru"),
    [(1, "1 очко", "1 очко"), (3, "3 очки", "3 очка"), (5, "5 очок", "5 очков")],
)
def test_pips_in_every_language(value: int, uk: str, ru: str) -> None:
    assert render(PIP_TOTAL.value_words(value)) == f"{value} pip" + ("s" if value > 1 else "")
    assert render(PIP_TOTAL.value_words(value), "uk") == uk
    assert render(PIP_TOTAL.value_words(value), "ru") == ru


@pytest.mark.parametrize(
    "other", ["aces-switch", "bluff", "cheko", "ones-locking", "palifico", "wild-sixes"]
)
def test_variants_that_speak_of_faces_are_refused(other: str) -> None:
    with pytest.raises(Conflict, match=f"pip-sum conflicts with {other}|{other} conflicts"):
        Ruleset.build(["pip-sum", "dice-loss", other])


def test_wild_ones_are_refused_with_the_option_named() -> None:
    with pytest.raises(Conflict, match=r"no die can be wild: drop standard\.wild_ones=true"):
        Ruleset.build(["pip-sum", "dice-loss"], {"standard.wild_ones": True})


def test_the_sum_of_the_pips_is_exact() -> None:
    two = sum_pmf(2)
    assert two[7] == pytest.approx(6 / 36)
    assert two[2] == two[12] == pytest.approx(1 / 36)
    assert sum(sum_pmf(5)) == pytest.approx(1.0)


def test_odds_are_exact_and_sampling_agrees(rules: Ruleset) -> None:
    played = game(rules, {"Ann": [6, 5], "Ben": [1, 1], "Cid": [2, 3]})
    state = played.state
    exact = odds.bid_chances(rules, state, Bid(20, 0), (6, 5), 4)
    assert isinstance(exact, odds.ValueOutlook) and exact.method == "exact"
    # 11 seen; the 4 unseen dice must bring 9 or more: 1 - P(sum of 4 dice <= 8) = 1 - 70/1296
    assert exact.at_least(20) == pytest.approx(1 - 70 / 1296)
    sampled = odds._sampled(PIP_TOTAL, Bid(20, 0), (5, 6), 4, frozenset())
    assert sum(sampled[20:]) == pytest.approx(exact.at_least(20), abs=0.01)
    assert exact.exactly(25) == pytest.approx(sampled[25], abs=0.01)


@pytest.mark.parametrize("bot", ["odds", "bayes", "mixed"])
def test_the_bots_play_it_against_random(bot: str) -> None:
    rules = Ruleset.build(["pip-sum", "dice-loss"])
    result = run(rules, [bot, "random"], games=20, dice_per_player=3, seed=1)
    wins = {row.kind: row.wins for row in result.results}
    assert wins[bot] > wins["random"]


def test_a_bot_values_a_total_by_its_chance(rules: Ruleset) -> None:
    played = game(rules, {"Ann": [6, 6, 6], "Ben": [1, 1, 1]})
    played.bid("Ann", 12, 0)
    look = odds.view_chances(rules, played.view("Ben"), Bid(12, 0))
    # Ben sees 3 pips; Ann's three dice must bring 9: 1 - P(sum of 3 dice <= 8) = 1 - 56/216
    assert look.at_least(12) == pytest.approx(1 - 56 / 216)
    assert engine.bid_value(rules, played.state, Bid(12, 0)) == 21


def test_there_are_golden_scenarios() -> None:
    assert len(GOLDEN) >= 2


@pytest.mark.parametrize("path", GOLDEN, ids=[path.name for path in GOLDEN])
def test_golden_scenario(path: Path) -> None:
    expected = json.loads(path.with_suffix(".out.json").read_text(encoding="utf-8"))
    assert scenario.run(scenario.load(path)) == expected
