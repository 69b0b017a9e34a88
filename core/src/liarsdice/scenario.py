"""Scenario files: rig the dice and the actions of a game, get the ruling of every round.

The format is documented in docs/scenarios.md; golden files live in tests/scenarios/. A scenario
that does not fit its own table (unknown player, a roll of the wrong length, ...) raises
:class:`ScenarioError`; an action the rules refuse is reported in ``rejected`` and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from liarsdice.chance import RiggedRandom
from liarsdice.errors import IllegalAction, PluginError, RulesetError
from liarsdice.game import Game
from liarsdice.models import Action, Bid, BidAction, CallAction, Resolution, TimeoutAction
from liarsdice.ruleset import Ruleset
from liarsdice.views import public_facts

ROUND_KEYS = {"dice", "actions"}
TOP_KEYS = {
    "variants",
    "preset",
    "options",
    "players",
    "dice_per_player",
    "first_opener",
    "seed",
    "rounds",
}

SPECTATORS = "(spectators)"
"""The key of a spectator's sight in a round's ``"sees"`` (players are keyed by name)."""

#: Builds a ruleset from (preset, variants, options).
RulesetFactory = Callable[[str | None, list[str], Mapping[str, Any]], Ruleset]


class ScenarioError(ValueError):
    """The scenario file is malformed or does not fit its own table."""


def _default_factory(
    preset: str | None, variants: list[str], options: Mapping[str, Any]
) -> Ruleset:
    return Ruleset.build(variants, options, preset)


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise ScenarioError(message)


def _parse_action(index: int, raw: Any, players: list[str]) -> Action:
    where = f"action {index}"
    _expect(isinstance(raw, dict), f"{where}: must be an object")
    player = raw.get("player")
    _expect(player in players, f"{where}: unknown player {player!r}")
    kinds = [key for key in ("bid", "call", "timeout") if key in raw]
    _expect(len(kinds) == 1, f"{where}: needs exactly one of bid, call, timeout")
    unknown = set(raw) - {"player", "bid", "call", "timeout", "payload"}
    _expect(not unknown, f"{where}: unknown keys {', '.join(sorted(unknown))}")
    payload = raw.get("payload", {})
    _expect(isinstance(payload, dict), f"{where}: a payload is an object keyed by plugin name")
    _expect("timeout" not in raw or not payload, f"{where}: a timeout takes no payload")
    if "bid" in raw:
        bid = raw["bid"]
        _expect(
            isinstance(bid, list) and len(bid) == 2 and all(type(n) is int for n in bid),
            f"{where}: a bid is [quantity, face]",
        )
        return BidAction(player, Bid(bid[0], bid[1]), payload)
    if "call" in raw:
        _expect(isinstance(raw["call"], str), f'{where}: a call names its kind, e.g. "challenge"')
        return CallAction(player, raw["call"], payload)
    _expect(raw["timeout"] is True, f"{where}: timeout must be true")
    return TimeoutAction(player)


def _ruling(resolution: Resolution | None) -> dict[str, Any] | None:
    if resolution is None:
        return None
    return {
        "call": resolution.call,
        "caller": resolution.caller,
        "bidder": resolution.bidder,
        "bid": [resolution.bid.quantity, resolution.bid.face] if resolution.bid else None,
        "count": resolution.count,
        "losers": list(resolution.losers),
        "winners": list(resolution.winners),
    }


def _rolls(number: int, raw: Any, game: Game) -> dict[str, list[int]]:
    where = f"round {number}"
    _expect(isinstance(raw, dict), f'{where}: "dice" must map each living player to a roll')
    for name, roll in raw.items():
        _expect(
            any(p.name == name for p in game.state.players), f"{where}: unknown player {name!r}"
        )
        player = game.state.player(name)
        _expect(player.alive, f"{where}: {name} is out and has no dice")
        _expect(
            isinstance(roll, list) and all(type(d) is int and 1 <= d <= 6 for d in roll),
            f"{where}: {name}'s roll must be a list of faces 1-6",
        )
        _expect(
            len(roll) == player.dice, f"{where}: {name} holds {player.dice} dice, not {len(roll)}"
        )
    for player in game.state.alive:
        _expect(player.name in raw, f"{where}: no roll for {player.name}")
    rolls: dict[str, list[int]] = raw
    return rolls


def run(scenario: Mapping[str, Any], factory: RulesetFactory = _default_factory) -> dict[str, Any]:
    """Play ``scenario`` (the parsed JSON) and return the ruling document."""
    _expect(isinstance(scenario, dict), "a scenario is a JSON object")
    unknown = set(scenario) - TOP_KEYS
    _expect(not unknown, f"unknown keys: {', '.join(sorted(unknown))}")
    players: list[str] = scenario.get("players")  # type: ignore[assignment]  # checked next
    _expect(
        isinstance(players, list)
        and len(players) >= 2
        and all(isinstance(p, str) for p in players),
        '"players" must list at least two names',
    )
    _expect(len(set(players)) == len(players), "player names must be unique")
    variants = scenario.get("variants", [])
    _expect(
        isinstance(variants, list) and all(isinstance(v, str) for v in variants),
        '"variants" must be a list of names',
    )
    options = scenario.get("options", {})
    _expect(isinstance(options, dict), '"options" must be an object')
    dice = scenario.get("dice_per_player", 5)
    _expect(type(dice) is int and dice >= 1, '"dice_per_player" must be a positive integer')
    first = scenario.get("first_opener")
    _expect(first is None or first in players, f"first_opener {first!r} is not a player")
    rounds = scenario.get("rounds", [])
    _expect(isinstance(rounds, list), '"rounds" must be a list')

    try:
        rules = factory(scenario.get("preset"), variants, options)
    except RulesetError as error:
        raise ScenarioError(str(error)) from error
    seed = scenario.get("seed", 0)
    _expect(type(seed) is int, '"seed" must be an integer')
    rng = RiggedRandom(seed)
    try:
        game = Game(rules, players, rng, dice_per_player=dice, first_opener=first)
    except RulesetError as error:  # a table the preset does not take
        raise ScenarioError(str(error)) from error

    results = []
    for number, raw_round in enumerate(rounds, start=1):
        _expect(isinstance(raw_round, dict), f"round {number} must be an object")
        _expect(not game.state.over, f"round {number}: the game is already over")
        _expect(
            game.state.round is None or game.state.round.over,
            f"round {number}: round {number - 1} did not end with a call",
        )
        for stream, outcomes in raw_round.items():
            if stream not in ROUND_KEYS:
                _expect(isinstance(outcomes, list), f"round {number}: {stream!r} must be a list")
                rng.rig(stream, outcomes)
        game.start_round(_rolls(number, raw_round.get("dice"), game))
        round_state = game.state.round
        assert round_state is not None
        rejected = []
        raw_actions = raw_round.get("actions", [])
        _expect(isinstance(raw_actions, list), f'round {number}: "actions" must be a list')
        for index, raw_action in enumerate(raw_actions):
            action = _parse_action(index, raw_action, players)
            try:
                game.act(action)
            except IllegalAction as refusal:
                rejected.append({"index": index, "player": action.player, "reason": str(refusal)})
            except PluginError as error:
                raise ScenarioError(f"round {number}, action {index}: {error}") from error
        state = game.state
        assert state.round is not None
        unused = rng.leftovers()
        _expect(
            not unused,
            f"round {number}: rigged outcomes never drawn: {unused}",
        )
        result = {
            "opener": round_state.opener,
            "rejected": rejected,
            "ruling": _ruling(state.round.resolution),
            "after": {
                p.name: {"dice": p.dice, "alive": p.alive, "bullets": 0}
                | public_facts(rules, state, p.name)
                for p in state.players
            },
        }
        if round_state.sights:  # who sees whose dice, where the rules change it
            result["sees"] = {
                sight.viewer or SPECTATORS: list(sight.owners) for sight in round_state.sights
            }
        if state.round.shown:
            result["shown"] = {name: list(dice) for name, dice in state.round.shown.items()}
            result["rolls"] = {name: list(dice) for name, dice in state.round.rolls.items()}
        results.append(result)
    state = game.state
    return {
        "rounds": results,
        "next_opener": state.next_opener,
        "winner": state.winner,  # the one winner; None while the game goes on or if several won
        "winners": list(state.winners),
    }


def load(path: str | Path) -> dict[str, Any]:
    """Read a scenario file; :class:`ScenarioError` if it cannot be read or is not JSON."""
    try:
        data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ScenarioError(f"cannot read {path}: {error.strerror or error}") from error
    except json.JSONDecodeError as error:
        raise ScenarioError(f"{path} is not valid JSON: {error}") from error
    return data
