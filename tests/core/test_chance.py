"""liarsdice.chance: injected randomness and rigged named draws."""

from __future__ import annotations

from random import Random

from liarsdice.chance import RiggedRandom, rigged


def test_rigged_draws_come_out_in_order_then_run_dry() -> None:
    rng = RiggedRandom(1)
    rng.rig("trigger", ["click", "bang"])
    rng.rig("trigger", ["click"])
    assert rigged(rng, "trigger") == "click"
    assert rigged(rng, "trigger") == "bang"
    assert rng.leftovers() == {"trigger": ["click"]}
    assert rigged(rng, "trigger") == "click"
    assert rigged(rng, "trigger") is None
    assert rng.leftovers() == {}


def test_streams_are_independent() -> None:
    rng = RiggedRandom(1)
    rng.rig("a", [1])
    rng.rig("b", [2, 3])
    assert rigged(rng, "b") == 2
    assert rigged(rng, "c") is None
    assert rng.leftovers() == {"a": [1], "b": [3]}


def test_a_plain_random_is_never_rigged() -> None:
    assert rigged(Random(0), "trigger") is None


def test_rigging_does_not_disturb_the_seeded_sequence() -> None:
    plain, rigged_rng = RiggedRandom(5), RiggedRandom(5)
    rigged_rng.rig("trigger", ["bang"])
    assert rigged(rigged_rng, "trigger") == "bang"
    assert [plain.random() for _ in range(5)] == [rigged_rng.random() for _ in range(5)]
    assert RiggedRandom(5).random() == Random(5).random()
