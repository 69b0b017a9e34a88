"""The ``bayes`` bot: reads the other players' bids as evidence of what is under their cups.

**Belief.** Before anyone bids, each unseen die shows each face with chance 1/6. A player who bids
on a face usually holds more of the dice that count toward it than chance would give. The bot
models that as a likelihood ``P(bid on f | hand) ∝ exp(tilt * k)``, where ``k`` is how many of the
bidder's dice count toward ``f`` (the ``matching_faces`` hook). Because that likelihood is a
product over the bidder's dice, Bayes' rule updates each of their dice on its own: the chance a die
shows a face ``x`` that counts toward ``f`` is multiplied by ``exp(tilt)``, and the six chances are
normalised again. The expected number of ``f`` in that player's hand goes up — with wild ones the
chance of ones too, so the evidence spills over to every face — and the other faces go down a
little. Each bid of the round is applied in turn; the bot's own bids tell it nothing, and neither do
the bids of a player who has put dice face up (they rerolled the rest under the cup afterwards).

The count on the table for a bid on ``f`` is then the bot's own matches plus, for each opponent, a
binomial count over their dice with that opponent's chance of matching ``f``: exact arithmetic,
adding the bidders' dice to the distribution one at a time, the others' from the cached binomial
tables of :mod:`liarsdice.odds`.

**Tilts.** How much a bid says depends on what kind of bid it is. The tilts were measured, not
guessed: in 150 six-seat games of ``odds`` bots per preset the bidder's dice matched the bid face
at a rate giving a tilt of about 0.7 for a bid that switches the face, 1.1 to 1.6 for one that
keeps the face of the bid before it, and 0.2 to 0.8 for an opening bid (see docs/bots.md; the
function :func:`measure_tilts` repeats the measurement for any ruleset and any bots).

**Choosing.** Like ``odds`` (see :mod:`liarsdice.bots._play`) but with the beliefs above for the
chances, and every face's lowest raise valued, not only the most likely one.

**Bluffing.** With chance :data:`BLUFF_RATE`, scaled down by the cost of losing (a bot with
bullets bluffs less), it bids a face its own dice do not support, when that raise is worth nearly
as much as the best one (within :data:`BLUFF_MARGIN` eliminations). A bot that never bluffs tells
a reader like itself what it holds; the rate (0.15) is calibrated in docs/bots.md: the highest
rate that costs nothing measurable against ``odds`` bots while taking about a fifth of the
information out of the bot's own bids.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from random import Random

import attrs

from liarsdice import engine, odds
from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.bots import Policy, sample
from liarsdice.bots._play import (
    Choice,
    Table,
    best,
    call_choices,
    call_out_of_turn,
    chance_choices,
    fallback,
    raise_choice,
)
from liarsdice.models import Action, BidAction
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.views import PlayerView, player_view

#: Log-likelihood ratio per matching die for an opening bid, a bid that changes the face, and one
#: that keeps the face of the bid before it.
TILT_OPEN = 0.6
TILT_SWITCH = 0.7
TILT_FOLLOW = 1.3
#: How often a bluff is considered, before scaling by the cost of losing a round.
BLUFF_RATE = 0.15
#: How much value (in eliminations) a bluff may give up against the best choice.
BLUFF_MARGIN = 0.02


class Beliefs:
    """What the bot believes about each opponent's dice: a chance per face, per die."""

    def __init__(self, table: Table, tilts: tuple[float, float, float]) -> None:
        self.table = table
        uniform = (1 / 6,) * 6
        beliefs: dict[str, list[float]] = {}
        previous_face: int | None = None
        weights = tuple(math.exp(t) for t in tilts)
        rerolled = {seat.name for seat in table.view.seats if seat.shown}
        for index, placed in enumerate(table.view.bids):
            face = placed.bid.face
            # A player with dice face up rerolled the rest after bidding: their bids say nothing
            # of the dice now under their cup.
            if placed.player != table.me and placed.player not in rerolled:
                weight = weights[0 if index == 0 else 2 if face == previous_face else 1]
                chances = beliefs.setdefault(placed.player, list(uniform))
                counted = table.faces(face)
                for x in FACES:
                    if x in counted:
                        chances[x - 1] *= weight
                total = sum(chances)
                for i in range(6):
                    chances[i] /= total
            previous_face = face
        self.chances = beliefs
        self.others = [s for s in table.alive if s.name != table.me]
        #: Each opponent's dice still under the cup (their dice face up are known).
        self.hidden = {s.name: s.dice - len(s.shown) for s in self.others}
        self.plain_dice = sum(self.hidden[s.name] for s in self.others if s.name not in beliefs)
        self._counts: dict[int, _Count] = {}

    def distribution(self, face: int) -> _Count:
        """How the count toward ``face`` is made up: own matches, the opponents who bid (a
        distribution built die by die from the beliefs) and those who did not (one binomial at
        the hook's chance)."""
        cached = self._counts.get(face)
        if cached is not None:
            return cached
        table = self.table
        counted = table.faces(face)
        known = sum(die in counted for die in table.known)
        p = len(counted.intersection(FACES)) / 6
        bidders = [1.0]
        for seat in self.others:
            chances = self.chances.get(seat.name)
            if chances is not None:
                q = sum(chances[x - 1] for x in counted if 1 <= x <= 6)
                r = 1.0 - q
                for _ in range(self.hidden[seat.name]):  # one die at a time: two products each
                    bidders = [
                        a * r + b * q for a, b in zip([*bidders, 0.0], [0.0, *bidders], strict=True)
                    ]
        plain = self.plain_dice
        cached = self._counts[face] = _Count(
            known, bidders, odds.binomial_pmf(plain, p), odds.binomial_tail(plain, p)
        )
        return cached

    def at_least(self, face: int, quantity: int) -> float:
        """The chance at least ``quantity`` dice count toward ``face``, by these beliefs."""
        count = self.distribution(face)
        need = quantity - count.known
        if need <= 0:
            return 1.0
        tail = count.plain_tail
        top = len(tail) - 2  # the plain dice
        total = 0.0
        for j, chance in enumerate(count.bidders):
            rest = need - j
            if rest <= 0:
                total += chance
            elif rest <= top:
                total += chance * tail[rest]
        return min(1.0, total)

    def exactly(self, face: int, quantity: int) -> float:
        """The chance exactly ``quantity`` dice count toward ``face``, by these beliefs."""
        count = self.distribution(face)
        need = quantity - count.known
        pmf = count.plain_pmf
        total = 0.0
        for j, chance in enumerate(count.bidders):
            rest = need - j
            if 0 <= rest < len(pmf):
                total += chance * pmf[rest]
        return total


