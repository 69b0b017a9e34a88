"""What the table page reads at the end of a game (issue 49): the host's word and its title, the
rating line's words, the summary of a finished game (places, rounds, the best call) and the
watchers, without a browser (tests/test_game_end.py looks at them in one)."""

from __future__ import annotations

from typing import Any

import pytest

from .test_game_end import HOST
from .test_i18n_pages import client_text, create


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_the_host_s_word_and_title_are_translated(client: Any, lang: str) -> None:
    made = create(client)
    text = client_text(client.get(f"/t/{made['code']}?lang={lang}").get_data(as_text=True))
    assert (text["host"], text["hostTitle"]) == HOST[lang]


def ruled(call: str, caller: str, quantity: int, count: int | None, success: bool) -> Any:
    """A ruling event: ``caller`` makes ``call`` on Ada's bid of ``quantity`` fives."""
    from liarsdice.events import RoundResolved
    from liarsdice.models import Bid, Resolution

    loser = "Ada" if success else caller
    return RoundResolved(
        Resolution(call, caller, "Ada", Bid(quantity, 5), count, success, (loser,), ())
    )


PLACES = {"Ada": 3, "Iris": 1, "Knox": 2}


def test_the_summary_lists_places_in_order_and_counts_the_rounds() -> None:
    from liarsdice_demo.tables.summary import summarize

    events = [ruled("challenge", "Iris", 4, 5, False), ruled("challenge", "Knox", 6, 4, True)]
    summary = summarize(events, PLACES)
    assert summary["places"] == [
        {"place": 1, "name": "Iris"},
        {"place": 2, "name": "Knox"},
        {"place": 3, "name": "Ada"},
    ]
    assert summary["rounds"] == 2
    best = summary["best_call"]
    assert (best["round"], best["caller"], best["bid"], best["count"]) == (
        2,
        "Knox",
        {"quantity": 6, "face": 5},
        4,
    )
    assert best["text"].render("en") == (
        "Knox challenged Ada's 6 fives: 4 counted, the bid was a lie — Ada loses the round"
    )
    assert "Knox" in best["text"].render("uk") and "fives" not in best["text"].render("uk")


def test_the_best_call_is_a_right_exact_then_the_most_dice_then_the_latest() -> None:
    from liarsdice_demo.tables.summary import summarize

    wrong_big = ruled("challenge", "Iris", 9, 9, False)  # the bid stood: the caller was wrong
    timeout = ruled("timeout", "Knox", 8, None, True)  # nothing counted: no call
    early = ruled("challenge", "Iris", 5, 3, True)
    late = ruled("challenge", "Knox", 5, 2, True)
    exact = ruled("exact", "Iris", 2, 2, True)
    assert summarize([wrong_big, timeout, early, late], PLACES)["best_call"]["round"] == 4
    assert summarize([early, late, exact], PLACES)["best_call"]["call"] == "exact"
    assert summarize([wrong_big, timeout], PLACES)["best_call"] is None
    nothing = summarize([], PLACES)
    assert (nothing["rounds"], nothing["best_call"]) == (0, None)


def test_the_state_at_game_over_carries_the_summary(app: Any, make_player: Any) -> None:
    """While the game is played ``table.summary`` is null; once it is over every state has it,
    spectators' included: both players by place, the rounds ruled, a best call or null."""
    import random

    from .test_websocket import CASINO_RULES, last_state, make_table, play_turn, wait_until

    made, _ = make_table(app, **CASINO_RULES, seats=2, dice_per_player=1)
    iris = make_player(made["code"], made["seat_token"])
    iris.expect("welcome")
    watcher = make_player(made["code"])
    watcher.expect("welcome")
    iris.send("start")
    table = app.extensions["liarsdice_hub"].get(made["code"])
    rng = random.Random(3)
    wait_until(lambda: table.status == "over", timeout=60, step=lambda: play_turn(iris, rng))
    wait_until(lambda: last_state(watcher)["table"]["status"] == "over", timeout=10)
    playing = [m for m in watcher.messages if m["type"] == "state" and m["view"]]
    assert playing[0]["table"]["summary"] is None
    summary = last_state(watcher)["table"]["summary"]
    winner = last_state(watcher)["view"]["winners"][0]
    assert [p["place"] for p in summary["places"]] == [1, 2]
    assert summary["places"][0]["name"] == winner
    seated = {seat["name"] for seat in last_state(watcher)["table"]["seats"]}
    assert {p["name"] for p in summary["places"]} == seated
    assert summary["rounds"] == sum(1 for m in watcher.messages if m["type"] == "reveal")
    best = summary["best_call"]
    assert best is None or (best["caller"] in best["text"] and best["round"] >= 1)


