"""A variant's rules text may amend another variant's section (``"calza.window"``), and sees the
variants at the table: the page then states only the rule the table plays."""

from __future__ import annotations

import types
from collections.abc import Iterator

import pytest

from liarsdice import Options, Ruleset, VariantInfo, hookimpl, rulespage
from liarsdice.models import GameState
from liarsdice.rulestext import RulesText
from liarsdice.testing import check_ruleset
from liarsdice.testing.plugins import extra_variants

ANY_TURN = "The exact call is allowed on any turn after the opening bid."
NOT_TWO = (
    "The exact call is allowed on any turn after the opening bid, but not with two players left."
)


def _two_left() -> types.ModuleType:
    """The variant "no exact call with two left", as a plugin author writes it from the docs."""
    module = types.ModuleType("two_left")

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo("No exact call with two left", "heads-up, only raise or challenge")

    @hookimpl
    def liarsdice_call_problem(state: GameState, call: str) -> str | None:
        alive = [player for player in state.players if player.alive]
        return (
            "two-left: no exact call with two left" if call == "exact" and len(alive) == 2 else None
        )

    @hookimpl
    def liarsdice_describe(options: Options, rules: Ruleset) -> RulesText:
        with_calza = "calza" in rules.names
        return RulesText(
            text="Heads-up, only raise or challenge." if with_calza else "Nothing changes here.",
            clauses={"calza.window": NOT_TWO},
        )

    for function in (liarsdice_variant_info, liarsdice_call_problem, liarsdice_describe):
        setattr(module, function.__name__, function)
    return module


@pytest.fixture(autouse=True)
def two_left() -> Iterator[None]:
    with extra_variants({"two-left": _two_left()}):
        yield


def _section(page: str, title: str) -> str:
    return page.split(f"## {title}\n\n", 1)[1].split("\n## ", 1)[0]


def test_an_amendment_replaces_the_clause_in_the_other_variants_section() -> None:
    rules = Ruleset.build(["dice-loss", "calza", "two-left"])
    check_ruleset(rules)  # the text laws hold: one changer of calza.window, calza at the table
    calza = _section(rules.describe(), "Calza (exact call)")
    assert NOT_TWO in calza
    assert ANY_TURN not in calza.replace(NOT_TWO, "")
    assert "Heads-up, only raise or challenge." in rules.describe()


def test_without_the_variant_the_amendment_is_not_read() -> None:
    rules = Ruleset.build(["dice-loss", "two-left"])
    check_ruleset(rules)
    page = rules.describe()
    assert NOT_TWO not in page
    assert "Nothing changes here." in page  # describe saw that calza is not at the table


def test_a_variants_own_clauses_end_its_section_in_every_language() -> None:
    rules = Ruleset.build(["dice-loss", "calza"], {"calza.anyone": True})
    for locale, window, anyone in (
        ("en", ANY_TURN, "Any player but the bidder"),
        ("uk", "«В точку» можна казати в будь-який хід", "Будь-хто, крім автора ставки"),
        ("ru", "на любом ходу после первой ставки", "Любой, кроме автора ставки"),
    ):
        calza = rulespage.text_of(rules, "calza")
        assert list(calza.clauses) == ["calza.window", "calza.anyone"]
        page = rulespage.page(rules, locale)
        assert window in page and anyone in page, locale
        assert page.index(window) < page.index(anyone), locale
