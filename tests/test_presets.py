"""Presets follow their documents: seed 004's perudo, the boxed perudo, and the table sizes the
seeds give (000 "a full table of six", 001 and 003 "two to six players", 004 "2-6 players", each
with five dice; 002, cheko, sets no bounds)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis.errors import InvalidArgument

from liarsdice import Game, IllegalAction, Ruleset, hookimpl, tournament
from liarsdice.cli import EXIT_BAD_INPUT, main
from liarsdice.engine import count_matching
from liarsdice.errors import BadTableSize, PluginError
from liarsdice.presets import TableSize
from liarsdice.ruleset import broken_presets, presets
from liarsdice.simulate import simulate
from liarsdice.testing import strategies as lst

SEED_TABLES = ["casino", "online", "dudo", "perudo", "perudo-box"]
"""The presets whose documents give 2 to 6 players with 5 dice each."""


def bad(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line ``liarsdice argv`` prints on stderr as it exits with status 2."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1, captured.err
    return captured.err.strip()


# --- perudo as seed 004 writes it ---------------------------------------------------------------


def perudo_game(players: int = 4) -> Game:
    names = ["Ana", "Ben", "Cleo", "Dan"][:players]
    return Game(Ruleset.build(preset="perudo"), names, Random(0), first_opener="Ana")


def test_perudo_is_the_aces_switch_and_dice_loss_without_palifico() -> None:
    rules = Ruleset.build(preset="perudo")
    assert rules.names == ("standard", "aces-switch", "dice-loss")
    assert rules.options["aces-switch.back"] == "double-plus-one"
    assert rules.options["aces-switch.open_on_ones"] is True
    assert "## Palifico" not in rules.describe()
    assert rules.preset is not None and rules.preset.source == "seed 004"


def test_perudo_may_open_on_ones() -> None:
    # 004: a bid is «шесть пятёрок», «три единицы»...; nothing forbids opening on ones.
    game = perudo_game()
    game.start_round()
    game.bid("Ana", 2, 1)
    assert game.state.round is not None and game.state.round.bids[-1].bid.face == 1


def test_perudo_switches_in_at_half_rounded_up_and_out_at_double_plus_one() -> None:
    game = perudo_game()
    game.start_round()
    game.bid("Ana", 6, 5)
    with pytest.raises(IllegalAction, match="2 ones does not raise 6 fives"):
        game.bid("Ben", 2, 1)
    game.bid("Ben", 3, 1)  # 004: after «6 пятёрок», at least «3 единицы»
    with pytest.raises(IllegalAction, match="6 sixes does not raise 3 ones"):
        game.bid("Cleo", 6, 6)
    game.bid("Cleo", 7, 2)  # 004: after «3 единицы», at least «7 двоек»


def test_perudo_keeps_ones_wild_at_one_die() -> None:
    # 004 has no palifico: ones are wild for any face but one, at every table size.
    rules = Ruleset.build(preset="perudo")
    game = Game(rules, ["Ana", "Ben"], Random(0), first_opener="Ana")
    game.start_round({"Ana": [2] * 5, "Ben": [2] * 5})
    game.bid("Ana", 1, 2)
    game.call("Ben")  # a true bid: Ben loses a die and opens
    for _ in range(3):
        game.start_round({"Ana": [2] * 5, "Ben": [2] * game.state.player("Ben").dice})
        game.bid("Ben", 2, 6)
        game.call("Ana")  # no six, no one: Ben loses a die and opens again
    assert game.state.player("Ben").dice == 1 and game.state.next_opener == "Ben"
    game.start_round({"Ana": [5, 5, 1, 2, 3], "Ben": [1]})
    assert rules.wild_faces(game.state) == frozenset({1})
    assert count_matching(rules, game.state, 5) == 4  # two fives and two wild ones
    game.bid("Ben", 4, 5)
    game.bid("Ana", 4, 6)  # and the face may change: no palifico round


def test_the_boxed_rules_are_their_own_preset_and_not_a_seed() -> None:
    rules = Ruleset.build(preset="perudo-box")
    assert rules.names == ("standard", "aces-switch", "dice-loss", "palifico")
    assert rules.options["aces-switch.open_on_ones"] is False
    assert rules.preset is not None
    assert rules.preset.source.startswith("not a seed")
    assert "## Palifico" in rules.describe()
    game = Game(rules, ["Ana", "Ben"], Random(0))
    game.start_round()
    with pytest.raises(IllegalAction, match="a round may not open on ones"):
        game.bid("Ana", 2, 1)


# --- table sizes --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", SEED_TABLES)
def test_a_seed_preset_is_for_two_to_six_players_with_five_dice(preset: str) -> None:
    rules = Ruleset.build(preset=preset)
    assert rules.preset is not None and rules.preset.size == TableSize((2, 6), (5, 5))
    for players in (2, 6):
        rules.check_table(players, 5)
    with pytest.raises(BadTableSize, match=f"the {preset} preset is for 2 to 6 players, not 7"):
        rules.check_table(7, 5)
    for dice in (4, 6):
        with pytest.raises(BadTableSize, match=f"the {preset} preset is for 5 dice each, not"):
            rules.check_table(3, dice)
    with pytest.raises(BadTableSize, match=r"at most 30 dice in play \(6 x 5\), not 31"):
        rules.check_table(dice_in_play=31)
    rules.check_table(dice_in_play=30, hand=5)


def test_cheko_and_a_combination_without_a_preset_take_any_table() -> None:
    cheko = Ruleset.build(preset="cheko")  # 002: five players usually; try more or fewer
    assert cheko.preset is not None and cheko.preset.size.describe() is None
    cheko.check_table(9, 7, dice_in_play=63, hand=7)
    Ruleset.build(["aces-switch", "dice-loss"]).check_table(7, 8, dice_in_play=56, hand=8)
    Game(cheko, [f"p{i}" for i in range(8)], Random(0), dice_per_player=7)


def test_every_way_into_a_game_refuses_a_table_the_preset_does_not_take() -> None:
    with pytest.raises(BadTableSize, match="the perudo preset is for 2 to 6 players, not 7"):
        Ruleset.build(preset="perudo", players=7)
    with pytest.raises(BadTableSize, match="the dudo preset is for 5 dice each, not 3"):
        Ruleset.build(preset="dudo", players=4, dice_per_player=3)
    rules = Ruleset.build(preset="perudo")
    with pytest.raises(BadTableSize, match="not 7"):
        Game(rules, [f"p{i}" for i in range(7)], Random(0))
    with pytest.raises(BadTableSize, match="not 7"):
        simulate(rules, 7, 2, 0)
    with pytest.raises(BadTableSize, match="5 dice each, not 2"):
        tournament.run(rules, ["random", "random"], 2, 0, dice_per_player=2)


def test_the_cli_refuses_a_table_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    line = bad(capsys, ["simulate", "-p", "perudo", "--players", "7", "--games", "2"])
    assert line == "liarsdice: the perudo preset is for 2 to 6 players, not 7"
    line = bad(capsys, ["tournament", "-p", "casino", "--bots", "random*2", "--dice", "3"])
    assert line == "liarsdice: the casino preset is for 5 dice each, not 3"
    line = bad(capsys, ["odds", "-p", "online", "-n", "31"])
    assert "--dice-in-play" in line and "online preset is for at most 30 dice in play" in line
    line = bad(capsys, ["odds", "-p", "online", "-n", "20", "--hand", "1,2,3,4,5,6"])
    assert "--hand" in line and "the online preset is for 5 dice each, not a hand of 6" in line
    scenario = {"preset": "dudo", "players": [f"p{i}" for i in range(7)], "rounds": []}
    path = tmp_path / "seven.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    line = bad(capsys, ["adjudicate", str(path)])
    assert line == "liarsdice: the dudo preset is for 2 to 6 players, not 7"


def test_presets_and_rules_pages_say_the_table() -> None:
    intro = Ruleset.build(preset="perudo").describe().splitlines()[2]
    assert intro.endswith("the loser opens. Table: 2 to 6 players, 5 dice each.")
    assert "Table:" not in Ruleset.build(preset="cheko").describe().splitlines()[2]
    uk = Ruleset.build(preset="perudo").describe("uk").splitlines()[2]
    assert uk.endswith("Стіл: від 2 до 6 гравців, по 5 кубиків у кожного.")
    ru = Ruleset.build(preset="dudo").describe("ru").splitlines()[2]
    assert ru.endswith("Стол: от 2 до 6 игроков, по 5 кубиков у каждого.")


def test_the_presets_command_shows_each_table(capsys: pytest.CaptureFixture[str]) -> None:
    main(["presets"])
    out = capsys.readouterr().out
    assert out.count("table: 2 to 6 players, 5 dice each") == len(SEED_TABLES)
    cheko = out[out.index("cheko") : out.index("dudo")]
    assert "table:" not in cheko


@pytest.mark.parametrize(
    ("size", "english", "fit"),
    [
        (TableSize(), None, (2, 9)),
        (TableSize((3, None)), "at least 3 players", (3, 9)),
        (TableSize((4, 4), (1, 3)), "4 players, 1 to 3 dice each", (4, 3)),
        (TableSize(dice=(1, 1)), "1 die each", (2, 1)),
        (TableSize(dice=(2, None)), "at least 2 dice each", (2, 9)),
    ],
)
def test_a_table_size_reads_as_players_read_it_and_fits_a_table(
    size: TableSize, english: str | None, fit: tuple[int, int]
) -> None:
    described = size.describe()
    assert (None if described is None else str(described)) == english
    assert size.fit(1, 9) == fit


def preset_plugin(plugin_factory: Callable[..., Any], **bounds: Any) -> Any:
    """A plugin registering the preset "pub" (dice loss) for the tables ``bounds`` give."""

    @hookimpl
    def liarsdice_register_presets(presets: Any) -> None:
        presets.add(
            "pub",
            title="Pub",
            source="our pub",
            summary="Dice loss.",
            variants=("dice-loss",),
            **bounds,
        )

    return plugin_factory("pub-presets", liarsdice_register_presets)


@pytest.mark.parametrize("bounds", [(6, 2), (1, 4), (2,), ("2", 6), (True, 6), 6, None])
def test_bounds_that_are_not_bounds_leave_that_preset_out_naming_it(
    install_plugins: Callable[[dict[str, Any]], None],
    plugin_factory: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
    bounds: Any,
) -> None:
    install_plugins({"pub-presets": preset_plugin(plugin_factory, players=bounds)})
    assert "pub" not in presets() and "perudo" in presets()  # the others are not broken
    error = broken_presets()["pub"]
    assert isinstance(error, PluginError) and error.plugin == "pub-presets"
    assert re.search(
        r"^variant pub-presets \(fake-dist\): preset 'pub': players=.* is not "
        r"\(low, high\)",
        str(error),
    )
    with pytest.raises(PluginError, match="preset 'pub': players="):
        Ruleset.build(preset="pub")
    Ruleset.build(preset="perudo")
    main(["presets"])
    out, err = capsys.readouterr()
    assert "perudo" in out and "pub" not in out
    assert err.startswith("pub") and "(broken: variant pub-presets (fake-dist): preset 'pub'" in err


def test_a_preset_registered_twice_or_a_registration_that_raises_is_left_out(
    install_plugins: Callable[[dict[str, Any]], None], plugin_factory: Callable[..., Any]
) -> None:
    @hookimpl
    def liarsdice_register_presets(presets: Any) -> None:
        raise KeyError("oops")

    install_plugins(
        {
            "another-pub": preset_plugin(plugin_factory, players=(2, 4)),
            "pub-presets": preset_plugin(plugin_factory, players=(3, 6)),
            "raiser": plugin_factory("raiser", liarsdice_register_presets),
        }
    )
    assert presets()["pub"].size.players == (2, 4)  # the first to register it keeps it
    assert "registered twice" in str(broken_presets()["pub"])
    raised = broken_presets()["raiser"]
    assert str(raised).endswith("liarsdice_register_presets raised KeyError: 'oops'")
    assert raised.hook == "liarsdice_register_presets"
    assert Ruleset.build(preset="pub").preset == presets()["pub"]


def test_a_third_party_preset_declares_its_table(
    install_plugins: Callable[[dict[str, Any]], None], plugin_factory: Callable[..., Any]
) -> None:
    install_plugins({"pub-presets": preset_plugin(plugin_factory, players=[6, 10], dice=(3, 3))})
    assert broken_presets() == {}
    rules = Ruleset.build(preset="pub")
    assert rules.preset is not None and str(rules.preset.size.describe()) == (
        "6 to 10 players, 3 dice each"
    )
    Game(rules, [f"p{i}" for i in range(10)], Random(0), dice_per_player=3)
    with pytest.raises(BadTableSize, match="the pub preset is for 6 to 10 players, not 4"):
        Game(rules, [f"p{i}" for i in range(4)], Random(0), dice_per_player=3)


# --- the rule-law kit plays a preset at the tables it takes ----------------------------------------


@settings(max_examples=15, deadline=None)
@given(lst.games(Ruleset.build(preset="perudo"), max_moves=4))
def test_the_kit_plays_a_preset_inside_its_table(game: Any) -> None:
    start = game.steps[0]
    assert start.error is None, start
    assert 2 <= len(start.action.players) <= 4 and start.action.dice_per_player == 5


@settings(max_examples=5, deadline=None)
@given(lst.games(Ruleset.build(preset="perudo"), table=lst.tables(2, 3, 1, 2), max_moves=4))
def _tables_outside_perudo(game: Any) -> None:
    raise AssertionError("never played: the tables are outside the preset")


def test_the_kit_says_when_a_given_table_is_outside_the_preset() -> None:
    with pytest.raises(InvalidArgument, match=r"the perudo preset is for 5 dice each, not \d"):
        _tables_outside_perudo()
