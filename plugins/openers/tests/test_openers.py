"""Opener rules: winner-opens, last-change-opens, roll-off and random-opener."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from liarsdice import Game, RiggedRandom, Ruleset
from liarsdice.errors import Conflict

PLAYERS = ["Ann", "Bob", "Cy"]
# Fives: Ann 2, Bob 1, Cy 0; ones: Ann 1, Cy 1 -> 5 fives with wild ones.
ROLLS = {"Ann": [5, 5, 1, 2, 3], "Bob": [5, 2, 3, 4, 6], "Cy": [1, 2, 3, 4, 6]}


def _game(*variants: str, options: dict[str, object] | None = None, seed: int = 0) -> Game:
    rules = Ruleset.build(["dice-loss", *variants], options)
    game = Game(rules, PLAYERS, RiggedRandom(seed))
    game.start_round(ROLLS)
    return game


def test_winner_opens_after_a_failed_challenge_is_the_bidder() -> None:
    game = _game("winner-opens")
    game.bid("Ann", 4, 5)
    game.bid("Bob", 5, 5)  # true: five fives counting wild ones
    game.call("Cy")
    assert game.state.round.resolution.losers == ("Cy",)
    assert game.state.next_opener == "Bob"


def test_winner_opens_after_a_caught_lie_is_the_challenger() -> None:
    game = _game("winner-opens")
    game.bid("Ann", 6, 5)
    game.call("Bob")
    assert game.state.round.resolution.losers == ("Ann",)
    assert game.state.next_opener == "Bob"


def test_winner_opens_after_a_successful_exact_call_is_the_caller() -> None:
    game = _game("winner-opens", "calza")
    game.bid("Ann", 4, 5)
    game.bid("Bob", 5, 5)
    game.call("Cy", "exact")
    assert game.state.round.resolution.success
    assert game.state.next_opener == "Cy"


def test_without_winner_opens_the_loser_opens() -> None:
    game = _game()
    game.bid("Ann", 6, 5)
    game.call("Bob")
    assert game.state.next_opener == "Ann"


def test_winner_opens_before_any_call_is_won_a_timeout_gives_the_baseline_opener() -> None:
    game = _game("winner-opens")
    game.bid("Ann", 2, 5)
    game.timeout("Bob")
    assert game.state.next_opener == "Bob"


def test_winner_opens_after_a_timeout_keeps_the_last_call_winner() -> None:
    game = _game("winner-opens")
    game.bid("Ann", 6, 5)
    game.call("Bob")  # a caught lie: Bob won the call
    game.start_round({"Ann": [5, 5, 1, 2], "Bob": [5, 2, 3, 4, 6], "Cy": [1, 2, 3, 4, 6]})
    game.bid("Bob", 2, 5)
    game.timeout("Cy")  # no call: the right to open stays with Bob
    assert game.state.player("Cy").dice == 4
    assert game.state.next_opener == "Bob"


def test_winner_opens_a_timeout_keeps_the_winner_of_the_last_call_not_of_the_first() -> None:
    game = _game("winner-opens")
    game.bid("Ann", 6, 5)
    game.call("Bob")  # Bob wins
    game.start_round({"Ann": [5, 5, 1, 2], "Bob": [5, 2, 3, 4, 6], "Cy": [1, 2, 3, 4, 6]})
    game.bid("Bob", 9, 6)
    game.call("Cy")  # a caught lie: Cy wins
    game.start_round({"Ann": [5, 5, 1, 2], "Bob": [5, 2, 3, 4], "Cy": [1, 2, 3, 4, 6]})
    game.bid("Cy", 2, 5)
    game.timeout("Ann")
    assert game.state.next_opener == "Cy"


def test_winner_opens_when_the_last_call_winner_is_out_the_next_clockwise_of_that_chair_opens() -> (
    None
):
    players = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    game = Game(Ruleset.build(["dice-loss", "winner-opens"]), players, dice_per_player=1)
    game.start_round({"Ann": [2], "Bob": [3], "Cy": [4], "Dee": [6], "Eve": [6]})
    game.bid("Ann", 1, 5)
    game.call("Bob")  # a caught lie: Bob wins the call, Ann is out
    game.start_round({"Bob": [3], "Cy": [4], "Dee": [6], "Eve": [6]})
    game.timeout("Bob")  # Bob is out: Cy, the next living player clockwise of his chair
    assert game.state.next_opener == "Cy"
    game.start_round({"Cy": [4], "Dee": [6], "Eve": [6]})
    game.bid("Cy", 1, 2)
    game.timeout("Dee")  # Dee is out; the right to open is still Bob's chair's, not Dee's
    assert game.state.next_opener == "Cy"


def test_last_change_opens_is_the_loser_who_gave_up_a_die() -> None:
    game = _game("last-change-opens")
    game.bid("Ann", 6, 5)
    game.call("Bob")
    assert game.state.player("Ann").dice == 4
    assert game.state.next_opener == "Ann"


def test_last_change_opens_is_the_exact_caller_who_regained_a_die() -> None:
    game = _game("last-change-opens", "calza")
    game.bid("Ann", 6, 5)
    game.call("Bob")  # Ann loses a die and opens round 2
    game.start_round({"Ann": [5, 5, 1, 2], "Bob": [5, 2, 3, 4, 6], "Cy": [1, 2, 3, 4, 6]})
    game.bid("Ann", 4, 5)
    game.bid("Bob", 5, 5)
    game.call("Cy", "exact")  # Cy is at the cap: nothing changes, Ann opened: Ann opens again
    assert game.state.player("Cy").dice == 5
    assert game.state.next_opener == "Ann"


def test_last_change_opens_after_regaining_is_the_caller() -> None:
    game = _game("last-change-opens", "calza")
    game.bid("Ann", 4, 5)
    game.call("Bob")  # five fives: Bob loses a die and opens
    assert game.state.next_opener == "Bob"
    game.start_round({"Ann": [5, 5, 1, 2, 3], "Bob": [5, 2, 3, 4], "Cy": [1, 2, 3, 4, 6]})
    game.bid("Bob", 4, 5)
    game.call("Cy")  # five fives: Cy loses a die and opens
    assert game.state.next_opener == "Cy"
    game.start_round({"Ann": [5, 5, 1, 2, 3], "Bob": [5, 2, 3, 4], "Cy": [1, 2, 3, 4]})
    game.bid("Cy", 4, 5)
    game.bid("Ann", 5, 5)
    game.call("Bob", "exact")  # exactly five: Bob takes a die back and opens, not Cy
    assert game.state.player("Bob").dice == 5
    assert game.state.next_opener == "Bob"
    game.start_round({"Ann": [5, 5, 1, 2, 3], "Bob": [5, 2, 3, 4, 6], "Cy": [1, 2, 3, 4]})
    game.bid("Bob", 4, 5)
    game.bid("Cy", 5, 5)
    game.call("Ann", "exact")  # exact, but Ann holds all her dice: Bob opens again
    assert game.state.round.resolution.success
    assert game.state.player("Ann").dice == 5
    assert game.state.next_opener == "Bob"


def test_opener_rules_for_the_next_round_conflict() -> None:
    with pytest.raises(Conflict) as refused:
        Ruleset.build(["dice-loss", "winner-opens", "last-change-opens"])
    assert "winner-opens" in str(refused.value)
    assert "last-change-opens" in str(refused.value)


def test_first_round_rules_conflict() -> None:
    with pytest.raises(Conflict) as refused:
        Ruleset.build(["dice-loss", "roll-off", "random-opener"])
    assert "roll-off" in str(refused.value)
    assert "random-opener" in str(refused.value)


def test_seat_one_opens_the_first_round_by_default() -> None:
    rules = Ruleset.build(["dice-loss"])
    assert Game(rules, PLAYERS, Random(3)).state.next_opener == "Ann"


class _Dice(Random):
    """A Random whose randint returns queued values (for roll-off ties)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = values

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def test_roll_off_highest_opens_and_ties_reroll_among_themselves() -> None:
    rules = Ruleset.build(["dice-loss", "roll-off"])
    # Ann 6, Bob 3, Cy 6 -> tie between Ann and Cy; re-roll: Ann 2, Cy 5 -> Cy opens.
    dice = _Dice([6, 3, 6, 2, 5])
    game = Game(rules, PLAYERS, dice)
    assert game.state.next_opener == "Cy"
    assert dice.values == []


def test_roll_off_is_fair_over_many_games() -> None:
    rules = Ruleset.build(["dice-loss", "roll-off"])
    rng = Random(7)
    openers = Counter(Game(rules, PLAYERS, rng).state.next_opener for _ in range(3000))
    assert set(openers) == set(PLAYERS)
    assert all(800 < count < 1200 for count in openers.values())


def test_random_opener_picks_every_seat() -> None:
    rules = Ruleset.build(["dice-loss", "random-opener"])
    rng = Random(11)
    openers = Counter(Game(rules, PLAYERS, rng).state.next_opener for _ in range(3000))
    assert all(800 < openers[name] < 1200 for name in PLAYERS)


def test_every_opener_rule_has_rules_text() -> None:
    for variant in ("winner-opens", "last-change-opens", "roll-off", "random-opener"):
        page = Ruleset.build(["dice-loss", variant]).describe()
        title = Ruleset.build(["dice-loss", variant]).variants[-1].info.title
        assert f"## {title}" in page
