"""Nicknames that pass for another (same Unicode TR39 skeleton) beside a name at the table or on
the leaderboard, and nicknames with characters that show nothing, are refused with a reason in
the page's language; nothing is created or renamed."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, insert, select

from liarsdice_demo.storage.db import get_db, players, writing
from liarsdice_demo.text.names import invisible, lookalike, skeleton

LATIN_A_CYRILLIC = "H\u0430na"  # Hana, its a Cyrillic
CYRILLIC_EN = "\u041dana"  # Hana, its H Cyrillic
FILLERS = ["\u3164", "\uffa0", "\u115f", "\u1160", "\u200b", "\u200d", "\u2060", "\ufeff"]
FILLERS += ["\u00ad", "\u2800", "\u202e", "\u034f", "\ufe0f", "\U000e0100"]

REASONS = {
    "en": "looks like Hana, who sits at this table",
    "uk": "схоже на імʼя за цим столом (Hana)",
    "ru": "похоже на имя за этим столом (Hana)",
}
BOARD_REASONS = {
    "en": "looks like Hana on the leaderboard",
    "uk": "схоже на імʼя в рейтингу (Hana)",
    "ru": "похоже на имя в рейтинге (Hana)",
}
HIDDEN_REASONS = {
    "en": "cannot hold invisible or blank characters (U+3164)",
    "uk": "не може містити невидимих або порожніх символів (U+3164)",
    "ru": "не может содержать невидимых или пустых символов (U+3164)",
}


def test_look_alikes_share_a_skeleton_and_names_of_one_script_keep_theirs() -> None:
    assert lookalike(LATIN_A_CYRILLIC, ["Iris", "Hana"]) == "Hana"
    assert lookalike(CYRILLIC_EN, ["Hana"]) == "Hana"
    assert lookalike("Hana", [LATIN_A_CYRILLIC]) == LATIN_A_CYRILLIC  # either way round
    assert lookalike("Hana", ["Hana", "hana", "Hanna"]) is None  # the same name, other names
    for name in ("Петро", "Анна", "Олена", "Іванна", "Юлія", "Hana"):
        assert lookalike(name, ["Petro", "Anna", "Olena", "Hana", "Iris"]) in (None, "Hana")
        assert invisible(name) is None
    assert lookalike("Анна", ["Anna"]) is None and lookalike("Петро", ["Petro"]) is None


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("paypal", "\u0440\u0430\u0443pal"),  # its p, a and y Cyrillic
        ("Olena", "0lena"),  # digit zero, as confusables.txt has it
        ("\u041el\u0435na", "Olena"),  # its O and e Cyrillic
        ("Ole", "\u07c0le"),  # NKo digit zero: the data wraps right-to-left letters in marks
        ("Iris", "lris"),  # capital I and small l share a prototype (l)
        ("|ris", "1ris"),  # so do the vertical line and the digit one, beside it
        ("modern", "rnodern"),  # m and r n: a prototype of two characters
        ("Hana", "H\u0430n\u0430"),
    ],
)
def test_tr39_look_alikes(name: str, other: str) -> None:
    assert skeleton(name) == skeleton(other)
    assert lookalike(name, [other]) == other and lookalike(other, [name]) == name


@pytest.mark.parametrize(
    ("name", "other"),
    [("hana", "Hana"), ("Olena", "olena"), ("Anna", "Анна"), ("Hana", "H\u00e1na"), ("0", "o")],
)
def test_tr39_tells_apart(name: str, other: str) -> None:
    """Case, an accent, or letters of one script that only look alike in some of their shapes
    (Cyrillic н is small capital H, not n) keep names apart."""
    assert skeleton(name) != skeleton(other)
    assert lookalike(name, [other]) is None


@pytest.mark.parametrize("filler", FILLERS)
def test_characters_that_show_nothing_are_found(filler: str) -> None:
    assert invisible(f"Ha{filler}na") == filler
    assert invisible(filler) == filler


def create(client: Any, nickname: str, lang: str = "en") -> Any:
    body = {"nickname": nickname, "preset": "dudo", "seats": 4, "bot_kind": "none"}
    return client.post(f"/api/tables?lang={lang}", json={**body, "public": True})


def sit(app: Any, code: str, nickname: str, lang: str = "en") -> Any:
    return app.test_client().post(
        f"/api/tables/{code}/seat?lang={lang}", json={"nickname": nickname}
    )


def player_count(app: Any) -> int:
    with app.app_context():
        return int(get_db().execute(select(func.count()).select_from(players)).scalar_one())


def test_a_look_alike_of_a_seated_name_is_refused_in_each_language(app: Any, client: Any) -> None:
    made = create(client, "Hana")
    assert made.status_code == 200, made.json
    code = made.json["code"]
    before = player_count(app)
    for name in (LATIN_A_CYRILLIC, CYRILLIC_EN):
        for lang, reason in REASONS.items():
            refused = sit(app, code, name, lang)
            assert refused.status_code == 422 and reason in refused.json["error"], refused.json
    table = app.extensions["liarsdice_hub"].get(code)
    assert [s.name if s else None for s in table.seats] == ["Hana", None, None, None]
    assert player_count(app) == before  # no player was made for the refused names
    for name in ("Петро", "Анна"):
        assert sit(app, code, name).status_code == 200
    assert [s.name if s else None for s in table.seats] == ["Hana", "Петро", "Анна", None]


def test_a_look_alike_of_a_rated_player_is_refused_in_each_language(app: Any, client: Any) -> None:
    with app.app_context():
        db = get_db()
        with writing(db):
            db.execute(insert(players), {"nickname": "Hana", "rated_games": 3})
    before = player_count(app)
    for name in (LATIN_A_CYRILLIC, CYRILLIC_EN):
        for lang, reason in BOARD_REASONS.items():
            refused = create(app.test_client(), name, lang)
            assert refused.status_code == 422 and reason in refused.json["error"], refused.json
    assert player_count(app) == before
    made = create(client, "Iris")
    assert made.status_code == 200
    refused = sit(app, made.json["code"], CYRILLIC_EN, "uk")
    assert refused.status_code == 422 and BOARD_REASONS["uk"] in refused.json["error"]
    for name in ("Hana", "Петро", "Анна"):  # the same name is not a look-alike
        assert sit(app, made.json["code"], name).status_code == 200


def test_names_with_fillers_are_refused_in_each_language(app: Any, client: Any) -> None:
    before = player_count(app)
    for lang, reason in HIDDEN_REASONS.items():
        refused = create(client, "\u3164", lang)
        assert refused.status_code == 422 and reason in refused.json["error"], refused.json
    for filler in FILLERS:
        refused = create(client, f"Hana{filler}")
        assert refused.status_code == 422, (hex(ord(filler)), refused.json)
        assert f"U+{ord(filler):04X}" in refused.json["error"]
    made = create(client, "Iris")
    for filler in ("\uffa0", "\u115f"):
        refused = sit(app, made.json["code"], filler)
        assert refused.status_code == 422 and "invisible" in refused.json["error"]
    assert player_count(app) == before + 1  # Iris alone
