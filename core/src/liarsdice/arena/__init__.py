"""A text arena for LLM agents: every ruleset as a game typed move by move, in TextArena's shape.

``make("LiarsDice-perudo-v0")`` (an id per preset, :func:`ids`) or :class:`ArenaTable` with any
ruleset; moves are typed as ``[Bid: 3, 5]``, ``[Challenge]``, ``[Exact]``, ``[Pass]``, ``[Wait]``
(:mod:`liarsdice.arena.moves`, with :func:`tool_schema` for OpenAI-style tool calls).
:func:`register` registers the same ids with TextArena, so ``textarena.make(...)`` finds them.
See docs/agents.md.
"""

from __future__ import annotations

from typing import Any

from liarsdice.arena.moves import (
    BadMove,
    Move,
    Wait,
    format_move,
    from_tool_call,
    legal_moves,
    parse_move,
    tool_schema,
)
from liarsdice.arena.table import ArenaTable
from liarsdice.discovery import presets

__all__ = [
    "ArenaTable",
    "BadMove",
    "Move",
    "Wait",
    "format_move",
    "from_tool_call",
    "ids",
    "legal_moves",
    "make",
    "parse_move",
    "register",
    "tool_schema",
]


def ids() -> dict[str, str]:
    """Each registered id and its preset: ``LiarsDice-<preset>-v0``."""
    return {f"LiarsDice-{name}-v0": name for name in sorted(presets())}


def make(env_id: str, **kwargs: Any) -> ArenaTable:
    """The table of ``env_id`` (see :func:`ids`), with :class:`ArenaTable`'s other arguments."""
    known = ids()
    if env_id not in known:
        raise ValueError(f"unknown arena {env_id!r}; known: {', '.join(known)}")
    return ArenaTable(preset=known[env_id], **kwargs)


def register() -> None:
    """Register every id of :func:`ids` with TextArena (``pip install textarena``; it is not
    imported before, as it takes seconds to import); ids already there are left alone."""
    from textarena.envs.registration import ENV_REGISTRY
    from textarena.envs.registration import register as add

    for env_id, preset in ids().items():
        if env_id not in ENV_REGISTRY:
            add(env_id, entry_point=ArenaTable, preset=preset)
