"""Fold events into game state. Pure functions, no rules: the rules decide which events happen.

``apply_event`` raises :class:`InvalidEvent` when an event cannot apply to the state it is given (a
plugin returned an effect that would break an invariant, or an event log was tampered with).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
    DiceRerolled,
    DiceShown,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    Notice,
    OpenerChosen,
    PluginStateSet,
    PrivateStateSet,
    RoundResolved,
    RoundStarted,
    TimedOut,
    TurnPassed,
)
from liarsdice.models import GameState, PlacedBid, PlayerState, Resolution, RoundState, remove_dice

_KEEP: Any = object()


class InvalidEvent(ValueError):
    """An event does not fit the state it was applied to."""


def _round(state: GameState) -> RoundState:
    round_ = state.round
    if round_ is None or round_.resolution is not None:
        raise InvalidEvent("no round is being played")
    return round_


def _with(
    state: GameState,
    *,
    players: tuple[PlayerState, ...] | None = None,
    round: RoundState | None = None,
    next_opener: str | None = _KEEP,
    winner: str | None = None,
    plugins: Mapping[str, Mapping[str, Any]] | None = None,
) -> GameState:
    """``state`` with the named fields replaced (a fast ``attrs.evolve``)."""
    return GameState(
        state.players if players is None else players,
        state.dice_per_player,
        state.round if round is None else round,
        state.next_opener if next_opener is _KEEP else next_opener,
        state.winner if winner is None else winner,
        state.plugins if plugins is None else plugins,
    )


def _with_round(state: GameState, round_: RoundState) -> GameState:
    """``state`` with ``round_`` in place of its round (the hot path: every bid)."""
    return GameState(
        state.players, state.dice_per_player, round_, state.next_opener, state.winner, state.plugins
    )


def _with_player(state: GameState, seat: int, player: PlayerState) -> GameState:
    """``state`` with ``player`` in seat ``seat`` (0-based)."""
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return _with(state, players=players)


def _game_started(_: GameState | None, event: GameStarted) -> GameState:
    players = tuple(PlayerState(name, event.dice_per_player) for name in event.players)
    return GameState(players=players, dice_per_player=event.dice_per_player)


_FACES = frozenset(range(1, 7))


def _round_started(state: GameState, event: RoundStarted) -> GameState:
    strangers = set(event.rolls).difference(player.name for player in state.players)
    if strangers:
        raise InvalidEvent(f"rolls for {', '.join(sorted(strangers))}, who are not at the table")
    for player in state.players:
        roll = event.rolls.get(player.name)
        expected = player.dice if player.alive else None
        if (roll is None and expected) or (roll is not None and len(roll) != expected):
            raise InvalidEvent(f"{player.name} must roll {expected or 0} dice")
        if roll and not _FACES.issuperset(roll):
            raise InvalidEvent(f"{player.name}'s roll {list(roll)} has a face outside 1-6")
    dice = sum(map(len, event.rolls.values()))
    round_ = RoundState(event.number, event.opener, event.rolls, dice, turn=event.opener)
    return _with(state, round=round_, next_opener=None)


def _round_with(
    current: RoundState,
    *,
    turn: str | None = None,
    bids: tuple[PlacedBid, ...] | None = None,
    resolution: Resolution | None = None,
    rolls: Mapping[str, tuple[int, ...]] | None = None,
    shown: Mapping[str, tuple[int, ...]] | None = None,
    private: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
) -> RoundState:
    """``current`` with the named fields replaced (a fast ``attrs.evolve``)."""
    return RoundState(
        current.number,
        current.opener,
        current.rolls if rolls is None else rolls,
        current.dice_in_play,
        current.turn if turn is None else turn,
        current.bids if bids is None else bids,
        current.resolution if resolution is None else resolution,
        current.shown if shown is None else shown,
        current.private if private is None else private,
    )


def _bid_made(state: GameState, event: BidMade) -> GameState:
    current = _round(state)
    round_ = RoundState(  # spelt out: the hot path, every bid
        current.number,
        current.opener,
        current.rolls,
        current.dice_in_play,
        state.next_alive(event.player),
        (*current.bids, PlacedBid(event.player, event.bid)),
        None,
        current.shown,
        current.private,
    )
    return _with_round(state, round_)


def _turn_passed(state: GameState, event: TurnPassed) -> GameState:
    current = _round(state)
    if not state.player(event.player).alive:
        raise InvalidEvent(f"{event.player} is out and cannot take the turn")
    return _with_round(state, _round_with(current, turn=event.player))


def _unchanged(state: GameState, _: Event) -> GameState:
    return state


def _round_resolved(state: GameState, event: RoundResolved) -> GameState:
    current = _round(state)
    return _with_round(state, _round_with(current, resolution=event.resolution))


def _hidden(state: GameState, player: str) -> tuple[RoundState, tuple[int, ...]]:
    current = _round(state)
    if player not in current.rolls:
        raise InvalidEvent(f"{player} holds no dice this round")
    return current, current.hidden(player)


def _dice_shown(state: GameState, event: DiceShown) -> GameState:
    current, hidden = _hidden(state, event.player)
    try:
        remove_dice(hidden, event.dice)
    except ValueError:
        raise InvalidEvent(
            f"{event.player} cannot show {list(event.dice)}: their hidden dice are {list(hidden)}"
        ) from None
    shown = {**current.shown, event.player: (*current.shown.get(event.player, ()), *event.dice)}
    return _with_round(state, _round_with(current, shown=shown))


def _dice_rerolled(state: GameState, event: DiceRerolled) -> GameState:
    current, hidden = _hidden(state, event.player)
    if len(event.faces) != len(event.dice) or not _FACES.issuperset(event.faces):
        raise InvalidEvent(
            f"rerolling {list(event.dice)} must give as many faces 1-6, not {list(event.faces)}"
        )
    try:
        remove_dice(hidden, event.dice)
    except ValueError:
        raise InvalidEvent(
            f"{event.player} cannot reroll {list(event.dice)}: their hidden dice are {list(hidden)}"
        ) from None
    kept = remove_dice(current.rolls[event.player], event.dice)
    rolls = {**current.rolls, event.player: (*kept, *event.faces)}
    return _with_round(state, _round_with(current, rolls=rolls))


def _private_state_set(state: GameState, event: PrivateStateSet) -> GameState:
    current = _round(state)
    if event.player not in current.rolls:
        raise InvalidEvent(f"{event.player} is not playing this round")
    mine = current.private.get(event.plugin, {})
    own = {**mine.get(event.player, {}), event.key: event.value}
    private = {**current.private, event.plugin: {**mine, event.player: own}}
    return _with_round(state, _round_with(current, private=private))


def _dice_changed(state: GameState, event: DiceChanged) -> GameState:
    seat = state.seat(event.player)
    player = state.players[seat]
    dice = player.dice + event.delta
    if not player.alive or not 0 <= dice <= state.dice_per_player:
        raise InvalidEvent(
            f"{event.player} cannot go from {player.dice} to {dice} dice "
            f"(alive={player.alive}, starting count {state.dice_per_player}): {event.reason}"
        )
    return _with_player(state, seat, PlayerState(player.name, dice, player.alive))


def _eliminated(state: GameState, event: Eliminated) -> GameState:
    seat = state.seat(event.player)
    if not state.players[seat].alive:
        raise InvalidEvent(f"{event.player} is already out")
    return _with_player(state, seat, PlayerState(event.player, 0, False))


def _plugin_state_set(state: GameState, event: PluginStateSet) -> GameState:
    plugins = dict(state.plugins)
    plugins[event.plugin] = {**state.plugins.get(event.plugin, {}), event.key: event.value}
    return _with(state, plugins=plugins)


def _opener_chosen(state: GameState, event: OpenerChosen) -> GameState:
    if not state.player(event.player).alive:
        raise InvalidEvent(f"{event.player} is out and cannot open")
    return _with(state, next_opener=event.player)


def _game_won(state: GameState, event: GameWon) -> GameState:
    return _with(state, winner=event.player, next_opener=None)


_HANDLERS: dict[type, Callable[[Any, Any], GameState]] = {
    GameStarted: _game_started,
    RoundStarted: _round_started,
    BidMade: _bid_made,
    CallMade: _unchanged,
    TurnPassed: _turn_passed,
    TimedOut: _unchanged,
    Notice: _unchanged,
    RoundResolved: _round_resolved,
    DiceChanged: _dice_changed,
    Eliminated: _eliminated,
    PluginStateSet: _plugin_state_set,
    PrivateStateSet: _private_state_set,
    DiceShown: _dice_shown,
    DiceRerolled: _dice_rerolled,
    OpenerChosen: _opener_chosen,
    GameWon: _game_won,
}


def apply_event(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``. Only :class:`GameStarted` may apply to ``None``."""
    if state is None and not isinstance(event, GameStarted):
        raise InvalidEvent("a game must start with GameStarted")
    return _HANDLERS[type(event)](state, event)


def replay(events: Iterable[Event]) -> GameState:
    """Rebuild a game's state from its full event log."""
    state: GameState | None = None
    for event in events:
        state = apply_event(state, event)
    if state is None:
        raise InvalidEvent("an empty event log has no state")
    return state
