"""The game loop: validate an action, ask the rules what happens, emit events, fold them into state.

The functions taking a ``state`` are pure: they take a ruleset, a state and (where something is
random) an RNG, and return the new state with the events that led to it. Each has a twin taking a
:class:`~liarsdice.reducer.Draft` instead (:func:`start_game`, :func:`open_round`,
:func:`advance`), which folds the events into the draft in place and freezes a state only when a
hook reads one: loops that play many moves and read the state now and then
(:class:`~liarsdice.game.Game`, ``liarsdice simulate``) use those. An illegal action raises
:class:`~liarsdice.errors.IllegalAction` with every reason and changes nothing; the checks
themselves, and the legal moves, are in :mod:`liarsdice.legality`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random

from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.dispatch import Effects, Hooks
from liarsdice.effects import fold_effects
from liarsdice.errors import IllegalAction, PluginError
from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
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
from liarsdice.i18n import Text, _
from liarsdice.legality import (
    bid_problems,
    call_problems,
    draft_bid_problems,
    draft_call_problems,
    draft_legal_bids,
    draft_legal_calls,
    draft_out_of_turn_calls,
    legal_bids,
    legal_calls,
    out_of_turn_calls,
    payload_choices,
    payload_problems,
    turn_problem,
)
from liarsdice.models import (
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    PlayerState,
    Resolution,
    Sight,
    TimeoutAction,
)
from liarsdice.presets import ANY_DICE, ANY_PLAYERS
from liarsdice.raising import lowest_raise_hint
from liarsdice.reducer import Draft, apply_event
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.standard import challenge_ruling, last_alive, liarsdice_next_opener, timeout_ruling

__all__ = [  # the checks live in liarsdice.legality; they are the engine's API too
    "Outcome",
    "advance",
    "bid_problems",
    "bid_value",
    "call_problems",
    "count_matching",
    "counted_faces",
    "deal",
    "draft_legal_bids",
    "draft_legal_calls",
    "draft_out_of_turn_calls",
    "legal_bids",
    "legal_calls",
    "new_game",
    "next_player",
    "open_round",
    "out_of_turn_calls",
    "partners",
    "payload_choices",
    "payload_problems",
    "sides",
    "sights",
    "start_game",
    "start_round",
    "step",
]

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

    def state_for(self, hooks: Hooks, hook: str) -> GameState | None:
        """:attr:`state` for the effect hook ``hook``, or ``None`` when none of its
        implementations takes it (then nothing is frozen)."""
        return None if hook in hooks.stateless else self.draft.freeze()

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
    if len(players) < ANY_PLAYERS[0]:
        raise ValueError(f"a game needs at least {ANY_PLAYERS[0]} players")
    if len(set(players)) != len(players):
        raise ValueError("player names must be unique")
    if dice_per_player < ANY_DICE[0]:
        raise ValueError(f"each player needs at least {ANY_DICE[0]} die")
    rules.check_table(len(players), dice_per_player)
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
    """Seat ``players`` clockwise and choose the first opener (``first_opener`` overrides it).

    A table the ruleset's preset does not take raises
    :class:`~liarsdice.errors.BadTableSize` (:meth:`~liarsdice.ruleset.Ruleset.check_table`)."""
    draft, events = start_game(
        rules, players, rng, dice_per_player=dice_per_player, first_opener=first_opener
    )
    return draft.freeze(), events


def deal(rng: Random, players: Iterable[PlayerState]) -> dict[str, tuple[int, ...]]:
    """The dice of a new round for the living ``players``: one draw from ``rng`` for the whole
    table, in seat order (what :func:`start_round` rolls when it is given no ``rolls``)."""
    alive = [p for p in players if p.alive]
    faces = rng.choices(FACES, k=sum(p.dice for p in alive))
    dealt: dict[str, tuple[int, ...]] = {}
    start = 0
    for p in alive:
        dealt[p.name] = tuple(faces[start : start + p.dice])
        start += p.dice
    return dealt


def open_round(
    rules: Ruleset,
    draft: Draft,
    rng: Random,
    *,
    rolls: Mapping[str, Sequence[int]] | None = None,
) -> list[Event]:
    """:func:`start_round` on ``draft``, in place; returns the new events."""
    if draft.over:
        raise IllegalAction([_("the game is over")])
    if draft.in_round:
        raise IllegalAction([_("round {number} is still being played", number=draft.number)])
    assert draft.next_opener is not None
    dealt = (
        deal(rng, draft.players)
        if rolls is None
        else {name: tuple(roll) for name, roll in rolls.items()}
    )
    started = RoundStarted(draft.number + 1, draft.next_opener, dealt)
    if "dice_visible" in rules.hooks.overridden:
        dealt_state = apply_event(draft.freeze(), started)
        started = RoundStarted(started.number, started.opener, dealt, sights(rules, dealt_state))
    log = _Log(draft)
    if rolls is None:  # the engine's own deal from the draft's seats
        draft.fold_deal(started)
        log.events.append(started)
    else:
        log.emit(started)
    if "round_started" in rules.hooks.implemented:
        hooks = rules.hooks
        log.effects(
            "round_started", hooks.round_started(log.state_for(hooks, "round_started"), rng)
        )
    return log.events


def sights(rules: Ruleset, state: GameState) -> tuple[Sight, ...]:
    """Who sees whose dice under the cups in the round just dealt, by the
    ``liarsdice_dice_visible`` hook: a :class:`~liarsdice.models.Sight` for each viewer (every
    player at the table, then a spectator) whose sight differs from their own dice only."""
    assert state.round is not None
    owners = [name for name, roll in state.round.rolls.items() if roll]
    found = []
    for viewer in [*(player.name for player in state.players), None]:
        seen = tuple(owner for owner in owners if rules.hooks.dice_visible(state, viewer, owner))
        if set(seen) != {viewer}.intersection(owners):
            found.append(Sight(viewer, seen))
    return tuple(found)


def partners(rules: Ruleset, state: GameState, player: str) -> tuple[str, ...]:
    """The other players on ``player``'s side (the ``liarsdice_partners`` hook): empty unless the
    rules play in teams."""
    return tuple(rules.hooks.partners(state, player) or ())


def sides(rules: Ruleset, state: GameState) -> list[tuple[str, ...]]:
    """The table split into sides, in seat order of each side's first player: one player each,
    unless the rules play in teams (then one side per team)."""
    found: list[tuple[str, ...]] = []
    placed: set[str] = set()
    for player in state.players:
        if player.name not in placed:
            side = (player.name, *partners(rules, state, player.name))
            side = tuple(p.name for p in state.players if p.name in side)
            placed.update(side)
            found.append(side)
    return found


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


def count_matching(rules: Ruleset, state: GameState, face: int) -> int:
    """How many dice in this round's rolls count toward a bid on ``face`` under the rules now."""
    assert state.round is not None
    faces = rules.hooks.matching_faces(state, face)
    return sum(roll.count(face) for roll in state.round.rolls.values() for face in faces)


