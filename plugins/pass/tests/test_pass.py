"""Variant ``pass``: whose dice all show one face may pass; the next player raises or doubts.

A pass keeps the bid and moves the turn; while it is pending the next player may only raise the
last bid or doubt; a doubt is settled on whether the passer's dice were all alike when they passed
(private to the passer until the cups are lifted); ``pass.limit`` and ``pass.min_dice``; the
state resets every round; and the golden scenarios in ../scenarios/.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from random import Random
from typing import Any

import pytest

import liarsdice_pass
from liarsdice import (
    Bid,
    BidAction,
    CallAction,
    Game,
    IllegalAction,
    Notice,
    PluginStateSet,
    PrivateStateSet,
    Resolution,
    Ruleset,
    engine,
    scenario,
)
from liarsdice.bots import make_bot
from liarsdice.events import CallMade, TurnPassed
from liarsdice.models import Action
from liarsdice.ruleset import installed

TRIO = ("Ann", "Ben", "Cid")
# Ben's dice all show four (an honest pass); fours on the table: Ann 1, Ben 5, Cid's one 1 = 7.
ROLLS = {"Ann": [2, 3, 4, 5, 6], "Ben": [4, 4, 4, 4, 4], "Cid": [1, 2, 3, 5, 6]}
MIXED = [4, 4, 4, 4, 3]  # one die off: a pass on these is a lie
PENDING = "pass: Ben has just passed: raise the last bid or doubt the pass"
NO_PASS = "doubt: there is no pass to doubt"
SCENARIOS = Path(__file__).parent.parent / "scenarios"
GOLDEN = sorted(
    path
    for path in SCENARIOS.glob("*.json")
    if not path.name.endswith(".out.json") and path.with_suffix(".out.json").exists()
)


@functools.cache
def _rules(variants: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.build(variants, dict(options))


def rules(*extra: str, **options: Any) -> Ruleset:
    """``pass`` + dice-loss + ``extra``, with ``pass.<name>`` options."""
    given = tuple(sorted((f"pass.{key}", value) for key, value in options.items()))
    return _rules(("pass", "dice-loss", *extra), given)


def new_game(
    ruleset: Ruleset,
    rolls: Mapping[str, Sequence[int]] = ROLLS,
    players: Sequence[str] = TRIO,
    dice: int = 5,
) -> Game:
    """A game whose first round (opened by the first player) is dealt ``rolls``."""
    game = Game(ruleset, list(players), Random(0), dice_per_player=dice, first_opener=players[0])
    game.start_round(rolls)
    return game


def refuse(game: Game, action: Action, *reasons: str) -> None:
    """``action`` is refused with exactly ``reasons``, and the game is as it was."""
    state, events = game.state, list(game.events)
    with pytest.raises(IllegalAction) as caught:
        game.act(action)
    assert [str(text) for text in caught.value.reasons] == list(reasons)
    assert game.state == state
    assert game.events == events


def pass_state(game: Game) -> Mapping[str, Any]:
    return game.state.plugin("pass")


def passed_once(ruleset: Ruleset | None = None, ben: Sequence[int] = ROLLS["Ben"]) -> Game:
    """Ann bids three fours and Ben, holding ``ben``, passes: Cid must answer."""
    game = new_game(ruleset or rules(), {**ROLLS, "Ben": ben})
    game.bid("Ann", 3, 4)
    game.call("Ben", "pass")
    return game


def resolution(game: Game) -> Resolution:
    assert game.state.round is not None and game.state.round.resolution is not None
    return game.state.round.resolution


# --- the call kinds -------------------------------------------------------------------------------


def test_it_registers_pass_which_goes_on_and_doubt_which_ends_the_round() -> None:
    variant = installed()["pass"]
    assert variant.plugin is liarsdice_pass
    assert variant.distribution == "liarsdice-rules-pass"
    kinds = {call.name: call.ends_round for call in variant.calls}
    assert kinds == {"pass": False, "doubt": True}
    assert {"challenge", "pass", "doubt"} <= set(rules().calls)


def test_the_opener_cannot_pass() -> None:
    game = new_game(rules())
    refuse(game, CallAction("Ann", "pass"), "the opener cannot call: there is no bid yet")
    assert engine.legal_calls(game.rules, game.state, "Ann") == []


# --- a pass ---------------------------------------------------------------------------------------


def test_a_pass_keeps_the_bid_and_moves_the_turn() -> None:
    game = new_game(rules())
    game.bid("Ann", 3, 4)
    events = game.call("Ben", "pass")
    assert events == [
        CallMade("Ben", "pass", {}),
        PluginStateSet("pass", "pending", "Ben"),
        PluginStateSet("pass", "passed", ["Ben"]),
        PrivateStateSet("pass", "Ben", "honest", True),
        Notice(
            "pass",
            liarsdice_pass._(
                "{player} passes: all their dice show one face, they say", player="Ben"
            ),
            "Ben",
        ),
        TurnPassed("Cid"),
    ]
    round_ = game.state.round
    assert round_ is not None and not round_.over
    assert round_.turn == "Cid"
    assert [(placed.player, placed.bid) for placed in round_.bids] == [("Ann", Bid(3, 4))]
    assert pass_state(game) == {"pending": "Ben", "passed": ["Ben"]}
    # The bid to raise is still Ann's three fours.
    assert engine.legal_bids(game.rules, game.state, "Cid", 1) == [Bid(3, 5)]
    refuse(
        game,
        BidAction("Cid", Bid(3, 3)),
        "3 threes does not raise 3 fours",
        "the lowest raise is 3 fives, or 4 threes on the same face",  # a pass keeps the bid
    )


def test_after_a_pass_the_next_player_may_only_raise_or_doubt() -> None:
    game = passed_once()
    assert engine.legal_calls(game.rules, game.state, "Cid") == ["doubt"]
    refuse(game, CallAction("Cid", "challenge"), PENDING)
    refuse(game, CallAction("Cid", "pass"), PENDING)
    assert engine.legal_bids(game.rules, game.state, "Cid", 1) == [Bid(3, 5)]
    game.bid("Cid", 3, 5)  # a raise is allowed
    assert game.state.round is not None and game.state.round.current_bid == Bid(3, 5)


def test_exact_is_refused_while_a_pass_is_pending() -> None:
    game = passed_once(rules("calza"))
    assert engine.legal_calls(game.rules, game.state, "Cid") == ["doubt"]
    refuse(game, CallAction("Cid", "exact"), PENDING)
    game.bid("Cid", 4, 4)
    assert set(engine.legal_calls(game.rules, game.state, "Ann")) == {"challenge", "exact", "pass"}


def test_doubt_without_a_pass_is_refused() -> None:
    game = new_game(rules())
    game.bid("Ann", 3, 4)
    refuse(game, CallAction("Ben", "doubt"), NO_PASS)
    assert set(engine.legal_calls(game.rules, game.state, "Ben")) == {"challenge", "pass"}


# --- doubting a pass ------------------------------------------------------------------------------


def test_an_honest_pass_doubted_costs_the_doubter() -> None:
    game = passed_once()
    game.call("Cid", "doubt")
    assert resolution(game) == Resolution(
        call="doubt",
        caller="Cid",
        bidder="Ann",
        bid=Bid(3, 4),
        count=7,
        success=False,
        losers=("Cid",),
        winners=("Ben",),
    )
    assert [p.dice for p in game.state.players] == [5, 5, 4]
    assert game.state.next_opener == "Cid"


def test_a_dishonest_pass_doubted_costs_the_passer() -> None:
    game = passed_once(ben=MIXED)
    game.call("Cid", "doubt")
    ruling = resolution(game)
    assert (ruling.call, ruling.caller, ruling.success) == ("doubt", "Cid", True)
    assert (ruling.losers, ruling.winners) == (("Ben",), ("Cid",))
    assert [p.dice for p in game.state.players] == [5, 4, 5]
    assert game.state.next_opener == "Ben"


@pytest.mark.parametrize(
    ("ben", "bid", "loser"),
    [
        (ROLLS["Ben"], Bid(15, 6), "Cid"),  # the bid is a wild lie, but the pass was honest
        (MIXED, Bid(2, 4), "Ben"),  # the bid is plainly true, but the pass was a lie
    ],
)
def test_a_doubt_is_settled_on_the_pass_not_on_the_bid(
    ben: Sequence[int], bid: Bid, loser: str
) -> None:
    game = new_game(rules(), {**ROLLS, "Ben": ben})
    game.bid("Ann", bid.quantity, bid.face)
    game.call("Ben", "pass")
    game.call("Cid", "doubt")
    assert resolution(game).losers == (loser,)


def test_a_raise_clears_the_pending_pass() -> None:
    game = passed_once()
    game.bid("Cid", 4, 4)
    assert pass_state(game) == {"pending": None, "passed": ["Ben"]}
    refuse(game, CallAction("Ann", "doubt"), NO_PASS)
    assert set(engine.legal_calls(game.rules, game.state, "Ann")) == {"challenge", "pass"}
    game.call("Ann")  # an ordinary challenge: seven fours, the bid stands
    ruling = resolution(game)
    assert (ruling.call, ruling.bidder, ruling.count, ruling.losers) == (
        "challenge",
        "Cid",
        7,
        ("Ann",),
    )


# --- the options ----------------------------------------------------------------------------------


def test_limit_player_lets_each_player_pass_once_a_round() -> None:
    game = new_game(rules(limit="player"))
    game.bid("Ann", 3, 4)
    game.call("Ben", "pass")
    game.bid("Cid", 4, 4)
    game.call("Ann", "pass")  # somebody else may pass too
    game.bid("Ben", 5, 4)
    game.bid("Cid", 6, 4)
    refuse(game, CallAction("Ann", "pass"), "pass: each player may pass once a round, and you have")
    assert pass_state(game)["passed"] == ["Ben", "Ann"]
    game.bid("Ann", 7, 4)
    refuse(game, CallAction("Ben", "pass"), "pass: each player may pass once a round, and you have")


def test_limit_round_allows_one_pass_for_the_whole_table() -> None:
    game = new_game(rules(limit="round"))
    game.bid("Ann", 3, 4)
    game.call("Ben", "pass")
    game.bid("Cid", 4, 4)
    refuse(game, CallAction("Ann", "pass"), "pass: one pass a round, and Ben has passed")
    assert engine.legal_calls(game.rules, game.state, "Ann") == ["challenge"]


@pytest.mark.parametrize(
    ("min_dice", "dice", "allowed"),
    [(1, 1, True), (2, 1, False), (2, 2, True), (3, 2, False), (3, 3, True)],
)
def test_min_dice(min_dice: int, dice: int, allowed: bool) -> None:
    ruleset = rules(min_dice=min_dice)
    game = new_game(ruleset, {name: [4] * dice for name in TRIO}, dice=dice)
    game.bid("Ann", 1, 4)
    if allowed:
        game.call("Ben", "pass")
        assert pass_state(game)["pending"] == "Ben"
    else:
        noun = "die" if min_dice == 1 else "dice"
        refuse(
            game, CallAction("Ben", "pass"), f"pass: you need at least {min_dice} {noun} to pass"
        )
        assert "pass" not in engine.legal_calls(ruleset, game.state, "Ben")


def test_a_single_die_always_shows_one_face() -> None:
    game = new_game(rules(min_dice=1), {"Ann": [2], "Ben": [5], "Cid": [3]}, dice=1)
    game.bid("Ann", 1, 2)
    game.call("Ben", "pass")
    game.call("Cid", "doubt")
    assert resolution(game).losers == ("Cid",)


def test_the_rules_text_follows_the_options() -> None:
    text = rules().describe()
    assert "## Pass" in text
    assert "Each player may pass once a round." in text
    assert "You need at least 2 dice to\npass" in text
    text = rules(limit="round", min_dice=3).describe()
    assert "Only one player may pass in a round." in text
    assert "You need at least 3 dice to\npass" in text
    assert "or pass (see Pass)" in text and "there is no passing" not in text


# --- the next round -------------------------------------------------------------------------------


def test_the_pass_state_resets_at_the_next_round() -> None:
    game = passed_once(rules(limit="round"))
    game.call("Cid", "doubt")
    assert pass_state(game)["passed"] == ["Ben"]
    game.start_round({"Ann": [2, 2, 2, 2, 2], "Ben": [4, 4, 4, 4, 4], "Cid": [3, 3, 3, 3]})
    assert pass_state(game) == {"pending": None, "passed": []}
    assert game.state.round is not None and game.state.round.private == {}
    assert game.view("Ben").private == {}
    game.bid("Cid", 2, 3)
    game.call("Ann", "pass")  # one pass a round: a new round, a new pass
    assert pass_state(game) == {"pending": "Ann", "passed": ["Ann"]}


def test_a_pass_pending_when_the_round_ends_does_not_carry_over() -> None:
    game = passed_once()
    game.timeout("Cid")  # Cid's clock runs out while he must answer Ben's pass
    assert pass_state(game)["pending"] == "Ben"
    game.start_round({"Ann": [2, 2, 2, 2, 2], "Ben": [4, 4, 4, 4, 4], "Cid": [3, 3, 3, 3]})
    assert pass_state(game)["pending"] is None
    game.bid("Cid", 2, 3)
    assert "challenge" in engine.legal_calls(game.rules, game.state, "Ann")
    game.call("Ann")
    assert resolution(game).call == "challenge"


# --- who knows whether the pass was honest --------------------------------------------------------


@pytest.mark.parametrize(("ben", "honest"), [(ROLLS["Ben"], True), (MIXED, False)])
def test_the_passers_honesty_is_theirs_until_the_cups_are_lifted(
    ben: Sequence[int], honest: bool
) -> None:
    game = passed_once(ben=ben)
    secret = {"pass": {"Ben": {"honest": honest}}}
    assert game.view("Ben").private == secret
    for viewer in ("Ann", "Cid", None):
        assert game.view(viewer).private == {}
    assert game.view("Cid").plugins["pass"] == {"pending": "Ben", "passed": ["Ben"]}
    game.call("Cid", "doubt")  # the cups are lifted
    for viewer in ("Ann", "Ben", "Cid", None):
        assert game.view(viewer).private == secret


def test_a_timeout_lifts_no_cup_and_keeps_the_secret() -> None:
    game = passed_once(ben=MIXED)
    game.timeout("Cid")
    assert game.view("Ben").private == {"pass": {"Ben": {"honest": False}}}
    for viewer in ("Ann", "Cid", None):
        assert game.view(viewer).private == {}


# --- bots -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["odds", "bayes"])
def test_bots_answer_a_pass_with_a_legal_move(kind: str) -> None:
    game = passed_once()
    action = make_bot(kind, game.rules, Random(0)).decide(game.view("Cid"))
    assert isinstance(action, BidAction) or action == CallAction("Cid", "doubt")
    game.act(action)  # legal: raises nothing


# --- golden scenarios -----------------------------------------------------------------------------


def test_there_are_golden_scenarios() -> None:
    assert len(GOLDEN) >= 2


@pytest.mark.parametrize("path", GOLDEN, ids=[path.name for path in GOLDEN])
def test_golden_scenario(path: Path) -> None:
    expected = json.loads(path.with_suffix(".out.json").read_text(encoding="utf-8"))
    assert "pass" in json.loads(path.read_text(encoding="utf-8"))["variants"]
    assert scenario.run(scenario.load(path)) == expected


@pytest.mark.parametrize(("limit", "extra"), [("player", 3), ("round", 1)])
def test_each_pass_allowed_in_a_round_is_one_more_turn_in_the_move_limit(
    limit: str, extra: int
) -> None:
    moves = rules(limit=limit).move_limit(3, 2)
    assert moves.turns == 6 * 6 + 1 + extra
    assert f"pass {extra}: " in moves.turns_why
