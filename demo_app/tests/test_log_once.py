"""At most one log record per client per minute (liarsdice_demo.edge.log_once)."""

from __future__ import annotations

import logging
from typing import Any

from liarsdice_demo.edge.log_once import LogOnce

log = logging.getLogger("test_log_once")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fail(once: LogOnce, key: str) -> None:
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        once.exception(log, key, "table %s: a client message was not handled", "ABCDEFGH")


def test_one_record_per_client_per_minute_with_the_count_left_out(caplog: Any) -> None:
    clock = Clock()
    once = LogOnce(clock=clock)
    with caplog.at_level(logging.ERROR, logger="test_log_once"):
        for _ in range(50):  # a client trips the bug in a loop
            fail(once, "10.0.0.1")
            clock.now += 1
        fail(once, "10.0.0.2")  # another client is logged at once
        records = [(r.getMessage(), r.exc_info is not None) for r in caplog.records]
        assert records == [
            ("table ABCDEFGH: a client message was not handled", True),
            ("table ABCDEFGH: a client message was not handled", True),
        ]
        clock.now += 10  # a minute after the first client's record
        fail(once, "10.0.0.1")
        assert caplog.records[-1].getMessage() == (
            "table ABCDEFGH: a client message was not handled"
            " (49 more like this from 10.0.0.1 were not logged)"
        )
        assert len(caplog.records) == 3


def test_the_keys_remembered_are_bounded() -> None:
    clock = Clock()
    once = LogOnce(max_keys=3, clock=clock)
    assert [once.allow(f"10.0.0.{n}") for n in range(4)] == [0, 0, 0, 0]
    assert len(once._keys) == 3
    assert once.allow("10.0.0.3") is None  # the newest are remembered
    assert once.allow("10.0.0.0") == 0  # the oldest was forgotten: it logs at once
