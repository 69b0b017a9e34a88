"""Answers of the pure hooks, memoised on what their implementations read.

A hook is memoised when every implementation of it either takes no ``state`` or declares what it
reads of it (:func:`liarsdice.reads.reads`). Its answer is then a function of its other arguments
and of the parts of the game declared, and :class:`HookMemo` keeps it under that key: the engine
asks the hook once per key and freezes no state for the answers it already has. A hook with one
implementation that reads ``state`` without a declaration is not memoised (``Memos.get`` gives
``None``) and is asked every time, as before.

Which hooks: :data:`MEMOISED`. The kit's law
:func:`~liarsdice.testing.laws.memo.memoised_answers_agree` checks, over recorded games, that every
answer a memo would give equals the full call; a declaration that leaves something out fails it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import pluggy

from liarsdice.errors import PluginError
from liarsdice.reads import declared, unknown, view
from liarsdice.reducer import Draft

MEMOISED = {
    "call_problem": ("player", "call"),
    "face_allowed": ("player",),
    "matching_faces": ("face",),
}
"""The memoised hooks, each with the arguments its key holds besides the parts read (the engine
memoises ``call_problem`` only for calls without a payload, and ``face_allowed`` as the set of
faces a player may not name)."""

T = TypeVar("T")

MOST_ANSWERS = 4096
"""A memo forgets everything once it holds this many answers (keys hold player names, so a
long-lived ruleset meets ever new ones)."""


Key = tuple[tuple[Hashable, ...], Hashable, Hashable]
"""A memo's key: the arguments, the table and the parts read (one part as itself, several as a
tuple)."""


def _key_function(views: tuple[Callable[[Draft], Hashable], ...]) -> Callable[[Draft, Any], Key]:
    """The fastest function making a key from a draft and the arguments, for these parts."""
    if not views:
        return lambda draft, arguments: (arguments, draft.table, None)
    if len(views) == 1:
        (only,) = views
        return lambda draft, arguments: (arguments, draft.table, only(draft))
    if len(views) == 2:
        first, second = views
        return lambda draft, arguments: (arguments, draft.table, (first(draft), second(draft)))
    return lambda draft, arguments: (arguments, draft.table, tuple(part(draft) for part in views))


class HookMemo:
    """The answers of one hook under its keys (:data:`Key`), where the table
    (:attr:`Draft.table`: the seats and their starting dice) stands for what is the same all game.

    ``suspects`` are the plugins that declared what they read (a wrong answer is one of theirs).
    """

    __slots__ = ("answers", "hook", "key", "parts", "suspects")

    def __init__(self, hook: str, parts: tuple[str, ...], suspects: tuple[str, ...]) -> None:
        self.hook = hook
        self.parts = parts
        self.suspects = suspects
        #: ``key(draft, arguments)``: the key of the hook's answer for the tuple ``arguments`` in
        #: the game as ``draft`` has it.
        self.key = _key_function(tuple(view(part) for part in parts))
        self.answers: dict[Key, Any] = {}

    def keep(self, key: Key, answer: T) -> T:
        """Keep ``answer`` under ``key`` and return it."""
        answers = self.answers
        if len(answers) >= MOST_ANSWERS:
            answers.clear()
        answers[key] = answer
        return answer

    def answer(self, draft: Draft, arguments: tuple[Hashable, ...], ask: Callable[[], T]) -> T:
        """The answer kept for ``arguments`` in the game as ``draft`` has it, or ``ask()`` kept
        (answers are never ``None``)."""
        key = self.key(draft, arguments)
        found: T | None = self.answers.get(key)
        return self.keep(key, ask()) if found is None else found


def memo_for(pm: pluggy.PluginManager, hook: str) -> HookMemo | None:
    """The memo of ``hook`` (a name in :data:`MEMOISED`, without the ``liarsdice_`` prefix), or
    ``None`` when an implementation reads ``state`` without declaring what. A declaration naming
    no part of the game is a :class:`~liarsdice.errors.PluginError` naming the plugin."""
    parts: set[str] = set()
    suspects = []
    for impl in getattr(pm.hook, f"liarsdice_{hook}").get_hookimpls():
        reads = declared(impl.function)
        if reads is not None:
            wrong = unknown(reads)
            if wrong:
                raise PluginError(
                    f"{impl.plugin_name}: liarsdice_{hook} declares it reads "
                    f"{', '.join(map(repr, wrong))}, which name no part of the game",
                    plugin=impl.plugin_name,
                    hook=f"liarsdice_{hook}",
                )
        if "state" not in impl.argnames:
            continue
        if reads is None:
            return None
        parts |= reads
        suspects.append(impl.plugin_name)
    return HookMemo(hook, tuple(sorted(parts)), tuple(suspects))


class Memos:
    """The memo of each hook in :data:`MEMOISED` for one ruleset (``None`` where a hook cannot be
    memoised)."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.by_hook = {hook: memo_for(pm, hook) for hook in MEMOISED}
        self.call_problem = self.by_hook["call_problem"]
        self.face_allowed = self.by_hook["face_allowed"]
        self.matching_faces = self.by_hook["matching_faces"]
