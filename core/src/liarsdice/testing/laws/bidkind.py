"""The bid-kind law: a kind's parts agree with each other (:mod:`liarsdice.bidkinds`).

:func:`bid_kind_is_consistent` checks what the engine, the odds and the bots take on trust from
``liarsdice_bid_kind``: the range lists each bid once, the shape check accepts exactly the range,
and a distribution the kind gives is its truth function's, dealt out over every roll of the
unseen dice.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

from liarsdice.bidkinds import BidKind
from liarsdice.i18n import render
from liarsdice.models import Bid
from liarsdice.ruleset import Ruleset
from liarsdice.testing.laws._common import KIND, LawViolation, answered_by

#: The dice in play the range and the shape check are compared at.
RANGE_DICE = (1, 2, 3, 5)
#: The unseen dice a distribution is compared at, each beside these hands of known dice (every
#: roll of them: 6 ** 5 at most, so a distribution right only for few dice is caught at 5).
UNSEEN = (0, 1, 2, 3, 5)
KNOWN_HANDS = ((), (1,), (6,), (2, 5), (3, 3))
#: How far a distribution may stray from the exact one (float rounding only).
TOLERANCE = 1e-9


def bid_kind_is_consistent(rules: Ruleset) -> None:
    """The ruleset's bid kind lists each bid of its range once, its shape check refuses exactly
    the whole-number bids outside that range (quantities up to 2 beyond its highest, faces 0 to
    7), and a distribution it gives is a sequence of chances by value equal to its truth
    function's over every roll of the unseen dice (up to 5), with the bid's own face counting (and
    the ones too, as where ones are wild)."""
    kind = rules.bid_kind
    who = answered_by(rules, "liarsdice_bid_kind")
    for dice in RANGE_DICE:
        listed = list(kind.bids(dice))
        if len(set(listed)) != len(listed):
            twice = [bid for bid, n in Counter(listed).items() if n > 1]
            said = ", ".join(_said(kind, bid) for bid in twice[:3])
            raise LawViolation(KIND, rules, f"{who} lists {said} twice at {dice} dice")
        there = set(listed)
        top = max(bid.quantity for bid in listed)
        for quantity, face in itertools.product(range(top + 3), range(8)):
            bid = Bid(quantity, face)
            refused = kind.shape_problem(bid, dice) is not None
            if refused == (bid in there):
                said = "refuses" if refused else "accepts"
                listing = "lists" if bid in there else "does not list"
                raise LawViolation(
                    KIND,
                    rules,
                    f"{who}: at {dice} dice its shape check {said} {_said(kind, bid)}, which its "
                    f"range "
                    f"{listing}",
                )
    _check_distributions(rules, kind, who)


def _check_distributions(rules: Ruleset, kind: BidKind, who: str) -> None:
    for unseen, known in itertools.product(UNSEEN, KNOWN_HANDS):
        dice = unseen + len(known)
        if dice == 0:
            continue
        ranged = sorted(set(kind.bids(dice)), key=lambda b: (b.quantity, b.face))
        for bid in ranged[:12] if unseen < 5 else ranged[:: max(1, len(ranged) // 4)]:
            for matching in (frozenset({bid.face}), frozenset({1, bid.face})):
                given = kind.distribution(bid, known, unseen, matching)
                if given is None:
                    return
                if not _chances(given):
                    raise LawViolation(
                        KIND,
                        rules,
                        f"{who}: the distribution of {_said(kind, bid)} is {given!r:.80}, not a "
                        "sequence of chances indexed by value (a list or tuple of numbers)",
                    )
                exact = _dealt(kind, bid, known, unseen, matching)
                width = max(len(given), len(exact))
                padded = [*given, *[0.0] * (width - len(given))]
                wanted = [*exact, *[0.0] * (width - len(exact))]
                if any(
                    not math.isclose(a, b, abs_tol=TOLERANCE)
                    for a, b in zip(padded, wanted, strict=True)
                ):
                    raise LawViolation(
                        KIND,
                        rules,
                        f"{who}: the distribution of {_said(kind, bid)} with {list(known)} known "
                        f"and "
                        f"{unseen} unseen is {_shown(padded)}, but its truth function over every "
                        f"roll gives {_shown(wanted)}",
                    )


def _dealt(
    kind: BidKind, bid: Bid, known: tuple[int, ...], unseen: int, matching: frozenset[int]
) -> list[float]:
    """The chance of each value of ``bid``, over every roll of the ``unseen`` dice."""
    values = Counter(
        kind.value(bid, (*known, *roll), matching)
        for roll in itertools.product(range(1, 7), repeat=unseen)
    )
    rolls = 6**unseen
    return [values[value] / rolls for value in range(max(values) + 1)]


def _chances(given: object) -> bool:
    """Whether ``given`` is a sequence of numbers (chances by value), not a mapping or text."""
    return isinstance(given, list | tuple) and all(
        isinstance(p, int | float) and not isinstance(p, bool) for p in given
    )


def _said(kind: BidKind, bid: Bid) -> str:
    """A bid in the kind's English words, and as data: ``a total of 7 [7, 0]``."""
    try:
        words = render(kind.words(bid))
    except Exception:  # a malformed bid the kind cannot say
        words = "a bid"
    return f"{words} [{bid.quantity}, {bid.face}]"


def _shown(pmf: list[float]) -> str:
    return "[" + ", ".join(f"{p:.4f}" for p in pmf[:10]) + (", ...]" if len(pmf) > 10 else "]")
