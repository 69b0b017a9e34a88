"""Quick phrases: a seated player says a set phrase, every reader sees it in the log in their own
language; a spectator, an unknown phrase or a second phrase too soon is refused and changes
nothing (sockets, then a phone in Ukrainian in Chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from liarsdice_demo.tables.phrases import GAP_SECONDS, PHRASES, say
from liarsdice_demo.tables.table_errors import TableError

from .test_lobby_browser import PHONE
from .test_table_parts import DUDO, StandIn, seated
from .test_websocket import make_table, sit


def test_a_phrase_is_logged_once_per_gap_and_an_unknown_one_is_refused() -> None:
    table = StandIn(DUDO)
    seated(table, "Iris", "Knox")
    iris = table.seating.seats[0]
    assert iris is not None
    say(table.match, iris, "nice", now=100.0)
    assert table.match.log.render("en")[-1] == "Iris: «Nice one!»"
    assert table.match.log.render("uk")[-1] == "Iris: «Гарно!»"
    assert table.match.log.render("ru")[-1] == "Iris: «Здорово!»"
    with pytest.raises(TableError, match="one phrase every 3 seconds"):
        say(table.match, iris, "oops", now=100.0 + GAP_SECONDS - 0.1)
    with pytest.raises(TableError, match="unknown phrase 'free text'"):
        say(table.match, iris, "free text", now=200.0)
    assert len(table.match.log) == 1  # nothing else was logged
    say(table.match, iris, "oops", now=100.0 + GAP_SECONDS)
    assert table.match.log.render("en")[-1] == "Iris: «Oops!»"
    assert all(
        PHRASES[key].render(lang) != str(PHRASES[key]) for key in PHRASES for lang in ("uk", "ru")
    )


def test_a_seated_player_speaks_to_the_table_and_a_spectator_cannot(
    app: Any, make_player: Any
) -> None:
    made, _ = make_table(app, bot_kind="none", seats=2)
    code = made["code"]
    knox = sit(app, code, "Knox")
    iris = make_player(code, made["seat_token"])
    kp = make_player(code, knox["seat_token"])
    watcher = make_player(code)
    for player in (iris, kp, watcher):
        player.expect("welcome")
    iris.send("say", phrase="hello")
    for player in (kp, watcher):  # Knox and the watcher see it in the log (a state each)
        while "Iris: «Hello!»" not in str(player.expect("state")["log"]):
            pass  # an earlier state (a seat taken, a watcher come): expect() times out
    watcher.send("say", phrase="hello")
    assert "spectators cannot act" in watcher.expect("error")["error"]
    kp.send("say", phrase="shout")
    assert "unknown phrase" in kp.expect("error")["error"]


def test_a_phone_player_says_a_phrase_in_ukrainian(live_server: str, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE, locale="uk-UA")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/?lang=uk")
    page.fill("#nickname", "Iris")
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#phrases:not([hidden])")
    button = page.locator("#phrases button[data-phrase=good-luck]")
    assert button.inner_text() == "Щасти!"
    button.click()
    page.wait_for_function(
        "() => document.getElementById('log-lines').innerText.includes('Iris: «Щасти!»')"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    watcher = browser.new_page(viewport=PHONE)  # another browser: a spectator
    watcher.goto(page.url.split("?")[0])
    watcher.wait_for_selector("#log-lines li")
    assert watcher.locator("#phrases button:visible").count() == 0
    assert errors == []
    watcher.close()
    page.close()
