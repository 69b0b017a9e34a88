"""The sweep's plan: the rulesets ``tox -e props`` checks, computed once and kept in a file.

A plan has a *mode*:

- ``cover`` at strength t (1, 2 or 3): a covering array (:mod:`.covering`) over the installed
  variants (each in or out) and every value of their options (:func:`option_domain`), with
  ``Ruleset.build`` as the constraint, so that every t-tuple of them that some ruleset can hold
  is held by at least one row. Each row is one ruleset, every option pinned.
- ``all``: every valid combination of the installed variants (:func:`valid_combinations`), the
  options drawn per example.

``sample`` adds that many random valid rulesets (variants and option values drawn from the
plan's seed) on top. :func:`load_plan` computes a plan or reads it from a cache file keyed by the
installed plugins (their names, distributions, versions and source) and the request, so xdist
workers and later runs share it; :meth:`Plan.shard` splits it for several machines.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from random import Random
from typing import Any

import attrs

from liarsdice.combination import providers, structural_problem
from liarsdice.errors import RulesetError
from liarsdice.models import JSON
from liarsdice.ruleset import BASELINE, InstalledVariant, Ruleset, installed
from liarsdice.testing.suite.cases import valid_combinations
from liarsdice.testing.suite.covering import Assignment, Coverage, Factor, Row, cover
from liarsdice.testing.suite.option_values import option_domain, option_rows

PLAN_FORMAT = 1
"""Bumped when the plan's contents or its file change meaning."""

MODES = ("cover", "all")


@attrs.frozen
class Request:
    """What plan to make: ``mode`` (:data:`MODES`), the covering ``strength``, ``sample`` random
    rulesets on top, and the ``seed`` of everything random in it."""

    mode: str = "cover"
    strength: int = 2
    sample: int = 0
    seed: int = 0

    def describe(self) -> str:
        what = (
            f"{self.strength}-way covering array"
            if self.mode == "cover"
            else "every valid combination"
        )
        return what + (f" + {self.sample} sampled" if self.sample else "") + f", seed {self.seed}"


@attrs.frozen
class PlanRow:
    """One ruleset to check: its variants, and its options (``None``: drawn per example)."""

    id: str
    variants: tuple[str, ...]
    options: Mapping[str, JSON] | None


@attrs.frozen
class Plan:
    """The rows of a request, and what the covering array covered (``tuples``, ``covered`` and
    the ``uncoverable`` tuples with the reason; all zero/empty outside ``cover``)."""

    request: Request
    rows: tuple[PlanRow, ...]
    tuples: int = 0
    covered: int = 0
    uncoverable: tuple[tuple[Assignment, str], ...] = ()
    key: str = ""

    def shard(self, number: int, count: int) -> tuple[PlanRow, ...]:
        """Shard ``number`` of ``count`` (1-based): every ``count``-th row, so shards are even."""
        if not 1 <= number <= count:
            raise ValueError(f"shard {number}/{count}: the number must be within 1..{count}")
        return self.rows[number - 1 :: count]

    def summary(self) -> str:
        """The plan in one line, as the sweep prints it first."""
        text = f"plan: {self.request.describe()}: {len(self.rows):,} rulesets"
        if self.request.mode == "cover":
            text += (
                f"; {self.covered:,} of {self.tuples:,} {self.request.strength}-tuples of variants "
                f"and option values covered, {len(self.uncoverable):,} no ruleset can hold"
            )
        return text


# --- the constraint: Ruleset.build --------------------------------------------------------------


def factors(known: Mapping[str, InstalledVariant]) -> list[Factor]:
    """The sweep's factors: each installed variant, in or out, then every option of the baseline
    and of the variants at each value of its declaration (a variant's options only with it in)."""
    variants = sorted(set(known) - {BASELINE})
    found = [Factor(name, (False, True)) for name in variants]
    for name in (BASELINE, *variants):
        for option in known[name].options:
            needs = None if name == BASELINE else (name, True)
            found.append(Factor(option.key, tuple(option_domain(option)), needs))
    return found


