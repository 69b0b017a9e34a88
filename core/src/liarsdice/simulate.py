"""Whole games played by the random policy, for smoke tests, laws and throughput figures.

A game that reaches its ruleset's move limit (:meth:`~liarsdice.Ruleset.move_limit`) without a
winner is stopped there and raises :class:`~liarsdice.limits.StuckGame`: simulating a ruleset that
cannot finish a game never hangs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

import attrs

from liarsdice import engine
from liarsdice.limits import StuckGame
from liarsdice.models import Action, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset

CHALLENGE_PROBABILITY = 0.3
PAYLOAD_PROBABILITY = 0.3
LOWEST_RAISES = 10
A = TypeVar("A", BidAction, CallAction)


def random_action(rules: Ruleset, state: GameState, rng: Random) -> Action:
    """The random policy's move for the player on turn.

    When a call is possible: call with probability 0.3 (always when no raise exists), choosing
    uniformly among the legal call kinds. Otherwise bid uniformly among the 10 lowest legal bids.
    When plugins offer payloads for the move (``engine.payload_choices``), one of them goes with it
    with probability 0.3.
    """
    assert state.round is not None
    player = state.round.turn
    calls = engine.legal_calls(rules, state, player) if state.round.bids else []
    if calls and rng.random() < CHALLENGE_PROBABILITY:
        return _with_payload(
            rules,
            state,
            CallAction(player, calls[0] if len(calls) == 1 else rng.choice(calls)),
            rng,
        )
    bids = engine.legal_bids(rules, state, player, LOWEST_RAISES)
    if not bids:
        if not calls:
            raise RuntimeError(f"{player} has no legal action in {state.round}")
        return _with_payload(rules, state, CallAction(player, rng.choice(calls)), rng)
    return _with_payload(rules, state, BidAction(player, rng.choice(bids)), rng)


def _with_payload(rules: Ruleset, state: GameState, action: A, rng: Random) -> A:
    """``action``, now and then with one of the payloads plugins offer for it."""
    if not rules.payload_readers:
        return action
    offered = engine.payload_choices(rules, state, action)
    if not offered or rng.random() >= PAYLOAD_PROBABILITY:
        return action
    plugin = rng.choice(sorted(offered))
    return attrs.evolve(action, payload={plugin: rng.choice(offered[plugin])})


@attrs.frozen
class GameRecord:
    """How one game went: its winner, rounds played and actions taken."""

    winner: str
    rounds: int
    actions: int


def play_game(
    rules: Ruleset,
    players: Sequence[str],
    rng: Random,
    *,
    dice_per_player: int = 5,
    policy: Callable[[Ruleset, GameState, Random], Action] = random_action,
) -> GameRecord:
    """Play one full game with ``policy`` for every seat.

    Raises :class:`~liarsdice.limits.StuckGame` when the game has no winner after the most moves
    the ruleset allows at this table.
    """
    limit = rules.move_limit(len(players), dice_per_player)
    state, _ = engine.new_game(rules, players, rng, dice_per_player=dice_per_player)
    actions = 0
    while not state.over:
        state, _ = engine.start_round(rules, state, rng)
        while not state.round.over:  # type: ignore[union-attr]
            if actions == limit.moves:
                raise StuckGame(repr(rules), limit)
            state, _ = engine.step(rules, state, policy(rules, state, rng), rng)
            actions += 1
    assert state.winner is not None and state.round is not None
    return GameRecord(state.winner, state.round.number, actions)


@attrs.frozen
class SimulationReport:
    """Totals over a batch of games, in the shape ``liarsdice simulate --json`` prints."""

    games: int
    seconds: float
    games_per_second: float
    rounds_per_game: float
    actions_per_game: float
    wins_by_seat: dict[str, int]


def simulate(
    rules: Ruleset,
    players: int,
    games: int,
    seed: int,
    *,
    dice_per_player: int = 5,
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` games of ``players`` random-policy seats from one ``Random(seed)``.

    A game that reaches the ruleset's move limit without a winner raises
    :class:`~liarsdice.limits.StuckGame` saying which game it was.
    """
    names = [f"seat{i}" for i in range(1, players + 1)]
    rng = Random(seed)
    wins = dict.fromkeys(names, 0)
    rounds = actions = 0
    started = time.perf_counter()
    for game in range(games):
        try:
            record = play_game(rules, names, rng, dice_per_player=dice_per_player)
        except StuckGame as stuck:
            raise stuck.during(f"game {game + 1} of {games}, seed {seed}") from None
        wins[record.winner] += 1
        rounds += record.rounds
        actions += record.actions
        if progress is not None:
            progress(1)
    seconds = time.perf_counter() - started
    return SimulationReport(
        games=games,
        seconds=round(seconds, 4),
        games_per_second=round(games / seconds, 1) if seconds else 0.0,
        rounds_per_game=round(rounds / games, 2) if games else 0.0,
        actions_per_game=round(actions / games, 2) if games else 0.0,
        wins_by_seat={name.removeprefix("seat"): count for name, count in wins.items()},
    )
