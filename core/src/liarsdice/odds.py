"""Exact odds of a bid, derived from the counting hook.

Every probability here comes from one primitive, the ``matching_faces`` hook: the faces that count
toward a bid on ``face`` right now. A die nobody has seen matches with probability
``len(faces) / 6`` — 2/6 with wild ones, 1/6 when ones are locked, in a palifico round, or when a
bid is on ones — so the odds hold under whatever rules are in force, a third-party plugin's counting
included. The count of matching dice on the table is then the player's own matches (known) plus a
binomial count over the dice they cannot see. All arithmetic is exact binomial arithmetic
(``math.comb``), no sampling: pass a :class:`fractions.Fraction` for ``p`` to get exact fractions
back, or a float for speed.

The API, smallest first:

- :func:`per_die` — the chance one unseen die counts toward a face, from a set of matching faces.
- :func:`at_least`, :func:`exactly`, :func:`expected` — P(count >= q), P(count == q) and E[count]
  given ``known`` matching dice in hand and ``unknown`` unseen dice, each matching with ``p``.
- :class:`Outlook` / :func:`outlook` / :func:`view_outlook` — the same for one face under the rules
  at a given state (or a player's view, where the known dice are the viewer's own and every die
  put face up): ``outlook.at_least(q)``, ``outlook.exactly(q)``...
- :func:`assess` — from a player's view on their turn: the chance the bid on the table is true
  (a challenge loses), that a challenge wins, that an exact call succeeds, and for each face the
  lowest legal raise with its chance of being true.
- :func:`odds_table` — the odds page (seed 000): per face and quantity, the chance of "at least"
  and "exactly" with the wild faces (ones, if the rules make none wild) and with the face counted
  alone, side by side, plus the chance under the rules in force; per face the expected counts and
  the best exact call with its success chance (the exact call's fair price), and per face
  whether and why it may not be bid (``refusal``, and ``FaceOdds.note``: what a page says about
  it). ``liarsdice odds`` prints it; the demo app renders it.

``odds_table(rules, dice_in_play, hand=None)`` is the stable entry point for pages. It returns an
:class:`OddsTable` (frozen attrs classes; ``table.as_dict()`` gives plain JSON-ready data)::

    {"dice_in_play": 15, "hand": [5, 5, 1, 2, 3], "unknown": 10, "wild_faces": [1],
     "compared_wild": [1],
     "faces": [{"face": 5, "counted": [1, 5], "opening": true, "later": true,
                "expected": {"wild": 6.33, "plain": 3.67, "rules": 6.33},
                "exact": {"quantity": 6, "chance": 0.27, "fair_odds": 2.7},
                "refusal": null}, ...],
     "rows": [{"face": 5, "quantity": 6,
               "wild": {"at_least": 0.7, "exactly": 0.27},
               "plain": {"at_least": 0.07, "exactly": 0.05},
               "rules": {"at_least": 0.7, "exactly": 0.27}}, ...]}

"wild" counts the face and the wild faces (``compared_wild``: the faces the rules make wild at the
start of a round, :meth:`~liarsdice.ruleset.Ruleset.wild_faces`, or ones when they make none; a
bid on a wild face counts it alone), "plain" counts the face alone, "rules" counts what the
ruleset's ``matching_faces`` hook says at the start of a round. ``hand`` is the player's own dice
(known, not random); the other ``dice_in_play - len(hand)`` dice are unseen.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from collections.abc import Collection, Iterable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import attrs

from liarsdice import engine
from liarsdice.i18n import Text, _
from liarsdice.models import NO_PAYLOAD, Bid, GameState, PlacedBid, opening_state
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.views import PlayerView, view_state

Number = TypeVar("Number", float, Fraction)

#: The per-die chance of matching with ones wild (2/6) and with the face alone (1/6).
WILD = Fraction(2, 6)
PLAIN = Fraction(1, 6)


# --- the binomial core ----------------------------------------------------------------------------


def per_die(faces: Collection[int]) -> Fraction:
    """The chance that one unseen fair die shows one of ``faces`` (faces outside 1-6 never show)."""
    return Fraction(len(set(faces).intersection(FACES)), 6)


@functools.lru_cache(maxsize=4096, typed=True)
def binomial_pmf(n: int, p: Number) -> tuple[Number, ...]:
    """P(X == k) for k = 0..n, X ~ Binomial(n, p); exact for a Fraction ``p``."""
    if n < 0:
        raise ValueError(f"a number of dice cannot be negative: {n}")
    q = 1 - p
    return tuple(math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


@functools.lru_cache(maxsize=4096, typed=True)
def binomial_tail(n: int, p: Number) -> tuple[Number, ...]:
    """P(X >= k) for k = 0..n+1, X ~ Binomial(n, p) (the last entry is 0)."""
    pmf = binomial_pmf(n, p)
    tail: list[Number] = [pmf[0] * 0] * (n + 2)
    running = pmf[0] * 0
    for k in range(n, -1, -1):
        running += pmf[k]
        tail[k] = running
    tail[0] = pmf[0] * 0 + 1  # exactly 1, whatever the rounding
    return tuple(tail)


def at_least(quantity: int, unknown: int, p: Number, known: int = 0) -> Number:
    """P(known + X >= quantity), X ~ Binomial(unknown, p): the chance a bid of ``quantity`` holds.

    ``known`` of the player's own dice match; each of ``unknown`` unseen dice matches with ``p``.
    """
    need = quantity - known
    if need <= 0:
        return p * 0 + 1
    if need > unknown:
        return p * 0
    tail: Number = binomial_tail(unknown, p)[need]
    return tail


def exactly(quantity: int, unknown: int, p: Number, known: int = 0) -> Number:
    """P(known + X == quantity), X ~ Binomial(unknown, p): the chance an exact call succeeds."""
    need = quantity - known
    if not 0 <= need <= unknown:
        return p * 0
    chance: Number = binomial_pmf(unknown, p)[need]
    return chance


def expected(unknown: int, p: Number, known: int = 0) -> Number:
    """E[known + X], X ~ Binomial(unknown, p): the expected count on the table."""
    return known + unknown * p


def convolve(*pmfs: Sequence[float]) -> list[float]:
    """The distribution of a sum of independent counts, each given by its pmf (index = count)."""
    total: list[float] = [1.0]
    for pmf in pmfs:
        out = [0.0] * (len(total) + len(pmf) - 1)
        for i, a in enumerate(total):
            if a:
                for j, b in enumerate(pmf):
                    out[i + j] += a * b
        total = out
    return total


# --- one face under the rules in force ------------------------------------------------------------


@attrs.frozen
class Outlook:
    """What a player can know about the dice counting toward a bid on ``face``.

    ``known`` of their own dice match; each of the ``unknown`` unseen dice matches with ``p``.
    """

    face: int
    faces: frozenset[int]
    known: int
    unknown: int
    p: float

    def at_least(self, quantity: int) -> float:
        """P(count >= quantity): the chance a bid of ``quantity`` on this face is true."""
        return at_least(quantity, self.unknown, self.p, self.known)

    def exactly(self, quantity: int) -> float:
        """P(count == quantity): the chance an exact call on ``quantity`` succeeds."""
        return exactly(quantity, self.unknown, self.p, self.known)

    @property
    def expected(self) -> float:
        """E[count]."""
        return expected(self.unknown, self.p, self.known)

    @property
    def most_likely(self) -> int:
        """The count with the highest probability: the best quantity to call exact on."""
        pmf = binomial_pmf(self.unknown, self.p)
        return self.known + max(range(len(pmf)), key=pmf.__getitem__)


def outlook(
    rules: Ruleset,
    state: GameState,
    face: int,
    hand: Iterable[int] = (),
    unknown: int | None = None,
) -> Outlook:
    """The outlook on ``face`` at ``state``, for a player holding ``hand``.

    ``unknown`` defaults to the dice in play (this round's, if a round is on) minus the hand.
    """
    hand = tuple(hand)
    faces = frozenset(rules.hooks.matching_faces(state, face))
    if unknown is None:
        in_play = state.round.dice_in_play if state.round is not None else state.dice_in_play
        unknown = in_play - len(hand)
    if unknown < 0:
        raise ValueError(
            f"a hand of {len(hand)} dice is more than the {unknown + len(hand)} in play"
        )
    known = sum(die in faces for die in hand)
    return Outlook(face, faces, known, unknown, float(per_die(faces)))


def view_outlook(
    rules: Ruleset, view: PlayerView, face: int, state: GameState | None = None
) -> Outlook:
    """The outlook on ``face`` for the viewer of ``view``: their own dice and every die shown face
    up are known, the rest unseen.

    Pass ``state = view_state(view)`` when asking about several faces, to build it once.
    """
    state = view_state(view) if state is None else state
    known = view.known_dice
    return outlook(rules, state, face, known, view.dice_in_play - len(known))


# --- the choices on a turn ------------------------------------------------------------------------


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
        look = view_outlook(rules, view, current.face, state)
        bid_true = look.at_least(current.quantity)
        expected_count = look.expected
        if "exact" in calls:
            exact_wins = look.exactly(current.quantity)
    raises = []
    for bid in lowest_raises(rules, state, view.viewer).values():
        raises.append(Raise(bid, view_outlook(rules, view, bid.face, state).at_least(bid.quantity)))
    raises.sort(key=lambda r: (-r.true, rules.hooks.bid_rank(r.bid)))
    return Assessment(
        bid=current,
        expected=expected_count,
        bid_true=bid_true,
        challenge_wins=None if bid_true is None or "challenge" not in calls else 1 - bid_true,
        exact_wins=exact_wins,
        raises=tuple(raises),
    )


# --- the odds page --------------------------------------------------------------------------------


@attrs.frozen
class Chance:
    """P(count >= quantity) and P(count == quantity) for one bid."""

    at_least: float
    exactly: float


@attrs.frozen
class OddsRow:
    """One bid (``quantity`` of ``face``): its chances with the wild faces (``compared_wild``),
    with the face alone, and under the rules in force at the start of a round. ``exactly`` is the
    exact call's chance."""

    face: int
    quantity: int
    wild: Chance
    plain: Chance
    rules: Chance


@attrs.frozen
class Expected:
    """Expected count of a face on the table in each way of counting."""

    wild: float
    plain: float
    rules: float


@attrs.frozen
class ExactCall:
    """The best exact call on a face under the rules: the most likely count, its success chance,
    and the fair odds (``(1 - chance) / chance`` to 1) a bet on it would pay (``None`` if it
    cannot succeed)."""

    quantity: int
    chance: float
    fair_odds: float | None


#: What a face's note says when it may be bid only once a round is open, or only to open one.
NOT_AT_THE_OPEN = _("may not open a round")
ONLY_AT_THE_OPEN = _("may only open a round")


@attrs.frozen
class FaceOdds:
    """A face's summary: the faces the rules count toward it, whether a round may be opened on it
    (``opening``) and whether it may be bid once a bid is on the table (``later``), why it may not
    be bid (``refusal``: the rules' own words, ``face_allowed``, at the open or else after a bid;
    ``None`` when it may be bid both times), expected counts and the best exact call."""

    face: int
    counted: tuple[int, ...]
    opening: bool
    later: bool
    expected: Expected
    exact: ExactCall
    refusal: str | Text | None = None

    @property
    def note(self) -> str | Text:
        """What a page says about bidding this face ("" when it may always be bid): the rule
        that refuses it when it may not be bid in this round at all ("ones are wild: no bids on
        ones" — true whether or not another kind of round, palifico's, would allow it), else
        :data:`NOT_AT_THE_OPEN` or :data:`ONLY_AT_THE_OPEN`."""
        if self.opening and self.later:
            return ""
        if not self.opening and not self.later:
            return self.refusal or ""
        return ONLY_AT_THE_OPEN if self.opening else NOT_AT_THE_OPEN


@attrs.frozen
class OddsTable:
    """The odds page for ``dice_in_play`` dice, seen by a player holding ``hand``.

    ``rows`` runs face 1 to 6, quantity 1 to ``dice_in_play`` within each face. ``wild_faces``
    are the faces the rules make wild at the start of a round; ``compared_wild`` the faces the
    "wild" column counts as wild (``wild_faces``, or ones when there are none).
    """

    dice_in_play: int
    hand: tuple[int, ...]
    unknown: int
    wild_faces: tuple[int, ...]
    compared_wild: tuple[int, ...]
    faces: tuple[FaceOdds, ...]
    rows: tuple[OddsRow, ...]

    def as_dict(self) -> dict[str, Any]:
        """Plain data (dicts, lists, numbers), ready for ``json.dumps`` (refusals in English)."""
        faces = tuple(
            attrs.evolve(f, refusal=None if f.refusal is None else str(f.refusal))
            for f in self.faces
        )
        plain: dict[str, Any] = _plain(attrs.asdict(attrs.evolve(self, faces=faces)))
        return plain

    def face(self, face: int) -> FaceOdds:
        """The summary of ``face``."""
        return self.faces[face - 1]

    def rows_of(self, face: int) -> tuple[OddsRow, ...]:
        """The rows of ``face``, quantity 1 upward."""
        return self.rows[(face - 1) * self.dice_in_play : face * self.dice_in_play]


def _plain(value: Any) -> Any:
    """Tuples to lists, all the way down: what ``json.loads(json.dumps(value))`` would give."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _allowed(rules: Ruleset, state: GameState, player: str, face: int) -> bool:
    return rules.face_refusal(state, player, face) is None


def _refusal(
    rules: Ruleset, states: Sequence[GameState], player: str, face: int
) -> str | Text | None:
    """Why ``player`` may not bid ``face`` in the first of ``states`` that refuses it, or None."""
    for state in states:
        reason = rules.face_refusal(state, player, face)
        if reason is not None:
            return reason
    return None


def _after_a_bid(state: GameState, rules: Ruleset) -> GameState:
    """``state`` with a low bid on the table by another seat (for "may this face be bid later")."""
    assert state.round is not None
    bidder = state.players[-1].name
    opening = next(
        (Bid(1, face) for face in FACES if _allowed(rules, state, bidder, face)), Bid(1, 2)
    )
    round_ = attrs.evolve(state.round, bids=(PlacedBid(bidder, opening),))
    return attrs.evolve(state, round=round_)


def odds_table(rules: Ruleset, dice_in_play: int, hand: Iterable[int] | None = None) -> OddsTable:
    """The odds page for ``dice_in_play`` dice, optionally for a player holding ``hand``.

    Raises ``ValueError`` for a die outside 1-6, fewer than 1 die in play, or a hand larger than
    the dice in play.
    """
    hand = tuple(hand or ())
    if dice_in_play < 1:
        raise ValueError(f"dice in play must be at least 1, not {dice_in_play}")
    if any(type(die) is not int or not 1 <= die <= 6 for die in hand):
        raise ValueError(f"a hand holds dice showing 1 to 6, not {list(hand)}")
    if len(hand) > dice_in_play:
        raise ValueError(f"a hand of {len(hand)} dice is more than the {dice_in_play} in play")
    unknown = dice_in_play - len(hand)
    state = opening_state(dice_in_play, hand)
    later = _after_a_bid(state, rules)
    viewer = state.players[0].name
    wild = tuple(sorted(rules.wild_faces(state)))
    compared = wild or (1,)
    summaries = []
    rows = []
    for face in FACES:
        ways = {
            "wild": frozenset({face, *compared}) if face not in compared else frozenset({face}),
            "plain": frozenset({face}),
            "rules": frozenset(rules.hooks.matching_faces(state, face)),
        }
        looks = {
            name: Outlook(
                face, faces, sum(d in faces for d in hand), unknown, float(per_die(faces))
            )
            for name, faces in ways.items()
        }
        for quantity in range(1, dice_in_play + 1):
            chances = {
                name: Chance(look.at_least(quantity), look.exactly(quantity))
                for name, look in looks.items()
            }
            rows.append(OddsRow(face, quantity, **chances))
        ruled = looks["rules"]
        best = max(ruled.most_likely, 1)
        chance = ruled.exactly(best)
        summaries.append(
            FaceOdds(
                face=face,
                counted=tuple(sorted(ways["rules"])),
                opening=_allowed(rules, state, viewer, face),
                later=_allowed(rules, later, viewer, face),
                expected=Expected(**{name: look.expected for name, look in looks.items()}),
                exact=ExactCall(best, chance, (1 - chance) / chance if chance else None),
                refusal=_refusal(rules, (state, later), viewer, face),
            )
        )
    return OddsTable(dice_in_play, hand, unknown, wild, compared, tuple(summaries), tuple(rows))
