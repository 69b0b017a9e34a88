"""Remake the demo's screenshots in this folder: ``uv run python docs/screenshots/make_screenshots.py``.

Starts the demo app in this process (``liarsdice_demo.create_app`` on a SQLite file in a
temporary folder, served on a free port of 127.0.0.1 by a thread), then drives Debian's Chromium
with Playwright: for each language (en, uk, ru) and each size (desktop 1280x800, phone 390x844)
it opens the lobby, creates a Perudo table with medium bots, starts it, and saves as JPEG
(quality 70) ``<lang>-<size>-<view>.jpg`` for the views

- ``lobby``: the lobby with the Casino preset's options (and a finished game and a public table
  made beforehand; every lobby is taken first, so each lists the same ones);
- ``waiting``: the new table before the start, the first screen a phone shows (the host's badge,
  the empty seats' controls for bots, the Settings toggle);
- ``table``: the table mid-round, on your turn with the bid controls;
- ``reveal``: after your challenge, the cups lifted, the ruling beside the actions and the counted
  faces under the bids;
- ``rules``: the rules page of that table;
- ``gameover``: the end of a rated game of three with one die each, played out by calling: the
  summary (places with ratings, the rounds, the best call: the game is played again,
  up to four times, until one has a right call).

The dice and the bots' moves are random (the app has no seed), so each run differs in detail.
Needs ``/usr/bin/chromium`` (``apt-get install chromium``) and the workspace's dev group
(Playwright). Options: ``--out FOLDER`` (default: this script's folder), ``--only uk-phone``
(comma-separated ``<lang>-<size>`` pairs).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

from liarsdice_demo import create_app
from liarsdice_demo.tables.composition import parse_config

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
LANGUAGES = {"en": "en-US", "uk": "uk-UA", "ru": "ru-RU"}
"""Each language and the browser locale (``Accept-Language``) that picks it."""
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
QUALITY = 70
SETTINGS = {
    "BOT_DELAY": 0.0,  # while the lobby's finished game is played; then PACE
    "REVEAL_PAUSE": 0.0,
    "LIMIT_TABLE_CREATION": "1000 per minute",
    "LIMIT_TABLE_CREATION_NETWORK": "1000 per minute",
    "LIMIT_SEAT_CLAIMS": "1000 per minute",
    "LIMIT_CODE_MISSES": "1000 per minute",
    "LIMIT_PLAYER_CREATION": "1000 per minute",
    "LIMIT_REQUESTS": "10000 per second",
    "LIMIT_TARPIT_SECONDS": 0.0,
    "MAX_TABLES_PER_PLAYER": 100,
    "MAX_TABLES_PER_ADDRESS": 100,
}
PACE = {"BOT_DELAY": 0.3, "REVEAL_PAUSE": 15.0}
"""While the pictures are taken: a bot's pause before its move, and how long the cups stay
lifted (long enough to take the picture)."""
TABLE = {"preset": "perudo", "seats": "4", "dice_per_player": "5", "bot_kind": "odds"}
"""The lobby form's fields (element id -> value) for the table that is photographed."""
QUICK = {"BOT_DELAY": 0.1, "REVEAL_PAUSE": 0.5}
"""The pace while the game over's game is played out (its reveals are not photographed)."""


@contextmanager
def serving(folder: Path) -> Iterator[tuple[Any, str]]:
    """The demo app on a SQLite file in ``folder``, served on a free port: (app, host:port)."""
    app = create_app({**SETTINGS, "DATABASE": str(folder / "demo.sqlite")})
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="screenshots-server")
    thread.start()
    try:
        yield app, f"127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
        app.extensions["liarsdice_hub"].shutdown()


def furnish_lobby(app: Any) -> None:
    """A finished rated game of bots (the lobby's recent games) and a public table waiting for
    players, made before any picture so every lobby shows the same lists."""
    hub = app.extensions["liarsdice_hub"]
    quick = {"variants": ["dice-loss", "calza"], "dice_per_player": 2}  # dudo's rules, 2 dice each
    config = parse_config({**quick, "seats": 4, "rated": True})
    game = hub.create(config, start=True)
    deadline = time.monotonic() + 60
    while game.game_id is None:
        if time.monotonic() > deadline:
            raise SystemExit("the lobby's bot game did not finish")
        time.sleep(0.05)
    hub.create(parse_config({"preset": "casino", "seats": 3, "bot_kind": "bayes"}), public=True)
    app.config.update(PACE)


def shoot(page: Page, path: Path) -> None:
    page.wait_for_timeout(300)  # fonts and the last render
    page.screenshot(path=str(path), type="jpeg", quality=QUALITY)
    print(f"{path.name}: {path.stat().st_size // 1024} KB")


def my_turn_or_reveal(page: Page, seconds: float = 60) -> None:
    page.wait_for_function(
        "() => !document.getElementById('actions').hidden"
        " || !document.getElementById('reveal').hidden",
        timeout=seconds * 1000,
    )


def lobby(page: Page, host: str) -> None:
    """The lobby with Iris's nickname and the Casino preset's options."""
    page.goto(f"http://{host}/")
    page.fill("#nickname", "Iris")
    page.select_option("#preset", "casino")
    page.wait_for_selector(".validation.ok")


