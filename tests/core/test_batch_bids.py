"""The batch form of the bid check (``liarsdice_bid_problems``): asked once per turn over the
candidates, adapted for plugins that implement only the per-bid form, checked against its
contract, and held to agree with the per-bid form by the enumeration law."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

import pytest

from liarsdice import BadHookResult, Bid, GameState, IllegalAction, Ruleset, engine, hookimpl
from liarsdice.legality import legal_bids, raises_by_face
from liarsdice.models import BidAction
from liarsdice.testing import RandomChooser, check_game, laws, play_game
from liarsdice.testing.plugins import extra_variants

from ..laws.test_mutations import broken as broken  # the fixture
from ..laws.test_mutations import first_violation, make_plugin

EVEN = "odd-free: only even quantities"


def even_only(bid: Bid) -> str | None:
    return None if bid.quantity % 2 == 0 else EVEN


def in_round(rules: Ruleset, seed: int = 3) -> GameState:
    state, _ = engine.new_game(rules, ["a", "b", "c"], Random(seed), dice_per_player=3)
    state, _ = engine.start_round(rules, state, Random(seed))
    return state


def test_a_batch_plugin_is_asked_once_per_listing_and_refuses_as_the_per_bid_form(
    broken: Callable[..., Ruleset],
) -> None:
    asked: list[int] = []

    @hookimpl
    def liarsdice_bid_problems(bids: Sequence[Bid]) -> list[str | None]:
        asked.append(len(bids))
        return [even_only(bid) for bid in bids]

    rules = broken("batched", liarsdice_bid_problems)
    state = in_round(rules)
    turn = state.round.turn  # type: ignore[union-attr]
    listed = legal_bids(rules, state, turn, limit=5)
    assert asked == [30]  # one batch of 6 x 5 candidates for 5 bids
    assert [bid.quantity % 2 for bid in listed] == [0] * 5
    assert engine.bid_problems(rules, state, turn, Bid(1, 3)) == [EVEN]  # one bid, a batch of one
    assert engine.bid_problems(rules, state, turn, Bid(2, 3)) == []
    with pytest.raises(IllegalAction, match="only even quantities"):
        engine.step(rules, state, BidAction(turn, Bid(3, 4)), Random(0))
    for seed in range(10):
        game = play_game(rules, ["a", "b", "c"], 3, seed, RandomChooser(seed))
        check_game(rules, game.steps)


def test_batch_and_per_bid_forms_list_the_same_legal_bids(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_bid_problem(bid: Bid) -> str | None:
        return even_only(bid)

    per_bid = broken("per-bid", liarsdice_bid_problem)

    @hookimpl
    def liarsdice_bid_problems(bids: Sequence[Bid]) -> list[str | None]:
        return [even_only(bid) for bid in bids]

    batched = broken("batch", liarsdice_bid_problems)
    state = in_round(per_bid)
    turn = state.round.turn  # type: ignore[union-attr]
    for limit in (None, 1, 4, 10):
        assert legal_bids(per_bid, state, turn, limit) == legal_bids(batched, state, turn, limit)
    assert raises_by_face(per_bid, state, turn, 2) == raises_by_face(batched, state, turn, 2)


def test_a_per_bid_plugin_is_asked_lazily_beside_a_batch_one(
    broken: Callable[..., Ruleset],
) -> None:
    asked: list[Bid] = []

    @hookimpl
    def liarsdice_bid_problems(bids: Sequence[Bid]) -> list[str | None]:
        return [even_only(bid) for bid in bids]

    @hookimpl
    def liarsdice_bid_problem(bid: Bid) -> str | None:
        asked.append(bid)
        return None

    broken("batch-first", liarsdice_bid_problems)  # installs the batch plugin
    context = extra_variants({"lazy": make_plugin("lazy", liarsdice_bid_problem)})
    with context:
        rules = Ruleset.build(["dice-loss", "batch-first", "lazy"])
        state = in_round(rules)
        turn = state.round.turn  # type: ignore[union-attr]
        listed = legal_bids(rules, state, turn, limit=3)
    assert len(listed) == 3 and all(bid.quantity % 2 == 0 for bid in listed)
    assert asked == listed  # only the bids the batch let through, until three passed


def test_a_batch_answer_of_the_wrong_length_names_the_plugin(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_bid_problems(bids: Sequence[Bid]) -> list[str | None]:
        return [None]

    rules = broken("short", liarsdice_bid_problems)
    state = in_round(rules)
    with pytest.raises(BadHookResult, match=r"short's liarsdice_bid_problems returned .*a list of"):
        legal_bids(rules, state, state.round.turn)  # type: ignore[union-attr]


def test_a_batch_form_that_disagrees_with_the_per_bid_form_breaks_the_enumeration_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_bid_problem(bid: Bid) -> str | None:
        return even_only(bid)

    @hookimpl
    def liarsdice_bid_problems(bids: Sequence[Bid]) -> list[str | None]:
        return [None for _ in bids]  # forgets the rule when listing

    rules = broken("two-minds", liarsdice_bid_problem, liarsdice_bid_problems)
    violation = first_violation(rules, laws.legal_enumeration_agrees)
    assert violation.law == laws.ENUMERATION
