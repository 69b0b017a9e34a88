"""Running the rule laws on a law case: with Hypothesis, or as seeded games at fixed option rows.

The cases come from :mod:`liarsdice.testing.suite`; the relevance case is a seeded search
(:mod:`liarsdice.testing.relevance`), the others Hypothesis runs over the games of
:mod:`liarsdice.testing.strategies`. Hypothesis is imported only by :func:`run_case` and
:func:`hypothesis_settings`; without it they raise :class:`MissingHypothesis`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from liarsdice.models import JSON
from liarsdice.ruleset import Ruleset
from liarsdice.testing import PROFILE_VARIABLE
from liarsdice.testing.driver import PlayedGame, RandomChooser, play_game
from liarsdice.testing.laws import (
    GAME_LAWS,
    RULESET_LAWS,
    GameLaw,
    LawViolation,
    RulesetLaw,
    check_game,
    check_ruleset,
)
from liarsdice.testing.relevance import variant_changes_play
from liarsdice.testing.suite.cases import RELEVANCE_CASE, LawCase

if TYPE_CHECKING:
    from hypothesis import settings as Settings


class KitError(AssertionError):
    """Hypothesis could not run a case (a failed health check, an unsatisfiable strategy, a flaky
    law): one message naming the case, what went wrong and what usually causes it."""


class MissingHypothesis(ImportError):
    """The laws need Hypothesis: ``pip install 'liarsdice-rules[testing]'``."""


def _hypothesis() -> Any:
    try:
        import hypothesis
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise MissingHypothesis(
            "the rule laws need Hypothesis: install liarsdice-rules[testing] "
            "(pip install 'liarsdice-rules[testing]')"
        ) from error
    return hypothesis


def hypothesis_settings(profile: str | None = None, **changes: Any) -> Settings:
    """The settings of Hypothesis profile ``profile`` (default: ``$HYPOTHESIS_PROFILE``, else
    ``fast``), with ``changes`` applied. Registers the kit's profiles without loading any, so the
    caller's global settings stay as they are; an unknown profile name falls back to ``fast``."""
    hypothesis = _hypothesis()
    from liarsdice.testing import register_profiles

    register_profiles(load=False)
    name = profile or os.environ.get(PROFILE_VARIABLE) or "fast"
    try:
        base = hypothesis.settings.get_profile(name)
    except hypothesis.errors.InvalidArgument:
        base = hypothesis.settings.get_profile("fast")
    chosen: Settings = hypothesis.settings(base, **changes)
    return chosen


@attrs.define
class CaseRun:
    """What a run of the laws covered: examples (games checked), distinct rulesets (variants and
    option values) and the ``(option, value)`` pairs the drawn rulesets used."""

    examples: int = 0
    rulesets: set[tuple[tuple[str, ...], tuple[tuple[str, JSON], ...]]] = attrs.Factory(set)
    values: set[tuple[str, JSON]] = attrs.Factory(set)
    found: str = ""
    """For the :data:`RELEVANCE_CASE`: the first difference the variant made, in words."""

    def add(self, rules: Ruleset) -> bool:
        """Count one example under ``rules``; true if this ruleset is new to the run."""
        self.examples += 1
        self.values.update(rules.options.items())
        key = (rules.names, tuple(sorted(rules.options.items())))
        if key in self.rulesets:
            return False
        self.rulesets.add(key)
        return True


def run_case(
    case: LawCase,
    settings: Settings | None = None,
    *,
    run: CaseRun | None = None,
    options: Mapping[str, Any] | None = None,
    laws: Sequence[GameLaw] = (),
    ruleset_laws: Sequence[RulesetLaw] = (),
    database_key: str = "",
) -> CaseRun:
    """Run every ruleset law and game law on games drawn for ``case`` (options drawn per example,
    or pinned by ``options``), with ``settings`` (default :func:`hypothesis_settings`); for the
    :data:`RELEVANCE_CASE`, search for a difference the variant makes instead. ``laws`` and
    ``ruleset_laws`` are checked beside the shipped ones; ``database_key`` (default: the case id)
    keeps this run's examples apart in Hypothesis's database from other runs of the same case.

    Raises the (shrunk) :class:`~liarsdice.testing.laws.LawViolation` of the first law broken,
    with Hypothesis's falsifying example attached as a note.
    """
    tally = run if run is not None else CaseRun()
    if case.name == RELEVANCE_CASE:
        tally.found = variant_changes_play(case.variant)
        return tally
    hypothesis = _hypothesis()
    from liarsdice.testing import strategies as lst  # it needs Hypothesis, checked above

    rulesets = lst.rulesets(case.candidates, include=case.include, options=options)

    game_laws = (*GAME_LAWS, *laws)
    broken: set[tuple[tuple[str, ...], tuple[tuple[str, JSON], ...]]] = set()
    all_ruleset_laws = (*RULESET_LAWS, *ruleset_laws)

    def check(game: PlayedGame) -> None:
        key = (game.rules.names, tuple(sorted(game.rules.options.items())))
        if tally.add(game.rules) or key in broken:
            try:
                check_ruleset(game.rules, all_ruleset_laws)
            except LawViolation:
                broken.add(key)  # so that Hypothesis sees it fail again when it replays the game
                raise
        check_game(game.rules, game.steps, game_laws)

    check.__name__ = check.__qualname__ = "laws_" + re.sub(r"\W+", "_", case.id)
    test = hypothesis.given(game=lst.games(rulesets))(check)
    # Keep each case's failures apart in Hypothesis's example database.
    test._hypothesis_internal_add_digest = (database_key or case.id).encode()
    if settings is None:
        # One bug at a time, without the slow "explain" phase: the law message says what broke.
        settings = hypothesis_settings(report_multiple_bugs=False)
        phases = [phase for phase in settings.phases if phase != hypothesis.Phase.explain]
        settings = hypothesis.settings(settings, phases=phases)
    try:
        settings(test)()
    except hypothesis.errors.HypothesisException as error:
        raise KitError(_kit_failure(case, error)) from error
    return tally


def _kit_failure(case: LawCase, error: Exception) -> str:
    """One paragraph on why Hypothesis could not run ``case``."""
    first = next((line for line in str(error).splitlines() if line.strip()), type(error).__name__)
    cause = (
        "a law or a plugin gave different answers for the same game (global state, the clock, "
        "an unseeded random stream)"
        if "Flaky" in type(error).__name__
        else "a strategy that throws most draws away: a plugin's combination_problem refusing "
        "nearly every option value, or a pinned option no combination accepts"
    )
    return (
        f"Hypothesis could not check {case.id} ({case.describe()}): {type(error).__name__}: "
        f"{first}\n  usual cause: {cause}"
    )


def run_rows(
    names: Sequence[str],
    rows: Iterable[Mapping[str, Any]],
    *,
    games: int = 2,
    seed: int = 0,
    run: CaseRun | None = None,
) -> CaseRun:
    """Play ``games`` seeded random games (3 players, 2 dice) of the combination ``names`` at each
    option row and check every law on them; raises the first ``LawViolation``."""
    tally = run if run is not None else CaseRun()
    for index, row in enumerate(rows):
        rules = Ruleset.build(names, row)
        check_ruleset(rules)
        for game in range(games):
            tally.add(rules)
            chooser = seed * 100_003 + index * 101 + game
            played = play_game(rules, ["p1", "p2", "p3"], 2, chooser, RandomChooser(chooser))
            check_game(rules, played.steps)
    return tally
