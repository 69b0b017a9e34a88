"""Memoised hook answers (``@reads``): the engine asks a declared hook once per key, and the law
:func:`~liarsdice.testing.laws.memoised_answers_agree` fails a declaration that leaves out what
the answer depends on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from liarsdice import GameState, PluginError, Ruleset, hookimpl, reads
from liarsdice.memo import MOST_ANSWERS
from liarsdice.models import NO_PAYLOAD, Bid, PlacedBid, PlayerState, RoundState
from liarsdice.reads import ATTRIBUTE
from liarsdice.reducer import Draft
from liarsdice.simulate import simulate
from liarsdice.testing import RandomChooser, check_game, laws, play_game

from .test_mutations import broken as broken  # the fixture
from .test_mutations import first_violation, games


def no_challenge_on_ones(state: GameState, call: str) -> str | None:
    """Refuse a challenge of a bid of quantity 1: it reads the bid on the table."""
    assert state.round is not None and state.round.current_bid is not None
    if call == "challenge" and state.round.current_bid.quantity == 1:
        return "not on a single die"
    return None


# --- a wrong declaration fails the law -----------------------------------------------------------


def test_a_call_problem_declaring_too_little_breaks_the_memo_law(
    broken: Callable[..., Ruleset],
) -> None:
    liarsdice_call_problem = hookimpl(reads("turn")(no_challenge_on_ones))
    liarsdice_call_problem.__name__ = "liarsdice_call_problem"
    rules = broken("forgetful", liarsdice_call_problem)
    violation = first_violation(rules, laws.memoised_answers_agree)
    assert violation.law == laws.MEMO
    assert "liarsdice_call_problem" in violation.detail and "forgetful" in violation.detail
    assert "not on a single die" in violation.detail


def test_the_same_call_problem_declaring_what_it_reads_keeps_every_law(
    broken: Callable[..., Ruleset],
) -> None:
    liarsdice_call_problem = hookimpl(reads("bid")(no_challenge_on_ones))
    liarsdice_call_problem.__name__ = "liarsdice_call_problem"
    rules = broken("careful", liarsdice_call_problem)
    assert rules.memos.call_problem is not None
    assert rules.memos.call_problem.parts == ("bid", "last_bidder")
    for game in games(rules, count=20):
        check_game(rules, game.steps)


def test_a_face_allowed_declaring_too_little_breaks_the_memo_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    @reads("turn")
    def liarsdice_face_allowed(state: GameState, face: int) -> str | None:
        opening = state.round is not None and not state.round.bids
        return "no sixes to open" if face == 6 and opening else None

    violation = first_violation(
        broken("sixless", liarsdice_face_allowed), laws.memoised_answers_agree
    )
    assert violation.law == laws.MEMO and "liarsdice_face_allowed" in violation.detail


def test_a_matching_faces_declaring_nothing_it_reads_breaks_the_memo_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    @reads()
    def liarsdice_matching_faces(state: GameState, face: int) -> frozenset[int] | None:
        assert state.round is not None
        return frozenset({face}) if state.round.dice_in_play < 5 else None

    violation = first_violation(
        broken("late-locks", liarsdice_matching_faces), laws.memoised_answers_agree
    )
    assert violation.law == laws.MEMO and "liarsdice_matching_faces" in violation.detail


# --- what is memoised, and what is not -----------------------------------------------------------


def test_an_undeclared_reader_of_the_state_is_asked_every_time(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_call_problem(state: GameState, call: str) -> str | None:
        return no_challenge_on_ones(state, call)

    rules = broken("undeclared", liarsdice_call_problem)
    assert rules.memos.call_problem is None
    for game in games(rules, count=10):
        check_game(rules, game.steps)


def test_a_declared_hook_is_asked_once_per_key(broken: Callable[..., Ruleset]) -> None:
    asked: list[str] = []

    @hookimpl
    @reads("bid")
    def liarsdice_call_problem(state: GameState, player: str, call: str) -> str | None:
        asked.append(player)
        return no_challenge_on_ones(state, call)

    rules = broken("counted", liarsdice_call_problem)
    report = simulate(rules, 4, 30, 0, dice_per_player=3)
    moves = report.actions_per_game * report.games
    assert 0 < len(asked) < moves / 3
    assert len(rules.memos.call_problem.answers) == len(asked)  # type: ignore[union-attr]


def test_a_memo_forgets_all_once_full(broken: Callable[..., Ruleset]) -> None:
    rules = Ruleset.build(["dice-loss"])
    memo = rules.memos.call_problem
    assert memo is not None
    for index in range(MOST_ANSWERS):
        memo.keep(((index,), (), None), ())
    assert len(memo.answers) == MOST_ANSWERS
    memo.keep((("one more",), (), None), ())
    assert list(memo.answers) == [(("one more",), (), None)]


def test_the_baseline_s_call_problem_needs_no_frozen_state_per_move() -> None:
    rules = Ruleset.build(["dice-loss"])
    assert rules.memos.call_problem is not None
    assert rules.memos.call_problem.parts == ("last_bidder",)
    game = play_game(rules, ["a", "b", "c"], 3, 7, RandomChooser(7))
    check_game(rules, game.steps)


# --- declarations that name nothing ---------------------------------------------------------------


def test_reads_refuses_a_part_that_is_not_one() -> None:
    with pytest.raises(ValueError, match=r"reads\('dice'\): not a part of the game; known: .*turn"):
        reads("dice")


def test_a_declaration_set_by_hand_naming_nothing_is_refused_at_build(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_matching_faces(state: GameState, face: int) -> frozenset[int] | None:
        return None

    setattr(liarsdice_matching_faces, ATTRIBUTE, frozenset({"mood"}))
    with pytest.raises(PluginError, match="odd: liarsdice_matching_faces declares it reads 'mood'"):
        broken("odd", liarsdice_matching_faces)


def test_plugin_state_is_read_by_name(broken: Callable[..., Ruleset]) -> None:
    rules = Ruleset.build(["dice-loss", "ones-locking"])
    memo = rules.memos.matching_faces
    assert memo is not None and memo.parts == ("plugin:ones-locking",)
    for seed in range(10):
        game = play_game(rules, ["a", "b", "c"], 3, seed, RandomChooser(seed))
        check_game(rules, game.steps)


def test_memoised_games_are_the_games_of_full_calls() -> None:
    """The same seeds give the same games whether the memos hold answers or are emptied on
    every move (so a full call answers each question)."""
    rules = Ruleset.build(["dice-loss"])
    names = ["a", "b", "c", "d"]
    kept = [play_game(rules, names, 3, seed, RandomChooser(seed)) for seed in range(10)]
    memo = rules.memos.call_problem
    assert memo is not None
    forgetful = _Forgetting()
    memo.answers = forgetful  # type: ignore[assignment]
    full = [play_game(rules, names, 3, seed, RandomChooser(seed)) for seed in range(10)]
    assert forgetful.asked
    assert [g.steps for g in kept] == [g.steps for g in full]


class _Forgetting(dict):  # type: ignore[type-arg]
    """A memo's answers that keep nothing."""

    asked = 0

    def get(self, key: Any, default: Any = None) -> Any:
        self.asked += 1
        return default

    def __setitem__(self, key: Any, value: Any) -> None:
        return None


