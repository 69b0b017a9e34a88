"""Unit tests of a live table's parts, each alone: seating, the clock, the match, fan-out (its
privacy), the bots, saving, the stored record, and (each with a stand-in table) the storage, the
driver, the turn cycle, intents and the saver."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from liarsdice.errors import IllegalAction
from liarsdice.models import Bid, BidAction, CallAction, TimeoutAction
from liarsdice_demo.edge.protocol import Intent
from liarsdice_demo.storage.live_store import StoreConflict
from liarsdice_demo.tables import intents
from liarsdice_demo.tables.bot_driver import new_bot, out_of_turn, play_turn
from liarsdice_demo.tables.clock import TurnClock
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.driving import RESUME_GRACE, Driver
from liarsdice_demo.tables.fanout import MAX_CONNS_PER_SEAT, Fanout
from liarsdice_demo.tables.game_loop import GameLoop
from liarsdice_demo.tables.match import OVER, REVEAL, STOPPED, TURN, Match
from liarsdice_demo.tables.saving import SAVE_RETRY_MAX, history_record, retry_delay
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.seating import MAX_TOKENS_PER_SEAT, Seating
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.tables.table_errors import KICKED, REPLACED, Forbidden, TableError
from liarsdice_demo.tables.table_storage import TableStorage

from .conftest import Conn, ManualHub

# Dudo's rules (its variants; the dudo preset itself is for 5 dice each) at a quick table.
DUDO = parse_config(
    {"variants": ["dice-loss", "calza"], "seats": 3, "dice_per_player": 2, "bot_kind": "none"}
)

# --- seating ---------------------------------------------------------------------------------------


def test_a_private_table_seats_only_with_its_key_the_host_and_the_seated() -> None:
    seating = Seating(3, host_player=1)
    assert seating.refusal(1, None) is None  # the host needs no key
    with pytest.raises(Forbidden):
        seating.take(2, "Knox", "wrong", waiting=True)
    knox = seating.take(2, "Knox", seating.join_key, waiting=True)
    assert seating.refusal(2, None) is None  # seated already
    assert seating.seat_of(2) is knox and knox.index == 0
    assert not seating.admits(None) and not seating.admits(seating.join_key + "x")
    seating.public = True
    assert seating.admits(None)


def test_seats_get_unique_names_and_run_out() -> None:
    seating = Seating(2, host_player=None, public=True)
    first = seating.take(1, "Iris", None, waiting=True)
    second = seating.take(2, "Iris", None, waiting=True)
    assert (first.name, second.name) == ("Iris", "Iris 2")
    with pytest.raises(TableError, match="every seat"):
        seating.take(3, "Lu", None, waiting=True)
    with pytest.raises(TableError, match="has started"):
        Seating(2, None, public=True).take(3, "Lu", None, waiting=False)


def test_the_host_removes_a_player_who_may_not_come_back() -> None:
    seating = Seating(3, host_player=1, public=True)
    host = seating.take(1, "Iris", None, waiting=True)
    knox = seating.take(2, "Knox", None, waiting=True)
    with pytest.raises(TableError, match="only the table's host"):
        seating.remove(knox, host.index, waiting=True)
    with pytest.raises(TableError, match="their own seat"):
        seating.remove(host, host.index, waiting=True)
    with pytest.raises(TableError, match="before the game starts"):
        seating.remove(host, knox.index, waiting=False)
    assert seating.remove(host, knox.index, waiting=True) is knox
    assert seating.seats[knox.index] is None
    with pytest.raises(Forbidden):
        seating.take(2, "Knox", None, waiting=True)


def test_a_seat_keeps_only_digests_of_its_newest_tokens() -> None:
    seating = Seating(2, host_player=1)
    seat = seating.take(1, "Iris", None, waiting=True)
    tokens = [f"token-{n}" for n in range(MAX_TOKENS_PER_SEAT + 1)]
    for token in tokens:
        seating.add_token(seat.generation, token)
    assert seating.by_token(tokens[0]) is None
    assert all(seating.by_token(token) is seat for token in tokens[1:])
    assert not any(token in json.dumps(seating.to_data()) for token in tokens)


def test_bots_fill_the_empty_seats_and_seats_are_numbered_again() -> None:
    rules = DUDO.rules
    seating = Seating(3, host_player=None, public=True)
    seating.seats[1] = Seat(1, "Iris", "human", 1)
    tab = Conn()
    seating.seats[1].conns[tab] = None
    tab.seat = 1
    seating.fill_with_bots(None, rules)  # no bots: empty seats are dropped
    assert [s.name for s in seating.seats if s] == ["Iris"] and tab.seat == 0
    seating = Seating(3, host_player=None, public=True)
    seating.fill_with_bots("random", rules)
    assert [s.kind for s in seating.seats if s] == ["bot"] * 3
    assert all(s.bot is not None and s.name.endswith(" (bot)") for s in seating.seats if s)


def test_loaded_seats_keep_their_sockets_and_name_the_gone_ones() -> None:
    seating = Seating(2, host_player=1, public=True)
    iris = seating.take(1, "Iris", None, waiting=True)
    knox = seating.take(2, "Knox", None, waiting=True)
    tab = Conn()
    iris.conns[tab] = None
    stored = seating.to_data()
    stored[1] = None  # another process removed Knox
    gone = seating.load(stored, seating.generation, DUDO.rules)
    assert gone == [knox]
    assert seating.seats[0] is not iris and tab in seating.seats[0].conns  # type: ignore[union-attr]


def test_a_namesake_in_a_removed_players_seat_is_another_seat() -> None:
    seating = Seating(2, host_player=1, public=True)
    seating.take(1, "Iris", None, waiting=True)
    knox = seating.take(2, "Knox", None, waiting=True)
    tab = Conn()
    knox.conns[tab] = None
    # Another process: the host removed Knox, and another Knox sat in that seat.
    elsewhere = Seating(2, host_player=1, public=True)
    elsewhere.load(seating.to_data(), seating.generation, DUDO.rules)
    removed = elsewhere.remove(elsewhere.seats[0], 1, waiting=True)  # type: ignore[arg-type]
    namesake = elsewhere.take(3, "Knox", None, waiting=True)
    assert (namesake.index, namesake.name) == (knox.index, knox.name)
    assert namesake.generation not in (removed.generation, knox.generation)
    gone = seating.load(elsewhere.to_data(), elsewhere.generation, DUDO.rules)
    assert gone == [knox] and seating.seats[1].conns == {}  # type: ignore[union-attr]
    with pytest.raises(Forbidden):  # a token asked for by the old Knox goes to no seat
        seating.add_token(knox.generation, "token")
    assert seating.seats[1].token_hashes == []  # type: ignore[union-attr]


def test_seats_stored_before_generations_keep_their_sockets() -> None:
    seating = Seating(2, host_player=1, public=True)
    for player, name in ((1, "Iris"), (2, "Knox")):
        seating.take(player, name, None, waiting=True)
    stored = [{k: v for k, v in seat.items() if k != "generation"} for seat in seating.to_data()]
    elsewhere = Seating(2, host_player=1, public=True)
    assert elsewhere.load(stored, 0, DUDO.rules) == []
    tabs = [Conn(), Conn()]
    for seat, tab in zip(elsewhere.seats, tabs, strict=True):
        seat.conns[tab] = None  # type: ignore[union-attr]
    assert elsewhere.load(stored, 0, DUDO.rules) == []
    assert [list(s.conns) for s in elsewhere.seats] == [[t] for t in tabs]  # type: ignore[union-attr]


# --- the clock -------------------------------------------------------------------------------------


def make_clock(live: bool = True) -> tuple[TurnClock, ManualHub, list[str]]:
    hub = ManualHub()
    recovered: list[str] = []
    clock = TurnClock(hub, threading.RLock(), lambda: live, lambda: recovered.append("refresh"))
    return clock, hub, recovered


def test_a_job_of_an_older_generation_does_nothing() -> None:
    clock, hub, _ = make_clock()
    ran: list[str] = []
    clock.start(30)
    clock.arm(30, lambda: ran.append("time out"), lambda: ran.append("bot"))
    assert len(hub.scheduler.jobs) == 2 and clock.bot_due is not None
    clock.start(30)  # the next turn: both jobs are stale
    while hub.scheduler.jobs:
        hub.scheduler.jobs.popleft()()
    assert ran == []
    clock.arm(30, lambda: ran.append("time out"))  # no bot: one job
    (job,) = hub.scheduler.jobs
    job()
    assert ran == ["time out"]


def test_jobs_do_nothing_when_the_table_is_not_live_and_recover_from_a_conflict() -> None:
    clock, hub, recovered = make_clock(live=False)
    ran: list[str] = []
    clock.arm(1, lambda: ran.append("x"))
    hub.scheduler.jobs.popleft()()
    assert ran == []
    clock, hub, recovered = make_clock()

    def conflicting() -> None:
        raise StoreConflict("moved on")

    clock.arm(1, conflicting)
    hub.scheduler.jobs.popleft()()
    assert recovered == ["refresh"]


def test_the_deadline_and_the_pause() -> None:
    clock, hub, _ = make_clock()
    assert clock.remaining() is None
    clock.start(30)
    left = clock.remaining()
    assert left is not None and 29 <= left <= 30 and clock.deadline_at is not None
    rounds: list[str] = []
    clock.pause(2, lambda: rounds.append("next"), schedule=False)
    assert clock.remaining() is None and clock.pause_until is not None
    assert not hub.scheduler.jobs  # not driven here: nothing scheduled
    clock.pause(2, lambda: rounds.append("next"))
    hub.scheduler.jobs.popleft()()
    assert rounds == ["next"]
    clock.halt()
    assert clock.deadline is None and clock.deadline_at is None


def test_a_stored_deadline_is_resumed_on_the_monotonic_clock() -> None:
    import time

    clock, _, _ = make_clock()
    clock.load(time.time() + 10, None)
    left = clock.remaining()
    assert left is not None and 9 <= left <= 10
    clock.load(None, 123.0)
    assert clock.remaining() is None and clock.pause_until == 123.0


# --- the match -------------------------------------------------------------------------------------


def test_a_match_plays_a_round_to_its_reveal_and_names_the_losers() -> None:
    match = Match(DUDO)
    with pytest.raises(TableError, match="no game"):
        match.playing()
    match.deal(["Iris", "Knox", "Lu"])
    assert match.status == "playing" and match.game_no == 1 and len(match.log)
    announce: list[dict[str, Any]] = []
    assert match.apply(BidAction("Iris", Bid(1, 2)), announce) == TURN
    with pytest.raises(IllegalAction):
        match.apply(BidAction("Knox", Bid(1, 2)), announce)  # not higher: nothing changes
    assert match.moves == 1
    then = match.apply(CallAction("Knox", "challenge"), announce)
    assert then in (REVEAL, OVER)
    (reveal,) = announce
    assert reveal is match.reveal and reveal["type"] == "reveal"
    assert set(reveal["rolls"]) == {"Iris", "Knox", "Lu"}  # the cups are lifted for everyone
    match.next_round()
    assert match.reveal is None


def test_a_match_that_reaches_its_move_limit_is_stopped() -> None:
    match = Match(DUDO)
    match.deal(["Iris", "Knox"])
    assert match.limit is not None
    match.moves = match.limit.moves - 1  # one move short of the limit
    assert match.game is not None and match.game.state.round is not None
    turn = match.game.state.round.turn
    assert match.apply(TimeoutAction(turn), []) == STOPPED
    stopped = match.stop()
    assert match.status == "stopped" and stopped["type"] == "stopped"
    assert stopped["moves"] == match.limit.moves
    assert "not saved" in str(match.stopped) and "stopped" in match.log.render("en")[-1]
    with pytest.raises(TableError):
        match.playing()


def test_places_follow_the_order_of_elimination() -> None:
    match = Match(DUDO)
    match.eliminated = [("Lu", 1), ("Knox", 4), ("Ada", 4)]
    assert match.places(["Iris"]) == {"Iris": 1, "Knox": 2, "Ada": 2, "Lu": 4}


# --- fan-out ---------------------------------------------------------------------------------------


class Clockless:
    def remaining(self) -> float | None:
        return None


def playing_fanout() -> tuple[Fanout, Seating, Match, list[dict[str, Any]]]:
    seating = Seating(3, host_player=1, public=True)
    for player_id, name in enumerate(["Iris", "Knox", "Lu"], 1):
        seating.take(player_id, name, None, waiting=True)
    match = Match(DUDO)
    match.deal(["Iris", "Knox", "Lu"])
    latencies: list[Any] = []

    class Hub:
        def record_latency(self, delays: list[float]) -> None:
            latencies.append(delays)

    return Fanout("PART", DUDO, seating, match, Clockless(), Hub()), seating, match, latencies


def test_a_seats_state_holds_its_own_dice_and_no_one_elses() -> None:
    fanout, seating, match, _ = playing_fanout()
    assert match.game is not None and match.game.state.round is not None
    rolls = match.game.state.round.rolls
    for seat in seating.seats:
        assert seat is not None
        state = fanout.state_for(seat)
        assert state["view"]["viewer"] == seat.name
        assert state["view"]["own_dice"] == list(rolls[seat.name])
        assert state["view"]["revealed"] is None and state["reveal"] is None
        assert "rolls" not in json.dumps(state, default=str)
    spectator = fanout.state_for(None)
    assert spectator["view"]["viewer"] is None and not spectator["view"]["own_dice"]
    assert spectator["legal"] is None and spectator["seat"] is None


def test_legal_moves_go_only_to_the_seat_whose_turn_it_is() -> None:
    fanout, seating, match, _ = playing_fanout()
    assert match.game is not None and match.game.state.round is not None
    turn = match.game.state.round.turn
    for seat in seating.seats:
        assert seat is not None
        legal = fanout.state_for(seat)["legal"]
        assert (legal is not None) == (seat.name == turn)


ANYONE = parse_config(
    {
        "variants": ["dice-loss", "calza"],
        "options": {"calza.anyone": True},
        "seats": 3,
        "dice_per_player": 2,
        "bot_kind": "none",
    }
)


def test_under_calza_anyone_every_seat_but_the_bidder_is_offered_exact_out_of_turn() -> None:
    seating = Seating(3, host_player=1, public=True)
    for player_id, name in enumerate(["Iris", "Knox", "Lu"], 1):
        seating.take(player_id, name, None, waiting=True)
    match = Match(ANYONE)
    match.deal(["Iris", "Knox", "Lu"])
    fanout = Fanout("PART", ANYONE, seating, match, Clockless(), None)  # type: ignore[arg-type]
    assert match.game is not None and match.game.state.round is not None
    opener = match.game.state.round.turn
    others = [seat for seat in seating.seats if seat is not None and seat.name != opener]
    assert all(fanout.state_for(seat)["legal"] is None for seat in others)  # no bid to call yet
    match.apply(BidAction(opener, Bid(1, 2)), [])
    turn = match.game.state.round.turn
    for seat in seating.seats:
        assert seat is not None
        legal = fanout.state_for(seat)["legal"]
        if seat.name == opener:
            assert legal is None  # the bidder may not call her own bid
        elif seat.name == turn:
            assert "exact" in legal["calls"] and legal["bids"] and "out_of_turn" not in legal
        else:
            assert legal == {"bids": [], "calls": ["exact"], "payloads": {}, "out_of_turn": True}


def test_a_bot_that_may_call_out_of_turn_is_asked_and_the_first_call_counts() -> None:
    match = Match(ANYONE)
    match.deal(["Iris", "Ada (bot)", "Bo (bot)"])
    game = match.game
    assert game is not None and game.state.round is not None
    opener = game.state.round.turn
    bots = [
        Seat(i, name, "bot", None, bot_kind="random", bot=new_bot("random", ANYONE.rules))
        for i, name in enumerate(["Ada (bot)", "Bo (bot)"], 1)
    ]
    seats = [None, *bots]
    assert out_of_turn(seats, game) is None  # no bid on the table
    match.apply(BidAction(opener, Bid(1, 2)), [])
    asked = [out_of_turn(seats, game) for _ in range(200)]  # the random bot calls with chance 0.1
    made = [action for action in asked if action is not None]
    assert made and all(action.kind == "exact" and action.player != opener for action in made)
    assert len(made) < len(asked)


def test_a_broadcast_sends_each_tab_its_own_state_and_everyone_the_announcements() -> None:
    fanout, seating, _, latencies = playing_fanout()
    iris, knox, watcher = Conn(), Conn("uk"), Conn()
    fanout.join(iris, seating.seats[0])
    fanout.join(knox, seating.seats[1])
    fanout.join(watcher, None)
    fanout.announce.append({"type": "reveal", "v": 1})
    fanout.timing.append(0.0)
    fanout.broadcast()
    assert [m["type"] for m in iris.sent] == ["reveal", "state"]
    assert [m["seat"] for m in (iris.sent[1], knox.sent[1], watcher.sent[1])] == [0, 1, None]
    assert fanout.announce == [] and fanout.timing == [] and len(latencies) == 1
    fanout.broadcast()
    assert [m["type"] for m in watcher.sent] == ["reveal", "state", "state"]
    assert fanout.count() == 3 and fanout.leave(knox) is seating.seats[1]


def test_a_seat_has_a_few_tabs_at_most_and_a_removed_seat_is_closed() -> None:
    fanout, seating, _, _ = playing_fanout()
    seat = seating.seats[0]
    assert seat is not None
    tabs = [Conn() for _ in range(MAX_CONNS_PER_SEAT + 1)]
    for tab in tabs:
        fanout.join(tab, seat)
    assert tabs[0].closed == REPLACED and list(seat.conns) == tabs[1:]
    fanout.dismiss(seat, "the host removed you from this table")
    assert all(tab.closed == KICKED and tab.seat is None for tab in tabs[1:])
    assert tabs[1].of("kicked")[0]["seat"] == 0


# --- the bots --------------------------------------------------------------------------------------


def test_a_bot_that_breaks_the_rules_times_out() -> None:
    match = Match(DUDO)
    match.deal(["Ada (bot)", "Iris"])
    seat = Seat(0, "Ada (bot)", "bot", None, bot_kind="random", bot=new_bot("random", DUDO.rules))
    played: list[Any] = []

    def refuse_first(action: Any, due: float | None) -> None:
        played.append((action, due))
        if len(played) == 1:
            raise IllegalAction(["no"])

    play_turn(seat, match.game, refuse_first, due=1.5)  # type: ignore[arg-type]
    assert played[0][1] == 1.5
    assert played[1] == (TimeoutAction("Ada (bot)"), None)


# --- saving and the stored record ------------------------------------------------------------------


def test_the_history_record_and_the_retry_delays() -> None:
    seating = Seating(2, host_player=None, public=True)
    seating.take(1, "Iris", None, waiting=True)
    seating.take(2, "Knox", None, waiting=True)
    match = Match(DUDO)
    match.deal(["Iris", "Knox"])
    while not match.game.over:  # type: ignore[union-attr]
        turn = match.game.state.round.turn  # type: ignore[union-attr]
        if match.apply(TimeoutAction(turn), []) == REVEAL:
            match.next_round()
    record = history_record("PART", "uid:1", match, seating.seats)
    assert record["live_key"] == "uid:1" and record["places"][record["winners"][0]] == 1
    assert [s["name"] for s in record["seats"]] == ["Iris", "Knox"]
    assert [retry_delay(n) for n in range(3)] == [1.0, 2.0, 4.0]
    assert retry_delay(20) == SAVE_RETRY_MAX


def test_a_stored_table_loads_back_into_every_part() -> None:
    hub = ManualHub()
    table = TableSession("PART", DUDO, hub, host_player=1)
    table.sit(1, "Iris")
    table.sit(2, "Knox", table.join_key)
    table.start_now()
    record = table.record()
    stored = hub.store.table("PART")
    assert stored is not None and stored.record == json.loads(json.dumps(record))
    copy = TableSession.restore(stored, ManualHub())
    assert copy.record() == record and copy.version == table.version
    assert copy.game is not None and copy.game.events == table.game.events  # type: ignore[union-attr]
    assert copy.seating.join_key == table.seating.join_key and not copy.driving


# --- driving ---------------------------------------------------------------------------------------


def test_a_table_taken_over_resumes_its_clock_with_a_grace_and_a_stopped_one_does_nothing() -> None:
    import time

    config = parse_config({"preset": "dudo", "seats": 2, "bot_kind": "none", "turn_seconds": 120})
    hub = ManualHub()
    table = TableSession("DRIV", config, hub, host_player=1)
    table.sit(1, "Iris")
    table.sit(2, "Knox", table.join_key)
    table.start_now()
    table.clock.set_deadline(1.0)  # almost out of time when its process stops
    table.save()
    stored = hub.store.table("DRIV")
    assert stored is not None
    other = ManualHub()  # another process (or this one after a restart), on the same store
    other.store = hub.store
    copy = TableSession.restore(stored, other)
    assert not copy.driving and not other.scheduler.jobs  # loaded, not driven
    copy.drive()
    left = copy.clock.remaining()
    assert copy.driving and left is not None and RESUME_GRACE - 1 <= left <= RESUME_GRACE
    # the turn's time-out and, its player having no socket, the move of a bot standing in
    assert len(other.scheduler.jobs) == 2
    copy.stop_driving()
    events = list(copy.game.events)  # type: ignore[union-attr]
    while other.scheduler.jobs:
        other.scheduler.jobs.popleft()()
    assert copy.game.events == events  # type: ignore[union-attr]
    assert time.time() < (copy.clock.deadline_at or 0)


# --- the parts that use their table, each with a stand-in table --------------------------------


class Recorder:
    """A stand-in for a part of a table: every method called on it is recorded with its
    arguments in ``calls``; ``announce``, ``timing`` and ``dismissed`` as the fan-out's."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.announce: list[dict[str, Any]] = []
        self.timing: list[float] = []

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self.calls.append((name, *args, *kwargs.values()))

    def named(self, name: str) -> list[tuple[Any, ...]]:
        return [call for call in self.calls if call[0] == name]


