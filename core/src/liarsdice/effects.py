"""Taking in what an effect hook returned: each effect checked for where it may happen, then folded.

This module stays pure Python when the engine is compiled (docs/performance.md): it reads fields of
objects plugins made, which may hold any type, and names the plugin behind a bad one, where
compiled code would stop at the read with a vaguer message.
"""

from __future__ import annotations

from liarsdice.contracts import bad, json_problem, shown
from liarsdice.dispatch import Effects
from liarsdice.events import (
    IN_ROUND_EFFECTS,
    SETTLING_EFFECTS,
    DiceChanged,
    Event,
    PluginStateSet,
    PrivateStateSet,
)
from liarsdice.reducer import Draft, InvalidEvent

_STATE_SETTERS = (PluginStateSet, PrivateStateSet)
_SETTLING_ONLY = "dice counts change and players are eliminated only in liarsdice_settle"
_IN_ROUND_ONLY = (
    "dice are shown or rerolled and private state is set only while a round is being played"
)


class _Misplaced(Exception):
    """An effect returned by a hook where it may not be."""


def fold_effects(
    draft: Draft, events: list[Event], hook: str, answers: Effects, *, settling: bool
) -> None:
    """Fold the effects of ``hook`` into ``draft`` and onto ``events``, plugin by plugin, in order.

    In settling, effects on a player who is already out are dropped, and a loss of more dice than
    a player holds takes what is there. Outside settling (the flow hooks) dice are in play, so
    effects there may not change dice counts or eliminate anyone; in settling the round is over,
    so they may not show or reroll dice or set private state. A broken effect raises
    :class:`~liarsdice.errors.BadHookResult` naming the plugin and the hook (that each answer is
    a list of effects, dispatch has checked).
    """
    name = f"liarsdice_{hook}"
    for plugin, batch in answers:
        for effect in batch:
            try:
                if isinstance(effect, SETTLING_EFFECTS):
                    if not settling:
                        raise _Misplaced(_SETTLING_ONLY)
                    player = draft.player(effect.player)
                    if not player.alive:
                        continue
                    if effect.__class__ is DiceChanged:
                        delta = effect.delta
                        if delta.__class__ is not int:
                            raise InvalidEvent("a change of dice is a whole number")
                        if player.dice + delta < 0:
                            if player.dice == 0:
                                continue
                            effect = DiceChanged(player.name, -player.dice, effect.reason)
                elif isinstance(effect, IN_ROUND_EFFECTS) and settling:
                    raise _Misplaced(_IN_ROUND_ONLY)
                if isinstance(effect, _STATE_SETTERS):
                    problem = json_problem(effect.value)
                    if problem is not None:
                        raise InvalidEvent(f"plugin state holds only JSON values: {problem}")
                draft.apply(effect)
                events.append(effect)
            except _Misplaced as error:
                raise bad(plugin, name, f"returned {shown(effect)}: {error}") from None
            except InvalidEvent as error:
                raise bad(plugin, name, f"returned {shown(effect)}: {error}") from error
            except KeyError as error:  # from draft.player
                problem = f"{error.args[0]!r} is not at the table"
                raise bad(plugin, name, f"returned {shown(effect)}: {problem}") from error
            except Exception as error:  # a field of the wrong type, say
                problem = f"{type(error).__name__}: {error}"
                raise bad(plugin, name, f"returned {shown(effect)}: {problem}") from error
