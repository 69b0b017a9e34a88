"""What a player may do now: the checks on a bid or a call, and the legal moves.

Each check runs on a :class:`~liarsdice.reducer.Draft` (the engine's, so that a move in a loop
freezes no state unless a hook reads one) and has a twin on a frozen state for everyone else. A
problem is a sentence a player can read; an empty list means the move is legal.
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Iterable, Mapping

from liarsdice.contracts import call_one
from liarsdice.i18n import Reason, _
from liarsdice.models import (
    JSON,
    NO_PAYLOAD,
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    Payload,
)
from liarsdice.reducer import Draft
from liarsdice.ruleset import FACES, Ruleset


def turn_problem(draft: Draft, player: str) -> Reason | None:
    """Why it is not ``player``'s move now (the game is over, no round is on, they are out or
    not at the table, or it is someone else's turn), or ``None`` when it is."""
    if draft.turn == player and draft.in_round and not draft.winners:
        return None
    return _seat_problem(draft, player) or _("not {player}'s turn", player=player)


def out_of_turn_problem(draft: Draft, player: str) -> Reason | None:
    """Why ``player`` may not make a call that is played out of turn now (as
    :func:`turn_problem`, but anyone living may, except the bidder of the bid on the table), or
    ``None`` when they may."""
    problem = _seat_problem(draft, player)
    if problem is not None:
        return problem
    if draft.bids and draft.bids[-1].player == player:
        return _("{player} made the bid on the table and cannot call it", player=player)
    return None


def _seat_problem(draft: Draft, player: str) -> Reason | None:
    """Why ``player`` cannot act at all now: the game is over, no round is on, or they are out
    or not at the table."""
    if draft.over:
        return _("the game is over")
    if not draft.in_round:
        return _("no round is being played")
    try:
        seat = draft.player(player)
    except KeyError:
        return _("{player} is not at this table", player=repr(player))
    if not seat.alive:
        return _("{player} is out of the game", player=player)
    return None


def payload_problems(rules: Ruleset, action: str, payload: Payload) -> list[Reason]:
    """Why ``payload`` cannot go with ``action`` (``"bid"`` or a call kind): it must be a JSON
    object whose every key names a plugin in the ruleset that reads that action's payload. What
    each plugin then checks of its own value is up to it (``bid_problem``, ``call_problem``)."""
    if payload is NO_PAYLOAD:
        return []
    if not isinstance(payload, Mapping) or not all(isinstance(key, str) for key in payload):
        return ["a payload is a JSON object keyed by plugin name"]
    if not payload:
        return []
    readers = rules.payload_readers.get(action, frozenset())
    strangers = sorted(key for key in payload if key not in readers)
    if strangers:
        which = f"only {', '.join(sorted(readers))} read" if readers else "no plugin reads"
        return [f"payload {', '.join(map(repr, strangers))} is not for {action}: {which} it here"]
    try:
        json.dumps(payload, allow_nan=False)
    except (TypeError, ValueError):
        return ["a payload holds only JSON values"]
    return []


def _refused_faces(rules: Ruleset, draft: Draft, player: str) -> frozenset[int]:
    """The faces ``player`` may not name now: fixed all game, memoised on what ``face_allowed``
    reads, or asked of the hook on a frozen state."""
    fixed = rules.fixed_refusals
    if fixed is not None:
        return fixed
    memo = rules.memos.face_allowed
    if memo is None:
        return rules.refused_faces(draft.freeze(), player)
    return memo.answer(draft, (player,), lambda: rules.refused_faces(draft.freeze(), player))


def _may_refuse(rules: Ruleset, draft: Draft, player: str, face: int) -> bool:
    """False when ``face_allowed`` surely allows ``player`` to name ``face`` now."""
    if rules.fixed_refusals is None and rules.memos.face_allowed is None:
        return True
    return face in _refused_faces(rules, draft, player)


