"""Pre-resolved hook dispatch: a typed facade over a ruleset's plugin manager.

A ruleset's plugins never change after it is built, so each hook's implementations are resolved
once, in pluggy's calling order, into a plain Python callable with the options bound. Calls then
skip pluggy's per-call bookkeeping. A hook with a wrapper implementation falls back to pluggy.
Results are the same as ``pm.hook.<name>(...)``; a test checks that they agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any

import pluggy

from liarsdice.events import Effect
from liarsdice.models import Bid, GameState, RankKey, Resolution
from liarsdice.options import Options

_Call = Callable[..., Any]


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


def resolve(pm: pluggy.PluginManager, name: str, options: Options) -> _Call:
    """A callable for hook ``name`` taking the spec's arguments, ``options`` left out."""
    caller = getattr(pm.hook, name)
    spec_args = list(caller.spec.argnames)
    call_args = [arg for arg in spec_args if arg != "options"]
    firstresult = bool(caller.spec.opts.get("firstresult"))
    impls = list(reversed(caller.get_hookimpls()))
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        extra = {"options": options} if "options" in spec_args else {}

        def via_pluggy(*args: Any) -> Any:
            return caller(**dict(zip(call_args, args, strict=True)), **extra)

        return via_pluggy
    functions = [_bind(impl, call_args, options) for impl in impls]
    return _first_result(functions) if firstresult else _all_results(functions)


class Hooks:
    """One typed method per game hook; ``options`` are bound, so callers omit them.

    Firstresult hooks return the first non-``None`` answer (or ``None``); the others return the
    list of non-``None`` answers.
    """

    bid_rank: Callable[[Bid], RankKey]
    face_allowed: Callable[[GameState, str, int], bool | str | None]
    bid_problem: Callable[[GameState, str, Bid], list[str]]
    matching_faces: Callable[[GameState, int], frozenset[int]]
    call_problem: Callable[[GameState, str, str], list[str]]
    resolve_call: Callable[[GameState, str, str, int], Resolution | None]
    settle: Callable[[GameState, Resolution, Random], list[Sequence[Effect]]]
    timeout: Callable[[GameState, str], Resolution | None]
    first_opener: Callable[[GameState, Random], str | None]
    next_opener: Callable[[GameState, Resolution], str | None]
    round_started: Callable[[GameState], list[Sequence[Effect]]]
    bid_made: Callable[[GameState, str, Bid], list[Sequence[Effect]]]
    player_public: Callable[[GameState, str], list[dict[str, Any]]]

    def __init__(self, pm: pluggy.PluginManager, options: Options) -> None:
        #: Names of the hooks above that at least one plugin implements.
        self.implemented = frozenset(
            name
            for name in self.__annotations__
            if getattr(pm.hook, f"liarsdice_{name}").get_hookimpls()
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
            setattr(self, name, resolve(pm, f"liarsdice_{name}", options))
