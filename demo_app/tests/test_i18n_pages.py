"""The pages in English, Ukrainian and Russian: the language switch, the cookie that remembers
it, ``Accept-Language``, the embedded text of the scripts and complete catalogs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import liarsdice_demo
from liarsdice.catalogs import problems
from liarsdice_demo.text import i18n

UK = {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}


def create(client: Any, **fields: Any) -> dict[str, Any]:
    body = {"nickname": "Iris", "preset": "dudo", "seats": 3, "bot_kind": "none", **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.json
    return response.json


def lang_of(page: str) -> str:
    found = re.search(r'<html lang="(\w+)">', page)
    assert found is not None
    return found.group(1)


def client_text(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="text">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_accept_language_gives_the_ukrainian_lobby(client: Any) -> None:
    page = client.get("/", headers=UK).get_data(as_text=True)
    assert lang_of(page) == "uk"
    assert "Новий стіл" in page and "Створити стіл" in page
    assert "New table" not in page
    assert 'aria-current="true">Українська</b>' in page  # the switch marks the page's language


def test_english_is_the_default(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    assert lang_of(page) == "en" and "New table" in page
    assert 'href="/?lang=uk"' in page and 'href="/?lang=ru"' in page


@pytest.mark.parametrize("header", ["de-DE,de;q=0.9", "xx", ""])
def test_a_language_nobody_translated_reads_in_english(client: Any, header: str) -> None:
    page = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert lang_of(page) == "en" and "New table" in page


def test_an_unknown_switch_or_cookie_is_ignored(client: Any) -> None:
    page = client.get("/?lang=de", headers=UK)
    assert lang_of(page.get_data(as_text=True)) == "uk"
    assert "lang=" not in page.headers.get("Set-Cookie", "")
    client.set_cookie(i18n.COOKIE, "xx")
    assert lang_of(client.get("/").get_data(as_text=True)) == "en"


def test_the_switch_sets_the_cookie_which_wins_over_accept_language(client: Any) -> None:
    switched = client.get("/leaderboard?lang=ru", headers=UK)
    assert lang_of(switched.get_data(as_text=True)) == "ru"
    cookie = switched.headers["Set-Cookie"]
    assert cookie.startswith("lang=ru;") and "SameSite=Lax" in cookie
    assert "Max-Age=31536000" in cookie
    later = client.get("/", headers=UK).get_data(as_text=True)  # remembered
    assert lang_of(later) == "ru" and "Новый стол" in later
    back = client.get("/?lang=en", headers=UK).get_data(as_text=True)
    assert lang_of(back) == "en"
    assert lang_of(client.get("/", headers=UK).get_data(as_text=True)) == "en"


def test_the_switch_keeps_the_rest_of_the_query(client: Any) -> None:
    page = client.get("/odds-nowhere?dice=7", headers=UK).get_data(as_text=True)  # a 404 page
    assert lang_of(page) == "uk"
    assert 'href="/odds-nowhere?dice=7&amp;lang=en"' in page


def test_the_rules_page_of_a_table_in_ukrainian(client: Any) -> None:
    made = create(client)
    page = client.get(f"/t/{made['code']}/rules", headers=UK).get_data(as_text=True)
    assert lang_of(page) == "uk"
    assert "Правила столу" in page
    assert "кубик" in page and "Викриття" in page  # the rules themselves, from core


def test_the_table_page_embeds_the_translated_client_text(client: Any) -> None:
    made = create(client)
    page = client.get(f"/t/{made['code']}?lang=uk").get_data(as_text=True)
    text = client_text(page)
    assert text["lang"] == "uk"
    assert text["yourTurn"] == "Ваш хід"
    assert text["dice"] == {
        "one": "{n} кубик",
        "few": "{n} кубики",
        "many": "{n} кубиків",
        "other": "{n} кубиків",
    } or set(text["dice"]) >= {"one", "few", "many"}
    assert text["faces"]["5"]["few"] == "пʼятірки"
    assert text["bots"]["mixed"] == "складний бот"
    assert text["bots"]["bayes"] == "класичний складний бот"
    boot = json.loads(re.search(r'id="boot">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    assert boot["config"]["call_titles"]  # the calls by their titles, from the plugins
    english = client_text(client.get(f"/t/{made['code']}?lang=en").get_data(as_text=True))
    assert english["yourTurn"] == "Your turn"
    assert english["dice"] == {"one": "{n} die", "other": "{n} dice"}


@pytest.mark.parametrize(
    ("lang", "out", "goes_out", "one_bullet", "two_bullets"),
    [
        ("uk", "поза грою", "вибуває", "1 набій з 6", "2 набої з 6"),
        ("ru", "вне игры", "выбывает", "1 патрон из 6", "2 патрона из 6"),
        ("en", "out", "goes out", "1 bullet of 6", "2 bullets of 6"),
    ],
)
def test_a_seat_already_out_and_a_loser_going_out_read_apart_and_bullets_read_as_words(
    client: Any, lang: str, out: str, goes_out: str, one_bullet: str, two_bullets: str
) -> None:
    """A seat out since an earlier round says "out of the game", not "goes out" (only a loser the
    ruling puts out goes out), and the revolver's load reads "1 bullet of 6", not "1/6"."""
    made = create(client)
    text = client_text(client.get(f"/t/{made['code']}?lang={lang}").get_data(as_text=True))
    assert (text["out"], text["goesOut"]) == (out, goes_out)
    forms = text["bullets"]
    one = forms["one"].format(n=1, chambers=6)
    two = (forms["few"] if "few" in forms else forms["other"]).format(n=2, chambers=6)
    assert (one, two) == (one_bullet, two_bullets)


