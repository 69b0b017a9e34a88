"""The law "every game ends within the ruleset's move limit", and the laws' driver stopping a game
at the limit (stuck) or at the caller's smaller budget (incomplete)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from liarsdice import Ruleset
from liarsdice.ruleset import presets
from liarsdice.testing import LawViolation, RandomChooser, check_game, laws, play_game
from liarsdice.testing.driver import ILLEGAL, is_move
from liarsdice.testing.plugins import Immortal, extra_variants


@pytest.fixture
def stuck_rules() -> Iterator[Ruleset]:
    with extra_variants({"immortal": Immortal()}):
        yield Ruleset.build(["dice-loss", "immortal"])


@pytest.mark.parametrize("dice", [1, 2])
def test_a_variant_that_prevents_elimination_breaks_the_law(
    stuck_rules: Ruleset, dice: int
) -> None:
    game = play_game(stuck_rules, ["a", "b", "c"], dice, 5, RandomChooser(5))
    limit = stuck_rules.move_limit(3, dice)
    assert game.limit == limit
    assert game.stuck and not game.complete and game.moves == limit.moves
    with pytest.raises(LawViolation) as raised:
        laws.games_end(stuck_rules, game.steps)
    assert raised.value.law == laws.GAMES_END
    assert f"no winner after {limit.moves} moves" in str(raised.value)
    assert limit.explain() in str(raised.value)
    with pytest.raises(LawViolation) as checked:
        check_game(stuck_rules, game.steps)
    assert checked.value.law == laws.GAMES_END


def test_a_game_cut_short_by_the_callers_budget_is_incomplete_not_stuck(
    stuck_rules: Ruleset,
) -> None:
    game = play_game(stuck_rules, ["a", "b"], 2, 1, RandomChooser(1), max_moves=10)
    assert game.moves == 10 and not game.complete and not game.stuck
    check_game(stuck_rules, game.steps)


def test_a_budget_above_the_limit_still_stops_at_the_limit(stuck_rules: Ruleset) -> None:
    game = play_game(stuck_rules, ["a", "b"], 1, 2, RandomChooser(2), max_moves=10_000)
    assert game.stuck and game.moves == stuck_rules.move_limit(2, 1).moves == 13


def test_illegal_attempts_do_not_count_and_have_their_own_budget() -> None:
    rules = Ruleset.build(["dice-loss"])
    game = play_game(rules, ["a", "b"], 2, 3, RandomChooser(3), weights=(1, 0, 50), max_illegal=40)
    assert sum(step.intent == ILLEGAL for step in game.steps) == 40
    assert game.complete and game.moves == sum(map(is_move, game.steps))
    check_game(rules, game.steps)


@pytest.mark.parametrize("preset", sorted(presets()))
def test_every_preset_keeps_the_law(preset: str) -> None:
    rules = Ruleset.build(preset=preset)
    assert rules.preset is not None
    for seed in range(12):
        for wanted in [(2, 1), (3, 2), (4, 3)]:
            players, dice = rules.preset.size.fit(*wanted)  # perudo: 2-4 players, 5 dice each
            names = [f"p{i}" for i in range(players)]
            game = play_game(rules, names, dice, seed, RandomChooser(seed))
            assert game.complete and not game.stuck, game
            assert game.moves <= rules.move_limit(players, dice).moves
            laws.games_end(rules, game.steps)


def test_the_law_is_a_game_law() -> None:
    assert laws.games_end in laws.GAME_LAWS
