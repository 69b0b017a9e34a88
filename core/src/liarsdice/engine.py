"""The game loop: validate an action, ask the rules what happens, emit events, fold them into state.

All functions are pure: they take a ruleset, a state and (where something is random) an RNG, and
return the new state with the events that led to it. An illegal action raises
:class:`~liarsdice.errors.IllegalAction` with every reason and changes nothing.
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Mapping, Sequence
from random import Random

from liarsdice.contracts import bad, call_one, json_problem, shown
from liarsdice.dispatch import Effects
from liarsdice.errors import IllegalAction, PluginError
from liarsdice.events import (
    IN_ROUND_EFFECTS,
    SETTLING_EFFECTS,
    BidMade,
    CallMade,
    DiceChanged,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    OpenerChosen,
    PluginStateSet,
    PrivateStateSet,
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
from liarsdice.reducer import InvalidEvent, apply_event
from liarsdice.ruleset import FACES, Ruleset

Outcome = tuple[GameState, list[Event]]


_STATE_SETTERS = (PluginStateSet, PrivateStateSet)


class _Misplaced(Exception):
    """An effect returned by a hook where it may not be."""


_SETTLING_ONLY = "dice counts change and players are eliminated only in liarsdice_settle"
_IN_ROUND_ONLY = (
    "dice are shown or rerolled and private state is set only while a round is being played"
)


class _Log:
    """Folds events into a state as they are emitted and keeps them in order."""

    def __init__(self, state: GameState | None) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> GameState:
        self.state = apply_event(self.state, event)
        self.events.append(event)
        return self.state

    def effects(self, hook: str, answers: Effects, *, settling: bool = False) -> None:
        """Apply the effects of ``hook``, plugin by plugin, in order.

        In settling, effects on a player who is already out are dropped, and a loss of more dice
        than a player holds takes what is there. Outside settling (the flow hooks) dice are in
        play, so effects there may not change dice counts or eliminate anyone; in settling the
        round is over, so they may not show or reroll dice or set private state. A broken effect
        raises :class:`~liarsdice.errors.BadHookResult` naming the plugin and the hook (that each
        answer is a list of effects, dispatch has checked).
        """
        name = f"liarsdice_{hook}"
        for plugin, batch in answers:
            for effect in batch:
                try:
                    if isinstance(effect, SETTLING_EFFECTS):
                        if not settling:
                            raise _Misplaced(_SETTLING_ONLY)
                        state = self.state
                        assert state is not None
                        player = state.player(effect.player)
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
                    self.emit(effect)
                except _Misplaced as error:
                    raise bad(plugin, name, f"returned {shown(effect)}: {error}") from None
                except InvalidEvent as error:
                    raise bad(plugin, name, f"returned {shown(effect)}: {error}") from error
                except KeyError as error:  # from state.player
                    problem = f"{error.args[0]!r} is not at the table"
                    raise bad(plugin, name, f"returned {shown(effect)}: {problem}") from error
                except Exception as error:  # a field of the wrong type, say
                    problem = f"{type(error).__name__}: {error}"
                    raise bad(plugin, name, f"returned {shown(effect)}: {problem}") from error

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
            raise PluginError("no plugin chose the first opener", hook="liarsdice_first_opener")
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
    log.effects("round_started", rules.hooks.round_started(state, rng))
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


def bid_problems(
    rules: Ruleset, state: GameState, player: str, bid: Bid, payload: Payload = NO_PAYLOAD
) -> list[str]:
    """Every reason ``player`` may not bid ``bid`` (with ``payload``) now; empty when legal."""
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
    if payload is not NO_PAYLOAD:
        malformed = payload_problems(rules, "bid", payload)
        if malformed:
            return malformed
    hooks = rules.hooks
    problems = hooks.bid_problem(state, player, bid, payload)
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
        if not hooks.bid_problem(state, player, bid, NO_PAYLOAD):
            found.append(bid)
    return found


def call_problems(
    rules: Ruleset, state: GameState, player: str, kind: str, payload: Payload = NO_PAYLOAD
) -> list[str]:
    """Every reason ``player`` may not make a call of ``kind`` (with ``payload``) now; empty when
    the call is legal."""
    problem = _turn_problem(state, player)
    if problem:
        return [problem]
    if kind not in rules.calls:
        return [f"unknown call {kind!r}; this table allows: {', '.join(rules.calls)}"]
    assert state.round is not None
    if not state.round.bids:
        return ["the opener cannot call: there is no bid yet"]
    if payload is not NO_PAYLOAD:
        malformed = payload_problems(rules, kind, payload)
        if malformed:
            return malformed
    if "call_problem" not in rules.hooks.implemented:
        return []
    return rules.hooks.call_problem(state, player, kind, payload)


def legal_calls(rules: Ruleset, state: GameState, player: str) -> list[str]:
    """The call kinds ``player`` may make now."""
    return [kind for kind in rules.calls if not call_problems(rules, state, player, kind)]


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
    state = log.state
    assert state is not None and state.round is not None
    named = rules.hooks.next_turn(state, player)
    if named is None:
        raise PluginError("no plugin named the player on turn", hook="liarsdice_next_turn")
    if named != state.round.turn:
        log.emit(TurnPassed(named))


def step(rules: Ruleset, state: GameState, action: Action, rng: Random) -> Outcome:
    """Apply ``action``; raise :class:`IllegalAction` (state unchanged) if it is not allowed."""
    hooks = rules.hooks
    if isinstance(action, BidAction):
        payload = action.payload
        problems = bid_problems(rules, state, action.player, action.bid, payload)
        if problems:
            raise IllegalAction(problems)
        log = _Log(state)
        state = log.emit(BidMade(action.player, action.bid, payload))
        if "bid_made" in hooks.implemented:
            log.effects("bid_made", hooks.bid_made(state, action.player, action.bid, payload, rng))
        if "next_turn" in hooks.overridden:  # the baseline's answer is BidMade's own clockwise
            _pass_turn(rules, log, action.player)
        return log.outcome()
    if isinstance(action, CallAction):
        payload = action.payload
        problems = call_problems(rules, state, action.player, action.kind, payload)
        if problems:
            raise IllegalAction(problems)
        log = _Log(state)
        after = log.emit(CallMade(action.player, action.kind, payload))
        if not rules.calls[action.kind].ends_round:
            effects = hooks.call_made(after, action.player, action.kind, payload, rng)
            log.effects("call_made", effects)
            _pass_turn(rules, log, action.player)
            return log.outcome()
        assert state.round is not None and state.round.current_bid is not None
        count = count_matching(rules, state, state.round.current_bid.face)
        resolution = rules.hooks.resolve_call(state, action.player, action.kind, count)
        if resolution is None:
            raise PluginError(
                f"no plugin resolves call {action.kind!r}", hook="liarsdice_resolve_call"
            )
        return _end_round(rules, log, resolution, rng)
    if isinstance(action, TimeoutAction):
        problem = _turn_problem(state, action.player)
        if problem:
            raise IllegalAction([problem])
        log = _Log(state)
        log.emit(TimedOut(action.player))
        resolution = rules.hooks.timeout(state, action.player)
        if resolution is None:
            raise PluginError("no plugin rules on a timeout", hook="liarsdice_timeout")
        return _end_round(rules, log, resolution, rng)
    raise IllegalAction([f"not an action: {action!r}"])


def _end_round(rules: Ruleset, log: _Log, resolution: Resolution, rng: Random) -> Outcome:
    state = log.emit(RoundResolved(resolution))
    log.effects("settle", rules.hooks.settle(state, resolution, rng), settling=True)
    state = log.outcome()[0]
    for player in state.players:
        if player.alive and player.dice == 0:
            state = log.emit(Eliminated(player.name, "lost their last die"))
    alive = [p.name for p in state.players if p.alive]
    if len(alive) == 1:
        log.emit(GameWon(alive[0]))
    elif not alive:
        raise PluginError(
            f"the effects of {resolution.call} left nobody alive", hook="liarsdice_settle"
        )
    else:
        named = rules.hooks.next_opener(state, resolution)
        if named is None:
            raise PluginError("no plugin chose the next opener", hook="liarsdice_next_opener")
        log.emit(OpenerChosen(state.next_alive(named, include_self=True)))
    return log.outcome()
