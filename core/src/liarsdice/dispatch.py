"""Pre-resolved hook dispatch: a typed facade over a ruleset's plugin manager.

A ruleset's plugins never change after it is built, so each hook's implementations are resolved
once, in pluggy's calling order (the variants in precedence order, the baseline last), into a plain
Python function with the options bound. Calls then skip pluggy's per-call bookkeeping. A hook with
a wrapper implementation falls back to pluggy. Answers within contract are the same as
``pm.hook.<name>(...)`` gives (the effect hooks pair each answer with the plugin that gave it); a
test checks that they agree.

Every answer is checked against its hook's contract (:data:`CONTRACTS`, after the docstrings of
:mod:`liarsdice.hookspecs`) on its way out: a plugin whose implementation raises is reported as
:class:`~liarsdice.errors.HookFailed`, one whose answer has the wrong type (or names a seat that is
not at the table) as :class:`~liarsdice.errors.BadHookResult`; both name the plugin and the hook.
The checks are written into the generated function of each hook, so a good answer costs a type
test or two.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from random import Random
from types import CodeType, TracebackType
from typing import Any

import pluggy

from liarsdice.contracts import (
    ALL_FACES,
    CONTRACTS,
    EFFECT_CLASSES,
    PASS_THROUGH,
    Contract,
    bad,
    check_answer,
    failed,
    good_names,
    good_ruling,
    seated,
    shown,
)
from liarsdice.events import Effect
from liarsdice.i18n import Text
from liarsdice.models import Bid, GameState, Payload, RankKey, Resolution
from liarsdice.options import Options

_Call = Callable[..., Any]

EFFECT_HOOKS = frozenset({"settle", "round_started", "bid_made", "call_made"})
"""Collect-all hooks whose answers are effects: their results come as ``(plugin, effects)``."""

WRAPPED = "(a wrapper)"
"""The plugin name given to answers that came through a wrapper (pluggy merges them)."""

# --- generated dispatch ---------------------------------------------------------------------------


def _fast_check(contract: Contract, slow: str) -> str:
    """Code that runs ``slow`` (the contract's full check) unless the answer ``_r`` is surely
    good."""
    if "{slow}" in contract.fast:  # a block
        return contract.fast.format(slow=slow)
    if contract.fast:
        return f"if not ({contract.fast}):\n    {slow}\n"
    return f"{slow}\n"


def _indent(code: str, depth: int) -> str:
    pad = "    " * depth
    return "".join(pad + line + "\n" for line in code.splitlines())


@functools.lru_cache(maxsize=1024)
def _compiled(source: str, hook: str) -> CodeType:
    """The code of a dispatch function's ``source``: the same plugins answering a hook give the same
    source, so each ruleset built with them compiles nothing new (a build costs about half)."""
    return compile(source, f"<liarsdice dispatch of {hook}>", "exec")


def _generate(
    hook: str,
    impls: list[pluggy.HookImpl],
    call_args: list[str],
    options: Options,
    firstresult: bool,
    named: bool,
    rules: Any = None,
) -> _Call:
    """One function asking ``impls`` in order, written out: for each, the call with its own
    arguments, a ``try`` that names the plugin when it raises (free in Python 3.11 when nothing
    is raised) and the contract's check of its answer."""
    contract = CONTRACTS.get(hook)
    names = [impl.plugin_name for impl in impls]
    namespace: dict[str, Any] = {
        "options": options,
        "rules": rules,
        "ALL_FACES": ALL_FACES,
        "Text": Text,
        "EFFECT_CLASSES": EFFECT_CLASSES,
        "_seated": seated,
        "good_ruling": good_ruling,
        "good_names": good_names,
        "_PASS": PASS_THROUGH,
        "_failed": lambda index, error: failed(names[index], hook, error),
    }
    if contract is not None:

        def slow(index: int, answer: Any, *needs: Any) -> Any:
            problem = contract.check(answer, *needs)
            if problem is not None:
                raise bad(names[index], hook, problem)
            return answer

        namespace["_slow"] = slow
    lines = [f"def {hook}({', '.join(call_args)}):"]
    if not firstresult:
        lines.append("    _found = []")
    for index, impl in enumerate(impls):
        namespace[f"_f{index}"] = impl.function
        namespace[f"_n{index}"] = impl.plugin_name
        keep = (
            "return _r"
            if firstresult
            else (f"_found.append((_n{index}, _r))" if named else "_found.append(_r)")
        )
        check = ""
        if contract is not None:
            needs = "".join(f", {name}" for name in contract.needs)
            check = _fast_check(contract, f"_r = _slow({index}, _r{needs})")
        lines += [
            "    try:",
            f"        _r = _f{index}({', '.join(impl.argnames)})",
            "    except _PASS:",
            "        raise",
            "    except Exception as _e:",
            f"        raise _failed({index}, _e) from _e",
            "    if _r is not None:",
            _indent(check, 2).rstrip("\n"),
            f"        {keep}",
        ]
    lines.append("    return None" if firstresult else "    return _found")
    source = "\n".join(line for line in lines if line) + "\n"
    exec(_compiled(source, hook), namespace)
    function: _Call = namespace[hook]
    return function


def _culprit(traceback: TracebackType | None, codes: Mapping[Any, str]) -> str | None:
    """The plugin whose implementation is the innermost one in ``traceback``."""
    found = None
    while traceback is not None:
        found = codes.get(traceback.tb_frame.f_code, found)
        traceback = traceback.tb_next
    return found


def _via_pluggy(
    hook: str,
    caller: Any,
    impls: list[pluggy.HookImpl],
    call_args: list[str],
    options: Options,
    firstresult: bool,
    named: bool,
    rules: Any = None,
) -> _Call:
    """Call ``hook`` through pluggy (it has a wrapper), and check the merged answer as if it came
    from the plugin ``(a wrapper)``; an exception names the plugin it was raised in."""
    bound = {"options": options, "rules": rules}
    extra = {name: value for name, value in bound.items() if name in caller.spec.argnames}
    codes: dict[Any, str] = {}
    for impl in impls:
        function = getattr(impl.function, "__func__", impl.function)
        code = getattr(function, "__code__", None)
        if code is not None:
            codes.setdefault(code, impl.plugin_name)
    contract = CONTRACTS.get(hook)
    needs = [call_args.index(name) for name in contract.needs] if contract else []

    def call(*args: Any) -> Any:
        try:
            result = caller(**dict(zip(call_args, args, strict=True)), **extra)
        except PASS_THROUGH:
            raise
        except Exception as error:
            plugin = _culprit(error.__traceback__, codes) or WRAPPED
            raise failed(plugin, hook, error) from error
        context = [args[index] for index in needs]
        if firstresult:
            return check_answer(WRAPPED, hook, result, *context)
        if not isinstance(result, list):
            raise bad(WRAPPED, hook, f"returned {shown(result)}: expected a list of answers")
        answers = [check_answer(WRAPPED, hook, r, *context) for r in result if r is not None]
        return [(WRAPPED, answer) for answer in answers] if named else answers

    return call


def resolve(
    pm: pluggy.PluginManager,
    name: str,
    options: Options,
    named: bool = False,
    skip: AbstractSet[str] = frozenset(),
    rules: Any = None,
) -> _Call:
    """A callable for hook ``name`` taking the spec's arguments, ``options`` and ``rules`` (the
    ruleset, for the hooks whose spec takes it: :data:`~liarsdice.hookspecs.TAKE_RULES`) left
    out and bound; with
    ``named``, a collect-all hook's answers come as ``(plugin name, answer)`` pairs. Answers are
    checked against :data:`CONTRACTS`. The implementations of the plugins in ``skip`` are left
    out."""
    caller = getattr(pm.hook, name)
    if skip:  # a caller without them, so that pluggy (asked when there is a wrapper) skips them
        left_out = [pm.get_plugin(plugin) for plugin in sorted(skip)]
        caller = pm.subset_hook_caller(name, [plugin for plugin in left_out if plugin is not None])
    call_args = [arg for arg in caller.spec.argnames if arg not in ("options", "rules")]
    firstresult = bool(caller.spec.opts.get("firstresult"))
    impls = list(reversed(caller.get_hookimpls()))
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        return _via_pluggy(name, caller, impls, call_args, options, firstresult, named, rules)
    if not impls:
        return (lambda *args: None) if firstresult else (lambda *args: [])
    return _generate(name, impls, call_args, options, firstresult, named, rules)


Effects = list[tuple[str, Sequence[Effect]]]
"""The answers of an effect hook: ``(plugin name, effects)`` in the order they were given."""


class Hooks:
    """One typed method per game hook; ``options`` (and ``rules``, the ruleset these hooks
    belong to, for the hooks whose spec takes it) are bound, so callers omit them.

    Firstresult hooks return the first non-``None`` answer (or ``None``); the others return the
    list of non-``None`` answers, the effect hooks as ``(plugin, effects)`` pairs. Every answer has
    been checked against its hook's contract (:data:`CONTRACTS`). An effect hook in
    :attr:`stateless` may be given ``None`` for ``state``: none of its implementations takes it.
    """

    bid_rank: Callable[[Bid], RankKey]
    face_allowed: Callable[[GameState, str, int], bool | str | None]
    bid_problem: Callable[[GameState, str, Bid, Payload], list[str]]
    bid_problems: Callable[[GameState, str, Sequence[Bid]], list[Sequence[str | Text | None]]]
    matching_faces: Callable[[GameState, int], AbstractSet[int]]
    call_problem: Callable[[GameState, str, str, Payload], list[str]]
    call_made: Callable[[GameState | None, str, str, Payload, Random], Effects]
    resolve_call: Callable[[GameState, str, str, int], Resolution | None]
    settle: Callable[[GameState | None, Resolution, Random], Effects]
    timeout: Callable[[GameState, str], Resolution | None]
    first_opener: Callable[[GameState, Random], str | None]
    next_opener: Callable[[GameState, Resolution], str | None]
    round_started: Callable[[GameState | None, Random], Effects]
    bid_made: Callable[[GameState | None, str, Bid, Payload, Random], Effects]
    next_turn: Callable[[GameState, str], str | None]
    player_public: Callable[[GameState, str], list[dict[str, Any]]]
    dice_visible: Callable[[GameState, str | None, str], bool | None]
    game_winners: Callable[[GameState], Sequence[str] | None]
    partners: Callable[[GameState, str], Sequence[str] | None]

    def __init__(
        self, pm: pluggy.PluginManager, options: Options, baseline: str, rules: Any = None
    ) -> None:
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
        #: The effect hooks none of whose implementations takes ``state`` (nor does their
        #: contract read it): the engine freezes no state to ask them.
        self.stateless = frozenset(name for name in EFFECT_HOOKS if "state" not in self.reads[name])
        for name in self.__annotations__:
            setattr(
                self,
                name,
                resolve(pm, f"liarsdice_{name}", options, name in EFFECT_HOOKS, rules=rules),
            )
        per_bid = _plugins(pm, "liarsdice_bid_problem")
        batch = _plugins(pm, "liarsdice_bid_problems")
        #: ``bid_problem`` of the plugins that do not implement ``bid_problems`` (the per-bid
        #: form, adapted where the engine asks in batches), and whether there are any.
        self.unbatched_bid_problem = self.bid_problem
        self.unbatched = bool(per_bid - batch)
        #: ``bid_problems`` of the plugins that do not implement ``bid_problem`` (asked with one
        #: bid where the engine checks a bid), and whether there are any.
        self.batch_only_bid_problems = self.bid_problems
        self.batch_only = bool(batch - per_bid)
        if batch & per_bid:  # a plugin with both forms: each is asked where it belongs
            name, form = "liarsdice_bid_problem", "liarsdice_bid_problems"
            self.unbatched_bid_problem = resolve(pm, name, options, skip=batch, rules=rules)
            self.batch_only_bid_problems = resolve(pm, form, options, skip=per_bid, rules=rules)


def _plugins(pm: pluggy.PluginManager, hook: str) -> frozenset[str]:
    """The plugins that implement ``hook``."""
    return frozenset(impl.plugin_name for impl in getattr(pm.hook, hook).get_hookimpls())
