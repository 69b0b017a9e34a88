"""Ratings with openskill's Plackett-Luce model: multiplayer, placed by order of elimination.

Contract: :func:`rate` takes the sides a game was played in, each with its players' current
(mu, sigma) and its place (1 = the winners; sides out on the same call share a place), and
returns the new (mu, sigma) of every player, shaped as given. A side is one player, or a team
(``liarsdice.engine.sides``), which openskill rates as a team: its players' ratings move together.
:func:`display` is the number players read wherever a rating is shown (leaderboard, player page,
the table after a rated game, the API): a cautious estimate, ``max(0, mu - 3 sigma)``. A new
player (mu 25, sigma 25/3) starts at exactly 0, a first rated win raises it, and it is never
negative (a player whose estimate is below 0 is shown 0). :data:`EXPLAINED` says so in words.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext
from openskill.models import PlackettLuce

from liarsdice_demo.text.i18n import N_


def rate(
    sides: Sequence[Sequence[tuple[float, float]]], places: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) for each player's (mu, sigma) in ``sides``, the side at ``places[i]``."""
    model = PlackettLuce()
    teams = [[model.create_rating([mu, sigma]) for mu, sigma in side] for side in sides]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [[(player.mu, player.sigma) for player in team] for team in rated]


EXPLAINED = N_(
    "Rating: a cautious estimate, mean \u2212 3 \u00d7 uncertainty; starts at 0, never below."
)
"""The line that tells players what the rating figure is (shown on the leaderboard), in English;
:func:`explained` says it in the request's language."""


def explained() -> str:
    """:data:`EXPLAINED` in the request's language."""
    return str(gettext(EXPLAINED))


def conservative(mu: float, sigma: float) -> float:
    """The estimate the rating is made from, mu - 3 sigma, unbounded (for ordering players)."""
    return mu - 3 * sigma


def display(mu: float, sigma: float) -> float:
    """The rating shown: max(0, mu - 3 sigma), rounded to one decimal (never -0.0)."""
    return max(0.0, round(conservative(mu, sigma), 1)) + 0.0
