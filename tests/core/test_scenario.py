"""liarsdice.scenario: the scenario format, its errors, and rejected actions."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from liarsdice import Ruleset, scenario
from liarsdice.scenario import ScenarioError


def base(**changes: Any) -> dict[str, Any]:
    """Two rounds of a 3-player, 2-dice game (Ben loses round 1, Cid round 2)."""
    doc: dict[str, Any] = {
        "variants": ["dice-loss"],
        "players": ["Ann", "Ben", "Cid"],
        "dice_per_player": 2,
        "rounds": [
            {
                "dice": {"Ann": [2, 2], "Ben": [3, 4], "Cid": [5, 6]},
                "actions": [
                    {"player": "Ann", "bid": [2, 2]},
                    {"player": "Ben", "bid": [3, 2]},
                    {"player": "Cid", "call": "challenge"},
                ],
            },
            {
                "dice": {"Ann": [1, 6], "Ben": [6], "Cid": [4, 4]},
                "actions": [
                    {"player": "Ben", "bid": [2, 6]},
                    {"player": "Cid", "bid": [3, 4]},
                    {"player": "Ann", "call": "challenge"},
                ],
            },
        ],
    }
    doc.update(changes)
    return doc


def with_round(index: int, **changes: Any) -> dict[str, Any]:
    doc = base()
    doc["rounds"][index].update(changes)
    return doc


def test_a_valid_scenario_gives_every_ruling() -> None:
    result = scenario.run(base())
    assert [r["opener"] for r in result["rounds"]] == ["Ann", "Ben"]
    first, second = (r["ruling"] for r in result["rounds"])
    assert first == {
        "call": "challenge",
        "caller": "Cid",
        "bidder": "Ben",
        "bid": [3, 2],
        "count": 2,
        "losers": ["Ben"],
        "winners": ["Cid"],
    }
    assert second["count"] == 3 and second["losers"] == ["Ann"]  # two fours and a one
    assert result["rounds"][1]["after"]["Ann"] == {"dice": 1, "alive": True, "bullets": 0}
    assert result["next_opener"] == "Ann" and result["winner"] is None


def test_first_opener_overrides_seat_one() -> None:
    doc = base(first_opener="Ben", rounds=[{"dice": {"Ann": [1, 1], "Ben": [2, 2], "Cid": [3, 3]}}])
    result = scenario.run(doc)
    assert result["rounds"][0]["opener"] == "Ben"
    assert result["rounds"][0]["ruling"] is None


def test_rejected_actions_are_reported_and_change_nothing() -> None:
    clean = scenario.run(base())
    noisy = base()
    noisy["rounds"][0]["actions"][1:1] = [
        {"player": "Cid", "bid": [3, 2]},  # out of turn
        {"player": "Ben", "bid": [2, 1]},  # ones while wild, and not a raise
        {"player": "Ben", "call": "exact"},  # no such call here
    ]
    noisy["rounds"][1]["actions"].insert(0, {"player": "Ben", "call": "challenge"})  # opener
    noisy["rounds"][1]["actions"].append({"player": "Ann", "timeout": True})  # after the call
    result = scenario.run(noisy)
    assert result["rounds"][0]["rejected"] == [
        {"index": 1, "player": "Cid", "reason": "not Cid's turn"},
        {
            "index": 2,
            "player": "Ben",
            "reason": "ones are wild: no bids on ones; 2 ones does not raise 2 twos; "
            "the lowest raise is 2 threes",
        },
        {
            "index": 3,
            "player": "Ben",
            "reason": "unknown call 'exact'; this table allows: challenge",
        },
    ]
    assert result["rounds"][1]["rejected"] == [
        {"index": 0, "player": "Ben", "reason": "the opener cannot call: there is no bid yet"},
        {"index": 4, "player": "Ann", "reason": "no round is being played"},
    ]
    for ours, theirs in zip(result["rounds"], clean["rounds"], strict=True):
        assert {**ours, "rejected": []} == theirs
    assert (result["next_opener"], result["winner"]) == (clean["next_opener"], clean["winner"])


def test_a_timeout_has_no_count() -> None:
    doc = with_round(
        0, actions=[{"player": "Ann", "bid": [1, 2]}, {"player": "Ben", "timeout": True}]
    )
    doc["rounds"].pop()
    ruling = scenario.run(doc)["rounds"][0]["ruling"]
    assert ruling["call"] == "timeout" and ruling["count"] is None
    assert ruling["losers"] == ["Ben"] and ruling["winners"] == []


def test_a_round_without_a_call_is_reported_open() -> None:
    doc = with_round(1, actions=[{"player": "Ben", "bid": [1, 6]}])
    result = scenario.run(doc)
    assert result["rounds"][1]["ruling"] is None
    assert result["next_opener"] is None


def test_the_scenario_is_played_with_the_factorys_ruleset() -> None:
    seen = []

    def factory(preset, variants, options):
        seen.append((preset, variants, options))
        return Ruleset.build(variants, {"standard.wild_ones": False})

    result = scenario.run(base(), factory)
    assert seen == [(None, ["dice-loss"], {})]
    assert result["rounds"][1]["ruling"]["count"] == 2  # the one is not wild


def test_golden_files_load(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(base()), encoding="utf-8")
    assert scenario.load(path) == base()


# --- errors -------------------------------------------------------------------------------------


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"cannot read .*missing\.json"):
        scenario.load(tmp_path / "missing.json")


def test_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"players": ["Ann", "Ben",]}', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad\.json is not valid JSON"):
        scenario.load(path)


def broken(path: str, value: Any) -> dict[str, Any]:
    """``base()`` with the value at ``path`` (dot-separated keys and indexes) replaced."""
    doc = copy.deepcopy(base())
    *parents, last = path.split(".")
    target: Any = doc
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "a scenario is a JSON object"),
        (base(colour="red"), "unknown keys: colour"),
        (broken("players", ["Ann"]), "at least two names"),
        (broken("players", ["Ann", "Ann"]), "player names must be unique"),
        (broken("variants", "dice-loss"), "must be a list of names"),
        (broken("variants", [1, "dice-loss"]), "must be a list of names"),
        (broken("options", ["standard.wild_ones"]), "must be an object"),
        (broken("dice_per_player", 0), "positive integer"),
        (broken("first_opener", "Zed"), "first_opener 'Zed' is not a player"),
        (broken("seed", [1]), "seed"),
        (broken("rounds", {}), "must be a list"),
        (broken("rounds.0", []), "round 1 must be an object"),
        (broken("rounds.0.dice", [[2, 2]]), "must map each living player to a roll"),
        (broken("rounds.0.dice.Zed", [1, 1]), "round 1: unknown player 'Zed'"),
        (broken("rounds.0.dice.Ann", [2, 2, 2]), "round 1: Ann holds 2 dice, not 3"),
        (broken("rounds.1.dice.Ben", [6, 6]), "round 2: Ben holds 1 dice, not 2"),
        (broken("rounds.0.dice.Ann", [2, 7]), "Ann's roll must be a list of faces 1-6"),
        (broken("rounds.0.dice.Ann", "22"), "Ann's roll must be a list of faces 1-6"),
        (broken("rounds.0.actions", {"player": "Ann"}), 'round 1: "actions" must be a list'),
        (broken("rounds.0.actions.0", "Ann bids"), "action 0: must be an object"),
        (broken("rounds.0.actions.1.player", "Zed"), "action 1: unknown player 'Zed'"),
        (broken("rounds.0.actions.0", {"player": "Ann"}), "exactly one of bid, call, timeout"),
        (
            broken("rounds.0.actions.0", {"player": "Ann", "bid": [1, 2], "timeout": True}),
            "exactly one of bid, call, timeout",
        ),
        (broken("rounds.0.actions.0.bid", [2, "twos"]), "a bid is \\[quantity, face\\]"),
        (broken("rounds.0.actions.0.bid", [2, 2, 2]), "a bid is \\[quantity, face\\]"),
        (broken("rounds.0.actions.2.call", True), "a call names its kind"),
        (broken("rounds.0.actions.2", {"player": "Cid", "timeout": "yes"}), "timeout must be true"),
        (broken("variants", ["dice-loss", "no-such-variant"]), "unknown variant 'no-such-variant'"),
        (broken("options", {"standard.wild_ones": "maybe"}), r"option standard\.wild_ones"),
        (base(variants=[]), "no variant makes a lost round cost anything"),
        (base(preset="no-such-preset"), "unknown preset 'no-such-preset'"),
    ],
)
def test_malformed_scenarios_raise_scenario_error(doc: Any, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        scenario.run(doc)


def test_missing_roll_for_a_living_player() -> None:
    doc = base()
    del doc["rounds"][0]["dice"]["Cid"]
    with pytest.raises(ScenarioError, match="round 1: no roll for Cid"):
        scenario.run(doc)


def test_missing_dice_altogether() -> None:
    doc = base()
    del doc["rounds"][0]["dice"]
    with pytest.raises(ScenarioError, match='round 1: "dice" must map'):
        scenario.run(doc)


def test_a_roll_for_a_player_who_is_out() -> None:
    doc = base(dice_per_player=1)
    doc["rounds"] = [
        {
            "dice": {"Ann": [2], "Ben": [3], "Cid": [4]},
            "actions": [{"player": "Ann", "bid": [3, 2]}, {"player": "Ben", "call": "challenge"}],
        },
        {"dice": {"Ann": [1], "Ben": [2], "Cid": [3]}},
    ]
    with pytest.raises(ScenarioError, match="round 2: Ann is out and has no dice"):
        scenario.run(doc)


def test_a_round_after_the_game_ended() -> None:
    doc = base(players=["Ann", "Ben"], dice_per_player=1)
    doc["rounds"] = [
        {
            "dice": {"Ann": [2], "Ben": [3]},
            "actions": [{"player": "Ann", "bid": [2, 2]}, {"player": "Ben", "call": "challenge"}],
        },
        {"dice": {"Ben": [4]}},
    ]
    with pytest.raises(ScenarioError, match="round 2: the game is already over"):
        scenario.run(doc)
    assert scenario.run({**doc, "rounds": doc["rounds"][:1]})["winner"] == "Ben"


def test_a_round_after_a_round_that_did_not_end() -> None:
    doc = with_round(0, actions=[{"player": "Ann", "bid": [2, 2]}])
    with pytest.raises(ScenarioError, match="round 2: round 1 did not end with a call"):
        scenario.run(doc)


def test_rigged_outcomes_never_drawn() -> None:
    # Neither the baseline nor dice loss draws from a "trigger" stream.
    with pytest.raises(
        ScenarioError, match=r"round 1: rigged outcomes never drawn: \{'trigger': \['bang'\]\}"
    ):
        scenario.run(with_round(0, trigger=["bang"]))
    with pytest.raises(ScenarioError, match="round 1: 'trigger' must be a list"):
        scenario.run(with_round(0, trigger="bang"))


def test_rigged_outcomes_in_an_unfinished_last_round_are_never_drawn() -> None:
    doc = with_round(1, actions=[{"player": "Ben", "bid": [1, 6]}], trigger=["bang"])
    with pytest.raises(ScenarioError, match="round 2: rigged outcomes never drawn"):
        scenario.run(doc)


def test_a_misspelt_round_key_does_not_pass_silently() -> None:
    doc = base()
    doc["rounds"][1]["action"] = doc["rounds"][1].pop("actions")
    with pytest.raises(ScenarioError, match=r"never drawn: \{'action'"):
        scenario.run(doc)
