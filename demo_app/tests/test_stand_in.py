"""A seated player who leaves after the start: a bot stands in after the grace, until they return."""

from __future__ import annotations

import time
from typing import Any

from liarsdice.events import DiceChanged, Eliminated
from liarsdice.i18n import Text
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.driving import RESUME_GRACE
from liarsdice_demo.tables.seating import Seating
from liarsdice_demo.tables.stand_in import DEFAULT_GRACE, delay, grace
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.text import narrate

from .conftest import Conn, ManualHub
from .test_websocket import last_state, make_table, sit, wait_until


def _turn(state: dict[str, Any]) -> str | None:
    """Whose turn a state offers moves for (``legal`` comes only on the seat's own turn)."""
    legal, view = state["legal"], state["view"]
    return view["turn"] if legal and legal.get("bids") is not None and view else None


def test_an_away_player_gets_a_bot_until_they_come_back(app: Any, make_player: Any) -> None:
    app.config.update(AWAY_GRACE=0.3)  # the turn clock (10 s) never runs out in this test
    made, _ = make_table(app, seats=2, bot_kind=None, dice_per_player=5, turn_seconds=10)
    code = made["code"]
    knox = sit(app, code, "Knox")
    iris = make_player(code, made["seat_token"])
    kp = make_player(code, knox["seat_token"])
    kp.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(code)
    wait_until(lambda: table.status == "playing")
    kp.close()
    wait_until(lambda: not last_state(iris)["table"]["seats"][1]["connected"])

    def step() -> None:  # Iris bids the lowest bid on her turns; Knox's turns are the bot's
        state = last_state(iris)
        if _turn(state) == "Iris" and state["legal"]["bids"]:
            quantity, face = state["legal"]["bids"][0]
            iris.send("bid", quantity=quantity, face=face)
            iris.messages.append({**state, "legal": None})  # acted: wait for the next state

    away = "Knox is away: a bot plays for them"
    wait_until(lambda: away in last_state(iris)["log"], timeout=8, step=step)
    seat = last_state(iris)["table"]["seats"][1]
    assert seat["stand_in"] is True and seat["connected"] is False
    assert not any("clock ran out" in line for line in last_state(iris)["log"])
    assert "Knox відійшов(-ла): за нього грає бот" in table.match.log.render("uk")
    assert "Knox отошёл(-ла): за него играет бот" in table.match.log.render("ru")

    # Knox comes back: the log says so, and his next turn waits for him (no bot plays it).
    back = make_player(code, knox["seat_token"])
    back.expect("welcome")
    back.expect("state")  # its first state follows the welcome: last_state(back) reads it below
    wait_until(lambda: "Knox is back" in last_state(iris)["log"], timeout=5)
    assert last_state(iris)["table"]["seats"][1]["stand_in"] is False
    assert "Knox повернувся(-лася)" in table.match.log.render("uk")
    wait_until(lambda: _turn(last_state(back)) == "Knox", timeout=8, step=step)
    moves = table.match.moves
    time.sleep(1.0)  # over three graces: nothing is played for him
    assert table.match.moves == moves and _turn(last_state(back)) == "Knox"


def test_the_grace_is_a_setting_and_a_standing_bot_moves_at_bot_speed() -> None:
    class Seat:
        stand_in = False

    assert grace({}) == DEFAULT_GRACE and grace({"AWAY_GRACE": 1.5}) == 1.5
    seat = Seat()
    assert delay(seat, {"BOT_DELAY": 0.1, "AWAY_GRACE": 2}) == 2  # type: ignore[arg-type]
    seat.stand_in = True
    assert delay(seat, {"BOT_DELAY": 0.1, "AWAY_GRACE": 2}) == 0.1  # type: ignore[arg-type]


