"""The fixed numbering of a game's actions: bids, calls, waiting, and their payload variants.

For a table whose bids go up to ``Q`` dice (every die the living players may hold):

- ``(q - 1) * 6 + (f - 1)``: the bid of ``q`` dice of face ``f``, as OpenSpiel's ``liars_dice``;
- ``6 * Q + i``: a call of the ruleset's ``i``-th call kind (``Ruleset.calls``, in order);
- ``6 * Q + len(calls)``: :class:`Wait`, only when some call may be made out of turn;
- then, for each bid (in the order above) when a plugin reads bid payloads, and for each call
  kind a plugin reads payloads of, ``max_payloads`` slots: slot ``j`` is that bid or call with
  the ``j``-th payload the state offers (:func:`payload_variants`).

A move offering more payloads than ``max_payloads`` raises
:class:`~liarsdice.openspiel.sizes.Unsupported`. A timeout is no decision and has no action.
"""

from __future__ import annotations

import json

import attrs

from liarsdice.models import Bid, BidAction, CallAction, GameState
from liarsdice.moves import Move, Wait, payload_variants, plain_moves
from liarsdice.openspiel.sizes import Unsupported
from liarsdice.ruleset import FACES, Ruleset

__all__ = ["ActionSpace", "Move", "Wait", "move_text", "payload_variants"]


def move_text(move: Move, *, payload: bool = True) -> str:
    """A move as a player reads it: ``"2 fours"``, ``"challenge"``, ``"wait"``, with its payload
    as JSON unless ``payload`` is false."""
    if isinstance(move, Wait):
        return "wait"
    text = str(move.bid) if isinstance(move, BidAction) else move.kind
    if payload and move.payload:
        text += " " + json.dumps(move.payload, sort_keys=True, separators=(",", ":"))
    return text


class ActionSpace:
    """The action numbers of ``rules`` at a table whose bids go up to ``max_quantity`` dice,
    with ``max_payloads`` payload slots for each action a plugin reads payloads of."""

    def __init__(self, rules: Ruleset, max_quantity: int, max_payloads: int) -> None:
        self.rules = rules
        self.max_payloads = max_payloads
        self.bids = max_quantity * len(FACES)
        self.calls = tuple(rules.calls)
        base = self.bids + len(self.calls)
        self.wait = base if rules.out_of_turn else None
        offset = base + (self.wait is not None)
        readers = rules.payload_readers if max_payloads else {}
        self._bid_slots = offset if "bid" in readers else None
        offset += self.bids * max_payloads if "bid" in readers else 0
        self._call_slots: dict[str, int] = {}
        for kind in self.calls:
            if kind in readers:
                self._call_slots[kind] = offset
                offset += max_payloads
        self.size = offset
        """How many distinct actions the game has."""

    def _base(self, move: BidAction | CallAction) -> int:
        if isinstance(move, BidAction):
            return (move.bid.quantity - 1) * len(FACES) + move.bid.face - 1
        return self.bids + self.calls.index(move.kind)

    def number(self, move: Move, slot: int | None = None) -> int:
        """The action number of ``move`` (its payload aside), or of its payload ``slot``."""
        if isinstance(move, Wait):
            assert self.wait is not None
            return self.wait
        base = self._base(move)
        if slot is None:
            return base
        if isinstance(move, BidAction):
            assert self._bid_slots is not None
            return self._bid_slots + base * self.max_payloads + slot
        return self._call_slots[move.kind] + slot

    def moves(self, state: GameState, player: str, *, asked: bool) -> dict[int, Move]:
        """``player``'s legal moves in ``state`` by action number: their bids and calls on their
        turn, or (``asked``: the player is asked out of turn) their out-of-turn calls and
        :class:`Wait`; each with its payload variants."""
        rules = self.rules
        found: dict[int, Move] = {}
        for move in plain_moves(rules, state, player, asked=asked):
            found[self.number(move)] = move
            if rules.payload_readers:
                self._add_variants(found, state, move)
        if asked:
            found[self.number(Wait(player))] = Wait(player)
        return dict(sorted(found.items()))

    def _add_variants(
        self, found: dict[int, Move], state: GameState, move: BidAction | CallAction
    ) -> None:
        variants = payload_variants(self.rules, state, move)
        if len(variants) > self.max_payloads:
            raise Unsupported(
                f"{self.rules!r}: {move.player}'s {move_text(move)} may carry {len(variants)} "
                f"payloads here, more than the max_payloads={self.max_payloads} this game was "
                "loaded with: load it with a larger bound"
            )
        for slot, payload in enumerate(variants):
            found[self.number(move, slot)] = attrs.evolve(move, payload=payload)

    def text(self, number: int) -> str:
        """Action ``number`` as a player reads it, without a state: ``"2 fours"``,
        ``"challenge"``, ``"wait"``, ``"2 fours, payload 3"`` (payload slot 3)."""
        if not 0 <= number < self.size:
            raise ValueError(f"no action {number}: this game has actions 0 to {self.size - 1}")
        if number < self.bids:
            return str(Bid(number // len(FACES) + 1, number % len(FACES) + 1))
        if number < self.bids + len(self.calls):
            return self.calls[number - self.bids]
        if number == self.wait:
            return "wait"
        if self._bid_slots is not None and number < self._bid_slots + self.bids * self.max_payloads:
            base, slot = divmod(number - self._bid_slots, self.max_payloads)
            return f"{self.text(base)}, payload {slot}"
        for kind, start in self._call_slots.items():
            if start <= number < start + self.max_payloads:
                return f"{kind}, payload {number - start}"
        raise AssertionError(f"action {number} has no meaning")  # pragma: no cover
