"""What each player has seen so far: the record of every step, and a view written as one line.

A :class:`Record` is one step of the game (seating the table, a deal, a move), chained to the
step before it. Its line for a viewer is the step as they saw it (who moved and what, with the
payload only for its own player; ``seated``, ``dealt``), then their view after it
(:func:`views.player_view <liarsdice.views.player_view>`, written by :func:`view_text`). A
player's information state is the lines of every step since the root: everything they have been
shown, in order, and nothing else, so two histories they cannot tell apart give the same text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from liarsdice.models import JSON, GameState
from liarsdice.openspiel.actions import Move, move_text
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import to_data
from liarsdice.views import PlayerView, player_view


def _dice(dice: Iterable[int]) -> str:
    return "".join(map(str, dice)) or "-"


def _json(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def view_text(view: PlayerView, *, bids: bool) -> str:
    """``view`` on one line: the round and its opener, each seat (dice, out, dice face up,
    public facts), the viewer's own dice (``?`` when hidden from them), the rolls they see,
    the bids of the round if ``bids``, who is on turn, the lifted rolls and the ruling, the
    next opener, public and private plugin state, the winners. The viewer and the table are
    left out: they do not change."""
    parts = [f"round {view.round}"]
    if view.opener is not None:
        parts.append(f"opener {view.opener}")
    for seat in view.seats:
        text = f"{seat.name} {seat.dice}{'' if seat.alive else ' out'}"
        text += f" up {_dice(seat.shown)}" if seat.shown else ""
        text += f" {_json(seat.public)}" if seat.public else ""
        parts.append(text)
    parts.append("own " + ("?" if view.own_dice is None else _dice(view.own_dice)))
    parts += [f"sees {name} {_dice(roll)}" for name, roll in sorted(view.seen.items())]
    if bids and view.bids:
        parts.append("bids " + ", ".join(f"{placed.player} {placed.bid}" for placed in view.bids))
    if view.turn is not None:
        parts.append(f"turn {view.turn}")
    if view.revealed is not None:
        parts.append("lifted " + " ".join(f"{n} {_dice(r)}" for n, r in view.revealed.items()))
    if view.resolution is not None:
        parts.append(f"ruling {_json(to_data(view.resolution))}")
    if view.next_opener is not None:
        parts.append(f"next {view.next_opener}")
    if view.plugins:
        parts.append(f"plugins {_json(view.plugins)}")
    if view.private:
        parts.append(f"private {_json(view.private)}")
    if view.winners:
        parts.append("won by " + " ".join(view.winners))
    return "; ".join(parts)


class Record:
    """One step: the state after it, the move made (``None`` for a step of chance alone, named
    by ``label``), and the record before it (``None`` at the root). Immutable; each viewer's
    line is written once, when first asked for."""

    __slots__ = ("_lines", "label", "move", "parent", "state")

    def __init__(
        self, parent: Record | None, state: GameState | None, move: Move | None, label: str
    ) -> None:
        self.parent = parent
        self.state = state
        self.move = move
        self.label = label
        self._lines: dict[str | None, str] = {}

    @classmethod
    def root(cls, state: GameState | None) -> Record:
        """The first record: before the table is seated (``None``), or a given state."""
        return cls(None, state, None, "root" if state is not None else "start")

    def then(self, state: GameState, move: Move | None, label: str = "") -> Record:
        """The record of the next step, which left ``state``."""
        return Record(self, state, move, label)

    def __deepcopy__(self, memo: object) -> Record:  # immutable: clones share it
        return self

    def line(self, rules: Ruleset, viewer: str | None) -> str:
        """This step as ``viewer`` (``None``: a spectator) saw it."""
        found = self._lines.get(viewer)
        if found is None:
            move = self.move
            if move is None:
                found = self.label
            else:
                found = f"{move.player}: {move_text(move, payload=viewer == move.player)}"
            if self.state is not None:
                found += " | " + view_text(player_view(rules, self.state, viewer), bids=False)
            self._lines[viewer] = found
        return found

    def text(self, rules: Ruleset, viewer: str | None) -> str:
        """Every step since the root as ``viewer`` saw it, one line each, after a line naming
        the viewer."""
        lines = []
        record: Record | None = self
        while record is not None:
            lines.append(record.line(rules, viewer))
            record = record.parent
        lines.append(f"seat {viewer}" if viewer is not None else "spectator")
        return "\n".join(reversed(lines))
