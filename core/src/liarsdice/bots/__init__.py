"""Bots: players that choose an action from a player's view, never from the hidden state.

A bot kind is registered under the entry-point group ``liarsdice.bots`` as a factory
``make(rules, rng) -> Bot``; the built-in kinds are found the same way. A bot's ``decide`` gets the
seat's :class:`~liarsdice.views.PlayerView` (the dice that seat sees) and must return a legal
action for the player on turn; its optional ``interject`` is asked, where the rules allow calls out
of turn, whether it makes one (:func:`interjection`). Use :func:`liarsdice.views.view_state` to
ask the rules questions about that view.

How hard a kind plays, in words a player reads, is :data:`LEVELS` (the one place that says so):
:func:`bot_level` gives a kind's level and :func:`bot_label` the label a lobby shows ("Hard
(bayes)"); a kind without a level (a third-party kind) is shown by its name.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from importlib.metadata import entry_points
from random import Random
from typing import Protocol

from liarsdice.errors import PluginError, RulesetError
from liarsdice.i18n import Text, _
from liarsdice.models import Action
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView

GROUP = "liarsdice.bots"


class Bot(Protocol):
    """Something that plays a seat. A bot may also have ``interject(view) -> Action | None``:
    a call to make out of turn now (``view.viewer`` is not on turn; only the kinds the rules let
    be made out of turn are legal), or ``None`` to let play go on; :func:`interjection` asks it."""

    def decide(self, view: PlayerView) -> Action:
        """The action to take for ``view.viewer``, whose turn it is."""
        ...


def interjection(bot: Bot, view: PlayerView) -> Action | None:
    """What ``bot`` does out of turn on ``view``: its ``interject`` answer, or ``None`` for a bot
    without one (it waits for its turn)."""
    interject = getattr(bot, "interject", None)
    return None if interject is None else interject(view)


BotFactory = Callable[[Ruleset, Random], Bot]


#: The level of each built-in kind, weakest first; the order follows the measured tournament in
#: docs/bots.md (bayes 72.6%, odds 26.8%, random 0.6% of 500 three-seat games).
LEVELS: Mapping[str, str] = {"random": "easy", "odds": "medium", "bayes": "hard"}
#: Each level's name for players.
LEVEL_NAMES: Mapping[str, Text] = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}


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


def bot_level(kind: str) -> str | None:
    """The level of bot ``kind`` ("easy", "medium", "hard"), or ``None`` if it has none."""
    return LEVELS.get(kind)


def bot_label(kind: str) -> str | Text:
    """What a player reads to choose bot ``kind``: its level with the kind as a hint ("Hard
    (bayes)"), or the kind's name alone when it has no level."""
    level = bot_level(kind)
    if level is None:
        return kind
    return _("{level} ({kind})", level=LEVEL_NAMES[level], kind=kind)


def by_level(kinds: Iterable[str]) -> list[str]:
    """``kinds`` ordered easiest first; kinds without a level after them, in their order."""
    order = list(LEVELS.values())
    kinds = list(kinds)

    def rank(kind: str) -> tuple[int, int]:
        level = bot_level(kind)
        return (order.index(level) if level in order else len(order), kinds.index(kind))

    return sorted(kinds, key=rank)
