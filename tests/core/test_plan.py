"""The engine's step plan (:mod:`liarsdice.plan`): a step no plugin hooks takes its fused path,
and the same games played down the fused and the generic paths give the same events."""

from __future__ import annotations

from collections.abc import Callable, Generator

import attrs
import pytest

from liarsdice import Ruleset, hookimpl
from liarsdice.events import Event
from liarsdice.models import GameState, Resolution
from liarsdice.plan import StepPlan
from liarsdice.serialization import dumps
from liarsdice.testing import RandomChooser, play_game

from ..laws.test_mutations import broken as broken  # the fixture

ALL = StepPlan(challenge=True, timeout=True, winners=True, opener=True, turn=True)
FUSED_WHERE_NOBODY_HOOKS = {
    ("dice-loss",): ALL,
    ("dice-loss", "ones-locking"): ALL,  # it hooks the bids and the counting, not the ruling
    ("revolver",): ALL,  # its pull is in the settlement
    ("difference",): ALL,
    ("calza", "dice-loss"): attrs.evolve(ALL, challenge=False),  # it rules on its exact call
    ("dice-loss", "pass"): attrs.evolve(ALL, challenge=False),  # and this on a doubted pass
    ("dice-loss", "winner-opens"): attrs.evolve(ALL, opener=False),
    ("dice-loss", "palifico", "roll-off"): attrs.evolve(ALL, opener=False),
    ("dice-loss", "teams"): attrs.evolve(ALL, winners=False),  # the last team standing
}


@pytest.mark.parametrize(
    ("variants", "expected"), FUSED_WHERE_NOBODY_HOOKS.items(), ids=lambda v: str(v)
)
def test_a_step_is_fused_where_no_plugin_but_the_baseline_hooks_it(
    variants: tuple[str, ...], expected: StepPlan
) -> None:
    assert Ruleset.build(list(variants)).plan == expected


def test_nothing_is_fused_when_the_baseline_is_not_the_core_s_own() -> None:
    # An entry point named "standard" may load another module: its rules are not ours to fuse.
    rules = Ruleset.build(["dice-loss"])
    assert StepPlan.of(rules.hooks, object()) == StepPlan.generic()


def events_of(rules: Ruleset, seed: int) -> list[str]:
    """The events of one seeded game of ``rules`` (bids, calls, timeouts and refused moves)."""
    players = ["ann", "bob", "cid", "dee"][: 2 + seed % 3]
    game = play_game(rules, players, 1 + seed % 3, seed, RandomChooser(seed))
    return [dumps(event, Event) for step in game.steps for event in step.events]  # type: ignore[arg-type]


@pytest.mark.parametrize("variants", FUSED_WHERE_NOBODY_HOOKS, ids=lambda v: str(v))
def test_the_fused_and_the_generic_paths_play_the_same_games(variants: tuple[str, ...]) -> None:
    fused = Ruleset.build(list(variants))
    generic = Ruleset.build(list(variants))
    generic.plan = StepPlan.generic()
    for seed in range(40):
        one, other = events_of(fused, seed), events_of(generic, seed)
        first = next(
            (i for i, pair in enumerate(zip(one, other, strict=False)) if pair[0] != pair[1]), None
        )
        assert first is None and len(one) == len(other), (
            f"game {seed}, event {first}: fused {one[first or 0]} generic {other[first or 0]}"
        )


def test_a_plugin_ending_the_game_takes_the_generic_path(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_game_winners(state: GameState) -> tuple[str, ...] | None:
        """The first player down to one die wins."""
        low = [p.name for p in state.players if p.alive and p.dice == 1]
        return (low[0],) if low else None

    rules = broken("one-die-wins", liarsdice_game_winners)
    assert not rules.plan.winners
    game = play_game(rules, ["ann", "bob", "cid"], 3, 1, RandomChooser(1))
    last = game.steps[-1].after
    assert last is not None and last.winners
    assert [p.dice for p in last.players if p.name in last.winners] == [1]


def test_a_hook_wrapper_counts_as_hooking_the_step(broken: Callable[..., Ruleset]) -> None:
    watched: list[str] = []

    @hookimpl(wrapper=True)
    def liarsdice_resolve_call(call: str) -> Generator[None, Resolution | None, Resolution | None]:
        watched.append(call)
        return (yield)

    rules = broken("watching", liarsdice_resolve_call)
    assert not rules.plan.challenge and rules.plan.timeout
    for seed in range(5):
        play_game(rules, ["ann", "bob"], 2, seed, RandomChooser(seed))
    assert "challenge" in watched
