"""Pages and the JSON API through Flask's test client."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from liarsdice.ruleset import installed
from liarsdice_demo import create_app
from liarsdice_demo.tables.composition import parse_config

from .conftest import SETTINGS, create_database
from .replays import steps


def create(client: Any, **fields: Any) -> dict[str, Any]:
    body = {"nickname": "Iris", "preset": "casino", "seats": 3, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.json
    return response.json


def test_lobby_lists_every_installed_variant_and_option(client: Any) -> None:
    """Every installed variant but the examples (``VariantInfo.example``: the tutorial's)."""
    page = client.get("/").get_data(as_text=True)
    for name, variant in installed().items():
        if variant.info.example:
            continue
        if name != "standard":
            assert f'value="{name}"' in page
        for option in variant.options:
            assert option.key in page  # in the embedded catalog the lobby script renders
    assert "Create table" in page


def test_catalog_declares_option_types(client: Any) -> None:
    catalog = client.get("/api/catalog").json
    options = {o["key"]: o for v in catalog["variants"] for o in v["options"]}
    assert options["revolver.chambers"]["type"] == "int"
    assert options["calza.reward"]["choices"] == ["regain-die", "table-pays"]
    assert options["standard.wild_ones"]["type"] == "bool"
    assert "random" in catalog["bot_kinds"]
    assert {p["name"] for p in catalog["presets"]} >= {
        "casino",
        "online",
        "cheko",
        "dudo",
        "perudo",
        "perudo-box",
    }


def test_catalog_gives_the_tables_each_preset_takes(client: Any) -> None:
    presets = {p["name"]: p for p in client.get("/api/catalog").json["presets"]}
    perudo = presets["perudo"]
    assert (perudo["players"], perudo["dice"]) == ([2, 6], [5, 5])
    assert perudo["table"] == "2 to 6 players, 5 dice each"
    assert "palifico" not in perudo["variants"] and "palifico" in presets["perudo-box"]["variants"]
    assert (presets["cheko"]["players"], presets["cheko"]["dice"]) == ([2, None], [1, None])
    assert presets["cheko"]["table"] is None
    uk = client.get("/api/catalog", headers={"Accept-Language": "uk"}).json
    assert {p["name"]: p["table"] for p in uk["presets"]}["dudo"] == (
        "від 2 до 6 гравців, по 5 кубиків у кожного"
    )


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"preset": "perudo", "dice_per_player": 3}, "the perudo preset is for 5 dice each, not 3"),
        ({"preset": "casino", "dice_per_player": 1}, "the casino preset is for 5 dice each, not 1"),
    ],
)
def test_a_table_its_preset_does_not_take_is_refused(
    client: Any, body: dict[str, Any], error: str
) -> None:
    tables = len(client.get("/api/tables").json["tables"])
    answer = client.post("/api/validate", json={**body, "seats": 4})
    assert (answer.status_code, answer.json["ok"], answer.json["error"]) == (422, False, error)
    made = client.post("/api/tables", json={"nickname": "Iris", "public": True, **body})
    assert (made.status_code, made.json["error"]) == (422, error)
    assert len(client.get("/api/tables").json["tables"]) == tables  # nothing was made
    uk = client.post("/api/validate", json=body, headers={"Accept-Language": "uk"}).json
    assert uk["error"].startswith(f"набір правил {body['preset']}: по 5 кубиків у кожного")
    # The same rules without the preset take any table; cheko's seed sets no bounds.
    preset = client.get("/api/catalog").json["presets"]
    variants = next(p["variants"] for p in preset if p["name"] == body["preset"])
    assert client.post("/api/validate", json={**body, "preset": None, "variants": variants}).json[
        "ok"
    ]
    assert client.post("/api/validate", json={**body, "preset": "cheko"}).json["ok"]


