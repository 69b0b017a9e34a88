"""Precedence among variants: the order hooks ask them in, and the checks that keep it explicit.

The baseline ``standard`` is a fallback: it answers a first-result hook only when no variant does.
Among variants the order is declared (``VariantInfo.before`` / ``after``), never taken from names
or from pluggy's ``tryfirst``/``trylast``. A ruleset is refused when two of its variants answer the
same first-result hook with no declared order between them, and when an implementation can never
run because a variant asked before it answers that hook for every possible input.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import pluggy

PER_PLUGIN_HOOKS = frozenset(
    {
        "liarsdice_variant_info",
        "liarsdice_register_options",
        "liarsdice_register_calls",
        "liarsdice_register_presets",
        "liarsdice_describe",
        "liarsdice_payload_choices",
        "liarsdice_game_limit",
    }
)
"""Hooks called on each plugin on its own, never through a chain: a wrapper there never runs."""

PROBE_QUANTITIES = 60
"""Bids up to this quantity are tried when checking whether an implementation answers every bid."""


class _Variant(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def info(self) -> Any: ...


def marker_problems(name: str, pm: pluggy.PluginManager) -> list[str]:
    """What is wrong with the hook markers of plugin ``name`` (registered alone in ``pm``).

    ``tryfirst``/``trylast`` are refused (order is declared in ``VariantInfo``), and so is a
    wrapper on a hook that is called on each plugin separately (it would never run).
    """
    problems = []
    for caller in pm.get_hookcallers(pm.get_plugin(name)) or []:
        for impl in caller.get_hookimpls():
            if impl.plugin_name != name:
                continue
            if impl.tryfirst or impl.trylast:
                marker = "tryfirst" if impl.tryfirst else "trylast"
                problems.append(
                    f"{caller.name} is marked {marker}, which liarsdice does not use: the baseline "
                    "answers only when no variant does, and variants declare their order with "
                    "VariantInfo(before=..., after=...)"
                )
            if (impl.wrapper or impl.hookwrapper) and caller.name in PER_PLUGIN_HOOKS:
                problems.append(
                    f"{caller.name} is a wrapper, but that hook is called on each plugin on its "
                    "own, so the wrapper would never run"
                )
    return problems


def _edges(variants: Sequence[_Variant]) -> set[tuple[str, str]]:
    """Declared ``(earlier, later)`` pairs among ``variants``."""
    present = {variant.name for variant in variants}
    edges = set()
    for variant in variants:
        edges |= {(variant.name, other) for other in variant.info.before if other in present}
        edges |= {(other, variant.name) for other in variant.info.after if other in present}
    return edges


def order(variants: Sequence[_Variant]) -> tuple[list[str], set[tuple[str, str]]]:
    """The variant names in precedence order (first asked first; undeclared ties by name), and
    every ``(earlier, later)`` pair the declarations imply, transitively.

    Raises ``ValueError`` naming a cycle when the declarations contradict each other.
    """
    names = sorted(variant.name for variant in variants)
    edges = _edges(variants)
    following: dict[str, set[str]] = {name: set() for name in names}
    waiting = dict.fromkeys(names, 0)
    for earlier, later in edges:
        following[earlier].add(later)
        waiting[later] += 1
    ready = [name for name in names if not waiting[name]]
    heapq.heapify(ready)
    ordered: list[str] = []
    while ready:
        name = heapq.heappop(ready)
        ordered.append(name)
        for later in sorted(following[name]):
            waiting[later] -= 1
            if not waiting[later]:
                heapq.heappush(ready, later)
    if len(ordered) != len(names):
        stuck = sorted(name for name in names if name not in ordered)
        declared = sorted(f"{a} before {b}" for a, b in edges if a in stuck and b in stuck)
        raise ValueError(
            f"the declared order of {', '.join(stuck)} goes round in a circle: {'; '.join(declared)}"
        )
    closure: set[tuple[str, str]] = set()
    for name in reversed(ordered):  # everything after a variant is after what it precedes
        for later in following[name]:
            closure.add((name, later))
            closure |= {(name, after) for (first, after) in closure if first == later}
    return ordered, closure


KEYED_BY_CALL = frozenset({"liarsdice_resolve_call"})
"""First-result hooks asked about one call kind at a time: variants usually answer only their own
kinds, so the build-time order check leaves them out; the rule law "one variant rules on each
call" (:mod:`liarsdice.testing.laws`) checks them in play."""


def ordered(precedes: set[tuple[str, str]], a: str, b: str) -> bool:
    """True when the declarations put ``a`` and ``b`` in an order, either way round."""
    return (a, b) in precedes or (b, a) in precedes


def first_result_hooks(pm: pluggy.PluginManager) -> list[str]:
    """The game hooks that stop at the first answer (the ones precedence decides)."""
    return sorted(
        name
        for name in dir(pm.hook)
        if name.startswith("liarsdice_")
        and name not in PER_PLUGIN_HOOKS
        and getattr(pm.hook, name).spec is not None
        and getattr(pm.hook, name).spec.opts.get("firstresult")
    )


