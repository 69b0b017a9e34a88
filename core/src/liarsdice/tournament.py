"""Tournaments: bots of several kinds play many games at one table: who wins, how fast they think.

Seat ``i`` of game ``g`` is taken by bot ``kinds[(i + g) % n]``, so over ``n`` games every bot
sits in every seat once (seat 1 opens the first round under most rules: rotation evens that out).
Each bot sees only its own :class:`~liarsdice.views.PlayerView`. Each game's dice and revolver
spins come from a ``Random`` derived from the seed and the game, every bot's from one derived from
the seed, the game and the seat (:func:`liarsdice.parallel.game_seed`), so a tournament is
reproducible, and the same on any number of processes (:mod:`liarsdice.parallel`).

A game that reaches its ruleset's move limit (:meth:`~liarsdice.Ruleset.move_limit`) without a
winner is stopped there and raises :class:`~liarsdice.limits.StuckGame`.

The report gives, per bot kind, the wins, the win rate per seat with a 95% Wilson interval, the
share a kind would win by chance (its seats / the seats at the table; where a team wins, each of its
seats counts a win, and the share is the winning seats per game / the seats), and the mean and median time
of one ``decide`` call — over the whole tournament, and at the full table (every die still in
play: 30 dice at 6 seats of 5).
"""

from __future__ import annotations

import functools
import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from random import Random

import attrs

