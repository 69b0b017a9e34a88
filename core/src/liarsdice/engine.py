"""The game loop: validate an action, ask the rules what happens, emit events, fold them into state.

The functions taking a ``state`` are pure: they take a ruleset, a state and (where something is
random) an RNG, and return the new state with the events that led to it. Each has a twin taking a
:class:`~liarsdice.reducer.Draft` instead (:func:`start_game`, :func:`open_round`,
:func:`advance`), which folds the events into the draft in place and freezes a state only when a
hook reads one: loops that play many moves and read the state now and then (:class:`Game`,
``liarsdice simulate``) use those. An illegal action raises
:class:`~liarsdice.errors.IllegalAction` with every reason and changes nothing.
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Mapping, Sequence
from random import Random

from liarsdice.contracts import call_one
from liarsdice.dispatch import Effects
from liarsdice.effects import fold_effects
from liarsdice.errors import IllegalAction, PluginError
from liarsdice.events import (
    BidMade,
    CallMade,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    OpenerChosen,
    RoundResolved,
    RoundStarted,
    TimedOut,
    TurnPassed,
)
from liarsdice.models import (
    JSON,
    NO_PAYLOAD,
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    Payload,
    Resolution,
    TimeoutAction,
)
from liarsdice.reducer import Draft
from liarsdice.ruleset import FACES, Ruleset

Outcome = tuple[GameState, list[Event]]


class _Log:
    """Folds events into a draft as they are emitted and keeps them in order."""

    def __init__(self, draft: Draft) -> None:
        self.draft = draft
        self.events: list[Event] = []

    @property
    def state(self) -> GameState:
        """The state after the events so far (frozen on demand, for the hooks that read it)."""
        return self.draft.freeze()

    def emit(self, event: Event) -> None:
        self.draft.apply(event)
        self.events.append(event)

    def effects(self, hook: str, answers: Effects, *, settling: bool = False) -> None:
        """Fold the effects of ``hook`` in (:func:`~liarsdice.effects.fold_effects`)."""
        fold_effects(self.draft, self.events, hook, answers, settling=settling)


def start_game(
    rules: Ruleset,
    players: Sequence[str],
    rng: Random,
    *,
    dice_per_player: int = 5,
    first_opener: str | None = None,
) -> tuple[Draft, list[Event]]:
    """:func:`new_game`, giving the new game as a draft."""
    if len(players) < 2:
        raise ValueError("a game needs at least 2 players")
    if len(set(players)) != len(players):
        raise ValueError("player names must be unique")
    if dice_per_player < 1:
        raise ValueError("each player needs at least 1 die")
    started = GameStarted(tuple(players), dice_per_player)
    log = _Log(Draft.started(started))
    log.events.append(started)
    if first_opener is None:
        first_opener = rules.hooks.first_opener(log.state, rng)
        if first_opener is None:
            raise PluginError("no plugin chose the first opener", hook="liarsdice_first_opener")
    if first_opener not in players:
        raise ValueError(f"first opener {first_opener!r} is not at the table")
    log.emit(OpenerChosen(first_opener))
    return log.draft, log.events


def new_game(
    rules: Ruleset,
    players: Sequence[str],
    rng: Random,
    *,
    dice_per_player: int = 5,
    first_opener: str | None = None,
) -> Outcome:
    """Seat ``players`` clockwise and choose the first opener (``first_opener`` overrides it)."""
    draft, events = start_game(
        rules, players, rng, dice_per_player=dice_per_player, first_opener=first_opener
    )
    return draft.freeze(), events


def open_round(
    rules: Ruleset,
    draft: Draft,
    rng: Random,
    *,
    rolls: Mapping[str, Sequence[int]] | None = None,
) -> list[Event]:
    """:func:`start_round` on ``draft``, in place; returns the new events."""
    if draft.over:
        raise IllegalAction(["the game is over"])
    if draft.in_round:
        raise IllegalAction([f"round {draft.number} is still being played"])
    assert draft.next_opener is not None
    if rolls is None:
        alive = [p for p in draft.players if p.alive]
        faces = rng.choices(FACES, k=sum(p.dice for p in alive))  # one draw for the whole table
        dealt: dict[str, tuple[int, ...]] = {}
        start = 0
        for p in alive:
            dealt[p.name] = tuple(faces[start : start + p.dice])
            start += p.dice
    else:
        dealt = {name: tuple(roll) for name, roll in rolls.items()}
    log = _Log(draft)
    log.emit(RoundStarted(draft.number + 1, draft.next_opener, dealt))
    if "round_started" in rules.hooks.implemented:
        log.effects("round_started", rules.hooks.round_started(log.state, rng))
    return log.events


def start_round(
    rules: Ruleset,
    state: GameState,
    rng: Random,
    *,
    rolls: Mapping[str, Sequence[int]] | None = None,
) -> Outcome:
    """Roll every living player's dice (or take ``rolls`` as given) and open the next round."""
    draft = Draft(state)
    events = open_round(rules, draft, rng, rolls=rolls)
    return draft.freeze(), events


