"""Which combinations of variants to check the rule laws on, and at which option values.

This is what the pytest plugin (:mod:`liarsdice.testing.pytest_plugin`) and the ``tox -e props``
sweep check; :mod:`liarsdice.testing.running` runs the laws on its cases. It needs neither pytest
nor Hypothesis. This package re-exports the names of its modules, so ``liarsdice.testing.suite.X``
names them all.

- :func:`law_cases` lists the checks for one variant: alone (with whatever it needs to be
  playable: its requirements, and an economics plugin if it has none), with each compatible
  installed variant, and within any valid combination of the installed variants.
- :func:`valid_combinations` lists every combination of installed variants that
  ``Ruleset.build`` accepts for some option values; :func:`option_rows` gives option values for
  one combination that between them use every value of every option at least once.
- :mod:`.plan` makes the ``tox -e props`` sweep's plan: a covering array (:mod:`.covering`) of
  rulesets holding every t-way interaction of variants and option values, or every valid
  combination, cached in a file and split into shards.

"Compatible" means what ``Ruleset.build`` says: declared requirements and conflicts, each
plugin's ``liarsdice_combination_problem`` for some option values, and at least one economics
plugin.

The modules, by job: :mod:`.structure` (which variants go together by their declarations),
:mod:`.option_values` (option values that build), :mod:`.cases` (which combinations to check),
:mod:`.covering` (covering arrays under a constraint) and :mod:`.plan` (the sweep's rulesets).
"""

from __future__ import annotations

from liarsdice.testing.suite.cases import (
    ANTICLOCKWISE_CASE,
    ISOLATION_CASE,
    RELEVANCE_CASE,
    SEEDED_CASES,
    SNAPSHOT_CASE,
    LawCase,
    law_cases,
    smallest_combination,
    smallest_ruleset,
    valid_combinations,
)
from liarsdice.testing.suite.option_values import MAX_OPTION_VALUES as MAX_OPTION_VALUES
from liarsdice.testing.suite.option_values import (
    Fixed,
    buildable,
    declared_options,
    option_domain,
    option_rows,
    playable_options,
)
from liarsdice.testing.suite.structure import structurally_valid, valid_subsets

__all__ = [
    "ANTICLOCKWISE_CASE",
    "ISOLATION_CASE",
    "RELEVANCE_CASE",
    "SEEDED_CASES",
    "SNAPSHOT_CASE",
    "Fixed",
    "LawCase",
    "buildable",
    "declared_options",
    "law_cases",
    "option_domain",
    "option_rows",
    "playable_options",
    "smallest_combination",
    "smallest_ruleset",
    "structurally_valid",
    "valid_combinations",
    "valid_subsets",
]
