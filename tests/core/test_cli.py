"""liarsdice.cli: the ``liarsdice`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from liarsdice import Ruleset, hookimpl
from liarsdice.cli import EXIT_BAD_INPUT, cli, heading, main
from liarsdice.i18n import Text
from liarsdice.ruleset import installed

SCENARIOS = Path(__file__).parents[1] / "scenarios"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_variants_lists_each_plugin_with_its_distribution(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["variants"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == len(installed())
    rows = {line.split()[0]: line.split()[1] for line in lines}
    assert rows["standard"] == "liarsdice-rules"
    assert rows["dice-loss"] == "liarsdice-rules-dice-loss"
    assert any("gives up one die" in line for line in lines if line.startswith("dice-loss "))


def plugin_texts(rules: Ruleset) -> dict[str, list[str]]:
    """Each plugin's rules text (a str, or a RulesText's text and topics), by plugin name."""
    texts = {}
    for impl in rules.pm.hook.liarsdice_describe.get_hookimpls():
        answer = impl.function(**{arg: rules.options for arg in impl.argnames})
        if isinstance(answer, str | Text):
            parts = [str(answer)]
        else:
            parts = [getattr(answer, "text", ""), *getattr(answer, "clauses", {}).values()]
        parts = [str(part) for part in parts]
        texts[impl.plugin_name] = [
            " ".join(part.split()) for part in parts if part and part.strip()
        ]
    return texts


@pytest.mark.parametrize("wild", ["true", "false"])
def test_rules_include_both_plugins_text(runner: CliRunner, wild: str) -> None:
    args = ["rules", "--variant", "dice-loss", "--option", f"standard.wild_ones={wild}"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Rules: Standard rules + Dice loss")
    assert "## Standard rules" in result.output and "## Dice loss" in result.output
    value = "yes" if wild == "true" else "no"
    assert f"every other face): **{value}**\n" in result.output
    page = " ".join(result.output.split())
    rules = Ruleset.build(["dice-loss"], {"standard.wild_ones": wild})
    texts = plugin_texts(rules)
    assert set(texts) == {"standard", "dice-loss"}
    for name, parts in texts.items():
        assert parts, name
        for part in parts:
            assert part in page, (name, part)


def test_adjudicate_prints_the_ruling_document(runner: CliRunner) -> None:
    path = SCENARIOS / "000_casino_challenge_dice_loss.json"
    result = runner.invoke(cli, ["adjudicate", str(path)])
    assert result.exit_code == 0, result.output
    expected = json.loads((SCENARIOS / "000_casino_challenge_dice_loss.out.json").read_text())
    assert json.loads(result.output) == expected


def test_simulate_json_report(runner: CliRunner) -> None:
    args = [
        "simulate",
        "-v",
        "dice-loss",
        "--players",
        "3",
        "--dice",
        "2",
        "--games",
        "7",
        "--seed",
        "3",
        "--json",
    ]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {
        "games",
        "seconds",
        "games_per_second",
        "rounds_per_game",
        "actions_per_game",
        "wins_by_seat",
    }
    assert report["games"] == 7
    assert set(report["wins_by_seat"]) == {"1", "2", "3"}
    assert sum(report["wins_by_seat"].values()) == 7
    assert report["rounds_per_game"] >= 4  # 6 dice, the winner keeps at most 2
    again = json.loads(runner.invoke(cli, args).output)
    assert again["wins_by_seat"] == report["wins_by_seat"]


def test_simulate_text_report(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["simulate", "-v", "dice-loss", "--players", "2", "--dice", "1", "--games", "3"]
    )
    assert result.exit_code == 0, result.output
    # The header names the rules as a reader would, not as a repr.
    assert result.output.startswith("Standard rules: Dice loss — 2 players, 1 dice each, seed 0")
    assert "Ruleset(" not in result.output
    assert "wins by seat" in result.output


def test_the_header_names_the_preset_the_variants_and_the_options_changed() -> None:
    assert heading(Ruleset.build(preset="casino")) == (
        "casino (Casino revolver): Calza (exact call), Revolver, Winner opens"
    )
    assert heading(Ruleset.build(["bluff"], preset="dudo")) == (
        "dudo (Dudo): Calza (exact call), Dice loss + Bluff reroll"
    )
    changed = Ruleset.build(["dice-loss"], {"standard.wild_ones": False})
    assert heading(changed) == "Standard rules: Dice loss; wild ones: no"


# --- bad input: one line on stderr, exit status 2 -------------------------------------------------


def bad(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("liarsdice: ")
    return lines[0]


def test_unknown_variant(capsys) -> None:
    line = bad(capsys, ["rules", "-v", "no-such-variant"])
    assert "unknown variant 'no-such-variant'" in line and "dice-loss" in line


def test_bad_option_value(capsys) -> None:
    line = bad(capsys, ["rules", "-v", "dice-loss", "-o", "standard.wild_ones=perhaps"])
    assert "standard.wild_ones" in line


def test_unknown_option(capsys) -> None:
    assert "standard.wild_aces" in bad(
        capsys, ["rules", "-v", "dice-loss", "-o", "standard.wild_aces=1"]
    )


def test_option_without_a_value(capsys) -> None:
    assert "NAME=VALUE" in bad(capsys, ["rules", "-o", "standard.wild_ones"])


def test_no_economics(capsys) -> None:
    assert "cost anything" in bad(capsys, ["rules"])


def test_missing_scenario_file(capsys, tmp_path: Path) -> None:
    assert "cannot read" in bad(capsys, ["adjudicate", str(tmp_path / "nope.json")])


def test_malformed_scenario(capsys, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    assert "is not valid JSON" in bad(capsys, ["adjudicate", str(path)])
    path.write_text(json.dumps({"variants": ["dice-loss"], "players": ["Ann"]}), encoding="utf-8")
    assert "at least two names" in bad(capsys, ["adjudicate", str(path)])
    path.write_text(
        json.dumps(
            {
                "players": ["Ann", "Ben"],
                "variants": ["dice-loss"],
                "rounds": [{"dice": {"Ann": [1]}}],
            }
        )
    )
    assert "Ann holds 5 dice, not 1" in bad(capsys, ["adjudicate", str(path)])


def test_usage_errors(capsys) -> None:
    bad(capsys, ["no-such-command"])
    bad(capsys, ["simulate", "--players", "1"])


def test_main_returns_normally_on_success(capsys) -> None:
    main(["variants"])
    assert "dice-loss" in capsys.readouterr().out


def test_presets_lists_the_seed_presets(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["presets"])
    assert result.exit_code == 0, result.output
    names = {line.split()[0] for line in result.output.splitlines() if not line.startswith(" ")}
    assert {"casino", "cheko", "dudo", "online", "perudo"} <= names


def test_a_broken_plugin_is_listed_apart_and_its_error_fits_one_line(
    install_plugins, plugin_factory, capsys: pytest.CaptureFixture[str]
) -> None:
    @hookimpl
    def liarsdice_bid_rank(bid, state):  # an argument the spec lacks: pluggy refuses it
        return None

    install_plugins({"greedy": plugin_factory("greedy", liarsdice_bid_rank)})
    main(["variants"])
    captured = capsys.readouterr()
    assert "dice-loss" in captured.out and "greedy" not in captured.out
    assert "greedy" in captured.err and "broken" in captured.err
    with pytest.raises(SystemExit) as exited:
        main(["rules", "-v", "dice-loss", "-v", "greedy"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "greedy" in err
