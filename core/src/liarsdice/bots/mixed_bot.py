"""The ``mixed`` bot, the hard level: a mixed strategy on the bayes bot's beliefs.

It reads the other players' bids as :mod:`~liarsdice.bots.bayes_bot` does (the same tilts), and
differs in three ways:

**It weighs the next player's answer.** A raise is only tested if the next player challenges it,
and that player challenges more often when they hold fewer of its face, which is just when the
raise is more likely false. So the bot models the next player: for each number ``k`` of their dice
under the cup that count toward the face (at the bot's belief about them), the chance the raise
looks true *to them* — their ``k``, every die face up, and the rest unseen, the bot's own dice
tilted toward the face it bids, as a reader of bids would see them — and from it the chance they
challenge (:data:`~liarsdice.bots.answers.CHALLENGE_BELOW`, softened by
:data:`~liarsdice.bots.answers.CHALLENGE_SOFTNESS`). The raise loses when
they challenge and it is false, and wins when they challenge and it is true, summed over ``k``. A
partner next (``liarsdice_partners``) never challenges it.

**It considers jumps.** Each face's :data:`RAISES_PER_FACE` lowest legal raises are valued, not
only the lowest: a jump to a bid that is likely true but looks doubtful puts the next player on
the spot.

**It mixes.** Its policy puts weight on every choice within :data:`MARGIN` eliminations of the
best, in proportion to ``exp(value / TEMPERATURE)``: close calls are randomised, and a raise it
barely prefers does not always win. An opening bid says the most about a hand, so at the opening
:data:`DISGUISE` of the weight goes alike to the lowest opening bid on every face: the opening bid
does not give its dice away. With three or more players alive it opens with the lowest bid on a
face drawn alike (:data:`FULL_TABLE_DISGUISE`), plays its best choice after (no margin), and
takes the next player to read nothing into its bid and to challenge a raise that looks less
likely than :data:`~liarsdice.bots.answers.FULL_TABLE_CHALLENGE_BELOW` to be true
(measured at 4 x 5 and 6 x 5).
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
(:mod:`liarsdice.endgame.lastbid`), blended with ``exploit`` (:data:`EXPLOIT`) of the
heuristic's policy: the book makes it hard to exploit, the heuristic punishes predictable play
(docs/bots.md measures the blend). Where the book's opener plays a round solved with the opening
blind (one policy whatever the hand; books are built so by default), its opening there is the
book's alone, with none of the heuristic blended in: its opening bid heads-up tells nothing of
its hand. Nor does the heuristic make a call that is right only on the exact count (calza, the
casino's exact) there: that is priced on one count of its beliefs, which a bidder who follows
its face fools (against the reader at the casino, 28 of its 181 exact calls were right); the
heuristic's weight on one goes to the book's policy.
Where the book holds the round solved exactly (``liarsdice endgames build`` solves the rounds
with three dice in play on their whole trees: :mod:`liarsdice.endgame.exact`), it plays that
policy alone, as it plays its solved endgames.
``book`` gives one, or ``"off"``; ``endgames="off"`` plays neither.

When the rules let calls be made out of turn, it makes them there as the other bots do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from random import Random
from typing import Literal

from liarsdice import endgame
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
from liarsdice.bots.answers import Counts
from liarsdice.bots.bayes_bot import TILT_FOLLOW, TILT_OPEN, TILT_SWITCH, Beliefs
from liarsdice.legality import raises_by_face
from liarsdice.models import Action, CallAction
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView

#: How many of each face's lowest legal raises are valued (the lowest and two jumps).
RAISES_PER_FACE = 3
#: A choice gets weight only within this many eliminations of the best one.
MARGIN = 0.05
#: How sharply the weight falls with value (eliminations): ``exp((value - best) / TEMPERATURE)``.
TEMPERATURE = 0.015
#: The share of an opening's weight spread alike over the lowest opening bid on every face.
DISGUISE = 0.25
#: How far the endgames it plays go: two dice in play, and a position beyond (calza's "regain a
#: die" can lead from one die each to two against one) valued by the dice share.
ENDGAME_LIMITS = endgame.Limits(beyond="dice-share")
#: With three or more players alive (a full table), where a won challenge is worth one
#: opponent's share of a lost round, the bot plays its best choice: mixing there gives value away
#: to the seats around it (the next player's answer there: :mod:`liarsdice.bots.answers`).
FULL_TABLE_MARGIN = 0.0
#: With three or more players alive, the share of an opening spread alike over the lowest
#: opening bid on every face: all of it, so a full table's opening tells nothing of the hand
#: (its best opening among 20 or 30 dice is worth next to nothing more than another).
FULL_TABLE_DISGUISE = 1.0
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
        counts = Counts(table, beliefs)
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
        """A solved endgame's policy where there is one, or the book's exactly solved round's;
        else the heuristic's (every choice within :data:`MARGIN` of the best, weighted by value,
        an opening disguised), blended into the book's where the book has the position, or the
        book's alone at an opening if its opener plays blind (see the module docstring)."""
        solved = self.endgame_policy(view)
        if solved is not None:
            return solved
        found = self._heads_up_book(view)
        exact = None if found is None else found.exact_policy(self.rules, view)
        if exact is not None:
            return exact
        booked = None if found is None else found.policy(self.rules, view)
        if found is None or booked is None:
            return self.heuristic_policy(view)
        if found.blind_opening and not view.bids:
            return booked
        heuristic = self.heuristic_policy(view)
        return _blend(booked, heuristic, self.exploit, self._priced_on_the_exact_count)

    def _priced_on_the_exact_count(self, action: Action) -> bool:
        """Whether ``action`` is a call right only when the count is exactly the bid's (calza,
        the casino's exact call)."""
        if not isinstance(action, CallAction):
            return False
        stakes = self.rules.call_stakes(action.kind)
        return stakes is not None and stakes.right_when == "exact"

    def heuristic_policy(self, view: PlayerView) -> Policy:
        """Every choice within :data:`MARGIN` of the best, weighted by value, an opening
        disguised."""
        table, found = self.choices(view)
        if not found:
            return fallback(self.rules, table)
        full = len(table.alive) > 2
        policy = _softmax(found, FULL_TABLE_MARGIN if full else MARGIN)
        if table.current is None:
            policy = _disguised(policy, found, FULL_TABLE_DISGUISE if full else DISGUISE)
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

    def _heads_up_book(self, view: PlayerView) -> endgame.Book | None:
        """The book it plays at ``view``: with two players alive, the one given or the one
        built for its rules; ``None`` with more players, none built, or the book or the
        endgames ``"off"``."""
        if self.endgames == "off" or self.book == "off" or sum(s.alive for s in view.seats) != 2:
            return None
        return endgame.book.find(self.rules) if self.book == "find" else self.book

    def decide(self, view: PlayerView) -> Action:
        return sample(self.policy(view), self.rng)

    def interject(self, view: PlayerView) -> Action | None:
        """Out of turn: makes a call the rules allow there (calza's exact) when it is more
        likely right than wrong."""
        return call_out_of_turn(self.rules, view)


def _blend(
    book: Policy, heuristic: Policy, share: float, book_only: Callable[[Action], bool]
) -> dict[Action, float]:
    """``share`` of ``heuristic`` and the rest of ``book``, action by action, except that the
    heuristic's weight on an action ``book_only`` names goes to the book's policy."""
    moved = sum(p for action, p in heuristic.items() if book_only(action))
    blended = {action: (1.0 - share + share * moved) * p for action, p in book.items()}
    for action, p in heuristic.items():
        if not book_only(action):
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


def _disguised(
    policy: dict[Action, float], found: Sequence[Choice], share: float
) -> dict[Action, float]:
    """``policy`` with ``share`` of its weight spread over the lowest opening bid on each
    face."""
    lowest: dict[int, Choice] = {}
    for choice in found:
        if choice.bid is not None and choice.bid.face not in lowest:
            lowest[choice.bid.face] = choice
    cover = list(lowest.values())
    if len(cover) < 2:
        return policy
    kept = {} if share >= 1.0 else policy
    mixed = {action: weight * (1.0 - share) for action, weight in kept.items()}
    for choice in cover:
        mixed[choice.action] = mixed.get(choice.action, 0.0) + share / len(cover)
    return mixed
