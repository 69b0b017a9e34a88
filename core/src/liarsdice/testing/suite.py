"""Which combinations of variants to check, and running the rule laws on them.

This is the engine behind the pytest plugin (:mod:`liarsdice.testing.pytest_plugin`) and the
``tox -e props`` sweep; it does not need pytest.

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
"""

from __future__ import annotations

import importlib
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from liarsdice.errors import MissingRequirement, PluginError, RulesetError
from liarsdice.models import JSON
from liarsdice.options import Option
from liarsdice.ruleset import (
    BASELINE,
    InstalledVariant,
    Ruleset,
    find_variant,
    installed,
    structural_problem,
)
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

if TYPE_CHECKING:
    from hypothesis import settings as Settings

MAX_OPTION_VALUES = 16
"""An int option without bounds is tried at its default and a few values around it, at most this
many (an option with bounds is tried at every value in them)."""


RELEVANCE_CASE = "does-something"
"""The case that checks a variant changes at least one legal move or ruling
(:mod:`liarsdice.testing.relevance`): a seeded search, not a Hypothesis run."""


class KitError(AssertionError):
    """Hypothesis could not run a case (a failed health check, an unsatisfiable strategy, a flaky
    law): one message naming the case, what went wrong and what usually causes it."""


class MissingHypothesis(ImportError):
    """The laws need Hypothesis: ``pip install 'liarsdice-rules[testing]'``."""


@attrs.frozen
class LawCase:
    """One law check: rulesets drawn from ``candidates`` (plus the baseline), each holding every
    variant of ``include``, with option values drawn from their declarations.

    ``name`` is short (``alone``, ``with[calza]``, ``any-combination``) and ``variant`` is the
    variant the case was made for.
    """

    variant: str
    name: str
    candidates: tuple[str, ...]
    include: tuple[str, ...]

    @property
    def id(self) -> str:
        """``difference::with[calza]``."""
        return f"{self.variant}::{self.name}"

    def describe(self) -> str:
        """One line: what the rulesets of this case hold."""
        optional = [name for name in self.candidates if name not in self.include]
        text = " + ".join(self.include)
        if optional:
            text += f", with any valid subset of {', '.join(optional)}"
        return text


# --- combinations -------------------------------------------------------------------------------


def _providers(name: str, known: Mapping[str, InstalledVariant]) -> list[str]:
    """The installed variants called ``name`` or providing the capability ``name``."""
    return [v.name for v in known.values() if v.name == name or name in v.info.provides]


def _closure(names: Iterable[str], known: Mapping[str, InstalledVariant]) -> set[str]:
    """``names`` and everything they require, transitively: a required capability brings every
    installed variant that provides it (unknown names are left out)."""
    found: set[str] = set()
    todo = [name for name in names if name in known]
    while todo:
        name = todo.pop()
        if name in found or name == BASELINE:
            continue
        found.add(name)
        for required in known[name].info.requires:
            todo += _providers(required, known)
    return found


def structurally_valid(names: Iterable[str], known: Mapping[str, InstalledVariant]) -> bool:
    """Requirements met, no declared conflict, some economics: the checks that need no options."""
    chosen = [known[BASELINE], *(known[name] for name in set(names) - {BASELINE})]
    return structural_problem(chosen) is None


Fixed = tuple[tuple[str, JSON], ...]
"""Option values pinned by the caller, as sorted ``(key, value)`` pairs."""

_subset_cache: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[object, list[tuple[str, ...]]]]
_subset_cache = {}
_options_cache: dict[tuple[tuple[str, ...], Fixed], tuple[object, dict[str, JSON] | None]] = {}


def _clash(a: InstalledVariant, b: InstalledVariant) -> bool:
    """``a`` and ``b`` declare a conflict (by name or capability)."""
    return any(name == b.name or name in b.info.provides for name in a.info.conflicts) or any(
        name == a.name or name in a.info.provides for name in b.info.conflicts
    )


def valid_subsets(candidates: Sequence[str], include: Sequence[str]) -> list[tuple[str, ...]]:
    """Every structurally valid subset of ``candidates`` holding ``include`` (requirements met, no
    declared conflict, some economics), each sorted, smallest first. Subsets holding a declared
    clash are never listed, so the search skips them early. Cached per installed plugins."""
    variants = installed()
    key = (tuple(sorted(candidates)), tuple(sorted(include)))
    cached = _subset_cache.get(key)
    if cached is not None and cached[0] is variants:
        return cached[1]
    optional = [name for name in key[0] if name not in include]
    found: list[tuple[str, ...]] = []

    def extend(chosen: tuple[str, ...], rest: list[str]) -> None:
        if not rest:
            if structurally_valid(chosen, variants):
                found.append(tuple(sorted(chosen)))
            return
        first, *others = rest
        extend(chosen, others)
        if not any(_clash(variants[first], variants[name]) for name in chosen):
            extend((*chosen, first), others)

    extend(key[1], optional)
    found.sort(key=lambda names: (len(names), names))
    _subset_cache[key] = (variants, found)
    return found


