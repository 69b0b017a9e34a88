"""The ``odds`` bot: plays the exact odds of its own dice against the unseen ones.

Every unseen die matches a face with the chance the counting hook gives (2/6 with wild ones, 1/6
otherwise), whatever the other players have bid. On its turn the bot weighs three things (see
:mod:`liarsdice.bots._play` for the values):

- the **most likely true raise**: of the lowest legal raise on each face, the one most likely to be
  true given its own dice (the lower one of equals);
- a **challenge**, which wins when the bid on the table is false — so it challenges unlikely bids;
- an **exact call**, when the rules have one and it pays: its chance of being exactly right times
  the reward outweighs the cost of missing; and any other call kind that declares its stakes
  (``liarsdice_call_stakes``), priced the same way.

It takes the one of highest value, always: its policy is certain (one action at probability 1).
Out of turn, where the rules allow a call there (calza's exact with
``calza.anyone``), it makes it when that is more likely right than wrong
(:func:`~liarsdice.bots._play.call_out_of_turn`). The cost of a lost round grows with its own
bullets (or falling dice), so a bot with 4 bullets takes the choice that loses less often where one
with none would gamble on a reward.
"""

from __future__ import annotations

from random import Random

from liarsdice.bots import Policy, sample
from liarsdice.bots._play import (
    Choice,
    Table,
    best,
    call_choices,
    call_out_of_turn,
    fallback,
    raise_choice,
)
from liarsdice.models import Action
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView


class OddsBot:
    """Challenges unlikely bids, else bids the most likely true raise; calls exact when it pays."""

    def __init__(self, rules: Ruleset, rng: Random) -> None:
        self.rules = rules
        self.rng = rng

    def choices(self, view: PlayerView) -> list[Choice]:
        """Every choice the bot considers on this turn, with its chances and value."""
        table = Table(self.rules, view)
        found: list[Choice] = []
        raises = []
        rank = self.rules.hooks.bid_rank
        for bid in table.raises().values():
            raises.append((table.chances(bid).at_least(bid.quantity), bid))
        if raises:
            true, bid = min(raises, key=lambda item: (-item[0], rank(item[1])))
            found.append(raise_choice(table, bid, true))
        if table.current is not None:
            look = table.chances(table.current)
            true = look.at_least(table.current.quantity)
            exact = look.exactly(table.current.quantity)
            found += call_choices(table, true, exact)
        return found

    def interject(self, view: PlayerView) -> Action | None:
        """Out of turn: makes a call the rules allow there (calza's exact) when it is more
        likely right than wrong."""
        return call_out_of_turn(self.rules, view)

    def policy(self, view: PlayerView) -> Policy:
        """The choice of highest value, for certain."""
        found = self.choices(view)
        if not found:
            return fallback(self.rules, Table(self.rules, view))
        return {best(found).action: 1.0}

    def decide(self, view: PlayerView) -> Action:
        return sample(self.policy(view), self.rng)
