"""The rule laws: what every ruleset and every game must satisfy, whatever the plugins.

Each law is a plain function that returns ``None`` or raises :class:`LawViolation`, whose message
names the law, the ruleset (its ``repr``) and a small example (the offending state and move, on one
line). Laws hold for any combination of plugins, so a third-party plugin's author runs them on
their own plugin:

- *ruleset laws* take a ruleset: :func:`bid_order`, :func:`rules_text_is_ordered`; run them all with
  :func:`check_ruleset`;
- *game laws* take a ruleset and the steps of a game recorded by
  :func:`liarsdice.testing.driver.play_game` (or drawn by
  :func:`liarsdice.testing.strategies.games`); run them all with :func:`check_game`.

A law that needs a plugin's own facts is built by a factory and added to :data:`GAME_LAWS`:
:func:`public_fact_law` gives "a public fact never decreases and never exceeds a bound", and
:data:`bullets_never_decrease` is that law for the revolver's ``bullets``.
"""

from __future__ import annotations

import itertools
import json
import traceback
from collections.abc import Callable, Iterable, Sequence
from random import Random
from typing import Any

import attrs

from liarsdice import engine, precedence, rulespage
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
    OpenerChosen,
    PrivateStateSet,
    RoundResolved,
    RoundStarted,
)
from liarsdice.models import (
    JSON,
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    PlacedBid,
    TimeoutAction,
    remove_dice,
)
from liarsdice.reducer import Draft, apply_event, replay
from liarsdice.ruleset import BASELINE, FACES, Ruleset
from liarsdice.serialization import dumps, loads, to_data
from liarsdice.testing.driver import (
    ILLEGAL,
    LEGAL,
    STRANGER,
    TIMEOUT,
    NewGame,
    StartRound,
    Step,
    show_bid,
    show_move,
    show_state,
    timeline,
)
from liarsdice.views import HIDDEN_DIE, PlayerView, player_view, public_events, public_facts

GameLaw = Callable[[Ruleset, Sequence[Step]], None]
RulesetLaw = Callable[[Ruleset], None]

ORDER = "bids form a strict total order"
ENUMERATION = "legal-bid enumeration agrees with validation"
ROUNDS_END = "every round ends within the bid ladder"
ONE_LOSER = "a challenge has exactly one loser, and the bid stands iff count >= quantity"
DICE = "dice stay within the starting count and change only through effects"
ONE_WINNER = "the game ends with exactly one winner, the only living player"
ELIMINATED = "eliminated players never act"
ILLEGAL_NOTHING = "illegal actions change nothing"
REPLAY = "replaying the event log rebuilds the state"
JSON_TRIP = "state and events survive a JSON round trip"
HIDDEN = "a player's view never holds another player's hidden dice or private state"
SAME_SEED = "the same seed and moves give the same game"
APPLY = "legal moves apply without error"
ONE_RULER = "each call is ruled on by one variant, or by variants in a declared order"
TEXT_ORDER = "variants that change one clause of the rules page are in a declared order"
GAMES_END = "every game ends within the ruleset's move limit"


class LawViolation(AssertionError):
    """A rule law does not hold. ``law`` names it; the message adds the ruleset and an example."""

    def __init__(self, law: str, rules: Ruleset | None, detail: str, example: str = "") -> None:
        self.law = law
        self.rules = rules
        self.detail = detail
        self.example = example
        message = f"law violated: {law}\n  ruleset: {rules!r}\n  {detail}"
        if example:
            message += f"\n  example: {example}"
        super().__init__(message)


def _at(step: Step) -> str:
    return f"{show_state(step.state)} || move: {show_move(step.action)}"


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON-like values first differ, as ``path: a != b``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key, "<missing>") != b.get(key, "<missing>"):
                return _first_difference(
                    a.get(key, "<missing>"), b.get(key, "<missing>"), f"{path}.{key}"
                )
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{index}]")
    return f"{path or '(top)'}: {a!r} != {b!r}"


def _difference(a: Any, b: Any) -> str:
    try:
        return _first_difference(to_data(a), to_data(b))
    except Exception:
        return f"{a!r} != {b!r}"


# --- ruleset laws ---------------------------------------------------------------------------------


