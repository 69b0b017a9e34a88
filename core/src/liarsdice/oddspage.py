"""The odds page: every bid's chances with the wild faces and with the face alone, side by side.

``liarsdice odds`` prints it and the demo app draws it. Per face and quantity (seed 000), the
chance of "at least" and "exactly" with the wild faces (ones, if the rules make none wild) and with
the face counted alone, side by side, plus the chance under the rules in force; per face the
expected counts and the best exact call with its success chance (the exact call's fair price),
and whether and why it may not be bid (``refusal``, and ``FaceOdds.note``: what a page says about
it). The chances come from :mod:`liarsdice.odds`.

``odds_table(rules, dice_in_play, hand=None)`` is the stable entry point for pages. It returns an
:class:`OddsTable` (frozen attrs classes; ``table.as_dict()`` gives plain JSON-ready data)::

    {"dice_in_play": 15, "hand": [5, 5, 1, 2, 3], "unknown": 10, "wild_faces": [1],
     "compared_wild": [1],
     "faces": [{"face": 5, "counted": [1, 5], "opening": true, "later": true,
                "expected": {"wild": 6.33, "plain": 3.67, "rules": 6.33},
                "exact": {"quantity": 6, "chance": 0.26, "fair_odds": 2.84},
                "refusal": null}, ...],
     "rows": [{"face": 5, "quantity": 6,
               "wild": {"at_least": 0.7, "exactly": 0.26},
               "plain": {"at_least": 0.07, "exactly": 0.05},
               "rules": {"at_least": 0.7, "exactly": 0.26}}, ...]}

"wild" counts the face and the wild faces (``compared_wild``: the faces the rules make wild at the
start of a round, :meth:`~liarsdice.ruleset.Ruleset.wild_faces`, or ones when they make none; a
bid on a wild face counts it alone), "plain" counts the face alone, "rules" counts what the
ruleset's ``matching_faces`` hook says at the start of a round. ``hand`` is the player's own dice
(known, not random); the other ``dice_in_play - len(hand)`` dice are unseen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from liarsdice import odds
from liarsdice.i18n import Text, _
from liarsdice.models import Bid, GameState, PlacedBid, opening_state
from liarsdice.ruleset import FACES, Ruleset


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
    hand = odds.seen_hand(dice_in_play, hand)
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
            name: odds.Outlook(
                face, faces, sum(d in faces for d in hand), unknown, float(odds.per_die(faces))
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
