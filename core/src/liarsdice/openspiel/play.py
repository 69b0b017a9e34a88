"""The game tree as liarsdice plays it: nodes, the steps between them, and the draws inside steps.

A :class:`Node` is immutable and shared between the OpenSpiel states that reach it. A step (seating
the table, a deal, a move) is replayed from the state before it with a
:class:`~liarsdice.openspiel.chance.ScriptedRandom` holding the outcomes drawn so far: while it asks
for another draw the node is a chance node over that draw; once it completes, the node after it
is the next decision, a deal (a chance node), or the end. Before each move, every player who may
call out of turn is asked in turn, clockwise from the player on turn (as tournaments and the demo
ask bots): a decision node of theirs, to call or :class:`~liarsdice.openspiel.actions.Wait`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

from liarsdice import engine
from liarsdice.errors import PluginError
from liarsdice.models import GameState
from liarsdice.openspiel.actions import ActionSpace, Move, Wait, move_text
from liarsdice.openspiel.chance import ChanceNeeded, ScriptedRandom, requested
from liarsdice.openspiel.records import Record
from liarsdice.openspiel.sizes import MAX_DRAWS, Unsupported, table_name
from liarsdice.reducer import Draft
from liarsdice.ruleset import Ruleset

Step = Literal["seat", "deal", "move"]


@attrs.frozen
class Table:
    """What a game fixes for all its states: the rules, the seats (OpenSpiel player ``i`` is
    ``names[i]``), the dice each player starts with, the action numbers, the most moves a game
    may take (then it ends drawn) and the most outcomes one draw may have."""

    rules: Ruleset
    names: tuple[str, ...]
    dice: int
    space: ActionSpace
    move_limit: int
    max_outcomes: int

    def __deepcopy__(self, memo: object) -> Table:  # shared by every state of the game
        return self

    @property
    def name(self) -> str:
        """``"Ruleset([...]) at 2 players x 1 die"``, for messages."""
        return f"{self.rules!r} at {table_name(len(self.names), self.dice)}"


@attrs.frozen
class Pending:
    """A step waiting for a draw: replayed with ``script``, it asks for the draw ``need``."""

    step: Step
    move: Move | None
    script: tuple[int, ...]
    need: ChanceNeeded


@attrs.frozen
class Node:
    """A node of the tree: the state (``None`` before the table is seated), the record of every
    step so far, the moves made, the players still to ask out of turn (the first decides now) and
    the legal moves of the player deciding, or the step waiting for a draw."""

    state: GameState | None
    history: Record
    moves: int
    asking: tuple[str, ...] = ()
    choices: Mapping[int, Move] = attrs.field(factory=dict)
    pending: Pending | None = None

    def __deepcopy__(self, memo: object) -> Node:  # immutable: clones share it
        return self

    @property
    def terminal(self) -> bool:
        """True once the game is over, or has reached the move limit (drawn)."""
        return self.pending is None and not self.choices

    @property
    def decider(self) -> str | None:
        """The player deciding now, or ``None`` at a chance or terminal node."""
        if not self.choices:
            return None
        if self.asking:
            return self.asking[0]
        assert self.state is not None and self.state.round is not None
        return self.state.round.turn


def start(table: Table, root: GameState | None) -> Node:
    """The first node: seating the table (the first opener may be drawn), or ``root``."""
    if root is None:
        return _run(table, Node(None, Record.root(None), 0), "seat", None, ())
    return _settled(table, root, Record.root(root), 0)


def choose(table: Table, node: Node, number: int) -> Node:
    """The node after the player deciding at ``node`` takes action ``number``."""
    move = node.choices.get(number)
    if move is None:
        legal = ", ".join(f"{n} ({table.space.text(n)})" for n in node.choices)
        raise ValueError(f"action {number} is not legal here; legal: {legal or 'none'}")
    if isinstance(move, Wait):
        assert node.state is not None
        history = node.history.then(node.state, move)
        return _decide(table, node.state, history, node.moves, node.asking[1:])
    return _run(table, node, "move", move, ())


def draw(table: Table, node: Node, outcome: int) -> Node:
    """The node after outcome ``outcome`` of the draw ``node`` waits for."""
    pending = node.pending
    assert pending is not None
    if not 0 <= outcome < len(pending.need.probabilities):
        raise ValueError(f"no chance outcome {outcome} here: {pending.need}")
    return _run(table, node, pending.step, pending.move, (*pending.script, outcome))


def _apply(
    table: Table, state: GameState | None, step: Step, move: Move | None, rng: ScriptedRandom
) -> GameState:
    rules = table.rules
    if step == "seat":
        return engine.new_game(rules, table.names, rng, dice_per_player=table.dice)[0]
    assert state is not None
    if step == "deal":
        return engine.start_round(rules, state, rng)[0]
    assert move is not None and not isinstance(move, Wait)
    draft = Draft(state)
    engine.advance(rules, draft, move, rng, vetted=True)
    return draft.freeze()


def _step_text(state: GameState | None, step: Step, move: Move | None) -> str:
    if step == "seat":
        return "while seating the table (choosing the first opener)"
    if step == "deal":
        number = 1 if state is None or state.round is None else state.round.number + 1
        return f"while dealing round {number}"
    assert move is not None
    return f"after {move.player}'s {move_text(move)}"


def _run(table: Table, node: Node, step: Step, move: Move | None, script: tuple[int, ...]) -> Node:
    """Replay ``step`` from ``node``'s state with ``script``: the node waiting for its next
    draw, or the node after it."""
    rng = ScriptedRandom(script, max_outcomes=table.max_outcomes, max_draws=MAX_DRAWS)
    try:
        after = _apply(table, node.state, step, move, rng)
    except Exception as error:
        found = requested(error)
        if isinstance(found, ChanceNeeded):
            pending = Pending(step, move, script, found)
            return attrs.evolve(node, asking=(), choices={}, pending=pending)
        if found is None:
            raise
        culprit = _culprit(error)
        raise Unsupported(
            f"{table.name}: {found} ({culprit}{_step_text(node.state, step, move)})"
        ) from error
    history = node.history.then(after, move, "seated" if step == "seat" else "dealt")
    return _settled(table, after, history, node.moves + (step == "move"))


def _culprit(error: BaseException) -> str:
    """``"drawn by revolver's liarsdice_settle, "`` when a plugin's hook drew, else ``""``."""
    found: BaseException | None = error
    while found is not None:
        if isinstance(found, PluginError) and found.plugin is not None:
            return f"drawn by {found.plugin}'s {found.hook}, "
        found = found.__cause__
    return ""