def playable_options(names: Sequence[str], fixed: Fixed = ()) -> dict[str, JSON] | None:
    """Option values with which ``Ruleset.build`` accepts exactly ``names`` and the ``fixed``
    values that concern them (the defaults if they build, else the first option row that does),
    or ``None`` when no values build. Cached per installed plugins."""
    variants = installed()
    chosen = tuple(sorted(names))
    own = {BASELINE, *chosen}
    relevant = tuple((k, v) for k, v in fixed if k.partition(".")[0] in own)
    cached = _options_cache.get((chosen, relevant))
    if cached is not None and cached[0] is variants:
        return cached[1]
    found: dict[str, JSON] | None = None
    if structurally_valid(chosen, variants):
        rows = itertools.chain([{}], _lazy(lambda: option_rows(chosen)[0]))
        for row in rows:
            candidate = {**row, **dict(relevant)}
            if _builds(chosen, candidate):
                found = candidate
                break
    _options_cache[(chosen, relevant)] = (variants, found)
    return found


def _lazy(rows: Callable[[], list[dict[str, JSON]]]) -> Iterator[dict[str, JSON]]:
    """The rows ``rows()`` gives, computed only when the first is asked for."""
    yield from rows()


def smallest_combination(
    candidates: Sequence[str], include: Sequence[str], fixed: Fixed = ()
) -> tuple[str, ...]:
    """The smallest valid, buildable subset of ``candidates`` holding ``include`` (what it requires
    and an economics plugin if it has none are tried first). Raises :class:`RulesetError`."""
    known = installed()
    likely = [name for name in _candidates(include, known) if name in candidates]
    for pool in (likely, list(candidates)):
        optional = sorted(set(pool) - set(include))
        for size in range(len(optional) + 1):
            for extra in itertools.combinations(optional, size):
                names = tuple(sorted({*include, *extra}))
                if playable_options(names, fixed) is not None:
                    return names
    raise RulesetError(f"no combination of {list(candidates)} holding {list(include)} builds")


def option_domain(option: Option) -> list[JSON]:
    """Every value of ``option`` (ints: ascending; others: the default first)."""
    default = option.default
    if type(default) is bool:
        return [default, not default]
    if type(default) is int:
        low = option.minimum if option.minimum is not None else default - MAX_OPTION_VALUES // 2
        high = option.maximum if option.maximum is not None else low + MAX_OPTION_VALUES - 1
        return list(range(low, high + 1))
    if option.choices:
        return [default, *(choice for choice in option.choices if choice != default)]
    return [default]


def declared_options(names: Iterable[str]) -> list[Option]:
    """The options of the baseline and ``names``, in ruleset order."""
    known = installed()
    return [
        option
        for name in (BASELINE, *sorted(set(names) - {BASELINE}))
        for option in known[name].options
    ]


def _builds(names: Sequence[str], options: Mapping[str, Any]) -> bool:
    """``Ruleset.build`` accepts these variants and options. A plugin that fails while the ruleset
    is built (a hook that raises or answers out of contract) does not refuse the combination: it
    is broken, and the cases holding it fail with its error when they run."""
    try:
        Ruleset.build(names, options)
    except RulesetError:
        return False
    except PluginError:
        return True
    return True


def option_rows(names: Sequence[str]) -> tuple[list[dict[str, JSON]], list[tuple[str, JSON]]]:
    """Option values for the combination ``names`` that ``Ruleset.build`` accepts and that between
    them give every option every value of its declaration at least once.

    Returns ``(rows, unreachable)``: ``rows`` is a list of option mappings (the first is the
    defaults when they build), ``unreachable`` the ``(key, value)`` pairs no row could use because
    the combination refuses them whatever the other options (for example
    ``standard.wild_ones=false`` beside ``aces-switch``).
    """
    options = declared_options(names)
    domains = {option.key: option_domain(option) for option in options}
    defaults = {option.key: option.default for option in options}
    rows: list[dict[str, JSON]] = []
    covered: set[tuple[str, JSON]] = set()

    def accept(row: dict[str, JSON]) -> bool:
        if row in rows or not _builds(names, row):
            return False
        rows.append(row)
        covered.update(row.items())
        return True

    accept(dict(defaults))
    width = max((len(values) for values in domains.values()), default=0)
    for index in range(width):
        row = {key: values[index % len(values)] for key, values in domains.items()}
        if accept(row):
            continue
        # Put options back to their defaults one at a time until the row builds.
        for key in row:
            row[key] = defaults[key]
            if accept(dict(row)):
                break
    unreachable: list[tuple[str, JSON]] = []
    for key, values in domains.items():
        for value in values:
            if (key, value) in covered:
                continue
            if not any(accept({**base, key: value}) for base in [defaults, *rows]):
                unreachable.append((key, value))
    return rows, unreachable