@attrs.frozen
class _Count:
    known: int
    bidders: list[float]
    plain_pmf: tuple[float, ...]
    plain_tail: tuple[float, ...]


class BayesBot:
    """Infers the others' dice from their bids, then plays the odds; bluffs at a calibrated rate."""

    def __init__(
        self,
        rules: Ruleset,
        rng: Random,
        *,
        tilts: tuple[float, float, float] = (TILT_OPEN, TILT_SWITCH, TILT_FOLLOW),
        bluff_rate: float = BLUFF_RATE,
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.tilts = tilts
        self.bluff_rate = bluff_rate

    def choices(self, view: PlayerView) -> tuple[Table, Beliefs | None, list[Choice]]:
        """The table, the beliefs, and every choice considered with its chances and value.
        Where bids are not counts of a face (:mod:`liarsdice.bidkinds`), there are no beliefs
        (``None``) and the choices are valued on the bids' own chances, as the odds bot does."""
        table = Table(self.rules, view)
        if self.rules.bid_kind is not COUNT_OF_FACE:
            return table, None, chance_choices(table)
        beliefs = Beliefs(table, self.tilts)
        found = [
            raise_choice(table, bid, beliefs.at_least(bid.face, bid.quantity))
            for bid in table.raises().values()
        ]
        if table.current is not None:
            face, quantity = table.current.face, table.current.quantity
            true = beliefs.at_least(face, quantity)
            exact = beliefs.exactly(face, quantity)
            found += call_choices(table, true, exact)
        return table, beliefs, found

    def interject(self, view: PlayerView) -> Action | None:
        """Out of turn: makes a call the rules allow there (calza's exact) when it is more
        likely right than wrong (on the dice seen, as the odds bot does)."""
        return call_out_of_turn(self.rules, view)

    def policy(self, view: PlayerView) -> Policy:
        """The choice of highest value; when that is a raise, with chance ``bluff_rate * (1 -
        cost)`` one of the bluffs nearly as good instead (each alike), if there are any."""
        table, _, found = self.choices(view)
        if not found:
            return fallback(self.rules, table)
        chosen = best(found)
        counts = self.rules.bid_kind is COUNT_OF_FACE
        bluffs = self._bluffs(table, found, chosen) if counts and chosen.kind == "raise" else []
        rate = self.bluff_rate * (1.0 - table.cost)
        if not bluffs or rate <= 0.0:
            return {chosen.action: 1.0}
        policy = {chosen.action: 1.0 - rate}
        for choice in bluffs:
            policy[choice.action] = rate / len(bluffs)
        return policy

    def decide(self, view: PlayerView) -> Action:
        return sample(self.policy(view), self.rng)

    def _bluffs(self, table: Table, found: Sequence[Choice], chosen: Choice) -> list[Choice]:
        """The raises on a face the bot's own dice do not support that are nearly as good."""
        candidates = []
        for choice in found:
            if choice.kind != "raise" or choice is chosen or choice.bid is None:
                continue
            counted = table.faces(choice.bid.face)
            mine = sum(die in counted for die in table.hand)
            fair = len(table.hand) * len(counted.intersection(FACES)) / 6
            if mine <= fair and choice.value >= chosen.value - BLUFF_MARGIN:
                candidates.append(choice)
        return candidates


def measure_tilts(
    rules: Ruleset,
    kinds: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    dice_per_player: int = 5,
    only: str | None = None,
) -> dict[str, float]:
    """Measure how much a bid says about the bidder's dice, by kind of bid.

    Plays ``games`` games with bots of ``kinds`` and, for every bid, compares the bidder's matching
    dice with chance. Returns the tilt (log-odds shift per die) for ``"open"``, ``"switch"`` and
    ``"follow"`` bids — the numbers behind :data:`TILT_OPEN`, :data:`TILT_SWITCH` and
    :data:`TILT_FOLLOW`. With ``only``, counts the bids of that bot kind alone. It reads the
    hidden dice: a measuring tool, never used in play.
    """
    from liarsdice.bots import make_bot

    rng = Random(seed)
    matched = {"open": 0.0, "switch": 0.0, "follow": 0.0}
    chance = dict.fromkeys(matched, 0.0)
    dice = dict.fromkeys(matched, 0)
    names = [f"{i + 1}:{kind}" for i, kind in enumerate(kinds)]
    for game in range(games):
        bots = {
            name: make_bot(kind, rules, Random(game * 64 + i))
            for i, (name, kind) in enumerate(zip(names, kinds, strict=True))
        }
        state, _ = engine.new_game(rules, names, rng, dice_per_player=dice_per_player)
        while not state.over:
            state, _ = engine.start_round(rules, state, rng)
            while state.round is not None and not state.round.over:
                player = state.round.turn
                action = bots[player].decide(player_view(rules, state, player))
                if isinstance(action, BidAction) and only in (None, player.partition(":")[2]):
                    bids = state.round.bids
                    face = action.bid.face
                    kind = (
                        "open" if not bids else "follow" if bids[-1].bid.face == face else "switch"
                    )
                    counted = rules.hooks.matching_faces(state, face)
                    hand = state.round.rolls[player]
                    matched[kind] += sum(die in counted for die in hand)
                    chance[kind] += len(hand) * len(set(counted).intersection(FACES)) / 6
                    dice[kind] += len(hand)
                state, _ = engine.step(rules, state, action, rng)
    return {kind: _tilt(matched[kind], chance[kind], dice[kind]) for kind in matched}


def _tilt(matched: float, chance: float, dice: int) -> float:
    if not dice or not 0 < matched < dice or not 0 < chance < dice:
        return 0.0
    seen, prior = matched / dice, chance / dice
    return math.log(seen / (1 - seen)) - math.log(prior / (1 - prior))
