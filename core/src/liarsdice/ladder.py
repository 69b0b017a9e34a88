"""The bid ladder of a ruleset: every bid ranked, sorted and cached, and the move limit it sets.

:class:`BidLadder` asks ``liarsdice_bid_rank`` once per bid and ``liarsdice_game_limit`` once
per table size; :class:`~liarsdice.ruleset.Ruleset` hands its methods out under the same names
(``rules.rank`` is :meth:`BidLadder.rank` itself, the engine's call per bid).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence

import pluggy

from liarsdice.bidkinds import COUNT_OF_FACE, BidKind
from liarsdice.contracts import call_one
from liarsdice.dispatch import Hooks
from liarsdice.limits import MoveLimit, combine
from liarsdice.models import JSON, Bid, RankKey

__all__ = ["BidLadder"]


class BidLadder:
    """The bids of a ruleset in rank order, by ``hooks.bid_rank``, and its move limits, by the
    ``liarsdice_game_limit`` answers of the plugins ``asked`` (by name, in order) of ``pm``
    with ``options``; the bids are those of ``kind`` (:mod:`liarsdice.bidkinds`). Every answer is
    kept: ranks depend on the bid and the options only."""

    def __init__(
        self,
        hooks: Hooks,
        pm: pluggy.PluginManager,
        options: Mapping[str, JSON],
        asked: Sequence[str],
        kind: BidKind = COUNT_OF_FACE,
    ) -> None:
        self.hooks = hooks
        self.kind = kind
        self.pm = pm
        self.options = options
        self.asked = tuple(asked)
        self._ladders: dict[tuple[int, frozenset[int]], tuple[list[RankKey], list[Bid]]] = {}
        self._ranks: dict[Bid, RankKey] = {}
        self._limits: dict[tuple[int, int], MoveLimit] = {}

    def ladder(
        self, dice_in_play: int, refused: frozenset[int] = frozenset()
    ) -> tuple[list[RankKey], list[Bid]]:
        """Every bid of the ruleset's kind with ``dice_in_play`` dice on the table (for the
        baseline's: quantity 1..``dice_in_play``, any face) whose face is not in ``refused``
        (for a kind that names faces), sorted by rank: (rank keys, bids)."""
        key = (dice_in_play, refused)
        if key not in self._ladders:
            rank = self.rank
            kind = self.kind
            found = kind.bids(dice_in_play)
            if refused and kind.names_faces:
                found = (bid for bid in found if bid.face not in refused)
            bids = sorted(found, key=rank)
            self._ladders[key] = ([rank(bid) for bid in bids], bids)
        return self._ladders[key]

    def rank(self, bid: Bid) -> RankKey:
        """``liarsdice_bid_rank`` of ``bid``, asked once per bid: a rank depends on the bid and
        the options only (the hook's contract), and the bids that reach it are the valid ones."""
        found = self._ranks.get(bid)
        if found is None:
            found = self._ranks[bid] = self.hooks.bid_rank(bid)
        return found

    def move_limit(self, players: int, dice_per_player: int) -> MoveLimit:
        """The most moves (accepted bids, calls and timeouts) a game of these rules may take at a
        table of ``players`` x ``dice_per_player``, and how that number follows from the plugins'
        ``liarsdice_game_limit`` answers (see :mod:`liarsdice.limits`). A game with no winner
        after ``move_limit(...).moves`` moves is stuck."""
        if players < 1 or dice_per_player < 1:
            raise ValueError(f"no table of {players} players x {dice_per_player} dice")
        key = (players, dice_per_player)
        if key not in self._limits:
            answers = [
                (
                    name,
                    call_one(
                        name,
                        self.pm,
                        "liarsdice_game_limit",
                        players=players,
                        dice_per_player=dice_per_player,
                        options=self.options,
                    ),
                )
                for name in self.asked
            ]
            ladder = len(self.ladder(players * dice_per_player)[1])
            self._limits[key] = combine(players, dice_per_player, ladder, answers)
        return self._limits[key]

    def bids_above(self, bid: Bid | None, dice_in_play: int) -> list[Bid]:
        """Bids of the ladder that rank above ``bid`` (all of them when ``bid`` is None)."""
        keys, bids = self.ladder(dice_in_play)
        if bid is None:
            return bids
        return bids[bisect.bisect_right(keys, self.rank(bid)) :]
