"""Variant ``wild-sixes``: sixes are wild instead of ones.

Counting (every six toward any other face, a bid on sixes counts sixes alone, ones ordinary);
``standard.wild_ones`` false by default and refused when true; ``wild-sixes.bid_sixes``; the wild
face the rules and the odds report; palifico (no die wild in its round) and the conflicts with
aces-switch and ones-locking; and the golden scenarios in ../scenarios/.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

import pytest

import liarsdice_wild_sixes
from liarsdice import (
    Bid,
    BidAction,
    Game,
    IllegalAction,
    Ruleset,
    RulesetError,
    engine,
    odds,
    scenario,
)
from liarsdice.errors import Conflict
from liarsdice.legality import lowest_raises
from liarsdice.oddspage import odds_table
from liarsdice.ruleset import installed

TRIO = ("Ann", "Ben", "Cid")
# Sixes: 3. Ones: 2. Twos, threes, fours: 1 each. Fives: 2.
ROLLS = {"Ann": [6, 6, 1, 2, 3], "Ben": [1, 5, 5, 6, 4]}
SCENARIOS = Path(__file__).parent.parent / "scenarios"
GOLDEN = sorted(
    path
    for path in SCENARIOS.glob("*.json")
    if not path.name.endswith(".out.json") and path.with_suffix(".out.json").exists()
)
NO_SIXES = "sixes are wild: no bids on sixes"


def _option(key: str) -> str:
    plugin, _, name = key.partition("__")
    return f"{plugin.replace('_', '-')}.{name}"


@functools.cache
def _rules(variants: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.build(variants, dict(options))


def rules(*extra: str, **options: Any) -> Ruleset:
    """``wild-sixes`` + dice-loss + ``extra``; ``plugin__option=value`` sets ``plugin.option``
    (``wild_sixes__bid_sixes`` sets ``wild-sixes.bid_sixes``)."""
    given = tuple(sorted((_option(key), value) for key, value in options.items()))
    return _rules(("wild-sixes", "dice-loss", *extra), given)


def new_game(
    ruleset: Ruleset,
    rolls: Mapping[str, Sequence[int]] = ROLLS,
    dice: int = 5,
) -> Game:
    """A game whose first round, opened by its first player, is dealt ``rolls``."""
    players = list(rolls)
    game = Game(ruleset, players, Random(0), dice_per_player=dice, first_opener=players[0])
    game.start_round(rolls)
    return game


def refuse(game: Game, bid: BidAction, reason: str) -> None:
    """``bid`` is refused with exactly ``reason``, and the game is as it was."""
    state, events = game.state, list(game.events)
    with pytest.raises(IllegalAction) as caught:
        game.act(bid)
    assert [str(text) for text in caught.value.reasons] == [reason]
    assert game.state == state
    assert game.events == events


def challenged(game: Game) -> tuple[int | None, tuple[str, ...]]:
    """The next player challenges the bid on the table: (count, losers)."""
    assert game.state.round is not None
    game.call(game.state.round.turn)
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None
    return ruling.count, ruling.losers


# --- counting -------------------------------------------------------------------------------------


def test_it_is_installed_and_conflicts_with_the_ones_variants() -> None:
    variant = installed()["wild-sixes"]
    assert variant.plugin is liarsdice_wild_sixes
    assert variant.distribution == "liarsdice-rules-wild-sixes"
    assert variant.info.conflicts == ("aces-switch", "ones-locking")
    assert variant.info.option_defaults == {"standard.wild_ones": False}


def test_sixes_count_toward_every_other_face() -> None:
    ruleset = rules()
    game = new_game(ruleset)
    counts = {face: engine.count_matching(ruleset, game.state, face) for face in range(1, 7)}
    assert counts == {1: 5, 2: 4, 3: 4, 4: 4, 5: 5, 6: 3}
    matching = ruleset.hooks.matching_faces
    assert matching(game.state, 5) == frozenset({5, 6})
    assert matching(game.state, 1) == frozenset({1, 6})
    assert matching(game.state, 6) == frozenset({6})


def test_a_challenge_counts_the_sixes_in() -> None:
    game = new_game(rules())
    game.bid("Ann", 5, 5)  # two fives and three sixes
    assert challenged(game) == (5, ("Ben",))


def test_a_bid_on_sixes_counts_sixes_alone() -> None:
    game = new_game(rules())
    game.bid("Ann", 4, 6)  # three sixes; the two ones are not wild
    assert challenged(game) == (3, ("Ann",))


def test_ones_are_an_ordinary_face_that_may_be_bid() -> None:
    ruleset = rules()
    game = new_game(ruleset)
    assert engine.bid_problems(ruleset, game.state, "Ann", Bid(1, 1)) == []
    assert engine.legal_bids(ruleset, game.state, "Ann", 1) == [Bid(1, 1)]
    game.bid("Ann", 5, 1)  # two ones and three sixes
    assert challenged(game) == (5, ("Ben",))


def test_the_wild_face_is_six() -> None:
    ruleset = rules()
    assert ruleset.wild_faces() == frozenset({6})
    table = odds_table(ruleset, 10)
    assert table.wild_faces == (6,)
    assert table.face(5).counted == (5, 6)
    assert table.face(6).counted == (6,)
    assert table.face(1).counted == (1, 6)
    game = new_game(ruleset)
    assert odds.outlook(ruleset, game.state, 5).p == float(Fraction(2, 6))
    assert odds.outlook(ruleset, game.state, 6).p == float(Fraction(1, 6))


# --- standard.wild_ones ---------------------------------------------------------------------------


def test_it_turns_wild_ones_off_by_default() -> None:
    assert Ruleset.build(["dice-loss"]).options["standard.wild_ones"] is True
    assert Ruleset.build(["wild-sixes", "dice-loss"]).options["standard.wild_ones"] is False
    assert rules(standard__wild_ones=False).options["standard.wild_ones"] is False
    assert rules(standard__wild_ones="false").options["standard.wild_ones"] is False


@pytest.mark.parametrize("value", [True, "true"])
def test_wild_ones_true_is_refused_naming_wild_sixes(value: Any) -> None:
    with pytest.raises(Conflict) as caught:
        Ruleset.build(["wild-sixes", "dice-loss"], {"standard.wild_ones": value})
    assert "wild-sixes" in str(caught.value)
    assert "standard.wild_ones=true" in str(caught.value)


# --- wild-sixes.bid_sixes -------------------------------------------------------------------------


@pytest.mark.parametrize("bid_sixes", [True, False])
def test_bid_sixes(bid_sixes: bool) -> None:
    ruleset = rules(wild_sixes__bid_sixes=bid_sixes)
    assert ruleset.options["wild-sixes.bid_sixes"] is bid_sixes
    game = new_game(ruleset)
    faces = {bid.face for bid in engine.legal_bids(ruleset, game.state, "Ann")}
    assert faces == ({1, 2, 3, 4, 5, 6} if bid_sixes else {1, 2, 3, 4, 5})
    game.bid("Ann", 2, 5)
    if bid_sixes:
        assert engine.bid_problems(ruleset, game.state, "Ben", Bid(2, 6)) == []
        game.bid("Ben", 2, 6)
    else:
        refuse(game, BidAction("Ben", Bid(2, 6)), NO_SIXES)
        refuse(game, BidAction("Ben", Bid(10, 6)), NO_SIXES)
        assert 6 not in lowest_raises(ruleset, game.state, "Ben")


def test_the_rules_text_follows_the_options() -> None:
    text = rules().describe()
    assert "## Wild sixes" in text
    assert "Sixes are wild: every die showing 6 also counts toward a bid on any other face." in text
    assert "a bid on sixes counts sixes alone" in text
    assert "Ones are wild: every die showing 1" not in text
    assert "nobody may bid sixes" in rules(wild_sixes__bid_sixes=False).describe()


# --- palifico and the conflicts -------------------------------------------------------------------


def lose(game: Game, loser: str) -> None:
    """Play a round that ``loser`` loses: every die shows 2, the bids on twos are all true."""
    game.start_round({p.name: [2] * p.dice for p in game.state.alive})
    assert game.state.round is not None
    quantity = 0
    while game.state.round.turn != loser:
        quantity += 1
        game.bid(game.state.round.turn, quantity, 2)
    if quantity:
        game.call(loser)
    else:
        game.bid(loser, 1, 5)  # no fives, no sixes: a lie
        game.call(game.state.round.turn)
    assert game.state.round.resolution is not None
    assert game.state.round.resolution.losers == (loser,)


def palifico_round(**options: Any) -> Game:
    """A three-player game at three dice each in which Ben drops to one die and now opens his
    palifico round, dealt Ann 5 6 2, Ben 6, Cid 5 1 2."""
    ruleset = rules("palifico", **options)
    game = Game(ruleset, list(TRIO), Random(0), dice_per_player=3, first_opener="Ann")
    lose(game, "Ben")
    lose(game, "Ben")
    game.start_round({"Ann": [5, 6, 2], "Ben": [6], "Cid": [5, 1, 2]})
    assert game.state.plugin("palifico").get("active") == "Ben"
    return game


def test_palifico_is_asked_first() -> None:
    ruleset = rules("palifico")
    assert ruleset.order.index("palifico") < ruleset.order.index("wild-sixes")


def test_in_a_palifico_round_no_die_is_wild() -> None:
    game = palifico_round()
    ruleset = game.rules
    assert ruleset.wild_faces(game.state) == frozenset()
    assert engine.count_matching(ruleset, game.state, 5) == 2
    assert engine.count_matching(ruleset, game.state, 1) == 1
    game.bid("Ben", 2, 5)
    game.bid("Cid", 3, 5)  # true with wild sixes (4), false without (2)
    assert challenged(game) == (2, ("Cid",))
    # The round after is ordinary again: sixes are wild.
    game.start_round({"Ann": [5, 6, 2], "Ben": [6], "Cid": [5, 2]})
    assert game.state.plugin("palifico").get("active") is None
    assert ruleset.wild_faces(game.state) == frozenset({6})
    assert engine.count_matching(ruleset, game.state, 5) == 4


def test_in_a_palifico_round_sixes_may_be_bid_even_without_bid_sixes() -> None:
    game = palifico_round(wild_sixes__bid_sixes=False)
    assert engine.bid_problems(game.rules, game.state, "Ben", Bid(1, 6)) == []
    game.bid("Ben", 1, 6)
    game.bid("Cid", 3, 6)
    assert challenged(game) == (2, ("Cid",))
    game.start_round({"Ann": [5, 6, 2], "Ben": [6], "Cid": [5, 2]})
    assert game.state.plugin("palifico").get("active") is None
    assert list(map(str, engine.bid_problems(game.rules, game.state, "Cid", Bid(1, 6)))) == [
        NO_SIXES
    ]


def test_palifico_keep_wilds_keeps_sixes_wild() -> None:
    game = palifico_round(palifico__keep_wilds=True, wild_sixes__bid_sixes=False)
    assert game.rules.wild_faces(game.state) == frozenset({6})
    assert engine.count_matching(game.rules, game.state, 5) == 4
    assert list(map(str, engine.bid_problems(game.rules, game.state, "Ben", Bid(1, 6)))) == [
        NO_SIXES
    ]


@pytest.mark.parametrize("other", ["aces-switch", "ones-locking"])
def test_it_conflicts_with_the_variants_built_on_wild_ones(other: str) -> None:
    with pytest.raises(Conflict, match=f"wild-sixes conflicts with {other}: choose one of them"):
        Ruleset.build(["wild-sixes", other, "dice-loss"])


@pytest.mark.parametrize("preset", ["perudo", "online"])
def test_presets_built_on_wild_ones_refuse_it(preset: str) -> None:
    with pytest.raises(RulesetError, match="wild-sixes conflicts with"):
        Ruleset.build(["wild-sixes"], preset=preset)


# --- golden scenarios -----------------------------------------------------------------------------


def test_there_are_golden_scenarios() -> None:
    assert len(GOLDEN) >= 2


@pytest.mark.parametrize("path", GOLDEN, ids=[path.name for path in GOLDEN])
def test_golden_scenario(path: Path) -> None:
    expected = json.loads(path.with_suffix(".out.json").read_text(encoding="utf-8"))
    assert "wild-sixes" in json.loads(path.read_text(encoding="utf-8"))["variants"]
    assert scenario.run(scenario.load(path)) == expected
