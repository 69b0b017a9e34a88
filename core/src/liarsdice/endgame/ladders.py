"""A round too large to build, solved on its ladder, the rounds after it solved as endgames.

:func:`solve_round` takes a position between rounds whose round is a ladder
(:mod:`~liarsdice.endgame.ladder`), solves every position its outcomes lead to as an endgame
(:func:`~liarsdice.endgame.solve`, within ``limits``), then the round itself by CFR+ on the
ladder (:mod:`~liarsdice.endgame.ladder_cfr`) to ``target`` against their values, and measures
it over the whole game: what a best response in each seat wins from the start, the next
positions being worth what a best response wins there against their endgames
(:mod:`~liarsdice.endgame.wholegame`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from liarsdice.endgame.graph import Limits
from liarsdice.endgame.ladder import Ladder, climb
from liarsdice.endgame.ladder_cfr import Solver
from liarsdice.endgame.rounds import dealt_root
from liarsdice.endgame.solving import MAX_ITERATIONS, TARGET, solve
from liarsdice.endgame.sweep import run_to_target
from liarsdice.endgame.wholegame import Best, best_responses, continuation
from liarsdice.models import GameState
from liarsdice.ruleset import Ruleset


@attrs.frozen(eq=False)
class SolvedLadder:
    """A round solved on its ladder: the ``solver`` (its average strategy), the ``payoffs``
    it was solved against (player 0's, per outcome: the next positions' values), its
    ``exploitability`` against them, what a best response in each seat wins over the whole game
    (``best``) and the game's ``value`` to seat 0 under the solved policies, and the seconds
    spent (``seconds``: climbing, solving the positions after it, solving the round)."""

    ladder: Ladder
    solver: Solver
    payoffs: list[float]
    exploitability: float
    best: Best
    value: float
    seconds: tuple[float, float, float]

    @property
    def whole_game_exploitability(self) -> float:
        """NashConv / 2 over the whole game from the start."""
        return (self.best[0] + self.best[1]) / 2


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
    values: list[float] = []
    after: list[Best] = []
    for outcome in ladder.outcomes:
        if outcome.state is None:
            continue
        endgame = solve(rules, outcome.state, limits=limits)
        values.append(endgame.value(ladder.players[0]))
        after.append(best_responses(rules, endgame)[endgame.start])
    equilibrium = _payoffs(ladder, values)
    below = time.perf_counter()
    tell(f"{len(values)} positions after it solved in {below - climbed:.1f} s")
    solver = Solver(ladder)
    run_to_target(solver, equilibrium, target, max_iterations)
    exploitability = solver.exploitability(equilibrium)
    tell(f"{solver.iterations} iterations, exploitability {exploitability:.4f}")
    first, second = continuation(ladder.players, ladder.outcomes, after)
    best = (solver.best_response(0, first), solver.best_response(1, second))
    return SolvedLadder(
        ladder,
        solver,
        equilibrium,
        exploitability,
        best,
        solver.value(equilibrium),
        (climbed - started, below - climbed, time.perf_counter() - below),
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
