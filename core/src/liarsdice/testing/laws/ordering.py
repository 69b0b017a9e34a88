"""Laws about bids: ranks form one strict total order, and legal-move enumeration agrees with validation.

- :func:`bid_order` (a ruleset law): ranks are deterministic, distinct and consistently ordered,
  and the ruleset's ladders are the bids sorted by rank;
- :func:`legal_enumeration_agrees` (a game law): ``legal_bids``/``legal_calls`` list exactly what
  ``bid_problems``/``call_problems`` accept, and every move or payload offered is accepted.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from liarsdice import engine
from liarsdice.legality import draft_bid_problems
from liarsdice.models import NO_PAYLOAD, Bid, BidAction, CallAction, GameState
from liarsdice.reducer import Draft
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import (
    LEGAL,
    STRANGER,
    Step,
    show_bid,
    show_move,
    show_state,
    timeline,
)
from liarsdice.testing.laws._common import (
    ENUMERATION,
    ORDER,
    LawViolation,
    answered_by,
    at_step,
    implemented_by,
)


def bid_order(rules: Ruleset, max_dice: int = 30) -> None:
    """Ranks of all bids of the ruleset's kind up to ``max_dice`` dice are deterministic,
    distinct, pairwise comparable and consistent with one sorted order (hence antisymmetric and
    transitive); the ruleset's cached ladders agree with that order."""
    rank: Callable[[Bid], Any] = rules.hooks.bid_rank
    kind = rules.bid_kind
    every = set().union(*(kind.bids(dice) for dice in range(1, max_dice + 1)))
    bids = sorted(every, key=lambda bid: (bid.quantity, bid.face))
    keys: list[Any] = []
    for bid in bids:
        key = rank(bid)
        if key is None:
            raise LawViolation(ORDER, rules, "no plugin ranks this bid", show_bid(bid))
        again = rank(bid)
        if again != key:
            raise LawViolation(
                ORDER, rules, f"rank is not deterministic: {key!r} then {again!r}", show_bid(bid)
            )
        keys.append(key)
    try:
        order = sorted(range(len(bids)), key=keys.__getitem__)
    except TypeError as error:
        order = list(range(len(bids)))  # find the incomparable pair below
        reason = str(error)
    else:
        reason = ""
    for low, high in itertools.combinations(order, 2):
        a, b = keys[low], keys[high]
        try:
            ok = a < b and not b < a and a != b
        except TypeError as error:
            ok, reason = False, str(error)
        if not ok:
            detail = "ranks are equal" if a == b else reason or "ranks are not consistently ordered"
            ranker = answered_by(rules, "liarsdice_bid_rank", bid=bids[high])
            detail += f" (ranked by {ranker})"
            raise LawViolation(
                ORDER,
                rules,
                detail,
                f"{show_bid(bids[low])} has rank {a!r}, {show_bid(bids[high])} has rank {b!r}",
            )
    ordered = [bids[index] for index in order]
    for dice in sorted({1, 2, max_dice}):
        there = set(kind.bids(dice))
        expected = [bid for bid in ordered if bid in there]
        ladder = rules.ladder(dice)[1]
        if list(ladder) != expected:
            raise LawViolation(
                ORDER,
                rules,
                f"the ruleset's ladder for {dice} dice is not the bids sorted by rank",
                f"ladder {[show_bid(b) for b in ladder[:8]]}... "
                f"vs {[show_bid(b) for b in expected[:8]]}...",
            )


def _in_round(state: GameState | None) -> bool:
    return state is not None and not state.over and state.round is not None and not state.round.over


_BID_HOOKS = ("liarsdice_face_allowed", "liarsdice_bid_problem", "liarsdice_bid_problems")


