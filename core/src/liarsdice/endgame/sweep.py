"""Rounds solved by CFR+ to a target exploitability; rounds that lead back to each other, by sweeps.

A round whose outcomes lead only to rounds solved already is solved once, by CFR+ until its
average strategy's exploitability reaches the target. Rounds that lead back to each other (a
successful exact call that gives a die back, or costs nobody a die) are solved together: CFR+ on
each with the others' values as payoffs (0 at first), then the values their policies give,
solved exactly as a linear system, and again, until the values move less than a tenth of the
target. Each round's policy is then published (:func:`~liarsdice.endgame.solution.published`)
and evaluated with the final values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from liarsdice.endgame.cfr import Solver, evaluate, outcome_reach
from liarsdice.endgame.graph import Graph
from liarsdice.endgame.rounds import NodeKey, Unsolvable
from liarsdice.endgame.solution import SolvedRound, playable, published

FIRST_CHECK = 24
"""Iterations before the first look at the exploitability."""
DECAY = 1.5
"""How fast the exploitability is taken to fall before two looks have measured it: as the
iterations to the power -1.5 (what CFR+ did on one-die rounds)."""
STEP = 1.15
"""The least growth of the iterations from one look at the exploitability to the next."""
MARGIN = 1.1
"""How much further than the fall measured so far promises the next look goes."""
MAX_SWEEPS = 40
"""The most sweeps of value updates for rounds that lead back to each other."""


def solve_group(
    group: Sequence[NodeKey],
    graph: Graph,
    values: dict[NodeKey, float],
    target: float,
    max_iterations: int,
) -> dict[NodeKey, SolvedRound]:
    """Solve rounds that lead back to each other (or one round), the rounds they lead to
    being solved already (``values``, which this adds to)."""
    solvers = {key: Solver(graph.trees[key]) for key in group}
    cyclic = len(group) > 1 or group[0] in graph.successors(group[0])
    guess = {key: 0.0 for key in group}
    for _ in range(MAX_SWEEPS):
        for key in group:
            run_to_target(
                solvers[key], graph.payoffs(key, {**values, **guess}), target, max_iterations
            )
        if not cyclic:
            break
        strategies = {key: solvers[key].average() for key in group}
        updated = _consistent(group, graph, values, strategies)
        moved = max(abs(updated[key] - guess[key]) for key in group)
        guess = updated
        if moved <= target / 10:
            break
    policies = {key: published(graph.trees[key], solvers[key].average()) for key in group}
    plays = {key: playable(graph.trees[key], policies[key]) for key in group}
    if cyclic:
        values.update(_consistent(group, graph, values, plays))
    solved: dict[NodeKey, SolvedRound] = {}
    for key in group:
        tree = graph.trees[key]
        evaluation = evaluate(tree, graph.payoffs(key, values), plays[key])
        values[key] = evaluation.value
        solved[key] = SolvedRound(
            tree,
            policies[key],
            evaluation.value,
            evaluation.exploitability,
            solvers[key].iterations,
        )
    return solved


class Solving(Protocol):
    """What :func:`run_to_target` drives: :class:`~liarsdice.endgame.cfr.Solver`, or
    :class:`liarsdice.endgame.ladder_cfr.Solver`."""

    iterations: int

    def set_payoffs(self, payoffs: Sequence[float]) -> None: ...
    def run(self, iterations: int) -> None: ...
    def exploitability(self, payoffs: Sequence[float]) -> float: ...


def run_to_target(
    solver: Solving, payoffs: list[float], target: float, max_iterations: int
) -> None:
    """CFR+ until the average strategy's exploitability is at most ``target``, or
    ``max_iterations``. The exploitability is looked at after :data:`FIRST_CHECK` iterations,
    then where the fall seen so far (a power of the iterations, :data:`DECAY` at first) says
    the target will be reached (and :data:`MARGIN` further), at least :data:`STEP` times as far
    on."""
    solver.set_payoffs(payoffs)
    seen: list[tuple[int, float]] = []
    if solver.iterations:
        seen.append((solver.iterations, solver.exploitability(payoffs)))
    while solver.iterations < max_iterations and not (seen and seen[-1][1] <= target):
        goal = _next_look(seen, target)
        solver.run(min(goal, max_iterations) - solver.iterations)
        seen.append((solver.iterations, solver.exploitability(payoffs)))


def _next_look(seen: Sequence[tuple[int, float]], target: float) -> int:
    """How many iterations to have run at the next look at the exploitability."""
    if not seen:
        return FIRST_CHECK
    done, found = seen[-1]
    decay = DECAY
    if len(seen) > 1 and seen[-2][1] > found > 0.0:
        decay = math.log(seen[-2][1] / found) / math.log(done / seen[-2][0])
        decay = min(max(decay, 0.5), 3.0)
    ahead = (found / target) ** (1.0 / decay) if found > 0.0 else 1.0
    return math.ceil(done * min(max(ahead * MARGIN, STEP), 3.0))


def _consistent(
    group: Sequence[NodeKey],
    graph: Graph,
    values: Mapping[NodeKey, float],
    strategies: Mapping[NodeKey, Sequence[Sequence[Sequence[float]]]],
) -> dict[NodeKey, float]:
    """The values of the rounds of ``group`` when each is played by ``strategies``: the
    solution of ``v = c + A v``, with ``A`` the chances of going on to each round of the group
    and ``c`` what the other outcomes are worth."""
    place = {key: index for index, key in enumerate(group)}
    size = len(group)
    system = [[float(i == j) for j in range(size)] + [0.0] for i in range(size)]
    for key in group:
        row = system[place[key]]
        tree = graph.trees[key]
        for outcome, chance in zip(
            tree.outcomes, outcome_reach(tree, strategies[key]), strict=True
        ):
            following = graph.entries.get(outcome.key)
            if following in place:
                row[place[following]] -= chance
            else:
                row[size] += chance * graph.payoff(tree, outcome, values)
    solution = _solved(system)
    if solution is None:
        raise Unsolvable("under the solved policies the game could go on for ever")
    return {key: solution[place[key]] for key in group}


def _solved(system: list[list[float]]) -> list[float] | None:
    """The solution of an augmented linear system (Gauss-Jordan, partial pivoting), or
    ``None`` when it is singular."""
    size = len(system)
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(system[r][column]))
        if abs(system[pivot][column]) < 1e-12:
            return None
        system[column], system[pivot] = system[pivot], system[column]
        lead = system[column]
        for row in range(size):
            if row != column and system[row][column]:
                factor = system[row][column] / lead[column]
                system[row] = [x - factor * y for x, y in zip(system[row], lead, strict=True)]
    return [system[i][size] / system[i][i] for i in range(size)]
