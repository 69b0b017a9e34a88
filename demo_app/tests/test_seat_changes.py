"""Changing the seats before the start (issue 49, missing features): the host puts a bot of a
chosen level in an empty seat and takes it away again, a seated player moves to an empty seat;
every bad request is refused in the reader's language and changes nothing. The seating, the
intents, then sockets, then the table page in Chromium (a Ukrainian phone, an English desktop).
"""

from __future__ import annotations

from typing import Any

import pytest

from liarsdice.i18n import Text
from liarsdice_demo.edge.protocol import Intent
from liarsdice_demo.tables import intents
from liarsdice_demo.tables.game_loop import GameLoop
from liarsdice_demo.tables.seating import Seating
from liarsdice_demo.tables.table_errors import TableError

from .conftest import Conn, create_in_lobby
from .test_phone import fits
from .test_table_parts import DUDO, StandIn, seated
from .test_table_view import DESKTOP, PHONE, open_page
from .test_websocket import make_table, sit


def snapshot(table: StandIn) -> list[Any]:
    """What a refusal must leave as it was: each seat's name, kind, bot kind and index, and the
    log."""
    seats = [(s.name, s.kind, s.bot_kind, s.index) if s else None for s in table.seating.seats]
    return [seats, table.match.log.render("en"), table.seating.generation]


def refused(table: StandIn, conn: Conn, intent: Intent) -> Text:
    """The refusal of ``intent`` from ``conn``, checked to have changed nothing at ``table``."""
    before = snapshot(table)
    with pytest.raises(TableError) as refusal:
        intents.carry_out(table, conn, intent)
    assert snapshot(table) == before and table.broadcasts == 0
    text = refusal.value.text
    assert isinstance(text, Text)  # read in each reader's language
    return text


def at(index: int | None) -> Conn:
    conn = Conn()
    conn.seat = index
    return conn


def test_the_host_adds_a_bot_of_a_level_and_takes_it_away_and_the_start_keeps_it() -> None:
    table = StandIn(DUDO)  # 3 seats, no bots of its own: empty seats are dropped at the start
    seated(table, "Iris")
    host = at(0)
    intents.carry_out(table, host, Intent("add_bot", {"seat": 2, "kind": "odds"}))
    bot = table.seating.seats[2]
    assert bot is not None and (bot.kind, bot.bot_kind, bot.name) == ("bot", "odds", "Cleo (bot)")
    assert bot.bot is not None and table.broadcasts == 1
    assert table.match.log.render("en")[-1] == "The host added a bot: Cleo (bot)."
    assert table.match.log.render("uk")[-1] == "Господар додав бота: Cleo (бот)."
    assert table.match.log.render("ru")[-1] == "Хозяин добавил бота: Cleo (бот)."
    intents.carry_out(table, host, Intent("remove_bot", {"seat": 2}))
    assert table.seating.seats[2] is None and table.broadcasts == 2
    assert table.match.log.render("uk")[-1] == "Господар прибрав бота: Cleo (бот)."
    intents.carry_out(table, host, Intent("add_bot", {"seat": 1, "kind": "mixed"}))
    GameLoop(table).start()  # the bot the host chose plays; the empty seat is dropped
    assert [(s.name, s.bot_kind) for s in table.seating.seats if s] == [
        ("Iris", None),
        ("Boris (bot)", "mixed"),
    ]
    assert table.match.game is not None


def test_a_seated_player_moves_to_an_empty_seat_and_their_tabs_follow() -> None:
    table = StandIn(DUDO)
    seated(table, "Iris", "Knox")
    knox = table.seating.seats[1]
    assert knox is not None
    tabs = [at(1), at(1)]
    for tab in tabs:
        knox.conns[tab] = None
    intents.carry_out(table, tabs[0], Intent("move_seat", {"seat": 2}))
    assert table.seating.seats[1] is None and table.seating.seats[2] is knox
    assert knox.index == 2 and [tab.seat for tab in tabs] == [2, 2]
    assert table.match.log.render("en")[-1] == "Knox moved to seat 3."
    assert table.match.log.render("uk")[-1] == "Knox: тепер місце 3."
    assert table.match.log.render("ru")[-1] == "Knox: теперь место 3."
    intents.carry_out(table, at(0), Intent("move_seat", {"seat": 1}))  # the host may move too
    assert table.seating.seats[1] is not None and table.seating.seats[1].name == "Iris"
    assert table.seating.seats[1].player_id == table.seating.host_player


