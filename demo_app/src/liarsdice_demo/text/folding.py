"""A stored game's log folded into its narrated steps, resumed from marks kept for each game.

Contract: :func:`narrated` folds a finished game's log (read in batches by a :data:`Read`) and
yields each narrated event from step ``first`` on: its number, its line, the draft after it and
the faces that count toward the bid called. It starts from the latest :class:`Mark` at or before
``first`` that an earlier fold of the same game left in its :class:`Known` (one mark a page of
:data:`PAGE_STEPS` steps, taken at a batch's start), and stops when its caller does; a fold that
reaches the end of the log learns the game's number of steps (``Known.total``). So the first page
of a game costs one pass over its log, and each later page only its own events. :data:`GAMES`
keeps what was learned of the :data:`KNOWN_GAMES` games read last (a finished game never changes:
its key names the stored game). Every :data:`YIELD_EVERY` events the fold lets all other work go
first (:func:`let_others_run`). Callers hold :data:`MAKING` while they fold: a process folds one
log at a time, and further readers wait without using the CPU.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator

import attrs
import gevent
from gevent import monkey

from liarsdice import engine
from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.events import CallMade, Event, RoundStarted
from liarsdice.i18n import Text
from liarsdice.models import Bid, GameState
from liarsdice.reducer import Draft
from liarsdice.ruleset import Ruleset
from liarsdice_demo.text import narrate

PAGE_STEPS = 5000
"""The most steps a page of a replay holds; pages start at multiples of it (unless one stops
early at its byte cap), and a fold keeps a mark at each."""
YIELD_EVERY = 16
"""Events folded between two chances for other work to run (about a millisecond's work)."""
KNOWN_GAMES = 64
"""How many games' marks a process keeps (a few frozen states each: one a page)."""
MAKING = threading.BoundedSemaphore(1)
"""Held while a log is folded: a process folds one at a time, and further requests wait (without
using the CPU) instead of sharing it, so the sockets' greenlets keep theirs."""

Read = Callable[[int], Iterator[tuple[list[Event], int]]]
"""A stored log's events from a position in it, in batches of :data:`YIELD_EVERY`, each with the
position after it (``liarsdice_demo.storage.history.event_batches``)."""


@attrs.frozen
class Mark:
    """Where a fold can resume: after ``steps`` steps, at ``position`` in the stored log, with the
    state there (``None``: before the first event) and the faces that count there."""

    steps: int
    position: int
    state: GameState | None
    matching: list[int] | None


START = Mark(0, 0, None, None)


@attrs.define
class Known:
    """What folds learned of one game: a mark for each page start (by the page's first step),
    and its number of steps once a fold reached the end."""

    marks: dict[int, Mark] = attrs.field(factory=dict)
    total: int | None = None

    def resume(self, first: int) -> Mark:
        """The latest mark at or before step ``first``."""
        return max(
            (mark for mark in self.marks.values() if mark.steps <= first),
            key=lambda mark: mark.steps,
            default=START,
        )


class Games:
    """What was learned of the :data:`KNOWN_GAMES` games read last, by key."""

    def __init__(self) -> None:
        self._known: OrderedDict[Hashable, Known] = OrderedDict()

    def get(self, game: Hashable) -> Known:
        """What is known of ``game`` (nothing yet, the first time); it becomes the newest."""
        known = self._known.pop(game, None) or Known()
        self._known[game] = known
        while len(self._known) > KNOWN_GAMES:
            self._known.popitem(last=False)
        return known


GAMES = Games()


def let_others_run() -> None:
    """Let the process's other work go first: under gevent's monkey patching (the server's
    workers), wait until the event loop has nothing else to do (``gevent.idle``: sockets'
    messages, new requests, timers, then this); under threads, give up the GIL
    (``time.sleep(0)``)."""
    if monkey.is_module_patched("time"):
        gevent.idle()
    else:
        time.sleep(0)


def _matching(ruleset: Ruleset | None, draft: Draft) -> list[int] | None:
    """The faces that count toward the bid on the table (``None`` when there is none); only the
    bid's face without a ``ruleset``."""
    if not draft.in_round:
        return None
    bid = draft.current_bid or Bid(0, 0)
    faces = engine.counted_faces(ruleset, draft.freeze(), bid) if ruleset else {bid.face}
    return sorted(faces)


def narrated(
    read: Read, known: Known, ruleset: Ruleset | None, first: int
) -> Iterator[tuple[int, Text, Draft, list[int] | None]]:
    """Each narrated event of the log from step ``first`` on (see the module's contract)."""
    mark = known.resume(first)
    draft = None if mark.state is None else Draft(mark.state)
    matching, index = mark.matching, mark.steps
    position = mark.position
    for batch, after in read(position):
        start = -(-index // PAGE_STEPS) * PAGE_STEPS  # the next page's first step
        if start - index < YIELD_EVERY and known.marks.get(start, START).steps <= index:
            state = None if draft is None else draft.freeze()
            known.marks[start] = Mark(index, position, state, matching)
        let_others_run()
        for event in batch:
            if isinstance(event, CallMade) and draft is not None:
                matching = _matching(ruleset, draft)
            elif isinstance(event, RoundStarted):
                matching = None
            if draft is None:
                draft = Draft.started(event)  # type: ignore[arg-type]  # a log starts so
            else:
                draft.apply(event)
            text = narrate.line(event, kind=ruleset.bid_kind if ruleset else COUNT_OF_FACE)
            if text is not None:
                if index >= first:
                    yield index, text, draft, matching
                index += 1
        position = after
    known.total = index
