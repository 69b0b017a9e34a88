"""The assessment of a turn: what each choice is worth to the player on turn, from their own view.

The bots take the raises they weigh from :func:`lowest_raises`; the chances come from
:mod:`liarsdice.odds`, so they hold under whatever rules are in force.

- :func:`lowest_raises` — for each face the player may bid now, the lowest legal bid on it, found
  cheaply on the ruleset's cached bid ladder.
- :func:`assess` — from a player's view on their turn: the chance the bid on the table is true
  (a challenge loses), that a challenge wins, that an exact call succeeds, and for each face the
  lowest legal raise with its chance of being true (an :class:`Assessment` of :class:`Raise`).
"""

from __future__ import annotations

import bisect
import itertools

import attrs

from liarsdice import engine, odds
from liarsdice.models import NO_PAYLOAD, Bid, GameState
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.views import PlayerView, view_state


def lowest_raises(rules: Ruleset, state: GameState, player: str, tries: int = 3) -> dict[int, Bid]:
    """For each face ``player`` may bid now, the lowest legal bid on it (faces with none left out).

    Walks the ruleset's cached bid ladder (every bid sorted by rank, :meth:`Ruleset.ladder`) from
    just above the bid on the table: the first bids met on a face are its lowest raises, since a
    face's bids rank higher as the quantity grows in every known order. Each face's first
    ``tries`` raises are put to the ``bid_problem`` hook, and the first one it lets through is
    kept. The rank hook is called once (for the bid on the table), not once per probe. Falls back
    to the engine's full list of legal bids only when the walk finds nothing, so it stays cheap
    on every turn.
    """
    round_ = state.round
    if round_ is None or round_.over:
        return {}
    hooks = rules.hooks
    refused = rules.refused_faces(state, player)
    keys, bids = rules.ladder(round_.dice_in_play, refused)
    current = round_.current_bid
    start = 0 if current is None else bisect.bisect_right(keys, hooks.bid_rank(current))
    check = "bid_problem" in hooks.implemented
    tried = dict.fromkeys((face for face in FACES if face not in refused), 0)
    pending = len(tried)
    found: dict[int, Bid] = {}
    for bid in itertools.islice(bids, start, None):
        if not pending:
            break
        face = bid.face
        if face in found or tried[face] == tries:
            continue
        tried[face] += 1
        if not (check and hooks.bid_problem(state, player, bid, NO_PAYLOAD)):
            found[face] = bid
            pending -= 1
        elif tried[face] == tries:
            pending -= 1
    if not found:
        for bid in engine.legal_bids(rules, state, player):
            found.setdefault(bid.face, bid)
    return found


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
        look = odds.view_outlook(rules, view, current.face, state)
        bid_true = look.at_least(current.quantity)
        expected_count = look.expected
        if "exact" in calls:
            exact_wins = look.exactly(current.quantity)
    raises = []
    for bid in lowest_raises(rules, state, view.viewer).values():
        raises.append(
            Raise(bid, odds.view_outlook(rules, view, bid.face, state).at_least(bid.quantity))
        )
    raises.sort(key=lambda r: (-r.true, rules.hooks.bid_rank(r.bid)))
    return Assessment(
        bid=current,
        expected=expected_count,
        bid_true=bid_true,
        challenge_wins=None if bid_true is None or "challenge" not in calls else 1 - bid_true,
        exact_wins=exact_wins,
        raises=tuple(raises),
    )
