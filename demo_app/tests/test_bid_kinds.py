"""A table whose bids are not counts of a face: ``pip-sum`` (bids on the total of the pips), in
the lobby, at a phone's size in Ukrainian. The face picker is gone, a bid is one number, and the
log, the bid on the table and the ruling say totals and pips.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

from typing import Any

from liarsdice import Bid, Ruleset
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.text import narrate

PHONE = {"width": 390, "height": 844}


def test_the_log_and_the_ruling_say_totals() -> None:
    rules = Ruleset.build(["pip-sum", "dice-loss"])
    config = parse_config({"variants": ["pip-sum", "dice-loss"], "seats": 2})
    assert config.summary()["bid_fields"] == ["total"]
    from liarsdice.events import BidMade

    said = narrate.line(BidMade("Iris", Bid(23, 0)), rules.calls, rules.bid_kind)
    assert said is not None and said.render("en") == "Iris bids a total of 23"
    assert said.render("uk") == "Iris ставить суму 23"


def test_a_pip_sum_table_on_a_ukrainian_phone(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="uk-UA", viewport=PHONE, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/")
    page.fill("#nickname", "Iris")
    page.select_option("#preset", "")
    for variant in ("dice-loss", "pip-sum"):
        page.check(f"input[name=variant][value={variant}]")
    page.select_option("#bot_kind", "odds")
    page.fill("#seats", "2")
    page.fill("#dice_per_player", "3")
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.click("#start")
    page.wait_for_selector("#actions:not([hidden])", timeout=15_000)
    assert page.is_hidden("#bid-face")  # one number: no face to choose
    totals = page.locator("#bid-quantity option").all_inner_texts()
    assert totals and all(text.isdigit() for text in totals), totals
    assert int(totals[0]) >= 6 and int(totals[-1]) <= 36, totals  # 6 dice: totals 6 to 36
    assert page.get_attribute("#bid-quantity", "aria-label") == "сума"
    page.select_option("#bid-quantity", totals[len(totals) // 2])
    page.click("#bid-button")
    chosen = totals[len(totals) // 2]
    page.wait_for_function(
        "text => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes(text))",
        arg=f"суму {chosen}",
    )
    page.screenshot(path="/tmp/pip_sum_uk_phone.png")
    # The odds bot answers (a raise or a challenge); the page keeps saying totals.
    page.wait_for_function(
        "() => document.querySelector('#log').textContent.includes('суму') && "
        "document.querySelectorAll('#log li').length >= 4",
        timeout=15_000,
    )
    log = " ".join(page.locator("#log li").all_inner_texts())
    assert "face-0" not in log and "?" not in page.inner_text("#now"), log
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    context.close()
    assert not errors, errors


def test_the_odds_page_lists_each_total_and_says_how(app: Any) -> None:
    hub, client = app.extensions["liarsdice_hub"], app.test_client()
    with app.test_request_context("/"):
        table = hub.create(parse_config({"variants": ["pip-sum", "dice-loss"], "seats": 2}))
    page = client.get(f"/t/{table.code}/odds?dice=3&lang=uk").get_data(as_text=True)
    assert "Обчислено точно." in page
    assert "суму 3" in page and "суму 18" in page and "суму 19" not in page
    assert "100.0%" in page  # a total of 3 with 3 dice is sure
    english = client.get(f"/t/{table.code}/odds?dice=3&lang=en").get_data(as_text=True)
    assert "a total of 10" in english and "Computed exactly." in english
