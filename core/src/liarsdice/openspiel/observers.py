"""What a player observes, as OpenSpiel asks for it: strings and tensors made from their views only.

The information-state string is the record of every step as the player saw it
(:meth:`Record.text <liarsdice.openspiel.records.Record.text>`): complete, so tabular algorithms are
exact. The observation string is the player's view now, with the bids of the round. Both tensors
are the same fixed-shape picture of the round now, from the view:

- ``player``: the observing player, one-hot (``P`` players);
- ``dice``: every die the player sees, by seat and die (``P x D x 6``, one-hot faces): their own
  roll unless the rules hide it, the rolls the rules show them, the dice face up; all once lifted;
- ``counts``: the dice each seat holds, one-hot (``P x (D + 1)``);
- ``turn``: the player on turn, one-hot (``P``);
- ``bids``: the bids of this round, a bit per bid and bidder (``Q x 6 x P``);
- ``asked``: 1 when the player is asked whether they call out of turn (only where some call is).

Left out of the tensors (kept in the information-state string): earlier rounds, public and
private plugin state and facts (bullets...), a call that does not end the round, payloads.
A public observer (``private_info=NONE``) sees what a spectator sees; an observer of every
player's private information is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import pyspiel

from liarsdice.openspiel.play import Node, Table
from liarsdice.openspiel.records import view_text
from liarsdice.views import PlayerView, player_view


class Observed(Protocol):
    """A state of a bridged game, as an observer reads it."""

    @property
    def node(self) -> Node: ...

    @property
    def table(self) -> Table: ...


def _shapes(table: Table) -> dict[str, tuple[int, ...]]:
    players, dice = len(table.names), table.dice
    shapes = {
        "player": (players,),
        "dice": (players, dice, 6),
        "counts": (players, dice + 1),
        "turn": (players,),
        "bids": (table.space.bids // 6, 6, players),
    }
    if table.rules.out_of_turn:
        shapes["asked"] = (1,)
    return shapes


class Observer:
    """OpenSpiel's observer of a bridged game, for ``iig_obs_type``: ``tensor`` (with a view of
    each piece in ``dict``) is filled by :meth:`set_from`; :meth:`string_from` writes the
    string."""

    def __init__(
        self,
        table: Table,
        iig_obs_type: pyspiel.IIGObservationType,
        params: Mapping[str, Any] | None,
    ) -> None:
        if params:
            raise ValueError(f"a liarsdice observer takes no parameters, not {dict(params)!r}")
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "a liarsdice observer sees what one player (or a spectator) sees: public "
                "information, and one player's private information or none"
            )
        self._table = table
        self._private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._perfect_recall = iig_obs_type.perfect_recall
        shapes = _shapes(table)
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            sum(int(np.prod(shape)) for shape in shapes.values()), np.float32
        )
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def _viewer(self, player: int) -> str | None:
        return self._table.names[player] if self._private else None

    def set_from(self, state: Observed, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` observes in ``state``."""
        node = state.node
        view = (
            None
            if node.state is None
            else player_view(self._table.rules, node.state, self._viewer(player))
        )
        asked = bool(node.asking) and node.asking[0] == self._table.names[player]
        self.set_from_view(view, player, asked=asked)

    def set_from_view(self, view: PlayerView | None, player: int, *, asked: bool = False) -> None:
        """Fill :attr:`tensor` from ``view``, what seat ``player`` sees (``None`` before the
        table is seated); ``asked``: they are asked whether to call out of turn."""
        self.tensor.fill(0.0)
        pieces = self.dict
        pieces["player"][player] = 1.0
        if view is None:
            return
        names = [seat.name for seat in view.seats]  # seat order: the table's
        seen = view.revealed if view.revealed is not None else view.rolls_seen
        for seat, info in enumerate(view.seats):
            for die, face in enumerate(seen.get(info.name, info.shown)):
                pieces["dice"][seat, die, face - 1] = 1.0
            pieces["counts"][seat, info.dice] = 1.0
        if view.turn is not None:
            pieces["turn"][names.index(view.turn)] = 1.0
        for placed in view.bids:
            bid = placed.bid
            pieces["bids"][bid.quantity - 1, bid.face - 1, names.index(placed.player)] = 1.0
        if "asked" in pieces and asked:
            pieces["asked"][0] = 1.0

    def string_from(self, state: Observed, player: int) -> str:
        """What ``player`` observes in ``state``: every step so far (perfect recall), or their
        view now."""
        node, viewer = state.node, self._viewer(player)
        if self._perfect_recall:
            return node.history.text(self._table.rules, viewer)
        if node.state is None:
            return "start"
        return view_text(player_view(self._table.rules, node.state, viewer), bids=True)
