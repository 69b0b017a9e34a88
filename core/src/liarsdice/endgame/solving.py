"""What the endgame solver takes, and the way in: solve, or find what is kept, from a state or a view.

:func:`solvable` refuses at once what the solver does not model (see its docstring).
:func:`solve` renames the players by seat (:func:`~liarsdice.endgame.names.renaming`: an endgame
is identified up to the players' names), finds the hidden start of the round
(:func:`~liarsdice.endgame.rounds.dealt_root` for a state between rounds; from a view, the round
rewound to its start, or rebuilt from the state before its deal), looks for its endgame in the
store, and otherwise explores every round it can reach (:mod:`liarsdice.endgame.graph`), solves
them the last ones first (:mod:`liarsdice.endgame.sweep`) and keeps the result, or the reason it
could not (:class:`~liarsdice.endgame.rounds.Unsolvable`), all in the canonical names; what it
gives back speaks the caller's. :func:`cached` only looks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs

from liarsdice import engine
from liarsdice.endgame.graph import DEFAULT_LIMITS, Limits, components, explore
from liarsdice.endgame.names import Renaming, renaming
from liarsdice.endgame.rounds import NodeKey, Unsolvable, build, dealt_root, hidden, node_key
from liarsdice.endgame.solution import Endgame, SolvedRound
from liarsdice.endgame.store import Store, default_directory, solution_key
from liarsdice.endgame.sweep import solve_group
from liarsdice.models import GameState
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, view_state

TARGET = 0.01
"""The exploitability (NashConv / 2) each round is solved to by default."""
MAX_ITERATIONS = 2000


@attrs.frozen
class Verdict:
    """Whether an endgame can be solved: true, or false with the ``reason``."""

    reason: str | None = None

    def __bool__(self) -> bool:
        return self.reason is None


Start = GameState | PlayerView
"""Where an endgame starts: a state between rounds, or a player's view of a round being played."""


@functools.cache
def default_store() -> Store:
    """The process's store, on disk where :func:`~liarsdice.endgame.store.default_directory`
    says (read when first asked)."""
    return Store(default_directory())


def solvable(rules: Ruleset, start: Start, limits: Limits = DEFAULT_LIMITS) -> Verdict:
    """Whether :func:`solve` takes ``start``, as far as can be told without walking a round:
    two living players, not in teams, at most ``limits.max_dice`` dice, no calls out of turn,
    every call ending the round, no payloads; a state between rounds, or a view of a round being
    played by a player who sees their own dice and no other's, with no dice face up and no
    private state. :func:`solve` may still refuse what it finds in the walk (randomness inside
    a round, legal moves that depend on the dice, a round that can lead beyond the limits)."""
    state = start if isinstance(start, GameState) else view_state(start)
    return Verdict(_refusal(rules, start, state, limits))


def solve(
    rules: Ruleset,
    start: Start,
    *,
    limits: Limits = DEFAULT_LIMITS,
    target: float = TARGET,
    max_iterations: int = MAX_ITERATIONS,
    store: Store | None = None,
) -> Endgame:
    """The solved endgame from ``start`` under ``rules``: from the store if it is there (solved
    for ``target`` or better, for this table or any other with the same start up to the players'
    names), else solved (each round to an exploitability of ``target``, or ``max_iterations``)
    and kept. :class:`Unsolvable` says why not."""
    store = default_store() if store is None else store
    names, key, node, root = _identify(rules, start, limits)
    refused = store.refused.get(key)
    if refused is not None:
        raise Unsolvable(names.text(refused))
    found = store.get(key, target, lambda state: build(rules, state))
    if found is None:
        try:
            found = _solve(rules, root(), limits, target, max_iterations)
        except Unsolvable as error:
            store.refused[key] = error.reason
            raise _named(error, names) from None
        store.put(key, found)
        for round_key in found.rounds:
            if round_key != found.start:
                again = Endgame(round_key, found.rounds, estimated=found.estimated, target=target)
                store.put(solution_key(rules, round_key, limits.to_data()), again, disk=False)
    if node is not None and node not in found:
        raise Unsolvable(
            "the start of this round cannot be rebuilt from the view: a plugin changed its "
            "public state as the round started and when a bid was made"
        )
    return found.named(names)


def cached(
    rules: Ruleset,
    start: Start,
    *,
    limits: Limits = DEFAULT_LIMITS,
    target: float = TARGET,
    store: Store | None = None,
) -> Endgame | None:
    """What :func:`solve` would give if the store has it already (in memory, or on disk: then
    the rounds' trees are rebuilt, in a fraction of a second), else ``None``: it never solves,
    so a live game may ask on every turn and solve elsewhere."""
    store = default_store() if store is None else store
    try:
        names, key, node, _ = _identify(rules, start, limits)
    except Unsolvable:
        return None
    found = store.get(key, target, lambda state: build(rules, state))
    if found is None or (node is not None and node not in found):
        return None
    return found.named(names)


