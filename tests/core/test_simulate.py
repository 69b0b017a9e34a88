"""liarsdice.simulate: the random policy, whole games and the simulation report."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Game, Ruleset, engine
from liarsdice.models import Bid, BidAction, CallAction
from liarsdice.simulate import LOWEST_RAISES, play_game, random_action, simulate


def started(rules: Ruleset) -> Game:
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [1, 2], "Ben": [3, 4], "Cid": [5, 6]})
    return game


def test_the_opener_always_bids_one_of_the_lowest_raises(dice_loss_rules: Ruleset) -> None:
    game = started(dice_loss_rules)
    lowest = engine.legal_bids(dice_loss_rules, game.state, "Ann", LOWEST_RAISES)
    seen = set()
    for seed in range(60):
        action = random_action(dice_loss_rules, game.state, Random(seed))
        assert isinstance(action, BidAction) and action.player == "Ann"
        assert action.bid in lowest
        seen.add(action.bid)
    assert len(seen) > 1


def test_after_a_bid_the_policy_sometimes_calls(dice_loss_rules: Ruleset) -> None:
    game = started(dice_loss_rules)
    game.bid("Ann", 1, 2)
    actions = [random_action(dice_loss_rules, game.state, Random(seed)) for seed in range(100)]
    calls = [a for a in actions if isinstance(a, CallAction)]
    assert 10 < len(calls) < 60  # about 30%
    assert all(a.player == "Ben" and a.kind == "challenge" for a in calls)


def test_with_no_raise_left_the_policy_calls(dice_loss_rules: Ruleset) -> None:
    game = started(dice_loss_rules)
    game.bid("Ann", 6, 6)
    for seed in range(20):
        assert random_action(dice_loss_rules, game.state, Random(seed)) == CallAction("Ben")


def test_every_action_of_the_policy_is_legal(natural_rules: Ruleset) -> None:
    game = Game(natural_rules, ["Ann", "Ben", "Cid"], Random(1), dice_per_player=3)
    policy = Random(2)
    while not game.over:
        game.start_round()
        while not game.state.round.over:  # type: ignore[union-attr]
            game.act(random_action(natural_rules, game.state, policy))  # raises if illegal


def test_play_game_reports_winner_rounds_and_actions(dice_loss_rules: Ruleset) -> None:
    record = play_game(dice_loss_rules, ["Ann", "Ben", "Cid"], Random(5), dice_per_player=2)
    assert len(record.winners) == 1 and record.winners[0] in {"Ann", "Ben", "Cid"}
    # Every round but the last takes one die away from 6, leaving the winner at least one.
    assert 2 * 3 - 2 * 1 <= record.rounds <= 2 * 3 - 1
    assert record.actions >= 2 * record.rounds  # the opener bids, someone calls


def test_play_game_uses_the_given_policy(dice_loss_rules: Ruleset) -> None:
    def timid(rules, state, rng):
        player = state.round.turn
        if state.round.bids:
            return CallAction(player)
        return BidAction(player, Bid(state.round.dice_in_play, 6))  # always a lie-or-truth max bid

    record = play_game(dice_loss_rules, ["Ann", "Ben"], Random(0), dice_per_player=1, policy=timid)
    assert record.actions == 2 * record.rounds


def test_simulate_report(dice_loss_rules: Ruleset) -> None:
    ticks: list[int] = []
    report = simulate(dice_loss_rules, 3, 12, 7, dice_per_player=2, progress=ticks.append)
    assert report.games == 12
    assert ticks == [1] * 12
    assert set(report.wins_by_seat) == {"1", "2", "3"}
    assert sum(report.wins_by_seat.values()) == 12
    assert report.rounds_per_game >= 4
    assert report.actions_per_game >= 2 * report.rounds_per_game
    assert report.seconds >= 0 and report.games_per_second >= 0


def test_simulate_is_deterministic_for_a_seed(dice_loss_rules: Ruleset) -> None:
    def figures(seed: int):
        r = simulate(dice_loss_rules, 4, 10, seed, dice_per_player=2)
        return r.wins_by_seat, r.rounds_per_game, r.actions_per_game

    assert figures(3) == figures(3)
    assert figures(3) != figures(4)


@pytest.mark.parametrize(("players", "dice"), [(2, 1), (7, 6)])
def test_the_engine_does_not_hard_code_the_table_size(dice_loss_rules, players, dice) -> None:
    report = simulate(dice_loss_rules, players, 2, 0, dice_per_player=dice)
    assert sum(report.wins_by_seat.values()) == 2
    assert len(report.wins_by_seat) == players
