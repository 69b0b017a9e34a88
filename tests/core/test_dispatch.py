"""liarsdice.dispatch: the pre-resolved ``Hooks`` facade answers exactly as pluggy does."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from liarsdice import Game, Ruleset, hookimpl
from liarsdice.dispatch import EFFECT_HOOKS, Hooks
from liarsdice.models import Bid, GameState, Resolution

HOOKS = sorted(Hooks.__annotations__)


def sample_states(rules: Ruleset) -> list[GameState]:
    """A game before any round, at the start of a round, after two bids and after a challenge."""
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(7), dice_per_player=3)
    states = [game.state]
    game.start_round({"Ann": [1, 2, 6], "Ben": [2, 2, 5], "Cid": [6, 6, 1]})
    states.append(game.state)
    game.bid("Ann", 2, 2)
    game.bid("Ben", 3, 6)
    states.append(game.state)
    game.call("Cid")
    states.append(game.state)
    return states


def arguments(state: GameState) -> list[dict[str, Any]]:
    """Several argument sets for every hook (only the names a hook's spec lists are used)."""
    resolution = (
        state.round.resolution
        if state.round is not None and state.round.resolution is not None
        else Resolution("challenge", "Cid", "Ben", Bid(3, 6), 2, True, ("Ben",), ("Cid",))
    )
    calls = ["challenge", "exact"]
    sets = []
    for index, (face, player, bid) in enumerate(
        [(1, "Ann", Bid(2, 1)), (2, "Ben", Bid(3, 2)), (6, "Ben", Bid(4, 6)), (5, "Ben", Bid(1, 5))]
    ):
        sets.append(
            {
                "state": state,
                "player": player,
                "face": face,
                "bid": bid,
                "bids": [bid, Bid(bid.quantity + 1, face)],
                "call": calls[index % 2],
                "count": index,
                "resolution": resolution,
                "payload": {} if index % 2 else {"reordered": index},
                "viewer": [None, "Ann", "Ben", "Cid"][index],
                "owner": ["Ann", "Ann", "Cid", "Ben"][index],
            }
        )
    return sets


def compare(rules: Ruleset, hook: str) -> int:
    """Call ``hook`` through the facade and through pluggy on every sample; return the count."""
    caller = getattr(rules.pm.hook, f"liarsdice_{hook}")
    spec_args = [arg for arg in caller.spec.argnames if arg not in ("options", "rules")]
    bound = {"rules": rules} if "rules" in caller.spec.argnames else {}
    checked = 0
    for state in sample_states(rules):
        no_bid = state.round is None or not state.round.bids
        if no_bid and hook in {"resolve_call", "call_problem", "timeout"}:
            continue  # these hooks are only asked once a bid is on the table
        for values in arguments(state):
            values = {**values, "rng": Random(3)}
            fast = getattr(rules.hooks, hook)(*(values[arg] for arg in spec_args))
            values["rng"] = Random(3)
            slow = caller(**{arg: values[arg] for arg in spec_args}, options=rules.options, **bound)
            if hook in EFFECT_HOOKS:  # the facade names the plugin behind each answer
                assert all(isinstance(name, str) for name, _ in fast)
                fast = [answer for _, answer in fast]
            assert fast == slow, (hook, values)
            checked += 1
    return checked


@pytest.mark.parametrize("hook", HOOKS)
def test_facade_agrees_with_pluggy_on_the_baseline(dice_loss_rules: Ruleset, hook: str) -> None:
    assert compare(dice_loss_rules, hook) > 0


@pytest.mark.parametrize("hook", HOOKS)
def test_facade_agrees_with_pluggy_without_wild_ones(natural_rules: Ruleset, hook: str) -> None:
    assert compare(natural_rules, hook) > 0


# --- a variant that takes arguments in its own order, and overrides the baseline ----------------


@hookimpl
def liarsdice_bid_problem(bid, player):  # a subset of (state, player, bid, options), reordered
    if player == "Ben" and bid.face == 5:
        return "Ben may not bid fives"
    return None


@hookimpl
def liarsdice_matching_faces(options, face):  # options first, state left out
    if face == 6 and options["standard.wild_ones"]:
        return frozenset({6})  # sixes ignore wild ones; other faces fall through to the baseline
    return None


@hookimpl
def liarsdice_resolve_call(count, call, player):
    if call == "exact":
        return Resolution("exact", player, None, None, count, count == 2, (), (player,))
    return None  # a challenge falls through to the baseline


@hookimpl
def liarsdice_player_public(player, state):
    return {"seat": state.seat(player)}


@hookimpl
def liarsdice_settle(resolution):
    return None  # no effects: pluggy leaves None out of the results, and so must the facade


@pytest.fixture
def reordered_rules(install_plugins, plugin_factory) -> Ruleset:
    plugin = plugin_factory(
        "reordered",
        liarsdice_bid_problem,
        liarsdice_matching_faces,
        liarsdice_resolve_call,
        liarsdice_player_public,
        liarsdice_settle,
    )
    install_plugins({"reordered": plugin})
    return Ruleset.build(["reordered", "dice-loss"])


@pytest.mark.parametrize("hook", HOOKS)
def test_facade_agrees_with_pluggy_on_a_reordering_variant(reordered_rules: Ruleset, hook: str):
    assert compare(reordered_rules, hook) > 0


def test_subset_of_arguments_in_another_order_is_bound_by_name(reordered_rules: Ruleset) -> None:
    state = sample_states(reordered_rules)[1]
    hooks = reordered_rules.hooks
    assert hooks.bid_problem(state, "Ben", Bid(4, 5), {}) == ["Ben may not bid fives"]
    assert hooks.bid_problem(state, "Ann", Bid(4, 5), {}) == []
    assert hooks.bid_problem(state, "Ben", Bid(4, 6), {}) == []
    assert hooks.player_public(state, "Cid") == [{"seat": 2}]
    assert "bid_problem" in hooks.implemented


def test_firstresult_variant_overrides_the_fallback_baseline(reordered_rules: Ruleset) -> None:
    state = sample_states(reordered_rules)[1]
    hooks = reordered_rules.hooks
    assert hooks.matching_faces(state, 6) == frozenset({6})  # the variant answers first
    assert hooks.matching_faces(state, 5) == frozenset({5, 1})  # the baseline answers the rest
    ruling = hooks.resolve_call(state, "Cid", "exact", 2)
    assert ruling is not None and ruling.call == "exact" and ruling.success
    challenge = hooks.resolve_call(sample_states(reordered_rules)[2], "Cid", "challenge", 2)
    assert challenge is not None and challenge.bidder == "Ben"  # fell through to the baseline


def test_settle_collects_only_non_none_results(reordered_rules: Ruleset) -> None:
    state = sample_states(reordered_rules)[3]
    assert state.round is not None and state.round.resolution is not None
    effects = reordered_rules.hooks.settle(state, state.round.resolution, Random(0))
    assert [name for name, _ in effects] == ["dice-loss"]  # the variant's None is left out


def test_hooks_nobody_implements_answer_none_or_empty(dice_loss_rules: Ruleset) -> None:
    state = sample_states(dice_loss_rules)[2]
    hooks = dice_loss_rules.hooks
    assert "bid_problem" not in hooks.implemented
    assert "settle" in hooks.implemented
    assert hooks.bid_problem(state, "Cid", Bid(4, 6), {}) == []
    assert hooks.call_problem(state, "Cid", "challenge", {}) == []
    assert hooks.round_started(state, Random(0)) == []
    assert hooks.player_public(state, "Ann") == []


# --- a hookwrapper: the facade must fall back to pluggy ----------------------------------------


@hookimpl(wrapper=True)
def wrapping_matching_faces(face):
    faces = yield
    return faces | {4} if face == 3 else faces


wrapping_matching_faces.__name__ = "liarsdice_matching_faces"


@hookimpl(hookwrapper=True)
def old_style_bid_rank(bid):
    outcome = yield
    quantity, face = outcome.get_result()
    outcome.force_result((quantity, -face))  # a deliberately odd order: lower faces rank higher


old_style_bid_rank.__name__ = "liarsdice_bid_rank"


@pytest.fixture
def wrapped_rules(install_plugins, plugin_factory) -> Ruleset:
    plugin = plugin_factory("wrapping", wrapping_matching_faces, old_style_bid_rank)
    install_plugins({"wrapping": plugin})
    return Ruleset.build(["wrapping", "dice-loss"])


@pytest.mark.parametrize("hook", HOOKS)
def test_facade_agrees_with_pluggy_with_hookwrappers(wrapped_rules: Ruleset, hook: str) -> None:
    assert compare(wrapped_rules, hook) > 0


def test_wrappers_take_effect_through_the_facade(wrapped_rules: Ruleset) -> None:
    state = sample_states(wrapped_rules)[1]
    hooks = wrapped_rules.hooks
    assert hooks.matching_faces(state, 3) == frozenset({3, 1, 4})
    assert hooks.matching_faces(state, 5) == frozenset({5, 1})
    assert hooks.bid_rank(Bid(2, 3)) == (2, -3)
    assert hooks.bid_rank(Bid(2, 2)) > hooks.bid_rank(Bid(2, 5))


# --- leaving plugins out of a dispatch (``skip``), with a wrapper too ----------------------------


def test_plugins_left_out_of_a_dispatch_are_left_out_when_pluggy_calls_it(
    install_plugins, plugin_factory
) -> None:
    # A plugin with both forms of the bid check is asked its per-bid form only where a bid is
    # checked, never in the per-bid pass of a listing (``Hooks.unbatched_bid_problem`` skips
    # it); a wrapper on the hook sends that pass through pluggy, which must skip it as well.
    asked: list[Bid] = []

    @hookimpl
    def liarsdice_bid_problem(bid):
        asked.append(bid)

    @hookimpl
    def liarsdice_bid_problems(bids):
        return None

    @hookimpl(wrapper=True)
    def wrapping(bid):
        return (yield)

    wrapping.__name__ = "liarsdice_bid_problem"

    @hookimpl
    def per_bid_only(bid):
        return "too many" if bid.quantity > 20 else None

    per_bid_only.__name__ = "liarsdice_bid_problem"
    install_plugins(
        {
            "both": plugin_factory("both", liarsdice_bid_problem, liarsdice_bid_problems),
            "wrapping": plugin_factory("wrapping", wrapping),
            "per-bid": plugin_factory("per-bid", per_bid_only),
        }
    )
    rules = Ruleset.build(["both", "dice-loss", "per-bid", "wrapping"])
    state = sample_states(rules)[1]
    asked.clear()
    check = rules.hooks.unbatched_bid_problem
    assert check(state, "Ann", Bid(21, 6), {}) == ["too many"]
    assert check(state, "Ann", Bid(2, 5), {}) == []
    assert asked == []
    assert rules.hooks.bid_problem(state, "Ann", Bid(2, 5), {}) == []
    assert asked == [Bid(2, 5)], "the plain dispatch asks every plugin"
