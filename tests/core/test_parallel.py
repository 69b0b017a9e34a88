"""liarsdice.parallel: the same simulations and tournaments on 1, 2 or 4 processes or on Dask, and
the ruleset data that carries a ruleset to them."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import sys
import types
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

from liarsdice import DiceChanged, Ruleset, VariantInfo, hookimpl, parallel, tournament
from liarsdice.cli import cli
from liarsdice.errors import UnknownVariant
from liarsdice.limits import StuckGame
from liarsdice.simulate import simulate
from liarsdice.testing.plugins import extra_variants

distributed = pytest.importorskip("distributed")

TIMINGS = {"seconds", "games_per_second", "mean_ms", "median_ms", "full_table_median_ms"}


def without_timings(report: Any) -> Any:
    """``report`` as plain data, without the fields that measure time."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMINGS}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    return strip(attrs.asdict(report) if attrs.has(type(report)) else report)


@pytest.fixture(scope="module")
def dask_address() -> Iterator[str]:
    """A two-process Dask cluster on this machine, for the tests of this module."""
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


# --- the ruleset as data ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "variants", "options"),
    [
        ("dudo", [], {}),
        ("casino", [], {}),
        ("cheko", [], {}),
        ("perudo", [], {}),
        ("online", [], {}),
        ("casino", [], {"calza.reward": "regain-die"}),  # back to the declared default
        ("dudo", ["wild-sixes"], {}),
        (None, ["dice-loss"], {"standard.wild_ones": "false"}),
        (None, ["dice-loss", "wild-sixes"], {}),  # wild-sixes turns wild ones off by default
        (None, ["dice-loss", "wild-sixes"], {"standard.wild_ones": "false"}),
        (None, ["revolver"], {"revolver.chambers": "8", "revolver.initial_bullets": 2}),
    ],
)
def test_a_ruleset_travels_as_data(
    preset: str | None, variants: list[str], options: dict[str, Any]
) -> None:
    rules = Ruleset.build(variants, options, preset)
    data = json.loads(json.dumps(rules.to_data()))
    back = Ruleset.from_data(data)
    assert repr(back) == repr(rules)
    assert back.options == rules.options and back.defaults == rules.defaults
    assert back.move_limit(4, 3) == rules.move_limit(4, 3)
    assert back.to_data() == rules.to_data()


def test_ruleset_data_names_the_variants_the_preset_and_the_options_set() -> None:
    rules = Ruleset.build(["wild-sixes"], {"calza.window": "half"}, "dudo")
    assert rules.to_data() == {
        "variants": ["calza", "dice-loss", "wild-sixes"],
        "preset": "dudo",
        "options": {"calza.reward": "regain-die", "calza.window": "half"},
    }


def test_ruleset_data_with_a_variant_not_installed_here_names_it() -> None:
    data = {**Ruleset.build(["dice-loss"]).to_data(), "variants": ["dice-loss", "no-such-rule"]}
    with pytest.raises(UnknownVariant, match="unknown variant 'no-such-rule'"):
        Ruleset.from_data(data)


# --- the backends -------------------------------------------------------------------------------


def test_game_seeds_depend_on_the_seed_and_the_game_only() -> None:
    seeds = {parallel.game_seed(seed, game) for seed in range(10) for game in range(100)}
    assert len(seeds) == 1000
    assert parallel.game_seed(3, 7) == parallel.game_seed(3, 7) < 2**64
    assert parallel.game_seed(3, 7, 0) != parallel.game_seed(3, 7)


def test_chunks_cover_the_games_in_order() -> None:
    assert parallel._chunks(10, 2) == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    chunks = parallel._chunks(10_000, 2)
    assert chunks[0] == (0, parallel.CHUNK) and chunks[-1][1] == 10_000
    assert all(stop == start for (_, stop), (start, _) in itertools.pairwise(chunks))


def test_a_worker_builds_the_ruleset_once() -> None:
    data = json.dumps(Ruleset.build(preset="dudo").to_data(), sort_keys=True)
    parallel._rebuilt.cache_clear()
    first = parallel._play_chunk(data, game_number, 0, 3)
    second = parallel._play_chunk(data, game_number, 3, 5)
    assert first + second == [0, 1, 2, 3, 4]
    assert parallel._rebuilt.cache_info().misses == 1


def game_number(rules: Ruleset, game: int) -> int:
    return game