def _identify(
    rules: Ruleset, start: Start, limits: Limits
) -> tuple[Renaming, str, NodeKey | None, Callable[[], GameState]]:
    """How ``start``'s players are renamed (:func:`~liarsdice.endgame.names.renaming`), the key
    of its endgame, the node of a view (renamed; ``None`` for a state between rounds) and the
    hidden root of its round (renamed, built when asked); :class:`Unsolvable` for what
    :func:`solvable` refuses. From a view, the round is rewound to its start when no plugin acts
    on bids (so the public state then was what it is now), else rebuilt from the state before
    its deal, which :func:`solve` checks."""
    state = start if isinstance(start, GameState) else view_state(start)
    reason = _refusal(rules, start, state, limits)
    if reason is not None:
        raise Unsolvable(reason)
    names = renaming(state)
    if isinstance(start, GameState):
        root = _dealt(rules, names.state(state), names)
        return names, solution_key(rules, node_key(root), limits.to_data()), None, lambda: root
    round_ = state.round
    assert round_ is not None
    node = names.node_key(state)
    if not round_.bids or "bid_made" not in rules.hooks.implemented:
        head, _, plugins = node

        def rewound() -> GameState:
            renamed = names.state(state)
            assert renamed.round is not None
            again = attrs.evolve(renamed.round, bids=(), turn=renamed.round.opener)
            return hidden(attrs.evolve(renamed, round=again))

        return names, solution_key(rules, (head, (), plugins), limits.to_data()), node, rewound
    renamed = names.state(state)
    before = GameState(
        players=renamed.players,
        dice_per_player=renamed.dice_per_player,
        next_opener=names.name(round_.opener),
        plugins=renamed.plugins,
    )
    root = _dealt(rules, before, names)
    return names, solution_key(rules, node_key(root), limits.to_data()), node, lambda: root


def _dealt(rules: Ruleset, state: GameState, names: Renaming) -> GameState:
    """:func:`~liarsdice.endgame.rounds.dealt_root` of ``state`` (renamed by ``names``), its
    refusal in the real names."""
    try:
        return dealt_root(rules, state)
    except Unsolvable as error:
        raise _named(error, names) from None


def _named(error: Unsolvable, names: Renaming) -> Unsolvable:
    """``error`` (found under the names solved under) in the real names."""
    return error if names.identity else Unsolvable(names.text(error.reason))


def _refusal(rules: Ruleset, start: Start, state: GameState, limits: Limits) -> str | None:
    """Why :func:`solvable` refuses ``start`` (``state``: the state, or the view's state)."""
    if isinstance(start, PlayerView):
        reason = _view_refusal(start)
        if reason is not None:
            return reason
    elif state.round is not None and not state.round.over and not state.over:
        return "a round is being played: solve from its start, or from a player's view"
    if state.over:
        return "the game is over"
    alive = state.alive
    if len(alive) != 2:
        return f"an endgame is between two players, and {len(alive)} are in"
    if any(engine.partners(rules, state, player.name) for player in alive):
        return "the players play in teams"
    if state.dice_in_play > limits.max_dice:
        return (
            f"{state.dice_in_play} dice are in play, more than the {limits.max_dice} "
            "the solver takes (Limits.max_dice)"
        )
    if rules.out_of_turn:
        return f"calls out of turn ({', '.join(rules.out_of_turn)}) are not modelled"
    endless = [kind for kind, call in rules.calls.items() if not call.ends_round]
    if endless:
        return f"the call {endless[0]} does not end the round, which the solver does not model"
    if rules.payload_readers:
        readers = sorted({name for names in rules.payload_readers.values() for name in names})
        return f"{', '.join(readers)} read payloads of moves, which the solver does not choose"
    return None


def _view_refusal(view: PlayerView) -> str | None:
    if not view.round or view.resolution is not None or view.turn is None:
        return "the view is not of a round being played"
    if view.own_dice is None:
        return "the viewer does not see their own dice"
    if view.seen:
        return "the viewer sees other players' dice"
    if any(seat.shown for seat in view.seats) or view.private:
        return "dice are face up or private plugin state is set in this round"
    return None


def _solve(
    rules: Ruleset, root: GameState, limits: Limits, target: float, max_iterations: int
) -> Endgame:
    """The endgame from the round at ``root``: every round reached, solved the last first."""
    graph = explore(rules, root, limits)
    values: dict[NodeKey, float] = {}
    rounds: dict[NodeKey, SolvedRound] = {}
    for group in components(graph):
        rounds.update(solve_group(group, graph, values, target, max_iterations))
    return Endgame(node_key(root), rounds, estimated=sorted(graph.estimates), target=target)