def _table() -> tuple[TableSession, ManualHub]:
    config = parse_config({"preset": "dudo", "seats": 2, "bot_kind": "none", "turn_seconds": 120})
    hub = ManualHub()
    table = TableSession("AWAY", config, hub, host_player=1)
    table.sit(1, "Iris")
    table.sit(2, "Knox", table.join_key)
    return table, hub


def _stand_in_jobs(hub: ManualHub) -> list[Any]:
    return [job for job in hub.scheduler.jobs if job.args[1].__name__ == "stand_in_turn"]


def test_a_stand_in_is_stored_and_a_player_back_on_time_is_played_for_by_no_one() -> None:
    table, hub = _table()
    table.start_now()
    (job,) = _stand_in_jobs(hub)  # nobody has a socket open: the player on turn is away
    turn = table.match.game.state.round.turn  # type: ignore[union-attr]
    seat = table.seating.named(turn)
    assert seat is not None
    conn = Conn()
    table.attach(conn, table.seat_token(seat))  # back within the grace
    job()
    assert table.match.moves == 0 and not seat.stand_in

    table.detach(conn)  # gone again on their own turn: a bot plays it after the grace
    (job,) = _stand_in_jobs(hub)[-1:]
    job()
    assert table.match.moves == 1 and seat.stand_in
    assert f"{turn} is away: a bot plays for them" in table.match.log.render("en")
    stored = hub.store.table("AWAY")
    assert stored is not None and stored.record["seats"][seat.index]["stand_in"] is True
    copy = TableSession.restore(stored, hub)
    assert copy.seating.named(turn).stand_in  # type: ignore[union-attr]

    table.attach(Conn(), table.seat_token(seat))
    assert not seat.stand_in and f"{turn} is back" in table.match.log.render("en")


def test_a_resumed_table_holds_its_stand_ins_back_while_players_reconnect() -> None:
    table, hub = _table()
    table.start_now()
    delays: list[tuple[float, str]] = []
    later = hub.scheduler.call_later

    def recorded(delay: float, fn: Any) -> None:
        delays.append((delay, fn.args[1].__name__))
        later(delay, fn)

    hub.scheduler.call_later = recorded  # type: ignore[method-assign]
    table.drive()  # as after a restart: nobody has reconnected yet
    (held,) = [delay for delay, name in delays if name == "stand_in_turn"]
    assert RESUME_GRACE - 1 < held <= RESUME_GRACE


def test_a_taken_name_is_announced() -> None:
    seating = Seating(3, host_player=1, public=True)
    first = seating.take(1, "Ann", None, waiting=True)
    second = seating.take(2, "Ann", None, waiting=True)
    assert seating.renamed("Ann", first) is None
    said = seating.renamed("Ann", second)
    assert (
        said is not None and said.render("en") == "The name Ann was taken: Ann 2 sits at the table"
    )
    assert said.render("uk") == "Ім'я Ann вже зайняте: за стіл сідає Ann 2"
    assert said.render("ru") == "Имя Ann уже занято: за стол садится Ann 2"


def test_a_renamed_player_is_told_in_the_table_log() -> None:
    config = parse_config({"preset": "dudo", "seats": 3, "bot_kind": "none", "turn_seconds": 120})
    table = TableSession("NAME", config, ManualHub(), host_player=1)
    table.sit(1, "Ann")
    table.sit(2, "Ann", table.join_key)
    assert "The name Ann was taken: Ann 2 sits at the table" in table.match.log.render("en")


def test_a_reason_that_holds_parentheses_is_not_put_in_more() -> None:
    out = narrate.line(Eliminated("Ada (bot)", Text("pulls the trigger (1 of 6 loaded)")))
    dice = narrate.line(DiceChanged("Knox", -1, Text("lost the round")))
    assert out is not None and dice is not None
    assert out.render("en") == "Ada (bot) is out: pulls the trigger (1 of 6 loaded)"
    assert dice.render("en") == "Knox loses 1 die: lost the round"
    assert dice.render("uk") == "Knox віддає 1 кубик: lost the round"
    assert "))" not in out.render("ru")