def draft_bid_problems(
    rules: Ruleset, draft: Draft, player: str, bid: Bid, payload: Payload
) -> list[Reason]:
    """:func:`bid_problems` on a draft."""
    problem = turn_problem(draft, player)
    if problem:
        return [problem]
    if not bid.whole:
        return [_("a bid is a whole quantity and a face")]
    kind = rules.bid_kind
    malformed_bid = kind.shape_problem(bid, draft.dice_in_play)
    if malformed_bid is not None:
        return [malformed_bid]
    if payload is not NO_PAYLOAD:
        malformed = payload_problems(rules, "bid", payload)
        if malformed:
            return malformed
    hooks = rules.hooks
    problems: list[Reason] = []
    if kind.names_faces and _may_refuse(rules, draft, player, bid.face):
        refusal = rules.face_refusal(draft.freeze(), player, bid.face)
        if refusal is not None:
            problems.append(refusal)
    if "bid_problem" in hooks.implemented:
        problems += hooks.bid_problem(draft.freeze(), player, bid, payload)
    if hooks.batch_only:
        for answers in hooks.batch_only_bid_problems(draft.freeze(), player, (bid,)):
            problems += [reason for reason in answers if reason is not None]
    current = draft.current_bid
    if current is not None and rules.rank(bid) <= rules.rank(current):
        problems.append(
            _("{bid} does not raise {current}", bid=kind.words(bid), current=kind.words(current))
        )
    return problems


def bid_problems(
    rules: Ruleset, state: GameState, player: str, bid: Bid, payload: Payload = NO_PAYLOAD
) -> list[Reason]:
    """Every reason ``player`` may not bid ``bid`` (with ``payload``) now; empty when legal."""
    return draft_bid_problems(rules, Draft(state), player, bid, payload)


def draft_legal_bids(
    rules: Ruleset, draft: Draft, player: str, limit: int | None = None
) -> list[Bid]:
    """:func:`legal_bids` on a draft."""
    if turn_problem(draft, player):
        return []
    hooks = rules.hooks
    # The ladder leaves out the faces refused now; the bids above the current one raise it.
    keys, ladder = rules.ladder(draft.dice_in_play, _refused_faces(rules, draft, player))
    current = draft.current_bid
    start = 0 if current is None else bisect.bisect_right(keys, rules.rank(current))
    if not _checked(rules):  # nothing else can refuse a bid
        return ladder[start:] if limit is None else ladder[start : start + max(limit, 0)]
    state = draft.freeze()
    if "bid_problems" not in hooks.implemented:  # the per-bid form alone: ask bid by bid
        return _unrefused(rules, state, player, itertools.islice(ladder, start, None), limit)
    found: list[Bid] = []
    position, end = start, len(ladder)
    while position < end and (limit is None or len(found) < limit):
        needed = None if limit is None else limit - len(found)
        batch = ladder[position:] if needed is None else ladder[position : position + 6 * needed]
        found += _unrefused(rules, state, player, batch, needed)
        position += len(batch)
    return found


def _checked(rules: Ruleset) -> bool:
    """Whether a plugin may refuse a bid by ``bid_problem`` or ``bid_problems``."""
    implemented = rules.hooks.implemented
    return "bid_problem" in implemented or "bid_problems" in implemented


def _batch_refusals(rules: Ruleset, state: GameState, player: str, bids: list[Bid]) -> set[int]:
    """The indices of the bids of ``bids`` that ``bid_problems`` refuses (asked once)."""
    if "bid_problems" not in rules.hooks.implemented:
        return set()
    return {
        index
        for answers in rules.hooks.bid_problems(state, player, bids)
        for index, reason in enumerate(answers)
        if reason is not None
    }


