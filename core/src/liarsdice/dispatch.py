"""Pre-resolved hook dispatch: a typed facade over a ruleset's plugin manager.

A ruleset's plugins never change after it is built, so each hook's implementations are resolved
once, in pluggy's calling order (the variants in precedence order, the baseline last), into a plain
Python callable with the options bound. Calls then skip pluggy's per-call bookkeeping. A hook with
a wrapper implementation falls back to pluggy. Results are the same as ``pm.hook.<name>(...)``
(the effect hooks pair each answer with the plugin that gave it); a test checks that they agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any

import pluggy

from liarsdice.events import Effect
from liarsdice.models import Bid, GameState, Payload, RankKey, Resolution
from liarsdice.options import Options

_Call = Callable[..., Any]

EFFECT_HOOKS = frozenset({"settle", "round_started", "bid_made", "call_made"})
"""Collect-all hooks whose answers are effects: their results come as ``(plugin, effects)``."""

WRAPPED = "(a wrapper)"
"""The plugin name given to effects that came through a wrapper (pluggy merges them)."""


def _bind(impl: pluggy.HookImpl, call_args: Sequence[str], options: Options) -> _Call:
    """``impl.function`` as a callable taking ``call_args`` positionally, with ``options`` bound."""
    if list(impl.argnames) == list(call_args):
        return impl.function
    # The names come from the function's own signature (pluggy checked them against the spec),
    # so this builds a lambda such as ``lambda state, face: function(face, options)``.
    source = f"lambda {', '.join(call_args)}: function({', '.join(impl.argnames)})"
    bound: _Call = eval(source, {"function": impl.function, "options": options})
    return bound


def _first_result(functions: list[_Call]) -> _Call:
    if len(functions) == 1:
        return functions[0]

    def first(*args: Any) -> Any:
        for function in functions:
            result = function(*args)
            if result is not None:
                return result
        return None

    return first


def _all_results(functions: list[_Call]) -> _Call:
    if not functions:
        return lambda *args: []
    if len(functions) == 1:
        only = functions[0]

        def one(*args: Any) -> list[Any]:
            result = only(*args)
            return [] if result is None else [result]

        return one
    return lambda *args: [r for r in (f(*args) for f in functions) if r is not None]


def _named_results(names: list[str], functions: list[_Call]) -> _Call:
    pairs = list(zip(names, functions, strict=True))
    if not pairs:
        return lambda *args: []

    def named(*args: Any) -> list[tuple[str, Any]]:
        found = []
        for name, function in pairs:
            result = function(*args)
            if result is not None:
                found.append((name, result))
        return found

    return named


def resolve(pm: pluggy.PluginManager, name: str, options: Options, named: bool = False) -> _Call:
    """A callable for hook ``name`` taking the spec's arguments, ``options`` left out; with
    ``named``, a collect-all hook's answers come as ``(plugin name, answer)`` pairs."""
    caller = getattr(pm.hook, name)
    spec_args = list(caller.spec.argnames)
    call_args = [arg for arg in spec_args if arg != "options"]
    firstresult = bool(caller.spec.opts.get("firstresult"))
    impls = list(reversed(caller.get_hookimpls()))
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        extra = {"options": options} if "options" in spec_args else {}

        def via_pluggy(*args: Any) -> Any:
            return caller(**dict(zip(call_args, args, strict=True)), **extra)

        if named:
            return lambda *args: [(WRAPPED, result) for result in via_pluggy(*args)]
        return via_pluggy
    functions = [_bind(impl, call_args, options) for impl in impls]
    if firstresult:
        return _first_result(functions)
    if named:
        return _named_results([impl.plugin_name for impl in impls], functions)
    return _all_results(functions)


Effects = list[tuple[str, Sequence[Effect]]]
"""The answers of an effect hook: ``(plugin name, effects)`` in the order they were given."""


class Hooks:
    """One typed method per game hook; ``options`` are bound, so callers omit them.

    Firstresult hooks return the first non-``None`` answer (or ``None``); the others return the
    list of non-``None`` answers, the effect hooks as ``(plugin, effects)`` pairs.
    """

    bid_rank: Callable[[Bid], RankKey]
    face_allowed: Callable[[GameState, str, int], bool | str | None]
    bid_problem: Callable[[GameState, str, Bid, Payload], list[str]]
    matching_faces: Callable[[GameState, int], frozenset[int]]
    call_problem: Callable[[GameState, str, str, Payload], list[str]]
    call_made: Callable[[GameState, str, str, Payload, Random], Effects]
    resolve_call: Callable[[GameState, str, str, int], Resolution | None]
    settle: Callable[[GameState, Resolution, Random], Effects]
    timeout: Callable[[GameState, str], Resolution | None]
    first_opener: Callable[[GameState, Random], str | None]
    next_opener: Callable[[GameState, Resolution], str | None]
    round_started: Callable[[GameState, Random], Effects]
    bid_made: Callable[[GameState, str, Bid, Payload, Random], Effects]
    next_turn: Callable[[GameState, str], str | None]
    player_public: Callable[[GameState, str], list[dict[str, Any]]]

    def __init__(self, pm: pluggy.PluginManager, options: Options, baseline: str) -> None:
        #: Names of the hooks above that at least one plugin implements.
        self.implemented = frozenset(
            name
            for name in self.__annotations__
            if getattr(pm.hook, f"liarsdice_{name}").get_hookimpls()
        )
        #: Names of the hooks above that a plugin other than the baseline implements (so the
        #: baseline's answer may be overridden).
        self.overridden = frozenset(
            name
            for name in self.__annotations__
            if any(
                impl.plugin_name != baseline
                for impl in getattr(pm.hook, f"liarsdice_{name}").get_hookimpls()
            )
        )
        #: For each hook above, the arguments (``options`` aside) its implementations take. A hook
        #: whose implementations take neither ``state`` nor ``player`` answers the same all game.
        self.reads = {
            name: frozenset(
                arg
                for impl in getattr(pm.hook, f"liarsdice_{name}").get_hookimpls()
                for arg in impl.argnames
                if arg != "options"
            )
            for name in self.__annotations__
        }
        for name in self.__annotations__:
            setattr(self, name, resolve(pm, f"liarsdice_{name}", options, name in EFFECT_HOOKS))
