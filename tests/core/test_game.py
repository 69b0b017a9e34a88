"""``Game``: the stateful wrapper, and a game resumed from its stored log."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Game, Ruleset
from liarsdice.reducer import InvalidEvent


def test_a_resumed_game_plays_on_exactly_as_the_original() -> None:
    rules = Ruleset.build(["dice-loss"])
    original = Game(rules, ["Ann", "Ben", "Cy"], Random(7))
    original.start_round()
    original.bid("Ann", 2, 3)
    original.bid("Ben", 3, 3)
    resumed = Game.resume(rules, original.events, Random(1))
    assert resumed.events == original.events and resumed.events is not original.events
    assert resumed.state == original.state
    resumed.call("Cy")
    original.call("Cy")
    assert resumed.events == original.events and resumed.state == original.state
    with pytest.raises(InvalidEvent):
        Game.resume(rules, original.events[1:])


def test_a_follower_copy_stays_equal_to_the_game_it_follows() -> None:
    rules = Ruleset.build(["dice-loss"])
    leader = Game(rules, ["Ann", "Ben"], Random(3))
    follower = Game.resume(rules, leader.events)
    leader.start_round()
    leader.bid("Ann", 1, 4)
    with pytest.raises(InvalidEvent, match="no round"):
        follower.follow(leader.events[-1:])  # the bid without the round it was made in
    assert follower.events == leader.events[:2]
    follower.follow(leader.events[len(follower.events) :])
    assert follower.events == leader.events and follower.state == leader.state
