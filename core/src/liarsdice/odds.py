"""Exact odds of a bid: the probability arithmetic, derived from the counting hook.

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
- :func:`binomial_pmf`, :func:`binomial_tail` — P(X == k) and P(X >= k), X ~ Binomial(n, p),
  cached per number of dice and chance; :func:`convolve` — the distribution of a sum of counts.
- :func:`at_least`, :func:`exactly`, :func:`expected` — P(count >= q), P(count == q) and E[count]
  given ``known`` matching dice in hand and ``unknown`` unseen dice, each matching with ``p``.
- :class:`Outlook` / :func:`outlook` / :func:`view_outlook` — the same for one face under the rules
  at a given state (or a player's view, where the known dice are the viewer's own and every die
  put face up): ``outlook.at_least(q)``, ``outlook.exactly(q)``...
- :func:`bid_chances` / :func:`view_chances` — the chances of one bid of the ruleset's kind
  (:mod:`liarsdice.bidkinds`): an :class:`Outlook` for the baseline's count, else a
  :class:`ValueOutlook` over the bid's value, exact where the kind gives its distribution and
  sampled from :data:`SAMPLES` deals of the unseen dice where not (``method`` says which).

What is built on it lives beside it: :mod:`liarsdice.assessment` (what each choice on a turn is
worth, and the lowest raises the bots weigh) and :mod:`liarsdice.oddspage` (the odds page of
``liarsdice odds`` and the demo app).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from fractions import Fraction
from random import Random
from typing import TypeVar

import attrs

from liarsdice import engine
from liarsdice.bidkinds import COUNT_OF_FACE, BidKind
from liarsdice.models import Bid, GameState
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
    try:
        return tuple(math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))
    except OverflowError:  # only a float ``p``: C(n, k) beyond a float's range (n over ~1020)
        return tuple(_float_pmf(n, float(p)))  # type: ignore[arg-type]


def _float_pmf(n: int, p: float) -> list[float]:
    """P(X == k) for k = 0..n, X ~ Binomial(n, p), in logarithms: no overflow at any ``n``."""
    if p <= 0 or p >= 1:
        sure = 0 if p <= 0 else n
        return [1.0 if k == sure else 0.0 for k in range(n + 1)]
    log_p, log_q, log_n = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return [
        math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
        for k in range(n + 1)
    ]


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


def seen_hand(dice_in_play: int, hand: Iterable[int] | None) -> tuple[int, ...]:
    """``hand`` as a tuple, for an odds page of ``dice_in_play`` dice; ``ValueError`` for a die
    outside 1-6, fewer than 1 die in play, or a hand larger than the dice in play."""
    hand = tuple(hand or ())
    if dice_in_play < 1:
        raise ValueError(f"dice in play must be at least 1, not {dice_in_play}")
    if any(type(die) is not int or not 1 <= die <= 6 for die in hand):
        raise ValueError(f"a hand holds dice showing 1 to 6, not {list(hand)}")
    if len(hand) > dice_in_play:
        raise ValueError(f"a hand of {len(hand)} dice is more than the {dice_in_play} in play")
    return hand


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


# --- one bid of any kind --------------------------------------------------------------------------

#: How many deals of the unseen dice estimate a bid's chances when its kind gives no distribution
#: (a standard error under 0.4 percentage points); the deals are seeded, so the figures repeat.
SAMPLES = 20_000


@attrs.frozen
class ValueOutlook:
    """What a player can know about the value of a bid (its kind's truth function): the chance
    of each value, ``pmf[v]``, computed ``"exact"`` or ``"sampled"`` (``method``)."""

    pmf: tuple[float, ...]
    method: str

    def at_least(self, quantity: int) -> float:
        """P(value >= quantity): the chance the bid is true."""
        return 1.0 if quantity <= 0 else min(1.0, float(sum(self.pmf[quantity:])))

    def exactly(self, quantity: int) -> float:
        """P(value == quantity): the chance an exact call on it succeeds."""
        return self.pmf[quantity] if 0 <= quantity < len(self.pmf) else 0.0

    @property
    def expected(self) -> float:
        """E[value]."""
        return sum(value * chance for value, chance in enumerate(self.pmf))


def bid_chances(
    rules: Ruleset, state: GameState, bid: Bid, known: Sequence[int], unknown: int
) -> Outlook | ValueOutlook:
    """The chances of ``bid`` under the rules at ``state`` for a player who sees the dice
    ``known`` and not ``unknown`` more: for the baseline's kind, the exact :class:`Outlook` on
    its face; for another, its kind's distribution if it gives one, else :data:`SAMPLES` seeded
    deals of the unseen dice valued by its truth function."""
    kind = rules.bid_kind
    faces = engine.counted_faces(rules, state, bid)
    if kind is COUNT_OF_FACE:
        matches = sum(die in faces for die in known)
        return Outlook(bid.face, faces, matches, unknown, float(per_die(faces)))
    pmf = kind.distribution(bid, tuple(known), unknown, faces)
    if pmf is not None:
        return ValueOutlook(tuple(float(chance) for chance in pmf), "exact")
    return ValueOutlook(_sampled(kind, bid, tuple(sorted(known)), unknown, faces), "sampled")


def view_chances(
    rules: Ruleset, view: PlayerView, bid: Bid, state: GameState | None = None
) -> Outlook | ValueOutlook:
    """:func:`bid_chances` for the viewer of ``view``: their own dice and every die shown face up
    are known, the rest unseen."""
    state = view_state(view) if state is None else state
    known = view.known_dice
    return bid_chances(rules, state, bid, known, view.dice_in_play - len(known))


@functools.lru_cache(maxsize=1024)
def _sampled(
    kind: BidKind, bid: Bid, known: tuple[int, ...], unknown: int, faces: frozenset[int]
) -> tuple[float, ...]:
    """The value of ``bid`` over :data:`SAMPLES` deals of ``unknown`` fair dice beside
    ``known``, as frequencies by value (index = value), from a fixed seed."""
    rng = Random(f"{kind.name}:{bid.quantity}:{bid.face}:{known}:{unknown}")
    seen: Counter[int] = Counter()
    for _ in range(SAMPLES):
        dice = known + tuple(rng.randint(1, 6) for _ in range(unknown))
        seen[kind.value(bid, dice, faces)] += 1
    return tuple(seen[value] / SAMPLES for value in range(max(seen) + 1))