from liarsdice import engine, parallel
from liarsdice.bots import Bot, BotFactory, interjection, make_bot
from liarsdice.errors import IllegalAction
from liarsdice.limits import StuckGame
from liarsdice.models import Action, GameState
from liarsdice.ruleset import Ruleset
from liarsdice.views import player_view

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    phat = successes / trials
    denominator = 1 + z * z / trials
    centre = (phat + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(phat * (1 - phat) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def parse_kinds(text: str) -> list[str]:
    """``"bayes,odds*5"`` -> ``["bayes", "odds", "odds", "odds", "odds", "odds"]``.

    A comma-separated list of bot kinds, each optionally followed by ``*N`` to seat it N times.
    """
    kinds: list[str] = []
    for part in text.split(","):
        name, star, times = part.strip().partition("*")
        name = name.strip()
        if not name:
            raise ValueError(f"empty bot kind in {text!r}")
        count = 1
        if star:
            if not times.strip().isdigit() or int(times) < 1:
                raise ValueError(f"{part.strip()!r}: a bot kind is repeated with *N, N >= 1")
            count = int(times)
        kinds.extend([name] * count)
    return kinds


@attrs.frozen
class KindResult:
    """How one bot kind did over the tournament."""

    kind: str
    seats: int
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    share: float
    decisions: int
    mean_ms: float
    median_ms: float
    full_table_median_ms: float


@attrs.frozen
class TournamentReport:
    """A tournament's results, in the shape ``liarsdice tournament --json`` prints."""

    rules: str
    seats: list[str]
    games: int
    seed: int
    dice_per_player: int
    rounds_per_game: float
    seconds: float
    results: list[KindResult]


class BotFailure(RuntimeError):
    """A bot returned an illegal action or raised: a bug in that bot."""


def play_game(
    rules: Ruleset,
    seating: Sequence[tuple[str, Bot]],
    rng: Random,
    *,
    dice_per_player: int = 5,
    clock: Callable[[str, float, int], None] | None = None,
) -> tuple[tuple[str, ...], GameState]:
    """Play one game with ``seating`` (player name, bot) in seat order; return the winners' names
    (one, or a whole team) and the final state.

    ``clock(name, seconds, dice_in_play)`` is told how long each ``decide`` call took. Raises
    :class:`~liarsdice.limits.StuckGame` when the game has no winner after the most moves the
    ruleset allows at this table.
    """
    names = [name for name, _ in seating]
    bots = dict(seating)
    limit = rules.move_limit(len(names), dice_per_player)
    state, _ = engine.new_game(rules, names, rng, dice_per_player=dice_per_player)
    timer = time.perf_counter
    moves = 0
    while not state.over:
        state, _ = engine.start_round(rules, state, rng)
        while state.round is not None and not state.round.over:
            if moves == limit.moves:
                raise StuckGame(repr(rules), limit)
            moves += 1
            player, action = _interjection(rules, state, bots)
            view = player_view(rules, state, player)
            started = timer()
            try:
                if action is None:
                    action = bots[player].decide(view)
            except Exception as error:
                raise BotFailure(f"bot {player} failed under {rules!r}: {error!r}") from error
            if clock is not None:
                clock(player, timer() - started, view.dice_in_play)
            try:
                state, _ = engine.step(rules, state, action, rng)
            except IllegalAction as error:
                raise BotFailure(
                    f"bot {player} made an illegal move {action} under {rules!r}: {error}"
                ) from error
    return state.winners, state


def _interjection(
    rules: Ruleset, state: GameState, bots: Mapping[str, Bot]
) -> tuple[str, Action | None]:
    """Who acts next: the first bot, clockwise from the player on turn, that makes a call out of
    turn (:func:`~liarsdice.bots.interjection`) and that call; else the player on turn and
    ``None`` (they decide)."""
    assert state.round is not None
    for player in dict.fromkeys(call.player for call in engine.out_of_turn_calls(rules, state)):
        try:
            action = interjection(bots[player], player_view(rules, state, player))
        except Exception as error:
            raise BotFailure(f"bot {player} failed under {rules!r}: {error!r}") from error
        if action is not None:
            return player, action
    return state.round.turn, None


@attrs.frozen
class _Game:
    """One tournament game, as a worker hands it back: the kind of each winning seat, the rounds
    played and, per kind, the seconds of each ``decide`` call, and of those at the full table."""

    winners: tuple[str, ...]
    rounds: int
    times: dict[str, list[float]]
    full: dict[str, list[float]]


def _record(
    times: dict[str, list[float]],
    full: dict[str, list[float]],
    kind_of: dict[str, str],
    dice: int,
    name: str,
    seconds: float,
    dice_in_play: int,
) -> None:
    times[kind_of[name]].append(seconds)
    if dice_in_play == dice:
        full[kind_of[name]].append(seconds)


def _median_ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1000 if seconds else 0.0


def _one_game(
    kinds: tuple[str, ...],
    dice_per_player: int,
    games: int,
    seed: int,
    factories: Mapping[str, BotFactory],
    rules: Ruleset,
    game: int,
) -> _Game:
    """Game number ``game`` (from 0) of a :func:`run`: seats rotated, dice from
    ``Random(game_seed(seed, game))`` and each seat's bot from ``Random(game_seed(seed, game,
    seat))``."""
    n = len(kinds)
    seating = []
    kind_of: dict[str, str] = {}
    for seat in range(n):
        kind = kinds[(seat + game) % n]
        name = f"{seat + 1}:{kind}"
        bot_rng = Random(parallel.game_seed(seed, game, seat))
        factory = factories.get(kind)
        bot = make_bot(kind, rules, bot_rng) if factory is None else factory(rules, bot_rng)
        seating.append((name, bot))
        kind_of[name] = kind
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    full: dict[str, list[float]] = {kind: [] for kind in kinds}
    clock = functools.partial(_record, times, full, kind_of, n * dice_per_player)
    rng = Random(parallel.game_seed(seed, game))
    try:
        winners, state = play_game(
            rules, seating, rng, dice_per_player=dice_per_player, clock=clock
        )
    except StuckGame as stuck:
        raise stuck.during(f"game {game + 1} of {games}, seed {seed}") from None
    assert state.round is not None
    return _Game(tuple(kind_of[name] for name in winners), state.round.number, times, full)


def run(
    rules: Ruleset,
    kinds: Sequence[str],
    games: int,
    seed: int,
    *,
    dice_per_player: int = 5,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    dask: str | None = None,
    factories: Mapping[str, BotFactory] | None = None,
) -> TournamentReport:
    """Play ``games`` games, one seat per entry of ``kinds`` (a kind may repeat), seats rotating.

    Game ``i`` draws its dice from ``Random(game_seed(seed, i))`` and seat ``s``'s bot from
    ``Random(game_seed(seed, i, s))`` (:func:`liarsdice.parallel.game_seed`), so the report,
    timings aside, is the same on one core, ``workers`` local processes or the Dask cluster at
    ``dask`` (:func:`liarsdice.parallel.play`). ``progress(n)`` is told as games are done. A game
    that reaches the ruleset's move limit without a winner raises
    :class:`~liarsdice.limits.StuckGame` saying which game it was; a table the ruleset's preset
    does not take raises :class:`~liarsdice.errors.BadTableSize` before any game.

    ``factories`` seats kinds that are not installed (or stands in for installed ones): a kind
    named there is made by its factory, any other by :func:`~liarsdice.bots.make_bot`. Each
    factory must pickle (a class or a module-level function) to play on other processes.
    """
    if len(kinds) < 2:
        raise ValueError("a tournament needs at least 2 bots")
    if games < 1:
        raise ValueError("a tournament needs at least 1 game")
    rules.check_table(len(kinds), dice_per_player)
    n = len(kinds)
    wins = dict.fromkeys(kinds, 0)
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    full: dict[str, list[float]] = {kind: [] for kind in kinds}
    rounds = won = 0
    started = time.perf_counter()
    one_game = functools.partial(
        _one_game, tuple(kinds), dice_per_player, games, seed, dict(factories or {})
    )
    for played in parallel.play(
        rules, one_game, games, workers=workers, dask=dask, progress=progress
    ):
        for kind in played.winners:  # a game won by a team counts for each of its seats
            wins[kind] += 1
        won += len(played.winners)
        rounds += played.rounds
        for kind in wins:
            times[kind] += played.times[kind]
            full[kind] += played.full[kind]
    seconds = time.perf_counter() - started
    results = []
    for kind in wins:
        seats = kinds.count(kind)
        trials = games * seats
        low, high = wilson(wins[kind], trials)
        spent = times[kind]
        results.append(
            KindResult(
                kind=kind,
                seats=seats,
                games=games,
                wins=wins[kind],
                win_rate=wins[kind] / trials,
                ci95=(low, high),
                share=won / games / n,
                decisions=len(spent),
                mean_ms=statistics.fmean(spent) * 1000 if spent else 0.0,
                median_ms=_median_ms(spent),
                full_table_median_ms=_median_ms(full[kind]),
            )
        )
    return TournamentReport(
        rules=repr(rules),
        seats=list(kinds),
        games=games,
        seed=seed,
        dice_per_player=dice_per_player,
        rounds_per_game=rounds / games,
        seconds=seconds,
        results=results,
    )