@pytest.mark.parametrize("workers", [2, 4])
def test_simulate_gives_the_same_report_on_any_number_of_processes(workers: int) -> None:
    rules = Ruleset.build(preset="cheko")  # a preset for any table (cheko's seed has no bounds)
    alone = simulate(rules, 4, 30, 11, dice_per_player=2)
    ticks: list[int] = []
    pooled = simulate(rules, 4, 30, 11, dice_per_player=2, workers=workers, progress=ticks.append)
    assert without_timings(pooled) == without_timings(alone)
    assert sum(ticks) == 30 and len(ticks) > 1


@pytest.mark.parametrize("workers", [2, 4])
def test_a_tournament_gives_the_same_results_on_any_number_of_processes(workers: int) -> None:
    rules = Ruleset.build(preset="cheko")
    kinds = ["bayes", "odds", "random"]
    alone = tournament.run(rules, kinds, 9, 5, dice_per_player=2)
    pooled = tournament.run(rules, kinds, 9, 5, dice_per_player=2, workers=workers)
    assert without_timings(pooled) == without_timings(alone)


def test_simulate_and_tournament_on_a_dask_cluster(dask_address: str) -> None:
    rules = Ruleset.build(["pass"], {"calza.window": "always"}, "cheko")
    assert without_timings(
        simulate(rules, 3, 20, 2, dice_per_player=2, dask=dask_address)
    ) == without_timings(simulate(rules, 3, 20, 2, dice_per_player=2))
    kinds = ["odds", "random"]
    assert without_timings(
        tournament.run(rules, kinds, 6, 2, dice_per_player=2, dask=dask_address)
    ) == without_timings(tournament.run(rules, kinds, 6, 2, dice_per_player=2))


def test_a_process_pool_and_dask_exclude_each_other() -> None:
    rules = Ruleset.build(preset="dudo")
    with pytest.raises(ValueError, match="not both"):
        simulate(rules, 2, 4, 0, workers=2, dask="tcp://127.0.0.1:8786")
    with pytest.raises(ValueError, match="at least 1"):
        simulate(rules, 2, 4, 0, workers=0)


@pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork",
    reason="the stuck ruleset's plugin is installed in this process only: workers must fork",
)
def test_a_stuck_game_in_a_worker_is_reported_as_at_home() -> None:
    @hookimpl
    def liarsdice_settle(state: Any, resolution: Any) -> list[Any]:
        """Whoever would lose their last die gets it back: no game ends."""
        return [
            DiceChanged(loser, +1, "spared")
            for loser in resolution.losers
            if state.player(loser).dice == 1
        ]

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo("Immortal", "nobody is eliminated", after=("dice-loss",))

    immortal = types.ModuleType("immortal")
    immortal.liarsdice_settle = liarsdice_settle  # type: ignore[attr-defined]
    immortal.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    with extra_variants({"immortal": immortal}):
        rules = Ruleset.build(["dice-loss", "immortal"])
        with pytest.raises(StuckGame) as raised:
            simulate(rules, 2, 20, 7, dice_per_player=1, workers=2)
    assert raised.value.where == "game 1 of 20, seed 7"


def test_without_distributed_dask_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    with pytest.raises(parallel.BackendError, match=r"pip install 'liarsdice-rules\[dask\]'"):
        simulate(Ruleset.build(preset="dudo"), 2, 4, 0, dask="tcp://127.0.0.1:8786")


# --- the command --------------------------------------------------------------------------------


def run_json(args: list[str]) -> Any:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_workers_give_the_same_reports() -> None:
    args = ["simulate", "-p", "cheko", "--players", "3", "--dice", "2", "--games", "20"]
    assert without_timings(run_json([*args, "--workers", "2"])) == without_timings(run_json(args))
    args = ["tournament", "-p", "cheko", "--bots", "odds,random", "--dice", "2", "--games", "6"]
    assert without_timings(run_json([*args, "--workers", "2"])) == without_timings(run_json(args))


def test_cli_dask_runs_the_games_on_the_cluster(dask_address: str) -> None:
    args = ["simulate", "-p", "cheko", "--players", "3", "--dice", "2", "--games", "20"]
    assert without_timings(run_json([*args, "--dask", dask_address])) == without_timings(
        run_json(args)
    )


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_cli_refuses_dask_with_workers_and_no_workers(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--dask", "tcp://127.0.0.1:8786", "--workers", "2"])
    assert result.exit_code == 2 and "--dask and --workers exclude each other" in result.output
    result = CliRunner().invoke(cli, [command, "--workers", "0"])
    assert result.exit_code == 2 and "'--workers': 0 is not in the range" in result.output


def test_cli_without_distributed_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    result = CliRunner().invoke(
        cli, ["simulate", "-p", "dudo", "--games", "2", "--dask", "tcp://127.0.0.1:1"]
    )
    assert result.exit_code == 1
    assert "pip install 'liarsdice-rules[dask]'" in result.output
