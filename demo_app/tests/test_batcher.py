"""Script calls batched while a round trip is on its way (liarsdice_demo.storage.batcher), on a real
redis-server: every caller gets its own reply or error, batches form under load, and a script
Redis forgot is loaded again."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from liarsdice_demo.storage.batcher import Batcher

# Appends ARGV[1] to list KEYS[1]; the reply is the list's new length. "fail" is refused.
PUSH = """
if ARGV[1] == 'fail' then return redis.error_reply('REFUSED ' .. KEYS[1]) end
return redis.call('RPUSH', KEYS[1], ARGV[1])
"""


@pytest.fixture
def client(redis_url: str) -> Any:
    found = redis.Redis.from_url(redis_url.replace("/0", "/5"), decode_responses=True)
    found.flushdb()
    yield found
    found.close()


def test_concurrent_calls_each_get_their_own_reply_in_fewer_round_trips(client: Any) -> None:
    batcher = Batcher(client, PUSH)
    assert batcher.call(["warm"], ["up"]) == 1  # Redis learns the script
    round_trips = []
    send = batcher._pipeline
    batcher._pipeline = lambda batch: round_trips.append(len(batch)) or send(batch)  # type: ignore[method-assign]
    replies: dict[tuple[int, int], Any] = {}
    start = threading.Barrier(8)

    def caller(n: int) -> None:
        start.wait()
        for i in range(50):
            replies[n, i] = batcher.call([f"list:{n}"], [i])

    threads = [threading.Thread(target=caller, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert replies == {(n, i): i + 1 for n in range(8) for i in range(50)}
    assert all(client.lrange(f"list:{n}", 0, -1) == [str(i) for i in range(50)] for n in range(8))
    assert sum(round_trips) == 400 and len(round_trips) < 400 and max(round_trips) > 1


def test_a_refusal_reaches_its_own_caller_only(client: Any) -> None:
    batcher = Batcher(client, PUSH)
    assert batcher.call(["list:a"], ["x"]) == 1
    with pytest.raises(redis.ResponseError, match="REFUSED list:b"):
        batcher.call(["list:b"], ["fail"])
    refused = batcher._replies(
        [batcher_call(["list:c"], ["fail"]), batcher_call(["list:a"], ["y"])]
    )
    assert isinstance(refused[0], redis.ResponseError) and refused[1] == 2


def test_a_script_redis_forgot_is_loaded_again(client: Any) -> None:
    batcher = Batcher(client, PUSH)
    assert batcher.call(["list:a"], ["x"]) == 1
    client.script_flush()
    assert batcher.call(["list:a"], ["y"]) == 2
    client.script_flush()
    replies = batcher._replies([batcher_call(["list:a"], ["z"]), batcher_call(["list:b"], ["z"])])
    assert replies == [3, 1]


def test_redis_away_fails_every_call_of_the_batch_and_the_next_call_still_goes() -> None:
    no_retries = Retry(NoBackoff(), 0)
    away = redis.Redis(port=1, decode_responses=True, retry=no_retries)  # nobody listens there
    batcher = Batcher(away, PUSH)
    replies = batcher._replies([batcher_call(["a"], ["x"]), batcher_call(["b"], ["x"])])
    assert all(isinstance(reply, redis.ConnectionError) for reply in replies)
    with pytest.raises(redis.ConnectionError):
        batcher.call(["a"], ["x"])
    with pytest.raises(redis.ConnectionError):  # the failed batch handed over: no call hangs
        batcher.call(["a"], ["x"])


def batcher_call(keys: list[str], args: list[Any]) -> Any:
    from liarsdice_demo.storage.batcher import _Call

    return _Call(keys, args)
