"""Two-player endgames solved exactly for the rules in force: near-Nash policies by CFR+.

When two players are left with few dice, :func:`solve` builds every round the game can still
reach from the rules alone (the engine's deal, legal moves and rulings), solves them by CFR+ and
gives an :class:`Endgame`: each round's policy, the game's value and the exploitability. A bot
asks :meth:`Endgame.policy` with its :class:`~liarsdice.views.PlayerView` (``solve`` takes the
view too). :func:`solvable` says quickly whether an endgame can be taken on, and
:class:`Unsolvable` why one could not. Solutions are kept in this process and on disk
(:mod:`liarsdice.endgame.store`), so a game waits for a solution once; :func:`cached` never
solves, for a live game that must not wait at all.

An endgame is identified up to the players' names: it is solved and kept with the players
renamed ``P0``, ``P1``, ... by seat (:func:`~liarsdice.endgame.names.renaming`), so one solution
serves every table with the same rules and the same public start whoever sits there (the same
seat order, dice, opener and public plugin state, the names in that state renamed too). Callers
pass their own states and views and get their own names back: in :meth:`Endgame.policy`'s
actions, :attr:`Endgame.players`, :meth:`Endgame.value` and the reasons of :class:`Unsolvable`;
the endgame's ``start``, ``rounds`` and ``estimated`` are in the canonical names. Where plugin
state holds a name in a way that cannot be renamed safely (inside a longer string, say), that
start is solved under the real names: correct, but shared only by tables with those names.

The modules, from the bottom: :mod:`~liarsdice.endgame.draws` (randomness the solver follows or
refuses), :mod:`~liarsdice.endgame.rounds` (a round's public tree from the engine, and its
assumptions), :mod:`~liarsdice.endgame.names` (the players renamed by seat),
:mod:`~liarsdice.endgame.arrays` (a round's tree compiled into numpy arrays, and the passes over
it), :mod:`~liarsdice.endgame.cfr` (CFR+, values, best responses),
:mod:`~liarsdice.endgame.solution` (the published policy and its lookup),
:mod:`~liarsdice.endgame.graph` (the rounds an endgame reaches, and their order),
:mod:`~liarsdice.endgame.sweep` (solving them, cycles included), :mod:`~liarsdice.endgame.store`
(the caches) and :mod:`~liarsdice.endgame.solving` (the way in). Beside them,
:mod:`~liarsdice.endgame.response` measures any policies (a bot's, a solved endgame's) by exact
best responses over whole two-player games, :mod:`~liarsdice.endgame.lastbid` solves heads-up
rounds on the last bid, :mod:`~liarsdice.endgame.exact` keeps solved rounds compact, and
:mod:`~liarsdice.endgame.book` keeps both for a ruleset, built once by a command.
"""

from __future__ import annotations

from liarsdice.endgame.book import Book
from liarsdice.endgame.graph import Limits
from liarsdice.endgame.rounds import Unsolvable
from liarsdice.endgame.solution import Endgame, SolvedRound
from liarsdice.endgame.solving import Verdict, cached, default_store, solvable, solve
from liarsdice.endgame.store import Store

__all__ = [
    "Book",
    "Endgame",
    "Limits",
    "SolvedRound",
    "Store",
    "Unsolvable",
    "Verdict",
    "cached",
    "default_store",
    "solvable",
    "solve",
]
