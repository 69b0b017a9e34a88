"""The replay of a finished game (issue 45): its steps come in pages under a cap whatever the game's
length, every state rebuilt from its patches is the game's own, the page and its steps carry
caching headers, and bad requests are refused with a reason."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from liarsdice.events import CallMade, Event, RoundStarted
from liarsdice.reducer import Draft
from liarsdice.serialization import to_data
from liarsdice.simulate import random_action
from liarsdice_demo.storage import db, history
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.text import folding, narrate, replay
from liarsdice_demo.text.folding import PAGE_STEPS

from .replays import CAP, CHIPS_20, at_last_step, steps, store
from .test_phone import PHONE, fits

UK = {"Accept-Language": "uk"}
DESKTOP = {"width": 1280, "height": 800}
SHOWN = "(step) => document.querySelector('#seats').dataset.step === String(step)"


def narrated(events: list[Event], config: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps the replay should show of ``events``: each narrated event's line (in English),
    the faces that count toward the bid called, and the state after it, folded here."""
    rules = parse_config(config).rules
    found: list[dict[str, Any]] = []
    draft = Draft.started(events[0])  # type: ignore[arg-type]
    matching = None
    for event in events:
        if isinstance(event, CallMade) and draft.in_round:
            face = draft.current_bid.face if draft.current_bid else 0
            matching = sorted(rules.hooks.matching_faces(draft.freeze(), face))
        elif isinstance(event, RoundStarted):
            matching = None
        if event is not events[0]:
            draft.apply(event)
        line = narrate.line(event)
        if line is not None:
            found.append({"line": line, "matching": matching, "draft": draft.freeze()})
    return found


def test_the_longest_game_replays_in_pages_under_the_cap(app: Any, client: Any) -> None:
    game_id, events = store(app.config["DATABASE_URL"], CHIPS_20)
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200 and len(page.data) < 64 * 1024  # was 87 MB
    later = f"/games/{game_id}/steps?locale=en&from={PAGE_STEPS + 7}"
    cold = client.get(later).data  # before any other page: one pass over the whole log
    shown = steps(client, game_id)  # every page under the cap (asserted there)
    assert client.get(later).data == cold  # resumed from the mark kept at step 5000
    expected = narrated(events, CHIPS_20)
    assert len(shown) == len(expected) > 3 * PAGE_STEPS  # four pages
    assert [s["text"] for s in shown] == [e["line"].render("en") for e in expected]
    assert [s["matching"] for s in shown] == [e["matching"] for e in expected]
    # Every round, in order, and the step before each (its ruling, or what the ruling cost).
    starts = [i for i, s in enumerate(shown) if s["text"].startswith("Round ")]
    assert [shown[i]["text"].split(":")[0] for i in starts] == [f"Round {n}" for n in range(1, 120)]
    sample = {i - 1 for i in starts[1:]} | {len(shown) - 1} | set(range(0, len(shown), 97))
    for i in sorted(sample):
        assert shown[i]["state"] == to_data(expected[i]["draft"]), i
    winner = expected[-1]["draft"].winners[0]
    assert shown[-1]["text"] == f"{winner} wins the game!"
    # The same last page in Ukrainian and Russian.
    last = len(shown) - len(shown) % PAGE_STEPS
    for locale, won in (("uk", "виграє гру!"), ("ru", "выигрывает игру!")):
        page = orjson.loads(client.get(f"/games/{game_id}/steps?locale={locale}&from={last}").data)
        assert page["steps"][-1]["text"] == f"{winner} {won}"
        texts = [s["text"] for s in page["steps"]]
        assert texts == [e["line"].render(locale) for e in expected[last:]]


