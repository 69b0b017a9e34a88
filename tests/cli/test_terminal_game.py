"""liarsdice.cli.terminal_game: the loop of ``liarsdice play``, in process, under many rulesets."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import legality
from liarsdice.bots import make_bot
from liarsdice.cli.terminal_game import Quit, Table, play
from liarsdice.game import Game
from liarsdice.models import Bid, BidAction
from liarsdice.ruleset import Ruleset
from liarsdice.ruleset import presets as installed_presets

HUMAN = "Player"
BOTS = ("Iris", "Knox", "Lena")


def seated(rules: Ruleset, lines: list[str], seed: int = 3, players: int = 4) -> Table:
    """A table whose player answers each prompt with the lowest legal bid on an empty table and
    a challenge otherwise (or the next of ``lines`` while there are any)."""
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

    table = Table(rules, game, HUMAN, bots, "en", read, out.append)
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
