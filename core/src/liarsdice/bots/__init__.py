"""Bots: players that choose an action from a player's view, never from the hidden state.

A bot kind is registered under the entry-point group ``liarsdice.bots`` as a factory
``make(rules, rng) -> Bot``; the built-in kinds are found the same way. A bot's ``decide`` gets the
seat's :class:`~liarsdice.views.PlayerView` (own dice only) and must return a legal action for the
player on turn. Use :func:`liarsdice.views.view_state` to ask the rules questions about that view.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from random import Random
from typing import Protocol

from liarsdice.errors import PluginError, RulesetError
from liarsdice.models import Action
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView

GROUP = "liarsdice.bots"


class Bot(Protocol):
    """Something that plays a seat."""

    def decide(self, view: PlayerView) -> Action:
        """The action to take for ``view.viewer``, whose turn it is."""
        ...


BotFactory = Callable[[Ruleset, Random], Bot]


class UnknownBot(RulesetError):
    """No installed bot kind has that name."""


@functools.cache
def bot_kinds() -> Mapping[str, BotFactory]:
    """Every installed bot kind by name, sorted."""
    found: dict[str, BotFactory] = {}
    for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        try:
            found.setdefault(entry.name, entry.load())
        except Exception as error:
            raise PluginError(f"bot {entry.name} failed to load: {error}") from error
    return found


def make_bot(kind: str, rules: Ruleset, rng: Random) -> Bot:
    """A new bot of ``kind`` playing under ``rules``; :class:`UnknownBot` lists the kinds."""
    kinds = bot_kinds()
    if kind not in kinds:
        raise UnknownBot(f"unknown bot {kind!r}; installed: {', '.join(kinds)}")
    return kinds[kind](rules, rng)