def bid_order(rules: Ruleset, max_dice: int = 30) -> None:
    """Ranks of all bids up to ``max_dice`` dice are deterministic, distinct, pairwise comparable
    and consistent with one sorted order (hence antisymmetric and transitive); the ruleset's
    cached ladders agree with that order."""
    rank: Callable[[Bid], Any] = rules.hooks.bid_rank
    bids = [Bid(quantity, face) for quantity in range(1, max_dice + 1) for face in FACES]
    keys: list[Any] = []
    for bid in bids:
        key = rank(bid)
        if key is None:
            raise LawViolation(ORDER, rules, "no plugin ranks this bid", show_bid(bid))
        again = rank(bid)
        if again != key:
            raise LawViolation(
                ORDER, rules, f"rank is not deterministic: {key!r} then {again!r}", show_bid(bid)
            )
        keys.append(key)
    try:
        order = sorted(range(len(bids)), key=keys.__getitem__)
    except TypeError as error:
        order = list(range(len(bids)))  # find the incomparable pair below
        reason = str(error)
    else:
        reason = ""
    for low, high in itertools.combinations(order, 2):
        a, b = keys[low], keys[high]
        try:
            ok = a < b and not b < a and a != b
        except TypeError as error:
            ok, reason = False, str(error)
        if not ok:
            detail = "ranks are equal" if a == b else reason or "ranks are not consistently ordered"
            raise LawViolation(
                ORDER,
                rules,
                detail,
                f"{show_bid(bids[low])} has rank {a!r}, {show_bid(bids[high])} has rank {b!r}",
            )
    ordered = [bids[index] for index in order]
    for dice in sorted({1, 2, max_dice}):
        expected = [bid for bid in ordered if bid.quantity <= dice]
        ladder = rules.ladder(dice)[1]
        if list(ladder) != expected:
            raise LawViolation(
                ORDER,
                rules,
                f"the ruleset's ladder for {dice} dice is not the bids sorted by rank",
                f"ladder {[show_bid(b) for b in ladder[:8]]}... "
                f"vs {[show_bid(b) for b in expected[:8]]}...",
            )


def rules_text_is_ordered(rules: Ruleset) -> None:
    """Two variants that replace the same clause of the rules page are in a declared order, so
    which sentence the page keeps is not an accident of their names."""
    changers: dict[str, list[str]] = {}
    for name in rules.order:
        for key in rulespage.text_of(rules, name).clauses:
            changers.setdefault(key, []).append(name)
    for key, names in changers.items():
        for first, second in itertools.combinations(names, 2):
            if not precedence.ordered(rules.precedes, first, second):
                raise LawViolation(
                    TEXT_ORDER,
                    rules,
                    f"{first} and {second} both replace the clause {key!r} and neither declares "
                    "which comes first (VariantInfo before=/after=), or add a clause of your own",
                )


RULESET_LAWS: tuple[RulesetLaw, ...] = (bid_order, rules_text_is_ordered)


def check_ruleset(rules: Ruleset, laws: Iterable[RulesetLaw] = RULESET_LAWS) -> None:
    """Run every ruleset law on ``rules``; raises the first :class:`LawViolation` (a law that
    raises anything else, such as a plugin's hook failing, is reported as that law's violation)."""
    for law in laws:
        try:
            law(rules)
        except LawViolation:
            raise
        except Exception as error:
            raise _crashed(law, rules, error) from error