def _settled(table: Table, state: GameState, history: Record, moves: int) -> Node:
    """The node after a step that left ``state``: the end, a deal, or the next decision."""
    if state.over or moves >= table.move_limit:
        return Node(state, history, moves)
    if state.round is None or state.round.over:
        return _run(table, Node(state, history, moves), "deal", None, ())
    calls = engine.out_of_turn_calls(table.rules, state)
    return _decide(table, state, history, moves, tuple(dict.fromkeys(c.player for c in calls)))


def _decide(
    table: Table, state: GameState, history: Record, moves: int, asking: tuple[str, ...]
) -> Node:
    assert state.round is not None
    decider = asking[0] if asking else state.round.turn
    choices = table.space.moves(state, decider, asked=bool(asking))
    if not choices:
        raise Unsupported(f"{table.name}: {decider} must move and has no legal move")
    return Node(state, history, moves, asking, choices)


def returns(table: Table, node: Node) -> list[float]:
    """Each player's return: winners share +1 and the others -1 (each winner +1/w, each other
    player -1/(n - w)); 0 for all while the game goes on or when it ended at the move limit."""
    state = node.state
    if not node.terminal or state is None or not state.over:
        return [0.0] * len(table.names)
    winners = set(state.winners)
    others = len(table.names) - len(winners)
    return [1.0 / len(winners) if n in winners else -1.0 / others for n in table.names]
