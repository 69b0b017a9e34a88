"""Test kit for the rules engine and its plugins: the rule laws, recorded games, strategies.

- :mod:`liarsdice.testing.laws` — the rule laws as plain functions raising :class:`LawViolation`;
  :func:`check_ruleset` and :func:`check_game` run them all.
- :mod:`liarsdice.testing.driver` — :func:`play_game` records every transition of a game.
- :mod:`liarsdice.testing.strategies` — Hypothesis strategies (rulesets, bids, rolls, tables,
  whole games). Needs ``hypothesis``, which this package does not import until asked.
- :mod:`liarsdice.testing.plugins` — :func:`extra_variants` installs unpackaged plugins for a test.

A plugin author runs the laws on their variant in a few lines::

    from hypothesis import given
    from liarsdice.testing import check_game, register_profiles, strategies as lst

    register_profiles()  # "fast" (default) or "thorough", chosen by $HYPOTHESIS_PROFILE

    @given(lst.games(lst.rulesets(["dice-loss", "my-variant"], include=["my-variant"])))
    def test_my_variant_keeps_the_laws(game):
        check_game(game.rules, game.steps)
"""

from __future__ import annotations

import os

from liarsdice.testing.driver import PlayedGame, RandomChooser, Step, play_game
from liarsdice.testing.laws import GAME_LAWS, RULESET_LAWS, LawViolation, check_game, check_ruleset
from liarsdice.testing.plugins import extra_variants

PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"
PROFILES = {"fast": 30, "thorough": 500}
"""Hypothesis settings profiles (name -> max_examples), all without a deadline."""


def register_profiles(*, load: bool = True) -> None:
    """Register the Hypothesis profiles ``fast`` and ``thorough``; with ``load``, load the one named
    by ``$HYPOTHESIS_PROFILE`` (default ``fast``)."""
    from hypothesis import HealthCheck, settings

    for name, examples in PROFILES.items():
        settings.register_profile(
            name,
            max_examples=examples,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
    if load:
        settings.load_profile(os.environ.get(PROFILE_VARIABLE) or "fast")


__all__ = [
    "GAME_LAWS",
    "PROFILES",
    "RULESET_LAWS",
    "LawViolation",
    "PlayedGame",
    "RandomChooser",
    "Step",
    "check_game",
    "check_ruleset",
    "extra_variants",
    "play_game",
    "register_profiles",
]
