"""The bridged game: action numbers and their names, calls out of turn, payloads, a root state,
returns, and the refusals of what it cannot model."""

from __future__ import annotations

import itertools
import os
from random import Random

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")

import pyspiel

from liarsdice import Ruleset
from liarsdice import openspiel as bridge
from liarsdice.models import Bid, BidAction, CallAction, GameState, PlayerState


def dealt(game: bridge.LiarsDiceGame, *outcomes: int) -> bridge.LiarsDiceState:
    """The first decision of ``game`` after the deal ``outcomes`` (faces - 1, in seat order)."""
    state = game.new_initial_state()
    for outcome in outcomes:
        assert state.is_chance_node()
        state.apply_action(outcome)
    assert not state.is_chance_node()
    return state


def bid(game: bridge.LiarsDiceGame, player: str, quantity: int, face: int) -> int:
    return game.table.space.number(BidAction(player, Bid(quantity, face)))


def call(game: bridge.LiarsDiceGame, player: str, kind: str = "challenge") -> int:
    return game.table.space.number(CallAction(player, kind))


def test_actions_are_numbered_as_openspiel_numbers_them(equivalent_rules: Ruleset) -> None:
    game = bridge.load(equivalent_rules, 2, 1)
    state = dealt(game, 0, 1)
    assert game.num_distinct_actions() == 13
    names = [state.action_to_string(0, action) for action in (0, 5, 6, 11, 12)]
    assert names == ["1 one", "1 six", "2 ones", "2 sixes", "challenge"]
    with pytest.raises(ValueError, match="no action 13: this game has actions 0 to 12"):
        game.table.space.text(13)
    with pytest.raises(ValueError, match="action 12 is not legal here; legal: 0 \\(1 one\\)"):
        state.apply_action(12)


def test_every_call_kind_follows_the_bids() -> None:
    rules = Ruleset.build(["dice-loss", "calza"])
    game = bridge.load(rules, 2, 1)
    assert [game.table.space.text(n) for n in (12, 13)] == ["challenge", "exact"]
    state = dealt(game, 0, 1)
    state.apply_action(bid(game, "p0", 1, 2))
    assert state.legal_actions()[-2:] == [12, 13]


def test_a_call_out_of_turn_is_asked_of_each_player_who_may_make_it() -> None:
    """Under calza.anyone, after p0's bid p2 is asked before p1 (on turn) decides: call exact
    now, or wait; p0 made the bid and is not asked."""
    rules = Ruleset.build(["dice-loss", "calza"], {"calza.anyone": True})
    game = bridge.load(rules, 3, 1)
    wait = game.table.space.wait
    state = dealt(game, 0, 1, 2)
    assert wait == 20 and state.current_player() == 0 and wait not in state.legal_actions()
    state.apply_action(bid(game, "p0", 1, 2))
    assert state.current_player() == 2
    assert state.legal_actions() == [call(game, "p2", "exact"), wait]
    assert state.information_state_tensor(2)[-1] == 1.0  # asked out of turn
    state.apply_action(wait)
    assert state.current_player() == 1
    assert call(game, "p1", "exact") in state.legal_actions() and wait not in state.legal_actions()
    assert state.information_state_string(1).splitlines()[-1].startswith("p2: wait | ")
    assert game.max_game_length() == 3 * rules.move_limit(3, 1).moves


def test_payloads_are_numbered_after_the_plain_actions() -> None:
    """Bluff lets a bidder show dice: each bid has payload slots; the rest is rerolled by chance;
    only the bidder reads their payload in their record, everyone sees the die face up."""
    rules = Ruleset.build(["dice-loss", "bluff"])
    game = bridge.load(rules, 2, 2)
    space = game.table.space
    assert game.num_distinct_actions() == 24 + 1 + 24 * bridge.MAX_PAYLOADS
    state = dealt(game, 0, 3, 4, 4)  # p0 holds 1 4, p1 5 5
    show_one = space.number(BidAction("p0", Bid(1, 2)), 0)
    show_four = space.number(BidAction("p0", Bid(1, 2)), 1)
    assert {show_one, show_four} <= set(state.legal_actions())
    assert state.action_to_string(0, show_four) == '1 two {"bluff":{"show":[4]}}'
    assert space.text(show_four) == "1 two, payload 1"
    state.apply_action(show_four)
    assert state.is_chance_node()  # the one reroll
    state.apply_action(5)
    ours, theirs = state.information_state_string(0), state.information_state_string(1)
    assert ours.splitlines()[-1].startswith('p0: 1 two {"bluff":{"show":[4]}} | ')
    assert theirs.splitlines()[-1].startswith("p0: 1 two | ")
    assert "p0 2 up 4" in theirs and "own 46" in ours


