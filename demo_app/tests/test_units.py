"""Unit tests of the small modules: rulings, places, the protocol, the scheduler, outboxes."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from liarsdice import Ruleset
from liarsdice.events import (
    CallMade,
    DiceRerolled,
    DiceShown,
    PluginStateSet,
    PrivateStateSet,
    TurnPassed,
)
from liarsdice.models import Bid, BidAction, CallAction, Resolution
from liarsdice_demo import __main__ as cli
from liarsdice_demo import create_app
from liarsdice_demo.edge.connection import Connection
from liarsdice_demo.edge.protocol import MAX_MESSAGE, MAX_PAYLOAD_DEPTH, ProtocolError, parse
from liarsdice_demo.storage.live_store import LiveStore
from liarsdice_demo.tables.composition import ConfigError, parse_config
from liarsdice_demo.tables.scheduler import Scheduler
from liarsdice_demo.tables.seating import MAX_TOKENS_PER_SEAT
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.text.narrate import line, ruling

from .conftest import SETTINGS


def test_ruling_line_for_a_challenge() -> None:
    resolution = Resolution("challenge", "Iris", "Knox", Bid(5, 5), 5, False, ("Iris",), ("Knox",))
    assert ruling(resolution) == (
        "Iris challenged Knox's 5 fives: 5 counted, the bid stands — Iris loses the round"
    )
    lie = Resolution("challenge", "Iris", "Knox", Bid(5, 5), 3, True, ("Knox",), ("Iris",))
    assert str(ruling(lie)).endswith("3 counted, the bid was a lie — Knox loses the round")


def test_ruling_line_for_exact_and_timeout() -> None:
    paid = Resolution("exact", "Iris", "Knox", Bid(4, 2), 4, True, ("Knox", "Lu"), ("Iris",))
    assert ruling(paid) == (
        "Iris called exact on Knox's 4 twos: 4 counted, exactly right — "
        "Iris wins the round, Knox and Lu lose"
    )
    late = Resolution("timeout", "Lu", None, None, None, False, ("Lu",), ())
    assert ruling(late) == "Lu ran out of time — Lu loses the round"


def test_ruling_line_for_a_doubted_pass() -> None:
    # The passer is the loser when the pass was a lie (success), the winner when it was honest.
    lie = Resolution("doubt", "Ben", "Ann", Bid(3, 4), 2, True, ("Ann",), ("Ben",))
    assert (
        ruling(lie) == "Ben doubted the pass: Ann's dice were not all alike — Ann loses the round"
    )
    honest = Resolution("doubt", "Ben", "Cy", Bid(3, 4), 5, False, ("Ben",), ("Ann",))
    assert ruling(honest) == "Ben doubted the pass: Ann's dice were all alike — Ben loses the round"


def test_lines_for_passes_and_face_up_dice_keep_secrets() -> None:
    assert line(CallMade("Ann", "pass")) == "Ann passes"
    assert line(CallMade("Ben", "doubt")) == "Ben doubts the pass"
    assert line(CallMade("Ann", "challenge")) == "Ann calls “challenge”"  # no table: the kind
    rules = Ruleset.build(["dice-loss"])
    assert line(CallMade("Ann", "challenge"), rules.calls) == "Ann calls “Challenge”"
    assert line(TurnPassed("Ben")) is None
    assert line(DiceShown("Ann", (5, 5))) == "Ann puts 2 dice face up: 5 5"
    rerolled = line(DiceRerolled("Ann", (2, 3, 4), (6, 1, 6)))
    assert rerolled == "Ann rerolls 3 dice under the cup"  # neither the old faces nor the new
    assert line(DiceRerolled("Ann", (2,), (6,))) == "Ann rerolls 1 die under the cup"
    assert line(PrivateStateSet("pass", "Ann", "honest", True)) is None
    assert line(PluginStateSet("pass", "pending", "Ann")) is None


class FakeHub:
    def __init__(self) -> None:
        self.settings = {"BOT_DELAY": 0, "REVEAL_PAUSE": 0}
        self.store = LiveStore(":memory:")
        self.node = "here"


def test_places_follow_the_order_of_elimination_and_share_a_call() -> None:
    table = TableSession("ABCD", parse_config({"preset": "dudo"}), FakeHub(), None)
    table.match.eliminated = [("Lu", 1), ("Knox", 4), ("Ada", 4)]
    assert table.match.places(["Iris"]) == {"Iris": 1, "Knox": 2, "Ada": 2, "Lu": 4}


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        (b"{}", "text frames"),
        ("{", "malformed JSON"),
        ("1", "JSON object"),
        ('{"type": "ping"}', "version"),
        ('{"v": 1, "type": "bid", "quantity": 2}', "'face' must be a int"),
        ('{"v": 1, "type": "bid", "quantity": true, "face": 2}', "'quantity' must be a int"),
        ('{"v": 1, "type": "call", "kind": 3}', "'kind' must be a str"),
        ("{" + " " * MAX_MESSAGE + "}", "too large"),
        ("[" * 1200 + "]" * 1200, "too large"),
        ("[" * 1020 + "]" * 1020, "malformed JSON"),
        ('{"v": 1, "type": "bid", "quantity": 2, "face": 5, "payload": [5]}', "JSON object"),
        ('{"v": 1, "type": "bid", "quantity": 2, "face": 5, "payload": "x"}', "not a string"),
        ('{"v": 1, "type": "call", "kind": "pass", "payload": 1}', "'payload' must be a JSON"),
        (
            '{"v": 1, "type": "call", "kind": "x", "payload": {"p": '
            + "[" * MAX_PAYLOAD_DEPTH
            + "]" * MAX_PAYLOAD_DEPTH
            + "}}",
            "nested too deeply",
        ),
    ],
)
def test_protocol_refuses(raw: Any, needle: str) -> None:
    with pytest.raises(ProtocolError, match=needle):
        parse(raw)


def test_protocol_parses_intents() -> None:
    intent = parse('{"v": 1, "type": "bid", "quantity": 3, "face": 4, "id": 9, "extra": 1}')
    assert (intent.type, intent.fields, intent.id) == ("bid", {"quantity": 3, "face": 4}, 9)
    assert parse('{"v": 1, "type": "hello"}').fields == {}
    bluff = '{"v": 1, "type": "bid", "quantity": 3, "face": 4, "payload": {"bluff": {"show": [5]}}}'
    assert parse(bluff).fields["payload"] == {"bluff": {"show": [5]}}
    call = parse('{"v": 1, "type": "call", "kind": "pass", "payload": null}')
    assert call.fields == {"kind": "pass"}  # null is no payload
    deepest = "[" * (MAX_PAYLOAD_DEPTH - 1) + "]" * (MAX_PAYLOAD_DEPTH - 1)
    assert parse('{"v": 1, "type": "call", "kind": "x", "payload": {"p": ' + deepest + "}}")


def test_scheduler_runs_jobs_in_order_and_stops() -> None:
    scheduler = Scheduler(workers=1)
    seen: list[int] = []
    done = threading.Event()
    scheduler.call_later(0.05, lambda: (seen.append(2), done.set()))
    scheduler.call_later(0.0, lambda: seen.append(1))
    scheduler.call_later(60, lambda: seen.append(99))  # dropped at shutdown
    assert done.wait(5)
    scheduler.shutdown()
    assert seen == [1, 2]
    scheduler.submit(lambda: seen.append(3))  # ignored once stopped
    assert seen == [1, 2]


def test_a_client_that_stops_reading_is_dropped_not_waited_for() -> None:
    release = threading.Event()

    class StuckSocket:
        def send(self, text: str) -> None:
            release.wait(5)

    conn = Connection(StuckSocket(), outbox=3)
    started = time.monotonic()
    for _ in range(10):
        conn.send({"v": 1, "type": "state"})
    assert time.monotonic() - started < 1
    assert conn.closed
    release.set()
    conn.close()


def test_rate_limit() -> None:
    class Quiet:
        def send(self, text: str) -> None:
            pass

    conn = Connection(Quiet(), rate=1, burst=5)
    assert sum(conn.allow() for _ in range(20)) == 5
    conn.close()


def test_cli_parses_and_runs(monkeypatch: Any, tmp_path: Any, capsys: Any) -> None:
    seen: dict[str, Any] = {}

    def fake_serve(config: Any, host: str, port: int, workers: int) -> None:
        seen.update(host=host, port=port, config=config, workers=workers)

    monkeypatch.setattr("liarsdice_demo.serve.serve", fake_serve)
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    cli.main(["--port", "5099", "--db", str(tmp_path / "x.sqlite")])
    assert seen == {
        "host": "127.0.0.1",
        "port": 5099,
        "config": {"DATABASE": str(tmp_path / "x.sqlite")},
        "workers": 1,
    }
    create_app(seen["config"]).extensions["liarsdice_hub"].shutdown()
    assert (tmp_path / "x.sqlite").exists()
    # Several workers share live tables only through Redis: without it they are refused.
    with pytest.raises(SystemExit):
        cli.main(["--workers", "2"])
    assert "needs Redis" in capsys.readouterr().err
    # A Redis the command cannot reach is said in one line, before any worker starts.
    shared = ["--workers", "3", "--redis", "redis://:pw@127.0.0.1:1/0", "--db", str(tmp_path / "y")]
    with pytest.raises(SystemExit) as refused_redis:
        cli.main(shared)
    assert refused_redis.value.code == 2
    said = capsys.readouterr().err
    assert "cannot reach Redis at 127.0.0.1:1/0" in said and "pw" not in said
    cli.main([*shared, "--allow-redis-without-aof"])  # the check is then the app's own
    assert seen["workers"] == 3 and seen["config"]["REDIS_URL"] == "redis://:pw@127.0.0.1:1/0"
    assert "redis://:***@127.0.0.1:1/0" in capsys.readouterr().out  # no password printed
    with pytest.raises(RuntimeError, match=r"cannot reach Redis at 127\.0\.0\.1:1/0"):
        create_app(seen["config"])
    # Players, ratings and games in a server database: named, its password not printed.
    url = "postgresql+psycopg://liar:pw@127.0.0.1:1/dice"
    cli.main(["--database-url", url, "--db", str(tmp_path / "z")])
    assert seen["config"]["DATABASE_URL"] == url
    assert "players, games and ratings in postgresql+psycopg://liar:***@127.0.0.1:1/dice" in (
        capsys.readouterr().out
    )
    refused = r"cannot reach the database at postgresql\+psycopg://liar:\*\*\*@127\.0\.0\.1:1/dice"
    with pytest.raises(RuntimeError, match=refused):
        create_app(seen["config"])


def test_urls_are_printed_without_their_passwords() -> None:
    from liarsdice_demo.storage.db import shown

    assert shown("postgresql+psycopg://liar:s3cret@db:5432/dice") == (
        "postgresql+psycopg://liar:***@db:5432/dice"
    )
    assert shown("postgresql+psycopg://liar@db/dice?password=Top&sslmode=require") == (
        "postgresql+psycopg://liar@db/dice?password=***&sslmode=require"
    )
    assert shown("liar:Top4@127.0.0.1:5440/dice") == "liar:***@127.0.0.1:5440/dice"  # no scheme
    assert shown("redis://:pw@127.0.0.1:6379/0") == "redis://:***@127.0.0.1:6379/0"
    assert shown("sqlite:////tmp/liarsdice.sqlite") == "sqlite:////tmp/liarsdice.sqlite"


def test_a_database_url_the_app_cannot_use_is_refused_with_an_example() -> None:
    from liarsdice_demo.storage.db import engine_for

    for url in ("postgres+psycopg://a:pw@h/d", "liar:pw@h/d"):
        with pytest.raises(RuntimeError, match=r"not a database URL this app knows: .*:\*\*\*@"):
            engine_for(url)
    with pytest.raises(RuntimeError, match=r"no driver .*e\.g\. postgresql\+psycopg://"):
        engine_for("postgresql+psycopg2://a:pw@h/d")  # the postgres extra is psycopg 3


def test_a_seat_keeps_its_newest_tokens_and_stores_only_their_digests() -> None:
    table = TableSession("TOKN", parse_config({"preset": "dudo"}), FakeHub(), 1)
    seat = table.sit(1, "Iris")
    tokens = [table.seat_token(seat) for _ in range(MAX_TOKENS_PER_SEAT + 1)]
    assert len(set(tokens)) == len(tokens)  # a new token each time
    assert table.seating.by_token(tokens[0]) is None  # the oldest is gone
    assert all(table.seating.by_token(token) is seat for token in tokens[1:])
    stored = json.dumps(table.record())
    assert not any(token in stored for token in tokens)  # only digests are kept


def test_a_seat_forgotten_by_a_late_heartbeat_is_marked_present_again() -> None:
    table = TableSession("HERE", parse_config({"preset": "dudo"}), FakeHub(), 1)
    seat = table.sit(1, "Iris")

    class Tab:
        seat = table_ = None
        greeted = False
        locale = "en"

        def send(self, data: Any) -> None:
            pass

    table.attach(Tab(), table.seat_token(seat))
    assert table.seats[0].nodes == ["here"]
    table.keep_nodes(lambda node: False)  # the driver thought this process dead
    assert table.seats[0].nodes == [] and table.seats[0].conns
    table.keep_present()  # the next tick of this process
    assert table.seats[0].nodes == ["here"]


class DrivenHub(FakeHub):
    """A hub whose scheduler runs nothing: the test drives the table by hand."""

    class Idle:
        def call_later(self, seconds: float, fn: Any) -> None:
            pass

        def submit(self, fn: Any) -> None:
            pass

    scheduler = Idle()

    def record_latency(self, delays: list[float], kind: str = "action") -> None:
        pass


def test_the_reveal_holds_the_dice_of_a_player_the_call_puts_out(monkeypatch: Any) -> None:
    from liarsdice.game import Game

    class Rigged(Game):  # one die each: Knox's wild one is what makes Iris's bid true
        def start_round(self, rolls: Any = None) -> Any:
            return super().start_round(rolls or {"Iris": [5], "Knox": [1], "Lu": [2]})

    monkeypatch.setattr("liarsdice_demo.tables.match.Game", Rigged)
    config = parse_config(
        {"variants": ["dice-loss", "calza"], "seats": 3, "dice_per_player": 1, "bot_kind": "none"}
    )
    table = TableSession("REVL", config, DrivenHub(), 1)
    for player_id, name in enumerate(["Iris", "Knox", "Lu"], 1):
        table.sit(player_id, name, table.join_key)
    table.start_now()
    table.loop.act(BidAction("Iris", Bid(2, 5)))
    table.loop.act(CallAction("Knox", "challenge"))
    reveal = table.match.reveal
    assert reveal is not None
    assert (reveal["count"], reveal["losers"]) == (2, ["Knox"])
    assert not table.game.state.player("Knox").alive  # the call put Knox out...
    assert reveal["rolls"] == {"Iris": [5], "Knox": [1], "Lu": [2]}  # ...his die is shown
    shown = [d for roll in reveal["rolls"].values() for d in roll if d in reveal["matching_faces"]]
    assert len(shown) == reveal["count"]
    assert table.fanout.state_for(None)["reveal"] == reveal  # what the table page draws from


def test_the_favicon_is_linked_and_served(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    old = client.get("/favicon.ico")
    assert old.status_code == 301 and old.headers["Location"].endswith("/static/favicon.svg")
    with client.get("/static/favicon.svg") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
        assert icon.get_data(as_text=True).startswith("<svg")


def test_a_finished_table_is_not_listed_while_the_shared_list_is_cached(
    redis_url: str, tmp_path: Any, monkeypatch: Any
) -> None:
    import redis

    from liarsdice_demo.tables import hub as hub_module

    url = redis_url.replace("/0", "/6")
    redis.Redis.from_url(url).flushdb()
    monkeypatch.setattr(hub_module, "RECORDS_SECONDS", 3600.0)  # the list is read once
    settings = {**SETTINGS, "DATABASE": str(tmp_path / "x.sqlite"), "REDIS_URL": url}
    app = create_app(settings)
    hub = app.extensions["liarsdice_hub"]
    try:
        config = parse_config(
            {"variants": ["dice-loss", "calza"], "seats": 3, "dice_per_player": 1}
        )
        table = hub.create(config, public=True)
        assert [(t["code"], t["status"]) for t in hub.listed()] == [(table.code, "waiting")]
        table.start_now()  # bots only, at once
        deadline = time.monotonic() + 30
        while table.status != "over":
            assert time.monotonic() < deadline, "the bot game did not finish"
            time.sleep(0.02)
        assert hub.listed() == []
        assert app.test_client().get("/api/tables").json["tables"] == []
    finally:
        hub.shutdown()


@pytest.mark.parametrize("seats", [True, False, 3.5, "3.0", [3], "three"])
def test_a_table_size_that_is_not_a_whole_number_is_refused(seats: Any) -> None:
    with pytest.raises(ConfigError, match="seats must be a whole number"):
        parse_config({"preset": "dudo", "seats": seats})


@pytest.mark.parametrize("seats", [3, 3.0, "3", " 3 "])
def test_a_whole_number_of_seats_is_taken_in_any_json_form(seats: Any) -> None:
    assert parse_config({"preset": "dudo", "seats": seats}).seats == 3


def test_the_embedded_server_never_imports_redis() -> None:
    # redis-py takes about 0.4 s to import, and gevent warns when it was imported before the
    # worker's patching; only shared mode needs it.
    check = "import sys, liarsdice_demo.__main__; assert 'redis' not in sys.modules"
    subprocess.run([sys.executable, "-c", check], check=True, timeout=60)
