"""Play a game and record every transition, for the rule laws.

:func:`play_game` drives the pure engine from a seed. Every choice it makes (which legal move, when
to let the clock run out, which illegal action to try) comes from a *chooser*: a function
``choose(n) -> index in range(n)``. The Hypothesis strategy in :mod:`liarsdice.testing.strategies`
passes one that draws from Hypothesis (so games shrink); :class:`RandomChooser` draws from a seeded
``Random`` for plain loops. The game records every answer its chooser gave
(:attr:`PlayedGame.choices`), so the seed and those answers replay it exactly
(:mod:`liarsdice.testing.replay`). Each round's dice are dealt from :func:`dice_stream` and
everything else random (roll-offs, revolver pulls, rerolls) comes from the engine's
``Random(seed)``: a scenario file that writes the dice out and gives ``"seed": seed`` draws the rest
alike.

The record is a list of :class:`Step` objects: the state before, what was tried, the events, the
state after, and — for a refused action — the reasons. Nothing here judges the game: the laws in
:mod:`liarsdice.testing.laws` do.

A game is played until it has a winner, or until it has taken the most moves its ruleset allows
at its table (:meth:`~liarsdice.Ruleset.move_limit`): then it is *stuck*, and the law "every game
ends within the ruleset's move limit" fails on it. A caller may give a smaller budget of moves
(the game then comes out *incomplete*, which is no fault of the rules).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import Any

import attrs

from liarsdice import engine
from liarsdice.errors import IllegalAction
from liarsdice.events import Event
from liarsdice.limits import MoveLimit
from liarsdice.models import (
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    TimeoutAction,
)
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import dumps

Chooser = Callable[[int], int]
"""``choose(n)`` returns an index in ``range(n)``; index 0 is always the simplest choice."""

STRANGER = "nobody"
"""A name that sits at no table, used for illegal actions by a stranger."""


@attrs.frozen
class NewGame:
    """The first step: seat ``players`` with ``dice_per_player`` dice each, RNG ``Random(seed)``."""

    players: tuple[str, ...]
    dice_per_player: int
    seed: int

    def __str__(self) -> str:
        return (
            f"new game: {len(self.players)} players x {self.dice_per_player} dice, seed {self.seed}"
        )


@attrs.frozen
class StartRound:
    """A step that rolls the dice and opens the next round."""

    def __str__(self) -> str:
        return "start round"


@attrs.frozen
class ListMoves:
    """A step that asks the engine for the legal moves (recorded only when that raised)."""

    def __str__(self) -> str:
        return "list the legal moves"


Move = Action | NewGame | StartRound | ListMoves

#: What the driver meant by a step: a move it believed legal, a timeout, an action it built to be
#: illegal, or the setup moves (new game, start round).
LEGAL, TIMEOUT, ILLEGAL, SETUP = "legal", "timeout", "illegal", "setup"


@attrs.frozen
class Step:
    """One transition of a recorded game.

    ``state`` is the state before (``None`` for the :class:`NewGame` step) and ``after`` the state
    the engine returned; for a refused action ``after`` is ``state`` and ``refused`` lists the
    reasons. ``snapshot`` and ``snapshot_after`` are the JSON of ``state`` taken just before and
    just after an illegal attempt, to prove nothing was mutated in place. ``error`` is set when the
    engine raised anything but :class:`IllegalAction`, and ``action`` is ``None`` when the player
    on turn had no legal move at all; the game stops there.
    """

    state: GameState | None
    action: Move | None
    intent: str
    events: tuple[Event, ...] = ()
    after: GameState | None = None
    refused: tuple[str, ...] | None = None
    snapshot: str | None = attrs.field(default=None, repr=False)
    snapshot_after: str | None = attrs.field(default=None, repr=False)
    error: str | None = None

    @property
    def accepted(self) -> bool:
        """True when the engine applied the move (no refusal, no error)."""
        return self.refused is None and self.error is None and self.action is not None

    def __str__(self) -> str:
        outcome = (
            f"refused ({'; '.join(self.refused)})"
            if self.refused is not None
            else f"error: {self.error}"
            if self.error is not None
            else f"{len(self.events)} events"
        )
        return f"[{self.intent}] {show_move(self.action)} -> {outcome}"


def timeline(steps: Sequence[Step]) -> Iterator[Step]:
    """The steps that make up the game itself: accepted moves that were not illegal attempts."""
    return (step for step in steps if step.accepted and step.intent != ILLEGAL)


def is_move(step: Step) -> bool:
    """True for a step that counts toward the move limit: an accepted bid, call or timeout that
    was not an illegal attempt."""
    return (
        step.accepted
        and step.intent != ILLEGAL
        and isinstance(step.action, BidAction | CallAction | TimeoutAction)
    )


@attrs.frozen
class PlayedGame:
    """A recorded game: its ruleset, its steps, the ruleset's move limit for its table (``None``
    when the game never started) and every answer its chooser gave, in order (with the
    :class:`NewGame` step's seed, what replays it). ``repr`` is compact, for falsifying examples."""

    rules: Ruleset = attrs.field(eq=False)
    steps: tuple[Step, ...]
    limit: MoveLimit | None = attrs.field(default=None, eq=False, repr=False)
    choices: tuple[int, ...] = attrs.field(default=(), eq=False, repr=False)

    @property
    def start(self) -> NewGame:
        """The game's first step: its table and seed."""
        action = self.steps[0].action
        assert isinstance(action, NewGame)
        return action

    @property
    def moves(self) -> int:
        """The moves played: accepted bids, calls and timeouts (not illegal attempts)."""
        return sum(1 for step in self.steps if is_move(step))

    @property
    def stuck(self) -> bool:
        """True when the game was stopped at the ruleset's move limit without a winner."""
        return self.limit is not None and not self.complete and self.moves >= self.limit.moves

    @property
    def final(self) -> GameState | None:
        """The state after the last accepted step (``None`` if the game never started)."""
        state = None
        for step in timeline(self.steps):
            state = step.after
        return state

    @property
    def complete(self) -> bool:
        """True when the game was played to a winner."""
        final = self.final
        return final is not None and final.over

    def transcript(self) -> list[str]:
        """The game as lines: the start, then one line per round (rolls, then every move tried)."""
        lines = [str(self.steps[0].action)]
        for step in self.steps[1:]:
            if isinstance(step.action, StartRound) and step.accepted:
                round_ = step.after.round if step.after is not None else None
                rolls = round_.rolls if round_ is not None else {}
                shown = " ".join(
                    f"{name}={''.join(map(str, roll))}" for name, roll in rolls.items()
                )
                lines.append(f"round {round_.number if round_ else '?'} [{shown}]:")
                continue
            mark = (
                ""
                if step.accepted
                else f" (refused: {step.refused[0]})"
                if step.refused
                else f" (!! {step.error})"
            )
            lines[-1] += f" {show_move(step.action)}{mark};"
        return lines

    def __repr__(self) -> str:
        return f"PlayedGame({self.rules!r}, {' '.join(self.transcript())})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis (and IPython) print the transcript, one round a line, not every field."""
        printer.text(f"PlayedGame({self.rules!r},\n    " + "\n    ".join(self.transcript()) + ")")


# --- showing states and moves compactly (for law messages) ---------------------------------------


def show_bid(bid: Bid | None) -> str:
    """``"3 fives"`` (the bid's own text; odd faces as ``face-7``), ``"-"`` for no bid."""
    return "-" if bid is None else str(bid)


def _show_payload(payload: Any) -> str:
    return f" with {dict(payload)}" if payload else ""


def show_move(move: Move | None) -> str:
    """A move in a few words: ``"p2 bids 3 fives"``, ``"p1 calls challenge"``."""
    if isinstance(move, BidAction):
        return f"{move.player} bids {show_bid(move.bid)}{_show_payload(move.payload)}"
    if isinstance(move, CallAction):
        return f"{move.player} calls {move.kind}{_show_payload(move.payload)}"
    if isinstance(move, TimeoutAction):
        return f"{move.player} times out"
    if move is None:
        return "(no legal move)"
    return str(move)


def show_state(state: GameState | None) -> str:
    """A state on one line: seats with dice, the round, rolls, bids, turn, ruling, plugin state."""
    if state is None:
        return "(no game yet)"
    seats = " ".join(f"{p.name}:{p.dice}{'' if p.alive else '(out)'}" for p in state.players)
    parts = [f"seats {seats}"]
    round_ = state.round
    if round_ is not None:
        rolls = " ".join(f"{name}={''.join(map(str, roll))}" for name, roll in round_.rolls.items())
        bids = ", ".join(f"{b.player} {show_bid(b.bid)}" for b in round_.bids) or "none"
        parts.append(f"round {round_.number} rolls {rolls} bids [{bids}] turn {round_.turn}")
        if round_.shown:
            parts.append(f"shown {dict(round_.shown)}")
        if round_.private:
            parts.append(f"private {dict(round_.private)}")
        if round_.resolution is not None:
            r = round_.resolution
            parts.append(f"ruling {r.call} count={r.count} losers={list(r.losers)}")
    if state.plugins:
        parts.append(f"plugins {dict(state.plugins)}")
    if state.winners:
        parts.append(f"won by {', '.join(state.winners)}")
    return " | ".join(parts)


# --- tables -------------------------------------------------------------------------------------

QUICK_PLAYERS, QUICK_DICE = (2, 4), (1, 3)
"""The tables games are played at unless told otherwise: 2-4 players with 1-3 dice each."""


def quick_shapes(rules: Ruleset) -> list[tuple[int, int]]:
    """The (players, dice) tables of :data:`QUICK_PLAYERS` x :data:`QUICK_DICE`, moved inside the
    table size of the ruleset's preset (perudo: 2-4 players with 5 dice each), that no plugin
    refuses (``liarsdice_table_problem``: teams, 2 or 4 players); smallest first."""
    (low_players, high_players), (low_dice, high_dice) = QUICK_PLAYERS, QUICK_DICE
    if rules.preset is not None:
        low_players, low_dice = rules.preset.size.fit(low_players, low_dice)
        high_players, high_dice = rules.preset.size.fit(high_players, high_dice)
    return [
        (players, dice)
        for players in range(low_players, high_players + 1)
        for dice in range(low_dice, high_dice + 1)
        if rules.table_refusal(players, dice) is None
    ]


def table_near(rules: Ruleset, players: int, dice: int) -> tuple[int, int]:
    """``(players, dice)`` if the ruleset takes that table, else the nearest of its
    :func:`quick_shapes`, the larger of two as near (teams: 4 players for 3). Raises
    ``ValueError`` when it takes none."""
    if rules.table_refusal(players, dice) is None:
        return players, dice
    shapes = quick_shapes(rules)
    if not shapes:
        raise ValueError(f"{rules!r} takes none of the tables {QUICK_PLAYERS} x {QUICK_DICE}")
    return min(
        shapes,
        key=lambda shape: (abs(shape[0] - players) + abs(shape[1] - dice), -shape[0], -shape[1]),
    )


def seat_names(players: int) -> tuple[str, ...]:
    """``p1``, ``p2``, ... for a table of ``players``."""
    return tuple(f"p{seat}" for seat in range(1, players + 1))


# --- randomness ---------------------------------------------------------------------------------


def dice_stream(seed: int) -> Random:
    """The stream :func:`play_game` deals each round's dice from, apart from the engine's
    ``Random(seed)`` (roll-offs, revolver pulls, rerolls)."""
    return Random(f"dice:{seed}")


def start_round(
    rules: Ruleset, state: GameState, rng: Random, dice: Random
) -> tuple[GameState, list[Event]]:
    """Open the next round as :func:`play_game` does: the dice dealt from ``dice``, everything
    else drawn from ``rng``."""
    return engine.start_round(rules, state, rng, rolls=engine.deal(dice, state.players))


# --- choosers -----------------------------------------------------------------------------------


class RandomChooser:
    """A chooser drawing uniformly from ``Random(seed)``: for plain (non-Hypothesis) loops."""

    def __init__(self, seed: int) -> None:
        self._rng = Random(seed)

    def __call__(self, n: int) -> int:
        return self._rng.randrange(n)


# --- illegal actions ----------------------------------------------------------------------------


def illegal_actions(rules: Ruleset, state: GameState) -> list[Action]:
    """Actions the rules must refuse in ``state``, simplest first.

    Built from the rules' text, not from the engine's answers (except the last group, bids the
    engine's own enumeration leaves out): acting out of turn (other players, eliminated players, a
    stranger; a call declared ``out_of_turn`` by the bidder of the bid it would call), bids that do
    not raise or are out of range (by the bid kind's shape check), unknown call kinds, calling the
    opener's empty table, and any action between rounds or after the game.
    """
    round_ = state.round
    everyone = [p.name for p in state.players]
    if state.over or round_ is None or round_.over:
        return [
            action
            for name in everyone
            for action in (BidAction(name, Bid(1, 2)), CallAction(name), TimeoutAction(name))
        ]
    turn = round_.turn
    others = [name for name in everyone if name != turn]
    found: list[Action] = []
    for name in [*others, STRANGER]:
        found += [BidAction(name, Bid(1, 2)), CallAction(name), TimeoutAction(name)]
    current = round_.current_bid
    if current is not None:
        bidder = round_.bids[-1].player
        found += [CallAction(bidder, kind) for kind in rules.out_of_turn]  # one's own bid
        found.append(BidAction(turn, current))
        found.append(
            BidAction(turn, Bid(1, current.face))
            if current.quantity > 1
            else BidAction(turn, current)
        )
    else:
        found += [CallAction(turn, kind) for kind in rules.calls]
    # Bids outside the kind's range (its shape check says so): for a count of a face, none
    # dice, too many dice, face 0 and face 7; a kind whose bids are Bid(n, 0) keeps the others.
    in_play = round_.dice_in_play
    kind = rules.bid_kind
    top = max(bid.quantity for bid in kind.bids(in_play))
    malformed = (Bid(0, 2), Bid(top + 1, 6), Bid(1, 0), Bid(1, 7))
    found += [
        BidAction(turn, bid) for bid in malformed if kind.shape_problem(bid, in_play) is not None
    ]
    found.append(CallAction(turn, "no-such-call"))
    legal_bids = engine.legal_bids(rules, state, turn)
    legal = set(legal_bids)
    found += [
        BidAction(turn, Bid(q, f))
        for q in range(1, round_.dice_in_play + 1)
        for f in range(1, 7)
        if Bid(q, f) not in legal
    ]
    # Legal moves with a payload no plugin reads.
    stray = {STRANGER: True}
    found += [BidAction(turn, bid, stray) for bid in legal_bids[:1]]
    found += [CallAction(turn, kind, stray) for kind in engine.legal_calls(rules, state, turn)]
    return found


# --- the driver ---------------------------------------------------------------------------------


def plugin_failure(error: BaseException) -> str:
    """An engine error in words, with the plugin and the hook it names where it names them."""
    text = f"{type(error).__name__}: {error}"
    parts = (("plugin", getattr(error, "plugin", None)), ("hook", getattr(error, "hook", None)))
    named = [f"{what} {value}" for what, value in parts if value and str(value) not in str(error)]
    return f"{text} ({', '.join(named)})" if named else text


def _try_illegal(rules: Ruleset, state: GameState, choose: Chooser, rng: Random) -> Step:
    try:
        candidates = illegal_actions(rules, state)
    except Exception as error:
        return Step(state, ListMoves(), SETUP, error=plugin_failure(error))
    action = candidates[choose(len(candidates))]
    snapshot = dumps(state)
    try:
        after, events = engine.step(rules, state, action, rng)
    except IllegalAction as refused:
        reasons = tuple(map(str, refused.reasons))
        return Step(state, action, ILLEGAL, (), state, reasons, snapshot, dumps(state))
    except Exception as error:
        return Step(
            state, action, ILLEGAL, (), state, None, snapshot, dumps(state), plugin_failure(error)
        )
    return Step(state, action, ILLEGAL, tuple(events), after, None, snapshot, dumps(state))


def _with_payload(
    rules: Ruleset, state: GameState, action: Action, choose: Chooser
) -> tuple[Action, str]:
    """``action``, or ``action`` with one of the payloads plugins offer for it."""
    offered = [
        {plugin: value}
        for plugin, values in engine.payload_choices(rules, state, action).items()
        for value in values
    ]
    if offered:
        index = choose(len(offered) + 1)
        if isinstance(action, BidAction) and index:
            action = BidAction(action.player, action.bid, offered[index - 1])
        elif isinstance(action, CallAction) and index:
            action = CallAction(action.player, action.kind, offered[index - 1])
    return action, LEGAL


def play_game(
    rules: Ruleset,
    players: Sequence[str],
    dice_per_player: int,
    seed: int,
    choose: Chooser,
    *,
    max_moves: int | None = None,
    max_illegal: int | None = None,
    weights: tuple[int, int, int] = (12, 1, 2),
) -> PlayedGame:
    """Play one game and record it (with every answer ``choose`` gave: :attr:`PlayedGame.choices`).

    At each turn ``choose`` picks a mode by ``weights`` (legal move, timeout, illegal attempt), then
    the move: the legal moves are the legal calls followed by the legal bids, lowest first, then
    the calls other players may make out of turn (``engine.out_of_turn_calls``), so index 0 —
    where shrinking goes — is a call whenever one is allowed. When plugins offer payloads
    for the move (``engine.payload_choices``), one more choice picks none (index 0) or one of them.
    An illegal attempt does not use up the turn.

    The game stops at a winner, at the first engine error or dead end, or when it has played
    ``max_moves`` moves (accepted bids, calls and timeouts; default and at most: the ruleset's
    move limit for this table, ``PlayedGame.limit``). Stopped at the ruleset's limit with no
    winner, it is ``stuck``; stopped by a smaller ``max_moves``, it is only incomplete. Illegal
    attempts do not count as moves; at most ``max_illegal`` are made (default: as many as the
    moves allowed), after which the illegal mode plays a legal move instead.
    """
    rng, dice = Random(seed), dice_stream(seed)
    answers: list[int] = []

    def answer(n: int) -> int:
        index = given(n)
        answers.append(index)
        return index

    given, choose = choose, answer
    start = NewGame(tuple(players), dice_per_player, seed)
    try:
        state, events = engine.new_game(rules, players, rng, dice_per_player=dice_per_player)
    except Exception as error:
        return PlayedGame(rules, (Step(None, start, SETUP, error=plugin_failure(error)),))
    limit = rules.move_limit(len(players), dice_per_player)
    budget = limit.moves if max_moves is None else min(max_moves, limit.moves)
    illegal_budget = budget if max_illegal is None else max_illegal
    steps = [Step(None, start, SETUP, tuple(events), state)]
    legal_weight, timeout_weight, illegal_weight = weights
    modes = legal_weight + timeout_weight + illegal_weight
    moves = illegal = 0
    while True:
        round_ = state.round
        if state.over or round_ is None or round_.over:
            if (
                illegal_weight
                and choose(modes) >= legal_weight + timeout_weight
                and illegal < illegal_budget
            ):
                illegal += 1
                steps.append(_try_illegal(rules, state, choose, rng))
                if isinstance(steps[-1].action, ListMoves):
                    break
            if state.over or moves >= budget:
                break
            try:
                after, events = start_round(rules, state, rng, dice)
            except Exception as error:
                steps.append(Step(state, StartRound(), SETUP, error=plugin_failure(error)))
                break
            steps.append(Step(state, StartRound(), SETUP, tuple(events), after))
            state = after
            continue
        if moves >= budget:
            break
        mode = choose(modes)
        if mode >= legal_weight + timeout_weight:
            if illegal < illegal_budget:
                illegal += 1
                steps.append(_try_illegal(rules, state, choose, rng))
                if isinstance(steps[-1].action, ListMoves):
                    break
                continue
            mode = 0  # no illegal attempts left: a legal move instead
        turn = round_.turn
        action: Action
        if mode >= legal_weight:
            action, intent = TimeoutAction(turn), TIMEOUT
        else:
            try:
                options: list[Action] = [
                    CallAction(turn, kind) for kind in engine.legal_calls(rules, state, turn)
                ]
                options += [BidAction(turn, bid) for bid in engine.legal_bids(rules, state, turn)]
                options += engine.out_of_turn_calls(rules, state)  # other players, out of turn
                if not options:
                    steps.append(Step(state, None, LEGAL, error=f"{turn} has no legal move"))
                    break
                action, intent = _with_payload(rules, state, options[choose(len(options))], choose)
            except Exception as error:
                steps.append(Step(state, ListMoves(), SETUP, error=plugin_failure(error)))
                break
        moves += 1
        try:
            after, events = engine.step(rules, state, action, rng)
        except IllegalAction as refused:
            steps.append(
                Step(state, action, intent, after=state, refused=tuple(map(str, refused.reasons)))
            )
            break
        except Exception as error:
            steps.append(Step(state, action, intent, error=plugin_failure(error)))
            break
        steps.append(Step(state, action, intent, tuple(events), after))
        state = after
    return PlayedGame(rules, tuple(steps), limit, tuple(answers))