def _turn_problem(draft: Draft, player: str) -> str | None:
    if draft.turn == player and draft.in_round and draft.winner is None:
        return None
    if draft.over:
        return "the game is over"
    if not draft.in_round:
        return "no round is being played"
    try:
        seat = draft.player(player)
    except KeyError:
        return f"{player!r} is not at this table"
    if not seat.alive:
        return f"{player} is out of the game"
    return f"not {player}'s turn"


def payload_problems(rules: Ruleset, action: str, payload: Payload) -> list[str]:
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
    fixed = rules.fixed_refusals
    return fixed if fixed is not None else rules.refused_faces(draft.freeze(), player)


def _bid_problems(
    rules: Ruleset, draft: Draft, player: str, bid: Bid, payload: Payload
) -> list[str]:
    problem = _turn_problem(draft, player)
    if problem:
        return [problem]
    if not bid.whole:
        return ["a bid is a whole quantity and a face"]
    if not 1 <= bid.face <= 6:
        return [f"there is no face {bid.face}: dice show 1 to 6"]
    if not 1 <= bid.quantity <= draft.dice_in_play:
        return [f"{bid} is not 1 to {draft.dice_in_play} dice, the dice in play"]
    if payload is not NO_PAYLOAD:
        malformed = payload_problems(rules, "bid", payload)
        if malformed:
            return malformed
    hooks = rules.hooks
    problems = []
    fixed = rules.fixed_refusals
    if fixed is None or bid.face in fixed:
        refusal = rules.face_refusal(draft.freeze(), player, bid.face)
        if refusal is not None:
            problems.append(refusal)
    if "bid_problem" in hooks.implemented:
        problems += hooks.bid_problem(draft.freeze(), player, bid, payload)
    current = draft.current_bid
    if current is not None and hooks.bid_rank(bid) <= hooks.bid_rank(current):
        problems.append(f"{bid} does not raise {current}")
    return problems


def bid_problems(
    rules: Ruleset, state: GameState, player: str, bid: Bid, payload: Payload = NO_PAYLOAD
) -> list[str]:
    """Every reason ``player`` may not bid ``bid`` (with ``payload``) now; empty when legal."""
    return _bid_problems(rules, Draft(state), player, bid, payload)


def draft_legal_bids(
    rules: Ruleset, draft: Draft, player: str, limit: int | None = None
) -> list[Bid]:
    """:func:`legal_bids` on a draft."""
    if _turn_problem(draft, player):
        return []
    hooks = rules.hooks
    # The ladder leaves out the faces refused now; the bids above the current one raise it.
    keys, ladder = rules.ladder(draft.dice_in_play, _refused_faces(rules, draft, player))
    current = draft.current_bid
    start = 0 if current is None else bisect.bisect_right(keys, hooks.bid_rank(current))
    if "bid_problem" not in hooks.implemented:  # nothing else can refuse a bid
        return ladder[start:] if limit is None else ladder[start : start + max(limit, 0)]
    state = draft.freeze()
    found: list[Bid] = []
    for bid in itertools.islice(ladder, start, None):
        if limit is not None and len(found) >= limit:
            break
        if not hooks.bid_problem(state, player, bid, NO_PAYLOAD):
            found.append(bid)
    return found


def legal_bids(
    rules: Ruleset, state: GameState, player: str, limit: int | None = None
) -> list[Bid]:
    """The legal bids for ``player`` now, lowest first (at most ``limit`` of them)."""
    return draft_legal_bids(rules, Draft(state), player, limit)


def _call_problems(
    rules: Ruleset, draft: Draft, player: str, kind: str, payload: Payload
) -> list[str]:
    problem = _turn_problem(draft, player)
    if problem:
        return [problem]
    if kind not in rules.calls:
        return [f"unknown call {kind!r}; this table allows: {', '.join(rules.calls)}"]
    if not draft.bids:
        return ["the opener cannot call: there is no bid yet"]
    if payload is not NO_PAYLOAD:
        malformed = payload_problems(rules, kind, payload)
        if malformed:
            return malformed
    if "call_problem" not in rules.hooks.implemented:
        return []
    return rules.hooks.call_problem(draft.freeze(), player, kind, payload)


def call_problems(
    rules: Ruleset, state: GameState, player: str, kind: str, payload: Payload = NO_PAYLOAD
) -> list[str]:
    """Every reason ``player`` may not make a call of ``kind`` (with ``payload``) now; empty when
    the call is legal."""
    return _call_problems(rules, Draft(state), player, kind, payload)


def draft_legal_calls(rules: Ruleset, draft: Draft, player: str) -> list[str]:
    """:func:`legal_calls` on a draft."""
    return [
        kind for kind in rules.calls if not _call_problems(rules, draft, player, kind, NO_PAYLOAD)
    ]


