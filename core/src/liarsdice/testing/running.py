"""Running the rule laws on a law case: with Hypothesis, or as seeded games at fixed option rows.

The cases come from :mod:`liarsdice.testing.suite`; the relevance case is a seeded search
(:mod:`liarsdice.testing.relevance`), the others Hypothesis runs over the games of
:mod:`liarsdice.testing.strategies`. Hypothesis is imported only by :func:`run_case` and
:func:`hypothesis_settings`; without it they raise :class:`MissingHypothesis`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from liarsdice.models import JSON
from liarsdice.ruleset import Ruleset
from liarsdice.testing import PROFILE_VARIABLE, anticlockwise, isolation, replay
from liarsdice.testing.driver import PlayedGame, RandomChooser, play_game, seat_names, table_near
from liarsdice.testing.laws import (
    GAME_LAWS,
    RULESET_LAWS,
    GameLaw,
    LawViolation,
    RulesetLaw,
    check_game,
    check_ruleset,
)
from liarsdice.testing.plugins import ANTICLOCKWISE, ANTICLOCKWISE_NAME
from liarsdice.testing.relevance import variant_changes_play
from liarsdice.testing.suite.cases import (
    ANTICLOCKWISE_CASE,
    ISOLATION_CASE,
    RELEVANCE_CASE,
    SNAPSHOT_CASE,
    LawCase,
)

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


_SHIPPED: tuple[Callable[..., None], ...] = (*RULESET_LAWS, *GAME_LAWS)
SHIPPED_LAWS = {law.__name__: law for law in _SHIPPED}
"""Every shipped law by its function's name (what ``exclude=`` names)."""


def without(exclude: Iterable[str]) -> tuple[tuple[RulesetLaw, ...], tuple[GameLaw, ...]]:
    """The shipped ruleset laws and game laws but those named in ``exclude``; an unknown name is
    a ``ValueError`` listing the names."""
    names = set(exclude)
    unknown = sorted(names - set(SHIPPED_LAWS))
    if unknown:
        raise ValueError(
            f"no shipped law is called {', '.join(unknown)}; the laws: {', '.join(SHIPPED_LAWS)}"
        )
    return (
        tuple(law for law in RULESET_LAWS if law.__name__ not in names),
        tuple(law for law in GAME_LAWS if law.__name__ not in names),
    )


@attrs.frozen
class Replays:
    """How a failing game is offered for replay: the unpackaged variants, the extra laws and the
    shipped laws left out that the run was made with (named in the replay command), and a folder
    to write the game to as a scenario file (``None``: none written)."""

    plugins: Mapping[str, Any] = attrs.Factory(dict)
    laws: Sequence[GameLaw] = ()
    export: Path | None = None
    exclude: tuple[str, ...] = ()

    def note(self, violation: LawViolation, game: PlayedGame, name: str) -> None:
        """Attach the replay command to ``violation``; write the scenario file if asked."""
        violation.add_note(replay.how_to_replay(game, self.plugins, self.laws, self.exclude))
        if self.export is not None:
            slug = re.sub(r"[^\w.-]+", "_", name)
            path = replay.export(game, self.export / f"{slug}.json")
            violation.add_note(f"the game as a scenario file: {path} (liarsdice adjudicate)")