def bid_value(rules: Ruleset, state: GameState, bid: Bid) -> int:
    """The value of ``bid`` on this round's rolls, by the ruleset's kind of bid (its truth
    function, :meth:`BidKind.value <liarsdice.bidkinds.BidKind.value>`): for the baseline's
    kind, :func:`count_matching` of its face. The bid is true when it reaches ``bid.quantity``;
    it is the ``count`` a call is ruled on."""
    assert state.round is not None
    kind = rules.bid_kind
    if kind is COUNT_OF_FACE:
        return count_matching(rules, state, bid.face)
    dice = (die for roll in state.round.rolls.values() for die in roll)
    return kind.value(bid, dice, counted_faces(rules, state, bid))


def counted_faces(rules: Ruleset, state: GameState, bid: Bid) -> frozenset[int]:
    """The faces whose dice count toward ``bid`` now: ``matching_faces`` where bids name a face,
    else every face (a total of pips counts every die). What a kind's ``value`` and
    ``distribution`` get as ``matching``, and what a reveal shows as counted."""
    if not rules.bid_kind.names_faces:
        return frozenset(FACES)
    return frozenset(rules.hooks.matching_faces(state, bid.face))


def _bid_value(rules: Ruleset, draft: Draft, bid: Bid) -> int:
    """:func:`bid_value` on the state ``draft`` holds, with the count memoised as
    :func:`_count_matching` memoises it."""
    if rules.bid_kind is COUNT_OF_FACE:
        return _count_matching(rules, draft, bid.face)
    return bid_value(rules, draft.freeze(), bid)


