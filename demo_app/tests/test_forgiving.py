"""A table that forgives a first timeout (the lobby's quick game): the first time a human's clock
runs out in a game, a bot makes the move and the log says so; the next timeout counts."""

from __future__ import annotations

from typing import Any

import attrs

from liarsdice.events import TimedOut
from liarsdice_demo.tables.game_loop import GameLoop

from .test_table_parts import DUDO, StandIn, seated

FORGIVEN = "time ran out, and a bot made this move"


def timeouts(table: StandIn) -> list[str]:
    game = table.match.game
    assert game is not None
    return [event.player for event in game.events if isinstance(event, TimedOut)]


def started(forgiving: bool) -> tuple[StandIn, GameLoop, Any, str]:
    """A dealt game of Iris and Knox, and the player on turn, at a table that forgives or not."""
    table = StandIn(attrs.evolve(DUDO, forgive_first_timeout=forgiving))
    loop = GameLoop(table)
    seated(table, "Iris", "Knox")
    loop.start()
    game = table.match.game
    assert game is not None and game.state.round is not None
    return table, loop, game, game.state.round.turn


def test_the_first_timeout_of_each_human_is_forgiven_once_a_game() -> None:
    table, loop, game, first = started(forgiving=True)
    loop.time_out()
    assert timeouts(table) == []  # a bot moved for them: no timeout was ruled
    assert table.match.moves == 1
    assert any(FORGIVEN in line and line.startswith(first) for line in table.match.log.render("en"))
    seat = next(s for s in table.seating.seats if s is not None and s.name == first)
    assert seat.forgiven and seat.to_data()["forgiven"]
    while first not in timeouts(table):  # every later timeout counts, the other's second too
        round_ = game.state.round
        assert round_ is not None
        if round_.over:
            loop.next_round()
        else:
            loop.time_out()
    assert sum(FORGIVEN in line for line in table.match.log.render("en")) == 2  # one each
    for line, lang in (("час вийшов, і цей хід зробив бот", "uk"), ("время вышло", "ru")):
        assert any(line in shown for shown in table.match.log.render(lang)), lang
    loop.new_game()  # a rematch: a new game, a new grace
    assert not seat.forgiven


def test_a_table_that_does_not_forgive_rules_the_first_timeout() -> None:
    table, loop, _, first = started(forgiving=False)
    loop.time_out()
    assert timeouts(table) == [first]
    assert not any(FORGIVEN in line for line in table.match.log.render("en"))
