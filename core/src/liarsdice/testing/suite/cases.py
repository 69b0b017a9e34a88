"""Which combinations to check the laws on: a variant's law cases, and the buildable combinations.

"Compatible" means what ``Ruleset.build`` says: declared requirements and conflicts, each plugin's
``liarsdice_combination_problem`` for some option values, and at least one economics plugin.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import attrs

from liarsdice.combination import providers
from liarsdice.errors import MissingRequirement, NoEconomics, RulesetError
from liarsdice.ruleset import BASELINE, Ruleset, find_variant, installed
from liarsdice.testing.suite.option_values import Fixed, buildable, playable_options
from liarsdice.testing.suite.structure import candidates_for, valid_subsets

RELEVANCE_CASE = "does-something"
"""The case that checks a variant changes at least one legal move or ruling
(:mod:`liarsdice.testing.relevance`): a seeded search, not a Hypothesis run."""
ISOLATION_CASE = "isolation"
"""The case that checks a variant keeps nothing between games (:mod:`liarsdice.testing.isolation`):
seeded games in two orders and in a new process."""
SNAPSHOT_CASE = "rules-text"
"""The case that compares the variant's rules text and behaviour at each option value with its
golden file (:mod:`liarsdice.testing.snapshots`)."""
ANTICLOCKWISE_CASE = "anticlockwise"
"""The case that plays the variant beside a test variant that turns play anticlockwise and checks
every game law, among them that its "next player" is the one who plays next
(:mod:`liarsdice.testing.anticlockwise`)."""
SEEDED_CASES = (RELEVANCE_CASE, ISOLATION_CASE, SNAPSHOT_CASE, ANTICLOCKWISE_CASE)
"""The cases that play seeded games rather than Hypothesis's."""


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
    refusal: str = ""
    """Why ``Ruleset.build`` refuses every ruleset of the case, or why the case does not apply
    (then it is skipped, saying so)."""

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


def smallest_combination(
    candidates: Sequence[str], include: Sequence[str], fixed: Fixed = ()
) -> tuple[str, ...]:
    """The smallest valid, buildable subset of ``candidates`` holding ``include`` (what it requires
    and an economics plugin if it has none are tried first). Raises :class:`RulesetError`."""
    known = installed()
    likely = [name for name in candidates_for(include, known) if name in candidates]
    for pool in (likely, list(candidates)):
        optional = sorted(set(pool) - set(include))
        for size in range(len(optional) + 1):
            for extra in itertools.combinations(optional, size):
                names = tuple(sorted({*include, *extra}))
                if playable_options(names, fixed) is not None:
                    return names
    raise RulesetError(f"no combination of {list(candidates)} holding {list(include)} builds")


def valid_combinations(variants: Iterable[str] | None = None) -> list[tuple[str, ...]]:
    """Every combination of ``variants`` (default: all installed, the baseline aside) that
    ``Ruleset.build`` accepts for some option values, smallest first, each sorted."""
    known = installed()
    pool = sorted(set(known if variants is None else variants) - {BASELINE})
    return [names for names in valid_subsets(pool, ()) if buildable(names)]


def _playable(candidates: Sequence[str], include: Sequence[str]) -> bool:
    """Some subset of ``candidates`` holding ``include`` builds, for some option values."""
    optional = [name for name in candidates if name not in include]
    return any(
        buildable((*include, *extra))
        for size in range(len(optional) + 1)
        for extra in itertools.combinations(optional, size)
    )


def _refusal(candidates: Sequence[str], include: Sequence[str]) -> str:
    """Why no combination of ``candidates`` holding ``include`` builds: what ``Ruleset.build``
    says of ``include``, alone or (when it lacks economics) beside each other candidate."""
    for extra in [(), *((name,) for name in candidates if name not in include)]:
        try:
            Ruleset.build((*include, *extra))
        except NoEconomics:
            continue
        except RulesetError as error:
            return str(error)
    return f"no combination of {', '.join(candidates)} holding {', '.join(include)} builds"


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
        required
        for required in known[variant].info.requires
        if not providers(required, known.values())
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
    alone = LawCase(variant, "alone", candidates_for(include, known), include)
    if not _playable(alone.candidates, include):
        raise RulesetError(
            f"{variant} cannot be played with {', '.join(alone.candidates)}: "
            f"no combination of them builds"
        )
    cases = [alone]
    if variant != BASELINE:
        cases += [attrs.evolve(alone, name=name) for name in SEEDED_CASES]
        if hasattr(known[variant].plugin, "liarsdice_next_turn"):
            reason = f"{variant} decides who plays next itself (liarsdice_next_turn)"
            cases[-1] = attrs.evolve(cases[-1], refusal=reason)
    if not combine:
        return cases
    for other in sorted(set(known) - {BASELINE, variant}):
        pair = tuple(sorted({*include, other}))
        candidates = candidates_for(pair, known)
        refusal = "" if _playable(candidates, pair) else _refusal(candidates, pair)
        cases.append(LawCase(variant, f"with[{other}]", candidates, pair, refusal))
    everything = tuple(sorted(set(known) - {BASELINE}))
    cases.append(LawCase(variant, "any-combination", everything, include))
    return cases


def smallest_ruleset(variant: str) -> Ruleset:
    """The smallest ruleset holding ``variant``: the variant, what it requires, and an economics
    plugin if it has none, at default option values where they build."""
    case = law_cases(variant, combine=False)[0]
    names = smallest_combination(case.candidates, case.include)
    return Ruleset.build(names, playable_options(names) or {})