@pytest.mark.parametrize(
    "config",
    [
        {"variants": ["dice-loss", "bluff"], "seats": 3, "dice_per_player": 3},
        {"preset": "casino", "seats": 3},
        {"variants": ["aces-switch", "dice-loss", "palifico"], "seats": 3, "dice_per_player": 2},
        {"variants": ["chips", "pass", "forehead"], "seats": 4, "dice_per_player": 2},
        {"variants": ["teams", "dice-loss", "ones-locking"], "seats": 4, "dice_per_player": 2},
    ],
)
def test_every_state_rebuilt_from_its_patches_is_the_games(
    app: Any, client: Any, config: dict[str, Any]
) -> None:
    for seed in range(3):
        game_id, events = store(app.config["DATABASE_URL"], config, seed, random_action)
        expected = narrated(events, config)
        shown = steps(client, game_id)
        assert [s["state"] for s in shown] == [to_data(e["draft"]) for e in expected]
        assert [s["matching"] for s in shown] == [e["matching"] for e in expected]


def test_a_page_that_would_pass_the_cap_stops_early(
    app: Any, client: Any, monkeypatch: Any
) -> None:
    game_id, _ = store(app.config["DATABASE_URL"], {"variants": ["dice-loss"], "seats": 2})
    whole = steps(client, game_id)
    assert replay.CAP == CAP  # the documented cap
    monkeypatch.setattr(replay, "CAP", 20_000)
    first = orjson.loads(client.get(f"/games/{game_id}/steps?locale=en").data)
    assert 0 < first["next"] < PAGE_STEPS and first["next"] == len(first["steps"])
    again = steps(client, game_id, cap=20_000)  # smaller pages, the same steps
    assert len(whole) > 200 and len(again) == len(whole)
    assert [s["state"] for s in again] == [s["state"] for s in whole]


