"""The demo's hard bots never wait for the endgame solver: a miss is solved in the background."""

from __future__ import annotations

import time
from random import Random

import pytest

from liarsdice import Game, Ruleset, endgame
from liarsdice.bots.mixed_bot import ENDGAME_LIMITS, MixedBot
from liarsdice_demo.tables import endgames
from liarsdice_demo.tables.bot_driver import new_bot


@pytest.fixture
def fresh_store(monkeypatch: pytest.MonkeyPatch) -> endgame.Store:
    store = endgame.Store(None)
    monkeypatch.setattr(endgame.solving, "default_store", lambda: store)
    return store


def test_a_hard_bot_plays_on_while_its_endgame_is_solved_aside(fresh_store: endgame.Store) -> None:
    rules = Ruleset.build(["wild-sixes", "dice-loss"], {"standard.wild_ones": False})
    bot = new_bot("mixed", rules)
    assert isinstance(bot, MixedBot) and bot.endgames == "cached"
    game = Game(rules, ["Iris", "Boris (bot)"], Random(0), dice_per_player=1)
    game.start_round({"Iris": [4], "Boris (bot)": [2]})
    assert game.state.round is not None
    view = game.view(game.state.round.turn)
    started = time.perf_counter()
    first = bot.policy(view)  # a miss: the heuristic answers at once, the solver starts aside
    assert time.perf_counter() - started < 0.5
    assert first == MixedBot(rules, Random(0), endgames="off").policy(view)
    assert not endgames.solve_later(rules, view)  # one solve at a time
    deadline = time.monotonic() + 60
    while endgame.cached(rules, view, limits=ENDGAME_LIMITS, store=fresh_store) is None:
        assert time.monotonic() < deadline, "the background solve did not finish"
        time.sleep(0.1)
    solved = endgame.cached(rules, view, limits=ENDGAME_LIMITS, store=fresh_store)
    assert solved is not None
    assert bot.policy(view) != first  # now the solved policy
    while endgames.solving():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert endgames.solve_later(rules, view)  # free again: a store hit, done at once
    while endgames.solving():
        assert time.monotonic() < deadline
        time.sleep(0.01)
