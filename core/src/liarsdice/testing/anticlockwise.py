"""The law case ``anticlockwise``: a variant played beside a test variant that reverses play.

A rule that speaks of "the next player" must follow the order of play, which a variant may turn
anticlockwise (``liarsdice_next_turn``). :func:`check` installs
:data:`~liarsdice.testing.plugins.ANTICLOCKWISE`, plays seeded games of the smallest combination
holding the variant with it (beside each economics plugin it goes with), at 3 players with 2
dice or the nearest table the ruleset takes, and checks
:func:`~liarsdice.testing.laws.next_player_follows_turn_order` and
:func:`~liarsdice.testing.laws.legal_moves_apply` on them. A few seeded games at the options that
build first, not a Hypothesis run: the default test run stays fast (about a second a variant).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from liarsdice.errors import RulesetError
from liarsdice.ruleset import Ruleset, installed
from liarsdice.testing.driver import PlayedGame, RandomChooser, play_game, seat_names, table_near
from liarsdice.testing.laws import (
    GameLaw,
    LawViolation,
    check_game,
    legal_moves_apply,
    next_player_follows_turn_order,
)
from liarsdice.testing.plugins import ANTICLOCKWISE, ANTICLOCKWISE_NAME, extra_variants
from liarsdice.testing.suite import law_cases, playable_options, smallest_combination

GAMES = 4
"""Seeded games per ruleset."""
LAWS: tuple[GameLaw, ...] = (next_player_follows_turn_order, legal_moves_apply)
"""The laws checked on the games played anticlockwise: the order of play, and that the variant's
hooks answer within contract (the other laws are checked in the other cases)."""


def rulesets_for(variant: str) -> list[Ruleset]:
    """The smallest combination holding ``variant`` and each economics plugin it can be played
    with (a rule about the next player often reads dice counts, which only some economics
    change), each with the anticlockwise test variant, at options that build. Call it with the
    test variant installed."""
    alone = law_cases(variant, combine=False)[0]
    known = installed()
    economics = [name for name in alone.candidates if known[name].info.economics]
    found: dict[tuple[str, ...], Ruleset] = {}
    for extra in [(), *((name,) for name in economics)]:
        try:
            names = smallest_combination(alone.candidates, (*alone.include, *extra))
        except RulesetError:
            continue
        row = playable_options(names)
        if names not in found and row is not None:
            found[names] = Ruleset.build([*names, ANTICLOCKWISE_NAME], row)
    return list(found.values())


def check(
    variant: str,
    *,
    exclude: Iterable[str] = (),
    games: int = GAMES,
    on_violation: Callable[[LawViolation, PlayedGame], None] | None = None,
) -> str:
    """Play ``games`` seeded games of each of :func:`rulesets_for` and check :data:`LAWS` on
    each, but those ``exclude`` names; raises the first
    :class:`~liarsdice.testing.laws.LawViolation`, after calling ``on_violation(violation,
    game)`` (the replay command is attached there). Returns what was played, in words."""
    laws = [law for law in LAWS if law.__name__ not in set(exclude)]
    played = 0
    with extra_variants({ANTICLOCKWISE_NAME: ANTICLOCKWISE}, distribution="liarsdice-rules"):
        rulesets = rulesets_for(variant)
        for index, rules in enumerate(rulesets):
            players, dice = table_near(rules, 3, 2)
            for game in range(games):
                seed = 7_919 * index + game
                record = play_game(rules, seat_names(players), dice, seed, RandomChooser(seed))
                played += 1
                try:
                    check_game(rules, record.steps, laws)
                except LawViolation as violation:
                    if on_violation is not None:
                        on_violation(violation, record)
                    raise
    return f"{played} games played anticlockwise under {len(rulesets)} rulesets"
