"""``liarsdice play`` on the screen: when it colours (``--color``, ``NO_COLOR``, ``TERM``, a
terminal or a pipe) and how long it waits before each bot's move (``--bot-delay``)."""

from __future__ import annotations

import re
import sys

import pexpect
import pytest
from click.testing import CliRunner

from liarsdice.cli import cli, terminal
from liarsdice.cli.terminal_style import colour_wanted

#: Answers enough for a whole game: open with "1 2", else challenge.
ANSWERS = "1 2\nchallenge\n" * 150
BOT_MOVE = re.compile(r"^(Iris|Knox|Lena) (bids|calls:|passes) ", re.MULTILINE)


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses the game asks for, none of them waited."""
    asked: list[float] = []
    monkeypatch.setattr(terminal, "_pause", asked.append)
    return asked


def run(*args: str, tty: bool = False, env: dict[str, str | None] | None = None) -> str:
    """The output of a whole seeded game, as if stdout were a terminal when ``tty``."""
    screen = {"NO_COLOR": None, "TERM": "xterm-256color", **(env or {})}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(terminal, "_stdout_tty", lambda: tty)
        result = CliRunner().invoke(
            cli, ["play", "-p", "dudo", "--seed", "4", *args], input=ANSWERS, env=screen
        )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    ("flag", "tty", "environ", "wanted"),
    [
        (None, True, {}, True),
        (None, False, {}, False),
        (None, True, {"NO_COLOR": "1"}, False),
        (None, True, {"NO_COLOR": ""}, True),
        (None, True, {"TERM": "dumb"}, False),
        (True, False, {"NO_COLOR": "1", "TERM": "dumb"}, True),
        (False, True, {}, False),
    ],
)
def test_when_to_colour(
    flag: bool | None, tty: bool, environ: dict[str, str], wanted: bool
) -> None:
    assert colour_wanted(flag, tty, environ) is wanted


def test_piped_it_reads_plain_and_never_waits(pauses: list[float]) -> None:
    out = run()
    assert "\x1b[" not in out
    assert " won the game!" in out
    assert pauses == []


def test_color_forces_colour_into_a_pipe(pauses: list[float]) -> None:
    assert "\x1b[" in run("--color")


@pytest.mark.parametrize(
    ("args", "env", "coloured"),
    [
        ((), {}, True),
        ((), {"NO_COLOR": "1"}, False),
        ((), {"TERM": "dumb"}, False),
        (("--no-color",), {}, False),
    ],
)
def test_on_a_terminal_colour_unless_told_not_to(
    args: tuple[str, ...], env: dict[str, str | None], coloured: bool, pauses: list[float]
) -> None:
    assert ("\x1b[" in run(*args, tty=True, env=env)) is coloured


def test_on_a_terminal_each_bot_move_waits_the_default_delay(pauses: list[float]) -> None:
    out = run("--no-color", tty=True)
    assert len(pauses) == len(BOT_MOVE.findall(out)) > 0
    assert set(pauses) == {terminal.TTY_BOT_DELAY}


def test_bot_delay_sets_the_wait(pauses: list[float]) -> None:
    out = run("--bot-delay", "0.25")
    assert len(pauses) == len(BOT_MOVE.findall(out)) > 0
    assert set(pauses) == {0.25}


def test_bot_delay_zero_never_waits_on_a_terminal(pauses: list[float]) -> None:
    run("--bot-delay", "0", tty=True)
    assert pauses == []


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX terminal")
@pytest.mark.parametrize(("env", "coloured"), [({}, True), ({"NO_COLOR": "1"}, False)])
def test_a_real_terminal(env: dict[str, str], coloured: bool) -> None:
    """Through a pseudo-terminal: the dice are coloured unless NO_COLOR says no."""
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from liarsdice.cli import main; main()", "play", "-p", "dudo", "--seed", "4"],
        encoding="utf-8",
        timeout=30,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm", **env},
    )
    child.expect(r"Your dice: ([^\r\n]+)\r\n")
    assert ("\x1b[" in child.match[1]) is coloured
    child.sendline("quit")
    child.expect("You left the game.")
    child.expect(pexpect.EOF)
