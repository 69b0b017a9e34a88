"""Whole games played by the random policy, for smoke tests, laws and throughput figures.

A game that reaches its ruleset's move limit (:meth:`~liarsdice.Ruleset.move_limit`) without a
winner is stopped there and raises :class:`~liarsdice.limits.StuckGame`: simulating a ruleset that
cannot finish a game never hangs.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

import attrs

from liarsdice import engine, parallel
from liarsdice.limits import StuckGame
from liarsdice.models import Action, BidAction, CallAction, GameState
from liarsdice.reducer import Draft
from liarsdice.ruleset import Ruleset

CHALLENGE_PROBABILITY = 0.3
OUT_OF_TURN_PROBABILITY = 0.1
PAYLOAD_PROBABILITY = 0.3
LOWEST_RAISES = 10
A = TypeVar("A", BidAction, CallAction)


def random_action(rules: Ruleset, state: GameState, rng: Random) -> Action:
    """The random policy's move for the table: another player's call out of turn, now and then
    (see below), else the move of the player on turn (:func:`random_turn_action`).

    When a call is possible: call with probability 0.3 (always when no raise exists), choosing
    uniformly among the legal call kinds. Otherwise bid uniformly among the 10 lowest legal bids.
    When plugins offer payloads for the move (``engine.payload_choices``), one of them goes with it
    with probability 0.3. When other players may call out of turn (``out_of_turn_calls``), one of
    them does first with probability 0.1 (nothing is drawn when none may).
    """
    return _random_move(rules, Draft(state), rng)


def random_turn_action(rules: Ruleset, state: GameState, rng: Random) -> Action:
    """The random policy's move for the player on turn (no call out of turn by anyone else)."""
    return _random_turn_move(rules, Draft(state), rng)


def _random_move(rules: Ruleset, draft: Draft, rng: Random) -> Action:
    """:func:`random_action` on a draft (freezing a state only for the payload hooks)."""
    if rules.out_of_turn:
        others = engine.draft_out_of_turn_calls(rules, draft)
        if others and rng.random() < OUT_OF_TURN_PROBABILITY:
            return _with_payload(rules, draft, rng.choice(others), rng)
    return _random_turn_move(rules, draft, rng)


def _random_turn_move(rules: Ruleset, draft: Draft, rng: Random) -> Action:
    """:func:`random_turn_action` on a draft."""
    player = draft.turn
    calls = engine.draft_legal_calls(rules, draft, player) if draft.bids else []
    if calls and rng.random() < CHALLENGE_PROBABILITY:
        return _with_payload(
            rules,
            draft,
            CallAction(player, calls[0] if len(calls) == 1 else rng.choice(calls)),
            rng,
        )
    bids = engine.draft_legal_bids(rules, draft, player, LOWEST_RAISES)
    if not bids:
        if not calls:
            raise RuntimeError(f"{player} has no legal action in {draft.freeze().round}")
        return _with_payload(rules, draft, CallAction(player, rng.choice(calls)), rng)
    return _with_payload(rules, draft, BidAction(player, rng.choice(bids)), rng)


def _with_payload(rules: Ruleset, draft: Draft, action: A, rng: Random) -> A:
    """``action``, now and then with one of the payloads plugins offer for it."""
    if not rules.payload_readers:
        return action
    offered = engine.payload_choices(rules, draft.freeze(), action)
    if not offered or rng.random() >= PAYLOAD_PROBABILITY:
        return action
    plugin = rng.choice(sorted(offered))
    return attrs.evolve(action, payload={plugin: rng.choice(offered[plugin])})


@attrs.frozen
class GameRecord:
    """How one game went: its winners (one player, or a whole team), rounds played and actions
    taken."""

    winners: tuple[str, ...]
    rounds: int
    actions: int


def play_game(
    rules: Ruleset,
    players: Sequence[str],
    rng: Random,
    *,
    dice_per_player: int = 5,
    policy: Callable[[Ruleset, GameState, Random], Action] | None = None,
) -> GameRecord:
    """Play one full game with ``policy`` for every seat (by default the random policy,
    :func:`random_action`, asked of the engine's draft so that no state is frozen per move).

    Raises :class:`~liarsdice.limits.StuckGame` when the game has no winner after the most moves
    the ruleset allows at this table.
    """
    limit = rules.move_limit(len(players), dice_per_player)
    most = limit.moves
    draft, _ = engine.start_game(rules, players, rng, dice_per_player=dice_per_player)
    actions = 0
    while not draft.over:
        engine.open_round(rules, draft, rng)
        while draft.in_round:
            if actions == most:
                raise StuckGame(repr(rules), limit)
            if policy is None:
                engine.advance(rules, draft, _random_move(rules, draft, rng), rng, vetted=True)
            else:
                engine.advance(rules, draft, policy(rules, draft.freeze(), rng), rng)
            actions += 1
    return GameRecord(draft.winners, draft.number, actions)


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
    workers: int = 1,
    dask: str | None = None,
) -> SimulationReport:
    """Play ``games`` games of ``players`` random-policy seats.

    Game ``i`` draws dice and moves from its own ``Random(game_seed(seed, i))``
    (:func:`liarsdice.parallel.game_seed`: BLAKE2b of ``"seed:i"``), so the report, timings aside,
    is the same on one core, ``workers`` local processes or the Dask cluster at ``dask``
    (:func:`liarsdice.parallel.play`). ``progress(n)`` is told as games are done. A game that
    reaches the ruleset's move limit without a winner raises :class:`~liarsdice.limits.StuckGame`
    saying which game it was; a table the ruleset's preset does not take raises
    :class:`~liarsdice.errors.BadTableSize` before any game.
    """
    rules.check_table(players, dice_per_player)
    names = [f"seat{i}" for i in range(1, players + 1)]
    wins = dict.fromkeys(names, 0)
    rounds = actions = 0
    started = time.perf_counter()
    one_game = functools.partial(_one_game, tuple(names), dice_per_player, games, seed)
    for record in parallel.play(
        rules, one_game, games, workers=workers, dask=dask, progress=progress
    ):
        for winner in record.winners:  # a game won by a team counts for each of its players
            wins[winner] += 1
        rounds += record.rounds
        actions += record.actions
    seconds = time.perf_counter() - started
    return SimulationReport(
        games=games,
        seconds=round(seconds, 4),
        games_per_second=round(games / seconds, 1) if seconds else 0.0,
        rounds_per_game=round(rounds / games, 2) if games else 0.0,
        actions_per_game=round(actions / games, 2) if games else 0.0,
        wins_by_seat={name.removeprefix("seat"): count for name, count in wins.items()},
    )


def _one_game(
    names: tuple[str, ...], dice_per_player: int, games: int, seed: int, rules: Ruleset, game: int
) -> GameRecord:
    """Game number ``game`` (from 0) of a :func:`simulate` run."""
    try:
        return play_game(
            rules, names, Random(parallel.game_seed(seed, game)), dice_per_player=dice_per_player
        )
    except StuckGame as stuck:
        raise stuck.during(f"game {game + 1} of {games}, seed {seed}") from None
