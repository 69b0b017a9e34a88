"""Variants that choose who opens a round, one plugin object per variant.

The baseline has seat 1 open the first round and the loser open the next. These replace one or the
other; the engine then moves to the next living player clockwise if the one named is out.

- ``winner-opens`` (seed 000): the winner of the last call opens — the bidder after a failed
  challenge, the challenger after a caught lie, the caller after a successful exact call. A round
  that ends with no winner (a timeout) leaves the right with the winner of the last call, kept in
  the plugin's public state; before any call has been won, the baseline's rule stands.
- ``last-change-opens`` (seed 002): whoever's dice count changed last opens; if nobody's changed
  (an exact call at the starting count), the previous opener opens again.
- ``roll-off`` (seed 002): for the first round everyone rolls one die; the highest opens, and ties
  re-roll among themselves.
- ``random-opener``: a random player opens the first round.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from liarsdice import GameState, PluginStateSet, Resolution, VariantInfo, hookimpl
from liarsdice.i18n import Catalog
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

LAST_CALL_WINNER = "last_call_winner"
"""``winner-opens``' public state: the winner of the last call that had one."""

NEXT_ROUND_RULES = ("winner-opens", "last-change-opens")
FIRST_ROUND_RULES = ("roll-off", "random-opener")


def _others(name: str, group: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(other for other in group if other != name)


class WinnerOpens:
    """``winner-opens``: the winner of the last call opens the next round."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo(
            title=_("Winner opens"),
            summary=_("The winner of the last call opens the next round."),
            conflicts=_others("winner-opens", NEXT_ROUND_RULES),
        )

    @hookimpl
    def liarsdice_settle(self, resolution: Resolution) -> Sequence[PluginStateSet] | None:
        if not resolution.winners:
            return None
        return (PluginStateSet("winner-opens", LAST_CALL_WINNER, resolution.winners[0]),)

    @hookimpl
    def liarsdice_next_opener(self, state: GameState, resolution: Resolution) -> str | None:
        """The winner of this call; after a round with no winner (a timeout), the winner of the
        last call (the engine moves on clockwise if that chair is empty), else the baseline's."""
        if resolution.winners:
            return resolution.winners[0]
        last = state.plugin("winner-opens").get(LAST_CALL_WINNER)
        return last if isinstance(last, str) else None

    @hookimpl
    def liarsdice_describe(self) -> RulesText:
        return RulesText(
            clauses={
                "next-opener.who": _(
                    "The next round is opened by whoever won the last call: the bidder after a "
                    "failed challenge, the challenger after a caught lie, the caller after a "
                    "successful exact call. A timeout is not a call: after a round that ends in a "
                    "timeout, the winner of the last call opens again. Until someone has won a "
                    "call, the player who timed out opens."
                ),
                "next-opener.out": _(
                    "If that player is out by then, the next living player clockwise of their "
                    "chair opens."
                ),
            }
        )


class LastChangeOpens:
    """``last-change-opens``: whoever's dice count changed last opens the next round."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo(
            title=_("Last change opens"),
            summary=_("Whoever's dice count changed last opens the next round."),
            conflicts=_others("last-change-opens", NEXT_ROUND_RULES),
        )

    @hookimpl
    def liarsdice_next_opener(self, state: GameState, resolution: Resolution) -> str | None:
        assert state.round is not None
        before = {name: len(roll) for name, roll in state.round.rolls.items()}
        candidates = (resolution.caller, *resolution.losers)
        changed = [name for name in candidates if before.get(name) != state.player(name).dice]
        return changed[-1] if changed else state.round.opener

    @hookimpl
    def liarsdice_describe(self) -> RulesText:
        return RulesText(
            clauses={
                "next-opener.who": _(
                    "The next round is opened by the player whose dice count changed last: usually "
                    "the loser, who gave up a die; the exact caller who took a die back; and if an "
                    "exact call changed nothing because the caller already held every die, the same "
                    "player who opened the last round."
                )
            }
        )


class RollOff:
    """``roll-off``: everyone rolls one die for the first round; highest opens, ties re-roll."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo(
            title=_("Roll-off"),
            summary=_("Everyone rolls one die for the first round: highest opens, ties re-roll."),
            conflicts=_others("roll-off", FIRST_ROUND_RULES),
        )

    @hookimpl
    def liarsdice_first_opener(self, state: GameState, rng: Random) -> str:
        contenders = [player.name for player in state.players]
        while len(contenders) > 1:
            rolls = {name: rng.randint(1, 6) for name in contenders}
            best = max(rolls.values())
            contenders = [name for name in contenders if rolls[name] == best]
        return contenders[0]

    @hookimpl
    def liarsdice_describe(self) -> RulesText:
        return RulesText(
            clauses={
                "first-opener.who": _(
                    "To choose who opens the first round, everyone rolls one die. The highest "
                    "opens; players tied for highest roll again among themselves."
                )
            }
        )


class RandomOpener:
    """``random-opener``: a random player opens the first round."""

    @hookimpl
    def liarsdice_variant_info(self) -> VariantInfo:
        return VariantInfo(
            title=_("Random first opener"),
            summary=_("A random player opens the first round."),
            conflicts=_others("random-opener", FIRST_ROUND_RULES),
        )

    @hookimpl
    def liarsdice_first_opener(self, state: GameState, rng: Random) -> str:
        return rng.choice(state.players).name

    @hookimpl
    def liarsdice_describe(self) -> RulesText:
        return RulesText(
            clauses={"first-opener.who": _("A player chosen at random opens the first round.")}
        )


winner_opens = WinnerOpens()
last_change_opens = LastChangeOpens()
roll_off = RollOff()
random_opener = RandomOpener()
