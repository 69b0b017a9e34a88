"""The law that the event log each viewer is sent hides what they may not see and matches their view.

Contract of :func:`public_events_hide_dice`: at every prefix of the log, for every seat and a
spectator, :func:`~liarsdice.views.public_events` leaks no hidden die, secret or payload; folded as
a client would, it tells what :func:`~liarsdice.views.player_view` does; it grows by appending
(except that a lift may reveal its round); and it survives a JSON round trip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
    PrivateStateSet,
    RoundResolved,
    RoundStarted,
)
from liarsdice.models import JSON, PlacedBid, Sight, remove_dice, sight_of
from liarsdice.reducer import Draft
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import dumps, loads, to_data
from liarsdice.testing.driver import Step, timeline
from liarsdice.testing.laws._common import HIDDEN, JSON_TRIP, LawViolation, at_step, difference
from liarsdice.views import HIDDEN_DIE, PlayerView, player_view, public_events


@attrs.define
class _Seen:
    """What a viewer learns by folding the events :func:`public_events` gives them, the way a
    client would: hidden dice stay 0s, hidden secrets (``key`` ``""``) are skipped."""

    dice: dict[str, tuple[int, bool]] = attrs.field(factory=dict)
    number: int = 0
    opener: str | None = None
    rolls: dict[str, tuple[int, ...]] = attrs.field(factory=dict)
    shown: dict[str, tuple[int, ...]] = attrs.field(factory=dict)
    private: dict[str, dict[str, dict[str, JSON]]] = attrs.field(factory=dict)
    bids: list[PlacedBid] = attrs.field(factory=list)
    lifted: bool = False
    sights: tuple[Sight, ...] = ()

    def fold(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            self.dice = {name: (event.dice_per_player, True) for name in event.players}
        elif isinstance(event, RoundStarted):
            self.number, self.opener, self.lifted = event.number, event.opener, False
            self.rolls, self.shown, self.private, self.bids = dict(event.rolls), {}, {}, []
            self.sights = event.sights
        elif isinstance(event, BidMade):
            self.bids.append(PlacedBid(event.player, event.bid))
        elif isinstance(event, RoundResolved):
            self.lifted = event.resolution.count is not None
        elif isinstance(event, DiceChanged):
            dice, alive = self.dice[event.player]
            self.dice[event.player] = (dice + event.delta, alive)
        elif isinstance(event, Eliminated):
            self.dice[event.player] = (0, False)
        elif isinstance(event, DiceShown):
            self.shown[event.player] = (*self.shown.get(event.player, ()), *event.dice)
        elif isinstance(event, DiceRerolled):
            kept = remove_dice(self.rolls[event.player], event.dice)
            self.rolls[event.player] = (*kept, *event.faces)
        elif isinstance(event, PrivateStateSet) and event.key != "":
            mine = self.private.setdefault(event.plugin, {}).setdefault(event.player, {})
            mine[event.key] = event.value

    def known(self, viewer: str | None) -> list[int]:
        """Every die the viewer can see, sorted: all of them once lifted, else the rolls the
        round's sights show them and the others' dice face up."""
        if self.lifted:
            return sorted(die for roll in self.rolls.values() for die in roll)
        sees = sight_of(self.sights, viewer)
        seen = [die for name in sees for die in self.rolls.get(name, ())]
        others = [die for name, dice in self.shown.items() if name not in sees for die in dice]
        return sorted(seen + others)


def _leak(event: Event, viewer: str | None, sees: frozenset[str]) -> str | None:
    """What ``event`` (from :func:`public_events`, in a round whose cups are not lifted and
    where ``viewer`` sees the dice of ``sees``) shows that ``viewer`` may not see, or ``None``."""
    if isinstance(event, RoundStarted):
        seen = {
            name: roll
            for name, roll in event.rolls.items()
            if name not in sees and any(die != HIDDEN_DIE for die in roll)
        }
        return f"the rolls {seen}" if seen else None
    if isinstance(event, DiceRerolled) and event.player not in sees:
        dice = (*event.dice, *event.faces)
        return f"{event}" if any(die != HIDDEN_DIE for die in dice) else None
    if isinstance(event, PrivateStateSet) and event.player != viewer:
        return f"{event}" if (event.key, event.value) != ("", None) else None
    return None


def _seen_problem(seen: _Seen, view: PlayerView) -> str | None:
    """Where what the viewer learns from the public events differs from their view."""
    dice = {seat.name: (seat.dice, seat.alive) for seat in view.seats}
    if seen.dice != dice:
        return f"dice counts {seen.dice} != the view's {dice}"
    if (seen.number, seen.opener) != (view.round, view.opener):
        return f"round {seen.number} opened by {seen.opener} != the view's {view.round}"
    if tuple(seen.bids) != view.bids:
        return f"bids {seen.bids} != the view's {list(view.bids)}"
    sees = sight_of(seen.sights, view.viewer)
    own = (
        seen.rolls.get(view.viewer)
        if view.viewer is not None and (seen.lifted or view.viewer in sees)
        else None
    )
    if view.round and own != view.own_dice:
        return f"own dice {own} != the view's own_dice {view.own_dice}"
    others = {name: seen.rolls[name] for name in sees if name != view.viewer and name in seen.rolls}
    if view.round and not seen.lifted and others != dict(view.seen):
        return f"the rolls seen {others} != the view's {dict(view.seen)}"
    counts = {name: len(roll) for name, roll in seen.rolls.items()}
    playing = view.round and view.resolution is None
    if playing and counts != {s.name: s.dice for s in view.seats if s.dice}:
        return f"the round's dice counts {counts} disagree with the view's seats"
    if seen.lifted != (view.revealed is not None):
        return f"lifted={seen.lifted} but the view's revealed is {view.revealed}"
    if view.revealed is not None and seen.rolls != dict(view.revealed):
        return f"rolls {seen.rolls} != the view's revealed {dict(view.revealed)}"
    shown = {seat.name: seat.shown for seat in view.seats if seat.shown}
    if {name: dice for name, dice in seen.shown.items() if dice} != shown:
        return f"dice face up {seen.shown} != the view's {shown}"
    if seen.private != to_data(view.private):
        return f"private state {seen.private} != the view's {to_data(view.private)}"
    if seen.known(view.viewer) != sorted(view.known_dice):
        return f"known dice {seen.known(view.viewer)} != the view's {sorted(view.known_dice)}"
    return None


def _public_problem(
    public: Sequence[Event], viewer: str | None, hidden: Sequence[bool], sees: frozenset[str]
) -> str | None:
    """What the events ``public`` (from :func:`public_events`) show that ``viewer`` may not see,
    or ``None``; ``hidden[i]`` is true when event ``i`` is in a round whose cups are not lifted;
    ``sees`` is whose dice the viewer sees in the round the events start in."""
    for event, secret in zip(public, hidden, strict=True):
        if isinstance(event, RoundStarted):
            sees = sight_of(event.sights, viewer)
        if isinstance(event, BidMade | CallMade) and event.player != viewer and event.payload:
            return f"the payload of {event!r}"
        leak = _leak(event, viewer, sees) if secret else None
        if leak is not None:
            return leak
    return None


def public_events_hide_dice(rules: Ruleset, steps: Sequence[Step]) -> None:
    """At every prefix of the event log, for every seat and a spectator,
    :func:`~liarsdice.views.public_events` of it gives one event of the same class per event;
    in a round whose cups are not lifted it shows no other player's dice (rolls, rerolls) or
    secret, and never another player's payload; folded the way a client would, it tells the viewer
    exactly what :func:`~liarsdice.views.player_view` does (dice counts, own dice, dice face up,
    revealed rolls, private state, bids, known dice); it grows by appending, except that a
    lifting :class:`RoundResolved` may reveal the earlier events of its round; and it survives
    a JSON round trip."""
    log: list[Event] = []
    rounds: list[int] = []  # the round of each event of the log (0 before the first)
    draft: Draft | None = None
    lifted: set[int] = set()
    given: dict[str | None, list[Event]] = {}
    seen: dict[str | None, _Seen] = {}
    last: Step | None = None
    for step in timeline(steps):
        last = step
        for event in step.events:
            if draft is None:
                assert isinstance(event, GameStarted)
                draft = Draft.started(event)
                given = {viewer: [] for viewer in (*event.players, None)}
                seen = {viewer: _Seen() for viewer in given}
            else:
                draft.apply(event)
            state = draft.freeze()
            log.append(event)
            rounds.append(
                event.number if isinstance(event, RoundStarted) else rounds[-1] if rounds else 0
            )
            lift = (
                state.round is not None and state.round.lifted and state.round.number not in lifted
            )
            if lift:
                assert state.round is not None
                lifted.add(state.round.number)
            for viewer, before in given.items():
                where = f"public_events(log[:{len(log)}], {viewer!r})"
                public = public_events(log, viewer)
                if len(public) != len(log) or type(public[-1]) is not type(event):
                    raise LawViolation(
                        HIDDEN, rules, f"{where} is not one event of each class", at_step(step)
                    )
                if public[: len(before)] == before:
                    fresh = public[len(before) :]
                else:
                    first = next(i for i, old in enumerate(before) if public[i] != old)
                    if not lift or rounds[first] != rounds[-1]:
                        raise LawViolation(
                            HIDDEN,
                            rules,
                            f"{where} rewrites {public[first]!r}, given before as "
                            f"{before[first]!r}, without a lift in its round",
                            at_step(step),
                        )
                    fresh, seen[viewer] = public, _Seen()
                hidden = [rounds[i] not in lifted for i in range(len(log) - len(fresh), len(log))]
                sees = sight_of(state.round.sights if state.round else (), viewer)
                leak = _public_problem(fresh, viewer, hidden, sees)
                if leak is not None:
                    raise LawViolation(
                        HIDDEN, rules, f"{where} shows {leak} to {viewer}", at_step(step)
                    )
                for shown in fresh:
                    try:
                        seen[viewer].fold(shown)
                    except (KeyError, ValueError) as error:
                        raise LawViolation(
                            HIDDEN,
                            rules,
                            f"{where}: {shown!r} does not fold: {error}",
                            at_step(step),
                        ) from error
                problem = _seen_problem(seen[viewer], player_view(rules, state, viewer))
                if problem is not None:
                    raise LawViolation(
                        HIDDEN, rules, f"{where} and player_view disagree: {problem}", at_step(step)
                    )
                given[viewer] = public
    if last is None:
        return
    kind: Any = Event
    for viewer, public in given.items():
        for event in public:
            try:
                back = loads(dumps(event, kind), kind)
            except Exception as error:
                raise LawViolation(
                    JSON_TRIP, rules, f"public {event!r} fails: {error}", at_step(last)
                ) from error
            if back != event:
                raise LawViolation(
                    JSON_TRIP,
                    rules,
                    f"public {type(event).__name__} for {viewer} changes: "
                    f"{difference(event, back)}",
                    at_step(last),
                )