class StandIn:
    """A table for one part: a real seating, match and clock on a :class:`ManualHub`, recorders
    for the other parts, and broadcasts counted (stored first, when it has a storage)."""

    def __init__(self, config: Any = DUDO, hub: ManualHub | None = None, code: str = "PART"):
        self.code, self.config, self.client = code, config, None
        self.uid, self.created, self.touched = "uid", 1.0, 0.0
        self.hub = hub or ManualHub()
        if not hasattr(self.hub, "forgotten"):  # the codes the hub was told to forget
            self.hub.forgotten = []  # type: ignore[attr-defined]
            self.hub.forget = self.hub.forgotten.append  # type: ignore[attr-defined]
        self.forgotten: list[str] = self.hub.forgotten  # type: ignore[attr-defined]
        self.closed = 0
        self.lock = threading.RLock()
        self.driving = True
        self.live_key = "uid:1"
        self.seating = Seating(config.seats, host_player=1, public=True)
        self.match = Match(config)
        self.clock = TurnClock(self.hub, self.lock, lambda: True, lambda: None)
        self.fanout, self.loop, self.saver, self.driver = (Recorder() for _ in range(4))
        self.storage: Any = Recorder()
        self.broadcasts = 0

    def broadcast(self) -> None:
        if isinstance(self.storage, TableStorage):
            self.storage.persist()
        self.broadcasts += 1

    def close(self) -> None:
        self.closed += 1


