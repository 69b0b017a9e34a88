"""Meta-tests: every hook is documented and tested; every installed plugin has rules text, a golden
scenario that uses it, and keeps the rule laws (through the kit, as a plugin author would)."""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from liarsdice import Ruleset, hookspecs, rulespage, scenario
from liarsdice.ruleset import broken, installed
from liarsdice.testing import running, suite

ROOT = Path(__file__).parent.parent
HOOKS = sorted(
    name
    for name in dir(hookspecs)
    if name.startswith("liarsdice_") and hasattr(getattr(hookspecs, name), "liarsdice_spec")
)
VARIANTS = sorted(installed())

#: For every hook, a test that exercises it: (path, test name or ``Class::test``). A new hook
#: needs a line here and a ``## liarsdice_<name>`` section in docs/hooks.md.
HOOK_TESTS = {
    "liarsdice_variant_info": (
        "tests/core/test_ruleset.py",
        "test_plugin_without_variant_info_is_a_plugin_error",
    ),
    "liarsdice_register_options": (
        "tests/core/test_ruleset.py",
        "test_a_fake_plugins_options_are_declared_and_parsed",
    ),
    "liarsdice_register_calls": (
        "tests/core/test_engine.py",
        "test_a_call_kind_nobody_resolves_is_a_plugin_error",
    ),
    "liarsdice_register_presets": (
        "tests/test_composition.py",
        "test_each_seed_preset_builds_and_names_its_seed",
    ),
    "liarsdice_combination_problem": (
        "tests/core/test_ruleset.py",
        "test_combination_problem_is_reported",
    ),
    "liarsdice_bid_rank": (
        "tests/laws/test_mutations.py",
        "test_a_broken_rank_breaks_the_order_law",
    ),
    "liarsdice_face_allowed": (
        "tests/core/test_standard.py",
        "test_ones_are_refused_only_while_wild",
    ),
    "liarsdice_bid_problem": (
        "tests/laws/test_mutations.py",
        "test_a_flaky_bid_problem_breaks_the_enumeration_law",
    ),
    "liarsdice_bid_problems": (
        "tests/core/test_batch_bids.py",
        "test_a_batch_plugin_is_asked_once_per_listing_and_refuses_as_the_per_bid_form",
    ),
    "liarsdice_table_problem": (
        "plugins/teams/tests/test_teams.py",
        "test_an_odd_table_is_refused_everywhere_with_the_reason",
    ),
    "liarsdice_game_winners": (
        "tests/laws/test_winners.py",
        "test_the_law_catches_winners_who_are_out_while_the_other_side_lives",
    ),
    "liarsdice_partners": (
        "plugins/teams/tests/test_teams.py",
        "test_a_bot_plays_for_its_team_and_spares_a_partner",
    ),
    "liarsdice_dice_visible": (
        "plugins/forehead/tests/test_forehead.py",
        "test_everyone_but_the_owner_sees_a_lone_die",
    ),
    "liarsdice_matching_faces": (
        "tests/core/test_bots.py",
        "test_bots_play_a_third_party_counting_rule",
    ),
    "liarsdice_call_problem": (
        "plugins/calza/tests/test_calza.py",
        "test_half_window_refuses_exact_once_13_of_25_dice_are_out",
    ),
    "liarsdice_resolve_call": ("tests/core/test_standard.py", "test_challenge_resolution"),
    "liarsdice_bid_kind": (
        "tests/core/test_bidkinds.py",
        "test_two_variants_playing_different_kinds_conflict",
    ),
    "liarsdice_call_stakes": (
        "tests/core/test_bots.py",
        "test_bots_weigh_a_third_party_call_kind_by_its_declared_stakes",
    ),
    "liarsdice_settle": (
        "plugins/dice_loss/tests/test_dice_loss.py",
        "test_settle_takes_one_die_from_each_loser",
    ),
    "liarsdice_timeout": (
        "tests/core/test_standard.py",
        "test_timeout_loses_the_round_with_no_count",
    ),
    "liarsdice_game_limit": (
        "tests/core/test_limits.py",
        "test_a_plugin_declares_its_game_limit_through_the_hook",
    ),
    "liarsdice_first_opener": (
        "tests/core/test_standard.py",
        "test_seat_one_opens_first_and_the_loser_opens_next",
    ),
    "liarsdice_next_opener": (
        "tests/core/test_standard.py",
        "test_seat_one_opens_first_and_the_loser_opens_next",
    ),
    "liarsdice_round_started": (
        "tests/laws/test_mutations.py",
        "test_state_changed_outside_the_events_breaks_the_replay_law",
    ),
    "liarsdice_bid_made": (
        "plugins/ones_locking/tests/test_ones_locking.py",
        "test_ones_are_wild_until_someone_bids_ones",
    ),
    "liarsdice_call_made": (
        "tests/core/test_mechanics.py",
        "test_a_call_that_continues_the_round_applies_its_effects_and_passes_the_turn",
    ),
    "liarsdice_next_turn": (
        "tests/core/test_mechanics.py",
        "test_next_turn_decides_who_acts_after_a_bid",
    ),
    "liarsdice_payload_choices": (
        "tests/core/test_mechanics.py",
        "test_payload_choices_are_asked_of_each_reader_alone",
    ),
    "liarsdice_player_public": (
        "tests/laws/test_mutations.py",
        "test_a_shrinking_public_fact_breaks_its_law",
    ),
    "liarsdice_describe": (
        "tests/core/test_ruleset.py",
        "test_describe_has_each_plugin_section_and_the_options_in_force",
    ),
}


