"""What players read: bots by level, one bot identity per kind, ratings never below 0, and labels
instead of option keys."""

from __future__ import annotations

import html
import re
from random import Random
from types import SimpleNamespace
from typing import Any

from sqlalchemy import insert

from liarsdice_demo.storage import db, ratings
from liarsdice_demo.storage.history import save_game
from liarsdice_demo.tables.composition import parse_config

NEW = (25.0, 25.0 / 3)
"""A new player's (mu, sigma): the database's defaults."""


def _game(number: int, seats: list[dict[str, Any]], places: dict[str, int]) -> dict[str, Any]:
    """A finished rated game as :func:`save_game` takes it."""
    config = SimpleNamespace(
        title=f"game {number}",
        variants=(),
        rules=SimpleNamespace(options={}),
        preset=None,
        rated=True,
        dice_per_player=5,
    )
    return {
        "code": f"T{number}",
        "config": config,
        "seats": seats,
        "places": places,
        "winners": [min(places, key=places.__getitem__)],
        "sides": [[name] for name in places],
        "events": [],
    }


def _bot(seat: int, kind: str) -> dict[str, Any]:
    return {"seat": seat, "name": "Boris (bot)", "player_id": None, "bot_kind": kind}


def test_a_first_rated_win_shows_a_rating_above_the_start_and_nobody_below_0(
    app: Any, client: Any
) -> None:
    url = app.config["DATABASE_URL"]
    with db.engine_for(url).begin() as conn:
        made = conn.execute(insert(db.players), {"nickname": "Iris", "token_hash": "x"})
        assert made.inserted_primary_key is not None
        iris = int(made.inserted_primary_key[0])
    me = {"seat": 0, "name": "Iris", "player_id": iris, "bot_kind": None}
    _, changes = save_game(url, _game(1, [me, _bot(1, "bayes")], {"Iris": 1, "Boris (bot)": 2}))
    assert changes is not None
    # A new player starts at 0 and their first rated win raises it; the loser is not below 0.
    assert changes["Iris"]["before"] == 0 and changes["Iris"]["after"] > 0
    assert changes["Iris"]["delta"] > 0
    assert changes["Boris (bot)"]["after"] >= 0
    assert not str(changes["Boris (bot)"]["after"]).startswith("-")
    save_game(url, _game(2, [me, _bot(1, "random")], {"Iris": 1, "Boris (bot)": 2}))
    board = client.get("/leaderboard").get_data(as_text=True)
    assert ratings.EXPLAINED in html.unescape(board)
    rows = board[board.index('<table class="board">') :]
    figures = [
        float(cell.replace("\u2212", "-"))
        for cell in re.findall(r"<td>([-\u2212]?[\d.]+)</td>", rows)
    ]
    assert figures and min(figures) >= 0  # ranks, ratings, means, uncertainties, games


def test_each_bot_identity_reads_apart_on_the_leaderboard_and_its_page(
    app: Any, client: Any
) -> None:
    url = app.config["DATABASE_URL"]
    bots = [_bot(0, "mixed"), {**_bot(1, "random"), "name": "Ada (bot)"}]
    save_game(url, _game(1, bots, {"Boris (bot)": 1, "Ada (bot)": 2}))
    bots = [_bot(0, "random"), {**_bot(1, "odds"), "name": "Ada (bot)"}]
    save_game(url, _game(2, bots, {"Boris (bot)": 1, "Ada (bot)": 2}))
    board = client.get("/leaderboard").get_data(as_text=True)
    # "Boris" is two players (one per kind): each row says which.
    assert board.count("Boris (hard bot)") == 1 and board.count("Boris (easy bot)") == 1
    assert "Ada (easy bot)" in board and "Ada (medium bot)" in board
    assert "(bot) (" not in board and "mixed bot" not in board
    pages = [client.get(f"/players/{n}").get_data(as_text=True) for n in range(1, 5)]
    assert sum("<h1" in page and "Boris (hard bot)</h1>" in page for page in pages) == 1


def test_the_leaderboard_names_bots_in_the_page_language(app: Any, client: Any) -> None:
    """ "Boris (medium bot)" was English on the Ukrainian leaderboard, and a bayes bot read
    "Boris (bayes bot)": every kind reads in words, in the page's language."""
    url = app.config["DATABASE_URL"]
    bots = [_bot(0, "odds"), {**_bot(1, "bayes"), "name": "Ada (bot)"}]
    save_game(url, _game(1, bots, {"Boris (bot)": 1, "Ada (bot)": 2}))
    uk = client.get("/leaderboard?lang=uk").get_data(as_text=True)
    assert "Boris (середній бот)" in uk and "Ada (класичний складний бот)" in uk
    assert "bot)" not in uk.replace("(bot)", "")
    ru = client.get("/leaderboard?lang=ru").get_data(as_text=True)
    assert "Boris (средний бот)" in ru and "Ada (классический сложный бот)" in ru
    en = client.get("/leaderboard?lang=en").get_data(as_text=True)
    assert "Boris (medium bot)" in en and "Ada (classic hard bot)" in en
    page = client.get("/players/1?lang=uk").get_data(as_text=True)
    assert "Boris (середній бот)</h1>" in page or "Ada (класичний складний бот)</h1>" in page


