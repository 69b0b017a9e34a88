"""Bots: players that choose an action from a player's view, never from the hidden state.

A bot kind is registered under the entry-point group ``liarsdice.bots`` as a factory
``make(rules, rng) -> Bot``; the built-in kinds are found the same way. A bot's strategy is data:
its ``policy`` gets the seat's :class:`~liarsdice.views.PlayerView` (the dice that seat sees) on
its turn and answers the probability of each legal action (a :data:`Policy`, checked by
:func:`checked_policy`), and its ``decide`` samples one from it with the bot's own injected
``Random`` (:func:`sample`); its optional ``interject`` is asked, where the rules allow calls out
of turn, whether it makes one (:func:`interjection`). Use :func:`liarsdice.views.view_state` to
ask the rules questions about that view.

How hard a kind plays is :data:`LEVELS` (the one place that says so): :func:`bot_level` gives a
kind's level. What players call a kind is :func:`bot_title` ("Hard bot", "Складний бот"; every
built-in kind has one, a third-party kind is "Bot <kind>") and the label a lobby shows is
:func:`bot_label` ("Hard bot (mixed)": the kind's name only as a hint).
"""

from __future__ import annotations

import functools
import math
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


#: A strategy at one decision: each action the bot may take, with the probability it takes it.
#: The actions are legal for the player on turn, the probabilities positive and summing to 1.
Policy = Mapping[Action, float]

#: How far a policy's probabilities may sum from 1 (rounding) before :func:`checked_policy` refuses.
TOLERANCE = 1e-6


class Bot(Protocol):
    """Something that plays a seat. A bot may also have ``interject(view) -> Action | None``:
    a call to make out of turn now (``view.viewer`` is not on turn; only the kinds the rules let
    be made out of turn are legal), or ``None`` to let play go on; :func:`interjection` asks it."""

    def policy(self, view: PlayerView) -> Policy:
        """The probability of each action ``view.viewer``, whose turn it is, may take: a function
        of the view alone (the same view gives the same policy)."""
        ...

    def decide(self, view: PlayerView) -> Action:
        """An action for ``view.viewer``, drawn from :meth:`policy` with the bot's own ``Random``."""
        ...


class BadPolicy(PluginError):
    """A bot's policy is not a probability distribution over actions."""


def checked_policy(policy: Policy) -> dict[Action, float]:
    """``policy`` as a dict, with its probabilities made to sum to exactly 1 and actions of
    probability 0 dropped; :class:`BadPolicy` if it is empty, has a negative, NaN or infinite
    probability, or does not sum to 1 within :data:`TOLERANCE`."""
    found = dict(policy)
    bad = [p for p in found.values() if not (math.isfinite(p) and p >= 0.0)]
    if bad:
        raise BadPolicy(f"a policy has a probability that is negative or not finite: {bad[0]!r}")
    total = math.fsum(found.values())
    if not found or abs(total - 1.0) > TOLERANCE:
        raise BadPolicy(f"a policy's probabilities sum to {total!r}, not 1: {found!r}")
    return {action: p / total for action, p in found.items() if p > 0.0}


def sample(policy: Policy, rng: Random) -> Action:
    """One action drawn from ``policy`` with ``rng`` (one ``rng.random()`` draw; an action of
    probability 1 costs no draw, so a certain choice leaves ``rng`` where it was)."""
    found = checked_policy(policy)
    actions = list(found)
    if len(actions) == 1:
        return actions[0]
    point = rng.random()
    running = 0.0
    for action in actions:
        running += found[action]
        if point < running:
            return action
    return actions[-1]


def certain(action: Action) -> dict[Action, float]:
    """The policy that takes ``action`` for sure."""
    return {action: 1.0}


def interjection(bot: Bot, view: PlayerView) -> Action | None:
    """What ``bot`` does out of turn on ``view``: its ``interject`` answer, or ``None`` for a bot
    without one (it waits for its turn)."""
    interject = getattr(bot, "interject", None)
    return None if interject is None else interject(view)


BotFactory = Callable[[Ruleset, Random], Bot]


#: The level of each built-in kind, weakest first; the order follows the measured tournaments in
#: docs/bots.md. ``bayes``, the hard level before ``mixed``, has none: it is kept to measure
#: against (players call it "Classic hard bot").
LEVELS: Mapping[str, str] = {"random": "easy", "odds": "medium", "mixed": "hard"}
#: What players call each built-in kind: by its level, and ``bayes`` by what it was.
TITLES: Mapping[str, Text] = {
    "random": _("Easy bot"),
    "odds": _("Medium bot"),
    "mixed": _("Hard bot"),
    "bayes": _("Classic hard bot"),
}


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


def bot_title(kind: str) -> Text:
    """What players call bot ``kind``: "Hard bot" (:data:`TITLES`), else "Bot <kind>"."""
    return TITLES.get(kind) or _("Bot {kind}", kind=kind)


def bot_label(kind: str) -> Text:
    """What a player reads to choose bot ``kind``: its title with the kind as a hint ("Hard bot
    (mixed)"), or the title alone when it names the kind already ("Bot <kind>")."""
    if kind not in TITLES:
        return bot_title(kind)
    return _("{bot} ({kind})", bot=bot_title(kind), kind=kind)


def by_level(kinds: Iterable[str]) -> list[str]:
    """``kinds`` ordered easiest first; kinds without a level after them, in their order."""
    order = list(LEVELS.values())
    kinds = list(kinds)

    def rank(kind: str) -> tuple[int, int]:
        level = bot_level(kind)
        return (order.index(level) if level in order else len(order), kinds.index(kind))

    return sorted(kinds, key=rank)
