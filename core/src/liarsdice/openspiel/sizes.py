"""How big a table's OpenSpiel game is, the bounds the bridge keeps, and its refusals.

The bridge refuses, with a :class:`TableTooLarge` naming the ruleset, the table and the bound, a
table whose game no algorithm could use: more than :data:`MAX_ACTIONS` distinct actions, or an
estimate of the information states of the first round alone (:func:`estimate_info_states`) above
the ``max_info_states`` the game is loaded with (:data:`MAX_INFO_STATES` by default). What it
cannot model at all raises :class:`Unsupported`: a continuous draw, a draw with more than
:func:`chance_outcome_bound` outcomes, a step with more than :data:`MAX_DRAWS` draws, a move
with more payloads than the game was loaded for.
"""

from __future__ import annotations

from liarsdice.errors import RulesetError
from liarsdice.ruleset import FACES, Ruleset

MAX_ACTIONS = 4096
"""The most distinct actions a bridged game may have (bids, calls and their payload variants)."""

MAX_INFO_STATES = 10**9
"""The default bound on :func:`estimate_info_states`: 2 players x 2 dice (about 6e8), 3 x 1 and 4 x 1
(about 1e8) pass; 5 x 1, 2 x 3 and 3 x 2 do not."""

MAX_DRAWS = 64
"""The most draws one step (a deal, a move and what the plugins draw after it) may make."""

MAX_PAYLOADS = 8
"""The default bound on the payloads one bid or call may carry in a state (``max_payloads``)."""


class TableTooLarge(RulesetError):
    """A table whose OpenSpiel game would be too large to use; the message names the ruleset,
    the table, the estimate and the bound."""


class Unsupported(RulesetError):
    """Something in a game the bridge cannot turn into OpenSpiel's model (a continuous draw, a
    draw or a move beyond the bounds); the message names the ruleset and the step."""


def table_name(players: int, dice: int) -> str:
    """``"2 players x 1 die"``."""
    return f"{players} players x {dice} {'die' if dice == 1 else 'dice'}"


def rungs(rules: Ruleset, dice_in_play: int) -> int:
    """The bids on the ladder with ``dice_in_play`` dice, without the faces refused all game."""
    refused = rules.fixed_refusals or frozenset()
    return dice_in_play * sum(face not in refused for face in FACES)


def hands(dice: int) -> int:
    """The rolls of ``dice`` dice a player may hold, in the order rolled: 6 ** dice."""
    return int(6**dice)


def estimate_info_states(rules: Ruleset, dice_in_play: int, hand: int) -> int:
    """A lower bound on the information states of a game of ``rules`` whose first round has
    ``dice_in_play`` dice, players holding up to ``hand`` each: those of that round alone, one per
    roll a player may hold and rising bid sequence (a subset of the ladder's rungs; its last
    bidder says whose turn it is)."""
    return hands(hand) * int(2 ** rungs(rules, dice_in_play))


def chance_outcome_bound(players: int) -> int:
    """The most outcomes one draw may have: 12 (a die has 6, the revolver's largest cylinder 12)
    or one per player, whichever is more."""
    return max(12, players)


def check_size(
    rules: Ruleset, table: str, dice_in_play: int, hand: int, actions: int, bound: int | None
) -> None:
    """Raise :class:`TableTooLarge` if a game of ``rules`` at ``table`` (its first round with
    ``dice_in_play`` dice, hands of up to ``hand``) would have more than :data:`MAX_ACTIONS`
    distinct actions, or more estimated information states than ``bound`` (``None``: no
    bound)."""
    if actions > MAX_ACTIONS:
        raise TableTooLarge(
            f"{rules!r} at {table}: {actions} distinct actions, more than the {MAX_ACTIONS} an "
            "OpenSpiel game of liarsdice may have (fewer dice, or a smaller max_payloads)"
        )
    estimate = estimate_info_states(rules, dice_in_play, hand)
    if bound is not None and estimate > bound:
        ladder = rungs(rules, dice_in_play)
        raise TableTooLarge(
            f"{rules!r} at {table}: about {estimate:.2g} information states in the first round "
            f"alone ({hands(hand)} rolls x 2^{ladder} rising bid sequences), more than the "
            f"limit of max_info_states={bound:.2g}: no tabular algorithm can hold it, and "
            "sampling would see a vanishing part of it; pass max_info_states=None to build it "
            "anyway"
        )
