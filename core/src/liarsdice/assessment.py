"""The assessment of a turn: what each choice is worth to the player on turn, from their own view.

The raises weighed are each face's lowest legal bid
(:func:`liarsdice.legality.lowest_raises`); the chances come from :mod:`liarsdice.odds`, so they
hold under whatever rules are in force.

- :func:`assess` — from a player's view on their turn: the chance the bid on the table is true
  (a challenge loses), that a challenge wins, that an exact call succeeds, and for each face the
  lowest legal raise with its chance of being true (an :class:`Assessment` of :class:`Raise`).
"""

from __future__ import annotations

import attrs

from liarsdice import engine, legality, odds
from liarsdice.models import Bid
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, view_state


@attrs.frozen
class Raise:
    """A raise and the chance, from the player's view, that it is true."""

    bid: Bid
    true: float


@attrs.frozen
class Assessment:
    """The chances of each choice on a turn, from the player's view.

    ``bid_true`` is the chance the bid on the table is true: a challenge then loses, so
    ``challenge_wins = 1 - bid_true``. ``exact_wins`` is the chance an exact call succeeds.
    ``raises`` holds the lowest legal raise on each face with its chance of being true, most
    likely first. Calls not allowed now (or no bid yet) are ``None``.
    """

    bid: Bid | None
    expected: float | None
    bid_true: float | None
    challenge_wins: float | None
    exact_wins: float | None
    raises: tuple[Raise, ...]


def assess(rules: Ruleset, view: PlayerView) -> Assessment:
    """What challenging, calling exact and each lowest raise are worth to the viewer of ``view``.

    The view must be the viewer's own, on their turn (bots get exactly this).
    """
    if view.viewer is None or view.turn != view.viewer:
        raise ValueError("assess needs the view of the player on turn")
    state = view_state(view)
    current = view.bids[-1].bid if view.bids else None
    calls = set(engine.legal_calls(rules, state, view.viewer)) if current else set()
    bid_true = exact_wins = expected_count = None
    if current is not None:
        look = odds.view_chances(rules, view, current, state)
        bid_true = look.at_least(current.quantity)
        expected_count = look.expected
        if "exact" in calls:
            exact_wins = look.exactly(current.quantity)
    raises = []
    for bid in legality.lowest_raises(rules, state, view.viewer).values():
        raises.append(Raise(bid, odds.view_chances(rules, view, bid, state).at_least(bid.quantity)))
    raises.sort(key=lambda r: (-r.true, rules.rank(r.bid)))
    return Assessment(
        bid=current,
        expected=expected_count,
        bid_true=bid_true,
        challenge_wins=None if bid_true is None or "challenge" not in calls else 1 - bid_true,
        exact_wins=exact_wins,
        raises=tuple(raises),
    )
