"""Option values for a combination of variants: every value of every option, in rows that build.

:func:`option_rows` covers every value at least once; :func:`playable_options` gives one row that
builds (cached per installed plugins), and :func:`buildable` says whether any does.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from liarsdice.errors import PluginError, RulesetError
from liarsdice.models import JSON
from liarsdice.options import Option
from liarsdice.ruleset import BASELINE, Ruleset, installed
from liarsdice.testing.suite.structure import structurally_valid

MAX_OPTION_VALUES = 16
"""An int option without bounds is tried at its default and a few values around it, at most this
many (an option with bounds is tried at every value in them)."""


Fixed = tuple[tuple[str, JSON], ...]
"""Option values pinned by the caller, as sorted ``(key, value)`` pairs."""


_options_cache: dict[tuple[tuple[str, ...], Fixed], tuple[object, dict[str, JSON] | None]] = {}


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
