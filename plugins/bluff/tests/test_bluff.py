"""Variant ``bluff`` (Milton Bradley's Bluff): a bid may put hidden dice face up and reroll the rest.

The payload ``{"bluff": {"show": [faces]}}`` and its checks; ``DiceShown`` then ``DiceRerolled``,
drawn from the game's RNG or the rigged stream ``"reroll"``; dice face up seen by every seat, the
rerolled faces by the bidder alone; ``bluff.rerolls`` and ``bluff.show_all``; the payload choices;
odds and bots counting dice face up as known; and the golden scenarios in ../scenarios/.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from random import Random
from typing import Any

import pytest

import liarsdice_bluff
from liarsdice import (
    Bid,
    BidAction,
    CallAction,
    DiceRerolled,
    DiceShown,
    Game,
    IllegalAction,
    PluginError,
    PluginStateSet,
    RiggedRandom,
    Ruleset,
    engine,
    odds,
    scenario,
)
from liarsdice.assessment import assess
from liarsdice.bots import make_bot
from liarsdice.events import BidMade
from liarsdice.models import Action
from liarsdice.ruleset import installed
from liarsdice.views import view_state

TRIO = ("Ann", "Ben", "Cid")
# Fives on the table (ones wild): Ann 3, Ben 1, Cid 1.
ROLLS = {"Ann": [5, 5, 1, 2, 3], "Ben": [5, 2, 3, 4, 6], "Cid": [1, 2, 3, 4, 6]}
SCENARIOS = Path(__file__).parent.parent / "scenarios"
GOLDEN = sorted(
    path
    for path in SCENARIOS.glob("*.json")
    if not path.name.endswith(".out.json") and path.with_suffix(".out.json").exists()
)
BAD_SHAPE = 'bluff: the payload is {"show": [faces of your hidden dice]}'
BAD_LIST = "bluff: show at least one die, as a list of faces"
NOT_HIDDEN = "bluff: you can only show dice from under your cup: [1, 2, 3, 5, 5]"
KEEP_ONE = "bluff: keep at least one die under the cup to reroll"


@functools.cache
def _rules(variants: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.build(variants, dict(options))


def rules(*extra: str, **options: Any) -> Ruleset:
    """``bluff`` + dice-loss + ``extra``, with ``bluff.<name>`` options."""
    given = tuple(sorted((f"bluff.{key}", value) for key, value in options.items()))
    return _rules(("bluff", "dice-loss", *extra), given)


def new_game(
    ruleset: Ruleset,
    rolls: Mapping[str, Sequence[int]] = ROLLS,
    rng: Random | None = None,
    dice: int = 5,
) -> Game:
    """A game whose first round, opened by its first player, is dealt ``rolls``."""
    players = list(rolls)
    game = Game(
        ruleset, players, rng or RiggedRandom(0), dice_per_player=dice, first_opener=players[0]
    )
    game.start_round(rolls)
    return game


def show(player: str, quantity: int, face: int, *dice: int) -> BidAction:
    """``player`` bids ``quantity`` ``face``s and puts ``dice`` face up."""
    return BidAction(player, Bid(quantity, face), {"bluff": {"show": list(dice)}})


def rig(game: Game, *rerolls: Sequence[int]) -> None:
    assert isinstance(game.rng, RiggedRandom)
    game.rng.rig("reroll", [list(faces) for faces in rerolls])


def refuse(game: Game, action: Action, reason: str) -> None:
    """``action`` is refused with exactly ``reason``, and the game is as it was."""
    state, events = game.state, list(game.events)
    with pytest.raises(IllegalAction) as caught:
        game.act(action)
    assert [str(text) for text in caught.value.reasons] == [reason]
    assert game.state == state
    assert game.events == events


def rolls(game: Game) -> Mapping[str, tuple[int, ...]]:
    assert game.state.round is not None
    return game.state.round.rolls


def shown(game: Game) -> Mapping[str, tuple[int, ...]]:
    assert game.state.round is not None
    return game.state.round.shown


def hidden(game: Game, player: str) -> tuple[int, ...]:
    assert game.state.round is not None
    return game.state.round.hidden(player)


def choices(game: Game, player: str) -> set[tuple[int, ...]]:
    """The ``show`` lists the plugin offers ``player`` for a bid now, as tuples."""
    offered = engine.payload_choices(game.rules, game.state, BidAction(player, Bid(1, 2)))
    values = offered.get("bluff", [])
    found = {tuple(value["show"]) for value in values}
    assert len(found) == len(values), "no choice is offered twice"
    return found


# --- the payload ----------------------------------------------------------------------------------


def test_it_reads_the_payload_of_bids_only() -> None:
    variant = installed()["bluff"]
    assert variant.plugin is liarsdice_bluff
    assert variant.info.payloads == ("bid",)
    ruleset = rules()
    assert ruleset.payload_readers["bid"] == frozenset({"bluff"})
    game = new_game(ruleset)
    game.bid("Ann", 3, 5)
    refuse(
        game,
        CallAction("Ben", "challenge", {"bluff": {"show": [5]}}),
        "payload 'bluff' is not for challenge: no plugin reads it here",
    )


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ([5, 5], BAD_SHAPE),  # not a dict
        ("5 5", BAD_SHAPE),
        ({}, BAD_SHAPE),
        ({"shown": [5]}, BAD_SHAPE),
        ({"show": [5], "and": 1}, BAD_SHAPE),
        ({"show": []}, BAD_LIST),  # empty
        ({"show": 5}, BAD_LIST),
        ({"show": ["5"]}, BAD_LIST),
        ({"show": [True]}, BAD_LIST),
        ({"show": [4]}, NOT_HIDDEN),  # Ann holds no four
        ({"show": [5, 5, 5]}, NOT_HIDDEN),  # nor three fives
        ({"show": [7]}, NOT_HIDDEN),
        ({"show": [5, 5, 1, 2, 3]}, KEEP_ONE),  # every die, without bluff.show_all
    ],
)
def test_a_bad_payload_is_refused_and_changes_nothing(value: Any, reason: str) -> None:
    game = new_game(rules())
    refuse(game, BidAction("Ann", Bid(3, 5), {"bluff": value}), reason)
    game.bid("Ann", 3, 5)  # the bid itself is fine


def test_dice_face_up_cannot_be_shown_again() -> None:
    game = new_game(rules())
    rig(game, [4, 4, 4])
    game.act(show("Ann", 3, 5, 5, 5))
    game.bid("Ben", 4, 5)
    game.bid("Cid", 5, 5)
    assert hidden(game, "Ann") == (4, 4, 4)
    refuse(
        game,
        show("Ann", 6, 5, 5),
        "bluff: you can only show dice from under your cup: [4, 4, 4]",
    )
    game.act(show("Ann", 6, 5, 4))  # a die still under the cup may be shown


# --- showing and rerolling ------------------------------------------------------------------------


def test_a_bid_shows_the_dice_named_and_rerolls_the_rest() -> None:
    game = new_game(rules())
    rig(game, [6, 6, 4])
    events = game.act(show("Ann", 3, 5, 5, 5))
    assert events == [
        BidMade("Ann", Bid(3, 5), {"bluff": {"show": [5, 5]}}),
        DiceShown("Ann", (5, 5)),
        DiceRerolled("Ann", (1, 2, 3), (6, 6, 4)),
        PluginStateSet("bluff", "rerolls", {"Ann": 1}),
    ]
    assert rolls(game)["Ann"] == (5, 5, 6, 6, 4)
    assert shown(game) == {"Ann": (5, 5)}
    assert hidden(game, "Ann") == (6, 6, 4)
    assert rolls(game)["Ben"] == tuple(ROLLS["Ben"])
    assert game.state.round is not None
    assert (game.state.round.current_bid, game.state.round.turn) == (Bid(3, 5), "Ben")
    assert isinstance(game.rng, RiggedRandom) and game.rng.leftovers() == {}


def test_an_unrigged_reroll_draws_from_the_games_rng() -> None:
    game = new_game(rules(), rng=Random(7))
    twin = Random()
    twin.setstate(game.rng.getstate())
    expected = tuple(twin.randint(1, 6) for _ in range(3))
    game.act(show("Ann", 3, 5, 5, 5))
    assert rolls(game)["Ann"] == (5, 5, *expected)
    assert game.rng.getstate() == twin.getstate()


@pytest.mark.parametrize("outcome", [[6, 6], [6, 6, 7], "six", [6, 6, True]])
def test_a_rigged_reroll_that_does_not_fit_is_a_plugin_error(outcome: Any) -> None:
    game = new_game(rules())
    assert isinstance(game.rng, RiggedRandom)
    game.rng.rig("reroll", [outcome])
    state = game.state
    with pytest.raises(PluginError, match="a rigged reroll of 3 dice is 3 faces 1-6"):
        game.act(show("Ann", 3, 5, 5, 5))
    assert game.state == state


def test_the_count_uses_the_rerolled_dice_and_the_dice_face_up() -> None:
    game = new_game(rules())
    rig(game, [5, 1, 4])  # Ann now holds 5 5 5 1 4: four toward fives, not three
    game.act(show("Ann", 3, 5, 5, 5))
    assert engine.count_matching(game.rules, game.state, 5) == 6
    game.bid("Ben", 6, 5)
    game.call("Cid")
    assert game.state.round is not None and game.state.round.resolution is not None
    ruling = game.state.round.resolution
    assert (ruling.count, ruling.losers) == (6, ("Cid",))


@pytest.mark.parametrize("show_all", [False, True])
def test_show_all(show_all: bool) -> None:
    game = new_game(rules(show_all=show_all))
    everything = show("Ann", 3, 5, 5, 5, 1, 2, 3)
    if not show_all:
        refuse(game, everything, KEEP_ONE)
        assert (5, 5, 1, 2, 3) not in choices(game, "Ann")
        return
    assert (1, 2, 3, 5, 5) in choices(game, "Ann")
    before = game.rng.getstate()
    events = game.act(everything)
    assert DiceShown("Ann", (5, 5, 1, 2, 3)) in events
    assert not any(isinstance(event, DiceRerolled) for event in events)
    assert game.rng.getstate() == before, "nothing left to reroll: nothing drawn"
    assert shown(game)["Ann"] == rolls(game)["Ann"] == (5, 5, 1, 2, 3)
    assert hidden(game, "Ann") == ()
    game.bid("Ben", 4, 5)
    game.bid("Cid", 5, 5)
    assert choices(game, "Ann") == set()
    refuse(game, show("Ann", 6, 5, 5), "bluff: you can only show dice from under your cup: []")


# --- who sees what --------------------------------------------------------------------------------


def test_dice_face_up_are_seen_by_all_and_the_rerolled_faces_by_the_bidder_alone() -> None:
    game = new_game(rules())
    rig(game, [6, 6, 4])
    game.act(show("Ann", 3, 5, 5, 5))
    for viewer in ("Ann", "Ben", "Cid", None):
        view = game.view(viewer)
        assert {seat.name: seat.shown for seat in view.seats} == {
            "Ann": (5, 5),
            "Ben": (),
            "Cid": (),
        }
        assert view.revealed is None
    assert game.view("Ann").own_dice == (5, 5, 6, 6, 4)
    for viewer in ("Ben", "Cid", None):
        view = game.view(viewer)
        assert view.own_dice == (None if viewer is None else tuple(ROLLS[viewer]))
        # What a bot rebuilds from the view: Ann's dice face up, the rest unknown.
        assert view_state(view).round is not None
        assert view_state(view).round.rolls["Ann"] == (5, 5, 0, 0, 0)  # type: ignore[union-attr]
    assert game.view("Ben").known_dice == (5, 2, 3, 4, 6, 5, 5)
    game.call("Ben")  # the cups are lifted: now everyone sees Ann's new dice
    assert game.view("Ben").revealed == {
        "Ann": (5, 5, 6, 6, 4),
        "Ben": tuple(ROLLS["Ben"]),
        "Cid": tuple(ROLLS["Cid"]),
    }


def test_dice_face_up_stay_up_until_the_round_ends() -> None:
    game = new_game(rules())
    rig(game, [6, 6, 4])
    game.act(show("Ann", 3, 5, 5, 5))
    game.bid("Ben", 4, 5)
    game.bid("Cid", 5, 5)
    assert shown(game) == {"Ann": (5, 5)}
    game.call("Ann")
    assert shown(game) == {"Ann": (5, 5)}
    game.start_round({"Ann": [2, 2, 2, 2, 2], "Ben": [3, 3, 3, 3, 3], "Cid": [4, 4, 4, 4]})
    assert shown(game) == {}
    assert game.state.plugin("bluff") == {"rerolls": {}}
    assert all(seat.shown == () for seat in game.view("Ben").seats)


# --- bluff.rerolls --------------------------------------------------------------------------------


def _show_one_die_each_turn(game: Game, times: int) -> None:
    """Ann and Ben take turns raising; Ann shows one hidden die with each of ``times`` bids."""
    for _ in range(times):
        lowest = engine.legal_bids(game.rules, game.state, "Ann", 1)[0]
        game.act(show("Ann", lowest.quantity, lowest.face, hidden(game, "Ann")[0]))
        game.act(BidAction("Ben", engine.legal_bids(game.rules, game.state, "Ben", 1)[0]))


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_rerolls_limits_the_shows_a_round(limit: int) -> None:
    game = new_game(rules(rerolls=limit), {"Ann": ROLLS["Ann"], "Ben": ROLLS["Ben"]}, Random(3))
    _show_one_die_each_turn(game, limit)
    assert game.state.plugin("bluff") == {"rerolls": {"Ann": limit}}
    assert choices(game, "Ann") == set()
    lowest = engine.legal_bids(game.rules, game.state, "Ann", 1)[0]
    refuse(
        game,
        show("Ann", lowest.quantity, lowest.face, hidden(game, "Ann")[0]),
        ("bluff: one reroll" if limit == 1 else f"bluff: {limit} rerolls")
        + " a round at most, and you have had yours",
    )
    game.act(BidAction("Ann", lowest))
    assert choices(game, "Ben"), "the limit is each player's own"
    ben = engine.legal_bids(game.rules, game.state, "Ben", 1)[0]
    game.act(show("Ben", ben.quantity, ben.face, hidden(game, "Ben")[0]))
    game.call("Ann")
    game.start_round({p.name: [2] * p.dice for p in game.state.alive})
    assert game.state.plugin("bluff") == {"rerolls": {}}
    assert choices(game, "Ann"), "a new round, new rerolls"


def test_rerolls_zero_is_no_limit() -> None:
    game = new_game(rules(rerolls=0), {"Ann": ROLLS["Ann"], "Ben": ROLLS["Ben"]}, Random(3))
    _show_one_die_each_turn(game, 4)  # as often as there are dice to keep under the cup
    assert game.state.plugin("bluff") == {"rerolls": {"Ann": 4}}
    assert len(hidden(game, "Ann")) == 1
    assert choices(game, "Ann") == set()  # one die left, and it must stay under the cup


# --- payload choices ------------------------------------------------------------------------------


def _valid(game: Game, player: str, bid: Bid) -> set[tuple[int, ...]]:
    """Every list of faces (1-6, up to the dice held) that the rules accept with ``bid``."""
    held = len(rolls(game)[player])
    candidates = {
        combo
        for size in range(held + 1)
        for combo in itertools.combinations_with_replacement(range(1, 7), size)
    }
    return {
        combo
        for combo in candidates
        if not engine.bid_problems(
            game.rules, game.state, player, bid, {"bluff": {"show": list(combo)}}
        )
    }


@pytest.mark.parametrize(("show_all", "count"), [(False, 22), (True, 23)])
def test_payload_choices_are_exactly_the_valid_payloads(show_all: bool, count: int) -> None:
    """Ann holds 5 5 1 2 3: 3 * 2 * 2 * 2 = 24 sub-multisets, less the empty one, less all five
    dice unless ``bluff.show_all``."""
    game = new_game(rules(show_all=show_all))
    valid = _valid(game, "Ann", Bid(3, 5))
    assert len(valid) == count
    assert choices(game, "Ann") == valid
    offered = engine.payload_choices(game.rules, game.state, BidAction("Ann", Bid(3, 5)))
    assert list(offered) == ["bluff"]
    assert engine.payload_choices(game.rules, game.state, CallAction("Ann", "challenge")) == {}


def test_payload_choices_follow_the_dice_still_hidden() -> None:
    game = new_game(rules())
    rig(game, [4, 4, 4])
    game.act(show("Ann", 3, 5, 5, 5))
    game.bid("Ben", 4, 5)
    game.bid("Cid", 5, 5)
    assert choices(game, "Ann") == {(4,), (4, 4)} == _valid(game, "Ann", Bid(6, 5))


def test_payload_choices_stop_at_the_reroll_limit() -> None:
    game = new_game(rules(rerolls=1), {"Ann": ROLLS["Ann"], "Ben": ROLLS["Ben"]})
    rig(game, [2, 2, 2])
    game.act(show("Ann", 3, 5, 5, 5))
    game.bid("Ben", 4, 5)
    assert choices(game, "Ann") == set() == _valid(game, "Ann", Bid(5, 5))
    offered = engine.payload_choices(game.rules, game.state, BidAction("Ann", Bid(5, 5)))
    assert offered == {}


# --- odds and bots --------------------------------------------------------------------------------

# Ann puts three twos face up; Ben holds two twos (and no one): Ben knows of five twos.
TWOS = {"Ann": [2, 2, 2, 5, 6], "Ben": [2, 2, 3, 4, 6], "Cid": [1, 3, 3, 4, 5]}


def _twos_face_up() -> Game:
    game = new_game(rules(), TWOS)
    rig(game, [3, 4])
    game.act(show("Ann", 4, 2, 2, 2, 2))
    return game


def test_the_odds_count_dice_face_up_as_known() -> None:
    game = _twos_face_up()
    view = game.view("Ben")
    look = odds.view_outlook(game.rules, view, 2)
    assert (look.known, look.unknown) == (5, 15 - 8)
    assert look.at_least(4) == 1.0
    assert look.at_least(5) == 1.0
    assert look.at_least(6) < 1.0
    assessment = assess(game.rules, view)
    assert assessment.bid == Bid(4, 2)
    assert assessment.bid_true == 1.0
    assert assessment.challenge_wins == 0.0
    # A spectator sees only the dice face up.
    spectator = odds.view_outlook(game.rules, game.view(None), 2)
    assert (spectator.known, spectator.unknown) == (3, 12)


@pytest.mark.parametrize("kind", ["odds", "bayes"])
def test_bots_play_a_legal_move_knowing_the_dice_face_up(kind: str) -> None:
    game = _twos_face_up()
    action = make_bot(kind, game.rules, Random(0)).decide(game.view("Ben"))
    assert action != CallAction("Ben", "challenge"), "the bid on the table is certainly true"
    game.act(action)  # legal: raises nothing


# --- rules text and golden scenarios --------------------------------------------------------------


def test_the_rules_text_follows_the_options() -> None:
    text = rules().describe()
    assert "## Bluff reroll" in text
    assert "after any of their bids" in text
    assert "At least one die must stay under the cup to be rerolled." in text
    assert "once a round" in rules(rerolls=1).describe()
    assert "up to 3 times a round" in rules(rerolls=3).describe()
    assert "They may even put every die face up." in rules(show_all=True).describe()


def test_there_are_golden_scenarios() -> None:
    assert len(GOLDEN) >= 2


@pytest.mark.parametrize("path", GOLDEN, ids=[path.name for path in GOLDEN])
def test_golden_scenario(path: Path) -> None:
    expected = json.loads(path.with_suffix(".out.json").read_text(encoding="utf-8"))
    assert "bluff" in json.loads(path.read_text(encoding="utf-8"))["variants"]
    assert scenario.run(scenario.load(path)) == expected