def _count_matching(rules: Ruleset, draft: Draft, face: int) -> int:
    """:func:`count_matching` of the state ``draft`` holds, with ``matching_faces`` memoised on
    what it reads."""
    memo = rules.memos.matching_faces
    if memo is None:
        return count_matching(rules, draft.freeze(), face)
    faces = memo.answer(draft, (face,), lambda: rules.hooks.matching_faces(draft.freeze(), face))
    return sum(roll.count(counted) for roll in draft.rolls.values() for counted in faces)


def next_player(rules: Ruleset, state: GameState, player: str) -> str:
    """Who plays after ``player`` here, as ``state`` stands: what ``liarsdice_next_turn`` names
    (a variant may play anticlockwise, or skip a player), else the next living player clockwise.

    A plugin asks it (its hooks may take ``rules``) wherever a rule speaks of "the next player"
    in the order of play, rather than ``state.next_alive``, which is always clockwise and is for
    rules about seats (who opens when the chosen opener is out). ``player`` must be a living
    player at the table (``ValueError`` otherwise); they need not be on turn. The answer holds
    for the state given: a rule that sets the direction with the move about to be made is not in
    it yet."""
    if not state.player(player).alive:
        raise ValueError(f"{player!r} is out: only a living player has a next player")
    if rules.plan.turn:
        return state.next_alive(player)
    named = rules.hooks.next_turn(state, player)
    return state.next_alive(player) if named is None else named


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
            problems = draft_bid_problems(rules, draft, action.player, action.bid, payload)
            if problems:
                raise IllegalAction([*problems, *_hints(rules, draft, action)])
        log.emit(BidMade(action.player, action.bid, payload))
        if "bid_made" in hooks.implemented:
            state = log.state_for(hooks, "bid_made")
            answers = hooks.bid_made(state, action.player, action.bid, payload, rng)
            log.effects("bid_made", answers)
        if not rules.plan.turn:  # the baseline's answer is BidMade's own clockwise
            _pass_turn(rules, log, action.player)
        return log.events
    if isinstance(action, CallAction):
        payload = action.payload
        if not vetted:
            problems = draft_call_problems(rules, draft, action.player, action.kind, payload)
            if problems:
                raise IllegalAction(problems)
        log.emit(CallMade(action.player, action.kind, payload))  # it changes nothing in the draft
        if not rules.calls[action.kind].ends_round:
            state = log.state_for(hooks, "call_made")
            effects = hooks.call_made(state, action.player, action.kind, payload, rng)
            log.effects("call_made", effects)
            _pass_turn(rules, log, action.player)
            return log.events
        assert draft.bids
        count = _bid_value(rules, draft, draft.bids[-1].bid)
        if rules.plan.challenge:
            resolution = challenge_ruling(draft.bids[-1], action.player, action.kind, count)
        else:
            resolution = hooks.resolve_call(draft.freeze(), action.player, action.kind, count)
        if resolution is None:
            raise PluginError(
                f"no plugin resolves call {action.kind!r}", hook="liarsdice_resolve_call"
            )
        _end_round(rules, log, resolution, rng)
        return log.events
    if isinstance(action, TimeoutAction):
        problem = turn_problem(draft, action.player)
        if problem:
            raise IllegalAction([problem])
        log.emit(TimedOut(action.player))  # it changes nothing in the draft
        if rules.plan.timeout:
            timed_out: Resolution | None = timeout_ruling(draft.bids, action.player)
        else:
            timed_out = hooks.timeout(draft.freeze(), action.player)
        if timed_out is None:
            raise PluginError("no plugin rules on a timeout", hook="liarsdice_timeout")
        _end_round(rules, log, timed_out, rng)
        return log.events
    raise IllegalAction([f"not an action: {action!r}"])