def _unrefused(
    rules: Ruleset, state: GameState, player: str, bids: Iterable[Bid], limit: int | None
) -> list[Bid]:
    """The first bids of ``bids`` (at most ``limit``) that no plugin refuses with no payload:
    ``bid_problems`` asked once over them all (when a plugin implements it), then each plugin
    that implements only ``bid_problem`` asked bid by bid, in order, until ``limit`` pass."""
    hooks = rules.hooks
    candidates: Iterable[Bid] = bids
    if "bid_problems" in hooks.implemented:
        listed = bids if isinstance(bids, list) else list(bids)
        refused = _batch_refusals(rules, state, player, listed)
        candidates = (
            [bid for i, bid in enumerate(listed) if i not in refused] if refused else listed
        )
        if not hooks.unbatched:
            return candidates if limit is None else candidates[:limit]
    ask = hooks.unbatched_bid_problem
    found: list[Bid] = []
    for bid in candidates:
        if limit is not None and len(found) >= limit:
            break
        if not ask(state, player, bid, NO_PAYLOAD):
            found.append(bid)
    return found


def legal_bids(
    rules: Ruleset, state: GameState, player: str, limit: int | None = None
) -> list[Bid]:
    """The legal bids for ``player`` now, lowest first (at most ``limit`` of them)."""
    return draft_legal_bids(rules, Draft(state), player, limit)


def lowest_raises(rules: Ruleset, state: GameState, player: str, tries: int = 3) -> dict[int, Bid]:
    """For each face ``player`` may bid now, the lowest legal bid on it (faces with none left out).

    The bots' fast path to the raises they weigh: :func:`raises_by_face` with one raise a face.
    """
    return {face: bids[0] for face, bids in raises_by_face(rules, state, player, 1, tries).items()}


def raises_by_face(
    rules: Ruleset, state: GameState, player: str, count: int, tries: int = 3
) -> dict[int, list[Bid]]:
    """For each face ``player`` may bid now, its ``count`` lowest legal bids, lowest first (faces
    with none left out; a face may have fewer).

    Walks the ruleset's cached bid ladder (every bid sorted by rank, :meth:`Ruleset.ladder`) from
    just above the bid on the table: the first bids met on a face are its lowest raises, since a
    face's bids rank higher as the quantity grows in every known order. The first ``count +
    tries`` bids of each face are put to ``bid_problems`` at once, then each face's to the
    ``bid_problem`` of the plugins that implement only that form, until ``count`` pass or
    ``tries`` have failed. The rank is read once (for the bid on the table), not once per
    probe. Falls back to the full list of legal bids (:func:`legal_bids`) only when the walk finds
    nothing, so it stays cheap on every turn.
    """
    round_ = state.round
    if round_ is None or round_.over:
        return {}
    hooks = rules.hooks
    refused = rules.refused_faces(state, player)
    keys, bids = rules.ladder(round_.dice_in_play, refused)
    current = round_.current_bid
    start = 0 if current is None else bisect.bisect_right(keys, rules.rank(current))
    candidates = _first_of_each_face(
        bids, start, [f for f in FACES if f not in refused], count + tries
    )
    batch_refused = _batch_refusals(rules, state, player, candidates)
    ask = hooks.unbatched_bid_problem if hooks.unbatched else None
    failed = dict.fromkeys(FACES, 0)
    found: dict[int, list[Bid]] = {}
    for index, bid in enumerate(candidates):
        face = bid.face
        kept = found.setdefault(face, [])
        if len(kept) == count or failed[face] == tries:
            continue
        if index in batch_refused or (ask is not None and ask(state, player, bid, NO_PAYLOAD)):
            failed[face] += 1
        else:
            kept.append(bid)
    found = {face: kept for face, kept in found.items() if kept}
    if not found:
        for bid in legal_bids(rules, state, player):
            kept = found.setdefault(bid.face, [])
            if len(kept) < count:
                kept.append(bid)
    return found


def _first_of_each_face(bids: list[Bid], start: int, faces: list[int], each: int) -> list[Bid]:
    """The bids of ``bids`` from ``start`` on, in order, up to the first ``each`` of every face
    of ``faces``."""
    taken = dict.fromkeys(faces, 0)
    pending = len(taken)
    found: list[Bid] = []
    for bid in itertools.islice(bids, start, None):
        if not pending:
            break
        count = taken.get(bid.face, each)
        if count < each:
            found.append(bid)
            taken[bid.face] = count + 1
            pending -= count + 1 == each
    return found


