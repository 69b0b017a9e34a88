"""The order of play: engine.next_player, the anticlockwise test variant, and the law that a
variant's "next player" is the player who plays next (the law case ``anticlockwise``)."""

from __future__ import annotations

import importlib
import os
import shlex
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from liarsdice import Bid, BidAction, Ruleset, VariantInfo, engine, hookimpl
from liarsdice.models import GameState, PlayerState
from liarsdice.testing import anticlockwise, running
from liarsdice.testing.driver import RandomChooser, play_game, seat_names
from liarsdice.testing.laws import TURN_ORDER, LawViolation, next_player_follows_turn_order
from liarsdice.testing.plugins import ANTICLOCKWISE, ANTICLOCKWISE_NAME, extra_variants
from liarsdice.testing.suite import ANTICLOCKWISE_CASE, law_cases


def reversing(*names: str) -> Ruleset:
    with extra_variants({ANTICLOCKWISE_NAME: ANTICLOCKWISE}):
        return Ruleset.build([*names, ANTICLOCKWISE_NAME])


def seated(*dice: int) -> GameState:
    players = tuple(
        PlayerState(name, count, count > 0)
        for name, count in zip("ABCD"[: len(dice)], dice, strict=True)
    )
    return GameState(players, dice_per_player=max(dice))


def test_next_player_follows_the_order_of_play() -> None:
    state = seated(2, 2, 0, 2)  # C is out
    clockwise = Ruleset.build(["dice-loss"])
    assert [engine.next_player(clockwise, state, p) for p in "ABD"] == ["B", "D", "A"]
    backwards = reversing("dice-loss")
    assert [engine.next_player(backwards, state, p) for p in "ABD"] == ["D", "A", "B"]


def test_next_player_of_a_player_who_is_out_is_an_error() -> None:
    with pytest.raises(ValueError, match="'C' is out: only a living player has a next player"):
        engine.next_player(Ruleset.build(["dice-loss"]), seated(2, 2, 0), "C")
    with pytest.raises(KeyError):
        engine.next_player(Ruleset.build(["dice-loss"]), seated(2, 2), "Zed")


def test_the_engine_passes_the_turn_to_the_next_player() -> None:
    rules = reversing("dice-loss")
    state, _ = engine.new_game(rules, ["A", "B", "C"], Random(1), first_opener="A")
    state, _ = engine.start_round(rules, state, Random(1))
    after, _ = engine.step(rules, state, BidAction("A", Bid(1, 2)), Random(1))
    assert after.round is not None and after.round.turn == "C"
    assert engine.next_player(rules, state, "A") == "C"


def test_cheko_asks_who_bids_after_the_opener_in_the_order_of_play() -> None:
    """C (one die) bids after A when play goes anticlockwise; B (two dice) when it goes clockwise.
    The old cheko asked clockwise both times, and so refused "one one" at the wrong table."""
    for rules, refused in (
        (reversing("cheko", "aces-switch", "dice-loss"), True),
        (Ruleset.build(["cheko", "aces-switch", "dice-loss"]), False),
    ):
        state = GameState(
            (PlayerState("A", 2), PlayerState("B", 2), PlayerState("C", 1)),
            2,
            next_opener="A",
        )
        state, _ = engine.start_round(rules, state, Random(1))
        problems = [str(p) for p in engine.bid_problems(rules, state, "A", Bid(1, 1))]
        assert bool(problems) is refused, (rules, problems)
        if refused:
            assert "when C, next to bid, has one die" in problems[0]


@pytest.fixture
def clockwise_cheko(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clockwise_cheko_source: str
) -> object:
    """The broken variant in an importable module ``clockwise_cheko`` (the replay names it)."""
    (tmp_path / "clockwise_cheko.py").write_text(clockwise_cheko_source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    return importlib.import_module("clockwise_cheko")


def anticlockwise_case(variant: str) -> running.LawCase:
    return next(
        case for case in law_cases(variant, combine=False) if case.name == ANTICLOCKWISE_CASE
    )


def test_the_law_fails_on_a_variant_that_asks_clockwise(clockwise_cheko: object) -> None:
    with (
        extra_variants({"clockwise-cheko": clockwise_cheko}),
        pytest.raises(LawViolation) as caught,
    ):
        running.run_case(
            anticlockwise_case("clockwise-cheko"),
            replays=running.Replays({"clockwise-cheko": clockwise_cheko}),
        )
    violation = caught.value
    assert violation.law == TURN_ORDER
    assert "clockwise-cheko's liarsdice_bid_problem" in violation.detail  # the plugin and hook
    assert "engine.next_player(rules, state, player)" in violation.detail
    note = next(n for n in violation.__notes__ if n.startswith("replay this game"))
    command = note.splitlines()[1].strip()
    assert f" --plugin {ANTICLOCKWISE_NAME}=liarsdice.testing.plugins:ANTICLOCKWISE" in command
    done = subprocess.run(shlex.split(command), capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert "next_player_follows_turn_order: FAILS" in done.stdout


def test_the_law_can_be_left_out_by_name(clockwise_cheko: object) -> None:
    with extra_variants({"clockwise-cheko": clockwise_cheko}):
        run = running.run_case(
            anticlockwise_case("clockwise-cheko"), exclude=["next_player_follows_turn_order"]
        )
    assert run.found.startswith("16 games played anticlockwise")


def test_the_law_holds_for_cheko_and_its_games_reach_the_case() -> None:
    """The fixed cheko passes, and its games do reach a round opened next to a one-die player
    in the order of play (what the broken one is caught on)."""
    assert "games played anticlockwise" in running.run_case(anticlockwise_case("cheko")).found
    with extra_variants({ANTICLOCKWISE_NAME: ANTICLOCKWISE}):
        rulesets = anticlockwise.rulesets_for("cheko")
    assert any("dice-loss" in rules.names for rules in rulesets)


def test_the_law_checks_only_games_played_anticlockwise() -> None:
    rules = Ruleset.build(["cheko", "dice-loss"])
    game = play_game(rules, seat_names(3), 2, 1, RandomChooser(1))
    next_player_follows_turn_order(rules, game.steps)  # nothing to compare: it passes


class Widdershins:
    """A variant that decides the turn itself."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo("Widdershins", "play passes to the right")

    @hookimpl
    def liarsdice_next_turn(self, state: GameState, player: str) -> str:
        return ANTICLOCKWISE.liarsdice_next_turn(state, player)


def test_a_variant_that_decides_the_turn_is_not_played_anticlockwise() -> None:
    with extra_variants({"widdershins": Widdershins()}):
        case = anticlockwise_case("widdershins")
    assert case.refusal == "widdershins decides who plays next itself (liarsdice_next_turn)"