def test_validate_explains_an_invalid_combination(client: Any) -> None:
    answer = client.post("/api/validate", json={"variants": ["aces-switch", "ones-locking"]})
    assert answer.status_code == 422
    assert not answer.json["ok"]
    assert "aces-switch" in answer.json["error"] and "ones-locking" in answer.json["error"]
    answer = client.post("/api/validate", json={"variants": ["calza"], "options": {}})
    assert "no variant makes a lost round cost anything" in answer.json["error"]
    answer = client.post("/api/validate", json={"preset": "dudo", "options": {"calza.reward": 3}})
    assert "calza.reward" in answer.json["error"]


def test_validate_accepts_a_valid_combination(client: Any) -> None:
    answer = client.post(
        "/api/validate",
        json={"variants": ["revolver", "calza"], "options": {"revolver.chambers": 8}},
    ).json
    assert answer["ok"]
    assert answer["calls"] == ["challenge", "exact"]
    assert answer["options"]["revolver.chambers"] == 8


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"nickname": ""}, "nickname"),
        ({"seats": 9}, "seats must be 2 to 6"),
        ({"bot_kind": "genius"}, "unknown bot kind"),
        ({"preset": "nope"}, "unknown preset"),
        ({"turn_seconds": "x"}, "turn_seconds"),
    ],
)
def test_create_refuses_bad_settings(client: Any, fields: dict[str, Any], needle: str) -> None:
    body = {"nickname": "Iris", "preset": "casino", **fields}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 422
    assert needle in answer.json["error"]


def test_create_table_and_share_link(client: Any) -> None:
    made = create(client, public=True)
    assert re.fullmatch(r"[A-Z]{8}", made["code"])
    assert made["url"].endswith(f"/t/{made['code']}?key={made['join_key']}")
    assert "ld_player" in client.get_cookie("ld_player").key
    page = client.get(f"/t/{made['code']}").get_data(as_text=True)
    boot = json.loads(
        re.search(r'<script type="application/json" id="boot">(.*?)</script>', page)[1]
    )
    # The seat's own player gets a token of that seat (a new one each time; older ones stay valid).
    table = client.application.extensions["liarsdice_hub"].get(made["code"])
    assert boot["seat_token"] != made["seat_token"]
    for token in (boot["seat_token"], made["seat_token"]):
        assert table.seating.by_token(token) is table.seats[0]
    listed = client.get("/api/tables").json["tables"]
    assert listed[0]["code"] == made["code"] and listed[0]["taken"] == 1


def test_join_by_code_redirects(client: Any) -> None:
    made = create(client)
    response = client.get(f"/join?code={made['code'].lower()}")
    assert response.status_code == 302 and response.location.endswith(f"/t/{made['code']}")
    response = client.get("/join?code=ZZZZZZZZ")
    assert "missing=ZZZZZZZZ" in response.location


def test_second_player_sits_and_the_table_fills(app: Any, client: Any) -> None:
    made = create(client, seats=2)
    other = app.test_client()
    key = made["join_key"]
    sat = other.post(f"/api/tables/{made['code']}/seat", json={"nickname": "Knox", "key": key}).json
    assert sat["ok"] and sat["seat"] == 1 and sat["seat_token"] != made["seat_token"]
    # The same player asking again gets the same seat back, with a new token; both are valid.
    again = other.post(f"/api/tables/{made['code']}/seat", json={}).json
    assert again["seat"] == 1 and again["seat_token"] != sat["seat_token"]
    table = app.extensions["liarsdice_hub"].get(made["code"])
    for token in (again["seat_token"], sat["seat_token"]):
        assert table.seating.by_token(token) is table.seats[1]
    assert table.seating.by_token(made["seat_token"]) is table.seats[0]
    third = app.test_client().post(
        f"/api/tables/{made['code']}/seat", json={"nickname": "Lu", "key": key}
    )
    assert third.status_code == 409 and "taken" in third.json["error"]
    # A spectator's page carries no seat token.
    page = app.test_client().get(f"/t/{made['code']}").get_data(as_text=True)
    assert made["seat_token"] not in page and sat["seat_token"] not in page


