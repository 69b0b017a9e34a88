"""The game loop: validate an action, ask the rules what happens, emit events, fold them into state.

All functions are pure: they take a ruleset, a state and (where something is random) an RNG, and
return the new state with the events that led to it. An illegal action raises
:class:`~liarsdice.errors.IllegalAction` with every reason and changes nothing.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Mapping, Sequence
from random import Random

from liarsdice.errors import IllegalAction, PluginError
from liarsdice.events import (
    EFFECT_TYPES,
    BidMade,
    CallMade,
    DiceChanged,
    Effect,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    OpenerChosen,
    RoundResolved,
    RoundStarted,
    TimedOut,
)
from liarsdice.models import (
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    Resolution,
    TimeoutAction,
)
from liarsdice.reducer import apply_event
from liarsdice.ruleset import FACES, Ruleset

Outcome = tuple[GameState, list[Event]]


class _Log:
    """Folds events into a state as they are emitted and keeps them in order."""

    def __init__(self, state: GameState | None) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> GameState:
        self.state = apply_event(self.state, event)
        self.events.append(event)
        return self.state

    def effects(self, batches: Iterable[Sequence[Effect]], *, settling: bool = True) -> None:
        """Apply plugin effects in order.

        Effects on a player who is already out are dropped, and a loss of more dice than a player
        holds takes what is there. Outside settling (``round_started``, ``bid_made``) dice are
        rolled and in play, so effects there may not change dice or eliminate anyone.
        """
        for batch in batches:
            for effect in batch:
                if not isinstance(effect, EFFECT_TYPES):
                    raise PluginError(f"a plugin returned {effect!r}, which is not an effect")
                if isinstance(effect, DiceChanged | Eliminated):
                    if not settling:
                        raise PluginError(
                            f"{effect!r}: dice change and eliminations happen only in liarsdice_settle"
                        )
                    assert self.state is not None
                    player = self.state.player(effect.player)
                    if not player.alive:
                        continue
                    if isinstance(effect, DiceChanged) and player.dice + effect.delta < 0:
                        if player.dice == 0:
                            continue
                        effect = DiceChanged(player.name, -player.dice, effect.reason)
                self.emit(effect)

    def outcome(self) -> Outcome:
        assert self.state is not None
        return self.state, self.events


def new_game(
    rules: Ruleset,
    players: Sequence[str],
    rng: Random,
    *,
    dice_per_player: int = 5,
    first_opener: str | None = None,
) -> Outcome:
    """Seat ``players`` clockwise and choose the first opener (``first_opener`` overrides it)."""
    if len(players) < 2:
        raise ValueError("a game needs at least 2 players")
    if len(set(players)) != len(players):
        raise ValueError("player names must be unique")
    if dice_per_player < 1:
        raise ValueError("each player needs at least 1 die")
    log = _Log(None)
    state = log.emit(GameStarted(tuple(players), dice_per_player))
    if first_opener is None:
        first_opener = rules.hooks.first_opener(state, rng)
        if first_opener is None:
            raise PluginError("no plugin chose the first opener")
    if first_opener not in players:
        raise ValueError(f"first opener {first_opener!r} is not at the table")
    log.emit(OpenerChosen(first_opener))
    return log.outcome()


def start_round(
    rules: Ruleset,
    state: GameState,
    rng: Random,
    *,
    rolls: Mapping[str, Sequence[int]] | None = None,
) -> Outcome:
    """Roll every living player's dice (or take ``rolls`` as given) and open the next round."""
    if state.over:
        raise IllegalAction(["the game is over"])
    if state.round is not None and not state.round.over:
        raise IllegalAction([f"round {state.round.number} is still being played"])
    assert state.next_opener is not None
    if rolls is None:
        alive = [p for p in state.players if p.alive]
        faces = rng.choices(FACES, k=sum(p.dice for p in alive))  # one draw for the whole table
        dealt: dict[str, tuple[int, ...]] = {}
        start = 0
        for p in alive:
            dealt[p.name] = tuple(faces[start : start + p.dice])
            start += p.dice
    else:
        dealt = {name: tuple(roll) for name, roll in rolls.items()}
    number = state.round.number + 1 if state.round else 1
    log = _Log(state)
    state = log.emit(RoundStarted(number, state.next_opener, dealt))
    log.effects(rules.hooks.round_started(state), settling=False)
    return log.outcome()


def _turn_problem(state: GameState, player: str) -> str | None:
    round_ = state.round
    if (
        round_ is not None
        and round_.turn == player
        and round_.resolution is None
        and not state.over
    ):
        return None
    if state.over:
        return "the game is over"
    if round_ is None or round_.over:
        return "no round is being played"
    if not any(p.name == player for p in state.players):
        return f"{player!r} is not at this table"
    if not state.player(player).alive:
        return f"{player} is out of the game"
    return f"not {player}'s turn"


