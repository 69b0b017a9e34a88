"""The ``liarsdice`` command: variants, rules, rulings, simulations, odds, tournaments, authoring.

Bad input (an unreadable file, an unknown variant, a bad option) prints one line on stderr and
exits with status 2. So does a stuck ruleset: a game of ``simulate`` or ``tournament`` that reaches
the ruleset's move limit without a winner is stopped there (:class:`~liarsdice.limits.StuckGame`).

The group and its entry point are in :mod:`~liarsdice.cli.group`, what the commands share in
:mod:`~liarsdice.cli.shared`; the commands register on the group from their modules, which this
package imports: :mod:`~liarsdice.cli.rules` (``variants``, ``presets``, ``rules``,
``adjudicate``), :mod:`~liarsdice.cli.play` (``simulate``, ``odds``, ``tournament``),
:mod:`~liarsdice.cli.terminal` (``play``: a game in the terminal against bots) and
:mod:`~liarsdice.cli.authoring` (``new-variant``, ``catalog update|check``) and
:mod:`~liarsdice.cli.endgames` (``endgames build|show``: the hard bot's books). ``main`` is the
console script ``liarsdice``.
"""

from __future__ import annotations

from liarsdice.cli import arena, authoring, endgames, evaluate, play, rules, terminal
from liarsdice.cli.group import EXIT_BAD_INPUT, EXIT_STUCK, cli, main
from liarsdice.cli.shared import heading

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_STUCK",
    "arena",
    "authoring",
    "cli",
    "endgames",
    "evaluate",
    "heading",
    "main",
    "play",
    "rules",
    "terminal",
]