def test_rules_page_renders_the_ruleset_description(client: Any) -> None:
    made = create(client)
    page = client.get(f"/t/{made['code']}/rules").get_data(as_text=True)
    assert "<h1>Rules: Casino revolver</h1>" in page
    assert "<strong>" in page and "Chambers in the cylinder: <strong>6</strong>" in page


def test_odds_page_draws_wild_and_plain_side_by_side(client: Any) -> None:
    made = create(client)
    page = client.get(f"/t/{made['code']}/odds?dice=10").get_data(as_text=True)
    assert page.count("<svg") == 6
    assert 'class="wild"' in page and 'class="plain"' in page


def test_unknown_table_is_404(client: Any) -> None:
    assert client.get("/t/QQQQQQQQ").status_code == 404
    assert client.get("/api/tables/QQQQQQQQ").status_code == 404
    assert client.get("/games/999").status_code == 404


def test_bot_game_is_stored_rated_and_replayable(sql_app: Any) -> None:
    app, client = sql_app, sql_app.test_client()
    hub = app.extensions["liarsdice_hub"]
    config = parse_config(
        {"variants": ["dice-loss", "calza"], "seats": 3, "rated": True, "dice_per_player": 2}
    )
    table = hub.create(config, start=True)
    deadline = time.monotonic() + 20
    while table.game_id is None:
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.02)
    board = client.get("/leaderboard").get_data(as_text=True)
    assert "(easy bot)" in board  # random bots, named with their level
    assert client.get(f"/games/{table.game_id}").status_code == 200
    assert "wins the game" in steps(client, table.game_id)[-1]["text"]
    leaders = client.get("/leaderboard")
    assert leaders.status_code == 200
    player_page = client.get("/players/1")
    assert player_page.status_code == 200 and "Games" in player_page.get_data(as_text=True)
    assert f"/games/{table.game_id}" in player_page.get_data(as_text=True)
    assert f"/games/{table.game_id}" in client.get("/").get_data(as_text=True)  # recent games


def test_wild_sixes_needs_no_option_by_hand(client: Any) -> None:
    # What the lobby sends: the variants, and only the options the player changed (none here).
    combination = {"variants": ["wild-sixes", "dice-loss"], "options": {}}
    answer = client.post("/api/validate", json=combination).json
    assert answer["ok"], answer
    assert answer["options"]["standard.wild_ones"] is False
    assert answer["defaults"]["standard.wild_ones"] is False  # what the option form shows
    assert answer["defaults"]["wild-sixes.bid_sixes"] is True
    made = create(client, preset=None, **combination)
    table = client.get(f"/api/tables/{made['code']}").json
    assert table["config"]["options"]["standard.wild_ones"] is False
    assert table["config"]["variants"] == ["dice-loss", "wild-sixes"]
    # Without wild-sixes the form shows the plugin's own default again.
    plain = client.post("/api/validate", json={"variants": ["dice-loss"]}).json
    assert plain["defaults"]["standard.wild_ones"] is True


def test_a_refused_combination_shows_the_engines_reason_and_the_defaults(client: Any) -> None:
    answer = client.post(
        "/api/validate",
        json={"variants": ["wild-sixes", "dice-loss"], "options": {"standard.wild_ones": True}},
    )
    assert answer.status_code == 422
    assert "wild-sixes makes sixes the wild face" in answer.json["error"]
    assert answer.json["defaults"]["standard.wild_ones"] is False
    clash = client.post("/api/validate", json={"variants": ["wild-sixes", "ones-locking"]})
    assert clash.status_code == 422 and "conflicts with" in clash.json["error"]
    made = client.post(
        "/api/tables",
        json={
            "nickname": "Iris",
            "variants": ["wild-sixes", "dice-loss"],
            "options": {"standard.wild_ones": True},
        },
    )
    assert made.status_code == 422 and "wild-sixes" in made.json["error"]


