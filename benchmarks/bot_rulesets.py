"""The rulesets the bot benchmarks play (``exploiters.py``, ``full_tables.py``), by name."""

from __future__ import annotations

from liarsdice.ruleset import Ruleset

NAMES = ["dudo", "perudo", "casino", "dice-loss"]


def ruleset(name: str, players: int = 2) -> Ruleset:
    """The preset ``name`` at ``players`` x 5, or for ``dice-loss`` the baseline with dice loss
    alone."""
    if name == "dice-loss":
        return Ruleset.build(["dice-loss"])
    return Ruleset.build(preset=name, players=players, dice_per_player=5)