@attrs.define
class BuildOracle:
    """Rows refused or accepted by ``Ruleset.build`` (cached), and the smallest accepted row
    holding a tuple: its variants, what they require, an economics plugin if none is there, the
    other options at their defaults and then at each option row of those variants."""

    known: Mapping[str, InstalledVariant]
    _built: dict[tuple[tuple[str, ...], tuple[tuple[str, JSON], ...]], str | None] = attrs.Factory(
        dict
    )
    _rows: dict[tuple[str, ...], list[dict[str, JSON]]] = attrs.Factory(dict)

    def refusal(self, row: Row) -> str | None:
        names = tuple(sorted(k for k, v in row.items() if v is True and k in self.known))
        options = tuple(sorted((k, v) for k, v in row.items() if k not in self.known))
        key = (names, options)
        if key not in self._built:
            try:
                Ruleset.build(names, dict(options))
                self._built[key] = None
            except RulesetError as error:
                self._built[key] = str(error)
        return self._built[key]

    def refused_pairs(self, factors: Sequence[Factor]) -> list[tuple[Assignment, str]]:
        """Every pair of values of different ``factors`` that no ruleset holds, with the reason:
        two values that are both "on" (a variant in, an option's value) whose smallest
        completions ``Ruleset.build`` refuses, and a variant out beside a value that no
        combination without it can hold (a requirement only that variant meets)."""
        values = [(factor.name, value) for factor in factors for value in factor.values]
        found: list[tuple[Assignment, str]] = []
        for first, second in itertools.combinations(values, 2):
            pair = (first, second)
            if first[0] == second[0] or self._ill_formed(pair):
                continue
            if any(value is False and name in self.known for name, value in pair):
                inn, out, _ = self._split(pair)
                if next(self._structures(inn, out), None) is None:
                    found.append(
                        (
                            pair,
                            f"no combination without {', '.join(sorted(out))} meets "
                            "the requirements of the other",
                        )
                    )
                continue
            completed = self.complete(pair)
            if isinstance(completed, str):
                found.append((pair, completed))
        return found

    def _ill_formed(self, fixed: Assignment) -> bool:
        """An option's value beside its own variant out."""
        out = {name for name, value in fixed if name in self.known and value is False}
        return any(key.partition(".")[0] in out for key, _ in fixed if key not in self.known)

    def _split(self, fixed: Assignment) -> tuple[frozenset[str], frozenset[str], dict[str, JSON]]:
        """The variants a tuple puts in (its own, and those of its options), those it keeps out,
        and the option values it pins."""
        inn = {name for name, value in fixed if name in self.known and value is True}
        inn |= {key.partition(".")[0] for key, _ in fixed if key not in self.known} - {BASELINE}
        out = {name for name, value in fixed if name in self.known and value is False}
        pinned = {key: value for key, value in fixed if key not in self.known}
        return frozenset(inn), frozenset(out), pinned

    def complete(self, fixed: Assignment) -> Row | str:
        inn, out, pinned = self._split(fixed)
        first: str | None = None
        for names in self._structures(inn, out):
            for options in self._option_rows(names):
                row = self._row(names, {**options, **pinned})
                refused = self.refusal(row)
                if refused is None:
                    return row
                first = first or refused
        if first is not None:
            return first
        problem = structural_problem([self.known[BASELINE], *(self.known[n] for n in sorted(inn))])
        return str(problem) if problem is not None else "no combination without those meets it"

    def _row(self, names: Sequence[str], options: Mapping[str, JSON]) -> Row:
        row: Row = {name: name in names for name in sorted(set(self.known) - {BASELINE})}
        for name in (BASELINE, *names):
            for option in self.known[name].options:
                row[option.key] = options.get(option.key, option.default)
        return row

    def _option_rows(self, names: tuple[str, ...]) -> Iterator[Mapping[str, JSON]]:
        yield {}
        if names not in self._rows:
            self._rows[names] = option_rows(names)[0]
        yield from self._rows[names]

    def _structures(self, inn: frozenset[str], out: frozenset[str]) -> Iterator[tuple[str, ...]]:
        """The smallest sets holding ``inn`` and none of ``out`` whose requirements are met, that
        declare no conflict and have an economics plugin (breadth first, a few at most)."""
        frontier, seen, yielded = [inn], {inn}, 0
        while frontier and yielded < 4:
            current = frontier.pop(0)
            missing = self._missing(current)
            if missing is None:
                yielded += 1
                yield tuple(sorted(current))
                continue
            for extra in sorted(set(missing) - out - current):
                grown = current | {extra}
                if grown not in seen:
                    seen.add(grown)
                    frontier.append(grown)

    def _missing(self, names: frozenset[str]) -> list[str] | None:
        """What could complete ``names`` (providers of a missing requirement, else economics
        plugins); ``None`` when nothing is missing, ``[]`` when nothing can help (a conflict)."""
        chosen = [self.known[name] for name in names]
        for variant in chosen:
            for other in variant.info.conflicts:
                if any(v is not variant and providers(other, [v]) for v in chosen):
                    return []
        for variant in chosen:
            for required in variant.info.requires:
                if not providers(required, [v for v in chosen if v is not variant]):
                    return providers(required, self.known.values())
        if not any(variant.info.economics for variant in chosen):
            return [name for name, v in self.known.items() if v.info.economics]
        return None


# --- plans --------------------------------------------------------------------------------------


