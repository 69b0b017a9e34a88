"""What the odds-driven bots share: reading a view, pricing a lost round, valuing each choice.

A bot scores every choice on its turn in one currency, *eliminations*: 1.0 is the cost of being
knocked out for certain. Losing a round costs ``cost`` (:func:`loss_cost`: the chance the revolver
fires, or a die out of the ones left, or both), and winning one is worth what it costs the opponent
who loses, divided among the other players (one opponent out brings my own win a little closer).
Where the rules play in teams (``liarsdice_partners``), a bot plays for its side: the opponents
are the other side's players, and a partner's lost round costs the bot as much as the partner.
Each choice gets the chance it loses the round and what it gains, and its value is
``gain - cost * lose``. Because only the ``cost * lose`` term grows with one's own bullets, a bot
holding more bullets picks a choice that loses less often: it plays more safely.

- **a call** is weighed by what its kind declares it stakes (``liarsdice_call_stakes``,
  :meth:`Ruleset.call_stakes <liarsdice.Ruleset.call_stakes>`): it is right with the chance that
  the bid on the table is false (a challenge), exactly right (an exact call) or true, and each
  outcome deals out lost rounds (to the caller, the bidder, each other player) and dice regained.
  ``lose`` is the caller's expected lost rounds, ``gain`` what the others' lost rounds are worth
  to me, plus a die regained (worth what losing it would cost). A challenge: ``lose = P(true)``,
  ``gain = P(false) * worth(bidder)``; calza's exact call: ``lose = 1 - P(exact)``, ``gain =
  P(exact) * reward`` (the table pays, or one die back). A kind that declares no stakes is never
  made on the bot's own choice.
- **raise** is only tested if the next player challenges it, with chance ``c``, estimated as the
  chance the bid is false with every die unseen (a bid that looks unlikely gets challenged):
  ``lose = c * P(false)``, ``gain = c * P(true) * worth(next player)``.

Everything is read from the :class:`~liarsdice.views.PlayerView` through
:func:`~liarsdice.views.view_state`; the probabilities come from the ``matching_faces`` hook via
:mod:`liarsdice.odds` (for a bid of another kind than the count, from its kind's distribution or
sampled deals: :meth:`Table.chances`), so any combination of variants is played without the bot
knowing its rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from liarsdice import engine, odds
from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.legality import lowest_raises, raises_by_face
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState
from liarsdice.options import CallStakes, Payoff
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.views import PlayerView, SeatView, view_state

#: What losing a round costs when no known economics plugin (revolver, dice loss) is in play.
UNKNOWN_COST = 0.5


@attrs.frozen
class Choice:
    """One thing a bot may do, with its chances and value (see the module docstring).

    ``kind`` is ``"raise"`` or the call kind; ``bid`` the raise (``None`` for a call). ``wins``
    is the chance the choice wins if it is tested: the raise is true, the challenged bid is
    false, the exact call is exactly right. ``lose`` is the chance it loses the round now.
    """

    action: Action
    kind: str
    bid: Bid | None
    wins: float
    lose: float
    gain: float
    value: float


class Table:
    """Facts about one decision, read from the view once: the state rebuilt from the view, the
    seats, who bids next, the cost of losing for each living player."""

    def __init__(self, rules: Ruleset, view: PlayerView) -> None:
        if view.viewer is None or view.turn != view.viewer:
            raise ValueError("a bot decides only on its own turn")
        self.rules = rules
        self.view = view
        self.me: str = view.viewer
        self.state: GameState = view_state(view)
        self.hand: tuple[int, ...] = tuple(view.own_dice or ())
        #: Every die the bot can see: its own and the dice others have put face up.
        self.known: tuple[int, ...] = view.known_dice
        #: The dice everyone can see: all the dice put face up, the bot's own included.
        self.public: tuple[int, ...] = tuple(die for seat in view.seats for die in seat.shown)
        self.seats: dict[str, SeatView] = {seat.name: seat for seat in view.seats}
        self.alive = [seat for seat in view.seats if seat.alive]
        self.dice_in_play = view.dice_in_play
        self.unknown = view.dice_in_play - len(self.known)
        self.current: Bid | None = view.bids[-1].bid if view.bids else None
        self.bidder: str | None = view.bids[-1].player if view.bids else None
        #: Who bids after me: in the order of play, which a variant may turn anticlockwise.
        self.next_player = engine.next_player(rules, self.state, self.me)
        #: The players on my side (``liarsdice_partners``): their lost round is mine too.
        self.partners = frozenset(engine.partners(rules, self.state, self.me))
        opponents = [seat for seat in self.alive if seat.name != self.me]
        opponents = [seat for seat in opponents if seat.name not in self.partners]
        self.share = 1.0 / max(1, len(opponents))
        self.cost = loss_cost(rules, view, self.seats[self.me])
        self._faces: dict[int, frozenset[int]] = {}

    def faces(self, face: int) -> frozenset[int]:
        """The faces counting toward ``face`` now (the ``matching_faces`` hook, asked once)."""
        found = self._faces.get(face)
        if found is None:
            found = self._faces[face] = frozenset(self.rules.hooks.matching_faces(self.state, face))
        return found

    def worth(self, player: str | None) -> float:
        """What ``player`` losing a round is worth to me: a share of what it costs an opponent,
        and, for a partner, as much as it costs them, taken off."""
        if player is None or player == self.me or player not in self.seats:
            return 0.0
        cost = loss_cost(self.rules, self.view, self.seats[player])
        return -cost if player in self.partners else cost * self.share

    def dealt(self, payoff: Payoff) -> float:
        """What ``payoff`` (one outcome of my call) is worth to me, my own lost rounds aside:
        each other player's lost rounds at :meth:`worth`, and a die I regain at what losing it
        would cost (nothing at the starting count)."""
        rounds = {self.bidder: payoff.bidder}
        worth = sum(
            rounds.get(seat.name, payoff.others) * self.worth(seat.name)
            for seat in self.alive
            if seat.name != self.me
        )
        if payoff.regains:
            mine = self.seats[self.me].dice
            regained = min(payoff.regains, self.view.dice_per_player - mine)
            worth += sum(1.0 / (mine + n) for n in range(1, regained + 1))
        return worth

    def chances(self, bid: Bid) -> odds.Outlook | odds.ValueOutlook:
        """The chances of ``bid`` for me: my own dice and the dice face up known, every unseen
        die fair (:func:`liarsdice.odds.bid_chances`; the faces asked once per face)."""
        if self.rules.bid_kind is not COUNT_OF_FACE:
            return odds.bid_chances(self.rules, self.state, bid, self.known, self.unknown)
        faces = self.faces(bid.face)
        known = sum(die in faces for die in self.known)
        p = len(faces.intersection(FACES)) / 6
        return odds.Outlook(bid.face, faces, known, self.unknown, p)

    def prior_true(self, bid: Bid) -> float:
        """The chance ``bid`` is true with only the dice face up seen: how it looks to the other
        players."""
        unseen = self.dice_in_play - len(self.public)
        if self.rules.bid_kind is not COUNT_OF_FACE:
            chances = odds.bid_chances(self.rules, self.state, bid, self.public, unseen)
            return chances.at_least(bid.quantity)
        faces = self.faces(bid.face)
        p = len(faces.intersection(FACES)) / 6
        seen = sum(die in faces for die in self.public)
        return odds.at_least(bid.quantity, unseen, p, seen)

    def calls(self) -> list[str]:
        """The call kinds allowed now."""
        if self.current is None:
            return []
        return engine.legal_calls(self.rules, self.state, self.me)

    def raises(self) -> dict[int, Bid]:
        """The lowest legal raise on each face that has one."""
        return lowest_raises(self.rules, self.state, self.me)


def loss_cost(rules: Ruleset, view: PlayerView, seat: SeatView) -> float:
    """What losing a round costs ``seat``, in eliminations (1.0: certainly out).

    Under the revolver: the chance the pull after loading is a hit, plus a little for the bullet
    that stays. Under dice loss: one die out of those left (the last one is the game). Both
    together combine as independent chances; with neither, :data:`UNKNOWN_COST`.
    """
    survive = 1.0
    known = False
    chambers = rules.options.get("revolver.chambers")
    if chambers:
        known = True
        loaded = _bullets(view, seat)
        initial = rules.options.get("revolver.initial_bullets", 1)
        after = min(chambers, initial if loaded == 0 else loaded + 1)
        death = after / chambers
        survive *= 1.0 - min(1.0, death + (1.0 - death) * 0.5 / chambers)
    if "dice-loss" in rules.names:
        known = True
        survive *= 1.0 - 1.0 / max(1, seat.dice)
    return 1.0 - survive if known else UNKNOWN_COST


def _bullets(view: PlayerView, seat: SeatView) -> int:
    public = seat.public.get("bullets")
    if isinstance(public, int):
        return public
    loaded = view.plugins.get("revolver", {}).get("bullets", {})
    return int(loaded.get(seat.name, 0)) if isinstance(loaded, Mapping) else 0


def right_and_wrong(stakes: CallStakes, true: float, exact: float) -> tuple[float, float]:
    """The chances a call with ``stakes`` is right and wrong, given the chance the bid on the
    table is true and exactly right."""
    if stakes.right_when == "false":
        return 1.0 - true, true
    if stakes.right_when == "exact":
        return exact, 1.0 - exact
    return true, 1.0 - true


def call_choice(table: Table, kind: str, true: float, exact: float) -> Choice | None:
    """The value of a call of ``kind`` given the chance the bid is true and exactly right, by
    the stakes its kind declares (``None`` for a kind that declares none)."""
    stakes = table.rules.call_stakes(kind)
    if stakes is None:
        return None
    right, wrong = right_and_wrong(stakes, true, exact)
    lose = right * stakes.right.caller + wrong * stakes.wrong.caller
    gain = right * table.dealt(stakes.right) + wrong * table.dealt(stakes.wrong)
    return _choice(table, CallAction(table.me, kind), kind, None, right, lose, gain)


def call_choices(table: Table, true: float, exact: float) -> list[Choice]:
    """The value of each call open to the player on turn, given the chance the bid on the table
    is true and exactly right (calls the bots do not value are left out)."""
    found = (call_choice(table, kind, true, exact) for kind in table.calls())
    return [choice for choice in found if choice is not None]


def chance_choices(table: Table, per_face: int = 1) -> list[Choice]:
    """Every choice valued on the chances of the bids themselves (:meth:`Table.chances`): each
    face's ``per_face`` lowest legal raises, and each call open now. The bayes and mixed bots
    play this way where the bids are not counts of a face (:mod:`liarsdice.bidkinds`), since
    their beliefs are counts of each face."""
    state, me = table.state, table.me
    found = [
        raise_choice(table, bid, table.chances(bid).at_least(bid.quantity))
        for bids in raises_by_face(table.rules, state, me, per_face).values()
        for bid in bids
    ]
    if table.current is not None:
        look = table.chances(table.current)
        quantity = table.current.quantity
        found += call_choices(table, look.at_least(quantity), look.exactly(quantity))
    return found


def raise_choice(table: Table, bid: Bid, true: float) -> Choice:
    """The value of raising to ``bid``, which is true with chance ``true``."""
    challenged = 1.0 - table.prior_true(bid)
    lose = challenged * (1.0 - true)
    gain = challenged * true * table.worth(table.next_player)
    return _choice(table, BidAction(table.me, bid), "raise", bid, true, lose, gain)


def _choice(
    table: Table,
    action: Action,
    kind: str,
    bid: Bid | None,
    wins: float,
    lose: float,
    gain: float,
) -> Choice:
    return Choice(action, kind, bid, wins, lose, gain, gain - table.cost * lose)


def best(choices: Sequence[Choice]) -> Choice:
    """The choice of highest value (the first of equals)."""
    return max(choices, key=lambda choice: choice.value)


def fallback(rules: Ruleset, table: Table) -> dict[Action, float]:
    """A policy over legal actions, for when no choice was scored (only an unknown call kind is
    left): the lowest legal bid if there is one, else every legal call alike."""
    bids = engine.legal_bids(rules, table.state, table.me, 1)
    if bids:
        return {BidAction(table.me, bids[0]): 1.0}
    calls = table.calls()
    if calls:
        return {CallAction(table.me, kind): 1.0 / len(calls) for kind in calls}
    raise RuntimeError(f"{table.me} has no legal action")


INTERJECT_CHANCE = 0.5
"""How likely a call out of turn must be to be right for the odds, bayes and mixed bots to make
it: more likely right than wrong."""


def call_out_of_turn(rules: Ruleset, view: PlayerView) -> Action | None:
    """A call out of turn (calza's exact with ``calza.anyone``), when the rules let
    ``view.viewer`` make one now and it is right with at least :data:`INTERJECT_CHANCE` given the
    dice the viewer sees: the first such kind in the ruleset's order; else ``None`` (a kind that
    declares no stakes is never made)."""
    if view.viewer is None or not view.bids or not rules.out_of_turn:
        return None
    state = view_state(view)
    legal = engine.legal_calls(rules, state, view.viewer)
    bid = view.bids[-1].bid
    look = None
    for kind in rules.out_of_turn:
        stakes = rules.call_stakes(kind)
        if stakes is None or kind not in legal:
            continue
        look = look or odds.view_chances(rules, view, bid, state)
        right, _ = right_and_wrong(stakes, look.at_least(bid.quantity), look.exactly(bid.quantity))
        if right >= INTERJECT_CHANCE:
            return CallAction(view.viewer, kind)
    return None