def _crashed(law: Callable[..., None], rules: Ruleset, error: Exception) -> LawViolation:
    """The violation reported when checking ``law`` raised ``error`` (the message names the plugin
    and the hook when a hook failed or answered out of contract)."""
    frames = traceback.extract_tb(error.__traceback__)
    where = (
        f" (at {frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    )
    return LawViolation(
        _TITLES.get(law, law.__name__),
        rules,
        f"checking it raised {type(error).__name__}: {error}{where}",
    )


# --- game laws -----------------------------------------------------------------------------------


def illegal_actions_change_nothing(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every action built to be illegal is refused with a reason, emits no event, raises nothing
    else, and leaves the state exactly as it was (not even mutated in place)."""
    for step in steps:
        if step.intent != ILLEGAL:
            continue
        if step.error is not None:
            raise LawViolation(
                ILLEGAL_NOTHING, rules, f"raised {step.error} instead of refusing", _at(step)
            )
        if step.refused is None:
            shown = ", ".join(type(event).__name__ for event in step.events)
            raise LawViolation(
                ILLEGAL_NOTHING, rules, f"an illegal action was accepted ({shown})", _at(step)
            )
        if not step.refused or not all(step.refused):
            raise LawViolation(ILLEGAL_NOTHING, rules, "refused without giving a reason", _at(step))
        if step.events:
            raise LawViolation(ILLEGAL_NOTHING, rules, "a refused action emitted events", _at(step))
        if step.snapshot != step.snapshot_after:
            difference = _first_difference(
                json.loads(step.snapshot or "null"), json.loads(step.snapshot_after or "null")
            )
            raise LawViolation(
                ILLEGAL_NOTHING,
                rules,
                f"refusing the action mutated the state: {difference}",
                _at(step),
            )


def eliminated_players_never_act(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Any action by a player who is out (or not at the table) is refused and changes nothing; only
    living players open rounds."""
    for step in steps:
        action, state = step.action, step.state
        if isinstance(action, BidAction | CallAction | TimeoutAction) and state is not None:
            seat = next((p for p in state.players if p.name == action.player), None)
            if (seat is None or not seat.alive) and (step.refused is None or step.events):
                who = "a stranger" if seat is None else "an eliminated player"
                raise LawViolation(ELIMINATED, rules, f"{who} acted: {step}", _at(step))
        if step.accepted and step.after is not None:
            for event in step.events:
                if isinstance(event, OpenerChosen | RoundStarted):
                    opener = event.player if isinstance(event, OpenerChosen) else event.opener
                    if not step.after.player(opener).alive:
                        raise LawViolation(
                            ELIMINATED, rules, f"{opener} is out but opens", _at(step)
                        )


def _in_round(state: GameState | None) -> bool:
    return state is not None and not state.over and state.round is not None and not state.round.over


def legal_enumeration_agrees(rules: Ruleset, steps: Sequence[Step]) -> None:
    """In every state of a round, for the player on turn and one other player:
    ``engine.legal_bids(limit=None)`` is exactly the bids of the grid (quantity 0 to dice in
    play + 2, faces 0 to 7) that ``engine.bid_problems`` accepts, sorted by rank; ``limit`` takes
    a prefix; ``legal_calls`` agrees with ``call_problems``; no move offered as legal is refused."""
    for step in steps:
        if step.intent == LEGAL and step.refused is not None:
            raise LawViolation(
                ENUMERATION,
                rules,
                f"offered as legal, then refused: {'; '.join(step.refused)}",
                _at(step),
            )
    rank: Callable[[Bid], Any] = rules.hooks.bid_rank
    for step in timeline(steps):
        state = step.after
        if not _in_round(state):
            continue
        assert state is not None and state.round is not None
        dice = state.round.dice_in_play
        turn = state.round.turn
        others = [p.name for p in state.players if p.name != turn][:1]
        for player in [turn, *others]:
            listed = engine.legal_bids(rules, state, player, limit=None)
            valid = [
                Bid(quantity, face)
                for quantity in range(dice + 3)
                for face in range(8)
                if not engine.bid_problems(rules, state, player, Bid(quantity, face))
            ]
            valid.sort(key=rank)
            if listed != valid:
                extra = [show_bid(b) for b in listed if b not in valid]
                missing = [show_bid(b) for b in valid if b not in listed]
                detail = (
                    f"for {player}: legal_bids lists {extra[:5]} that bid_problems refuses, and "
                    f"leaves out {missing[:5]} that it accepts"
                    if extra or missing
                    else f"for {player}: legal_bids is not sorted by rank"
                )
                raise LawViolation(ENUMERATION, rules, detail, show_state(state))
            for limit in (1, 10):
                if engine.legal_bids(rules, state, player, limit) != listed[:limit]:
                    raise LawViolation(
                        ENUMERATION,
                        rules,
                        f"legal_bids(limit={limit}) is not a prefix",
                        show_state(state),
                    )
            calls = [
                kind for kind in rules.calls if not engine.call_problems(rules, state, player, kind)
            ]
            if engine.legal_calls(rules, state, player) != calls:
                raise LawViolation(
                    ENUMERATION,
                    rules,
                    f"for {player}: legal_calls disagrees with call_problems",
                    show_state(state),
                )
            if player == turn:
                moves: list[BidAction | CallAction] = [BidAction(player, b) for b in listed[:3]]
                moves += [CallAction(player, kind) for kind in calls]
                _offered_payloads_apply(rules, state, moves)
        stranger = engine.bid_problems(rules, state, STRANGER, Bid(1, 2))
        if not stranger or engine.legal_bids(rules, state, STRANGER):
            raise LawViolation(
                ENUMERATION, rules, "a stranger to the table may bid", show_state(state)
            )


def _offered_payloads_apply(
    rules: Ruleset, state: GameState, actions: Sequence[BidAction | CallAction]
) -> None:
    """Every payload a plugin offers for a legal move is accepted with it."""
    for action in actions:
        for plugin, values in engine.payload_choices(rules, state, action).items():
            for value in values[:8]:
                payload = {plugin: value}
                if isinstance(action, BidAction):
                    refused = engine.bid_problems(rules, state, action.player, action.bid, payload)
                else:
                    refused = engine.call_problems(
                        rules, state, action.player, action.kind, payload
                    )
                if refused:
                    raise LawViolation(
                        ENUMERATION,
                        rules,
                        f"{plugin} offers the payload {value!r} for {show_move(action)}, and the "
                        f"move is then refused: {'; '.join(map(str, refused))}",
                        show_state(state),
                    )


def rounds_end(rules: Ruleset, steps: Sequence[Step]) -> None:
    """The player on turn always has a legal move; every bid strictly raises the one before, so a
    round holds at most as many bids as the ladder for its dice; a round is resolved before the
    next one starts."""
    rank: Callable[[Bid], Any] = rules.hooks.bid_rank
    for step in steps:
        if step.action is None:
            raise LawViolation(ROUNDS_END, rules, f"dead end: {step.error}", show_state(step.state))
    open_round: RoundStarted | None = None
    bids: list[Bid] = []
    bound = 0
    for step in timeline(steps):
        for event in step.events:
            if isinstance(event, RoundStarted):
                if open_round is not None:
                    raise LawViolation(
                        ROUNDS_END,
                        rules,
                        f"round {event.number} started before round {open_round.number} ended",
                        _at(step),
                    )
                open_round, bids = event, []
                bound = len(rules.ladder(sum(map(len, event.rolls.values())))[1])
            elif isinstance(event, BidMade):
                if bids and not rank(event.bid) > rank(bids[-1]):
                    raise LawViolation(
                        ROUNDS_END,
                        rules,
                        f"{show_bid(event.bid)} does not raise {show_bid(bids[-1])}",
                        _at(step),
                    )
                bids.append(event.bid)
                if len(bids) > bound:
                    raise LawViolation(
                        ROUNDS_END,
                        rules,
                        f"{len(bids)} bids in a round whose ladder has {bound}",
                        _at(step),
                    )
            elif isinstance(event, RoundResolved):
                open_round = None


def challenge_has_one_loser(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every ruling names distinct living players as losers and winners; a call's count equals an
    independent recount of the rolls with ``matching_faces``; a challenge has exactly one loser and
    one winner, and the bid stands (the challenger loses) iff the count reaches the quantity."""
    matching = rules.hooks.matching_faces
    for step in timeline(steps):
        state = step.state
        for event in step.events:
            if not isinstance(event, RoundResolved):
                continue
            ruling = event.resolution
            assert state is not None and state.round is not None
            named = [*ruling.losers, *ruling.winners]
            if len(set(named)) != len(named):
                raise LawViolation(
                    ONE_LOSER, rules, f"a player is named twice in {ruling}", _at(step)
                )
            for name in named:
                if not any(p.name == name and p.alive for p in state.players):
                    raise LawViolation(
                        ONE_LOSER, rules, f"{name} is not a living player: {ruling}", _at(step)
                    )
            if ruling.count is None:
                continue
            action = step.action
            placed = state.round.bids[-1] if state.round.bids else None
            if not isinstance(action, CallAction) or placed is None:
                raise LawViolation(
                    ONE_LOSER, rules, f"cups lifted without a call on a bid: {ruling}", _at(step)
                )
            if (ruling.caller, ruling.call, ruling.bidder, ruling.bid) != (
                action.player,
                action.kind,
                placed.player,
                placed.bid,
            ):
                raise LawViolation(
                    ONE_LOSER, rules, f"the ruling is not about this call: {ruling}", _at(step)
                )
            faces = matching(state, placed.bid.face)
            recount = sum(die in faces for roll in state.round.rolls.values() for die in roll)
            if ruling.count != recount:
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"count {ruling.count}, but the rolls hold {recount} of {sorted(faces)}",
                    _at(step),
                )
            if ruling.call != "challenge":
                continue
            if len(ruling.losers) != 1 or len(ruling.winners) != 1:
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"losers {list(ruling.losers)}, winners {list(ruling.winners)}: "
                    "want one of each",
                    _at(step),
                )
            stands = recount >= placed.bid.quantity
            loser, winner = (
                (action.player, placed.player) if stands else (placed.player, action.player)
            )
            if ruling.losers != (loser,) or ruling.winners != (winner,) or ruling.success == stands:
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"{recount} counted for {show_bid(placed.bid)}, so {loser} loses; "
                    f"ruled {ruling}",
                    _at(step),
                )


def calls_are_ruled_by_one_variant(rules: Ruleset, steps: Sequence[Step]) -> None:
    """When a call is ruled on, the variants whose ``liarsdice_resolve_call`` answers it are one,
    or ordered by their declarations: otherwise which ruling counts would be an accident of
    registration. (The build-time order check leaves this hook to play, since variants usually
    answer only their own call kinds.)"""
    impls = precedence.answering(rules.pm, "liarsdice_resolve_call", BASELINE)
    if len(impls) < 2:
        return
    for step in timeline(steps):
        action, state = step.action, step.state
        if not isinstance(action, CallAction) or state is None or state.round is None:
            continue
        if not state.round.bids or not rules.calls[action.kind].ends_round:
            continue
        count = engine.count_matching(rules, state, state.round.bids[-1].bid.face)
        values = {
            "state": state,
            "player": action.player,
            "call": action.kind,
            "count": count,
            "options": rules.options,
        }
        answering = [
            impl.plugin_name
            for impl in impls
            if impl.function(**{arg: values[arg] for arg in impl.argnames}) is not None
        ]
        for first, second in itertools.combinations(answering, 2):
            if not precedence.ordered(rules.precedes, first, second):
                raise LawViolation(
                    ONE_RULER,
                    rules,
                    f"{first} and {second} both rule on this {action.kind!r} call and neither "
                    "declares which comes first (VariantInfo before=/after=)",
                    _at(step),
                )


def dice_change_only_through_effects(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Everyone starts with the starting count; a player's dice change only by ``DiceChanged`` and
    ``Eliminated`` events and stay within 0..starting count at every event; a player who is out
    holds none; each round every living player rolls exactly their dice, faces 1-6, and keeps that
    many through rerolls, the dice face up always among them; after a round is settled every
    living player still holds a die."""
    for step in timeline(steps):
        after = step.after
        assert after is not None
        if isinstance(step.action, NewGame):
            start = step.action
            wrong = [p for p in after.players if p.dice != start.dice_per_player or not p.alive]
            if [p.name for p in after.players] != list(start.players) or wrong:
                raise LawViolation(
                    DICE, rules, "the game does not start with full cups", show_state(after)
                )
            continue
        before = step.state
        assert before is not None
        top = before.dice_per_player
        dice = {p.name: p.dice for p in before.players}
        alive = {p.name: p.alive for p in before.players}
        for event in step.events:
            if isinstance(event, DiceChanged):
                dice[event.player] += event.delta
                if not 0 <= dice[event.player] <= top:
                    raise LawViolation(
                        DICE,
                        rules,
                        f"{event.player} would hold {dice[event.player]} dice (start {top})",
                        _at(step),
                    )
            elif isinstance(event, Eliminated):
                dice[event.player], alive[event.player] = 0, False
            elif isinstance(event, RoundStarted):
                expected = {name: n for name, n in dice.items() if alive[name] and n}
                got = {name: len(roll) for name, roll in event.rolls.items()}
                if got != expected or any(
                    not 1 <= die <= 6 for roll in event.rolls.values() for die in roll
                ):
                    raise LawViolation(
                        DICE, rules, f"rolled {dict(event.rolls)} for cups {expected}", _at(step)
                    )
        if after.dice_per_player != top or [p.name for p in after.players] != list(dice):
            raise LawViolation(DICE, rules, "the seats or the starting count changed", _at(step))
        settled = any(isinstance(event, RoundResolved) for event in step.events)
        for player in after.players:
            name = player.name
            if (player.dice, player.alive) != (dice[name], alive[name]):
                raise LawViolation(
                    DICE,
                    rules,
                    f"{name} holds {player.dice} dice (alive={player.alive}); the effects give "
                    f"{dice[name]} (alive={alive[name]})",
                    _at(step),
                )
            if not 0 <= player.dice <= top or (not player.alive and player.dice):
                raise LawViolation(DICE, rules, f"{name} holds {player.dice} dice", _at(step))
            if settled and player.alive and not player.dice:
                raise LawViolation(DICE, rules, f"{name} is still in with no dice", _at(step))
        round_ = after.round
        if round_ is not None and not round_.over:
            for name, roll in round_.rolls.items():
                shown = round_.shown.get(name, ())
                if len(roll) != dice[name] or len(round_.hidden(name)) != len(roll) - len(shown):
                    raise LawViolation(
                        DICE,
                        rules,
                        f"{name} holds {dice[name]} dice but rolls {list(roll)} with "
                        f"{list(shown)} face up",
                        _at(step),
                    )


def game_has_one_winner(rules: Ruleset, steps: Sequence[Step]) -> None:
    """While two or more players live the game goes on; once one is left the game is won, by that
    player, with exactly one ``GameWon`` event, and nothing is accepted afterwards. (A game the
    driver cut short is checked as far as it went.)"""
    played = list(timeline(steps))
    wins = [
        (index, event)
        for index, step in enumerate(played)
        for event in step.events
        if isinstance(event, GameWon)
    ]
    if len(wins) > 1:
        raise LawViolation(
            ONE_WINNER, rules, f"{len(wins)} GameWon events", _at(played[wins[1][0]])
        )
    for index, step in enumerate(played):
        after = step.after
        assert after is not None
        living = [p.name for p in after.alive]
        if after.over:
            if living != [after.winner]:
                raise LawViolation(
                    ONE_WINNER, rules, f"winner {after.winner}, living {living}", _at(step)
                )
            if not wins or wins[0][0] > index or wins[0][1].player != after.winner:
                raise LawViolation(
                    ONE_WINNER, rules, "the game is won without a matching GameWon", _at(step)
                )
            if index != len(played) - 1:
                raise LawViolation(
                    ONE_WINNER,
                    rules,
                    "a move was accepted after the game was won",
                    _at(played[index + 1]),
                )
        elif len(living) < 2:
            raise LawViolation(ONE_WINNER, rules, f"living {living} but nobody has won", _at(step))
        elif wins and wins[0][0] <= index:
            raise LawViolation(
                ONE_WINNER, rules, "GameWon was emitted but the game goes on", _at(step)
            )


def replay_rebuilds_state(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Folding the events with :func:`liarsdice.reducer.apply_event` gives the engine's state after
    every step, and :func:`liarsdice.reducer.replay` of the whole log gives the final state."""
    state: GameState | None = None
    log: list[Event] = []
    last: Step | None = None
    for step in timeline(steps):
        for event in step.events:
            try:
                state = apply_event(state, event)
            except Exception as error:
                raise LawViolation(
                    REPLAY, rules, f"replaying {event!r} raised {error}", _at(step)
                ) from error
        log += step.events
        if state != step.after:
            raise LawViolation(
                REPLAY,
                rules,
                f"replayed state differs: {_difference(state, step.after)}",
                _at(step),
            )
        last = step
    if last is not None and replay(log) != last.after:
        raise LawViolation(
            REPLAY, rules, "replay() of the whole log differs from the final state", _at(last)
        )


def json_round_trip(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every state, event and action comes back equal from ``serialization.dumps``/``loads``, and
    dumping it again gives the same text."""
    for step in timeline(steps):
        checks: list[tuple[Any, Any]] = [(step.after, GameState)]
        checks += [(event, Event) for event in step.events]
        if isinstance(step.action, BidAction | CallAction | TimeoutAction):
            checks.append((step.action, Action))
        for value, kind in checks:
            try:
                text = dumps(value, kind)
                back = loads(text, kind)
                again = dumps(back, kind)
            except Exception as error:
                raise LawViolation(
                    JSON_TRIP, rules, f"{value!r} fails: {error}", _at(step)
                ) from error
            if back != value or again != text:
                raise LawViolation(
                    JSON_TRIP,
                    rules,
                    f"{type(value).__name__} changes: {_difference(value, back)}",
                    _at(step),
                )


def _hide_others(state: GameState, viewer: str | None) -> GameState:
    """``state`` with every other player's hidden dice changed (each die moved to another face;
    dice shown face up stay) and every other player's private state replaced."""
    round_ = state.round
    assert round_ is not None
    rolls = {
        name: roll
        if name == viewer
        else (*round_.shown.get(name, ()), *(die % 6 + 1 for die in round_.hidden(name)))
        for name, roll in round_.rolls.items()
    }
    private = {
        plugin: {
            player: value if player == viewer else {"replaced by the law": True}
            for player, value in players.items()
        }
        for plugin, players in round_.private.items()
    }
    changed = attrs.evolve(round_, rolls=rolls, private=private)
    return attrs.evolve(state, round=changed)


def views_hide_dice(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Until a call lifts the cups, each player's view (and a spectator's) holds only the viewer's
    own roll as ``own_dice``, no ``revealed`` rolls, only the viewer's own private plugin state,
    and does not depend on anyone else's hidden dice or private state at all (changing them leaves
    the view's JSON unchanged). Dice put face up are in every view.

    The same holds for the event log as :func:`~liarsdice.views.public_events` gives it to each
    viewer, at every prefix of the log (see :func:`public_events_hide_dice`)."""
    public_events_hide_dice(rules, steps)
    for step in timeline(steps):
        state = step.after
        assert state is not None
        round_ = state.round
        if round_ is None:
            continue
        for viewer in [*(p.name for p in state.players), None]:
            view = player_view(rules, state, viewer)
            data = json.loads(dumps(view))
            own = round_.rolls.get(viewer) if viewer is not None else None
            if data["own_dice"] != (list(own) if own is not None else None):
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view shows own_dice={data['own_dice']}",
                    show_state(state),
                )
            shown = {seat["name"]: seat["shown"] for seat in data["seats"] if seat["shown"]}
            if shown != {name: list(dice) for name, dice in round_.shown.items() if dice}:
                raise LawViolation(
                    HIDDEN, rules, f"{viewer}'s view shows {shown} face up", show_state(state)
                )
            if round_.lifted:
                continue
            if data["revealed"] is not None:
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view reveals {data['revealed']} before a call",
                    show_state(state),
                )
            strangers = {
                player
                for players in data["private"].values()
                for player in players
                if player != viewer
            }
            if strangers:
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view carries the private state of {sorted(strangers)}",
                    show_state(state),
                )
            blind = json.loads(dumps(player_view(rules, _hide_others(state, viewer), viewer)))
            if blind != data:
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view depends on other players' hidden dice or private state: "
                    f"{_first_difference(data, blind)}",
                    show_state(state),
                )


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

    def fold(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            self.dice = {name: (event.dice_per_player, True) for name in event.players}
        elif isinstance(event, RoundStarted):
            self.number, self.opener, self.lifted = event.number, event.opener, False
            self.rolls, self.shown, self.private, self.bids = dict(event.rolls), {}, {}, []
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
        """Every die the viewer can see, sorted: all of them once lifted, else their own and the
        others' dice face up."""
        if self.lifted:
            return sorted(die for roll in self.rolls.values() for die in roll)
        own = list(self.rolls.get(viewer, ())) if viewer is not None else []
        others = [die for name, dice in self.shown.items() if name != viewer for die in dice]
        return sorted(own + others)


def _leak(event: Event, viewer: str | None) -> str | None:
    """What ``event`` (from :func:`public_events`, in a round whose cups are not lifted) shows
    that ``viewer`` may not see, or ``None``."""
    if isinstance(event, RoundStarted):
        seen = {
            name: roll
            for name, roll in event.rolls.items()
            if name != viewer and any(die != HIDDEN_DIE for die in roll)
        }
        return f"the rolls {seen}" if seen else None
    if isinstance(event, DiceRerolled) and event.player != viewer:
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
    own = seen.rolls.get(view.viewer) if view.viewer is not None else None
    if view.round and own != view.own_dice:
        return f"own dice {own} != the view's own_dice {view.own_dice}"
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
    public: Sequence[Event], viewer: str | None, hidden: Sequence[bool]
) -> str | None:
    """What the events ``public`` (from :func:`public_events`) show that ``viewer`` may not see,
    or ``None``; ``hidden[i]`` is true when event ``i`` is in a round whose cups are not lifted."""
    for event, secret in zip(public, hidden, strict=True):
        if isinstance(event, BidMade | CallMade) and event.player != viewer and event.payload:
            return f"the payload of {event!r}"
        leak = _leak(event, viewer) if secret else None
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
                        HIDDEN, rules, f"{where} is not one event of each class", _at(step)
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
                            _at(step),
                        )
                    fresh, seen[viewer] = public, _Seen()
                hidden = [rounds[i] not in lifted for i in range(len(log) - len(fresh), len(log))]
                leak = _public_problem(fresh, viewer, hidden)
                if leak is not None:
                    raise LawViolation(
                        HIDDEN, rules, f"{where} shows {leak} to {viewer}", _at(step)
                    )
                for shown in fresh:
                    try:
                        seen[viewer].fold(shown)
                    except (KeyError, ValueError) as error:
                        raise LawViolation(
                            HIDDEN, rules, f"{where}: {shown!r} does not fold: {error}", _at(step)
                        ) from error
                problem = _seen_problem(seen[viewer], player_view(rules, state, viewer))
                if problem is not None:
                    raise LawViolation(
                        HIDDEN, rules, f"{where} and player_view disagree: {problem}", _at(step)
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
                    JSON_TRIP, rules, f"public {event!r} fails: {error}", _at(last)
                ) from error
            if back != event:
                raise LawViolation(
                    JSON_TRIP,
                    rules,
                    f"public {type(event).__name__} for {viewer} changes: "
                    f"{_difference(event, back)}",
                    _at(last),
                )


def same_seed_same_game(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Replaying the accepted moves through the engine from ``Random(seed)`` gives the same events
    and states again (nothing random escapes the injected RNG; refused moves draw nothing)."""
    played = list(timeline(steps))
    if not played:
        return
    start = played[0].action
    if not isinstance(start, NewGame):
        raise LawViolation(
            SAME_SEED, rules, "the record does not start with a new game", _at(played[0])
        )
    rng = Random(start.seed)
    state: GameState | None = None
    for step in played:
        try:
            if isinstance(step.action, NewGame):
                state, events = engine.new_game(
                    rules, start.players, rng, dice_per_player=start.dice_per_player
                )
            elif isinstance(step.action, StartRound):
                assert state is not None
                state, events = engine.start_round(rules, state, rng)
            else:
                assert state is not None
                assert isinstance(step.action, BidAction | CallAction | TimeoutAction)
                state, events = engine.step(rules, state, step.action, rng)
        except Exception as error:
            raise LawViolation(
                SAME_SEED, rules, f"the same move now raises {error!r}", _at(step)
            ) from error
        if tuple(events) != step.events or state != step.after:
            if tuple(events) != step.events:
                detail = f"events differ: {list(events)} != {list(step.events)}"
            else:
                detail = f"states differ: {_difference(state, step.after)}"
            raise LawViolation(SAME_SEED, rules, detail, _at(step))


def legal_moves_apply(rules: Ruleset, steps: Sequence[Step]) -> None:
    """The engine applies every move it offers as legal, and a timeout by the player on turn,
    without raising; starting a game or a round does not raise either."""
    for step in steps:
        if step.intent == ILLEGAL or step.action is None:
            continue
        if step.error is not None:
            raise LawViolation(APPLY, rules, f"the engine raised {step.error}", _at(step))
        if step.intent == TIMEOUT and step.refused is not None:
            raise LawViolation(
                APPLY, rules, f"a timeout was refused: {'; '.join(step.refused)}", _at(step)
            )


def public_fact_law(
    fact: str,
    *,
    maximum: Callable[[Ruleset], int | None] | None = None,
    never_decreases: bool = True,
) -> GameLaw:
    """A law: every player's public fact ``fact`` (from the ``player_public`` hook, as views show
    it) never decreases and never exceeds ``maximum(rules)``. Vacuous when no plugin exposes it."""
    name = f"the public fact {fact!r} never decreases and stays within its bound"

    def law(rules: Ruleset, steps: Sequence[Step]) -> None:
        bound = maximum(rules) if maximum is not None else None
        seen: dict[str, Any] = {}
        for step in timeline(steps):
            state = step.after
            assert state is not None
            for player in state.players:
                facts = public_facts(rules, state, player.name)
                if fact not in facts:
                    continue
                value = facts[fact]
                if bound is not None and value > bound:
                    raise LawViolation(
                        name, rules, f"{player.name} has {fact}={value} > {bound}", _at(step)
                    )
                if never_decreases and player.name in seen and value < seen[player.name]:
                    raise LawViolation(
                        name,
                        rules,
                        f"{player.name}'s {fact} fell from {seen[player.name]} to {value}",
                        _at(step),
                    )
                seen[player.name] = value

    law.__name__ = law.__qualname__ = f"{fact}_never_decrease"
    law.__doc__ = f"Law: {name}."
    return law


def _chambers(rules: Ruleset) -> int | None:
    """The value of any option named ``chambers`` (the revolver's), or ``None``."""
    for key, value in rules.options.items():
        if key.rpartition(".")[2] == "chambers" and type(value) is int:
            return value
    return None


bullets_never_decrease = public_fact_law("bullets", maximum=_chambers)
"""Bullets never decrease and never exceed the chambers (vacuous without a revolver)."""


def games_end(rules: Ruleset, steps: Sequence[Step]) -> None:
    """A game has a winner by the time it has played the most moves its ruleset allows at its
    table (:meth:`~liarsdice.Ruleset.move_limit`: rounds x turns a round, from the plugins'
    ``liarsdice_game_limit``), counting accepted bids, calls and timeouts, not illegal attempts.
    A game the driver cut short before the limit proves nothing either way."""
    played = list(timeline(steps))
    if not played or not isinstance(played[0].action, NewGame):
        return
    start = played[0].action
    limit = rules.move_limit(len(start.players), start.dice_per_player)
    moves = 0
    for step in played:
        if not isinstance(step.action, BidAction | CallAction | TimeoutAction):
            continue
        moves += 1
        assert step.after is not None
        if moves >= limit.moves and not step.after.over:
            raise LawViolation(
                GAMES_END,
                rules,
                f"no winner after {moves} moves, the most the ruleset allows {limit.explain()}; "
                "a variant undoes what the economics take, or lengthens games without declaring "
                "it (liarsdice_game_limit)",
                _at(step),
            )


GAME_LAWS: tuple[GameLaw, ...] = (
    illegal_actions_change_nothing,
    eliminated_players_never_act,
    legal_enumeration_agrees,
    rounds_end,
    challenge_has_one_loser,
    calls_are_ruled_by_one_variant,
    dice_change_only_through_effects,
    game_has_one_winner,
    games_end,
    replay_rebuilds_state,
    json_round_trip,
    views_hide_dice,
    same_seed_same_game,
    bullets_never_decrease,
    legal_moves_apply,
)
"""Every game law, in the order :func:`check_game` runs them (engine errors are reported last, so
that a law broken just before a crash is named first)."""


_TITLES: dict[Callable[..., None], str] = {
    bid_order: ORDER,
    rules_text_is_ordered: TEXT_ORDER,
    illegal_actions_change_nothing: ILLEGAL_NOTHING,
    eliminated_players_never_act: ELIMINATED,
    legal_enumeration_agrees: ENUMERATION,
    rounds_end: ROUNDS_END,
    challenge_has_one_loser: ONE_LOSER,
    calls_are_ruled_by_one_variant: ONE_RULER,
    dice_change_only_through_effects: DICE,
    game_has_one_winner: ONE_WINNER,
    games_end: GAMES_END,
    replay_rebuilds_state: REPLAY,
    json_round_trip: JSON_TRIP,
    views_hide_dice: HIDDEN,
    public_events_hide_dice: HIDDEN,
    same_seed_same_game: SAME_SEED,
    legal_moves_apply: APPLY,
}
"""The title of each shipped law, for a law that crashed rather than failed."""


def check_game(rules: Ruleset, steps: Sequence[Step], laws: Iterable[GameLaw] = GAME_LAWS) -> None:
    """Run every game law on a recorded game; raises the first :class:`LawViolation` (a law that
    raises anything else is reported as that law's violation)."""
    for law in laws:
        try:
            law(rules, steps)
        except LawViolation:
            raise
        except Exception as error:
            raise _crashed(law, rules, error) from error


__all__ = [
    "GAME_LAWS",
    "RULESET_LAWS",
    "GameLaw",
    "LawViolation",
    "RulesetLaw",
    "bid_order",
    "bullets_never_decrease",
    "calls_are_ruled_by_one_variant",
    "challenge_has_one_loser",
    "check_game",
    "check_ruleset",
    "dice_change_only_through_effects",
    "eliminated_players_never_act",
    "game_has_one_winner",
    "games_end",
    "illegal_actions_change_nothing",
    "json_round_trip",
    "legal_enumeration_agrees",
    "legal_moves_apply",
    "public_events_hide_dice",
    "public_fact_law",
    "replay_rebuilds_state",
    "rounds_end",
    "rules_text_is_ordered",
    "same_seed_same_game",
    "views_hide_dice",
]