def legal_enumeration_agrees(rules: Ruleset, steps: Sequence[Step]) -> None:
    """In every state of a round, for the player on turn and one other player:
    ``engine.legal_bids(limit=None)`` is exactly the bids of the grid (quantity 0 to 2 above the
    highest of the bid kind's range, faces 0 to 7) that ``engine.bid_problems`` accepts, sorted
    by rank; ``limit`` takes
    a prefix; ``legal_calls`` agrees with ``call_problems``; no move offered as legal is refused."""
    for step in steps:
        if step.intent == LEGAL and step.refused is not None:
            raise LawViolation(
                ENUMERATION,
                rules,
                f"offered as legal, then refused: {'; '.join(step.refused)} (judged by "
                f"{implemented_by(rules, *_BID_HOOKS, 'liarsdice_call_problem')})",
                at_step(step),
            )
    rank: Callable[[Bid], Any] = rules.hooks.bid_rank
    for step in timeline(steps):
        state = step.after
        if not _in_round(state):
            continue
        assert state is not None and state.round is not None
        dice = state.round.dice_in_play
        top = max(bid.quantity for bid in rules.bid_kind.bids(dice))
        turn = state.round.turn
        others = [p.name for p in state.players if p.name != turn][:1]
        draft = Draft(state)  # engine.bid_problems on one draft of the state, not one per bid
        for player in [turn, *others]:
            listed = engine.legal_bids(rules, state, player, limit=None)
            valid = [
                Bid(quantity, face)
                for quantity in range(top + 3)
                for face in range(8)
                if not draft_bid_problems(rules, draft, player, Bid(quantity, face), NO_PAYLOAD)
            ]
            valid.sort(key=rank)
            if listed != valid:
                extra = [show_bid(b) for b in listed if b not in valid]
                missing = [show_bid(b) for b in valid if b not in listed]
                detail = (
                    f"for {player}: legal_bids lists {extra[:5]} that bid_problems refuses, and "
                    f"leaves out {missing[:5]} that it accepts"
                    if extra or missing
                    else f"for {player}: legal_bids is not sorted by rank"
                )
                judges = implemented_by(rules, *_BID_HOOKS)
                detail += f" (bids judged by {judges})"
                raise LawViolation(ENUMERATION, rules, detail, show_state(state))
            for limit in (1, 10):
                if engine.legal_bids(rules, state, player, limit) != listed[:limit]:
                    raise LawViolation(
                        ENUMERATION,
                        rules,
                        f"legal_bids(limit={limit}) is not a prefix",
                        show_state(state),
                    )
            calls = [
                kind for kind in rules.calls if not engine.call_problems(rules, state, player, kind)
            ]
            if engine.legal_calls(rules, state, player) != calls:
                raise LawViolation(
                    ENUMERATION,
                    rules,
                    f"for {player}: legal_calls disagrees with call_problems (calls judged by "
                    f"{implemented_by(rules, 'liarsdice_call_problem')})",
                    show_state(state),
                )
            if player == turn:
                moves: list[BidAction | CallAction] = [BidAction(player, b) for b in listed[:3]]
                moves += [CallAction(player, kind) for kind in calls]
                _offered_payloads_apply(rules, state, moves)
        stranger = engine.bid_problems(rules, state, STRANGER, Bid(1, 2))
        if not stranger or engine.legal_bids(rules, state, STRANGER):
            raise LawViolation(
                ENUMERATION, rules, "a stranger to the table may bid", show_state(state)
            )


def _offered_payloads_apply(
    rules: Ruleset, state: GameState, actions: Sequence[BidAction | CallAction]
) -> None:
    """Every payload a plugin offers for a legal move is accepted with it."""
    for action in actions:
        for plugin, values in engine.payload_choices(rules, state, action).items():
            for value in values[:8]:
                payload = {plugin: value}
                if isinstance(action, BidAction):
                    refused = engine.bid_problems(rules, state, action.player, action.bid, payload)
                else:
                    refused = engine.call_problems(
                        rules, state, action.player, action.kind, payload
                    )
                if refused:
                    raise LawViolation(
                        ENUMERATION,
                        rules,
                        f"{plugin} offers the payload {value!r} for {show_move(action)}, and the "
                        f"move is then refused: {'; '.join(map(str, refused))}",
                        show_state(state),
                    )