def run_case(
    case: LawCase,
    settings: Settings | None = None,
    *,
    run: CaseRun | None = None,
    options: Mapping[str, Any] | None = None,
    laws: Sequence[GameLaw] = (),
    ruleset_laws: Sequence[RulesetLaw] = (),
    exclude: Iterable[str] = (),
    database_key: str = "",
    seed: int | None = None,
    replays: Replays | None = None,
) -> CaseRun:
    """Run every ruleset law and game law on games drawn for ``case`` (options drawn per example,
    or pinned by ``options``), with ``settings`` (default :func:`hypothesis_settings`); for the
    :data:`RELEVANCE_CASE`, search for a difference the variant makes instead, for the
    :data:`ISOLATION_CASE` check that its games are independent (:mod:`.isolation`), and for the
    :data:`ANTICLOCKWISE_CASE` check seeded games played anticlockwise (:mod:`.anticlockwise`).
    ``laws`` and
    ``ruleset_laws`` are checked beside the shipped ones but those ``exclude`` names
    (:func:`without`); ``database_key`` (default: the case id) keeps this run's examples apart in
    Hypothesis's database from other runs of the same case; a ``seed`` makes the run the same
    every time.

    Raises the (shrunk) :class:`~liarsdice.testing.laws.LawViolation` of the first law broken,
    with Hypothesis's falsifying example and the command that replays it (:mod:`.replay`)
    attached as notes.
    """
    tally = run if run is not None else CaseRun()
    offer = attrs.evolve(
        replays if replays is not None else Replays(laws=laws), exclude=tuple(exclude)
    )
    if case.refusal:
        raise KitError(f"{case.id}: Ruleset.build refuses {case.describe()}: {case.refusal}")
    if case.name == SNAPSHOT_CASE:
        raise KitError(f"{case.id} compares a golden file: snapshots.check(variant, path) runs it")
    if case.name == RELEVANCE_CASE:
        tally.found = variant_changes_play(case.variant)
        return tally
    if case.name == ISOLATION_CASE:
        tally.found = isolation.check(isolation.rulesets_for(case.variant), fresh=True)
        return tally
    if case.name == ANTICLOCKWISE_CASE:
        reversing = attrs.evolve(
            offer, plugins={**offer.plugins, ANTICLOCKWISE_NAME: ANTICLOCKWISE}
        )
        tally.found = anticlockwise.check(
            case.variant,
            exclude=exclude,
            on_violation=lambda violation, game: reversing.note(violation, game, case.id),
        )
        return tally
    hypothesis = _hypothesis()
    from liarsdice.testing import strategies as lst  # it needs Hypothesis, checked above

    rulesets = lst.rulesets(case.candidates, include=case.include, options=options)
    kept_ruleset_laws, kept_game_laws = without(exclude)
    game_laws = (*kept_game_laws, *laws)
    broken: set[tuple[tuple[str, ...], tuple[tuple[str, JSON], ...]]] = set()
    all_ruleset_laws = (*kept_ruleset_laws, *ruleset_laws)

    def check(game: PlayedGame) -> None:
        key = (game.rules.names, tuple(sorted(game.rules.options.items())))
        if tally.add(game.rules) or key in broken:
            try:
                check_ruleset(game.rules, all_ruleset_laws)
            except LawViolation:
                broken.add(key)  # so that Hypothesis sees it fail again when it replays the game
                raise
        try:
            check_game(game.rules, game.steps, game_laws)
        except LawViolation as violation:
            offer.note(violation, game, case.id)
            raise

    check.__name__ = check.__qualname__ = "laws_" + re.sub(r"\W+", "_", case.id)
    test = hypothesis.given(game=lst.games(rulesets))(check)
    # Keep each case's failures apart in Hypothesis's example database.
    test._hypothesis_internal_add_digest = (database_key or case.id).encode()
    if seed is not None:
        test = hypothesis.seed(seed)(test)
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
    replays: Replays | None = None,
) -> CaseRun:
    """Play ``games`` seeded random games of the combination ``names`` at each option row, at 3
    players with 2 dice or the nearest table the ruleset takes (teams: 4 players;
    :func:`~liarsdice.testing.driver.table_near`), and check every law on them; raises the first
    ``LawViolation``, with the command that replays its game."""
    tally = run if run is not None else CaseRun()
    offer = replays if replays is not None else Replays()
    for index, row in enumerate(rows):
        rules = Ruleset.build(names, row)
        check_ruleset(rules)
        players, dice = table_near(rules, 3, 2)
        for game in range(games):
            tally.add(rules)
            chooser = seed * 100_003 + index * 101 + game
            played = play_game(rules, seat_names(players), dice, chooser, RandomChooser(chooser))
            try:
                check_game(rules, played.steps)
            except LawViolation as violation:
                offer.note(violation, played, "+".join(rules.names[1:]) or "standard")
                raise
    return tally
