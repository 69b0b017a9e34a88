"""liarsdice.testing.suite: which combinations the laws run on, the option rows that use every
option value, and running the laws with a count of what ran."""

from __future__ import annotations

import sys

import pytest

from liarsdice import Ruleset, VariantInfo, hookimpl
from liarsdice.errors import PluginError, RulesetError, UnknownVariant
from liarsdice.testing import LawViolation, extra_variants, running, suite
from liarsdice.testing.driver import table_near


def test_option_rows_use_every_value_of_every_option() -> None:
    rows, unreachable = suite.option_rows(("revolver",))
    assert rows[0] == {
        "standard.wild_ones": True,
        "revolver.chambers": 6,
        "revolver.initial_bullets": 1,
    }
    assert unreachable == []
    for key in ("revolver.chambers", "revolver.initial_bullets"):
        assert {row[key] for row in rows} == set(range(1, 13))
    assert {row["standard.wild_ones"] for row in rows} == {True, False}
    for row in rows:
        Ruleset.build(["revolver"], row)


def test_option_rows_report_values_a_combination_refuses() -> None:
    rows, unreachable = suite.option_rows(("aces-switch", "dice-loss"))
    assert unreachable == [("standard.wild_ones", False)]
    assert {row["aces-switch.back"] for row in rows} == {"double", "double-plus-one"}
    assert {row["aces-switch.open_on_ones"] for row in rows} == {True, False}


def test_valid_combinations_are_exactly_those_that_build() -> None:
    pool = ("aces-switch", "difference", "dice-loss", "ones-locking", "palifico", "revolver")
    combos = suite.valid_combinations(pool)
    assert set(combos) == set(suite.valid_subsets(pool, ()))  # none fails on option values alone
    assert combos[0] == ("dice-loss",) and ("aces-switch", "ones-locking") not in combos
    assert ("difference", "palifico") in combos  # difference provides the dice economy
    assert ("palifico", "revolver") not in combos  # the revolver takes no dice away
    for combo in combos:
        rows, _ = suite.option_rows(combo)
        Ruleset.build(combo, rows[0])


def test_law_cases_pair_a_variant_with_each_compatible_one() -> None:
    cases = {case.name: case for case in suite.law_cases("palifico")}
    alone = cases["alone"]
    assert alone.include == ("palifico",) and "dice-loss" in alone.candidates
    assert "with[revolver]" in cases and "with[difference]" in cases  # any dice economy
    assert cases["any-combination"].include == ("palifico",)
    assert [c.name for c in suite.law_cases("palifico", combine=False)] == [
        "alone",
        "does-something",
        "isolation",
        "rules-text",
        "anticlockwise",
    ]


def test_a_pair_the_rules_refuse_is_a_case_that_says_why() -> None:
    cases = {case.name: case for case in suite.law_cases("aces-switch")}
    assert cases["with[ones-locking]"].refusal == (
        "aces-switch conflicts with ones-locking: choose one of them"
    )
    assert not cases["with[calza]"].refusal


def test_law_cases_add_economics_only_when_the_variant_has_none() -> None:
    assert suite.law_cases("dice-loss", combine=False)[0].candidates == ("dice-loss",)
    cheko = suite.law_cases("cheko", combine=False)[0]
    assert set(cheko.candidates) >= {"cheko", "dice-loss", "revolver"}
    assert suite.law_cases("standard", combine=False)[0].include == ()


def test_law_cases_for_an_unknown_variant_name_what_is_installed() -> None:
    with pytest.raises(UnknownVariant, match="installed: "):
        suite.law_cases("no-such-variant")


def test_run_case_counts_examples_and_option_values() -> None:
    case = suite.law_cases("revolver", combine=False)[0]
    run = running.run_case(
        case, running.hypothesis_settings("fast", max_examples=10, database=None)
    )
    assert run.examples >= 10 and run.rulesets
    assert all(
        key.partition(".")[0] in {"standard", "revolver", "dice-loss", "difference"}
        for key, _ in run.values
    )


