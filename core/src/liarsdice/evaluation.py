"""Bots measured against each other: exact figures on small tables, matches, a rating ladder.

- :func:`exact`: on a table small enough for the OpenSpiel bridge (two players, a die or two
  each), each bot's exploitability (what a best response wins against it, NashConv / 2, as
  OpenSpiel's ``exploitability`` reports it) and each pair's exact expected result, seats
  averaged: no sampling.
- :func:`ladder`: every pair of bots plays ``games`` heads-up games, seats alternating; each
  pair's match result with a 95% Wilson interval, and an openskill (Plackett-Luce) rating of every
  bot, updated game by game in game order and anchored at ``random`` (its rating is subtracted,
  so ``random`` reads 0). Game ``i`` draws its dice from ``Random(game_seed(seed, i))`` and each
  seat's bot from ``Random(game_seed(seed, i, seat))``, and the games are rated in their order,
  so the results are the same for any number of workers.

A bot is a kind (``random``, ``odds``, ``bayes``, ``mixed`` or any installed one) or an outside
policy given as ``NAME=PATH.onnx`` (:class:`~liarsdice.openspiel.onnx_bot.OnnxBot`, made for the
table played). Needs the ``agents`` extra (OpenSpiel, onnxruntime, openskill).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from random import Random

import attrs

from liarsdice import parallel
from liarsdice.bots import Bot, make_bot
from liarsdice.ruleset import Ruleset
from liarsdice.tournament import play_game, wilson

ANCHOR = "random"


NEEDS_AGENTS = "liarsdice.evaluation needs {}: pip install 'liarsdice-rules[agents]'"
"""What the error says when a part of the ``agents`` extra is missing."""


def parse_bot(spec: str) -> tuple[str, str | None]:
    """``"odds"`` -> ``("odds", None)``; ``"mine=model.onnx"`` -> ``("mine", "model.onnx")``."""
    name, sep, path = spec.partition("=")
    if not name or (sep and not path.endswith(".onnx")):
        raise ValueError(f"a bot is a kind or NAME=PATH.onnx, not {spec!r}")
    return name, path if sep else None


def make(spec: str, rules: Ruleset, players: int, dice: int, rng: Random) -> Bot:
    """The bot ``spec`` names (see :func:`parse_bot`), for ``rules`` at ``players`` x ``dice``."""
    name, path = parse_bot(spec)
    if path is None:
        return make_bot(name, rules, rng)
    from liarsdice.openspiel.onnx_bot import OnnxBot

    return OnnxBot(path, rules, players, dice, rng)


@attrs.frozen
class Exact:
    """Exact figures at a small table: each bot's exploitability, and ``value[a][b]``, the
    expected result of ``a`` against ``b`` (+1 a sure win, -1 a sure loss), seats averaged."""

    table: str
    exploitability: dict[str, float]
    value: dict[str, dict[str, float]]


def exact(rules: Ruleset, bots: Sequence[str], dice: int = 1) -> Exact:
    """Exact exploitability and head-to-head values of ``bots`` at 2 players x ``dice``; raises
    the bridge's ``TableTooLarge`` for a table it cannot hold."""
    try:
        from open_spiel.python.algorithms import expected_game_score, exploitability
    except ImportError as error:
        raise ImportError(NEEDS_AGENTS.format("OpenSpiel")) from error

    from liarsdice.openspiel import BotPolicy, load

    game = load(rules, 2, dice)
    policies = {
        spec: BotPolicy(game, {seat: make(spec, rules, 2, dice, Random(seat)) for seat in (0, 1)})
        for spec in bots
    }
    root = game.new_initial_state()
    value: dict[str, dict[str, float]] = {spec: {} for spec in bots}
    for a, b in itertools.combinations(bots, 2):
        first = expected_game_score.policy_value(root, [policies[a], policies[b]])[0]
        second = expected_game_score.policy_value(root, [policies[b], policies[a]])[1]
        value[a][b] = float(first + second) / 2
        value[b][a] = -value[a][b]
    exploits = {spec: float(exploitability.exploitability(game, policies[spec])) for spec in bots}
    return Exact(f"2 x {dice}", exploits, value)


@attrs.frozen
class Match:
    """``first`` against ``second`` over ``games`` heads-up games: ``first``'s wins, and their
    share's 95% Wilson interval."""

    first: str
    second: str
    games: int
    wins: int
    ci95: tuple[float, float]

    @property
    def share(self) -> float:
        """The share of games ``first`` won."""
        return self.wins / self.games


@attrs.frozen
class Rating:
    """A bot's openskill rating (``mu``, ``sigma``), ``mu`` less the anchor's, and its
    conservative estimate ``mu - 3 sigma`` (also anchored)."""

    bot: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the rating the bot is 99.7% sure to hold."""
        return self.mu - 3 * self.sigma


@attrs.frozen
class Ladder:
    """Every pair's match and every bot's rating, best first."""

    matches: list[Match]
    ratings: list[Rating]


def _one_game(
    pairs: tuple[tuple[str, str], ...], games: int, dice: int, seed: int, rules: Ruleset, i: int
) -> bool:
    """Game ``i``: pair ``i // games``, its first bot in seat 0 on even games; True when the
    pair's first bot won."""
    first, second = pairs[i // games]
    order = (first, second) if i % 2 == 0 else (second, first)
    seating = [
        (f"{seat}:{spec}", make(spec, rules, 2, dice, Random(parallel.game_seed(seed, i, seat))))
        for seat, spec in enumerate(order)
    ]
    winners, _ = play_game(
        rules, seating, Random(parallel.game_seed(seed, i)), dice_per_player=dice
    )
    return any(name.split(":", 1)[1] == first for name in winners)


def ladder(
    rules: Ruleset, bots: Sequence[str], games: int, seed: int, *, dice: int = 5, workers: int = 1
) -> Ladder:
    """Every pair of ``bots`` (``random`` added as the anchor) over ``games`` heads-up games
    each, rated game by game; see the module's text."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as error:
        raise ImportError(NEEDS_AGENTS.format("openskill")) from error

    if games < 2:
        raise ValueError(f"a ladder plays at least 2 games a pair, not {games}")
    rules.check_table(2, dice)
    names = list(dict.fromkeys([ANCHOR, *bots]))
    pairs = tuple(itertools.combinations(names, 2))
    model = PlackettLuce()
    ratings = {name: model.rating() for name in names}
    wins = dict.fromkeys(pairs, 0)
    one = functools.partial(_one_game, pairs, games, dice, seed)
    for i, first_won in enumerate(parallel.play(rules, one, games * len(pairs), workers=workers)):
        pair = pairs[i // games]
        wins[pair] += first_won
        winner, loser = pair if first_won else pair[::-1]
        [[ratings[winner]], [ratings[loser]]] = model.rate([[ratings[winner]], [ratings[loser]]])
    anchor = ratings[ANCHOR].mu
    rated = [Rating(name, r.mu - anchor, r.sigma) for name, r in ratings.items()]
    matches = [Match(a, b, games, wins[(a, b)], wilson(wins[(a, b)], games)) for a, b in pairs]
    return Ladder(matches, sorted(rated, key=lambda r: -r.ordinal))
