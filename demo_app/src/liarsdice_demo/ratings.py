"""Ratings with openskill's Plackett-Luce model: multiplayer, placed by order of elimination.

Contract: :func:`rate` takes each player's current (mu, sigma) and place (1 = winner; players out
on the same call share a place) and returns the new (mu, sigma) in the same order.
:func:`display` is the number shown on the leaderboard (the conservative ordinal, mu - 3 sigma).
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce


def rate(players: Sequence[tuple[float, float, int]]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each (mu, sigma, place) in ``players``."""
    model = PlackettLuce()
    teams = [[model.create_rating([mu, sigma])] for mu, sigma, _ in players]
    ranks = [float(place) for _, _, place in players]
    rated = model.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]


def display(mu: float, sigma: float) -> float:
    """The leaderboard figure: mu - 3 sigma, rounded to one decimal."""
    return round(mu - 3 * sigma, 1)