def test_defaults_follow_the_preset() -> None:
    from liarsdice_demo.tables.composition import combination_defaults

    dudo = combination_defaults({"preset": "dudo"})
    assert dudo["calza.reward"] == "regain-die" and dudo["standard.wild_ones"] is True
    assert combination_defaults({"variants": ["nope", 3], "preset": 7}) == {
        "standard.wild_ones": True
    }


def test_odds_page_names_the_tables_wild_faces(client: Any) -> None:
    sixes = create(client, preset=None, variants=["wild-sixes", "dice-loss"])
    page = client.get(f"/t/{sixes['code']}/odds?dice=10").get_data(as_text=True)
    assert "sixes wild" in page and "ones wild" not in page
    assert "or more, sixes wild" in page  # the bars' titles
    assert "no bids on" not in page and "(may " not in page  # every face may be bid here
    plain = create(
        client, preset=None, variants=["dice-loss"], options={"standard.wild_ones": False}
    )
    page = client.get(f"/t/{plain['code']}/odds?dice=10").get_data(as_text=True)
    assert "ones wild" in page and "for comparison" in page
    ones = create(client)  # the casino: ones wild, and never biddable
    page = client.get(f"/t/{ones['code']}/odds?dice=10").get_data(as_text=True)
    assert "ones wild" in page and "for comparison" not in page
    assert "Ones</b> — counts 1 (ones are wild: no bids on ones)" in page


def test_odds_page_with_every_die_known(app: Any, client: Any, monkeypatch: Any) -> None:
    made = create(client, seats=2)
    table = app.extensions["liarsdice_hub"].get(made["code"])
    monkeypatch.setattr(table, "known_dice", lambda name: (2, 2, 2, 2, 2))
    page = client.get(f"/t/{made['code']}/odds?dice=5&hand=mine")
    assert page.status_code == 200  # an exact call on threes cannot succeed: no fair odds
    assert "cannot succeed" in page.get_data(as_text=True)


def test_pages_answer_503_while_the_database_is_away(postgres_url: str, tmp_path: Path) -> None:
    import psycopg

    url = create_database(postgres_url)
    app = create_app({**SETTINGS, "DATABASE": str(tmp_path / "x.sqlite"), "DATABASE_URL": url})
    client = app.test_client()
    assert client.get("/leaderboard").status_code == 200
    name = url.rsplit("/", 1)[1]
    server = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")  # its connections go too
    for path in ("/leaderboard", "/"):
        answer = client.get(path)
        assert answer.status_code == 503 and "Retry-After" in answer.headers, path
        assert "database cannot be reached" in answer.get_data(as_text=True)
    app.extensions["liarsdice_hub"].shutdown()


def test_a_table_created_with_start_is_dealt_with_bots(app: Any, client: Any) -> None:
    made = create(client, bot_kind="mixed", start=True)
    table = app.extensions["liarsdice_hub"].get(made["code"])
    assert table.status == "playing"
    assert all(seat is not None for seat in table.seating.seats)


@pytest.mark.parametrize(
    ("fields", "needle"),
    [({"start": "yes"}, "'start' is true or false"), ({"start": True, "bot_kind": "none"}, "bots")],
)
def test_start_refuses_bad_input_and_makes_no_table(
    app: Any, client: Any, fields: dict[str, Any], needle: str
) -> None:
    answer = client.post("/api/tables", json={"nickname": "Iris", "preset": "casino", **fields})
    assert answer.status_code == 422 and needle in answer.json["error"]
    assert app.extensions["liarsdice_hub"].tables() == []


def test_the_lobby_offers_a_quick_game_of_strong_bots(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    quick = json.loads(re.search(r'id="quick">(.*?)</script>', page).group(1))
    # a newcomer's rules: a timeout costs a die, not the game, and the first one is forgiven
    assert quick["preset"] == "dudo" and quick["bot_kind"] == "mixed"
    assert quick["forgive_first_timeout"] is True
    assert 'id="quick-button"' in page and "<details" in page