def answering(pm: pluggy.PluginManager, hook: str, baseline: str) -> list[pluggy.HookImpl]:
    """The variants' (not wrapper) implementations of ``hook``, in the order they are asked."""
    return [
        impl
        for impl in reversed(getattr(pm.hook, hook).get_hookimpls())
        if not (impl.wrapper or impl.hookwrapper) and impl.plugin_name != baseline
    ]


Probes = Mapping[str, Sequence[Any]]
"""Every value of the arguments that can be tried in full at build time: faces, bids, calls."""


def _domains(probes: Probes, argnames: Iterable[str]) -> list[dict[str, Any]]:
    """Every combination of probe values for ``argnames``; empty list if one cannot be probed."""
    combos: list[dict[str, Any]] = [{}]
    for arg in argnames:
        if arg == "options":
            continue
        if arg not in probes:
            return []
        combos = [{**combo, arg: value} for combo in combos for value in probes[arg]]
    return combos


def answered(impl: pluggy.HookImpl, probes: Probes, options: Any) -> set[Any] | None:
    """The inputs ``impl`` answers (non-``None``), if it reads only probe-able arguments; else
    ``None`` (an implementation that reads the state may answer anything)."""
    combos = _domains(probes, impl.argnames)
    if not combos:
        return None
    function: Callable[..., Any] = impl.function
    found = set()
    for combo in combos:
        kwargs = {**combo, "options": options} if "options" in impl.argnames else combo
        if function(**kwargs) is not None:
            found.add(tuple(sorted(combo.items())))
    return found


def unordered(
    pm: pluggy.PluginManager,
    baseline: str,
    precedes: set[tuple[str, str]],
    probes: Probes,
    options: Any,
) -> list[str]:
    """A sentence for each pair of variants that may answer the same first-result hook with no
    declared order between them (two implementations that read only faces, bids or call kinds
    and answer none of the same ones need no order)."""
    problems = []
    for hook in first_result_hooks(pm):
        if hook in KEYED_BY_CALL:
            continue
        impls = answering(pm, hook, baseline)
        for index, first in enumerate(impls):
            for second in impls[index + 1 :]:
                a, b = sorted((first.plugin_name, second.plugin_name))
                if ordered(precedes, a, b):
                    continue
                mine, theirs = answered(first, probes, options), answered(second, probes, options)
                if mine is not None and theirs is not None and not mine & theirs:
                    continue
                problems.append(
                    f"{a} and {b} both answer {hook}, and neither declares which comes first: "
                    f"add before=({b!r},) or after=({b!r},) to {a}'s VariantInfo (or the same, "
                    f"naming {a}, to {b}'s)"
                )
    return problems


def unordered_wrappers(
    pm: pluggy.PluginManager, baseline: str, precedes: set[tuple[str, str]]
) -> list[str]:
    """A sentence for each pair of variants that wrap the same hook with no declared order between
    them: which wrapper runs outermost would otherwise follow their names."""
    problems = []
    for name in sorted(dir(pm.hook)):
        if not name.startswith("liarsdice_") or name in PER_PLUGIN_HOOKS:
            continue
        wrappers = sorted(
            impl.plugin_name
            for impl in getattr(pm.hook, name).get_hookimpls()
            if (impl.wrapper or impl.hookwrapper) and impl.plugin_name != baseline
        )
        for index, a in enumerate(wrappers):
            for b in wrappers[index + 1 :]:
                if not ordered(precedes, a, b):
                    problems.append(
                        f"{a} and {b} both wrap {name}, and neither declares which comes first "
                        f"(the one asked first wraps the other): add before=({b!r},) or "
                        f"after=({b!r},) to {a}'s VariantInfo"
                    )
    return problems


def unreachable(
    pm: pluggy.PluginManager,
    baseline: str,
    precedes: set[tuple[str, str]],
    probes: Probes,
    options: Any,
) -> list[str]:
    """A sentence for each variant implementation that can never run: a variant asked before it
    answers the same first-result hook for every value of the arguments it reads (found by trying
    them all: faces, bids, call kinds; an implementation that reads the state is never "total")."""
    problems = []
    for hook in first_result_hooks(pm):
        impls = answering(pm, hook, baseline)
        for index, impl in enumerate(impls[:-1]):
            inputs = answered(impl, probes, options)
            if inputs is None or len(inputs) < len(_domains(probes, impl.argnames)):
                continue
            reads = ", ".join(arg for arg in impl.argnames if arg != "options") or "nothing"
            for dead in impls[index + 1 :]:
                first, later = impl.plugin_name, dead.plugin_name
                fix = (
                    f"reverse the declared order of {first} and {later}"
                    if (first, later) in precedes
                    else f"declare {later} before {first}"
                )
                problems.append(
                    f"{later}'s {hook} can never run: {first} is asked first and answers it for "
                    f"every value of what it reads ({reads}); {fix}, or leave the hook out"
                )
            break
    return problems
