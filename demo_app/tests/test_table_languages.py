"""One table, three languages: every connection reads the log, rulings, errors and the stop
reason in its own language, and what the table stores can be read in any of them."""

from __future__ import annotations

import json

from liarsdice.events import BidMade
from liarsdice.models import Bid, Resolution
from liarsdice_demo.edge.protocol import Intent
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.text import narrate

from .conftest import Conn, ManualHub


def _play_out(hub: ManualHub, table: TableSession) -> None:
    for _ in range(100_000):
        if not hub.scheduler.jobs or table.status != "playing":
            break
        hub.scheduler.jobs.popleft()()


def test_each_connection_reads_the_table_in_its_own_language() -> None:
    config = parse_config(
        {
            "variants": ["revolver", "calza", "winner-opens"],
            "options": {"calza.reward": "table-pays"},
            "seats": 2,
            "dice_per_player": 2,
        }
    )
    hub = ManualHub()
    table = TableSession("LANG", config, hub, host_player=1)
    seat = table.sit(1, "Iris")
    english, ukrainian, russian = Conn("en"), Conn("uk"), Conn("ru")
    table.attach(english, table.seat_token(seat))
    table.attach(ukrainian, None)
    table.attach(russian, None)
    table.start_now()  # Iris sleeps through her turns; the bot plays
    _play_out(hub, table)
    assert table.status == "over"
    logs = {conn.locale: conn.of("state")[-1]["log"] for conn in (english, ukrainian, russian)}
    assert len({len(log) for log in logs.values()}) == 1  # the same lines, in three languages
    assert any(line.startswith("Round 1: ") for line in logs["en"])
    assert any(line.startswith("Раунд 1: ") for line in logs["uk"])
    assert any(line.startswith("Раунд 1: ") for line in logs["ru"])
    assert logs["uk"] != logs["ru"]
    assert logs["en"][-1].endswith("wins the game!")
    assert "wins" not in logs["uk"][-1] and "wins" not in logs["ru"][-1]
    rulings = {
        conn.locale: [r["explanation"] for r in conn.of("reveal")] for conn in (english, ukrainian)
    }
    assert rulings["en"] and len(rulings["en"]) == len(rulings["uk"])
    assert all("round" in line for line in rulings["en"])
    assert all("round" not in line and line not in rulings["en"] for line in rulings["uk"])
    # A refusal reads in the language of the one refused.
    table.handle(english, Intent("bid", {"quantity": 1, "face": 2}))
    table.handle(ukrainian, Intent("bid", {"quantity": 1, "face": 2}))
    assert english.of("error")[-1]["error"] == "no game is being played at this table"
    assert ukrainian.of("error")[-1]["error"] != english.of("error")[-1]["error"]


def test_a_stored_reveal_is_read_again_in_any_language() -> None:
    config = parse_config({"variants": ["dice-loss", "calza"], "seats": 2, "dice_per_player": 1})
    hub = ManualHub()
    table = TableSession("SAVE", config, hub, host_player=None)
    table.start_now()
    while hub.scheduler.jobs and table.match.reveal is None:
        hub.scheduler.jobs.popleft()()
    record = json.loads(json.dumps(table.record()))  # stored as JSON
    assert "explanation" not in record["reveal"]  # worked out again from the ruling's fields
    stored = hub.store.table("SAVE")
    assert stored is not None and stored.record["reveal"] == record["reveal"]
    copy = TableSession.restore(stored, ManualHub())  # another process, after a restart
    later = Conn("uk")
    copy.attach(later, None)
    shown = later.of("state")[-1]["reveal"]["explanation"]
    assert shown == table.match.reveal["explanation"].render("uk")  # type: ignore[index]


def test_a_bots_name_is_said_in_the_readers_language() -> None:
    said = narrate.line(BidMade("Boris (bot)", Bid(2, 3)))
    assert said is not None and str(said) == "Boris (bot) bids 2 threes"
    assert said.render("uk").startswith("Boris (бот) ") and "(bot)" not in said.render("ru")
    ruling = narrate.ruling(
        Resolution(
            "challenge", "Iris", "Boris (bot)", Bid(2, 3), 1, True, ("Boris (bot)",), ("Iris",)
        )
    )
    assert "(bot)" not in ruling.render("uk") and ruling.render("uk").count("Boris (бот)") == 2
