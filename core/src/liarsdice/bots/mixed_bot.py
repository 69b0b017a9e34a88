"""The ``mixed`` bot, the hard level: a mixed strategy on the bayes bot's beliefs.

It reads the other players' bids as :mod:`~liarsdice.bots.bayes_bot` does (the same tilts), and
differs in three ways:

**It weighs the next player's answer.** A raise is only tested if the next player challenges it,
and that player challenges more often when they hold fewer of its face, which is just when the
raise is more likely false. So the bot models the next player: for each number ``k`` of their dice
under the cup that count toward the face (at the bot's belief about them), the chance the raise
looks true *to them* — their ``k``, every die face up, and the rest unseen, the bot's own dice
tilted toward the face it bids, as a reader of bids would see them — and from it the chance they
challenge (:data:`CHALLENGE_BELOW`, softened by :data:`CHALLENGE_SOFTNESS`). The raise loses when
they challenge and it is false, and wins when they challenge and it is true, summed over ``k``. A
partner next (``liarsdice_partners``) never challenges it.

**It considers jumps.** Each face's :data:`RAISES_PER_FACE` lowest legal raises are valued, not
only the lowest: a jump to a bid that is likely true but looks doubtful puts the next player on
the spot.

**It mixes.** Its policy puts weight on every choice within :data:`MARGIN` eliminations of the
best, in proportion to ``exp(value / TEMPERATURE)``: close calls are randomised, and a raise it
barely prefers does not always win. An opening bid says the most about a hand, so at the opening
:data:`DISGUISE` of the weight goes alike to the lowest opening bid on every face: the opening bid
does not give its dice away. With three or more players alive it plays its best choice (no
margin), and takes the next player to read nothing into its bid and to challenge a raise that looks
less likely than :data:`FULL_TABLE_CHALLENGE_BELOW` to be true (measured at 4 x 5 and 6 x 5).
(The values above look one answer ahead, so they see what a bluff costs and not what an honest
opening tells the table; the disguise is the price of that, paid knowingly.)

**It plays solved endgames.** With two players left and few dice in play, where the solver takes
the rules (:func:`liarsdice.endgame.solvable`), it plays the solved policy of the rules in force
(:mod:`liarsdice.endgame`: near-Nash, an exploitability under 0.01) instead of the heuristic above.
``endgames`` says how it gets one: ``"solve"`` (the default: solve on first meeting, 1 to 4 s
for one die each, then from the store), ``"cached"`` (only what the store already holds; on a miss
``on_miss(view)`` is told, so a server can solve it elsewhere, and the heuristic plays on) or
``"off"``; ``store`` where solutions are kept (the process's by default, on disk as
:func:`liarsdice.endgame.default_store` says).

**It plays a solved book heads-up.** With two players left beyond those endgames, it plays the
ruleset's book of heads-up positions where one has been built (``liarsdice endgames build``;
:mod:`liarsdice.endgame.book`): CFR+ solutions of every position up to 5 dice each in an
abstraction where a player remembers the last bid, not the bids before it
(:mod:`liarsdice.endgame.lastbid`), blended with ``exploit`` (:data:`EXPLOIT`) of the heuristic's policy: the
book makes it hard to exploit, the heuristic punishes predictable play, and a blend is at most as
exploitable as the same blend of the two (a best response's gain is convex in the policy).
``book`` gives one, or ``"off"``; ``endgames="off"`` plays neither.

When the rules let calls be made out of turn, it makes them there as the other bots do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from random import Random
from typing import Literal

from liarsdice import endgame, odds
from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.bots import Policy, sample
from liarsdice.bots._play import (
    Choice,
    Table,
    call_choices,
    call_out_of_turn,
    chance_choices,
    fallback,
)
from liarsdice.bots.bayes_bot import TILT_FOLLOW, TILT_OPEN, TILT_SWITCH, Beliefs
from liarsdice.legality import raises_by_face
from liarsdice.models import Action, Bid, BidAction
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.views import PlayerView

#: How many of each face's lowest legal raises are valued (the lowest and two jumps).
RAISES_PER_FACE = 3
#: A choice gets weight only within this many eliminations of the best one.
MARGIN = 0.05
#: How sharply the weight falls with value (eliminations): ``exp((value - best) / TEMPERATURE)``.
TEMPERATURE = 0.015
#: The share of an opening's weight spread alike over the lowest opening bid on every face.
DISGUISE = 0.25
#: The next player challenges a bid that looks less likely than this to be true...
CHALLENGE_BELOW = 0.42
#: ...with a chance that falls off smoothly around it (a logistic of this width).
CHALLENGE_SOFTNESS = 0.06
#: How far the endgames it plays go: two dice in play, and a position beyond (calza's "regain a
#: die" can lead from one die each to two against one) valued by the dice share.
ENDGAME_LIMITS = endgame.Limits(beyond="dice-share")
#: How much the next player is taken to read into the bot's own bid (log-odds per die), as a
#: fraction of the bayes bot's tilts: readers read, the odds bot does not.
READING = 0.5
#: With three or more players alive (a full table), where a won challenge is worth one
#: opponent's share of a lost round and the next player's challenge decides a raise, the bot plays
#: its best choice (no margin: mixing there gives value away to the seats around it), takes the next
#: player to read nothing into its bid, and to challenge a bid that looks less likely than this to
#: be true. Measured on the tables of ``benchmarks/full_tables.py`` (docs/bots.md).
FULL_TABLE_MARGIN = 0.0
FULL_TABLE_READING = 0.0
FULL_TABLE_CHALLENGE_BELOW = 0.75
#: The share of the heuristic's policy blended into a book's (heads-up): the book alone is hard
#: to exploit and exploits little; this share of the heuristic punishes predictable play
#: (docs/bots.md, "Heads-up: the solved book").
EXPLOIT = 0.3


Endgames = Literal["solve", "cached", "off"]


class MixedBot:
    """Bayes beliefs, the next player's answer weighed, jumps considered, and a mixed policy;
    solved endgames where the solver takes them."""

    def __init__(
        self,
        rules: Ruleset,
        rng: Random,
        *,
        endgames: Endgames = "solve",
        on_miss: Callable[[PlayerView], object] | None = None,
        store: endgame.Store | None = None,
        book: endgame.Book | Literal["find", "off"] = "find",
        exploit: float = EXPLOIT,
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.endgames = endgames
        self.on_miss = on_miss
        #: Where solved endgames are kept (``None``: the process's, :func:`endgame.default_store`).
        self.store = store
        #: The book of heads-up positions it plays: this one, ``"find"`` the one built for its
        #: rules if any (:func:`liarsdice.endgame.book.find`), or ``"off"``.
        self.book = book
        #: The share of the heuristic blended into the book's policy (:data:`EXPLOIT`).
        self.exploit = exploit

    def choices(self, view: PlayerView) -> tuple[Table, list[Choice]]:
        """The table and every choice considered on this turn, with its chances and value
        (where bids are not counts of a face, on the bids' own chances: no beliefs)."""
        table = Table(self.rules, view)
        if self.rules.bid_kind is not COUNT_OF_FACE:
            return table, chance_choices(table, RAISES_PER_FACE)
        beliefs = Beliefs(table, (TILT_OPEN, TILT_SWITCH, TILT_FOLLOW))
        counts = _Counts(table, beliefs)
        found: list[Choice] = []
        for face, bids in raises_by_face(
            self.rules, table.state, table.me, RAISES_PER_FACE
        ).items():
            for bid in bids:
                found.append(counts.raise_choice(bid, face))
        if table.current is not None:
            face, quantity = table.current.face, table.current.quantity
            true = counts.true(face, quantity)
            exact = counts.exactly(face, quantity)
            found += call_choices(table, true, exact)
        return table, found

    def policy(self, view: PlayerView) -> Policy:
        """A solved endgame's policy where there is one; else the heuristic's (every choice
        within :data:`MARGIN` of the best, weighted by value, an opening disguised), blended
        into the book's where the book has the position (see the module docstring)."""
        solved = self.endgame_policy(view)
        if solved is not None:
            return solved
        heuristic = self.heuristic_policy(view)
        booked = self.book_policy(view)
        return heuristic if booked is None else _blend(booked, heuristic, self.exploit)

    def heuristic_policy(self, view: PlayerView) -> Policy:
        """Every choice within :data:`MARGIN` of the best, weighted by value, an opening
        disguised."""
        table, found = self.choices(view)
        if not found:
            return fallback(self.rules, table)
        margin = FULL_TABLE_MARGIN if len(table.alive) > 2 else MARGIN
        policy = _softmax(found, margin)
        if table.current is None:
            policy = _disguised(policy, found)
        return policy

    def endgame_policy(self, view: PlayerView) -> Policy | None:
        """The solved policy at ``view``, or ``None`` where there is none (more than two
        players, more dice than the solver takes, rules it does not model, not in the store
        under ``endgames="cached"``)."""
        if self.endgames == "off" or sum(seat.alive for seat in view.seats) != 2:
            return None
        limits = ENDGAME_LIMITS
        if not endgame.solvable(self.rules, view, limits):
            return None
        try:
            if self.endgames == "solve":
                found: endgame.Endgame | None = endgame.solve(
                    self.rules, view, limits=limits, store=self.store
                )
            else:
                found = endgame.cached(self.rules, view, limits=limits, store=self.store)
                if found is None and self.on_miss is not None:
                    self.on_miss(view)
            if found is None:
                return None
            policy = found.policy(view)
        except (endgame.Unsolvable, KeyError):
            return None
        total = sum(policy.values())  # the solver rounds to 1/10000
        return {action: p / total for action, p in policy.items() if p > 0.0}

    def book_policy(self, view: PlayerView) -> Policy | None:
        """The policy of the ruleset's book of heads-up positions at ``view``
        (:mod:`liarsdice.endgame.book`), or ``None``: no book built, book or endgames ``"off"``,
        not two players, or a position or move the book does not hold."""
        if self.endgames == "off" or self.book == "off" or sum(s.alive for s in view.seats) != 2:
            return None
        found = endgame.book.find(self.rules) if self.book == "find" else self.book
        return None if found is None else found.policy(self.rules, view)

    def decide(self, view: PlayerView) -> Action:
        return sample(self.policy(view), self.rng)

    def interject(self, view: PlayerView) -> Action | None:
        """Out of turn: makes a call the rules allow there (calza's exact) when it is more
        likely right than wrong."""
        return call_out_of_turn(self.rules, view)


def _blend(book: Policy, heuristic: Policy, share: float) -> dict[Action, float]:
    """``share`` of ``heuristic`` and the rest of ``book``, action by action."""
    blended = {action: (1.0 - share) * p for action, p in book.items()}
    for action, p in heuristic.items():
        blended[action] = blended.get(action, 0.0) + share * p
    return blended


def _softmax(found: Sequence[Choice], margin: float) -> dict[Action, float]:
    """Weight ``exp((value - best) / TEMPERATURE)`` on each choice within ``margin`` of the
    best, normalised."""
    top = max(choice.value for choice in found)
    weights = {
        choice.action: math.exp((choice.value - top) / TEMPERATURE)
        for choice in found
        if choice.value >= top - margin
    }
    total = sum(weights.values())
    return {action: weight / total for action, weight in weights.items()}


def _disguised(policy: dict[Action, float], found: Sequence[Choice]) -> dict[Action, float]:
    """``policy`` with :data:`DISGUISE` of its weight spread over the lowest opening bid on each
    face."""
    lowest: dict[int, Choice] = {}
    for choice in found:
        if choice.bid is not None and choice.bid.face not in lowest:
            lowest[choice.bid.face] = choice
    cover = list(lowest.values())
    if len(cover) < 2:
        return policy
    mixed = {action: weight * (1.0 - DISGUISE) for action, weight in policy.items()}
    for choice in cover:
        mixed[choice.action] = mixed.get(choice.action, 0.0) + DISGUISE / len(cover)
    return mixed


class _Counts:
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
            pmf = _convolve(pmf, odds.binomial_pmf(hidden, q))
        pmf = _convolve(pmf, odds.binomial_pmf(plain, p))
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


def _convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    if len(b) == 1:
        return [x * b[0] for x in a]
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out
