"""``liarsdice play`` through a pseudo-terminal: a whole seeded game to the winner, bad input,
and a game in Ukrainian."""

from __future__ import annotations

import sys

import pexpect
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX terminal")

LAUNCH = "from liarsdice.cli import main; main()"
PROMPT = "> "


def spawn(*args: str) -> pexpect.spawn:
    """``liarsdice play`` in plain text with no pause before the bots' moves (the colours and
    the pauses: test_terminal_screen.py)."""
    child = pexpect.spawn(
        sys.executable,
        ["-c", LAUNCH, "play", "--bot-delay", "0", *args],
        encoding="utf-8",
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONUTF8": "1", "NO_COLOR": "1"},
    )
    child.delaybeforesend = None
    return child


def play_out(child: pexpect.spawn, opening: str = "1 2", challenge: str = "challenge") -> str:
    """Answer every prompt (open with ``opening``, else ``challenge``) until the winner line;
    return the winner line."""
    for _turn in range(500):
        seen = child.expect([PROMPT, r"[^\r\n]+ won the game!", r"Переможець гри: [^\r\n]+!"])
        if seen:
            return str(child.after)
        first = "No bids yet this round" in child.before or "ставок ще немає" in child.before
        child.sendline(opening if first else challenge)
    raise AssertionError("no winner after 500 prompts")


def test_a_whole_seeded_game_to_the_winner_with_bad_input_refused() -> None:
    child = spawn("--preset", "casino", "--seed", "7", "--players", "3")
    child.expect("Your dice: [1-6 ]+\r\n")
    child.expect("No bids yet this round")
    child.expect(PROMPT)
    child.sendline("9 9")  # unreadable: the parser's reason, then a new prompt
    child.expect("a face is 1 to 6, not 9\r\n")
    child.expect(PROMPT)
    child.sendline("2 1")  # readable but illegal: the engine's own reason, nothing changed
    child.expect("ones are wild: no bids on ones\r\n")
    child.expect(PROMPT)
    child.sendline("help")  # no bid stands yet: no call to make
    child.expect(r"a call by name \(none yet\)")
    child.expect(PROMPT)
    child.sendline("1 2")
    child.expect("Player bids 1 two\r\n")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect(r"a call by name \(challenge[,)]")
    child.expect(PROMPT)
    child.sendline("challenge")
    winner = play_out(child)
    assert winner.removesuffix(" won the game!") in {"Player", "Iris", "Knox"}
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_same_seed_plays_the_same_game() -> None:
    logs = []
    for _run in range(2):
        child = spawn("--preset", "dudo", "--seed", "11", "--players", "3")
        play_out(child)
        child.expect(pexpect.EOF)
        logs.append(child.before)
    assert logs[0] == logs[1]


def test_the_cups_and_the_ruling_show_at_a_call() -> None:
    child = spawn("--preset", "casino", "--seed", "7", "--players", "3")
    child.expect(PROMPT)
    child.sendline("1 2")
    child.expect(PROMPT)
    child.sendline("challenge")
    child.expect("Cups lifted:\r\n")
    for name in ("Player", "Iris", "Knox"):
        child.expect(rf"  {name}: [1-6 ]+\r\n")
    child.expect(r"Challenge on \w+'s .+: \d+ dic?e? counted; \w+ loses the round")
    child.expect(r"loads \d of 6 and pulls: (click|bang)")
    child.sendline("quit")
    child.expect("You left the game.")
    child.expect(pexpect.EOF)


def test_a_game_in_ukrainian() -> None:
    """The header, the player's name and the calls read in Ukrainian: "не вірю" is a challenge."""
    child = spawn("--preset", "dudo", "--seed", "5", "--players", "3", "--lang", "uk")
    child.expect("([^\r\n]*)\r\n")
    header = child.match[1]
    assert header.startswith("Дудо: Кальца (точний виклик), Втрата кубика. Номер гри 5 "), header
    assert "Bots" not in header and "Seed" not in header and "Зерно" not in header
    child.expect(r"виклик — його назвою \(не вірю, в точку\)")
    child.expect("Ваші кубики: [1-6 ]+\r\n")
    child.expect(r"Ваш хід \(Гравець\)\.")
    child.expect(PROMPT)
    child.sendline("1 1")
    child.expect("одиниці дикі")
    child.expect(PROMPT)
    child.sendline("допомога")  # help, in Ukrainian
    child.expect('"допомога" або "вийти"')
    child.expect(PROMPT)
    child.sendline("1 2")
    child.expect("Гравець ставить 1 двійку")
    winner = play_out(child, challenge="не вірю")
    assert winner.startswith("Переможець гри: ")
    child.expect(pexpect.EOF)


def test_the_language_comes_from_the_environment() -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-c", LAUNCH, "play", "--seed", "1", "-p", "dudo", "--bot-delay", "0"],
        encoding="utf-8",
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "LANG": "ru_RU.UTF-8", "PYTHONUTF8": "1", "NO_COLOR": "1"},
    )
    child.expect("Ваши кубики: ")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Вы вышли из игры.")
    child.expect(pexpect.EOF)
