"""Laws about what players hold: dice change only through effects, and public facts stay in bounds.

:func:`public_fact_law` builds "a public fact never decreases and never exceeds a bound" for any
plugin's fact; :data:`bullets_never_decrease` is that law for the revolver's ``bullets``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from liarsdice.events import DiceChanged, Eliminated, RoundResolved, RoundStarted
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import NewGame, Step, show_state, timeline
from liarsdice.testing.laws._common import DICE, GameLaw, LawViolation, at_step
from liarsdice.views import public_facts


def dice_change_only_through_effects(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Everyone starts with the starting count; a player's dice change only by ``DiceChanged`` and
    ``Eliminated`` events and stay within 0..starting count at every event; a player who is out
    holds none; each round every living player rolls exactly their dice, faces 1-6, and keeps that
    many through rerolls, the dice face up always among them; after a round is settled every
    living player still holds a die."""
    for step in timeline(steps):
        after = step.after
        assert after is not None
        if isinstance(step.action, NewGame):
            start = step.action
            wrong = [p for p in after.players if p.dice != start.dice_per_player or not p.alive]
            if [p.name for p in after.players] != list(start.players) or wrong:
                raise LawViolation(
                    DICE, rules, "the game does not start with full cups", show_state(after)
                )
            continue
        before = step.state
        assert before is not None
        top = before.dice_per_player
        dice = {p.name: p.dice for p in before.players}
        alive = {p.name: p.alive for p in before.players}
        for event in step.events:
            if isinstance(event, DiceChanged):
                dice[event.player] += event.delta
                if not 0 <= dice[event.player] <= top:
                    raise LawViolation(
                        DICE,
                        rules,
                        f"{event.player} would hold {dice[event.player]} dice (start {top})",
                        at_step(step),
                    )
            elif isinstance(event, Eliminated):
                dice[event.player], alive[event.player] = 0, False
            elif isinstance(event, RoundStarted):
                expected = {name: n for name, n in dice.items() if alive[name] and n}
                got = {name: len(roll) for name, roll in event.rolls.items()}
                if got != expected or any(
                    not 1 <= die <= 6 for roll in event.rolls.values() for die in roll
                ):
                    raise LawViolation(
                        DICE,
                        rules,
                        f"rolled {dict(event.rolls)} for cups {expected}",
                        at_step(step),
                    )
        if after.dice_per_player != top or [p.name for p in after.players] != list(dice):
            raise LawViolation(
                DICE, rules, "the seats or the starting count changed", at_step(step)
            )
        settled = any(isinstance(event, RoundResolved) for event in step.events)
        for player in after.players:
            name = player.name
            if (player.dice, player.alive) != (dice[name], alive[name]):
                raise LawViolation(
                    DICE,
                    rules,
                    f"{name} holds {player.dice} dice (alive={player.alive}); the effects give "
                    f"{dice[name]} (alive={alive[name]})",
                    at_step(step),
                )
            if not 0 <= player.dice <= top or (not player.alive and player.dice):
                raise LawViolation(DICE, rules, f"{name} holds {player.dice} dice", at_step(step))
            if settled and player.alive and not player.dice:
                raise LawViolation(DICE, rules, f"{name} is still in with no dice", at_step(step))
        round_ = after.round
        if round_ is not None and not round_.over:
            for name, roll in round_.rolls.items():
                shown = round_.shown.get(name, ())
                if len(roll) != dice[name] or len(round_.hidden(name)) != len(roll) - len(shown):
                    raise LawViolation(
                        DICE,
                        rules,
                        f"{name} holds {dice[name]} dice but rolls {list(roll)} with "
                        f"{list(shown)} face up",
                        at_step(step),
                    )


def public_fact_law(
    fact: str,
    *,
    maximum: Callable[[Ruleset], int | None] | None = None,
    never_decreases: bool = True,
) -> GameLaw:
    """A law: every player's public fact ``fact`` (from the ``player_public`` hook, as views show
    it) never decreases and never exceeds ``maximum(rules)``. Vacuous when no plugin exposes it."""
    name = f"the public fact {fact!r} never decreases and stays within its bound"

    def law(rules: Ruleset, steps: Sequence[Step]) -> None:
        bound = maximum(rules) if maximum is not None else None
        seen: dict[str, Any] = {}
        for step in timeline(steps):
            state = step.after
            assert state is not None
            for player in state.players:
                facts = public_facts(rules, state, player.name)
                if fact not in facts:
                    continue
                value = facts[fact]
                if bound is not None and value > bound:
                    raise LawViolation(
                        name, rules, f"{player.name} has {fact}={value} > {bound}", at_step(step)
                    )
                if never_decreases and player.name in seen and value < seen[player.name]:
                    raise LawViolation(
                        name,
                        rules,
                        f"{player.name}'s {fact} fell from {seen[player.name]} to {value}",
                        at_step(step),
                    )
                seen[player.name] = value

    law.__name__ = law.__qualname__ = f"{fact}_never_decrease"
    law.__doc__ = f"Law: {name}."
    return law


def _chambers(rules: Ruleset) -> int | None:
    """The value of any option named ``chambers`` (the revolver's), or ``None``."""
    for key, value in rules.options.items():
        if key.rpartition(".")[2] == "chambers" and type(value) is int:
            return value
    return None


bullets_never_decrease = public_fact_law("bullets", maximum=_chambers)
"""Bullets never decrease and never exceed the chambers (vacuous without a revolver)."""
