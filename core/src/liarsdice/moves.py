"""A player's legal moves now, listed: bids and calls, or calls out of turn and a wait.

Each move comes plain and then with every payload the plugins offer for it, one plugin's entry
each (``liarsdice_payload_choices``). The OpenSpiel bridge numbers these moves, and the text
arena types them.
"""

from __future__ import annotations

import attrs

from liarsdice import engine
from liarsdice.models import JSON, Action, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset


@attrs.frozen
class Wait:
    """``player``, asked whether they make a call out of turn, lets play go on."""

    player: str


Move = BidAction | CallAction | Wait
"""What a player may choose when they decide."""


def payload_variants(rules: Ruleset, state: GameState, action: Action) -> list[dict[str, JSON]]:
    """The payloads ``action`` may carry now: one plugin's entry each, by plugin name, then in
    the order that plugin offers them (``liarsdice_payload_choices``)."""
    offered = engine.payload_choices(rules, state, action)
    return [{plugin: choice} for plugin in sorted(offered) for choice in offered[plugin]]


def plain_moves(
    rules: Ruleset, state: GameState, player: str, *, asked: bool
) -> list[BidAction | CallAction]:
    """``player``'s legal bids and calls on their turn, or (``asked``: asked out of turn) their
    calls out of turn; none with a payload."""
    if asked:
        return [call for call in engine.out_of_turn_calls(rules, state) if call.player == player]
    found: list[BidAction | CallAction] = [
        BidAction(player, bid) for bid in engine.legal_bids(rules, state, player)
    ]
    return found + [CallAction(player, kind) for kind in engine.legal_calls(rules, state, player)]


def legal_moves(rules: Ruleset, state: GameState, player: str, *, asked: bool) -> list[Move]:
    """:func:`plain_moves`, each followed by its :func:`payload_variants`, and :class:`Wait`
    last when ``asked``."""
    found: list[Move] = []
    for move in plain_moves(rules, state, player, asked=asked):
        found.append(move)
        if rules.payload_readers:
            found += [
                attrs.evolve(move, payload=payload)
                for payload in payload_variants(rules, state, move)
            ]
    if asked:
        found.append(Wait(player))
    return found
