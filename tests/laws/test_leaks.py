"""The privacy law catches a plugin that leaks hidden dice, wherever it puts them: into a seat's
private state, into public plugin state, or to one neighbour only. Each leak is written as a plugin
author might write it by mistake; the law must name it. Sound plugins that show dice on purpose
(``bluff``'s dice face up) or keep secrets of their own (``pass``) keep the law."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest

from liarsdice import PluginStateSet, PrivateStateSet, Ruleset, hookimpl
from liarsdice.testing import LawViolation, RandomChooser, laws, play_game
from liarsdice.testing.plugins import extra_variants


@hookimpl(specname="liarsdice_round_started")
def copy_into_private(state: Any) -> list[Any]:
    """Every seat's private state holds every other seat's roll."""
    rolls = state.round.rolls
    return [
        PrivateStateSet("copier", player, "others", {p: list(r) for p, r in rolls.items()})
        for player in rolls
    ]


@hookimpl(specname="liarsdice_round_started")
def publish(state: Any) -> list[Any]:
    """Public plugin state holds every roll."""
    rolls = {player: list(roll) for player, roll in state.round.rolls.items()}
    return [PluginStateSet("publisher", "rolls", rolls)]


@hookimpl(specname="liarsdice_round_started")
def tell_the_neighbour(state: Any) -> list[Any]:
    """Each seat's private state holds the roll of the seat to its left."""
    names = list(state.round.rolls)
    return [
        PrivateStateSet("neighbour", player, "left", list(state.round.rolls[names[i - 1]]))
        for i, player in enumerate(names)
    ]


LEAKS = {"copier": copy_into_private, "publisher": publish, "neighbour": tell_the_neighbour}


@pytest.fixture(params=sorted(LEAKS))
def leaking_rules(
    request: pytest.FixtureRequest, plugin_factory: Callable[..., Any]
) -> Iterator[Ruleset]:
    name = request.param
    with extra_variants({name: plugin_factory(name, LEAKS[name])}):
        yield Ruleset.build(["dice-loss", name])


def test_the_privacy_law_catches_every_leak(leaking_rules: Ruleset) -> None:
    for seed in range(10):
        game = play_game(leaking_rules, ["a", "b", "c"], 2, seed, RandomChooser(seed))
        try:
            laws.views_hide_dice(leaking_rules, game.steps)
        except LawViolation as violation:
            assert violation.law == laws.HIDDEN
            assert "re-dealt" in violation.detail, violation.detail
            return
    pytest.fail(f"the privacy law let {leaking_rules!r} through")


@pytest.mark.parametrize("variants", [["dice-loss", "bluff"], ["dice-loss", "pass"]])
def test_plugins_that_show_or_keep_secrets_on_purpose_keep_the_law(variants: list[str]) -> None:
    rules = Ruleset.build(variants)
    for seed in range(15):
        game = play_game(rules, ["a", "b", "c"], 3, seed, RandomChooser(seed))
        laws.views_hide_dice(rules, game.steps)


def test_a_re_deal_keeps_the_viewers_own_dice_and_changes_every_other_die() -> None:
    from liarsdice.testing.laws.privacy import re_deal

    rolls = {"a": (1, 2, 3), "b": (4, 5, 6), "c": (6, 6)}
    dealt = re_deal(rolls, {"a"}, Random(0))
    assert dealt["a"] == rolls["a"]
    assert all(len(dealt[p]) == len(rolls[p]) for p in rolls)
    assert all(x != y for p in ("b", "c") for x, y in zip(dealt[p], rolls[p], strict=True))
