"""Liveness: the move limit a ruleset states (``liarsdice_game_limit``, ``Ruleset.move_limit``),
and ``simulate``, ``tournament`` and the CLI stopping a game that passes it instead of hanging."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest

from liarsdice import (
    DiceChanged,
    GameLimit,
    Notice,
    PluginError,
    Ruleset,
    RulesetError,
    StuckGame,
    VariantInfo,
    hookimpl,
    tournament,
)
from liarsdice.bots import make_bot
from liarsdice.cli import EXIT_STUCK, main
from liarsdice.limits import DEFAULT_ROUNDS, MoveLimit, combine
from liarsdice.ruleset import presets
from liarsdice.simulate import play_game, simulate
from liarsdice.testing.plugins import extra_variants


def plugin(name: str, *functions: Any, **info: Any) -> types.ModuleType:
    """A throwaway plugin module holding ``functions`` and a variant-info hook."""
    module = types.ModuleType(name.replace("-", "_"))
    for function in functions:
        setattr(module, function.__name__, function)

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(name.title(), "a throwaway plugin for the liveness tests", **info)

    module.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    return module


def _immortal() -> types.ModuleType:
    @hookimpl
    def liarsdice_settle(state: Any, resolution: Any) -> list[Any]:
        """Whoever would lose their last die gets it back (after dice-loss took it)."""
        return [
            DiceChanged(loser, +1, "spared")
            for loser in resolution.losers
            if state.player(loser).dice == 1
        ]

    return plugin("immortal", liarsdice_settle, after=("dice-loss",))


def _mercy() -> types.ModuleType:
    @hookimpl
    def liarsdice_settle() -> list[Any]:
        return [Notice("mercy", "nothing is lost")]

    return plugin("mercy", liarsdice_settle, economics=True)


IMMORTAL = _immortal()
"""Nobody is ever eliminated: beside dice-loss, a ruleset that cannot finish a game."""
MERCY = _mercy()
"""An economics plugin whose lost rounds cost nothing, and which states no limit."""


@pytest.fixture
def stuck_rules() -> Iterator[Ruleset]:
    with extra_variants({"immortal": IMMORTAL}):
        yield Ruleset.build(["dice-loss", "immortal"])


# --- the limit --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"rounds": 0},
        {"rounds": 1.5},
        {"rounds_factor": 0},
        {"extra_rounds": -1},
        {"extra_turns": -2},
    ],
)
def test_a_game_limit_refuses_what_cannot_bound_a_game(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="GameLimit"):
        GameLimit(**fields)


def test_combine_takes_the_largest_rounds_then_stretches_and_adds_turns() -> None:
    limit = combine(
        3,
        2,
        36,
        [
            ("small", GameLimit(rounds=5, why="five")),
            ("none", None),
            ("big", GameLimit(rounds=17, why="seventeen")),
            ("long", GameLimit(rounds_factor=3, extra_rounds=200, why="may undo")),
            ("talky", GameLimit(extra_turns=3, why="passes")),
        ],
    )
    assert (limit.rounds, limit.turns, limit.moves) == (17 * 3 + 200, 36 + 1 + 3, 251 * 40)
    assert limit.rounds_why == "big 17: seventeen; long x 3 + 200: may undo"
    assert limit.turns_why == "36 bids + the call + talky 3: passes"
    assert str(limit) == (
        "10040 moves for 3 players x 2 dice: 251 rounds [big 17: seventeen; long x 3 + 200: "
        "may undo] x 40 turns [36 bids + the call + talky 3: passes]"
    )


def test_without_a_declared_bound_the_default_rounds_apply() -> None:
    limit = combine(2, 1, 12, [("quiet", None)])
    assert (limit.rounds, limit.turns) == (DEFAULT_ROUNDS, 13)
    assert limit.explain() == (
        f"for 2 players x 1 die: {DEFAULT_ROUNDS} rounds [the default, as no variant states how "
        "many] x 13 turns [12 bids + the call]"
    )


def test_an_answer_that_is_not_a_game_limit_is_a_plugin_error() -> None:
    with pytest.raises(PluginError, match="liar's liarsdice_game_limit returned 12"):
        combine(2, 1, 12, [("liar", 12)])


@pytest.mark.parametrize(
    ("preset", "rounds", "turns"),
    [
        ("dudo", 5 * 3 + 200, 37),  # dice-loss, calza regains a die
        ("perudo", 5, 37),
        ("online", 5, 37),
        ("cheko", 5 * 3 + 200, 37),
        ("casino", 3 * 6 - 1, 37),  # the revolver; calza makes the table pay
    ],
)
def test_each_preset_states_its_move_limit(preset: str, rounds: int, turns: int) -> None:
    limit = Ruleset.build(preset=preset).move_limit(3, 2)
    assert (limit.rounds, limit.turns) == (rounds, turns)
    assert limit.moves == rounds * turns
    assert isinstance(limit, MoveLimit) and limit.table == "3 players x 2 dice"


@pytest.mark.parametrize(
    ("variants", "options", "players", "dice", "rounds"),
    [
        (["dice-loss"], {}, 6, 5, 29),
        (["difference"], {}, 4, 3, 11),
        (["revolver"], {"revolver.chambers": 4, "revolver.initial_bullets": 2}, 3, 5, 3 * 3 - 1),
        (["revolver", "dice-loss"], {}, 2, 5, max(2 * 5 - 1, 2 * 6 - 1)),
    ],
)
def test_each_economics_plugin_states_how_many_rounds_a_game_can_last(
    variants: list[str], options: dict[str, Any], players: int, dice: int, rounds: int
) -> None:
    limit = Ruleset.build(variants, options).move_limit(players, dice)
    assert limit.rounds == rounds
    assert limit.turns == 6 * players * dice + 1


def test_a_plugin_declares_its_game_limit_through_the_hook() -> None:
    @hookimpl
    def liarsdice_game_limit(players: int, dice_per_player: int, options: Any) -> GameLimit:
        return GameLimit(
            rounds=options["slow.per_die"] * players * dice_per_player,
            extra_turns=2,
            why="it takes two losses to lose a die",
        )

    @hookimpl
    def liarsdice_register_options(options: Any) -> None:
        options.add("per_die", 2, "losses per die")

    slow = plugin("slow", liarsdice_game_limit, liarsdice_register_options, economics=True)
    with extra_variants({"slow": slow}):
        limit = Ruleset.build(["slow"], {"slow.per_die": 3}).move_limit(2, 2)
    assert (limit.rounds, limit.turns) == (12, 24 + 1 + 2)
    assert "slow: it takes two losses to lose a die" in limit.rounds_why
    assert "slow 2: it takes two losses to lose a die" in limit.turns_why


def test_a_game_limit_wrapper_is_refused_when_the_plugin_loads() -> None:
    @hookimpl(wrapper=True)
    def liarsdice_game_limit() -> Any:
        return (yield)

    wrapping = plugin("wrapping", liarsdice_game_limit)
    refused = pytest.raises(PluginError, match="liarsdice_game_limit is a wrapper")
    with extra_variants({"wrapping": wrapping}), refused:
        Ruleset.build(["dice-loss", "wrapping"])


def test_move_limit_wants_a_table() -> None:
    with pytest.raises(ValueError, match="no table"):
        Ruleset.build(["dice-loss"]).move_limit(0, 5)


# --- stopping a stuck game ---------------------------------------------------------------------


def test_simulate_stops_a_game_that_passes_the_limit(stuck_rules: Ruleset) -> None:
    with pytest.raises(StuckGame) as raised:
        simulate(stuck_rules, 2, 50, 7, dice_per_player=1)
    stuck = raised.value
    assert isinstance(stuck, RulesetError)
    assert stuck.limit == stuck_rules.move_limit(2, 1) and stuck.limit.moves == 13
    assert stuck.where == "game 1 of 50, seed 7"
    assert str(stuck) == (
        "stuck ruleset: in game 1 of 50, seed 7, Ruleset(['dice-loss', 'immortal'], {}) found no "
        "winner after 13 moves, the most it allows for 2 players x 1 die: 1 round [dice-loss: a "
        "lost round costs a die, 2 dice - 1] x 13 turns [12 bids + the call]"
    )


def test_play_game_stops_at_the_limit_even_without_declared_rounds() -> None:
    with extra_variants({"mercy": MERCY}):
        rules = Ruleset.build(["mercy"])
        with pytest.raises(StuckGame, match=f"{DEFAULT_ROUNDS} rounds \\[the default"):
            play_game(rules, ["a", "b"], Random(0), dice_per_player=1)


def test_a_stuck_game_error_survives_pickling(stuck_rules: Ruleset) -> None:
    error = StuckGame(repr(stuck_rules), stuck_rules.move_limit(2, 1), "game 2 of 9, seed 1")
    back = pickle.loads(pickle.dumps(error))
    assert (str(back), back.limit, back.where) == (str(error), error.limit, error.where)


def test_a_tournament_reports_a_stuck_ruleset(stuck_rules: Ruleset) -> None:
    with pytest.raises(StuckGame, match=r"in game 1 of 5, seed 3, .* after 75 moves"):
        tournament.run(stuck_rules, ["odds", "random"], 5, 3, dice_per_player=2)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--players", "3", "--dice", "1", "--games", "10"],
        ["tournament", "--bots", "random,odds", "--dice", "2", "--games", "10"],
    ],
)
def test_the_cli_exits_2_with_one_line_for_a_stuck_ruleset(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with extra_variants({"immortal": IMMORTAL}), pytest.raises(SystemExit) as done:
        main([*args, "-v", "dice-loss", "-v", "immortal"])
    assert done.value.code == EXIT_STUCK == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("liarsdice: stuck ruleset: in game 1 of 10, seed 0, Ruleset(")
    assert "found no winner after" in err and "[dice-loss: a lost round costs a die" in err


def test_liarsdice_simulate_never_hangs_on_a_ruleset_that_cannot_finish() -> None:
    """The reported case, in a process of its own under a timeout: a variant that prevents
    elimination, --dice 1."""
    script = textwrap.dedent(
        """
        import sys, types
        from liarsdice import DiceChanged, VariantInfo, hookimpl
        from liarsdice.cli import main
        from liarsdice.testing.plugins import extra_variants

        immortal = types.ModuleType("immortal")
        immortal.liarsdice_variant_info = hookimpl(
            lambda: VariantInfo("Immortal", "nobody is eliminated", after=("dice-loss",))
        )
        immortal.liarsdice_settle = hookimpl(
            lambda state, resolution: [
                DiceChanged(p, +1, "spared") for p in resolution.losers if state.player(p).dice == 1
            ]
        )
        with extra_variants({"immortal": immortal}):
            main(sys.argv[1:])
        """
    )
    args = ["simulate", "-v", "dice-loss", "-v", "immortal", "--dice", "1", "--games", "100"]
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("liarsdice: stuck ruleset: in game 1 of 100, seed 0, ")
    assert "6 players x 1 die" in done.stderr


# --- the declared limits hold ------------------------------------------------------------------


TABLES = [(2, 1), (3, 2), (4, 3), (6, 5)]


@pytest.mark.parametrize("preset", sorted(presets()))
def test_every_preset_finishes_its_random_games_within_the_limit(
    preset: str, rules_of_preset: Callable[[str], Ruleset]
) -> None:
    """Seeded random games at each table size (the preset's rules, at sizes its document may not
    allow): ``play_game`` raises StuckGame past the limit."""
    rules = rules_of_preset(preset)
    for players, dice in TABLES:
        limit = rules.move_limit(players, dice)
        rng = Random(f"{preset}-{players}x{dice}")
        games = 200 if players * dice <= 12 else 60
        longest = max(
            play_game(rules, [f"p{i}" for i in range(players)], rng, dice_per_player=dice).actions
            for _ in range(games)
        )
        assert longest <= limit.moves, (preset, players, dice, longest, str(limit))


@pytest.mark.parametrize(
    ("variants", "options"),
    [
        (["dice-loss"], {}),
        (["difference"], {"difference.cap": 1}),
        (["revolver"], {"revolver.initial_bullets": 6}),
        (["revolver"], {}),
        (["revolver", "calza"], {}),
        (["dice-loss", "calza", "pass"], {"standard.wild_ones": False}),
    ],
)
def test_each_economics_plugins_limit_holds_for_bots(
    variants: list[str], options: dict[str, Any]
) -> None:
    """Bots play differently from the random policy (bayes calls exact when it pays)."""
    rules = Ruleset.build(variants, options)
    for dice in (1, 2):
        limit = rules.move_limit(3, dice)
        rng = Random(dice)
        for game in range(20):
            seating = [
                (f"{seat}:{kind}", make_bot(kind, rules, Random(game * 3 + seat)))
                for seat, kind in enumerate(["bayes", "odds", "random"])
            ]
            _, state = tournament.play_game(rules, seating, rng, dice_per_player=dice)
            assert state.round is not None and state.round.number <= limit.rounds
