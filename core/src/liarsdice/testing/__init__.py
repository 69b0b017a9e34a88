"""Test kit for the rules engine and its plugins: the rule laws, recorded games, strategies.

A plugin author gets the laws with one line in a test module (the pytest plugin below)::

    pytestmark = pytest.mark.liarsdice_variant("my-variant")

- :mod:`liarsdice.testing.pytest_plugin` — that pytest plugin, installed with the core (entry
  point ``pytest11``): the laws against a variant alone and with every compatible installed one.
- :mod:`liarsdice.testing.laws` — the rule laws as plain functions raising :class:`LawViolation`;
  :func:`check_ruleset` and :func:`check_game` run them all.
- :mod:`liarsdice.testing.driver` — :func:`play_game` records every transition of a game.
- :mod:`liarsdice.testing.strategies` — Hypothesis strategies (rulesets, bids, rolls, tables,
  whole games). Needs ``hypothesis`` (``pip install 'liarsdice-rules[testing]'``), which this
  package does not import until asked.
- :mod:`liarsdice.testing.suite` — which combinations to check (:func:`~.suite.law_cases`,
  :func:`~.suite.valid_combinations`, :func:`~.suite.option_rows`).
- :mod:`liarsdice.testing.running` — running the laws on them (:func:`~.running.run_case`,
  :func:`~.running.run_rows`).
- :mod:`liarsdice.testing.plugins` — :func:`extra_variants` installs unpackaged plugins for a test;
  ``ANTICLOCKWISE`` is the test variant that reverses the direction of play
  (:mod:`liarsdice.testing.anticlockwise` plays each variant beside it).

Without the pytest plugin, the same in a few lines::

    from hypothesis import given
    from liarsdice.testing import check_game, register_profiles, strategies as lst

    register_profiles()  # "fast" (default) or "thorough", chosen by $HYPOTHESIS_PROFILE

    @given(lst.games(lst.rulesets(["dice-loss", "my-variant"], include=["my-variant"])))
    def test_my_variant_keeps_the_laws(game):
        check_game(game.rules, game.steps)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from liarsdice.testing.driver import PlayedGame, RandomChooser, Step, play_game
    from liarsdice.testing.laws import (
        GAME_LAWS,
        RULESET_LAWS,
        LawViolation,
        check_game,
        check_ruleset,
    )
    from liarsdice.testing.plugins import extra_variants

# The names below are imported on first use, so that loading the pytest plugin (which lives in
# this package) costs nothing until a test asks for the laws.
_DRIVER = {"PlayedGame", "RandomChooser", "Step", "play_game"}
_LAWS = {"GAME_LAWS", "RULESET_LAWS", "LawViolation", "check_game", "check_ruleset"}


def __getattr__(name: str) -> Any:
    if name in _DRIVER:
        from liarsdice.testing import driver as module
    elif name in _LAWS:
        from liarsdice.testing import laws as module  # type: ignore[no-redef]
    elif name == "extra_variants":
        from liarsdice.testing import plugins as module  # type: ignore[no-redef]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


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
