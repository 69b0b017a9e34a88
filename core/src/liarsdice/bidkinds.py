"""Bid kinds: what a bid claims about the dice, how players say it, and its truth at the reveal.

A ruleset plays one kind of bid, the answer of ``liarsdice_bid_kind`` (:attr:`Ruleset.bid_kind
<liarsdice.Ruleset.bid_kind>`). Every bid is a :class:`~liarsdice.models.Bid` of two whole
numbers, ``quantity`` and ``face``; the kind says:

- its **fields**: which of the two a player fills in, and what they mean;
- its **range**: the bids there are with a number of dice in play (:meth:`BidKind.bids`), and why
  a bid is malformed (:meth:`BidKind.shape_problem`). Their order is ``liarsdice_bid_rank``, and
  what is legal now (which may depend on the state) is ``liarsdice_bid_problem``, as for any bid;
- its **words**, as players say a bid and a value (en/uk/ru through the plugin's catalog);
- its **truth function**: the bid's *value* on the revealed dice (:meth:`BidKind.value`), which the
  engine hands to ``liarsdice_resolve_call`` as ``count`` and the rulings report. A bid is true
  when its value reaches its quantity, and exactly right when they are equal, whatever the kind;
- optionally its value's **distribution** given the dice a player knows (:meth:`BidKind.distribution`),
  for exact odds; without it the odds and the bots sample the unseen dice
  (:func:`liarsdice.odds.bid_chances`).

The baseline's kind is :data:`COUNT_OF_FACE`: "at least ``quantity`` dice show ``face``", whose
value is the number of dice showing a face that counts toward the bid's face
(``liarsdice_matching_faces``: the face itself, and wild ones where they are wild).
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Iterable, Sequence

from liarsdice import phrases
from liarsdice.i18n import Text, _
from liarsdice.models import Bid

__all__ = ["COUNT_OF_FACE", "BidKind", "CountOfFace"]

_FACES = range(1, 7)


class BidKind(abc.ABC):
    """One kind of bid (see the module docstring). Subclass it, set the class attributes and give
    the four abstract methods; a plugin answers ``liarsdice_bid_kind`` with an instance.

    ``name`` identifies the kind (two variants answering different names conflict); ``fields``
    names what a player fills in, in order (``("quantity", "face")`` for the baseline, one name
    when the face is not used: it is then 0); ``names_faces`` is true when a bid names a face, so
    that face refusals (``liarsdice_face_allowed``) and wild faces apply to it.
    """

    name: str
    fields: tuple[str, ...]
    names_faces: bool

    @abc.abstractmethod
    def bids(self, dice_in_play: int) -> Iterable[Bid]:
        """Every well-formed bid with ``dice_in_play`` dice on the table, in any order."""

    @abc.abstractmethod
    def shape_problem(self, bid: Bid, dice_in_play: int) -> Text | None:
        """Why ``bid`` (whole numbers) is not a bid of this kind with ``dice_in_play`` dice on the
        table, or ``None``: exactly the bids :meth:`bids` leaves out."""

    @abc.abstractmethod
    def value(self, bid: Bid, dice: Iterable[int], matching: Collection[int]) -> int:
        """The value of ``bid`` on ``dice`` (every die at the table, revealed): the bid is true
        when it reaches ``bid.quantity``. ``matching`` holds the faces that count toward
        ``bid.face`` now (``liarsdice_matching_faces``; every face for a kind that names no
        face); a kind may ignore it."""

    @abc.abstractmethod
    def words(self, bid: Bid) -> Text:
        """``bid`` as players say it, as the object of a verb ("bids 5 fives", "bids a total of
        23"): accusative in Ukrainian and Russian."""

    def value_words(self, value: int) -> Text:
        """A value as a ruling reports it ("3 dice counted"); by default a number of dice."""
        return phrases.dice(value)

    def distribution(
        self, bid: Bid, known: Sequence[int], unknown: int, matching: Collection[int]
    ) -> Sequence[float] | None:
        """The chance of each value of ``bid`` (index = value) when the dice ``known`` are seen
        and ``unknown`` more fair dice are not, or ``None`` when the kind cannot compute it: the
        odds then sample the unseen dice. Override it for exact odds."""
        return None


class CountOfFace(BidKind):
    """The baseline's bid: "at least ``quantity`` dice on the whole table show ``face``", for
    ``quantity`` 1..dice in play and ``face`` 1..6. Its value is the count of dice showing a
    face in ``matching``; its distribution is exact (:mod:`liarsdice.odds` computes it)."""

    name = "count"
    fields = ("quantity", "face")
    names_faces = True

    def bids(self, dice_in_play: int) -> Iterable[Bid]:
        return (Bid(q, f) for q in range(1, dice_in_play + 1) for f in _FACES)

    def shape_problem(self, bid: Bid, dice_in_play: int) -> Text | None:
        if not 1 <= bid.face <= 6:
            return _("there is no face {face}: dice show 1 to 6", face=bid.face)
        if not 1 <= bid.quantity <= dice_in_play:
            return _(
                "{bid} is not 1 to {n} dice, the dice in play",
                bid=self.words(bid),
                n=dice_in_play,
            )
        return None

    def value(self, bid: Bid, dice: Iterable[int], matching: Collection[int]) -> int:
        return sum(die in matching for die in dice)

    def words(self, bid: Bid) -> Text:
        return phrases.bid(bid)


#: The baseline's kind of bid, the one every ruleset plays unless a variant says otherwise.
COUNT_OF_FACE = CountOfFace()
