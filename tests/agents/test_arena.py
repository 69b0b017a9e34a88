"""The text arena: typed moves that survive format-then-parse, agents typing a bot's moves
replaying its tournament game, refusals, retries and forfeits, the tool schema, TextArena's
registry and ``liarsdice arena`` with an agent program."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from random import Random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liarsdice import Ruleset, tournament
from liarsdice.arena import (
    ArenaTable,
    BadMove,
    Wait,
    format_move,
    from_tool_call,
    ids,
    make,
    parse_move,
    tool_schema,
)
from liarsdice.bots import make_bot
from liarsdice.cli import cli
from liarsdice.discovery import presets
from liarsdice.models import Bid, BidAction, CallAction

TABLES = {  # each preset's rules, and variants whose moves carry payloads or come out of turn
    **{name: {"preset": name} for name in sorted(presets())},
    "bluff": {"variants": ["bluff", "dice-loss"]},
    "pass": {"variants": ["pass", "dice-loss"]},
    "calza-anyone": {"variants": ["calza", "dice-loss"], "options": {"calza.anyone": True}},
}


@pytest.mark.parametrize("table", sorted(TABLES))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_survives_format_then_parse(table: str, seed: int) -> None:
    dice = 5 if "preset" in TABLES[table] else 3  # the presets' documents allow five
    arena = ArenaTable(**TABLES[table], dice=dice)  # type: ignore[arg-type]
    arena.reset(3, seed)
    pick = Random(seed)
    while not arena.done:
        player, moves = arena.decider, arena.legal()
        for move in moves:
            assert parse_move(arena.rules, player, format_move(move)) == move
        arena.play(pick.choice(moves))


def test_typed_moves_read_as_the_docs_say() -> None:
    rules = Ruleset.build(["calza", "dice-loss"])
    read = parse_move
    assert read(rules, "A", "I think... [bid: 3 , 5]") == BidAction("A", Bid(3, 5))
    assert read(rules, "A", "[Bid: 2, 4] no wait, [Challenge]") == CallAction("A", "challenge")
    assert read(rules, "A", "[EXACT]") == CallAction("A", "exact")
    assert read(rules, "A", "[Wait]") == Wait("A")
    with pytest.raises(BadMove, match="no move found"):
        read(rules, "A", "challenge!")
    with pytest.raises(BadMove, match=r"'\[Pass\]' is not a move here.*\[Challenge\], \[Exact\]"):
        read(rules, "A", "[Pass]")
    with pytest.raises(BadMove, match="a bid is"):
        read(rules, "A", "[Bid]")


@pytest.mark.parametrize(
    ("table", "seed"),
    [("dudo", 1), ("perudo", 2), ("casino", 3), ("calza-anyone", 4), ("cheko", 5)],
)
def test_an_agent_typing_a_bots_moves_replays_its_tournament_game(table: str, seed: int) -> None:
    """Dice from Random(seed), bot i from Random(seed + i): the same winners and final state as
    tournament.play_game, calls out of turn included."""
    arena = ArenaTable(**TABLES[table], dice=5)  # type: ignore[arg-type]
    names = ["Ann", "Ben", "Cid"]

    def bots() -> dict[str, object]:
        return {n: make_bot("odds", arena.rules, Random(seed + i)) for i, n in enumerate(names)}

    expected = bots()
    winners, final = tournament.play_game(
        arena.rules,
        list(expected.items()),
        Random(seed),
        dice_per_player=5,  # type: ignore[arg-type]
    )
    typing_agents = bots()
    arena.reset(3, seed, names)
    while not arena.done:
        _, info = arena.step(format_move(arena.bot_move(typing_agents[arena.decider])))  # type: ignore[arg-type]
        assert "refused" not in info
    assert arena.state == final
    assert arena.close()[1]["winners"] == sorted(winners)


def test_a_refused_move_changes_nothing_then_the_forfeit_is_played() -> None:
    arena = ArenaTable(preset="dudo", retries=1, forfeit="first")
    arena.reset(2, seed=7)
    before, player = arena.state, arena.decider
    done, info = arena.step("[Bid: 1, 9]")
    assert not done and "there is no face 9" in info["refused"]
    assert arena.state == before and arena.decider == player
    assert "Your last move was refused" in arena.get_observation()[1]
    first = arena.legal()[0]
    done, info = arena.step("nothing")
    assert info["forfeit"] == format_move(first)
    assert arena.state.round is not None and arena.state.round.bids[-1].bid == first.bid  # type: ignore[union-attr]


def test_the_prompt_is_the_rules_the_view_and_the_moves_in_the_players_language() -> None:
    arena = ArenaTable(preset="perudo", lang="uk")
    arena.reset(2, seed=3)
    player_id, prompt = arena.get_observation()
    player = arena.names[player_id]
    dice = " ".join(map(str, sorted(arena.state.round.rolls[player])))  # type: ignore[union-attr]
    assert arena.rules.describe("uk") in prompt
    assert f"Ваші кубики: {dice}" in prompt
    moves = next(line for line in prompt.splitlines() if line.startswith("Ваші ходи:"))
    assert "[Bid: 1, 2]" in moves and "[Challenge]" not in moves  # nothing to challenge yet
    assert prompt.startswith(f"Ви — {player}. Гравців за столом: 2.")


def test_the_tool_schema_names_every_move_and_its_calls_read_back() -> None:
    rules = Ruleset.build(["calza", "dice-loss"])
    names = [tool["function"]["name"] for tool in tool_schema(rules)]
    assert names == ["bid", "challenge", "exact", "wait"]
    assert parse_move(rules, "A", from_tool_call("bid", '{"quantity": 4, "face": 2}')) == (
        BidAction("A", Bid(4, 2))
    )
    assert parse_move(rules, "A", from_tool_call("exact", {})) == CallAction("A", "exact")


def test_an_id_per_preset_and_an_unknown_one_is_refused() -> None:
    assert ids()["LiarsDice-perudo-v0"] == "perudo"
    assert make("LiarsDice-dudo-v0").rules.preset.name == "dudo"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="unknown arena 'LiarsDice-nope-v0'"):
        make("LiarsDice-nope-v0")


def test_textarena_makes_the_registered_ids() -> None:
    if not os.environ.get("CI"):
        pytest.importorskip("textarena", reason="TextArena is in the dev group")
    import textarena

    from liarsdice import arena

    arena.register()
    table = textarena.make("LiarsDice-casino-v0")
    table.reset(num_players=2, seed=1)
    player_id, prompt = table.get_observation()
    assert player_id in (0, 1) and "[Bid:" in prompt
    assert table.step("[Bid: 1, 2]") == (False, {"player": player_id, "move": "[Bid: 1, 2]"})


AGENT = """
import json, sys
for line in sys.stdin:
    question = json.loads(line)
    print(json.dumps({"move": question["moves"][0]}), flush=True)
"""


def test_liarsdice_arena_plays_an_agent_program_against_bots(tmp_path: Path) -> None:
    """The program (seat 0) types the first legal move it is sent; the bots play the rest."""
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT, encoding="utf-8")
    command = f"{sys.executable} {agent}"
    result = CliRunner().invoke(
        cli,
        [
            "arena",
            "--preset",
            "dudo",
            "--players",
            "3",
            "--bots",
            "random",
            "--seed",
            "5",
            "--program",
            command,
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["seed"] == 5 and summary["reason"] == "won"
    assert sorted(summary["rewards"].values()) == [-0.5, -0.5, 1.0]
