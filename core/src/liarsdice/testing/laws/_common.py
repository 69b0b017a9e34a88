"""What every law shares: LawViolation, the law titles and types, and how to show where one broke.

A law raises :class:`LawViolation` with its title (one of the constants below), the ruleset and a
one-line example (:func:`at_step`); the titles are also how callers and tests tell which law broke.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from liarsdice.discovery import call_on
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import to_data
from liarsdice.testing.driver import Step, show_move, show_state

GameLaw = Callable[[Ruleset, Sequence[Step]], None]
RulesetLaw = Callable[[Ruleset], None]

ORDER = "bids form a strict total order"
ENUMERATION = "legal-bid enumeration agrees with validation"
ROUNDS_END = "every round ends within the bid ladder"
ONE_LOSER = "a challenge has exactly one loser, and the bid stands iff count >= quantity"
BLIND_COUNT = "which faces count toward a bid does not depend on the dice under the cups"
STAKES = "a call's ruling deals what its kind declares it stakes"
DICE = "dice stay within the starting count and change only through effects"
ONE_WINNER = (
    "the game is over once one side is left, if not before, and every living player is among its "
    "winners"
)
ELIMINATED = "eliminated players never act"
ILLEGAL_NOTHING = "illegal actions change nothing"
REPLAY = "replaying the event log rebuilds the state"
JSON_TRIP = "state and events survive a JSON round trip"
HIDDEN = "a player's view never holds another player's hidden dice or private state"
SAME_SEED = "the same seed and moves give the same game"
APPLY = "legal moves apply without error"
ONE_RULER = "each call is ruled on by one variant, or by variants in a declared order"
TEXT_ORDER = "variants that change one clause of the rules page are in a declared order"
TEXT_TARGET = (
    "a rules-page clause names a topic or a variant, and amends only what that variant says"
)
GAMES_END = "every game ends within the ruleset's move limit"
INDEPENDENT = "a game comes out the same whatever was played before it"
TURN_ORDER = 'a variant\'s "next player" is the player who plays next, whichever way play goes'
KIND = "a bid kind's range, shape check and distribution agree with its truth function"
MEMO = "a memoised hook answers as its full call, given what its implementations declare they read"


class LawViolation(AssertionError):
    """A rule law does not hold. ``law`` names it; the message adds the ruleset and an example."""

    def __init__(self, law: str, rules: Ruleset | None, detail: str, example: str = "") -> None:
        self.law = law
        self.rules = rules
        self.detail = detail
        self.example = example
        message = f"law violated: {law}\n  ruleset: {rules!r}\n  {detail}"
        if example:
            message += f"\n  example: {example}"
        super().__init__(message)


def answered_by(rules: Ruleset, hook: str, **arguments: Any) -> str:
    """Which plugin answered ``hook`` with ``arguments`` (``options`` and ``rules`` are added), in
    words, for a law's message: ``"unfair's liarsdice_resolve_call"`` for a first-result hook (the
    plugin whose answer was taken), every plugin that answered for the others, ``"no plugin's
    ..."`` when none did. Each plugin is asked on its own, in the order the ruleset asks them."""
    caller = getattr(rules.pm.hook, hook)
    found = []
    for impl in reversed(caller.get_hookimpls()):
        if impl.hookwrapper or impl.wrapper:
            continue
        answer = call_on(
            impl.plugin_name, rules.pm, hook, **arguments, options=rules.options, rules=rules
        )
        if answer is not None:
            found.append(impl.plugin_name)
            if caller.spec.opts.get("firstresult"):
                break
    return f"{' and '.join(found) or 'no plugin'}'s {hook}"


def implemented_by(rules: Ruleset, *hooks: str) -> str:
    """The variants (the baseline aside) that implement ``hooks``, in words, for a law whose
    breach cannot be pinned on one answer: ``"flaky's liarsdice_bid_problem"``, or ``"the
    baseline only"``."""
    found = [
        f"{impl.plugin_name}'s {hook}"
        for hook in hooks
        for impl in reversed(getattr(rules.pm.hook, hook).get_hookimpls())
        if impl.plugin_name != rules.names[0]
    ]
    return ", ".join(found) or "the baseline only"


def at_step(step: Step) -> str:
    return f"{show_state(step.state)} || move: {show_move(step.action)}"


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON-like values first differ, as ``path: a != b``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key, "<missing>") != b.get(key, "<missing>"):
                return first_difference(
                    a.get(key, "<missing>"), b.get(key, "<missing>"), f"{path}.{key}"
                )
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{index}]")
    return f"{path or '(top)'}: {a!r} != {b!r}"


def difference(a: Any, b: Any) -> str:
    try:
        return first_difference(to_data(a), to_data(b))
    except Exception:
        return f"{a!r} != {b!r}"
