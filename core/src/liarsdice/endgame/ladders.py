"""A round too large to build, solved on its ladder, the rounds after it solved as endgames.

:func:`solve_round` takes a position between rounds whose round is a ladder
(:mod:`~liarsdice.endgame.ladder`), solves every position its outcomes lead to as an endgame
(:func:`~liarsdice.endgame.solve`, within ``limits``; one beyond them valued by the dice share
where ``limits`` say so, as in an endgame), then the round itself by CFR+ on the
ladder (:mod:`~liarsdice.endgame.ladder_cfr`) to ``target`` against their values.
:func:`whole_game` measures a strategy on the ladder over the whole game: what a best response
in each seat wins from the start, the next positions being worth what a best response wins
there against their endgames (:mod:`~liarsdice.endgame.wholegame`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from liarsdice.endgame.graph import Limits, estimate
from liarsdice.endgame.ladder import Ladder, climb
from liarsdice.endgame.ladder_cfr import Solver, Strategy
from liarsdice.endgame.rounds import Unsolvable, dealt_root
from liarsdice.endgame.solving import MAX_ITERATIONS, TARGET, solve
from liarsdice.endgame.sweep import run_to_target
from liarsdice.endgame.wholegame import Best, best_responses, continuation
from liarsdice.models import GameState
from liarsdice.ruleset import Ruleset


@attrs.frozen(eq=False)
class SolvedLadder:
    """A round solved on its ladder: the ``solver`` (its average strategy), the ``payoffs``
    it was solved against (player 0's, per outcome: the next positions' values), its
    ``exploitability`` against them, the game's ``value`` to seat 0 under the solved policies,
    and the seconds spent (``seconds``: climbing, solving the positions after it, solving the
    round)."""

    ladder: Ladder
    solver: Solver
    payoffs: list[float]
    exploitability: float
    value: float
    seconds: tuple[float, float, float]


def solve_round(
    rules: Ruleset,
    state: GameState,
    *,
    limits: Limits,
    target: float = TARGET,
    max_iterations: int = MAX_ITERATIONS,
    progress: Callable[[str], None] | None = None,
) -> SolvedLadder:
    """The round ``state`` (between rounds, two seats ``P0`` and ``P1``) deals, solved on its
    ladder (see the module); :class:`~liarsdice.endgame.Unsolvable` where it is not a ladder,
    or where a position after it cannot be solved within ``limits``."""
    tell = progress or (lambda line: None)
    started = time.perf_counter()
    ladder = climb(rules, dealt_root(rules, state))
    climbed = time.perf_counter()
    tell(f"{len(ladder.rungs)} rungs, {ladder.size:,} nodes, in {climbed - started:.1f} s")
    values = [
        estimate(outcome.state, ladder.players, limits)
        if outcome.state.dice_in_play > limits.max_dice
        else solve(rules, outcome.state, limits=limits).value(ladder.players[0])
        for outcome in ladder.outcomes
        if outcome.state is not None
    ]
    equilibrium = _payoffs(ladder, values)
    below = time.perf_counter()
    tell(f"the positions after it ({len(values)}) solved in {below - climbed:.1f} s")
    solver = Solver(ladder)
    tell(f"solving it, {solver.nbytes / 2**30:.1f} GB of regrets and sums")
    run_to_target(solver, equilibrium, target, max_iterations)
    exploitability = solver.exploitability(equilibrium)
    tell(f"{solver.iterations} iterations, exploitability {exploitability:.4f}")
    return SolvedLadder(
        ladder,
        solver,
        equilibrium,
        exploitability,
        solver.value(equilibrium),
        (climbed - started, below - climbed, time.perf_counter() - below),
    )


def whole_game(
    rules: Ruleset, solver: Solver, limits: Limits, against: Strategy | None = None
) -> Best:
    """What a best response in each seat wins over the whole game from the round of
    ``solver``'s ladder, against its average strategy (or ``against``), the next positions
    (solved within ``limits``) worth what a best response wins there against their endgames;
    :class:`~liarsdice.endgame.Unsolvable` where those endgames' rounds lead back to each other
    (calza's die won back: :func:`~liarsdice.endgame.wholegame.best_responses`) or a position
    is beyond ``limits`` (valued by an estimate, which a best response does not play out)."""
    ladder = solver.ladder
    after = []
    for outcome in ladder.outcomes:
        if outcome.state is not None:
            if outcome.state.dice_in_play > limits.max_dice:
                raise Unsolvable("a round leads to a position valued by an estimate")
            endgame = solve(rules, outcome.state, limits=limits)
            after.append(best_responses(rules, endgame)[endgame.start])
    first, second = continuation(ladder.players, ladder.outcomes, after)
    return (
        solver.best_response(0, first, against=against),
        solver.best_response(1, second, against=against),
    )


def _payoffs(ladder: Ladder, values: list[float]) -> list[float]:
    """Player 0's payoff per outcome: the game's end, else the next position's value."""
    going_on = iter(values)
    return [
        float((ladder.players[0] in o.winners) - (ladder.players[1] in o.winners))
        if o.state is None
        else next(going_on)
        for o in ladder.outcomes
    ]