def test_run_rows_plays_each_row() -> None:
    rows, _ = suite.option_rows(("calza", "dice-loss"))
    run = running.run_rows(("calza", "dice-loss"), rows, games=2)
    assert run.examples == 2 * len(rows)
    assert ("calza.reward", "table-pays") in run.values and ("calza.window", "half") in run.values


def test_the_profile_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "thorough")
    assert running.hypothesis_settings().max_examples == 500
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "no-such-profile")
    assert running.hypothesis_settings().max_examples == 30
    monkeypatch.delenv("HYPOTHESIS_PROFILE")
    assert running.hypothesis_settings(max_examples=7).max_examples == 7


def test_without_hypothesis_the_laws_say_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hypothesis", None)
    with pytest.raises(running.MissingHypothesis, match=r"liarsdice-rules\[testing\]"):
        running.run_case(suite.law_cases("dice-loss", combine=False)[0])


class Loner:
    """Conflicts with every economics plugin, so it can never be played."""

    @staticmethod
    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(
            "Loner", "plays with nobody", conflicts=("chips", "dice-loss", "difference", "revolver")
        )


def test_a_variant_that_cannot_be_played_is_refused() -> None:
    with extra_variants({"loner": Loner}), pytest.raises(RulesetError, match="cannot be played"):
        suite.law_cases("loner")


class Needy:
    """Requires a variant nobody installed."""

    @staticmethod
    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo("Needy", "needs a friend", requires=("no-such-friend",))


def test_a_missing_requirement_is_named() -> None:
    with extra_variants({"needy": Needy}), pytest.raises(RulesetError, match="no-such-friend"):
        suite.law_cases("needy")


class EmptyReason:
    """Breaks while a ruleset is built: refuses a face with an empty reason."""

    @staticmethod
    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo("Empty reason", "refuses with no reason")

    @staticmethod
    @hookimpl
    def liarsdice_face_allowed(face: int) -> str | None:
        return "" if face == 6 else None


def test_a_plugin_broken_at_build_time_fails_only_the_cases_holding_it() -> None:
    with extra_variants({"empty-reason": EmptyReason}):
        cases = {case.name: case for case in suite.law_cases("cheko")}
        assert "with[empty-reason]" in cases
        running.run_case(cases["alone"], running.hypothesis_settings("fast", max_examples=3))
        with pytest.raises(PluginError, match="empty-reason's liarsdice_face_allowed"):
            running.run_case(cases["with[empty-reason]"], running.hypothesis_settings("fast"))


def test_a_failing_ruleset_law_is_reported_as_itself_not_as_flaky() -> None:
    def no_rulesets_with_calza(rules: Ruleset) -> None:
        if "calza" in rules.names:
            raise LawViolation("no calza", rules, "calza is here")

    case = suite.law_cases("calza", combine=False)[0]
    with pytest.raises(LawViolation, match="no calza"):
        running.run_case(
            case,
            running.hypothesis_settings("fast", database=None),
            ruleset_laws=[no_rulesets_with_calza],
        )


def test_run_rows_plays_a_table_the_ruleset_takes() -> None:
    """teams refuses 3 players (2 or 4): the rows are played at 4, the nearest table it takes."""
    combination = ("dice-loss", "pass", "teams")
    rows, _ = suite.option_rows(combination)
    run = running.run_rows(combination, rows, games=2)
    assert run.examples == 2 * len(rows) and ("pass.limit", "round") in run.values


def test_the_nearest_table_is_the_asked_one_when_the_ruleset_takes_it() -> None:
    assert table_near(Ruleset.build(["dice-loss"]), 3, 2) == (3, 2)
    assert table_near(Ruleset.build(["dice-loss", "teams"]), 3, 2) == (4, 2)
    assert table_near(Ruleset.build(preset="perudo"), 3, 2) == (3, 5)