def test_another_process_loads_the_moves_and_bots_and_its_tabs_follow() -> None:
    """Seats changed in one process (stored) and loaded in another: the tabs this one holds
    follow their player to the new seat, and a bot added there gets a bot here."""
    here = Seating(3, host_player=1, public=True)
    here.take(1, "Iris", None, waiting=True)
    knox = here.take(2, "Knox", None, waiting=True)
    tab = at(1)
    knox.conns[tab] = None
    there = Seating(3, host_player=1, public=True)
    there.load(here.to_data(), here.generation, DUDO.rules)
    host, moving = there.seats[0], there.seats[1]
    assert host is not None and moving is not None
    there.move(moving, 2, waiting=True)
    there.add_bot(host, 1, "random", DUDO.rules, waiting=True)
    assert here.load(there.to_data(), there.generation, DUDO.rules) == []  # nobody is gone
    moved, bot = here.seats[2], here.seats[1]
    assert moved is not None and moved.name == "Knox" and moved.conns == {tab: None}
    assert tab.seat == 2
    assert bot is not None and bot.bot_kind == "random" and bot.bot is not None


REFUSALS = [
    # (who asks: seat index, intent, en, uk, ru)
    (1, "add_bot", {"seat": 2, "kind": "odds"}, "only the table's host can add or remove bots",
     "додавати й прибирати ботів може лише господар столу",
     "добавлять и убирать ботов может только хозяин стола"),
    (0, "add_bot", {"seat": 1, "kind": "odds"}, "that seat is taken", "це місце вже зайняте",
     "это место уже занято"),
    (0, "add_bot", {"seat": 2, "kind": "smart"},
     "unknown bot kind 'smart': choose one of random, odds, mixed, bayes",
     "невідомий вид бота 'smart'", "неизвестный вид бота 'smart'"),
    (0, "add_bot", {"seat": 3, "kind": "odds"}, "there is no such seat at this table",
     "за цим столом немає такого місця", "за этим столом нет такого места"),
    (0, "add_bot", {"seat": -1, "kind": "odds"}, "there is no such seat at this table",
     "за цим столом немає такого місця", "за этим столом нет такого места"),
    (0, "remove_bot", {"seat": 1}, "there is no bot in that seat", "на цьому місці немає бота",
     "на этом месте нет бота"),
    (0, "remove_bot", {"seat": 2}, "there is no bot in that seat", "на цьому місці немає бота",
     "на этом месте нет бота"),
    (1, "move_seat", {"seat": 0}, "that seat is taken", "це місце вже зайняте",
     "это место уже занято"),
    (1, "move_seat", {"seat": 1}, "you already sit in that seat", "ви вже сидите на цьому місці",
     "вы уже сидите на этом месте"),
    (1, "move_seat", {"seat": 9}, "there is no such seat at this table",
     "за цим столом немає такого місця", "за этим столом нет такого места"),
    (None, "move_seat", {"seat": 2}, "spectators cannot act", "", ""),
]  # fmt: skip


@pytest.mark.parametrize(("who", "kind", "fields", "en", "uk", "ru"), REFUSALS)
def test_a_bad_request_is_refused_in_each_language_and_changes_nothing(
    who: int | None, kind: str, fields: dict[str, Any], en: str, uk: str, ru: str
) -> None:
    table = StandIn(DUDO)
    seated(table, "Iris", "Knox")
    why = refused(table, at(who), Intent(kind, fields))
    assert why.render("en").startswith(en)
    assert why.render("uk").startswith(uk) and why.render("ru").startswith(ru)


def test_nothing_changes_seats_once_the_game_has_started() -> None:
    table = StandIn(DUDO)
    seated(table, "Iris")
    intents.carry_out(table, at(0), Intent("add_bot", {"seat": 2, "kind": "random"}))
    GameLoop(table).start()  # Iris and the bot, now seats 0 and 1
    table.broadcasts = 0
    host = at(0)
    texts = [
        refused(table, host, Intent("add_bot", {"seat": 1, "kind": "odds"})),
        refused(table, host, Intent("remove_bot", {"seat": 1})),
        refused(table, host, Intent("move_seat", {"seat": 1})),
    ]
    assert [text.render("uk") for text in texts] == [
        "ботів можна додавати й прибирати лише до початку гри",
        "ботів можна додавати й прибирати лише до початку гри",
        "пересідати можна лише до початку гри",
    ]
    assert texts[2].render("ru") == "пересаживаться можно только до начала игры"


# --- sockets -------------------------------------------------------------------------------------