# --- hooks ---------------------------------------------------------------------------------------


def test_there_are_hooks() -> None:
    assert len(HOOKS) >= 15 and "liarsdice_settle" in HOOKS


def test_every_hook_is_documented_in_the_hooks_reference() -> None:
    headings = re.findall(r"^## (liarsdice_\w+)\s*$", (ROOT / "docs/hooks.md").read_text(), re.M)
    assert sorted(set(HOOKS) - set(headings)) == [], "hooks without a '## name' in docs/hooks.md"
    assert sorted(set(headings) - set(HOOKS)) == [], "docs/hooks.md documents hooks that are gone"


def test_every_hook_has_a_test() -> None:
    assert sorted(set(HOOKS) - set(HOOK_TESTS)) == [], "hooks missing from HOOK_TESTS"
    assert sorted(set(HOOK_TESTS) - set(HOOKS)) == [], "HOOK_TESTS names hooks that are gone"


@cache
def _tests_in(path: Path) -> set[str]:
    """``name`` and ``Class::name`` of every test function in ``path``."""
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.ClassDef):
            found |= {f"{node.name}::{f.name}" for f in node.body if isinstance(f, ast.FunctionDef)}
    return {name for name in found if name.rpartition("::")[2].startswith("test_")}


@pytest.mark.parametrize("hook", sorted(HOOK_TESTS))
def test_the_test_named_for_a_hook_exists(hook: str) -> None:
    path, test = HOOK_TESTS[hook]
    assert (ROOT / path).is_file(), f"{hook}: {path} is gone"
    assert test in _tests_in(ROOT / path), f"{hook}: {path}::{test} is gone"


# --- plugins -------------------------------------------------------------------------------------


def test_every_installed_plugin_loads() -> None:
    assert dict(broken()) == {}
    assert {"standard", "dice-loss", "difference"} <= set(VARIANTS)


def _rules_text(rules: Ruleset, name: str) -> str:
    text = rulespage.text_of(rules, name)
    return str(text.text) + "".join(map(str, text.clauses.values()))


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_plugin_has_rules_text(variant: str) -> None:
    rules = suite.smallest_ruleset(variant)
    assert _rules_text(rules, variant).strip(), f"{variant}: liarsdice_describe says nothing"
    assert str(installed()[variant].info.title) in rules.describe()


def _scenario_dirs() -> list[Path]:
    """tests/scenarios/, and the scenarios/ folder of every installed plugin's package."""
    found = [ROOT / "tests" / "scenarios"]
    for variant in installed().values():
        plugin = variant.plugin
        module = sys.modules.get(getattr(plugin, "__module__", None) or plugin.__name__, plugin)
        here = Path(getattr(module, "__file__", "") or ".").parent
        for folder in (here / "scenarios", here.parent / "scenarios"):  # a module, a package
            if folder.is_dir() and folder not in found:
                found.append(folder)
    return found


def _play(path: Path, expected: Any) -> tuple[str, ...]:
    """Play the scenario at ``path``, check it gives ``expected``; the variants it played."""
    seen: list[Ruleset] = []

    def factory(preset: str | None, variants: list[str], options: Any) -> Ruleset:
        seen.append(Ruleset.build(variants, options, preset))
        return seen[-1]

    assert scenario.run(scenario.load(path), factory) == expected, f"{path} is not golden any more"
    return seen[0].names


@cache
def golden_scenarios() -> Mapping[Path, tuple[str, ...]]:
    """Every golden scenario (``X.json`` beside ``X.out.json``) -> the variants its ruleset holds.
    Playing each also checks that it still gives its ``.out.json``."""
    used: dict[Path, tuple[str, ...]] = {}
    for folder in _scenario_dirs():
        for path in sorted(folder.glob("*.json")):
            expected = path.with_suffix(".out.json")
            if path.name.endswith(".out.json") or not expected.exists():
                continue
            used[path] = _play(path, json.loads(expected.read_text()))
    return used


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_plugin_has_a_golden_scenario(variant: str) -> None:
    using = [path for path, names in golden_scenarios().items() if variant in names]
    assert using, (
        f"no golden scenario (X.json + X.out.json) in tests/scenarios/ or the plugin's scenarios/ "
        f"folder plays {variant}, by its variants or a preset"
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_plugin_keeps_the_laws(variant: str) -> None:
    """The kit's 'alone' case (the variant, what it needs, any economics), on the fast profile."""
    case = suite.law_cases(variant, combine=False)[0]
    run = running.run_case(case, running.hypothesis_settings(max_examples=20, database=None))
    assert run.examples >= 20
