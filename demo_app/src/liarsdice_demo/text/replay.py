"""A finished game's replay steps, a page at a time, each state written as what changed.

A step is a narrated event with the state after it. Contract: :func:`steps_page` folds a stored
game's log (:mod:`liarsdice_demo.text.folding`) and answers its steps from ``first`` on, in
``locale``, as :class:`StepsPage`: at most :data:`PAGE_STEPS` steps and at most :data:`CAP` bytes
once encoded (:meth:`StepsPage.encode`), with the game's number of steps and where the next page
starts.

A step is ``{"text": line, "matching": faces or None, "state": patch}``. ``matching`` are the
faces that count toward the bid called (from the call to the next round). ``patch`` holds the keys
of the state's data (``liarsdice.serialization.to_data``) that changed since the page's step
before, so the first step of a page has every key; within it, ``round`` (unless ``None``) is a
patch of the round before (of an empty one when there was none), and the round's ``bids`` are
``{"keep": n, "add": [...]}``: the first ``n`` bids before, then ``add``. A step costs what it
changes (a bid: one bid and the turn), not the whole state, so a page's size, like the work to
make it, is linear in the game; the page's script (``static/replay.js``) rebuilds the states.

The fold lets all other work run first every few events, and a process makes one page at a time
(``folding.MAKING``): a long game, or many readers of one, never hold the worker up.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import attrs
import orjson

from liarsdice.i18n import render
from liarsdice.models import GameState, PlacedBid
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import to_data
from liarsdice_demo.text.folding import GAMES, MAKING, PAGE_STEPS, Read, narrated

CAP = 2 * 1024 * 1024
"""The most bytes one page of steps holds (the replay's page itself is a few kilobytes)."""
STEPS_FORMAT = f"1:{PAGE_STEPS}:{CAP}"
"""The steps' format and paging: changing either changes every page's ETag."""
_ENVELOPE = 200
"""Bytes kept for the page's fields around its steps."""


@attrs.frozen
class StepsPage:
    """The steps from ``first`` (``steps``), how many the game has (``total``) and the first one
    after them (``next``, ``None`` at the end)."""

    first: int
    total: int
    next: int | None
    steps: list[bytes]

    def encode(self) -> bytes:
        """The page as JSON: ``{"from", "total", "next", "page", "steps"}`` (UTF-8)."""
        head = {"from": self.first, "total": self.total, "next": self.next, "page": PAGE_STEPS}
        return orjson.dumps(head)[:-1] + b',"steps":[' + b",".join(self.steps) + b"]}"


def _patch(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``after`` whose values differ in ``before``."""
    missing = object()
    return {key: value for key, value in after.items() if before.get(key, missing) != value}


def state_patch(
    before: dict[str, Any],
    after: dict[str, Any],
    bids_before: tuple[PlacedBid, ...],
    bids_after: tuple[PlacedBid, ...],
) -> dict[str, Any]:
    """The patch that makes ``after`` of ``before`` (see the module's contract): both are states'
    data with their round's bids left out, which are ``bids_before`` and ``bids_after``."""
    patch = _patch(before, after)
    if after.get("round") is None:
        return patch
    kept = len(bids_before)
    if bids_after[:kept] != bids_before:  # not only bids added: count the bids that stay
        kept, most = 0, min(len(bids_before), len(bids_after))
        while kept < most and bids_before[kept] == bids_after[kept]:
            kept += 1
    if "round" in patch or kept < len(bids_before) or kept < len(bids_after):
        patch["round"] = _patch(before.get("round") or {}, after["round"])
        patch["round"]["bids"] = {"keep": kept, "add": [to_data(b) for b in bids_after[kept:]]}
    return patch


def _data(state: GameState) -> tuple[dict[str, Any], tuple[PlacedBid, ...]]:
    """``state``'s data with its round's bids left out (``[]``), and those bids."""
    if state.round is None:
        return to_data(state), ()
    bids = state.round.bids
    return to_data(attrs.evolve(state, round=attrs.evolve(state.round, bids=()))), bids


def steps_page(
    read: Read, game: Hashable, ruleset: Ruleset | None, locale: str, first: int
) -> StepsPage:
    """The steps of the game whose stored log ``read`` reads, from step ``first`` on (see the
    module's contract); ``game`` names the stored game (what folds learn of it is kept under that
    name). ``ruleset`` ``None``: a variant of the game is no longer installed, so only the bid's
    own face counts. Past the last step: a page with no step."""
    steps: list[bytes] = []
    before: dict[str, Any] = {}
    bids: tuple[PlacedBid, ...] = ()
    size, following = _ENVELOPE, None
    with MAKING:
        known = GAMES.get(game)
        if known.total is not None and first >= known.total:
            return StepsPage(first, known.total, None, [])
        for index, text, draft, matching in narrated(read, known, ruleset, first):
            if following is None and len(steps) == PAGE_STEPS:
                following = index
            if following is not None:
                if known.total is not None:
                    break
                continue  # to the end of the log, to count its steps
            after, bids_after = _data(draft.freeze())
            patch = state_patch(before, after, bids, bids_after)
            step = orjson.dumps(
                {"text": render(text, locale), "matching": matching, "state": patch}
            )
            if steps and size + len(step) + 1 > CAP:
                following = index
                continue
            steps.append(step)
            size += len(step) + 1
            before, bids = after, bids_after
    assert known.total is not None  # known before, or the fold went to the end
    return StepsPage(first, known.total, following, steps)
