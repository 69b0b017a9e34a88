"""The bridge by name: ``pyspiel.load_game("python_liarsdice", {...})``.

Registered with OpenSpiel when :mod:`liarsdice.openspiel` is imported, so that anything that loads
games by name (OpenSpiel's own tools, shimmy's ``OpenSpielCompatibilityV0``, a game string such as
``python_liarsdice(players=3,dice=2,preset=dudo)``) plays a liarsdice ruleset. The parameters are
OpenSpiel's scalars, all of them in :data:`PARAMETERS`:

- ``players``, ``dice``: the table (each player's starting dice);
- ``preset``: a preset's name (``liarsdice presets``), or empty;
- ``variants``: variants added to the preset's, joined by ``+`` (``wild-sixes+dice-loss``);
- ``options``: options as ``name:value`` joined by ``;`` (``calza.reward:regain-die;chips.start:5``),
  over the preset's.

With neither a preset nor variants, the rules are OpenSpiel's ``liars_dice`` played over a whole
game: :data:`DEFAULT_VARIANTS`. As OpenSpiel's own games, a game loaded by name is not refused for
its size (:func:`~liarsdice.openspiel.load` with ``max_info_states=None``): a reinforcement
learner plays 6 x 5 tables that no tabular algorithm could hold. A bad value raises the error
:meth:`Ruleset.build` or :func:`liarsdice.openspiel.load` raises, naming the variant or option.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyspiel

from liarsdice.openspiel.game import GAME_TYPE, LiarsDiceGame, load
from liarsdice.ruleset import Ruleset

PARAMETERS: dict[str, int | str] = {
    "players": 2,
    "dice": 1,
    "preset": "",
    "variants": "",
    "options": "",
}
"""Every parameter the registered game takes, with its default."""

DEFAULT_VARIANTS = ("wild-sixes", "dice-loss")
"""The variants played when the parameters name neither a preset nor variants."""


def rules_of(parameters: Mapping[str, object]) -> Ruleset:
    """The ruleset the ``preset``, ``variants`` and ``options`` parameters name."""
    preset = str(parameters.get("preset", "")) or None
    variants = [name for name in str(parameters.get("variants", "")).split("+") if name]
    options = {}
    for pair in filter(None, str(parameters.get("options", "")).split(";")):
        name, sep, value = pair.partition(":")
        if not sep or not name:
            raise ValueError(f"python_liarsdice: option {pair!r} is not name:value")
        options[name.strip()] = value.strip()
    if preset is None and not variants:
        variants = list(DEFAULT_VARIANTS)
    return Ruleset.build(variants, options, preset)


def game_of(parameters: Mapping[str, object]) -> LiarsDiceGame:
    """The game ``pyspiel.load_game("python_liarsdice", parameters)`` gives."""
    given = {**PARAMETERS, **parameters}
    players, dice = given["players"], given["dice"]
    if not isinstance(players, int) or not isinstance(dice, int):
        raise ValueError(
            f"python_liarsdice: players and dice are numbers, not {players!r}, {dice!r}"
        )
    return load(rules_of(given), players, dice, max_info_states=None)


class _Creator:
    """What OpenSpiel's registry calls: ``_Creator(parameters)`` is :func:`game_of`'s game.

    A class, as OpenSpiel's own Python games register, not a function: the registry is a C++
    static that outlives the interpreter, and a function it holds the last reference to is freed
    at exit without the GIL (a fatal error, seen once TextArena or PyTorch was loaded); a class
    is never freed, being in a reference cycle of its own."""

    def __new__(cls, parameters: Mapping[str, object]) -> LiarsDiceGame:  # type: ignore[misc]
        return game_of(parameters)


def register() -> None:
    """Register the game with OpenSpiel (once; importing :mod:`liarsdice.openspiel` does it)."""
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, _Creator)