def seated(table: StandIn, *names: str) -> None:
    for player_id, name in enumerate(names, 1):
        table.seating.take(player_id, name, None, waiting=True)


def test_the_storage_commits_what_changed_and_each_new_games_events_from_the_first() -> None:
    table = StandIn()
    storage = table.storage = TableStorage(table)
    seated(table, "Iris", "Knox")
    storage.persist()
    assert storage.version == 1
    storage.persist()  # nothing changed: no commit
    assert storage.version == 1
    table.match.deal(["Iris", "Knox"])
    storage.persist()
    assert table.match.game is not None
    stored = table.hub.store.table("PART")
    assert stored is not None and stored.events == table.match.game.events
    assert stored.record["status"] == "playing" and storage.version == 2
    storage.new_game()  # the next game: its events are stored from the first
    table.match.deal(["Iris", "Knox"])
    storage.persist()
    stored = table.hub.store.table("PART")
    assert stored is not None and stored.events == table.match.game.events
    assert stored.record["game"] == 2


def test_the_storage_reloads_and_retries_when_another_copy_committed_first() -> None:
    hub = ManualHub()
    mine, theirs = StandIn(hub=hub), StandIn(hub=hub)
    for table in (mine, theirs):
        table.storage = TableStorage(table)
    seated(mine, "Iris")
    mine.storage.persist()
    stored = hub.store.table("PART")
    assert stored is not None
    theirs.storage.load(stored)
    theirs.seating.take(2, "Knox", None, waiting=True)  # another process seats Knox
    theirs.storage.persist()
    runs: list[int] = []

    def sit_lu() -> str:
        runs.append(mine.storage.version)
        mine.seating.take(3, "Lu", None, waiting=True)
        mine.storage.persist()  # refused the first time: this copy is behind
        return "seated"

    assert mine.storage.retrying(sit_lu) == "seated"
    assert runs == [1, 2] and mine.storage.version == 3
    assert [s.name for s in mine.seating.seats if s] == ["Iris", "Knox", "Lu"]
    assert mine.driver.named("rearm") and mine.broadcasts == 1  # driven here: re-armed, told
    hub.store.drop("PART")
    mine.storage.refresh()  # the store no longer holds it: closed and forgotten
    assert mine.forgotten == ["PART"] and mine.closed == 1


