"""Replays in tests: the longest games a table's move limits allow, stored in the demo's history
(also for ``benchmarks/demo_replay.py``), and a replay's steps read back as its page reads them.

Contract: :func:`longest_game` plays a game in which every player on turn makes the lowest legal
bid, and calls only when no bid is left: every round climbs the whole bid ladder, and a game
lasts as many rounds as its economics allow (``chips.start=20`` at 6 x 5: 119 rounds of 181
moves). :func:`store` saves it through the app's own store (``history.save_game``), its seats as
bots, and answers its id. :func:`steps` fetches every page of a replay's steps, checking each
against the cap, and rebuilds every state as ``static/replay.js`` does (:func:`patched`).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import orjson

from liarsdice.engine import count_matching, sides
from liarsdice.events import Event
from liarsdice.game import Game
from liarsdice.legality import legal_bids, legal_calls
from liarsdice.models import Action, GameState
from liarsdice.ruleset import Ruleset
from liarsdice_demo.storage import history
from liarsdice_demo.tables.composition import TableConfig, parse_config

CAP = 2 * 1024 * 1024
"""The most bytes a replay's response may hold (docs/security.md, "Replays: bounded pages")."""
Policy = Callable[[Ruleset, GameState, Random], Action]
"""A move for the table (``liarsdice.simulate.random_action`` is one)."""
CHIPS_20 = {"variants": ["chips"], "options": {"chips.start": 20}, "seats": 6}
"""The longest game the demo seats: 6 x 5 dice that never leave, 20 chips each."""
STALLING = {
    "variants": ["chips", "calza"],
    "options": {"chips.start": 20, "calza.reward": "regain-die", "calza.window": "always"},
    "seats": 6,
}
"""The longest game the demo's move limits allow: calza's ``rounds x 3 + 200`` on top of chips'
119 rounds, and a right exact call that costs nobody anything (played with ``stall``)."""
STALL = 120 * 181
"""The moves a ``STALLING`` game keeps for its end: every chip but one lost, in rounds of at most
181 moves (the bid ladder of 30 dice and the call)."""
SHORT = {"variants": ["dice-loss"], "seats": 2, "dice_per_player": 1}
"""One round: a baseline."""


def _exactly_right(rules: Ruleset, state: GameState, player: str) -> bool:
    """Whether ``player`` may call exact now, and would be right."""
    bid = state.round.current_bid if state.round else None
    if bid is None or count_matching(rules, state, bid.face) != bid.quantity:
        return False
    return "exact" in legal_calls(rules, state, player)


def longest_game(
    config: TableConfig, seed: int = 0, policy: Policy | None = None, stall: int = 0
) -> tuple[list[str], Game]:
    """``config``'s table played to the end with the lowest bid every turn (or ``policy``'s
    moves); (seat names, game). With ``stall``, while more than ``stall`` moves are left under
    the move limit, the player on turn calls exact whenever the bid on the table is exactly
    right: under calza's ``regain-die`` and ``chips`` such a round costs nobody anything, so the
    game lasts until the move limit is nearly spent (``stall``: the moves it still needs)."""
    names = [f"P{seat}" for seat in range(1, config.seats + 1)]
    rules, rng = config.rules, Random(seed)
    game = Game(rules, names, rng, dice_per_player=config.dice_per_player)
    moves = rules.move_limit(len(names), config.dice_per_player).moves
    while not game.over:
        game.start_round()
        while not game.over and game.state.round and game.state.round.resolution is None:
            assert moves > 0, "the game outlasted its move limit"
            moves -= 1
            state = game.state
            if policy is not None:
                game.act(policy(rules, state, rng))
                continue
            player = state.round.turn if state.round else ""
            if stall and moves > stall and _exactly_right(rules, state, player):
                game.call(player, "exact")
                continue
            lowest = legal_bids(rules, state, player, limit=1)
            if lowest:
                game.bid(player, lowest[0].quantity, lowest[0].face)
            else:
                game.call(player)
    return names, game


def store(
    database_url: str,
    data: dict[str, Any],
    seed: int = 0,
    policy: Policy | None = None,
    stall: int = 0,
) -> tuple[int, list[Event]]:
    """Play :func:`longest_game` on the table ``data`` describes and save it; (game id, events)."""
    config = parse_config(data)
    names, game = longest_game(config, seed, policy, stall)
    state = game.state
    record = {
        "code": "LONGGAME",
        "live_key": f"long:{seed}:{policy is None}:{sorted(data.items())!r}",
        "config": config,
        "seats": [
            {"seat": index, "name": name, "player_id": None, "bot_kind": "random"}
            for index, name in enumerate(names)
        ],
        "places": {name: 1 if name in state.winners else 2 for name in names},
        "winners": list(state.winners),
        "sides": [list(side) for side in sides(config.rules, state)],
        "events": list(game.events),
    }
    game_id, _ = history.save_game(database_url, record)
    return game_id, list(game.events)


def patched(before: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The state ``patch`` makes of ``before`` (``replay.js``'s ``patched``)."""
    state = {**before, **patch}
    if patch.get("round"):
        old = before.get("round") or {}
        bids = patch["round"]["bids"]
        kept = (old.get("bids") or [])[: bids["keep"]]
        state["round"] = {**old, **patch["round"], "bids": kept + bids["add"]}
    return state


def steps(client: Any, game_id: int, locale: str = "en", cap: int = CAP) -> list[dict[str, Any]]:
    """Every step of game ``game_id``'s replay in ``locale``, its state rebuilt, read a page at a
    time as the page's script reads them; every page is checked to be at most ``cap`` bytes."""
    found: list[dict[str, Any]] = []
    first: int | None = 0
    while first is not None:
        response = client.get(f"/games/{game_id}/steps?locale={locale}&from={first}")
        assert response.status_code == 200, response.get_data(as_text=True)
        assert len(response.data) <= cap, (first, len(response.data))
        page = orjson.loads(response.data)
        assert page["from"] == first == len(found)
        state: dict[str, Any] = {}
        for step in page["steps"]:
            state = patched(state, step["state"])
            found.append({**step, "state": state})
        first = page["next"]
    assert len(found) == page["total"]
    return found


LAST_STEP_SHOWN = """() => {
  const seats = document.querySelector("#seats"), slider = document.querySelector("#step");
  return seats.dataset.step !== undefined && seats.dataset.step === slider.max;
}"""


def at_last_step(page: Any) -> None:
    """Wait until the replay in the browser ``page`` shows its last step (its page fetched)."""
    page.wait_for_function(LAST_STEP_SHOWN)