#: Developer notation and words that players should not meet: formulas of a quantity q
#: ("ceil(q/2)", "2q+1"), and how a page is made ("generated from the code that plays it").
DEVELOPER_WORDS = re.compile(
    r"ceil\(|floor\(|\b\d*q\s*[+/*-]|\b\d+q\b|\bq/\d|generated from|the code that|"
    r"згенерован|з коду|из кода|созданн",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_player_pages_use_player_words(client: Any, lang: str) -> None:
    """Every option's label and choices in the lobby, and a table's rules page (with aces-switch,
    whose choices read "2q+1" and "2q"), say things in words, not formulas or code."""
    catalog = client.get(f"/api/catalog?lang={lang}").json
    shown = [
        text
        for variant in catalog["variants"]
        for option in variant["options"]
        for text in [option["label"], *option["choice_labels"].values()]
    ]
    body = {"nickname": "Iris", "preset": "casino", "variants": ["aces-switch"], "seats": 3}
    made = client.post("/api/tables", json=body).json
    assert made["ok"], made
    rules = client.get(f"/t/{made['code']}/rules?lang={lang}").get_data(as_text=True)
    found = [text for text in [*shown, rules] if DEVELOPER_WORDS.search(text)]
    assert not found, [DEVELOPER_WORDS.search(text)[0] for text in found]  # type: ignore[index]
    # an option whose choices have words does not explain them by their keys ("player: ...")
    keyed = [
        option["label"]
        for variant in catalog["variants"]
        for option in variant["options"]
        for key in option["choice_labels"]
        if f"{key}:" in option["label"]
    ]
    assert keyed == []


def test_the_lobby_shows_bot_levels_in_the_page_language(client: Any) -> None:
    page = client.get("/?lang=ru").get_data(as_text=True)
    assert '<option value="mixed" title="Сложный бот (mixed)">Сложный бот</option>' in page
    assert ">Классический сложный бот</option>" in page


def test_the_catalogs_are_complete() -> None:
    package = Path(liarsdice_demo.__file__).parent
    assert problems(package, i18n.DOMAIN) == []