def test_the_driver_resumes_the_clock_with_a_grace_saves_an_unsaved_game_and_lets_go() -> None:
    import time

    config = parse_config({"preset": "dudo", "seats": 2, "bot_kind": "none", "turn_seconds": 120})
    table = StandIn(config)
    table.driving = False
    driver = Driver(table)
    table.match.deal(["Iris", "Knox"])
    table.clock.load(time.time() + 1.0, None)  # almost out of time
    gen = table.clock.gen
    driver.drive()
    assert table.driving and table.clock.gen > gen
    ((name, seconds),) = table.loop.calls
    assert name == "next_turn" and RESUME_GRACE - 1 <= seconds <= RESUME_GRACE
    table.loop.calls.clear()
    driver.rearm()  # a reload: the stored deadline is armed, not restarted
    ((name, seconds),) = table.loop.calls
    assert name == "arm" and 0 <= seconds <= 1.0
    table.match.status, table.match.game_id = "over", None
    driver.rearm()
    assert table.saver.named("later")
    driver.stop()
    assert not table.driving


def test_a_driver_that_took_over_a_changed_table_reloads_it() -> None:
    table = StandIn()
    driver = Driver(table)
    table.match.deal(["Iris", "Knox"])

    class Conflicting(Recorder):
        def next_turn(self, seconds: float | None = None) -> None:
            raise StoreConflict("moved on")  # the store holds a newer version

    table.loop = Conflicting()
    driver.drive()
    assert table.storage.named("refresh")