def legal_calls(rules: Ruleset, state: GameState, player: str) -> list[str]:
    """The call kinds ``player`` may make now."""
    return draft_legal_calls(rules, Draft(state), player)


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


def count_matching(rules: Ruleset, state: GameState, face: int) -> int:
    """How many dice in this round's rolls count toward a bid on ``face`` under the rules now."""
    assert state.round is not None
    faces = rules.hooks.matching_faces(state, face)
    return sum(roll.count(face) for roll in state.round.rolls.values() for face in faces)


def _pass_turn(rules: Ruleset, log: _Log, player: str) -> None:
    """Give the turn to whoever ``liarsdice_next_turn`` names after ``player`` (a
    :class:`TurnPassed`, unless the turn is already there). Dispatch has checked that the player
    named is alive."""
    named = rules.hooks.next_turn(log.state, player)
    if named is None:
        raise PluginError("no plugin named the player on turn", hook="liarsdice_next_turn")
    if named != log.draft.turn:
        log.emit(TurnPassed(named))


def advance(
    rules: Ruleset, draft: Draft, action: Action, rng: Random, *, vetted: bool = False
) -> list[Event]:
    """:func:`step` on ``draft``, in place; returns the new events. An illegal action raises
    :class:`IllegalAction` and leaves the draft as it was; after any other error (a plugin's,
    which the error names) the draft is broken: rebuild it from the event log.

    ``vetted`` says the caller took the action from :func:`draft_legal_bids` or
    :func:`draft_legal_calls` of this draft as it is now (and any payload from
    :func:`payload_choices`), so the engine does not check it again: a move generator's
    promise, never a player's.
    """
    hooks = rules.hooks
    log = _Log(draft)
    if isinstance(action, BidAction):
        payload = action.payload
        if not vetted:
            problems = _bid_problems(rules, draft, action.player, action.bid, payload)
            if problems:
                raise IllegalAction(problems)
        log.emit(BidMade(action.player, action.bid, payload))
        if "bid_made" in hooks.implemented:
            answers = hooks.bid_made(log.state, action.player, action.bid, payload, rng)
            log.effects("bid_made", answers)
        if "next_turn" in hooks.overridden:  # the baseline's answer is BidMade's own clockwise
            _pass_turn(rules, log, action.player)
        return log.events
    if isinstance(action, CallAction):
        payload = action.payload
        if not vetted:
            problems = _call_problems(rules, draft, action.player, action.kind, payload)
            if problems:
                raise IllegalAction(problems)
        before = draft.freeze()  # a call changes nothing, so the resolving hooks see this state
        log.emit(CallMade(action.player, action.kind, payload))
        if not rules.calls[action.kind].ends_round:
            effects = hooks.call_made(before, action.player, action.kind, payload, rng)
            log.effects("call_made", effects)
            _pass_turn(rules, log, action.player)
            return log.events
        assert before.round is not None and before.round.current_bid is not None
        count = count_matching(rules, before, before.round.current_bid.face)
        resolution = hooks.resolve_call(before, action.player, action.kind, count)
        if resolution is None:
            raise PluginError(
                f"no plugin resolves call {action.kind!r}", hook="liarsdice_resolve_call"
            )
        _end_round(rules, log, resolution, rng)
        return log.events
    if isinstance(action, TimeoutAction):
        problem = _turn_problem(draft, action.player)
        if problem:
            raise IllegalAction([problem])
        before = draft.freeze()
        log.emit(TimedOut(action.player))
        resolution = hooks.timeout(before, action.player)
        if resolution is None:
            raise PluginError("no plugin rules on a timeout", hook="liarsdice_timeout")
        _end_round(rules, log, resolution, rng)
        return log.events
    raise IllegalAction([f"not an action: {action!r}"])


def step(rules: Ruleset, state: GameState, action: Action, rng: Random) -> Outcome:
    """Apply ``action``; raise :class:`IllegalAction` (state unchanged) if it is not allowed."""
    draft = Draft(state)
    events = advance(rules, draft, action, rng)
    return draft.freeze(), events


def _end_round(rules: Ruleset, log: _Log, resolution: Resolution, rng: Random) -> None:
    log.emit(RoundResolved(resolution))
    log.effects("settle", rules.hooks.settle(log.state, resolution, rng), settling=True)
    draft = log.draft
    for player in list(draft.players):
        if player.alive and player.dice == 0:
            log.emit(Eliminated(player.name, "lost their last die"))
    alive = [p.name for p in draft.players if p.alive]
    if len(alive) == 1:
        log.emit(GameWon(alive[0]))
    elif not alive:
        raise PluginError(
            f"the effects of {resolution.call} left nobody alive", hook="liarsdice_settle"
        )
    else:
        named = rules.hooks.next_opener(log.state, resolution)
        if named is None:
            raise PluginError("no plugin chose the next opener", hook="liarsdice_next_opener")
        log.emit(OpenerChosen(draft.next_alive(named, include_self=True)))
