"""The law that holds the engine's memoised answers to the hooks' full answers.

The engine memoises ``call_problem``, ``face_allowed`` and ``matching_faces`` on what their
implementations declare they read (:mod:`liarsdice.memo`). This law walks the states of a recorded
game in order with fresh memos, asks each memoised hook what the engine would ask it there, and
compares every answer a memo already holds with the full call on the frozen state. A plugin whose
``@reads(...)`` leaves out a part its answer depends on fails it, named with the hook, the state
and both answers.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import partial
from typing import Any

from liarsdice.legality import out_of_turn_problem, turn_problem
from liarsdice.memo import HookMemo, Key
from liarsdice.models import NO_PAYLOAD, GameState
from liarsdice.reducer import Draft
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.testing.driver import Step, show_state
from liarsdice.testing.laws._common import MEMO, LawViolation

Question = tuple[tuple[Hashable, ...], Callable[[], Any]]
"""A memo's arguments for one question, and the full call that answers it."""


def _questions(rules: Ruleset, hook: str, state: GameState, draft: Draft) -> Iterator[Question]:
    """What the engine may ask ``hook`` in ``state``: calls by whoever may make them, the faces
    each living player may name, and the matching faces of every face."""
    hooks = rules.hooks
    living = [p.name for p in state.players if p.alive]
    if hook == "call_problem" and draft.bids:
        for player in living:
            for kind in rules.calls:
                check = out_of_turn_problem if kind in rules.out_of_turn else turn_problem
                if check(draft, player) is None:
                    ask = partial(hooks.call_problem, state, player, kind, NO_PAYLOAD)
                    yield (player, kind), partial(_tuple, ask)
    elif hook == "face_allowed":
        for player in living:
            yield (player,), partial(rules.refused_faces, state, player)
    elif hook == "matching_faces":
        for face in FACES:
            yield (face,), partial(hooks.matching_faces, state, face)


def _tuple(ask: Callable[[], list[Any]]) -> tuple[Any, ...]:
    return tuple(ask())


def memoised_answers_agree(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every answer a memo would reuse equals the hook's full answer in the state at hand."""
    memos = [memo for memo in rules.memos.by_hook.values() if memo is not None]
    seen: dict[tuple[str, Key], tuple[Any, GameState]] = {}
    for step in steps:
        state = step.state
        if not memos or state is None or state.round is None or state.round.over or state.over:
            continue
        draft = Draft(state)
        for memo in memos:
            for arguments, ask in _questions(rules, memo.hook, state, draft):
                key = (memo.hook, memo.key(draft, arguments))
                full = ask()
                earlier = seen.setdefault(key, (full, state))
                if earlier[0] != full:
                    _violated(rules, memo, arguments, full, state, *earlier)


def _violated(
    rules: Ruleset,
    memo: HookMemo,
    arguments: tuple[Hashable, ...],
    full: Any,
    state: GameState,
    kept: Any,
    earlier: GameState,
) -> None:
    suspects = ", ".join(memo.suspects) or "(none)"
    raise LawViolation(
        MEMO,
        rules,
        f"liarsdice_{memo.hook}{list(arguments)} answers {_shown(full)} here but {_shown(kept)} in an "
        f"earlier state that agrees on what it declares it reads ({', '.join(memo.parts)}): "
        f"a @reads declaration of {suspects} leaves out a part the answer depends on "
        f"(earlier: {show_state(earlier)})",
        show_state(state),
    )


def _shown(answer: Any) -> str:
    """An answer in a law message: an empty list of reasons says the move is allowed."""
    return "no reason (allowed)" if answer == () else repr(answer)