def test_the_loop_deals_plays_a_turn_and_saves_a_finished_game_only_when_driving() -> None:
    table = StandIn()
    loop = GameLoop(table)
    seated(table, "Iris")
    with pytest.raises(TableError, match="2 players"):
        loop.start()
    table.seating.take(2, "Knox", None, waiting=True)
    loop.start()
    assert table.storage.named("new_game") and table.match.status == "playing"
    # the time-out, and a bot's move for the away player on turn (no socket is open)
    assert table.broadcasts == 1 and len(table.hub.scheduler.jobs) == 2
    with pytest.raises(TableError, match="already started"):
        loop.start()
    game = table.match.game
    assert game is not None and game.state.round is not None
    loop.act(BidAction(game.state.round.turn, Bid(1, 2)))
    assert table.match.moves == 1 and table.broadcasts == 2 and len(table.fanout.timing) == 1
    table.driving = False  # the time-outs of a table driven elsewhere are not scheduled here
    while table.match.status == "playing":
        round_ = game.state.round
        assert round_ is not None
        if round_.over:
            loop.next_round()
        else:
            loop.time_out()
    assert table.match.status == "over" and not table.saver.named("later")
    assert table.fanout.announce  # the reveals, for the next broadcast
    table.driving = True
    loop.finish()
    assert table.saver.named("later")


