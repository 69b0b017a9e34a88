"""liarsdice.cli.terminal_game: the loop of ``liarsdice play``, in process, under many rulesets."""

from __future__ import annotations

import re
from random import Random
from typing import Any

import click
import pytest

from liarsdice import legality
from liarsdice.bots import make_bot
from liarsdice.cli.terminal_game import Quit, Table, play
from liarsdice.cli.terminal_style import BID, LOSER, OWN_DICE, WINNER
from liarsdice.game import Game
from liarsdice.models import Bid, BidAction
from liarsdice.ruleset import Ruleset
from liarsdice.ruleset import presets as installed_presets

HUMAN = "Player"
BOTS = ("Iris", "Knox", "Lena")


def seated(
    rules: Ruleset,
    lines: list[str],
    seed: int = 3,
    players: int = 4,
    lang: str = "en",
    **screen: Any,
) -> Table:
    """A table whose player answers each prompt with the lowest legal bid on an empty table and
    a challenge otherwise (or the next of ``lines`` while there are any); ``screen`` is the
    table's colour, delay and pause."""
    names = BOTS[: players - 1]
    game = Game(rules, [HUMAN, *names], Random(seed))
    bots = {name: make_bot("odds", rules, Random(seed + n)) for n, name in enumerate(names, 1)}
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        if lines:
            return lines.pop(0)
        state = game.state
        if state.round is not None and state.round.bids:
            return "challenge"
        bid = legality.legal_bids(rules, state, HUMAN, limit=1)[0]
        return f"{bid.quantity} {bid.face}"

    table = Table(rules, game, HUMAN, bots, lang, read, out.append, **screen)
    table.out = out  # type: ignore[attr-defined]
    return table


RULESETS = [
    *[((), name) for name in installed_presets()],
    (("dice-loss", "pass"), None),
    (("dice-loss", "bluff"), None),
    (("chips",), None),
    (("dice-loss", "forehead"), None),
]


@pytest.mark.parametrize(("variants", "preset"), RULESETS)
def test_a_game_runs_to_its_winner_under_any_ruleset(
    variants: tuple[str, ...], preset: str | None
) -> None:
    rules = Ruleset.build(variants, {}, preset)
    table = seated(rules, [])
    winners = play(table, 5)
    out = table.out  # type: ignore[attr-defined]
    assert winners and set(winners) <= {HUMAN, *BOTS}
    assert out[-1].endswith("won the game!")
    assert any(line == "Cups lifted:" for line in out)


def test_other_cups_stay_hidden_until_they_are_lifted() -> None:
    rules = Ruleset.build((), {}, "dudo")
    table = seated(rules, ["quit"])
    with pytest.raises(Quit):
        play(table, 5)
    out = table.out  # type: ignore[attr-defined]
    mine = "".join(map(str, sorted(table.game.state.round.rolls[HUMAN])))  # type: ignore[union-attr]
    assert f"Your dice: {' '.join(mine)}" in out
    assert not any(line.startswith("  Iris: ") for line in out)


def test_a_refused_move_changes_nothing_and_prompts_again() -> None:
    rules = Ruleset.build((), {}, "dudo")
    table = seated(rules, ["2 1", "nonsense", "quit"])
    with pytest.raises(Quit):
        play(table, 5)
    out = table.out  # type: ignore[attr-defined]
    assert "ones are wild: no bids on ones" in out
    assert '"nonsense" is neither a bid nor a call ("help" shows how).' in out
    assert out.count("> ") == 3
    assert table.game.state.round is not None and not table.game.state.round.bids


def test_a_payload_is_asked_for_by_number() -> None:
    rules = Ruleset.build(("dice-loss", "bluff"), {}, None)
    table = seated(rules, ["1"])
    table.game.start_round()
    bid = BidAction(HUMAN, Bid(1, 2))
    choices = legality.payload_choices(rules, table.game.state, bid)
    assert choices["bluff"]
    action = table.payload(bid)
    assert isinstance(action, BidAction)
    assert action.payload == {"bluff": choices["bluff"][0]}
    assert "bluff: 0 = nothing" in table.out  # type: ignore[attr-defined]


def test_no_payload_when_the_player_answers_zero() -> None:
    rules = Ruleset.build(("dice-loss", "bluff"), {}, None)
    table = seated(rules, ["0"])
    table.game.start_round()
    bid = BidAction(HUMAN, Bid(1, 2))
    assert table.payload(bid) is bid


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_colour_adds_only_codes_and_leaves_them_out_when_off(lang: str) -> None:
    rules = Ruleset.build((), {}, "dudo")
    plain = seated(rules, [], lang=lang)
    play(plain, 5)
    coloured = seated(rules, [], lang=lang, colour=True)
    play(coloured, 5)
    plain_out, coloured_out = plain.out, coloured.out  # type: ignore[attr-defined]
    assert not any("\x1b" in line for line in plain_out)
    assert [click.unstyle(line) for line in coloured_out] == plain_out
    assert coloured_out != plain_out


def test_the_own_dice_the_bids_the_losers_and_the_winner_stand_out() -> None:
    rules = Ruleset.build((), {}, "dudo")
    table = seated(rules, [], colour=True)
    play(table, 5)
    out: list[str] = table.out  # type: ignore[attr-defined]
    dice = [line for line in out if line.startswith("Your dice: ")]
    assert dice
    for line in dice:
        assert line == "Your dice: " + click.style(click.unstyle(line)[11:], **OWN_DICE)
    bids = [line for line in out if re.match(rf"({'|'.join([HUMAN, *BOTS])}) bids ", line)]
    assert bids
    for line in bids:
        bid = line.split(" bids ")[1]
        assert bid == click.style(click.unstyle(bid), **BID), line
    so_far = [line for line in out if line.startswith("Bids this round: ")]
    assert so_far
    for line in so_far:
        for said in line.removeprefix("Bids this round: ").split("; "):
            bid = said.split(" ", 1)[1]
            assert bid == click.style(click.unstyle(bid), **BID), line
    rulings = 0
    for line in out:
        ruling = re.fullmatch(r".+ counted; (.+) (loses?) the round", click.unstyle(line))
        if ruling is not None:
            rulings += 1
            loser = click.style(ruling[1], **LOSER)
            assert line.endswith(f"; {loser} {ruling[2]} the round"), line
    assert rulings
    winner = click.unstyle(out[-1]).removesuffix(" won the game!")
    assert out[-1] == click.style(winner, **WINNER) + " won the game!"


def test_each_bot_move_comes_after_its_own_pause() -> None:
    """The bots' moves appear one by one: the pause is asked for before each, never before the
    player's own move, and always for the table's delay."""
    rules = Ruleset.build((), {}, "dudo")
    out: list[str] = []
    table = seated(rules, [], delay=0.6, pause=lambda seconds: out.append(f"<pause {seconds}>"))
    table.write = out.append
    play(table, 5)
    mover = re.compile(rf"({'|'.join([HUMAN, *BOTS])}) (bids|calls:|passes) ")
    moves = [n for n, line in enumerate(out) if mover.match(line)]
    bots = [n for n in moves if not out[n].startswith(HUMAN)]
    assert bots and len(bots) < len(moves)
    assert all(out[n - 1] == "<pause 0.6>" for n in bots)
    assert all(out[n - 1] != "<pause 0.6>" for n in moves if n not in bots)
    assert out.count("<pause 0.6>") == len(bots)


def test_no_pause_without_a_delay() -> None:
    def never(seconds: float) -> None:
        raise AssertionError(f"paused {seconds} s")

    rules = Ruleset.build((), {}, "dudo")
    assert play(seated(rules, [], pause=never), 5)
