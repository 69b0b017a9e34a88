"""The rule laws: what every ruleset and every game must satisfy, whatever the plugins.

This package assembles the laws of its modules into :data:`RULESET_LAWS` and :data:`GAME_LAWS`,
runs them with :func:`check_ruleset` and :func:`check_game`, and re-exports every law, title and
type, so ``liarsdice.testing.laws.X`` names them all.

Each law is a plain function that returns ``None`` or raises :class:`LawViolation`, whose message
names the law, the ruleset (its ``repr``) and a small example (the offending state and move, on one
line). Laws hold for any combination of plugins, so a third-party plugin's author runs them on
their own plugin:

- *ruleset laws* take a ruleset: :func:`bid_order`, :func:`bid_kind_is_consistent`,
  :func:`rules_text_is_ordered`,
  :func:`rules_text_amends_what_is_there`; run them all with :func:`check_ruleset`;
- *game laws* take a ruleset and the steps of a game recorded by
  :func:`liarsdice.testing.driver.play_game` (or drawn by
  :func:`liarsdice.testing.strategies.games`); run them all with :func:`check_game`.

A law that needs a plugin's own facts is built by a factory and added to :data:`GAME_LAWS`:
:func:`public_fact_law` gives "a public fact never decreases and never exceeds a bound", and
:data:`bullets_never_decrease` is that law for the revolver's ``bullets``.

The laws live by concern: :mod:`.ordering` (bid order, legal-move enumeration), :mod:`.bidkind`
(a bid kind's parts agree),
:mod:`.variant_order` (variants that change the same thing declare an order), :mod:`.counting`
(rulings, counting the odds can trust, and the stakes calls declare), :mod:`.economy` (dice and
public facts), :mod:`.flow` (which moves are accepted),
:mod:`.liveness` (rounds and games end), :mod:`.memo` (memoised hook answers), :mod:`.records`
(replay, JSON, seeds), :mod:`.turns` (the order of play, checked in games played beside the
anticlockwise test variant), :mod:`.privacy` and :mod:`.public_log` (what each viewer may see);
:mod:`._common` holds what they share.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable, Sequence

from liarsdice.errors import PluginError
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import Step, plugin_failure
from liarsdice.testing.laws._common import APPLY as APPLY
from liarsdice.testing.laws._common import BLIND_COUNT as BLIND_COUNT
from liarsdice.testing.laws._common import DICE as DICE
from liarsdice.testing.laws._common import ELIMINATED as ELIMINATED
from liarsdice.testing.laws._common import ENUMERATION as ENUMERATION
from liarsdice.testing.laws._common import GAMES_END as GAMES_END
from liarsdice.testing.laws._common import HIDDEN as HIDDEN
from liarsdice.testing.laws._common import ILLEGAL_NOTHING as ILLEGAL_NOTHING
from liarsdice.testing.laws._common import INDEPENDENT as INDEPENDENT
from liarsdice.testing.laws._common import JSON_TRIP as JSON_TRIP
from liarsdice.testing.laws._common import KIND as KIND
from liarsdice.testing.laws._common import MEMO as MEMO
from liarsdice.testing.laws._common import ONE_LOSER as ONE_LOSER
from liarsdice.testing.laws._common import ONE_RULER as ONE_RULER
from liarsdice.testing.laws._common import ONE_WINNER as ONE_WINNER
from liarsdice.testing.laws._common import ORDER as ORDER
from liarsdice.testing.laws._common import REPLAY as REPLAY
from liarsdice.testing.laws._common import ROUNDS_END as ROUNDS_END
from liarsdice.testing.laws._common import SAME_SEED as SAME_SEED
from liarsdice.testing.laws._common import STAKES as STAKES
from liarsdice.testing.laws._common import TEXT_ORDER as TEXT_ORDER
from liarsdice.testing.laws._common import TEXT_TARGET as TEXT_TARGET
from liarsdice.testing.laws._common import TURN_ORDER as TURN_ORDER
from liarsdice.testing.laws._common import GameLaw, LawViolation, RulesetLaw
from liarsdice.testing.laws.bidkind import bid_kind_is_consistent
from liarsdice.testing.laws.counting import (
    calls_deal_their_stakes,
    challenge_has_one_loser,
    counting_ignores_hidden_dice,
)
from liarsdice.testing.laws.economy import (
    bullets_never_decrease,
    dice_change_only_through_effects,
    public_fact_law,
)
from liarsdice.testing.laws.flow import (
    eliminated_players_never_act,
    game_has_one_winner,
    illegal_actions_change_nothing,
    legal_moves_apply,
)
from liarsdice.testing.laws.liveness import games_end, rounds_end
from liarsdice.testing.laws.memo import memoised_answers_agree
from liarsdice.testing.laws.ordering import bid_order, legal_enumeration_agrees
from liarsdice.testing.laws.privacy import views_hide_dice
from liarsdice.testing.laws.public_log import public_events_hide_dice
from liarsdice.testing.laws.records import (
    json_round_trip,
    replay_rebuilds_state,
    same_seed_same_game,
)
from liarsdice.testing.laws.turns import next_player_follows_turn_order
from liarsdice.testing.laws.variant_order import (
    calls_are_ruled_by_one_variant,
    rules_text_amends_what_is_there,
    rules_text_is_ordered,
)

RULESET_LAWS: tuple[RulesetLaw, ...] = (
    bid_kind_is_consistent,  # first: the bid order walks the kind's range
    bid_order,
    rules_text_is_ordered,
    rules_text_amends_what_is_there,
)


def check_ruleset(rules: Ruleset, laws: Iterable[RulesetLaw] = RULESET_LAWS) -> None:
    """Run every ruleset law on ``rules``; raises the first :class:`LawViolation` (a law that
    raises anything else, such as a plugin's hook failing, is reported as that law's violation)."""
    for law in laws:
        try:
            law(rules)
        except LawViolation:
            raise
        except Exception as error:
            raise _crashed(law, rules, error) from error


def _crashed(
    law: Callable[..., None], rules: Ruleset, error: Exception, *, playing: bool = False
) -> LawViolation:
    """The violation reported when checking ``law`` raised ``error``. With ``playing`` (a game
    law), a plugin's failure (a hook that raised or answered out of contract, met while the law
    played the game again) is reported as such, "legal moves apply without error", naming the
    plugin and the hook, not as a breach of the law that met it."""
    if playing and isinstance(error, PluginError):
        return LawViolation(APPLY, rules, f"the engine raised {plugin_failure(error)}")
    frames = traceback.extract_tb(error.__traceback__)
    where = (
        f" (at {frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    )
    return LawViolation(
        _TITLES.get(law, law.__name__),
        rules,
        f"checking it raised {type(error).__name__}: {error}{where}",
    )


GAME_LAWS: tuple[GameLaw, ...] = (
    memoised_answers_agree,
    illegal_actions_change_nothing,
    eliminated_players_never_act,
    legal_enumeration_agrees,
    rounds_end,
    challenge_has_one_loser,
    counting_ignores_hidden_dice,
    calls_deal_their_stakes,
    calls_are_ruled_by_one_variant,
    next_player_follows_turn_order,
    dice_change_only_through_effects,
    game_has_one_winner,
    games_end,
    replay_rebuilds_state,
    json_round_trip,
    views_hide_dice,
    same_seed_same_game,
    bullets_never_decrease,
    legal_moves_apply,
)
"""Every game law, in the order :func:`check_game` runs them: a wrong ``@reads`` declaration first
(its stale answers are played, so other laws may break because of it), engine errors last (so
that a law broken just before a crash is named first)."""


_TITLES: dict[Callable[..., None], str] = {
    bid_order: ORDER,
    rules_text_is_ordered: TEXT_ORDER,
    rules_text_amends_what_is_there: TEXT_TARGET,
    illegal_actions_change_nothing: ILLEGAL_NOTHING,
    eliminated_players_never_act: ELIMINATED,
    legal_enumeration_agrees: ENUMERATION,
    rounds_end: ROUNDS_END,
    challenge_has_one_loser: ONE_LOSER,
    counting_ignores_hidden_dice: BLIND_COUNT,
    calls_deal_their_stakes: STAKES,
    calls_are_ruled_by_one_variant: ONE_RULER,
    next_player_follows_turn_order: TURN_ORDER,
    dice_change_only_through_effects: DICE,
    game_has_one_winner: ONE_WINNER,
    games_end: GAMES_END,
    memoised_answers_agree: MEMO,
    replay_rebuilds_state: REPLAY,
    json_round_trip: JSON_TRIP,
    views_hide_dice: HIDDEN,
    public_events_hide_dice: HIDDEN,
    same_seed_same_game: SAME_SEED,
    legal_moves_apply: APPLY,
}
"""The title of each shipped law, for a law that crashed rather than failed."""


def check_game(rules: Ruleset, steps: Sequence[Step], laws: Iterable[GameLaw] = GAME_LAWS) -> None:
    """Run every game law on a recorded game; raises the first :class:`LawViolation` (a law that
    raises anything else is reported as that law's violation)."""
    for law in laws:
        try:
            law(rules, steps)
        except LawViolation:
            raise
        except Exception as error:
            raise _crashed(law, rules, error, playing=True) from error


__all__ = [
    "GAME_LAWS",
    "RULESET_LAWS",
    "GameLaw",
    "LawViolation",
    "RulesetLaw",
    "bid_kind_is_consistent",
    "bid_order",
    "bullets_never_decrease",
    "calls_are_ruled_by_one_variant",
    "calls_deal_their_stakes",
    "challenge_has_one_loser",
    "check_game",
    "check_ruleset",
    "counting_ignores_hidden_dice",
    "dice_change_only_through_effects",
    "eliminated_players_never_act",
    "game_has_one_winner",
    "games_end",
    "illegal_actions_change_nothing",
    "json_round_trip",
    "legal_enumeration_agrees",
    "legal_moves_apply",
    "memoised_answers_agree",
    "next_player_follows_turn_order",
    "public_events_hide_dice",
    "public_fact_law",
    "replay_rebuilds_state",
    "rounds_end",
    "rules_text_amends_what_is_there",
    "rules_text_is_ordered",
    "same_seed_same_game",
    "views_hide_dice",
]
