"""Which variants can go together by their declarations alone: requirements, conflicts, economics.

Nothing here builds a ruleset or looks at option values; :func:`valid_subsets` is cached per
installed plugins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from liarsdice.combination import providers, structural_problem
from liarsdice.ruleset import BASELINE, InstalledVariant, installed


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
            todo += providers(required, known.values())
    return found


def structurally_valid(names: Iterable[str], known: Mapping[str, InstalledVariant]) -> bool:
    """Requirements met, no declared conflict, some economics: the checks that need no options."""
    chosen = [known[BASELINE], *(known[name] for name in set(names) - {BASELINE})]
    return structural_problem(chosen) is None


_subset_cache: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[object, list[tuple[str, ...]]]]
_subset_cache = {}


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


def _economics(known: Mapping[str, InstalledVariant]) -> list[str]:
    return [name for name, variant in known.items() if variant.info.economics]


def candidates_for(
    include: Sequence[str], known: Mapping[str, InstalledVariant]
) -> tuple[str, ...]:
    """``include``, what it requires, and the economics plugins if none of those is one."""
    chosen = _closure(include, known)
    if not any(known[name].info.economics for name in chosen):
        chosen |= _closure(_economics(known), known)
    return tuple(sorted(chosen))
