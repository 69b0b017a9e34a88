"""The Redis store's parts alone, on a real redis-server: the leases of who drives a table and
the processes' heartbeats, and the announcements of changes with their listener."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis

from liarsdice.events import Event
from liarsdice.serialization import to_data
from liarsdice_demo.storage.live_store import StoredTable, StoreUnavailable
from liarsdice_demo.storage.redis_changes import RedisChanges
from liarsdice_demo.storage.redis_leases import RedisLeases

from .test_restart import replay_log


@pytest.fixture
def client(redis_url: str) -> Iterator[Any]:
    made = redis.Redis.from_url(redis_url, decode_responses=True, protocol=2)
    yield made
    made.close()


def test_a_lease_has_one_holder_till_it_is_released_or_expires(client: Any, tmp_path: Path) -> None:
    leases = RedisLeases(client, f"test-{tmp_path.name}:")
    assert leases.acquire([], "a", 5000) == [] and leases.renew([], "a", 5000) == []
    assert leases.acquire(["T1", "T2"], "a", 5000) == ["T1", "T2"]
    assert leases.acquire(["T1", "T2", "T3"], "b", 5000) == ["T3"]
    assert leases.acquire(["T1"], "a", 5000) == ["T1"]  # its own (a copy it dropped): again
    assert (leases.holder("T1"), leases.holder("T3"), leases.holder("T9")) == ("a", "b", None)
    assert leases.renew(["T1", "T2", "T3"], "a", 5000) == ["T3"]  # not a's
    leases.release(["T1", "T3"], "a")  # T3 is b's: b keeps it
    assert (leases.holder("T1"), leases.holder("T3")) == (None, "b")
    assert leases.acquire(["T4"], "a", 50) == ["T4"]
    time.sleep(0.2)  # a stopped renewing: its lease expired
    assert leases.renew(["T4"], "a", 5000) == ["T4"]
    assert leases.acquire(["T4"], "b", 5000) == ["T4"] and leases.holder("T4") == "b"
    assert client.exists(f"test-{tmp_path.name}:lease:T4")  # the store's key (drop deletes it)


def test_a_process_is_alive_while_its_heartbeat_lasts(client: Any, tmp_path: Path) -> None:
    leases = RedisLeases(client, f"test-{tmp_path.name}:")
    leases.beat("a", 5000)
    leases.beat("b", 50)
    time.sleep(0.2)
    assert leases.alive({"a", "b", "c"}) == {"a"} and leases.alive([]) == set()


def wait_until(done: Any) -> None:
    deadline = time.monotonic() + 10
    while not done():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_the_listener_hands_over_the_changes_of_the_tables_watched(
    client: Any, redis_url: str, tmp_path: Path
) -> None:
    listening = redis.Redis.from_url(redis_url, decode_responses=True, protocol=2)
    away = threading.Event()
    prefix = f"test-{tmp_path.name}:"
    changes = RedisChanges(client, listening, prefix, away)
    heard: queue.Queue[tuple[str, str]] = queue.Queue()
    changes.listen(lambda code, message: heard.put((code, message)), "node-1")

    def subscribers(code: str) -> int:
        return int(client.pubsub_numsub(f"{prefix}changed:{code}")[0][1])

    try:
        changes.watch("T1")
        wait_until(lambda: subscribers("T1") == 1)
        events = replay_log()[:2]
        rows = [orjson.dumps(row).decode() for row in to_data(events, list[Event])]
        message = "\n".join(["3 1700000000.250000 2", '{"game": 1}', *rows])
        client.publish(f"{prefix}changed:T2", "closed")  # not watched: not heard
        client.publish(f"{prefix}changed:T1", message)  # as the store's commit does
        assert heard.get(timeout=10) == ("T1", message)
        assert changes.change_version(message) == 3
        assert changes.change("T1", message) == (
            3,
            1700000000.25,
            StoredTable("T1", {"game": 1}, events, 3, 2),
        )
        changes.unwatch("T1")
        wait_until(lambda: subscribers("T1") == 0)
        away.set()  # Redis does not answer: no waiting on it
        with pytest.raises(StoreUnavailable):
            changes.watch("T1")
    finally:
        started = time.monotonic()
        changes.close()
        listening.close()
    assert time.monotonic() - started < 1.5  # woken by its own channel, not left to time out
    assert heard.empty()