def photograph(page: Page, app: Any, host: str, name: str, out: Path) -> None:
    """The pictures ``<name>-<view>.jpg`` of one language and size but the lobby's (taken
    before any, so that every lobby lists the same games)."""
    lobby(page, host)
    for field, value in TABLE.items():
        if field in ("preset", "bot_kind"):
            page.select_option(f"#{field}", value)
        else:
            page.fill(f"#{field}", value)
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    code = page.url.split("/t/")[1].split("?")[0]
    page.wait_for_selector("#seats li")
    shoot(page, out / f"{name}-waiting.jpg")
    page.click("#start")

    # Mid-round: wait for a turn of Iris's with five bids or more before it (bid until then;
    # when a bot's call ends the round first, wait for the next one).
    deadline = time.monotonic() + 120
    while True:
        if time.monotonic() > deadline:
            raise SystemExit(f"{name}: no turn with bids on the table")
        my_turn_or_reveal(page)
        if page.is_visible("#reveal"):
            page.wait_for_selector("#reveal", state="hidden", timeout=60_000)
            continue
        if page.locator("#bids li").count() >= 5:
            break
        page.click("#bid-button")
        page.wait_for_selector("#actions", state="hidden")
    shoot(page, out / f"{name}-table.jpg")

    page.click("#calls button[data-call='challenge']")
    page.wait_for_selector("#now.ruled")  # the ruling, beside the actions
    # The counted faces under the bids on a desktop; on a phone the lifted cups (the seats), the
    # ruling and the bids' recap being in the bar at the bottom.
    page.evaluate(
        """() => {
          const shown = document.getElementById(innerWidth < 600 ? "seats" : "reveal");
          if (shown.getBoundingClientRect().bottom > innerHeight) shown.scrollIntoView({ block: "end" });
        }"""
    )
    shoot(page, out / f"{name}-reveal.jpg")

    page.goto(f"http://{host}/t/{code}/rules")
    shoot(page, out / f"{name}-rules.jpg")

    game_over(page, app, host, out / f"{name}-gameover.jpg")


def game_over(page: Page, app: Any, host: str, path: Path) -> None:
    """A rated game of Iris and two medium bots, one die each (dice loss, calza), played out by
    calling whenever she may (again, up to four games, until one has a best call: a right call),
    then the banner with the summary."""
    app.config.update(QUICK)
    try:
        for _ in range(4):
            code = play_out(page, host, path.name)
            summary = app.extensions["liarsdice_hub"].get(code).fanout.table_data()["summary"]
            if summary["best_call"] is not None:
                break
    finally:
        app.config.update(PACE)
    page.evaluate(
        """() => {
          scrollTo(0, 0);  // the table's heading above the banner, when the banner fits
          const banner = document.getElementById("banner");
          if (banner.getBoundingClientRect().bottom > innerHeight * 0.7) banner.scrollIntoView();
        }"""
    )
    shoot(page, path)


def play_out(page: Page, host: str, name: str) -> str:
    """Iris's game of :func:`game_over` made in the lobby and played to its saved end; its code."""
    page.goto(f"http://{host}/")
    page.select_option("#preset", "")
    for variant in ("dice-loss", "calza"):
        page.check(f"input[name=variant][value={variant}]")
    page.fill("#seats", "3")
    page.fill("#dice_per_player", "1")
    page.select_option("#bot_kind", "odds")
    page.check("#rated")
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.click("#start")
    deadline = time.monotonic() + 120
    while not page.is_visible("#winner"):
        if time.monotonic() > deadline:
            raise SystemExit(f"{name}: the game did not end")
        if page.is_visible("#actions"):
            call = page.query_selector("#calls button[data-call='challenge']")
            with contextlib.suppress(PlaywrightError):  # the move gone: look again
                (call or page.locator("#bid-button")).click(timeout=1000)
        page.wait_for_timeout(100)
    page.wait_for_selector("#places .rating")  # once the game is saved
    return page.url.split("/t/")[1].split("?")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where to save the pictures")
    parser.add_argument("--only", help="comma-separated <lang>-<size> pairs, e.g. uk-phone")
    args = parser.parse_args()
    wanted = [(lang, size) for lang in LANGUAGES for size in SIZES]
    if args.only:
        chosen = set(args.only.split(","))
        wanted = [(lang, size) for lang, size in wanted if f"{lang}-{size}" in chosen]
    if not CHROMIUM.exists():
        raise SystemExit("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="liarsdice-screenshots-") as folder,
        serving(Path(folder)) as (app, host),
        sync_playwright() as playwright,
    ):
        furnish_lobby(app)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for lobby_only in (True, False):
                for lang, size in wanted:
                    context = browser.new_context(locale=LANGUAGES[lang], viewport=SIZES[size])
                    page, name = context.new_page(), f"{lang}-{size}"
                    try:
                        if lobby_only:
                            lobby(page, host)
                            shoot(page, args.out / f"{name}-lobby.jpg")
                        else:
                            photograph(page, app, host, name, args.out)
                    finally:
                        context.close()
        finally:
            browser.close()
    total = sum(path.stat().st_size for path in args.out.glob("*.jpg"))
    print(f"{len(wanted) * 6} pictures in {time.monotonic() - started:.0f} s; ", end="")
    print(f"the folder's JPEGs: {total / 1024 / 1024:.2f} MB")


if __name__ == "__main__":
    main()
