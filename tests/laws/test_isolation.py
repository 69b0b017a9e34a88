"""The law that games are independent (liarsdice.testing.isolation) catches a plugin that keeps its
state in a module global, as a plugin author might by mistake; the shipped plugins keep it."""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from liarsdice import Ruleset
from liarsdice.ruleset import installed
from liarsdice.testing import LawViolation, RandomChooser, laws, play_game
from liarsdice.testing.isolation import check, rulesets_for
from liarsdice.testing.plugins import extra_variants

# Ones are wild until someone bids ones, as ones-locking; but the flag is a module global that
# no round or game resets: it flips mid-round and stays flipped in the next game.
LEAKY_WILD = """
from liarsdice import VariantInfo, hookimpl

LOCKED = False


@hookimpl
def liarsdice_variant_info():
    return VariantInfo("Leaky wild", "ones wild until bid, in a module global")


@hookimpl
def liarsdice_bid_made(bid):
    global LOCKED
    if bid.face == 1:
        LOCKED = True


@hookimpl
def liarsdice_matching_faces(face):
    return frozenset({face}) if LOCKED or face == 1 else frozenset({face, 1})
"""

# Remembers the first opener it ever saw and makes that player's bids on twos refused, for ever:
# stable once set, so only a new process shows that it depends on what ran before.
FIRST_SEEN = """
from liarsdice import VariantInfo, hookimpl

FIRST = []


@hookimpl
def liarsdice_variant_info():
    return VariantInfo("First seen", "remembers the first opener of the process")


@hookimpl
def liarsdice_round_started(state):
    if not FIRST:
        FIRST.append(state.round.opener)


@hookimpl
def liarsdice_bid_problem(state, player, bid):
    if FIRST and player == FIRST[0] and bid.face == 2:
        return "no twos for the first opener ever seen"
    return None
"""


@pytest.fixture
def plugin_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[[str, str], ModuleType]:
    """Write a plugin module where a new process can import it too."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))

    def make(name: str, source: str) -> ModuleType:
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        return importlib.import_module(name)

    return make


@pytest.fixture
def leaky(plugin_module: Callable[[str, str], ModuleType]) -> Iterator[ModuleType]:
    module = plugin_module("leaky_wild", LEAKY_WILD)
    with extra_variants({"leaky-wild": module}):
        yield module


def test_a_module_global_that_outlives_a_game_fails_the_law(leaky: ModuleType) -> None:
    rules = Ruleset.build(["dice-loss", "leaky-wild"], {"standard.wild_ones": False})
    with pytest.raises(LawViolation) as caught:
        check([rules])
    assert caught.value.law == laws.INDEPENDENT
    assert "when played again after the games that follow it" in str(caught.value)
    assert "module global" in str(caught.value)


def test_state_set_before_the_check_shows_only_in_a_new_process(
    plugin_module: Callable[[str, str], ModuleType],
) -> None:
    module = plugin_module("first_seen", FIRST_SEEN)
    with extra_variants({"first-seen": module}):
        rules = Ruleset.build(["dice-loss", "first-seen"])
        play_game(rules, ["x", "p1", "y"], 2, 0, RandomChooser(0))  # an earlier game sets it
        assert module.FIRST == ["x"]
        check([rules], fresh=False)  # both orders agree: the global no longer changes
        with pytest.raises(LawViolation, match="when played in a new Python process"):
            check([rules], fresh=True)


@pytest.mark.parametrize("variant", ["ones-locking", "revolver", "pass", "bluff"])
def test_shipped_variants_keep_the_law_in_a_new_process_too(variant: str) -> None:
    found = check(rulesets_for(variant), fresh=True)
    assert "in both orders and in a new process" in found


def test_the_rulesets_checked_use_every_option_value() -> None:
    rulesets = rulesets_for("calza")
    assert {r.options["calza.reward"] for r in rulesets} == {"regain-die", "table-pays"}
    assert all("calza" in r.names for r in rulesets)
    assert set(installed()) >= {name for r in rulesets for name in r.names}