def test_more_payloads_than_the_bound_are_refused() -> None:
    rules = Ruleset.build(["dice-loss", "bluff"])
    game = bridge.load(rules, 2, 3, max_payloads=2, max_info_states=None)
    state = game.new_initial_state()
    for outcome in (0, 1, 2, 3, 4):
        state.apply_action(outcome)
    with pytest.raises(
        bridge.Unsupported, match="may carry 6 payloads here, more than the max_pay"
    ):
        state.apply_action(5)


def test_a_table_too_large_is_refused_with_the_bound(equivalent_rules: Ruleset) -> None:
    with pytest.raises(bridge.TableTooLarge) as refused:
        bridge.load(equivalent_rules, 2, 3)
    assert str(refused.value) == (
        "Ruleset(['dice-loss', 'wild-sixes'], {}) at 2 players x 3 dice: about 1.5e+13 "
        "information states in the first round alone (216 rolls x 2^36 rising bid sequences), "
        "more than the limit of max_info_states=1e+09: no tabular algorithm can hold it, and "
        "sampling would see a vanishing part of it; pass max_info_states=None to build it anyway"
    )
    rules = Ruleset.build(["dice-loss", "bluff"])
    with pytest.raises(bridge.TableTooLarge, match="5581 distinct actions, more than the 4096"):
        bridge.load(rules, 6, 5, max_payloads=30, max_info_states=None)
    assert bridge.load(equivalent_rules, 2, 2).num_distinct_actions() == 25


def test_a_game_may_start_from_an_endgame(equivalent_rules: Ruleset) -> None:
    root = GameState(
        players=(PlayerState("Ann", 1), PlayerState("Ben", 1), PlayerState("Cid", 0, False)),
        dice_per_player=2,
        next_opener="Ben",
    )
    game = bridge.load(equivalent_rules, 3, 2, root=root)
    state = dealt(game, 5, 2)  # Ann a six, Ben a three
    assert state.current_player() == 1
    assert len(state.legal_actions()) == 12  # two dice in play
    state.apply_action(bid(game, "Ben", 2, 3))
    state.apply_action(call(game, "Ann"))
    assert state.is_terminal()
    assert state.returns() == [-0.5, 1.0, -0.5]  # Ben's two threes stand: Ann is out
    with pytest.raises(ValueError, match="seats 3 players with 2 dice each, not 2 players x 2"):
        bridge.load(equivalent_rules, 2, 2, root=root)


def test_a_winning_team_shares_the_win() -> None:
    rules = Ruleset.build(["dice-loss", "teams"])
    game = bridge.load(rules, 4, 1)
    rng = Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [-0.5, -0.5, 0.5, 0.5]


def test_a_clone_goes_its_own_way(equivalent_rules: Ruleset) -> None:
    game = bridge.load(equivalent_rules, 2, 1)
    state = dealt(game, 0, 1)
    clone = state.clone()
    clone.apply_action(bid(game, "p0", 2, 6))
    assert clone.legal_actions() == [12] and len(state.legal_actions()) == 12
    assert state.history() == [0, 1] and clone.history() == [0, 1, 11]
    assert clone.node.history.parent is state.node.history  # what they share, they share


def test_the_tensor_pictures_the_round_from_the_view(equivalent_rules: Ruleset) -> None:
    game = bridge.load(equivalent_rules, 2, 1)
    state = dealt(game, 0, 3)  # p0 a one, p1 a four
    state.apply_action(bid(game, "p0", 2, 5))
    assert game.information_state_tensor_shape() == [2 + 12 + 4 + 2 + 24]
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, 1)
    pieces = {name: piece.tolist() for name, piece in observer.dict.items()}
    assert pieces["player"] == [0.0, 1.0]
    assert pieces["dice"] == [[[0.0] * 6], [[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]]]
    assert pieces["counts"] == [[0.0, 1.0], [0.0, 1.0]]
    assert pieces["turn"] == [0.0, 1.0]
    assert [
        (q, f, p)
        for q, f, p in itertools.product(range(2), range(6), range(2))
        if pieces["bids"][q][f][p]
    ] == [(1, 4, 0)]
    assert state.information_state_tensor(1) == observer.tensor.tolist()
    public = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    )
    public.set_from(state, 1)
    assert not public.dict["dice"].any()
    assert public.string_from(state, 1).startswith("spectator\nstart\nseated | ")
    with pytest.raises(ValueError, match="sees what one player"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )


def test_bids_of_another_kind_are_refused_with_the_reason() -> None:
    rules = Ruleset.build(["pip-sum", "dice-loss"])
    with pytest.raises(ValueError, match="plays bids of kind 'pips'"):
        bridge.load(rules, 2, 1)