def test_the_page_and_its_steps_carry_caching_headers(app: Any, client: Any) -> None:
    game_id, _ = store(app.config["DATABASE_URL"], {"preset": "dudo", "seats": 2})
    page = client.get(f"/games/{game_id}")
    assert page.headers["Cache-Control"] == "private, no-cache"  # it names the visitor
    tag = page.headers["ETag"]
    again = client.get(f"/games/{game_id}", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    assert client.get(f"/games/{game_id}", headers={**UK, "If-None-Match": tag}).status_code == 200

    url = f"/games/{game_id}/steps?locale=en"
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "application/json"
    assert first.headers["Cache-Control"] == "public, max-age=86400"
    tag = first.headers["ETag"]
    assert client.get(url).headers["ETag"] == tag  # a finished game never changes
    cached = client.get(url, headers={"If-None-Match": tag})
    assert cached.status_code == 304 and cached.data == b""
    assert cached.headers["ETag"] == tag and cached.headers["Cache-Control"]
    for other in ("/steps?locale=uk", "/steps?locale=en&from=1"):
        answer = client.get(f"/games/{game_id}{other}", headers={"If-None-Match": tag})
        assert answer.status_code == 200 and answer.headers["ETag"] != tag


def test_bad_step_requests_are_refused_with_a_reason(app: Any, client: Any) -> None:
    game_id, events = store(app.config["DATABASE_URL"], {"preset": "dudo", "seats": 2})
    url = f"/games/{game_id}/steps"
    total = orjson.loads(client.get(f"{url}?locale=en").data)["total"]
    for query in ("from=-1", "from=x", "from=1e3", f"from={10**12}", "from=", "locale=xx", ""):
        answer = client.get(f"{url}?{query}" + ("&locale=en" if query.startswith("from") else ""))
        assert answer.status_code == 400, query
        assert "from=0 or more and locale=en, uk or ru" in answer.get_data(as_text=True)
    assert "Запитуйте кроки" in client.get(f"{url}?locale=xx", headers=UK).get_data(as_text=True)
    beyond = client.get(f"{url}?locale=en&from={total}")
    assert beyond.status_code == 404 and f"no step {total}" in beyond.get_data(as_text=True)
    assert client.get(f"{url}?locale=en&from={total - 1}").status_code == 200
    assert client.get(f"/games/{game_id + 1}/steps?locale=en").status_code == 404
    assert client.get(f"/games/{2**40}/steps?locale=en").status_code == 404
    assert len(events) > total  # not every event is a step


@pytest.mark.parametrize(
    ("viewport", "locale"), [(PHONE, "uk"), (DESKTOP, "en")], ids=["phone", "desktop"]
)
def test_the_longest_game_steps_in_the_browser(
    app: Any, live_server: str, browser: Any, viewport: dict[str, int], locale: str
) -> None:
    game_id, events = store(app.config["DATABASE_URL"], CHIPS_20)
    expected = narrated(events, CHIPS_20)
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    fetched: list[int] = []
    page.on("response", lambda r: "/steps?" in r.url and fetched.append(len(r.body())))
    page.goto(f"http://{live_server}/games/{game_id}?lang={locale}")
    page.wait_for_function(SHOWN, arg=0)
    assert page.inner_text("#line") == expected[0]["line"].render(locale)
    fits(page)
    page.click("#last")
    at_last_step(page)
    last = expected[-1]
    assert page.inner_text("#line") == last["line"].render(locale)
    assert page.inner_text("#counter") == f"{len(expected)} / {len(expected)}"
    assert page.locator(".seat.winner .name").all_inner_texts() == list(last["draft"].winners)
    fits(page)
    middle = 2 * PAGE_STEPS + 345  # in the third page: the slider fetches it
    page.eval_on_selector(
        "#step", "(s, i) => { s.value = String(i); s.dispatchEvent(new Event('input')); }", middle
    )
    for step in (middle, middle - 1):
        page.wait_for_function(SHOWN, arg=step)
        assert page.inner_text("#line") == expected[step]["line"].render(locale)
        state = expected[step]["draft"]
        assert state.round is not None
        assert page.locator("#bids li").count() == len(state.round.bids)
        dice = page.locator("#seats .die").all_inner_texts()
        assert len(dice) == sum(len(roll) for roll in state.round.rolls.values())
        if step == middle:
            page.click("#prev")
    assert len(fetched) == 3 and max(fetched) <= CAP  # the first, the last and the third page
    assert not errors, errors


@pytest.mark.parametrize("size", [1, 16, 1000])
def test_a_stored_log_parsed_in_batches_is_the_log(app: Any, size: int) -> None:
    game_id, events = store(app.config["DATABASE_URL"], {"preset": "casino", "seats": 3}, 1)
    with db.engine_for(app.config["DATABASE_URL"]).connect() as conn:
        stored = history.game(conn, game_id)
    assert stored is not None
    data = json.loads(stored["events"])
    for text in (
        stored["events"],
        json.dumps(data, indent=1),
        json.dumps(data, separators=(",", ":")),
    ):
        batches = [batch for batch, _ in history.event_batches(text, size)]
        assert [event for batch in batches for event in batch] == events
        assert all(len(batch) == size for batch in batches[:-1]) and 0 < len(batches[-1]) <= size
        # Read on from the position after any batch: the rest of the log.
        for done, (_, position) in enumerate(history.event_batches(text, size)):
            rest = history.event_batches(text, size, position)
            assert [event for batch, _ in rest for event in batch] == events[(done + 1) * size :]
    assert list(history.event_batches("[]", size)) == []


def test_a_process_keeps_marks_for_the_games_read_last(monkeypatch: Any) -> None:
    monkeypatch.setattr(folding, "KNOWN_GAMES", 2)
    games = folding.Games()
    first = games.get("a")
    first.marks[5000] = folding.Mark(4999, 123, None, None)
    first.total = 6000
    assert games.get("a") is first and first.resume(4998) == folding.START
    assert first.resume(4999) == first.resume(9999) == first.marks[5000]
    games.get("b")
    games.get("a")  # the newest again
    games.get("c")  # "b" goes
    assert games.get("a") is first and games.get("b").total is None
