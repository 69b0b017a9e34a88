"""The next player's answer to a raise, as the ``mixed`` bot models it.

It counts toward each face by the bot's beliefs, and asks how likely a raise looks to the next
player, who challenges what looks false.

:class:`Counts` splits the count toward a face into the next player's dice under the cup and the
rest (the dice the bot sees, every other opponent by belief), so a raise is valued by the chance
the next player challenges it for each number of their dice that count, and whether it is true
then (:meth:`Counts.raise_choice`).
"""

from __future__ import annotations

import math

from liarsdice import odds
from liarsdice.bots._play import Choice, Table
from liarsdice.bots.bayes_bot import TILT_FOLLOW, TILT_OPEN, TILT_SWITCH, Beliefs
from liarsdice.models import Bid, BidAction
from liarsdice.ruleset import FACES

#: The next player challenges a bid that looks less likely than this to be true...
CHALLENGE_BELOW = 0.42
#: ...with a chance that falls off smoothly around it (a logistic of this width).
CHALLENGE_SOFTNESS = 0.06
#: How much the next player is taken to read into the bot's own bid (log-odds per die), as a
#: fraction of the bayes bot's tilts: readers read, the odds bot does not.
READING = 0.5
#: With three or more players alive (a full table) the next player is taken to read nothing into
#: the bot's bid, and to challenge a bid that looks less likely than this to be true. Measured on
#: the tables of ``benchmarks/full_tables.py`` (docs/bots.md).
FULL_TABLE_READING = 0.0
FULL_TABLE_CHALLENGE_BELOW = 0.75


class Counts:
    """The count toward each face, split into the next player's dice under the cup and the rest,
    by the bot's beliefs; and how the next player sees a bid."""

    def __init__(self, table: Table, beliefs: Beliefs) -> None:
        self.table = table
        self.beliefs = beliefs
        nxt = table.next_player
        self.next = nxt if nxt is not None and nxt != table.me else None
        seat = table.seats.get(self.next) if self.next is not None else None
        self.next_hidden = 0 if seat is None else seat.dice - len(seat.shown)
        self.next_is_partner = self.next in table.partners
        mine = table.seats[table.me]
        self.my_hidden = mine.dice - len(mine.shown)
        full = len(table.alive) > 2
        self.reading = FULL_TABLE_READING if full else READING
        self.challenge_below = FULL_TABLE_CHALLENGE_BELOW if full else CHALLENGE_BELOW
        self._rest: dict[int, tuple[float, ...]] = {}
        self._next: dict[int, tuple[float, ...]] = {}

    def _chance(self, face: int) -> float:
        return len(self.table.faces(face).intersection(FACES)) / 6

    def next_pmf(self, face: int) -> tuple[float, ...]:
        """P(k of the next player's dice under the cup count toward ``face``), by belief."""
        found = self._next.get(face)
        if found is None:
            chances = self.beliefs.chances.get(self.next) if self.next is not None else None
            counted = self.table.faces(face)
            q = (
                sum(chances[x - 1] for x in counted if 1 <= x <= 6)
                if chances is not None
                else self._chance(face)
            )
            found = self._next[face] = odds.binomial_pmf(self.next_hidden, q)
        return found

    def rest_tail(self, face: int) -> tuple[float, ...]:
        """P(everything but the next player's hidden dice counts at least m toward ``face``), for
        m = 0, 1, ...: the dice the bot sees, then every other opponent by belief."""
        found = self._rest.get(face)
        if found is not None:
            return found
        table, beliefs = self.table, self.beliefs
        counted = table.faces(face)
        p = self._chance(face)
        pmf: list[float] = [1.0]
        plain = 0
        for seat in beliefs.others:
            if seat.name == self.next:
                continue
            hidden = beliefs.hidden[seat.name]
            chances = beliefs.chances.get(seat.name)
            if chances is None:
                plain += hidden
                continue
            q = sum(chances[x - 1] for x in counted if 1 <= x <= 6)
            pmf = odds.convolve(pmf, odds.binomial_pmf(hidden, q))
        pmf = odds.convolve(pmf, odds.binomial_pmf(plain, p))
        known = sum(die in counted for die in table.known)
        tail = [0.0] * (known + len(pmf) + 1)
        running = 0.0
        for m in range(len(pmf) - 1, -1, -1):
            running += pmf[m]
            tail[known + m] = running
        for m in range(known):
            tail[m] = 1.0
        found = self._rest[face] = tuple(tail)
        return found

    def _tail_at(self, face: int, m: int) -> float:
        tail = self.rest_tail(face)
        return 1.0 if m <= 0 else tail[m] if m < len(tail) else 0.0

    def true(self, face: int, quantity: int) -> float:
        """P(at least ``quantity`` dice count toward ``face``), by belief."""
        return sum(
            chance * self._tail_at(face, quantity - k)
            for k, chance in enumerate(self.next_pmf(face))
        )

    def exactly(self, face: int, quantity: int) -> float:
        """P(exactly ``quantity`` dice count toward ``face``), by belief."""
        total = 0.0
        for k, chance in enumerate(self.next_pmf(face)):
            m = quantity - k
            total += chance * (self._tail_at(face, m) - self._tail_at(face, m + 1))
        return total

    def looks_true(self, bid: Bid, k: int) -> float:
        """How likely ``bid`` looks to the next player holding ``k`` of its face under the cup:
        their ``k``, the dice face up, the bot's hidden dice read as tilted toward the face, and
        every other unseen die at the hook's chance."""
        table = self.table
        counted = table.faces(bid.face)
        p = self._chance(bid.face)
        shown = sum(die in counted for die in table.public)
        need = bid.quantity - k - shown
        if need <= 0:
            return 1.0
        weight = math.exp(self.reading * _tilt(table, bid))
        tilted = p * weight / (p * weight + 1.0 - p) if p < 1.0 else 1.0
        unseen = table.dice_in_play - len(table.public) - self.next_hidden - self.my_hidden
        mine = odds.binomial_pmf(self.my_hidden, tilted)
        others = odds.binomial_tail(max(0, unseen), p)
        total = 0.0
        for j, chance in enumerate(mine):
            rest = need - j
            total += chance * (1.0 if rest <= 0 else others[rest] if rest < len(others) else 0.0)
        return min(1.0, total)

    def raise_choice(self, bid: Bid, face: int) -> Choice:
        """The value of raising to ``bid``, given how the next player will answer it."""
        table = self.table
        lose = gain = 0.0
        worth = table.worth(self.next)
        total_true = 0.0
        if not self.next_is_partner and self.next is not None:
            for k, chance in enumerate(self.next_pmf(face)):
                true = self._tail_at(face, bid.quantity - k)
                total_true += chance * true
                challenged = _challenge_chance(self.looks_true(bid, k), self.challenge_below)
                lose += chance * challenged * (1.0 - true)
                gain += chance * challenged * true * worth
        else:
            total_true = self.true(face, bid.quantity)
        action = BidAction(table.me, bid)
        return Choice(action, "raise", bid, total_true, lose, gain, gain - table.cost * lose)


def _challenge_chance(looks: float, below: float) -> float:
    return 1.0 / (1.0 + math.exp((looks - below) / CHALLENGE_SOFTNESS))


def _tilt(table: Table, bid: Bid) -> float:
    """The bayes bot's tilt for ``bid`` made now: an opening, a kept face or a switched one."""
    if table.current is None:
        return TILT_OPEN
    return TILT_FOLLOW if table.current.face == bid.face else TILT_SWITCH