def test_over_sockets_the_host_seats_a_bot_a_player_moves_and_refusals_come_in_their_language(
    app: Any, make_player: Any
) -> None:
    made, _ = make_table(app, bot_kind="none", seats=4)
    code = made["code"]
    knox = sit(app, code, "Knox")
    iris = make_player(code, made["seat_token"])
    kp = make_player(f"{code}?lang=uk", knox["seat_token"])  # Knox reads the table in Ukrainian
    for player in (iris, kp):
        player.expect("welcome")
    iris.send("add_bot", seat=3, kind="mixed")
    state = kp.expect("state", seat=1)
    while state["table"]["seats"][3] is None:  # an earlier state (a socket come)
        state = kp.expect("state", seat=1)
    assert state["table"]["seats"][3]["bot_kind"] == "mixed"
    assert state["log"][-1] == "Господар додав бота: Dmitri (бот)."
    kp.send("add_bot", seat=2, kind="odds")
    assert kp.expect("error", re="add_bot")["error"] == (
        "додавати й прибирати ботів може лише господар столу"
    )
    kp.send("move_seat", seat="2")  # malformed: refused by the protocol, in English
    assert "field 'seat' must be a int" in kp.expect("error")["error"]
    kp.send("move_seat", seat=2)
    moved = kp.expect("state", seat=2)
    assert moved["log"][-1] == "Knox: тепер місце 3." and moved["table"]["seats"][1] is None
    iris.send("start")
    dealt = iris.expect("state", seat=0)
    while dealt["table"]["status"] != "playing":
        dealt = iris.expect("state", seat=0)
    names = [s["name"] for s in dealt["table"]["seats"]]
    assert names == ["Iris", "Knox", "Dmitri (bot)"]  # the empty seat 2 was dropped
    kp.send("move_seat", seat=0)
    assert kp.expect("error", re="move_seat")["error"] == "пересідати можна лише до початку гри"


# --- the table page ------------------------------------------------------------------------------


def seat_card(page: Any, index: int) -> Any:
    return page.locator(f"#seats .seat[data-seat='{index}']")


@pytest.mark.parametrize(
    ("lang", "viewport", "words"),
    [
        ("uk", PHONE, ("Середній бот", "Додати", "Сісти сюди", "прибрати")),
        ("en", DESKTOP, ("Medium bot", "Add", "Sit here", "remove")),
    ],
)
def test_the_host_seats_a_bot_takes_it_away_and_moves_and_a_guest_moves_too(
    live_server: str, browser: Any, lang: str, viewport: dict[str, int], words: tuple[str, ...]
) -> None:
    """Iris (the host) picks "Medium bot" for seat 3 and adds it, takes it away, adds it again,
    then sits in seat 4; Knox, at her table from the share link, sees no bot controls and moves
    to seat 2. Nothing sticks out of a phone."""
    medium, add, sit_here, remove = words
    page = open_page(browser, viewport, locale=lang)
    create_in_lobby(page, live_server, seats="4", bot_kind="none")
    page.wait_for_selector("#seats .seat[data-seat='2'] select.bot-kind")
    empty = seat_card(page, 2)
    picker = empty.locator("select.bot-kind")
    picker.select_option(label=medium)
    assert empty.locator("button.add-bot").inner_text() == add
    empty.locator("button.add-bot").click()
    page.wait_for_selector("#seats .seat[data-seat='2'] button.kick")
    assert "Cleo" in seat_card(page, 2).inner_text()
    assert medium.lower() in seat_card(page, 2).inner_text().lower()  # "Cleo · medium bot"
    fits(page)
    page.screenshot(path=f"/tmp/seats49-bot-{lang}.png", full_page=True)
    button = seat_card(page, 2).locator("button.kick")
    assert button.inner_text() == remove
    button.click()
    page.wait_for_selector("#seats .seat[data-seat='2'] select.bot-kind")
    seat_card(page, 2).locator("button.add-bot").click()  # the level picked is kept
    page.wait_for_selector("#seats .seat[data-seat='2'] button.kick")
    assert medium.lower() in seat_card(page, 2).inner_text().lower()
    share = page.input_value("#share")
    guest = open_page(browser, PHONE, locale="en")
    guest.goto(share)
    guest.fill("#sit-nickname", "Knox")
    guest.click("#sit")
    guest.wait_for_selector("#seats .seat.me[data-seat='1']")
    assert guest.locator("select.bot-kind").count() == 0  # only the host seats bots
    assert guest.locator("#seats button.kick").count() == 0
    guest.locator("#seats .seat[data-seat='3'] button.sit-here").click()
    guest.wait_for_selector("#seats .seat.me[data-seat='3']")
    page.wait_for_selector("#seats .seat[data-seat='3']:has-text('Knox')")
    seat_card(page, 1).locator("button.sit-here").click()  # Iris moves from seat 1 to seat 2
    page.wait_for_selector("#seats .seat.me[data-seat='1']")
    assert seat_card(page, 0).locator("button.sit-here").inner_text() == sit_here
    fits(page)
    page.screenshot(path=f"/tmp/seats49-moved-{lang}.png", full_page=True)
    guest.screenshot(path=f"/tmp/seats49-guest-{lang}.png", full_page=True)
    assert not page.errors and not guest.errors, (page.errors, guest.errors)