def bid_problems(rules: Ruleset, state: GameState, player: str, bid: Bid) -> list[str]:
    """Every reason ``player`` may not bid ``bid`` now; empty when the bid is legal."""
    problem = _turn_problem(state, player)
    if problem:
        return [problem]
    if type(bid.quantity) is not int or type(bid.face) is not int:
        return ["a bid is a whole quantity and a face"]
    if not 1 <= bid.face <= 6:
        return [f"there is no face {bid.face}: dice show 1 to 6"]
    assert state.round is not None
    if not 1 <= bid.quantity <= state.round.dice_in_play:
        return [f"{bid} is not 1 to {state.round.dice_in_play} dice, the dice in play"]
    hooks = rules.hooks
    problems = hooks.bid_problem(state, player, bid)
    refusal = rules.face_refusal(state, player, bid.face)
    if refusal is not None:
        problems.insert(0, refusal)
    current = state.round.current_bid
    if current is not None and hooks.bid_rank(bid) <= hooks.bid_rank(current):
        problems.append(f"{bid} does not raise {current}")
    return problems


def legal_bids(
    rules: Ruleset, state: GameState, player: str, limit: int | None = None
) -> list[Bid]:
    """The legal bids for ``player`` now, lowest first (at most ``limit`` of them)."""
    if _turn_problem(state, player):
        return []
    round_ = state.round
    assert round_ is not None
    hooks = rules.hooks
    # The ladder leaves out the faces refused now; the bids above the current one raise it.
    keys, ladder = rules.ladder(round_.dice_in_play, rules.refused_faces(state, player))
    current = round_.current_bid
    start = 0 if current is None else bisect.bisect_right(keys, hooks.bid_rank(current))
    if "bid_problem" not in hooks.implemented:  # nothing else can refuse a bid
        return ladder[start:] if limit is None else ladder[start : start + max(limit, 0)]
    found: list[Bid] = []
    for bid in itertools.islice(ladder, start, None):
        if limit is not None and len(found) >= limit:
            break
        if not hooks.bid_problem(state, player, bid):
            found.append(bid)
    return found


def call_problems(rules: Ruleset, state: GameState, player: str, kind: str) -> list[str]:
    """Every reason ``player`` may not make a call of ``kind`` now; empty when the call is legal."""
    problem = _turn_problem(state, player)
    if problem:
        return [problem]
    if kind not in rules.calls:
        return [f"unknown call {kind!r}; this table allows: {', '.join(rules.calls)}"]
    assert state.round is not None
    if not state.round.bids:
        return ["the opener cannot call: there is no bid yet"]
    if "call_problem" not in rules.hooks.implemented:
        return []
    return rules.hooks.call_problem(state, player, kind)


def legal_calls(rules: Ruleset, state: GameState, player: str) -> list[str]:
    """The call kinds ``player`` may make now."""
    return [kind for kind in rules.calls if not call_problems(rules, state, player, kind)]


def count_matching(rules: Ruleset, state: GameState, face: int) -> int:
    """How many dice in this round's rolls count toward a bid on ``face`` under the rules now."""
    assert state.round is not None
    faces = rules.hooks.matching_faces(state, face)
    return sum(roll.count(face) for roll in state.round.rolls.values() for face in faces)


def step(rules: Ruleset, state: GameState, action: Action, rng: Random) -> Outcome:
    """Apply ``action``; raise :class:`IllegalAction` (state unchanged) if it is not allowed."""
    if isinstance(action, BidAction):
        problems = bid_problems(rules, state, action.player, action.bid)
        if problems:
            raise IllegalAction(problems)
        log = _Log(state)
        state = log.emit(BidMade(action.player, action.bid))
        if "bid_made" in rules.hooks.implemented:
            log.effects(rules.hooks.bid_made(state, action.player, action.bid), settling=False)
        return log.outcome()
    if isinstance(action, CallAction):
        problems = call_problems(rules, state, action.player, action.kind)
        if problems:
            raise IllegalAction(problems)
        log = _Log(state)
        log.emit(CallMade(action.player, action.kind))
        assert state.round is not None and state.round.current_bid is not None
        count = count_matching(rules, state, state.round.current_bid.face)
        resolution = rules.hooks.resolve_call(state, action.player, action.kind, count)
        if resolution is None:
            raise PluginError(f"no plugin resolves call {action.kind!r}")
        return _end_round(rules, log, resolution, rng)
    if isinstance(action, TimeoutAction):
        problem = _turn_problem(state, action.player)
        if problem:
            raise IllegalAction([problem])
        log = _Log(state)
        log.emit(TimedOut(action.player))
        resolution = rules.hooks.timeout(state, action.player)
        if resolution is None:
            raise PluginError("no plugin rules on a timeout")
        return _end_round(rules, log, resolution, rng)
    raise IllegalAction([f"not an action: {action!r}"])


def _end_round(rules: Ruleset, log: _Log, resolution: Resolution, rng: Random) -> Outcome:
    state = log.emit(RoundResolved(resolution))
    log.effects(rules.hooks.settle(state, resolution, rng))
    state = log.outcome()[0]
    for player in state.players:
        if player.alive and player.dice == 0:
            state = log.emit(Eliminated(player.name, "lost their last die"))
    alive = [p.name for p in state.players if p.alive]
    if len(alive) == 1:
        log.emit(GameWon(alive[0]))
    elif not alive:
        raise PluginError(f"the effects of {resolution.call} left nobody alive")
    else:
        named = rules.hooks.next_opener(state, resolution)
        if named is None:
            raise PluginError("no plugin chose the next opener")
        log.emit(OpenerChosen(state.next_alive(named, include_self=True)))
    return log.outcome()
