"""What one player may see. The only place hidden information is filtered.

A view holds the viewer's own dice, everyone's dice counts and public plugin facts, the bids, and —
only once a call has lifted the cups — every roll of that round. Plugin state is public by contract
(see :mod:`liarsdice.hookspecs`), so it is passed through.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from liarsdice.models import JSON, GameState, PlacedBid, PlayerState, Resolution, RoundState
from liarsdice.ruleset import Ruleset


@attrs.frozen
class SeatView:
    """A seat as everyone sees it: dice count, whether still in, public plugin facts (bullets...)."""

    name: str
    dice: int
    alive: bool
    public: Mapping[str, JSON]


@attrs.frozen
class PlayerView:
    """The game as ``viewer`` sees it (``viewer`` is ``None`` for a spectator)."""

    viewer: str | None
    seats: tuple[SeatView, ...]
    dice_per_player: int
    dice_in_play: int
    round: int
    opener: str | None
    turn: str | None
    bids: tuple[PlacedBid, ...]
    own_dice: tuple[int, ...] | None
    revealed: Mapping[str, tuple[int, ...]] | None
    resolution: Resolution | None
    next_opener: str | None
    winner: str | None
    plugins: Mapping[str, Mapping[str, JSON]]


def public_facts(rules: Ruleset, state: GameState, player: str) -> dict[str, JSON]:
    """Public per-player facts contributed by plugins (``{"bullets": 2}`` under the revolver)."""
    facts: dict[str, JSON] = {}
    for part in rules.hooks.player_public(state, player):
        facts.update(part)
    return facts


def player_view(rules: Ruleset, state: GameState, viewer: str | None) -> PlayerView:
    """The view of ``state`` for ``viewer``: their own dice only, until a call reveals all."""
    round_ = state.round
    seats = tuple(
        SeatView(p.name, p.dice, p.alive, public_facts(rules, state, p.name)) for p in state.players
    )
    resolution = round_.resolution if round_ else None
    revealed = round_.rolls if round_ and resolution and resolution.count is not None else None
    own = round_.rolls.get(viewer) if round_ and viewer is not None else None
    return PlayerView(
        viewer=viewer,
        seats=seats,
        dice_per_player=state.dice_per_player,
        dice_in_play=state.dice_in_play,
        round=round_.number if round_ else 0,
        opener=round_.opener if round_ else None,
        turn=round_.turn if round_ and not round_.over and not state.over else None,
        bids=round_.bids if round_ else (),
        own_dice=own,
        revealed=dict(revealed) if revealed is not None else None,
        resolution=resolution,
        next_opener=state.next_opener,
        winner=state.winner,
        plugins=state.plugins,
    )


def view_state(view: PlayerView) -> GameState:
    """A game state rebuilt from ``view`` alone, for code that must not see hidden dice (bots).

    Other players' rolls are replaced by dice showing 0, which match no face: their number is
    public, their faces are not. Hooks that only read public facts (counting rules, bid rules)
    answer on it exactly as on the real state.
    """
    rolls = {
        seat.name: (
            view.own_dice if seat.name == view.viewer and view.own_dice else (0,) * seat.dice
        )
        for seat in view.seats
        if seat.alive
    }
    players = tuple(PlayerState(seat.name, seat.dice, seat.alive) for seat in view.seats)
    round_ = None
    if view.round:
        assert view.opener is not None
        round_ = RoundState(
            number=view.round,
            opener=view.opener,
            rolls=dict(view.revealed) if view.revealed is not None else rolls,
            dice_in_play=view.dice_in_play,
            turn=view.turn or view.opener,
            bids=view.bids,
            resolution=view.resolution,
        )
    return GameState(
        players=players,
        dice_per_player=view.dice_per_player,
        round=round_,
        next_opener=view.next_opener,
        winner=view.winner,
        plugins=view.plugins,
    )