def draft_call_problems(
    rules: Ruleset, draft: Draft, player: str, kind: str, payload: Payload
) -> list[Reason]:
    """:func:`call_problems` on a draft."""
    out_of_turn = kind in rules.out_of_turn
    problem = out_of_turn_problem(draft, player) if out_of_turn else turn_problem(draft, player)
    if problem:
        return [problem]
    if kind not in rules.calls:
        return [
            _(
                "unknown call {kind}; this table allows: {calls}",
                kind=repr(kind),
                calls=", ".join(rules.calls),
            )
        ]
    if not draft.bids:
        return [_("the opener cannot call: there is no bid yet")]
    if payload is not NO_PAYLOAD:
        malformed = payload_problems(rules, kind, payload)
        if malformed:
            return malformed
    hooks = rules.hooks
    if "call_problem" not in hooks.implemented:
        return []
    memo = rules.memos.call_problem
    if memo is None or payload is not NO_PAYLOAD:
        return [*hooks.call_problem(draft.freeze(), player, kind, payload)]
    return [
        *memo.answer(
            draft,
            (player, kind),
            lambda: tuple(hooks.call_problem(draft.freeze(), player, kind, payload)),
        )
    ]


def call_problems(
    rules: Ruleset, state: GameState, player: str, kind: str, payload: Payload = NO_PAYLOAD
) -> list[Reason]:
    """Every reason ``player`` may not make a call of ``kind`` (with ``payload``) now; empty when
    the call is legal."""
    return draft_call_problems(rules, Draft(state), player, kind, payload)


def draft_legal_calls(rules: Ruleset, draft: Draft, player: str) -> list[str]:
    """:func:`legal_calls` on a draft (for any player: calls out of turn included)."""
    return [
        kind
        for kind in rules.calls
        if not draft_call_problems(rules, draft, player, kind, NO_PAYLOAD)
    ]


def legal_calls(rules: Ruleset, state: GameState, player: str) -> list[str]:
    """The call kinds ``player`` may make now: on their turn, or out of turn (the kinds a plugin
    declares ``out_of_turn``)."""
    return draft_legal_calls(rules, Draft(state), player)


def draft_out_of_turn_calls(rules: Ruleset, draft: Draft) -> list[CallAction]:
    """:func:`out_of_turn_calls` on a draft."""
    if not rules.out_of_turn or not draft.in_round or not draft.bids or draft.over:
        return []
    players = draft.players
    seat = draft.seat(draft.turn)
    names = [players[(seat + i) % len(players)].name for i in range(1, len(players))]
    return [
        CallAction(name, kind)
        for name in names
        for kind in rules.out_of_turn
        if not draft_call_problems(rules, draft, name, kind, NO_PAYLOAD)
    ]


def out_of_turn_calls(rules: Ruleset, state: GameState) -> list[CallAction]:
    """Every call a player not on turn may make now (kinds declared ``out_of_turn``), clockwise
    from the player on turn: the order in which the other players are asked whether they act
    before the player on turn does."""
    return draft_out_of_turn_calls(rules, Draft(state))


def payload_choices(rules: Ruleset, state: GameState, action: Action) -> dict[str, list[JSON]]:
    """For each plugin that reads ``action``'s payload, the values it says it would accept now
    (``liarsdice_payload_choices``, asked of each plugin on its own)."""
    if not rules.payload_readers:
        return {}
    if isinstance(action, BidAction):
        name = "bid"
    elif isinstance(action, CallAction):
        name = action.kind
    else:
        return {}
    readers = rules.payload_readers.get(name, frozenset())
    if not readers:
        return {}
    found: dict[str, list[JSON]] = {}
    for plugin in sorted(readers):
        answer = call_one(  # checked: a list of JSON values, or None
            plugin,
            rules.pm,
            "liarsdice_payload_choices",
            state=state,
            player=action.player,
            action=action,
            options=rules.options,
        )
        if answer:
            found[plugin] = list(answer)
    return found