def make_plan(request: Request, known: Mapping[str, InstalledVariant] | None = None) -> Plan:
    """Compute the plan of ``request`` over the ``known`` variants (default: installed)."""
    known = installed() if known is None else known
    rng = Random(request.seed)
    rows: list[PlanRow] = []
    coverage: Coverage | None = None
    refused: list[tuple[Assignment, str]] = []
    if request.mode == "cover":
        oracle = BuildOracle(known)
        chosen = factors(known)
        refused = oracle.refused_pairs(chosen) if request.strength > 1 else []
        avoid = tuple(pair for pair, _ in refused)
        coverage = cover(chosen, request.strength, oracle, rng, avoid=avoid)
        for index, row in enumerate(coverage.rows):
            names = tuple(sorted(k for k, v in row.items() if v is True and k in known))
            options = {k: v for k, v in row.items() if "." in k}
            rows.append(PlanRow(f"c{index:04d}-{'+'.join(names) or BASELINE}", names, options))
    elif request.mode == "all":
        for index, names in enumerate(valid_combinations(list(known))):
            rows.append(PlanRow(f"a{index:05d}-{'+'.join(names) or BASELINE}", names, None))
    else:
        raise ValueError(f"unknown sweep mode {request.mode!r}: one of {', '.join(MODES)}")
    for index, (names, options) in enumerate(_samples(known, request.sample, rng)):
        rows.append(PlanRow(f"s{index:04d}-{'+'.join(names) or BASELINE}", names, options))
    if coverage is None:
        return Plan(request, tuple(rows))
    return Plan(
        request,
        tuple(rows),
        coverage.tuples,
        coverage.covered,
        (*refused, *coverage.uncoverable),
    )


def _samples(
    known: Mapping[str, InstalledVariant], count: int, rng: Random
) -> Iterator[tuple[tuple[str, ...], dict[str, JSON]]]:
    """``count`` random rulesets that build: each variant in with even odds, each option at a
    random value of its declaration; a draw that does not build is drawn again."""
    oracle = BuildOracle(known)
    variants = sorted(set(known) - {BASELINE})
    found = 0
    for _ in range(count * 200):
        names = tuple(name for name in variants if rng.random() < 0.5)
        options = {
            option.key: rng.choice(option_domain(option))
            for name in (BASELINE, *names)
            for option in known[name].options
        }
        if oracle.refusal({**{name: True for name in names}, **options}) is None:
            found += 1
            yield names, options
            if found == count:
                return
    if found < count:
        raise RulesetError(f"only {found} of {count} random rulesets built in {count * 200} draws")


# --- the cache file -----------------------------------------------------------------------------


def _source_digest(plugin: Any) -> str:
    """A digest of the source file of ``plugin`` (a module or an object), ``""`` if none."""
    try:
        path = inspect.getsourcefile(plugin if inspect.ismodule(plugin) else type(plugin))
    except TypeError:
        return ""
    if path is None:
        return ""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return ""


def plan_key(request: Request, known: Mapping[str, InstalledVariant] | None = None) -> str:
    """What a plan depends on, as a digest: the request and every installed plugin (name,
    distribution, version, source)."""
    known = installed() if known is None else known
    facts = {
        "format": PLAN_FORMAT,
        "kit": _version("liarsdice-rules"),
        "request": attrs.asdict(request),
        "plugins": [
            [name, v.distribution, _version(v.distribution), _source_digest(v.plugin)]
            for name, v in sorted(known.items())
        ],
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:20]


def _to_file(plan: Plan) -> dict[str, Any]:
    return {
        "key": plan.key,
        "request": attrs.asdict(plan.request),
        "rows": [[row.id, list(row.variants), row.options] for row in plan.rows],
        "tuples": plan.tuples,
        "covered": plan.covered,
        "uncoverable": [[list(map(list, tuple_)), reason] for tuple_, reason in plan.uncoverable],
    }


def _from_file(data: Mapping[str, Any]) -> Plan:
    return Plan(
        Request(**data["request"]),
        tuple(PlanRow(i, tuple(v), o) for i, v, o in data["rows"]),
        data["tuples"],
        data["covered"],
        tuple((tuple(tuple(m) for m in t), r) for t, r in data["uncoverable"]),
        data["key"],
    )


def load_plan(request: Request, folder: Path | None) -> tuple[Plan, bool]:
    """The plan of ``request``: read from ``folder`` when a file of the same key is there, else
    computed (and written there when ``folder`` is given). Returns it and whether it was read."""
    key = plan_key(request)
    path = None if folder is None else folder / f"plan-{key}.json"
    if path is not None and path.is_file():
        return _from_file(json.loads(path.read_text(encoding="utf-8"))), True
    plan = attrs.evolve(make_plan(request), key=key)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(_to_file(plan)), encoding="utf-8")
        partial.replace(path)
    return plan, False
