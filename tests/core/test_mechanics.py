"""The second edition's mechanics, with throwaway plugins: payloads, calls that continue a round,
who acts next, dice put face up and rerolled, private state, and the views and odds of all that."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from liarsdice import (
    Bid,
    BidAction,
    CallAction,
    DiceChanged,
    DiceRerolled,
    DiceShown,
    Game,
    IllegalAction,
    Notice,
    PluginError,
    PluginStateSet,
    PrivateStateSet,
    Ruleset,
    engine,
    hookimpl,
    odds,
)
from liarsdice.events import CallMade, TurnPassed
from liarsdice.reducer import replay
from liarsdice.views import view_state

ROLLS = {"Ann": [2, 2, 3], "Ben": [2, 5, 6], "Cid": [4, 4, 2]}


def game_of(rules: Ruleset, rolls: dict[str, list[int]] = ROLLS) -> Game:
    game = Game(rules, list(rolls), Random(1), dice_per_player=3)
    game.start_round(rolls)
    return game


# --- a call that continues the round ------------------------------------------------------------


@hookimpl
def liarsdice_register_calls(calls):
    calls.add("skip", "I skip my turn; the bid stays", ends_round=False)


@hookimpl
def liarsdice_call_made(state, player, call, payload):
    if call != "skip":
        return None
    return [
        PluginStateSet("skipper", "skipped", player),
        PrivateStateSet("skipper", player, "why", payload.get("skipper", "no reason")),
        Notice("skipper", f"{player} skips"),
    ]


@pytest.fixture
def skipper(install_plugins, plugin_factory) -> Ruleset:
    plugin = plugin_factory(
        "skipper",
        liarsdice_register_calls,
        liarsdice_call_made,
        payloads=("skip",),
    )
    install_plugins({"skipper": plugin})
    return Ruleset.build(["skipper", "dice-loss"])


def test_a_call_that_continues_the_round_applies_its_effects_and_passes_the_turn(
    skipper: Ruleset,
) -> None:
    game = game_of(skipper)
    game.bid("Ann", 2, 2)
    events = game.act(CallAction("Ben", "skip", {"skipper": "thinking"}))
    assert isinstance(events[0], CallMade) and events[0].payload == {"skipper": "thinking"}
    assert events[-1] == TurnPassed("Cid")
    round_ = game.state.round
    assert round_ is not None and not round_.over
    assert round_.turn == "Cid" and round_.current_bid == Bid(2, 2)  # the bid stays
    assert game.state.plugin("skipper") == {"skipped": "Ben"}
    assert game.state.private("skipper", "Ben") == {"why": "thinking"}
    assert replay(game.events) == game.state
    game.call("Cid")  # Cid challenges Ann's bid: 2 twos plus wild ones, it stands
    assert game.state.round is not None and game.state.round.resolution is not None
    assert game.state.round.resolution.losers == ("Cid",)


def test_a_continuing_call_is_validated_like_any_call(skipper: Ruleset) -> None:
    game = game_of(skipper)
    with pytest.raises(IllegalAction, match="the opener cannot call"):
        game.call("Ann", "skip")
    game.bid("Ann", 2, 2)
    before = game.state
    with pytest.raises(IllegalAction, match="not Cid's turn"):
        game.call("Cid", "skip")
    with pytest.raises(IllegalAction, match=r"payload 'dice-loss' is not for skip"):
        game.act(CallAction("Ben", "skip", {"dice-loss": 1}))
    with pytest.raises(IllegalAction, match=r"payload 'skipper' is not for challenge"):
        game.act(CallAction("Ben", "challenge", {"skipper": 1}))
    with pytest.raises(IllegalAction, match="only JSON values"):
        game.act(CallAction("Ben", "skip", {"skipper": {1, 2}}))
    assert game.state is before


# --- who acts next --------------------------------------------------------------------------------


@hookimpl
def liarsdice_next_turn(state, player):
    """Counter-clockwise: the previous living player."""
    names = [p.name for p in state.players if p.alive]
    return names[names.index(player) - 1]


def test_next_turn_decides_who_acts_after_a_bid(install_plugins, plugin_factory) -> None:
    install_plugins({"widdershins": plugin_factory("widdershins", liarsdice_next_turn)})
    rules = Ruleset.build(["widdershins", "dice-loss"])
    game = game_of(rules)
    events = game.bid("Ann", 2, 2)
    assert events[-1] == TurnPassed("Cid")
    assert game.state.round is not None and game.state.round.turn == "Cid"
    with pytest.raises(IllegalAction, match="not Ben's turn"):
        game.bid("Ben", 3, 2)
    game.bid("Cid", 3, 2)
    assert game.state.round.turn == "Ben"
    assert replay(game.events) == game.state


def test_without_a_variant_the_turn_passes_clockwise_with_no_extra_event(
    dice_loss_rules: Ruleset,
) -> None:
    game = game_of(dice_loss_rules)
    events = game.bid("Ann", 2, 2)
    assert not any(isinstance(event, TurnPassed) for event in events)
    assert game.state.round is not None and game.state.round.turn == "Ben"


def test_next_turn_must_name_a_living_player(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_next_turn():
        return "Zed"

    install_plugins({"lost": plugin_factory("lost", liarsdice_next_turn)})
    game = game_of(Ruleset.build(["lost", "dice-loss"]))
    with pytest.raises(PluginError, match="'Zed', who is not a living player"):
        game.bid("Ann", 2, 2)


# --- payloads, dice face up, rerolls ------------------------------------------------------------


@hookimpl
def liarsdice_bid_problem(state, player, payload):
    wanted = payload.get("peek")
    if wanted is None:
        return None
    if not isinstance(wanted, int) or not 1 <= wanted <= 6:
        return "peek: show a face from 1 to 6"
    if wanted not in state.round.hidden(player):
        return f"peek: you hold no hidden {wanted}"
    return None


@hookimpl
def liarsdice_bid_made(state, player, payload, rng):
    wanted = payload.get("peek")
    if wanted is None:
        return None
    hidden = state.round.hidden(player)
    rest = list(hidden)
    rest.remove(wanted)
    faces = tuple(rng.randint(1, 6) for _ in rest)
    return [DiceShown(player, (wanted,)), DiceRerolled(player, tuple(rest), faces)]


@hookimpl
def liarsdice_payload_choices(state, player, action):
    return [face for face in sorted(set(state.round.hidden(player)))]


@pytest.fixture
def peek(install_plugins, plugin_factory) -> Ruleset:
    plugin = plugin_factory(
        "peek",
        liarsdice_bid_problem,
        liarsdice_bid_made,
        liarsdice_payload_choices,
        payloads=("bid",),
    )
    install_plugins({"peek": plugin})
    return Ruleset.build(["peek", "dice-loss"])


def test_a_bid_payload_shows_dice_and_rerolls_the_rest(peek: Ruleset) -> None:
    game = game_of(peek)
    game.act(BidAction("Ann", Bid(2, 2), {"peek": 2}))
    round_ = game.state.round
    assert round_ is not None
    assert round_.shown == {"Ann": (2,)}
    assert len(round_.rolls["Ann"]) == 3 and round_.rolls["Ann"][0] == 2
    assert round_.hidden("Ann") == round_.rolls["Ann"][1:]
    views = {name: game.view(name) for name in ("Ann", "Ben", None)}
    for view in views.values():
        assert [seat.shown for seat in view.seats] == [(2,), (), ()]
    assert views["Ann"].own_dice == round_.rolls["Ann"]
    assert views["Ben"].known_dice == (2, 5, 6, 2)  # his own, then Ann's die face up
    assert replay(game.events) == game.state


def test_a_bad_payload_is_refused_by_the_plugin_that_reads_it(peek: Ruleset) -> None:
    game = game_of(peek)
    before = game.state
    with pytest.raises(IllegalAction, match="peek: you hold no hidden 5"):
        game.act(BidAction("Ann", Bid(2, 2), {"peek": 5}))
    with pytest.raises(IllegalAction, match="keyed by plugin name"):
        game.act(BidAction("Ann", Bid(2, 2), ["peek"]))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="'nobody' is not for bid: only peek read"):
        game.act(BidAction("Ann", Bid(2, 2), {"nobody": 1}))
    assert game.state is before


def test_payload_choices_are_asked_of_each_reader_alone(peek: Ruleset) -> None:
    game = game_of(peek)
    state = game.state
    assert engine.payload_choices(peek, state, BidAction("Ann", Bid(2, 2))) == {"peek": [2, 3]}
    assert engine.payload_choices(peek, state, CallAction("Ann")) == {}
    for value in engine.payload_choices(peek, state, BidAction("Ann", Bid(2, 2)))["peek"]:
        assert not engine.bid_problems(peek, state, "Ann", Bid(2, 2), {"peek": value})


def test_the_odds_count_dice_face_up_as_known(peek: Ruleset) -> None:
    rolls = {"Ann": [2, 2, 2, 5], "Ben": [2, 2, 6, 6], "Cid": [3, 3, 4, 4]}
    game = Game(peek, list(rolls), Random(3), dice_per_player=4)
    game.start_round(rolls)
    game.act(BidAction("Ann", Bid(3, 2), {"peek": 2}))
    game.act(BidAction("Ben", Bid(4, 2)))
    game.act(BidAction("Cid", Bid(5, 2)))
    # Ann has put one two face up and holds two more unless her reroll took them away.
    shown = game.state.round.shown["Ann"]  # type: ignore[union-attr]
    assert shown == (2,)
    view = game.view("Ben")
    look = odds.view_outlook(peek, view, 2)
    assert look.known == 3 and look.unknown == 12 - 4 - 1  # Ben's two twos, Ann's face-up two
    assert odds.view_outlook(peek, view, 2).at_least(3) == 1.0


# --- effects in the wrong place -------------------------------------------------------------------


def _effect_plugin(hook: str, effect: Any) -> Callable[..., Any]:
    def implementation(state):
        return [effect(state)]

    implementation.__name__ = f"liarsdice_{hook}"
    return hookimpl(implementation)


@pytest.mark.parametrize(
    ("hook", "effect", "message"),
    [
        ("bid_made", lambda s: DiceChanged("Ann", -1, "oops"), "only in liarsdice_settle"),
        ("settle", lambda s: DiceShown("Ann", (2,)), "only while a round is being played"),
        ("settle", lambda s: PrivateStateSet("bad", "Ann", "k", 1), "only while a round"),
        ("bid_made", lambda s: DiceShown("Ann", (6,)), "their hidden dice are"),
        ("bid_made", lambda s: DiceRerolled("Ann", (2,), (7,)), "faces 1-6"),
        ("bid_made", lambda s: "not an effect", "which is not an effect"),
    ],
)
def test_a_misplaced_or_broken_effect_names_the_plugin_and_the_hook(
    install_plugins, plugin_factory, hook: str, effect: Any, message: str
) -> None:
    install_plugins({"bad": plugin_factory("bad", _effect_plugin(hook, effect))})
    rules = Ruleset.build(["bad", "dice-loss"])
    game = game_of(rules)
    with pytest.raises(PluginError, match=rf"bad's liarsdice_{hook} returned .*{message}"):
        game.bid("Ann", 2, 2)
        game.call("Ben")


# --- private state in views --------------------------------------------------------------------


def test_private_state_is_shown_to_its_owner_until_the_cups_are_lifted(skipper: Ruleset) -> None:
    game = game_of(skipper)
    game.bid("Ann", 2, 2)
    game.act(CallAction("Ben", "skip", {"skipper": "secret"}))
    assert game.view("Ben").private == {"skipper": {"Ben": {"why": "secret"}}}
    assert game.view("Ann").private == {} and game.view(None).private == {}
    assert view_state(game.view("Ben")).private("skipper", "Ben") == {"why": "secret"}
    game.call("Cid")  # the cups are lifted
    for viewer in ("Ann", "Cid", None):
        assert game.view(viewer).private == {"skipper": {"Ben": {"why": "secret"}}}
    game.start_round({"Ann": [1, 1, 1], "Ben": [1, 1, 1], "Cid": [1, 1]})
    assert game.state.round is not None and game.state.round.private == {}  # a round's secrets end
