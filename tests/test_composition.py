"""Composition: presets, requirements and conflicts, and every valid combination plays."""

from __future__ import annotations

import itertools
from random import Random

import pytest

from liarsdice import rulespage
from liarsdice.cli import main
from liarsdice.combination import structural_problem
from liarsdice.errors import Conflict, MissingRequirement, NoEconomics, RulesetError, UnknownPreset
from liarsdice.ruleset import Ruleset, installed, presets
from liarsdice.simulate import play_game

VARIANTS = sorted(name for name in installed() if name != "standard")
SEED_PRESETS = {"casino": "000", "online": "001", "cheko": "002", "dudo": "003", "perudo": "004"}


def valid_combinations() -> list[tuple[tuple[str, ...], bool]]:
    """Combinations of installed variants and wild ones on/off that build: every one of up to two
    variants, and a fixed sample of 200 larger ones (``tox -e props`` plays every combination)."""
    known = installed()
    small, large = [], []
    for size in range(len(VARIANTS) + 1):
        for combo in itertools.combinations(VARIANTS, size):
            chosen = [known["standard"], *(known[name] for name in combo)]
            if structural_problem(chosen) is None:
                (small if size <= 2 else large).append(combo)
    sample = [*small, *Random(2).sample(large, min(200, len(large)))]
    found = []
    for combo in sample:
        for wild in (True, False):
            try:
                Ruleset.build(combo, {"standard.wild_ones": wild})
            except RulesetError:
                continue
            found.append((combo, wild))
    return found


def test_every_valid_combination_plays_whole_games() -> None:
    combinations = valid_combinations()
    assert len(combinations) > 100
    assert any(len(combo) >= 6 for combo, _ in combinations)
    rng = Random(1)
    for combo, wild in combinations:
        rules = Ruleset.build(combo, {"standard.wild_ones": wild})
        record = play_game(rules, ["a", "b", "c", "d"], rng, dice_per_player=3)
        assert set(record.winners) <= {"a", "b", "c", "d"} and record.winners, (combo, wild)


@pytest.mark.parametrize("preset", sorted(SEED_PRESETS))
def test_each_seed_preset_builds_and_names_its_seed(preset: str) -> None:
    rules = Ruleset.build(preset=preset)
    assert rules.preset is not None
    assert f"seed {SEED_PRESETS[preset]}" in rules.preset.source
    assert set(rules.preset.variants) <= set(rules.names)


@pytest.mark.parametrize("preset", sorted(SEED_PRESETS))
def test_rules_page_of_a_preset_has_every_plugin_section(preset: str) -> None:
    rules = Ruleset.build(preset=preset)
    page = rules.describe()
    assert rules.preset is not None and str(rules.preset.title) in page
    for variant in rules.variants:
        assert f"## {variant.info.title}" in page, variant.name
    for key in rules.options:
        assert f"- {rulespage.option_label(rules.option(key))}: **" in page


def _without_and_with(name: str) -> tuple[Ruleset, Ruleset]:
    """A small playable ruleset without variant ``name``, and the same with it."""
    for base in (["dice-loss"], ["revolver"], ["revolver", "dice-loss"]):
        base = [other for other in base if other != name]
        try:
            return Ruleset.build(base), Ruleset.build([*base, name])
        except RulesetError:
            continue
    raise AssertionError(f"no small ruleset takes {name}")


def test_every_installed_plugin_contributes_rules_text() -> None:
    for name in VARIANTS:
        title = installed()[name].info.title
        without, with_it = (rules.describe() for rules in _without_and_with(name))
        assert f"## {title}" in with_it, name
        # Every sentence the plugin gives (its own section, the clauses it changes) is on the page.
        text = rulespage.text_of(_without_and_with(name)[1], name)
        page = " ".join(with_it.split())
        for part in [text.text, *text.clauses.values()]:
            assert " ".join(str(part).split()) in page, (name, part)
        assert " ".join(without.split()) != page, name


def test_variants_beside_a_preset_add_to_it() -> None:
    rules = Ruleset.build(["dice-loss"], {"revolver.chambers": 8}, preset="casino")
    assert "dice-loss" in rules.names and "revolver" in rules.names
    assert rules.options["revolver.chambers"] == 8
    assert rules.options["calza.reward"] == "table-pays"


def test_an_option_beside_a_preset_overrides_the_preset() -> None:
    rules = Ruleset.build([], {"calza.reward": "regain-die"}, preset="casino")
    assert rules.options["calza.reward"] == "regain-die"


def test_unknown_preset_lists_the_available_ones() -> None:
    with pytest.raises(UnknownPreset) as refused:
        Ruleset.build(preset="yahtzee")
    for name in SEED_PRESETS:
        assert name in str(refused.value)


@pytest.mark.parametrize(
    ("variants", "options", "error", "names"),
    [
        (
            ["dice-loss", "ones-locking", "aces-switch"],
            {},
            Conflict,
            ["ones-locking", "aces-switch"],
        ),
        (
            ["dice-loss", "winner-opens", "last-change-opens"],
            {},
            Conflict,
            ["winner-opens", "last-change-opens"],
        ),
        (["dice-loss", "roll-off", "random-opener"], {}, Conflict, ["roll-off", "random-opener"]),
        (
            ["dice-loss", "ones-locking"],
            {"standard.wild_ones": False},
            Conflict,
            ["ones-locking", "standard.wild_ones"],
        ),
        (
            ["dice-loss", "aces-switch"],
            {"standard.wild_ones": False},
            Conflict,
            ["aces-switch", "standard.wild_ones"],
        ),
        (["revolver", "palifico"], {}, MissingRequirement, ["palifico", "dice-loss"]),
        (["calza"], {}, NoEconomics, ["dice-loss", "revolver"]),
        (
            ["revolver"],
            {"revolver.initial_bullets": 7},
            Conflict,
            ["revolver.initial_bullets", "revolver.chambers"],
        ),
    ],
)
def test_nonsense_is_refused_naming_both_sides(
    variants: list[str], options: dict[str, object], error: type[Exception], names: list[str]
) -> None:
    with pytest.raises(error) as refused:
        Ruleset.build(variants, options)
    for name in names:
        assert name in str(refused.value)


def test_presets_command_lists_every_preset_with_its_origin_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["presets"])
    out = capsys.readouterr().out
    found = presets()
    for name, seed in SEED_PRESETS.items():
        assert found[name].source.startswith(f"seed {seed}")
        assert name in out and str(found[name].origin) in out
    assert "seed 0" not in out


def test_preset_works_on_the_rules_and_simulate_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["rules", "--preset", "perudo-box"])
    assert "## Palifico" in capsys.readouterr().out
    main(["simulate", "--preset", "casino", "--games", "5", "--json"])
    assert '"games": 5' in capsys.readouterr().out


def test_presets_registered_by_plugins() -> None:
    assert set(SEED_PRESETS) <= set(presets())
