"""``liarsdice play``'s options: the bots, the table, the name and the language."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from liarsdice.cli import EXIT_BAD_INPUT, cli, main
from liarsdice.cli.terminal import DEFAULT_BOT, bot_kinds, environment_lang


def test_the_default_bots_fill_the_default_table_at_the_medium_level() -> None:
    assert bot_kinds(None, None) == [DEFAULT_BOT] * 3
    assert bot_kinds(None, 6) == [DEFAULT_BOT] * 5


def test_one_kind_fills_every_seat_and_a_list_sets_the_table() -> None:
    assert bot_kinds("mixed", 3) == ["mixed", "mixed"]
    assert bot_kinds("mixed,random*2", None) == ["mixed", "random", "random"]


def test_bots_that_do_not_fill_the_table_are_refused() -> None:
    with pytest.raises(click.BadParameter, match="2 bots do not fill a table of 5"):
        bot_kinds("mixed,odds", 5)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--bots", "nope"], "unknown bot"),
        (["--name", "Iris"], "'Iris' is taken or empty"),
        (["-p", "casino", "--players", "7"], "players"),
    ],
)
def test_bad_options_exit_2_before_the_game(
    args: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", *args])
    assert done.value.code == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert reason in err and err.count("\n") == 1 and out == ""


def test_a_bare_play_is_dudo() -> None:
    result = CliRunner().invoke(cli, ["play", "--seed", "2"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Dudo: Calza (exact call), Dice loss. Game number 2 ")


@pytest.mark.parametrize(
    ("env", "lang"),
    [({"LANG": "uk_UA.UTF-8"}, "uk"), ({"LC_ALL": "ru_RU", "LANG": "uk_UA"}, "ru"), ({}, "en")],
)
def test_the_language_comes_from_the_environment(
    env: dict[str, str], lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert environment_lang() == lang


def test_quitting_ends_quietly() -> None:
    result = CliRunner().invoke(cli, ["play", "-p", "dudo", "--seed", "2"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("You left the game.")
