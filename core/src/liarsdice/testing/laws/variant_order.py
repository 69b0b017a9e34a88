"""Laws that variants changing the same thing (a ruling, a rules-page clause) declare their order.

Otherwise which one wins would be an accident of their names or of registration. The declarations
are ``VariantInfo(before=..., after=...)``, read through :mod:`liarsdice.precedence`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from liarsdice import engine, precedence, rulespage
from liarsdice.discovery import installed
from liarsdice.models import CallAction
from liarsdice.ruleset import BASELINE, Ruleset
from liarsdice.rulestext import TOPICS
from liarsdice.testing.driver import Step, timeline
from liarsdice.testing.laws._common import (
    ONE_RULER,
    TEXT_ORDER,
    TEXT_TARGET,
    LawViolation,
    at_step,
)


def rules_text_is_ordered(rules: Ruleset) -> None:
    """Two variants that replace the same clause of the rules page are in a declared order, so
    which sentence the page keeps is not an accident of their names."""
    changers: dict[str, list[str]] = {}
    for name in rules.order:
        for key in rulespage.text_of(rules, name).clauses:
            if key.partition(".")[0] != name:  # a variant's own clauses are not changes
                changers.setdefault(key, []).append(name)
    for key, names in changers.items():
        for first, second in itertools.combinations(names, 2):
            if not precedence.ordered(rules.precedes, first, second):
                raise LawViolation(
                    TEXT_ORDER,
                    rules,
                    f"{first} and {second} both replace the clause {key!r} and neither declares "
                    "which comes first (VariantInfo before=/after=), or add a clause of your own",
                )


def rules_text_amends_what_is_there(rules: Ruleset) -> None:
    """Each clause a plugin writes names a topic of the page or a variant; one that names another
    variant at the table replaces a clause that variant writes. A misspelt topic, or an amendment
    to a clause its variant no longer writes, would vanish or be added beside the rule it meant to
    change, and the page would state both."""
    texts = {name: rulespage.text_of(rules, name) for name in rules.names}
    known = {*TOPICS, *installed(), *rules.names}
    for name, text in texts.items():
        for key in text.clauses:
            topic = key.partition(".")[0]
            if topic not in known:
                raise LawViolation(
                    TEXT_TARGET,
                    rules,
                    f"{name}'s liarsdice_describe writes the clause {key!r}, but {topic!r} is "
                    f"neither a topic of the rules page ({', '.join(TOPICS)}) nor a variant",
                )
            target = texts.get(topic)
            if topic in (name, BASELINE) or target is None or key in target.clauses:
                continue
            theirs = ", ".join(repr(k) for k in target.clauses if k.startswith(f"{topic}.")) or (
                "none"
            )
            raise LawViolation(
                TEXT_TARGET,
                rules,
                f"{name}'s liarsdice_describe amends {key!r}, but {topic} writes no such clause "
                f"(its clauses: {theirs}), so the page would state both rules: replace one of "
                f"{topic}'s clauses, or say it in {name}'s own section",
            )


def calls_are_ruled_by_one_variant(rules: Ruleset, steps: Sequence[Step]) -> None:
    """When a call is ruled on, the variants whose ``liarsdice_resolve_call`` answers it are one,
    or ordered by their declarations: otherwise which ruling counts would be an accident of
    registration. (The build-time order check leaves this hook to play, since variants usually
    answer only their own call kinds.)"""
    impls = precedence.answering(rules.pm, "liarsdice_resolve_call", BASELINE)
    if len(impls) < 2:
        return
    for step in timeline(steps):
        action, state = step.action, step.state
        if not isinstance(action, CallAction) or state is None or state.round is None:
            continue
        if not state.round.bids or not rules.calls[action.kind].ends_round:
            continue
        count = engine.bid_value(rules, state, state.round.bids[-1].bid)
        values = {
            "state": state,
            "player": action.player,
            "call": action.kind,
            "count": count,
            "options": rules.options,
        }
        answering = [
            impl.plugin_name
            for impl in impls
            if impl.function(**{arg: values[arg] for arg in impl.argnames}) is not None
        ]
        for first, second in itertools.combinations(answering, 2):
            if not precedence.ordered(rules.precedes, first, second):
                raise LawViolation(
                    ONE_RULER,
                    rules,
                    f"{first} and {second} both rule on this {action.kind!r} call and neither "
                    "declares which comes first (VariantInfo before=/after=)",
                    at_step(step),
                )