def buildable(names: Sequence[str]) -> bool:
    """``Ruleset.build`` accepts exactly these variants for some option values."""
    return playable_options(names) is not None


def valid_combinations(variants: Iterable[str] | None = None) -> list[tuple[str, ...]]:
    """Every combination of ``variants`` (default: all installed, the baseline aside) that
    ``Ruleset.build`` accepts for some option values, smallest first, each sorted."""
    known = installed()
    pool = sorted(set(known if variants is None else variants) - {BASELINE})
    found = []
    for size in range(len(pool) + 1):
        for combo in itertools.combinations(pool, size):
            if buildable(combo):
                found.append(combo)
    return found


def _economics(known: Mapping[str, InstalledVariant]) -> list[str]:
    return [name for name, variant in known.items() if variant.info.economics]


def _candidates(include: Sequence[str], known: Mapping[str, InstalledVariant]) -> tuple[str, ...]:
    """``include``, what it requires, and the economics plugins if none of those is one."""
    chosen = _closure(include, known)
    if not any(known[name].info.economics for name in chosen):
        chosen |= _closure(_economics(known), known)
    return tuple(sorted(chosen))


def _playable(candidates: Sequence[str], include: Sequence[str]) -> bool:
    """Some subset of ``candidates`` holding ``include`` builds, for some option values."""
    optional = [name for name in candidates if name not in include]
    return any(
        buildable((*include, *extra))
        for size in range(len(optional) + 1)
        for extra in itertools.combinations(optional, size)
    )


def law_cases(variant: str, *, combine: bool = True) -> list[LawCase]:
    """The law checks for ``variant``: alone, that it does something (:data:`RELEVANCE_CASE`),
    with each compatible installed variant, and in any valid combination of the installed variants
    (without ``combine``, only the first two).

    Raises :class:`~liarsdice.errors.RulesetError` or :class:`~liarsdice.errors.PluginError` when
    the variant is not installed, fails to load, or cannot be played even alone.
    """
    find_variant(variant)  # raises UnknownVariant, or the plugin's load error
    known = installed()
    missing = sorted(
        required for required in known[variant].info.requires if not _providers(required, known)
    )
    if missing:
        raise MissingRequirement(
            f"{variant} requires {', '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} "
            "not installed"
        )
    if variant == BASELINE:
        include: tuple[str, ...] = ()
    else:
        include = (variant,)
    alone = LawCase(variant, "alone", _candidates(include, known), include)
    if not _playable(alone.candidates, include):
        raise RulesetError(
            f"{variant} cannot be played with {', '.join(alone.candidates)}: "
            f"no combination of them builds"
        )
    cases = [alone]
    if variant != BASELINE:
        cases.append(attrs.evolve(alone, name=RELEVANCE_CASE))
    if not combine:
        return cases
    for other in sorted(set(known) - {BASELINE, variant}):
        pair = tuple(sorted({*include, other}))
        candidates = _candidates(pair, known)
        if _playable(candidates, pair):
            cases.append(LawCase(variant, f"with[{other}]", candidates, pair))
    everything = tuple(sorted(set(known) - {BASELINE}))
    cases.append(LawCase(variant, "any-combination", everything, include))
    return cases


def smallest_ruleset(variant: str) -> Ruleset:
    """The smallest ruleset holding ``variant``: the variant, what it requires, and an economics
    plugin if it has none, at default option values where they build."""
    case = law_cases(variant, combine=False)[0]
    names = smallest_combination(case.candidates, case.include)
    return Ruleset.build(names, playable_options(names) or {})


# --- running the laws ---------------------------------------------------------------------------


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
        relevance = importlib.import_module("liarsdice.testing.relevance")
        tally.found = relevance.variant_changes_play(case.variant)
        return tally
    hypothesis = _hypothesis()
    lst = importlib.import_module("liarsdice.testing.strategies")

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