RATING = {
    "en": ("rating {after} ({delta})", "2nd place", "3 rounds played"),
    "uk": ("рейтинг {after} ({delta})", "місце 2", "Зіграно раундів: 3"),
    "ru": ("рейтинг {after} ({delta})", "место 2", "Сыграно раундов: 3"),
}


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_the_rating_line_names_the_rating_and_says_what_it_is(
    app: Any, client: Any, lang: str
) -> None:
    """A place reads "2nd place" (uk "місце 2"), its rating "rating 1.5 (+1.5)", titled with the
    leaderboard's words on what a rating is; the rounds in words."""
    from flask_babel import force_locale, gettext

    from liarsdice_demo.storage import ratings

    made = create(client)
    text = client_text(client.get(f"/t/{made['code']}?lang={lang}").get_data(as_text=True))
    rating, second, rounds = RATING[lang]
    assert text["rating"] == rating
    assert (text["place"]["two"] if lang == "en" else text["place"]["other"]) == "{n}".join(
        second.split("2")
    )
    forms = text["rounds"]
    assert (forms["other"] if lang == "en" else forms["few"]).format(n=3) == rounds
    with app.test_request_context(), force_locale(lang):
        assert text["ratingTitle"] == gettext(ratings.EXPLAINED)


def watcher(nickname: str | None) -> Any:
    """A spectator's socket stand-in whose player the server knows as ``nickname`` (or not)."""
    from .conftest import Conn

    conn = Conn()
    conn.nickname = nickname  # type: ignore[attr-defined]
    return conn


def test_the_table_is_told_who_watches_as_watchers_come_and_go(app: Any) -> None:
    """Every state carries ``table.watchers``: how many watch on this process and the names the
    server knows (once each, sorted; a seated player's own spectator tab is not a watcher); a
    watcher coming or going sends the seated players a new state."""
    from .conftest import Conn
    from .test_websocket import make_table

    made, _ = make_table(app)
    table = app.extensions["liarsdice_hub"].get(made["code"])
    iris = Conn()
    table.attach(iris, made["seat_token"])
    assert iris.of("state")[-1]["table"]["watchers"] == {"count": 0, "names": []}
    petro, mila, mila_again, guest, own_tab = (
        watcher("Petro"),
        watcher("Mila"),
        watcher("Mila"),
        watcher(None),
        watcher("Iris"),
    )
    for conn in (petro, mila, mila_again, guest, own_tab):
        table.attach(conn, None)
    seen = iris.of("state")[-1]["table"]["watchers"]
    assert seen == {"count": 3, "names": ["Mila", "Petro"]}
    assert guest.of("state")[-1]["table"]["watchers"] == seen
    table.detach(petro)
    table.detach(guest)
    assert iris.of("state")[-1]["table"]["watchers"] == {"count": 1, "names": ["Mila"]}


def test_at_most_twenty_watchers_are_named_and_all_are_counted(app: Any) -> None:
    from liarsdice_demo.tables.fanout import WATCHERS_NAMED

    from .test_websocket import make_table

    made, _ = make_table(app)
    table = app.extensions["liarsdice_hub"].get(made["code"])
    for number in range(WATCHERS_NAMED + 5):
        table.attach(watcher(f"Guest{number:02}"), None)
    shown = table.fanout.watchers()
    assert shown["count"] == WATCHERS_NAMED + 5 and len(shown["names"]) == WATCHERS_NAMED
    assert shown["names"][0] == "Guest00"
