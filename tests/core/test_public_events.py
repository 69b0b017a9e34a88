"""liarsdice.views.public_events: the event log as one seat (or a spectator) may see it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

import pytest

from liarsdice import Bid, BidAction, CallAction, Game, RiggedRandom, Ruleset
from liarsdice.events import (
    BidMade,
    DiceRerolled,
    DiceShown,
    Event,
    PrivateStateSet,
    RoundResolved,
    RoundStarted,
)
from liarsdice.serialization import dumps, from_data, loads, to_data
from liarsdice.testing import LawViolation, RandomChooser, laws, play_game
from liarsdice.testing.laws import public_log
from liarsdice.views import HIDDEN_DIE, public_events

ROLLS = {"Ann": [6, 6, 6], "Ben": [2, 3, 4], "Cid": [1, 5, 5]}
HIDDEN = (HIDDEN_DIE,) * 3


@pytest.fixture
def game(dice_loss_rules: Ruleset) -> Game:
    game = Game(dice_loss_rules, list(ROLLS), Random(0), dice_per_player=3, first_opener="Ann")
    game.start_round(ROLLS)
    game.bid("Ann", 2, 5)
    return game


def rolls_of(events: list[Event], number: int = 1) -> dict[str, tuple[int, ...]]:
    [started] = [e for e in events if isinstance(e, RoundStarted) and e.number == number]
    return dict(started.rolls)


def test_a_spectator_sees_no_dice_before_a_reveal(game: Game) -> None:
    public = public_events(game.events, None)
    assert rolls_of(public) == {name: HIDDEN for name in ROLLS}  # the counts stay readable
    assert len(public) == len(game.events)
    assert [type(e) for e in public] == [type(e) for e in game.events]
    # Nothing else differs: only the dice were hidden.
    assert [e for e in public if not isinstance(e, RoundStarted)] == [
        e for e in game.events if not isinstance(e, RoundStarted)
    ]


@pytest.mark.parametrize("viewer", list(ROLLS))
def test_a_seat_sees_its_own_dice_only(game: Game, viewer: str) -> None:
    rolls = rolls_of(public_events(game.events, viewer))
    assert rolls == {name: tuple(ROLLS[name]) if name == viewer else HIDDEN for name in ROLLS}
    assert rolls[viewer] == game.view(viewer).own_dice


def test_a_challenge_reveals_the_round_to_everyone(game: Game) -> None:
    game.call("Ben")
    lift = next(i for i, e in enumerate(game.events) if isinstance(e, RoundResolved))
    for viewer in [*ROLLS, None]:
        public = public_events(game.events, viewer)
        assert rolls_of(public) == {name: tuple(roll) for name, roll in ROLLS.items()}
        assert rolls_of(public) == game.view(viewer).revealed
        # Just before the ruling the same log still hid them: the lift is what reveals.
        before = rolls_of(public_events(game.events[:lift], viewer))
        assert all(roll == HIDDEN for name, roll in before.items() if name != viewer)


def test_only_the_lifted_round_is_revealed(game: Game) -> None:
    game.call("Ben")  # Ben loses a die
    game.start_round({"Ann": [1, 2, 3], "Ben": [4, 4], "Cid": [5, 6, 6]})
    public = public_events(game.events, "Cid")
    assert rolls_of(public, 1) == {name: tuple(roll) for name, roll in ROLLS.items()}
    assert rolls_of(public, 2) == {"Ann": HIDDEN, "Ben": (HIDDEN_DIE,) * 2, "Cid": (5, 6, 6)}


def test_a_timeout_reveals_nothing(game: Game) -> None:
    game.timeout("Ben")
    resolved = [e for e in game.events if isinstance(e, RoundResolved)]
    assert resolved and resolved[0].resolution.count is None
    assert rolls_of(public_events(game.events, "Ann")) == {
        "Ann": (6, 6, 6),
        "Ben": HIDDEN,
        "Cid": HIDDEN,
    }


def test_bluff_shows_dice_face_up_to_all_and_hides_the_reroll() -> None:
    rules = Ruleset.build(["bluff", "dice-loss"])
    rng = RiggedRandom(0)
    game = Game(rules, list(ROLLS), rng, dice_per_player=3, first_opener="Ann")
    game.start_round(ROLLS)
    rng.rig("reroll", [[2, 3]])
    game.act(BidAction("Ann", Bid(3, 6), {"bluff": {"show": [6]}}))
    for viewer in ("Ben", None):
        public = public_events(game.events, viewer)
        [bid] = [e for e in public if isinstance(e, BidMade)]
        assert bid.payload == {}  # another player's payload
        assert DiceShown("Ann", (6,)) in public  # face up: public
        assert DiceRerolled("Ann", (HIDDEN_DIE,) * 2, (HIDDEN_DIE,) * 2) in public
    own = public_events(game.events, "Ann")
    assert DiceRerolled("Ann", (6, 6), (2, 3)) in own
    assert next(e for e in own if isinstance(e, BidMade)).payload == {"bluff": {"show": [6]}}
    game.call("Ben")
    public = public_events(game.events, "Cid")
    assert DiceRerolled("Ann", (6, 6), (2, 3)) in public  # lifted: the reroll is public too
    assert next(e for e in public if isinstance(e, BidMade)).payload == {}  # payloads never are


def test_private_state_is_hidden_from_others_until_the_cups_are_lifted() -> None:
    rules = Ruleset.build(["pass", "dice-loss"])
    rolls = {"Ann": [2, 3, 4], "Ben": [4, 4, 4], "Cid": [1, 2, 3]}
    game = Game(rules, list(rolls), Random(0), dice_per_player=3, first_opener="Ann")
    game.start_round(rolls)
    game.bid("Ann", 3, 4)
    game.call("Ben", "pass")
    secret = PrivateStateSet("pass", "Ben", "honest", True)
    assert secret in public_events(game.events, "Ben")
    for viewer in ("Ann", "Cid", None):
        public = public_events(game.events, viewer)
        assert secret not in public
        assert PrivateStateSet("pass", "Ben", "", None) in public
    game.act(CallAction("Cid", "doubt"))
    assert all(secret in public_events(game.events, v) for v in ("Ann", "Cid", None))


@pytest.mark.parametrize("viewer", [*ROLLS, None])
def test_public_events_survive_a_json_round_trip(game: Game, viewer: str | None) -> None:
    game.act(CallAction("Ben"))
    game.start_round({"Ann": [1, 2, 3], "Ben": [4, 4], "Cid": [5, 6, 6]})
    public = public_events(game.events, viewer)
    data = to_data(public, list[Event])
    assert from_data(data, list[Event]) == public
    assert loads(dumps(public, list[Event]), list[Event]) == public
    started = [item for item in data if item["type"] == "RoundStarted"][-1]
    assert {name: len(roll) for name, roll in started["rolls"].items()} == {
        "Ann": 3,
        "Ben": 2,
        "Cid": 3,
    }


# --- the privacy law catches a leaky public_events ------------------------------------------------


LEAKS: dict[str, type[Event]] = {
    "rolls": RoundStarted,
    "rerolls": DiceRerolled,
    "secrets": PrivateStateSet,
    "payloads": BidMade,
}


def _leaky(leak: str) -> Callable[[Sequence[Event], str | None], list[Event]]:
    """``public_events`` broken one way: ``leak`` names what it gives away (or gets wrong)."""

    def broken(events: Sequence[Event], viewer: str | None) -> list[Event]:
        public = public_events(events, viewer)
        if leak == "to spectators":
            return list(events) if viewer is None else public
        if leak == "own dice hidden":  # hides too much: disagrees with the view
            return public_events(events, None)
        kind = LEAKS[leak]
        return [e if isinstance(e, kind) else p for e, p in zip(events, public, strict=True)]

    return broken


@pytest.mark.parametrize(
    ("leak", "detail"),
    [
        ("rolls", "shows the rolls"),
        ("to spectators", "shows the rolls"),
        ("rerolls", "shows DiceRerolled"),
        ("secrets", "shows PrivateStateSet"),
        ("payloads", "shows the payload"),
        ("own dice hidden", "and player_view disagree: own dice"),
    ],
)
def test_the_privacy_law_fails_on_a_leaky_public_events(
    monkeypatch: pytest.MonkeyPatch, leak: str, detail: str
) -> None:
    rules = Ruleset.build(["bluff", "pass", "dice-loss"])
    game = play_game(rules, ["a", "b", "c"], 3, 0, RandomChooser(0))  # rerolls, a pass, a lift
    laws.views_hide_dice(rules, game.steps)  # holds for the real thing
    monkeypatch.setattr(public_log, "public_events", _leaky(leak))
    with pytest.raises(LawViolation) as caught:
        laws.views_hide_dice(rules, game.steps)
    assert caught.value.law == laws.HIDDEN and detail in caught.value.detail