def test_the_shown_rating_is_never_negative_and_a_new_player_is_at_0() -> None:
    assert ratings.display(*NEW) == 0 and str(ratings.display(*NEW)) == "0.0"
    rng = Random(5)
    players = [NEW] * 6
    for _ in range(300):
        seated = rng.sample(range(6), rng.randint(2, 6))
        order = seated[:]
        rng.shuffle(order)
        new = ratings.rate([[players[p]] for p in seated], [order.index(p) + 1 for p in seated])
        for p, [rating] in zip(seated, new, strict=True):
            players[p] = rating
        for mu, sigma in players:
            shown = ratings.display(mu, sigma)
            assert shown >= 0 and str(shown)[0] != "-"
            assert shown == max(0, round(mu - 3 * sigma, 1))


def test_the_lobby_offers_bots_by_level_and_options_by_label(client: Any) -> None:
    catalog = client.get("/api/catalog").json
    assert [(b["kind"], b["level"], b["label"]) for b in catalog["bots"][:3]] == [
        ("random", "easy", "Easy bot (random)"),
        ("odds", "medium", "Medium bot (odds)"),
        ("mixed", "hard", "Hard bot (mixed)"),
    ]
    labels = {b["kind"]: b["label"] for b in catalog["bots"]}
    assert labels["bayes"] == "Classic hard bot (bayes)"  # not "bayes" alone
    assert "mixed" in catalog["bot_kinds"]  # the kinds, as the API takes them, are still listed
    options = {o["key"]: o for v in catalog["variants"] for o in v["options"]}
    assert options["revolver.initial_bullets"]["label"] == (
        "Bullets loaded on a player's first lost round"
    )
    assert options["pass.min_dice"]["label"] == "The fewest dice a player must hold to pass"
    assert (
        options["standard.wild_ones"]["label"]
        == "Ones are wild (they count toward every other face)"
    )
    lobby = client.get("/").get_data(as_text=True)
    assert '<option value="mixed" title="Hard bot (mixed)">Hard bot</option>' in lobby
    assert "fill with mixed bots" not in lobby
    uk = {b["kind"]: b["label"] for b in client.get("/api/catalog?lang=uk").json["bots"]}
    assert uk["bayes"] == "Класичний складний бот (bayes)" and uk["mixed"] == "Складний бот (mixed)"


def test_a_table_says_its_bots_level_and_its_odds_say_the_rule(client: Any) -> None:
    body = {"nickname": "Iris", "preset": "casino", "seats": 3, "bot_kind": "mixed"}
    made = client.post("/api/tables", json=body).json
    assert made["ok"], made
    config = client.get(f"/api/tables/{made['code']}").json["config"]
    assert config["bot_kind"] == "mixed" and config["bot_level"] == "hard"
    odds = html.unescape(client.get(f"/t/{made['code']}/odds").get_data(as_text=True))
    # Casino's ones are wild all game: the page says the rule, not "at the open".
    assert "(ones are wild: no bids on ones)" in odds
    assert "not biddable" not in odds


def test_a_variant_added_to_a_preset_is_named_by_its_title_in_each_language() -> None:
    """ "Перудо + calza": the added variant read as its key; it reads as its title."""
    config = parse_config({"preset": "perudo", "variants": ["calza"], "bot_kind": "none"})
    assert config.title == "Perudo + Calza (exact call)"
    assert config.title_in("uk") == "Перудо + Кальца (точний виклик)"
    assert config.title_in("ru") == "Перудо + Кальса («точно»)"


def test_the_lobby_does_not_offer_the_tutorials_example_variant(client: Any) -> None:
    """The tutorial's "Difference" (docs/examples) was offered in the lobby: a variant whose
    ``VariantInfo`` says ``example`` is installed and plays by name, but is not offered."""
    from liarsdice.ruleset import Ruleset, installed

    examples = {name for name, variant in installed().items() if variant.info.example}
    assert examples == {"difference"}  # only the tutorial's: every shipped variant is offered
    offered = {v["name"] for v in client.get("/api/catalog").json["variants"]}
    assert "difference" not in offered and set(installed()) - examples == offered
    assert 'value="difference"' not in client.get("/").get_data(as_text=True)
    assert "difference" in [v.name for v in Ruleset.build(["difference"]).variants]