def test_a_shipped_declaration_cut_short_breaks_the_memo_law(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pass's call_problem reads the seats (``pass.min_dice``): declared without them, the law
    fails on the games of the shipped plugin."""
    import liarsdice_pass

    assert getattr(liarsdice_pass.liarsdice_call_problem, ATTRIBUTE) == {"plugin:pass", "seats"}
    monkeypatch.setattr(
        liarsdice_pass.liarsdice_call_problem, ATTRIBUTE, frozenset({"plugin:pass"})
    )
    violation = first_violation(Ruleset.build(["dice-loss", "pass"]), laws.memoised_answers_agree)
    assert "pass: you need at least" in violation.detail and "pass" in violation.detail


# --- one ruleset, several tables -------------------------------------------------------------------


def _two_dice_each_left(dice_per_player: int) -> GameState:
    """Ann's turn at a table of two who started with ``dice_per_player`` dice and hold two each,
    Bob's bid of two fives on the table."""
    rolls = {"ann": (1, 2), "bob": (3, 5)}
    return GameState(
        players=(PlayerState("ann", 2, True), PlayerState("bob", 2, True)),
        dice_per_player=dice_per_player,
        round=RoundState(1, "bob", rolls, 4, "ann", (PlacedBid("bob", Bid(2, 5)),)),
    )


def test_a_memo_keeps_the_answers_of_different_tables_apart() -> None:
    # calza.window=half reads the starting dice: 4 dice in play are more than half of 2 x 3, and
    # no more than half of 2 x 5. The memo is the ruleset's, shared by all its games.
    rules = Ruleset.build(["calza", "dice-loss"], {"calza.window": "half"})
    memo = rules.memos.call_problem
    assert memo is not None and memo.parts == ("dice_in_play", "last_bidder")
    answers = {}
    for dice_per_player in (3, 5, 3):
        state = _two_dice_each_left(dice_per_player)

        def full_call(state: GameState = state) -> tuple[Any, ...]:
            return tuple(rules.hooks.call_problem(state, "ann", "exact", NO_PAYLOAD))

        full = full_call()
        memoised = memo.answer(Draft(state), ("ann", "exact"), full_call)
        assert memoised == full
        answers[dice_per_player] = memoised
    assert answers[3] == () and answers[5] != ()
    assert len(memo.answers) == 2


def test_a_bid_rank_is_asked_once_per_bid_and_ruleset(broken: Callable[..., Ruleset]) -> None:
    asked: list[Bid] = []

    @hookimpl
    def liarsdice_bid_rank(bid: Bid) -> None:
        asked.append(bid)  # and defers to the baseline

    rules = broken("counted-ranks", liarsdice_bid_rank)
    asked.clear()  # the build's own checks ask each plugin alone
    report = simulate(rules, 3, 10, 0, dice_per_player=3)
    assert report.actions_per_game > 0
    assert asked and len(asked) == len(set(asked))  # the laws ask the hook itself, so no laws
