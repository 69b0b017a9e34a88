"""What one player may see: the only place where hidden information is filtered.

A view holds the dice under the cups the viewer sees (their own, unless the rules hide it; others'
where the rules show them: ``liarsdice_dice_visible``, recorded as the round starts), everyone's
dice counts, the dice each player has put face up, public plugin facts, the bids, the viewer's own
private plugin state, and — only once a call has lifted the cups — every roll and every player's
private state of that round. Public plugin state is
public by contract (see :mod:`liarsdice.hookspecs`), so it is passed through.
:func:`public_events` applies the same filter to the event log, for a table that streams events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

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
from liarsdice.models import (
    JSON,
    GameState,
    PlacedBid,
    PlayerState,
    Resolution,
    RoundState,
    Sight,
    sight_of,
)
from liarsdice.ruleset import Ruleset


@attrs.frozen
class SeatView:
    """A seat as everyone sees it: dice count, whether still in, public plugin facts (bullets...),
    and the dice this player has put face up this round."""

    name: str
    dice: int
    alive: bool
    public: Mapping[str, JSON]
    shown: tuple[int, ...] = ()


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
    """The viewer's own roll, or ``None`` (a spectator, no round, or the rules hide it from
    them until the cups are lifted)."""
    revealed: Mapping[str, tuple[int, ...]] | None
    resolution: Resolution | None
    next_opener: str | None
    winner: str | None
    """The game's one winner (``None`` while it goes on, or when several won: see ``winners``)."""
    plugins: Mapping[str, Mapping[str, JSON]]
    private: Mapping[str, Mapping[str, Mapping[str, JSON]]] = attrs.field(factory=dict)
    """Private plugin state, shaped as ``RoundState.private`` (``[plugin][player]``): the
    viewer's own entries only, or every player's once the cups are lifted."""
    seen: Mapping[str, tuple[int, ...]] = attrs.field(factory=dict)
    """The rolls of the other players whose dice under the cup the rules let the viewer see,
    before the cups are lifted (``liarsdice_dice_visible``; empty by default)."""
    winners: tuple[str, ...] = ()
    """Everyone who won the game, once it is over (one player, or a whole team)."""

    @property
    def known_dice(self) -> tuple[int, ...]:
        """Every die the viewer can see: their own roll (unless the rules hide it), then each
        other seat's roll if the rules show it, else its dice face up (all of them once the cups
        are lifted)."""
        if self.revealed is not None:
            return tuple(die for roll in self.revealed.values() for die in roll)
        rolls = self.rolls_seen
        mine = [seat for seat in self.seats if seat.name == self.viewer]
        others = [seat for seat in self.seats if seat.name != self.viewer]
        return tuple(die for seat in (*mine, *others) for die in rolls.get(seat.name, seat.shown))

    @property
    def rolls_seen(self) -> dict[str, tuple[int, ...]]:
        """The whole rolls the viewer sees under the cups, by player: ``seen`` and their own."""
        rolls = dict(self.seen)
        if self.viewer is not None and self.own_dice is not None:
            rolls[self.viewer] = self.own_dice
        return rolls


def public_facts(rules: Ruleset, state: GameState, player: str) -> dict[str, JSON]:
    """Public per-player facts contributed by plugins (``{"bullets": 2}`` under the revolver)."""
    facts: dict[str, JSON] = {}
    for part in rules.hooks.player_public(state, player):
        facts.update(part)
    return facts


def _own_private(
    private: Mapping[str, Mapping[str, Mapping[str, JSON]]], viewer: str | None
) -> dict[str, dict[str, Mapping[str, JSON]]]:
    return {
        plugin: {viewer: players[viewer]}
        for plugin, players in private.items()
        if viewer is not None and viewer in players
    }


def player_view(rules: Ruleset, state: GameState, viewer: str | None) -> PlayerView:
    """The view of ``state`` for ``viewer``: their own dice and secrets only, and the dice shown
    face up, until a call reveals all."""
    round_ = state.round
    shown = round_.shown if round_ else {}
    seats = tuple(
        SeatView(p.name, p.dice, p.alive, public_facts(rules, state, p.name), shown.get(p.name, ()))
        for p in state.players
    )
    resolution = round_.resolution if round_ else None
    lifted = round_ is not None and round_.lifted
    revealed = round_.rolls if round_ and lifted else None
    sees = round_.sees(viewer) if round_ else frozenset()
    own = (
        round_.rolls.get(viewer)
        if round_ and viewer is not None and (lifted or viewer in sees)
        else None
    )
    seen = (
        {name: roll for name, roll in round_.rolls.items() if name in sees and name != viewer}
        if round_ and not lifted and round_.sights
        else {}
    )
    private = round_.private if round_ else {}
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
        private=dict(private) if lifted else _own_private(private, viewer),
        seen=seen,
        winners=state.winners,
    )


