"""A law failure replays exactly (liarsdice.testing.replay): the command it prints plays the same
game and names the same law, and the game written as a scenario file adjudicates to the same
rulings."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from liarsdice import Ruleset, scenario
from liarsdice.events import RoundResolved
from liarsdice.ruleset import installed
from liarsdice.testing import LawViolation, RandomChooser, play_game, replay, running
from liarsdice.testing.driver import seat_names, table_near
from liarsdice.testing.plugins import extra_variants
from liarsdice.testing.suite import law_cases, smallest_ruleset

PRESETS = ["casino", "online", "cheko", "dudo", "perudo", "perudo-box"]


def rulesets() -> list[Ruleset]:
    found = [smallest_ruleset(name) for name in sorted(set(installed()) - {"standard"})]
    found += [Ruleset.build(preset=preset) for preset in PRESETS]
    found.append(
        Ruleset.build(
            ["revolver", "bluff", "calza", "chips"],
            {"calza.reward": "table-pays", "bluff.rerolls": 2},
        )
    )
    return found


def test_a_recorded_game_replays_step_for_step() -> None:
    for rules in rulesets():
        players, dice = table_near(rules, 3, 2)
        for seed in range(3):
            game = play_game(rules, seat_names(players), dice, seed, RandomChooser(seed))
            again = replay.replay(replay.spec_of(game))
            assert again.steps == game.steps, (rules, seed)


def test_a_game_written_as_a_scenario_adjudicates_to_the_same_rulings() -> None:
    """Dice as dealt, the same seed for every other draw (revolver pulls, rerolls, roll-offs),
    refused attempts included: the rulings, the seats after each round and the winners agree."""
    for rules in rulesets():
        players, dice = table_near(rules, 3, 2)
        for seed in range(4):
            game = play_game(rules, seat_names(players), dice, seed, RandomChooser(seed))
            ruled = scenario.run(replay.scenario(game))
            resolutions = [
                event.resolution
                for step in game.steps
                if step.accepted
                for event in step.events
                if isinstance(event, RoundResolved)
            ]
            assert [r["ruling"] for r in ruled["rounds"] if r["ruling"]] == [
                scenario._ruling(r) for r in resolutions
            ], (rules, seed)
            final = game.final
            assert final is not None
            assert ruled["winners"] == list(final.winners)
            if ruled["rounds"]:
                after = ruled["rounds"][-1]["after"]
                assert {n: (s["dice"], s["alive"]) for n, s in after.items()} == {
                    p.name: (p.dice, p.alive) for p in final.players
                }


def test_a_replay_that_diverges_says_so() -> None:
    rules = Ruleset.build(["dice-loss"])
    game = play_game(rules, seat_names(3), 2, 1, RandomChooser(1))
    spec = replay.spec_of(game)
    bad = replay.GameSpec(spec.rules, spec.players, spec.dice, spec.seed, (99,))
    with pytest.raises(ValueError, match="the replay diverged at choice 1: 99 is not below"):
        replay.replay(bad)


@pytest.fixture
def unfair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unfair_source: str) -> str:
    """A broken plugin in an importable module ``unfair_plugin``: the wrong player loses."""
    (tmp_path / "unfair_plugin.py").write_text(unfair_source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    return "unfair_plugin"


def test_the_printed_command_replays_the_failure_in_a_new_process(
    unfair: str, tmp_path: Path
) -> None:
    import importlib

    plugin = importlib.import_module(unfair)
    with extra_variants({"unfair": plugin}):
        case = law_cases("unfair", combine=False)[0]
        settings = running.hypothesis_settings("fast", database=None)
        export = tmp_path / "exported"
        with pytest.raises(LawViolation) as caught:
            running.run_case(
                case,
                settings,
                replays=running.Replays({"unfair": plugin}, export=export),
            )
    notes = caught.value.__notes__
    note = next(note for note in notes if note.startswith("replay this game"))
    command = note.splitlines()[1].strip()
    assert " --plugin unfair=unfair_plugin" in command
    done = subprocess.run(
        shlex.split(command),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "challenge_has_one_loser: FAILS" in done.stdout
    assert "law violated: " + caught.value.law in done.stdout
    written = next(export.glob("*.json"))
    assert any("scenario file" in note and str(written) in note for note in notes)
    data = json.loads(written.read_text(encoding="utf-8"))
    assert data["variants"] == list(caught.value.rules.names[1:])  # type: ignore[union-attr]


def test_the_command_checks_every_law_and_writes_a_scenario(tmp_path: Path) -> None:
    rules = Ruleset.build(preset="casino")
    game = play_game(rules, seat_names(3), 5, 2, RandomChooser(2))
    spec = replay.spec_of(game)
    args = shlex.split(replay.command(spec))[3:]
    out = tmp_path / "game.json"
    result = CliRunner().invoke(replay.main, [*args, "--export", str(out)])
    assert result.exit_code == 0, result.output
    assert "challenge_has_one_loser: holds" in result.output
    assert "FAILS" not in result.output
    assert scenario.run(scenario.load(out))["winners"] == list(game.final.winners)  # type: ignore[union-attr]


def test_a_law_the_run_left_out_is_left_out_of_the_replay(unfair: str) -> None:
    plugin = pytest.importorskip(unfair)
    with extra_variants({"unfair": plugin}):
        rules = Ruleset.build(["dice-loss", "unfair"])
        game = next(
            game
            for seed in range(50)
            if (game := play_game(rules, seat_names(2), 1, seed, RandomChooser(seed)))
            and any(
                verdict
                for law, verdict in replay.verdicts(game)
                if law == "challenge_has_one_loser"
            )
        )
        # Its rulings also break the stakes the baseline declares for a challenge: left out too.
        left_out = ["challenge_has_one_loser", "calls_deal_their_stakes"]
        spec = replay.spec_of(game, {"unfair": plugin}, exclude=left_out)
        args = shlex.split(replay.command(spec))[3:]
        assert args[-4:] == ["--exclude", left_out[0], "--exclude", left_out[1]]
        result = CliRunner().invoke(replay.main, args)
    assert "challenge_has_one_loser" not in result.output
    assert "calls_deal_their_stakes" not in result.output
    assert result.exit_code == 0, result.output


def test_a_plugin_that_cannot_be_imported_is_a_clear_error() -> None:
    rules = Ruleset.build(["dice-loss"])
    game = play_game(rules, seat_names(2), 1, 0, RandomChooser(0))
    args = shlex.split(replay.command(replay.spec_of(game)))[3:]
    result = CliRunner().invoke(replay.main, [*args, "--plugin", "mine=no_such_module"])
    assert result.exit_code == 2
    assert "No module named 'no_such_module'" in result.output
    assert "run the command from the folder the tests ran in" in result.output
