"""Which combinations of variants to check, and running the rule laws on them.

This is the engine behind the pytest plugin (:mod:`liarsdice.testing.pytest_plugin`) and the
``tox -e props`` sweep; it does not need pytest. This package re-exports the names of its modules,
so ``liarsdice.testing.suite.X`` names them all.

- :func:`law_cases` lists the checks for one variant: alone (with whatever it needs to be
  playable: its requirements, and an economics plugin if it has none), with each compatible
  installed variant, and within any valid combination of the installed variants.
- :func:`valid_combinations` lists every combination of installed variants that
  ``Ruleset.build`` accepts for some option values; :func:`option_rows` gives option values for
  one combination that between them use every value of every option at least once.
- :func:`run_case` runs the laws on a case with Hypothesis and says how many examples ran;
  :func:`run_rows` plays seeded games at fixed option values.

"Compatible" means what ``Ruleset.build`` says: declared requirements and conflicts, each
plugin's ``liarsdice_combination_problem`` for some option values, and at least one economics
plugin. Hypothesis is imported only by :func:`run_case` and :func:`hypothesis_settings`.

The modules, by job: :mod:`.structure` (which variants go together by their declarations),
:mod:`.option_values` (option values that build), :mod:`.cases` (which combinations to check) and
:mod:`.running` (running the laws on them).
"""

from __future__ import annotations

from liarsdice.testing.suite.cases import (
    RELEVANCE_CASE,
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
from liarsdice.testing.suite.running import (
    CaseRun,
    KitError,
    MissingHypothesis,
    hypothesis_settings,
    run_case,
    run_rows,
)
from liarsdice.testing.suite.structure import structurally_valid, valid_subsets

__all__ = [
    "RELEVANCE_CASE",
    "CaseRun",
    "Fixed",
    "KitError",
    "LawCase",
    "MissingHypothesis",
    "buildable",
    "declared_options",
    "hypothesis_settings",
    "law_cases",
    "option_domain",
    "option_rows",
    "playable_options",
    "run_case",
    "run_rows",
    "smallest_combination",
    "smallest_ruleset",
    "structurally_valid",
    "valid_combinations",
    "valid_subsets",
]