def step(rules: Ruleset, state: GameState, action: Action, rng: Random) -> Outcome:
    """Apply ``action``; raise :class:`IllegalAction` (state unchanged) if it is not allowed."""
    draft = Draft(state)
    events = advance(rules, draft, action, rng)
    return draft.freeze(), events


def _taken(batch: Sequence[object]) -> str:
    """What a plugin's settling effects took away, in words ("" if nothing)."""
    dice = -sum(e.delta for e in batch if isinstance(e, DiceChanged) and e.delta < 0)
    players = sum(isinstance(e, Eliminated) for e in batch)
    parts = [f"took {dice} {'die' if dice == 1 else 'dice'}"] * bool(dice)
    parts += [f"put {players} out"] * bool(players)
    return " and ".join(parts)


def _end_round(rules: Ruleset, log: _Log, resolution: Resolution, rng: Random) -> None:
    """Rule the round: settle it, put out who has no dice left, then end the game or name the
    next opener (each step on the path :attr:`Ruleset.plan` chose)."""
    plan = rules.plan
    draft = log.draft
    log.emit(RoundResolved(resolution))
    state = log.state_for(rules.hooks, "settle")
    settled = rules.hooks.settle(state, resolution, rng)
    log.effects("settle", settled, settling=True)
    for player in list(draft.players):
        if player.alive and player.dice == 0:
            log.emit(Eliminated(player.name, _("lost their last die")))
    winners = last_alive(draft.players) if plan.winners else rules.hooks.game_winners(log.state)
    alive = sum(p.alive for p in draft.players)
    if winners is not None:
        log.emit(GameWon(tuple(winners)))
    elif not alive:
        taken = {plugin: _taken(batch) for plugin, batch in settled if _taken(batch)}
        out = [plugin for plugin, batch in settled if any(isinstance(e, Eliminated) for e in batch)]
        raise PluginError(
            f"the effects of {resolution.call} left nobody alive ("
            + ("; ".join(f"{plugin} {what}" for plugin, what in taken.items()) or "no effects")
            + ")",
            plugin=(out or list(taken))[-1] if out or taken else None,
            hook="liarsdice_settle",
        )
    elif alive == 1:
        raise PluginError(
            "one player is left alive and no plugin ended the game", hook="liarsdice_game_winners"
        )
    else:
        if plan.opener:
            named: str | None = liarsdice_next_opener(resolution)
        else:
            named = rules.hooks.next_opener(log.state, resolution)
        if named is None:
            raise PluginError("no plugin chose the next opener", hook="liarsdice_next_opener")
        log.emit(OpenerChosen(draft.next_alive(named, include_self=True)))


def _hints(rules: Ruleset, draft: Draft, action: BidAction) -> list[Text]:
    """What a player whose bid was refused can do instead: the lowest raise, when the bid did
    not raise the one on the table."""
    current = draft.current_bid
    if current is None or turn_problem(draft, action.player) is not None:
        return []  # only the player on turn bids: nobody else is told what to raise to
    if rules.rank(action.bid) > rules.rank(current):
        return []
    hint = lowest_raise_hint(rules, draft, action.player, action.bid)
    return [] if hint is None else [hint]
