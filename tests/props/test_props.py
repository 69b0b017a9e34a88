"""Every valid combination of the installed variants, with option values drawn per example from
their declarations, against every rule law, with the thorough Hypothesis profile's settings and
``$LIARSDICE_PROPS_EXAMPLES`` (default 20) examples per combination; then seeded games at option
rows that give every option every value of its declaration at least once.

Run by ``tox -e props`` (collected only with ``LIARSDICE_PROPS=1``; see conftest.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from liarsdice.testing import running, suite

COMBINATIONS = suite.valid_combinations()


@pytest.mark.parametrize("combination", COMBINATIONS, ids=lambda combo: "+".join(combo))
def test_every_law_holds(
    combination: tuple[str, ...],
    props_examples: int,
    record_property: Callable[[str, Any], None],
) -> None:
    started = time.perf_counter()
    name = "+".join(combination)
    case = suite.LawCase(name, "exactly", combination, combination)
    settings = running.hypothesis_settings(
        "thorough", max_examples=props_examples, report_multiple_bugs=False
    )
    run = running.run_case(case, settings)
    drawn = run.examples
    rows, unreachable = suite.option_rows(combination)
    running.run_rows(combination, rows, games=2, run=run)
    domains = {
        option.key: suite.option_domain(option) for option in suite.declared_options(combination)
    }
    missing = [
        (key, value)
        for key, domain in domains.items()
        for value in domain
        if (key, value) not in run.values and (key, value) not in unreachable
    ]
    assert not missing, f"option values never used: {missing}"
    record_property("props_combination", name)
    record_property("hypothesis_examples", drawn)
    record_property("row_examples", run.examples - drawn)
    record_property("rulesets", len(run.rulesets))
    record_property("values", sorted(run.values, key=repr))
    record_property("domains", domains)
    record_property("unreachable", unreachable)
    record_property("seconds", time.perf_counter() - started)