def test_intents_go_to_the_parts_whose_job_each_is() -> None:
    table = StandIn()
    seated(table, "Iris", "Knox")
    host, watcher = Conn(), Conn()
    host.seat = 0
    intents.carry_out(table, host, Intent("ping", {}, id=7))
    assert [m["id"] for m in host.of("pong")] == [7]
    with pytest.raises(TableError, match="spectators"):
        intents.carry_out(table, watcher, Intent("start", {}))
    intents.carry_out(table, host, Intent("bid", {"quantity": 2, "face": 3}))
    intents.carry_out(table, host, Intent("start", {}))
    (bid,) = table.loop.named("act")
    assert bid[1] == BidAction("Iris", Bid(2, 3)) and table.loop.named("host_start")
    assert table.broadcasts == 0
    knox = table.seating.seats[1]
    intents.carry_out(table, host, Intent("kick", {"seat": 1}))
    assert table.seating.seats[1] is None and table.fanout.named("dismiss")[0][1] is knox
    assert "removed Knox" in table.match.log.render("en")[-1] and table.broadcasts == 1


def test_the_saver_tries_again_while_the_database_refuses_then_shows_the_games_id() -> None:
    from liarsdice_demo.tables.saving import GameSaver

    class Storage:
        def retrying(self, work: Any) -> Any:
            return work()

    table = StandIn()
    table.storage = Storage()
    seated(table, "Iris", "Knox")
    table.match.deal(["Iris", "Knox"])
    while table.match.status == "playing":  # play the game out
        game = table.match.game
        assert game is not None and game.state.round is not None
        if table.match.apply(TimeoutAction(game.state.round.turn), []) == OVER:
            table.match.status = "over"
        elif game.state.round.over:
            table.match.next_round()
    answers: list[Any] = [RuntimeError("the database is down"), (42, {"Iris": {"mu": 1.0}})]

    def save_game(record: dict[str, Any]) -> Any:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    table.hub.save_game = save_game  # type: ignore[attr-defined]
    saver = GameSaver(table)
    saver.later()
    (job,) = table.hub.scheduler.submitted
    job()  # refused: tried again later
    assert table.match.game_id is None and table.broadcasts == 0
    table.hub.scheduler.jobs.popleft()()
    assert table.match.game_id == 42 and table.broadcasts == 1
    assert table.match.ratings == {"Iris": {"mu": 1.0}}