def view_state(view: PlayerView) -> GameState:
    """A game state rebuilt from ``view`` alone, for code that must not see hidden dice (bots).

    The dice the viewer may not see are replaced by dice showing 0, which match no face: their
    number is public, their faces are not; dice shown face up and the rolls the viewer sees are
    kept. Only the viewer's own private state is there, and only the viewer's sight
    (``RoundState.sees``) where the rules change it. Hooks that only read public facts (counting
    rules, bid rules) answer on it exactly as on the real state.
    """
    visible = view.rolls_seen
    rolls = {
        seat.name: visible.get(seat.name) or (*seat.shown, *(0,) * (seat.dice - len(seat.shown)))
        for seat in view.seats
        if seat.alive
    }
    shown = {seat.name: seat.shown for seat in view.seats if seat.shown}
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
            shown=shown,
            private=view.private,
            sights=_own_sight(view),
        )
    return GameState(
        players=players,
        dice_per_player=view.dice_per_player,
        round=round_,
        next_opener=view.next_opener,
        winners=view.winners,
        plugins=view.plugins,
    )


def _own_sight(view: PlayerView) -> tuple[Sight, ...]:
    """The viewer's sight, as the round records it: nothing when it is the default."""
    if view.viewer is None or view.revealed is not None:
        return ()
    owners = (*(() if view.own_dice is None else (view.viewer,)), *view.seen)
    return () if owners == (view.viewer,) else (Sight(view.viewer, owners),)


HIDDEN_DIE = 0
"""A die the viewer may not see, in :func:`public_events` (as in :func:`view_state`): it matches no
face, and it keeps the count of the dice it stands for."""


def _lifted_rounds(events: Iterable[Event]) -> set[int]:
    """The numbers of the rounds in ``events`` whose cups a call has lifted."""
    lifted: set[int] = set()
    number = 0
    for event in events:
        if isinstance(event, RoundStarted):
            number = event.number
        elif isinstance(event, RoundResolved) and event.resolution.count is not None:
            lifted.add(number)
    return lifted


def _hidden(dice: tuple[int, ...]) -> tuple[int, ...]:
    return (HIDDEN_DIE,) * len(dice)


def public_events(events: Sequence[Event], viewer: str | None) -> list[Event]:
    """The event log ``events`` as ``viewer`` (a player's name, ``None`` for a spectator) may see
    it: what :func:`player_view` would let them know, event by event.

    The result has one event per event of ``events``, of the same class, in the same order, and
    serialises like it (:mod:`liarsdice.serialization`). Until a call lifts the cups of a round
    (a :class:`RoundResolved` whose ``count`` is not ``None``; a timeout lifts nothing), the
    events of that round hide from the viewer:

    - the dice of every player whose dice under the cup the viewer does not see (everyone else,
      by default; the round's ``sights`` may say otherwise, the viewer's own included) in
      :class:`RoundStarted` ``rolls`` and both ``dice`` and ``faces`` of their
      :class:`DiceRerolled`: each die becomes :data:`HIDDEN_DIE` (0), so the number of dice each
      player holds stays readable;
    - every other player's :class:`PrivateStateSet`: ``key`` becomes ``""`` and ``value``
      ``None`` (only the plugin and the player stay).

    Once the cups of a round are lifted, its events are given as they are: every roll and
    secret of that round is public. The payload of another player's :class:`BidMade` or
    :class:`CallMade` is always replaced by ``{}``: views never carry payloads, and what a
    payload makes public reaches everyone through the effects it causes (:class:`DiceShown`).
    The dice the viewer sees, their own secrets and payloads, dice put face up, public plugin
    state and every other event are passed through unchanged.

    ``public_events(events[:n], viewer)`` is ``public_events(events, viewer)[:n]`` except where
    a lift in ``events[n:]`` has since revealed what was hidden: a table streaming a seat's events
    sends the new ones, and, on a lifting :class:`RoundResolved`, the round's events again (or
    the view's ``revealed`` rolls). No ruleset is needed: the log alone says what is public
    (each :class:`RoundStarted` carries who sees whose dice in its round).
    """
    lifted = _lifted_rounds(events)
    sees: frozenset[str] = frozenset()
    public: list[Event] = []
    secret = True
    for event in events:
        if type(event) in _OPEN:  # the fast path: most events hide nothing
            pass
        elif isinstance(event, RoundStarted):
            secret = event.number not in lifted
            sees = sight_of(event.sights, viewer)
            if secret:
                rolls = {
                    name: roll if name in sees else _hidden(roll)
                    for name, roll in event.rolls.items()
                }
                event = RoundStarted(event.number, event.opener, rolls, event.sights)
        elif isinstance(event, BidMade):
            if event.payload and event.player != viewer:
                event = BidMade(event.player, event.bid)
        elif isinstance(event, CallMade):
            if event.payload and event.player != viewer:
                event = CallMade(event.player, event.kind)
        elif secret and isinstance(event, DiceRerolled) and event.player not in sees:
            event = DiceRerolled(event.player, _hidden(event.dice), _hidden(event.faces))
        elif secret and isinstance(event, PrivateStateSet) and event.player != viewer:
            event = PrivateStateSet(event.plugin, event.player, "", None)
        public.append(event)
    return public


_OPEN = frozenset(
    {
        GameStarted,
        TurnPassed,
        TimedOut,
        RoundResolved,
        DiceChanged,
        Eliminated,
        PluginStateSet,
        DiceShown,
        Notice,
        OpenerChosen,
        GameWon,
    }
)
"""The events that never carry anything hidden."""
