"""A book of heads-up positions solved on the last bid, for one ruleset: built once, kept on disk.

A position is two living players holding ``d0`` and ``d1`` dice (in seat order) with one of them
to open. :func:`build` solves every position a game reaches from ``max_dice`` each, either player
opening (:mod:`~liarsdice.endgame.lastbid`), those with fewer dice in play first: a call's outcome
is worth +1 or -1 to player 0 where it ends the game, the value of the position it leads to where
that has fewer dice in play, and otherwise (a die regained, a shot survived) the dice share
``(d0 - d1) / (d0 + d1)``. By default the opener plays a second solve of the round, with the
opening blind (one policy for every hand of the opener, the rest of the round solved against
it): their opening bid tells nothing of their hand. The other player plays the first solve,
whose answers do not take the opener's bid to be blind (the bots and people they meet open by
their hands).

With ``exact_dice`` 3, a book also holds the rounds with three dice in play solved exactly, on
their whole trees (:mod:`~liarsdice.endgame.exact`: every bid remembered, no abstraction); with
4, the rounds with four dice in play too, solved on their bid ladders
(:mod:`~liarsdice.endgame.ladder_policy`). :meth:`Book.exact_policy` gives them. (:class:`Book`
and its lookups live in :mod:`~liarsdice.endgame.book_data`; this module names them too.)

A book is found by the dice of the two living players and who opens, whatever the seats' names,
the table's size or the public plugin state (a revolver's chambers, which the book takes as they
were where it met the position first): :meth:`Book.policy` gives the solved policy at a player's
view, or ``None`` where the book has no such position or its moves are not the legal ones.

:func:`save` writes a book as a compressed numpy archive under a name made from the rules, with
its SHA-256 beside it; :func:`load` refuses a book whose checksum does not match
(:class:`BookError`) and reads nothing from the network. :func:`find` loads the book of a ruleset
once per process from :func:`directory` (where ``liarsdice endgames build`` writes it).
"""

from __future__ import annotations

import hashlib
import io
import json
import time
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import numpy as np

from liarsdice.endgame import exact, ladder_policy, lastbid
from liarsdice.endgame.book_data import PLAYERS as PLAYERS
from liarsdice.endgame.book_data import Book as Book
from liarsdice.endgame.book_data import Position as Position
from liarsdice.endgame.book_data import PositionKey as PositionKey
from liarsdice.endgame.book_data import stored_move
from liarsdice.endgame.rounds import Hand, Unsolvable, dealt_root, hands
from liarsdice.endgame.store import default_directory, rules_key
from liarsdice.models import GameState, PlayerState
from liarsdice.ruleset import Ruleset

SMALLEST = 1e-3
"""A chance below this is dropped from a stored policy (and the rest scaled up to 1)."""
FORMAT = 2
"""The version of the stored form (2: the opening solved blind, or said not to be)."""
ITERATIONS = 200
"""CFR+ iterations per position by default."""


class BookError(Exception):
    """A book that cannot be read: damaged, or for other rules."""


def start(d0: int, d1: int, opener: int, dice_per_player: int) -> GameState:
    """The position ``(d0, d1, opener)`` between rounds, under the book's names."""
    players = (PlayerState(PLAYERS[0], d0), PlayerState(PLAYERS[1], d1))
    return GameState(players, dice_per_player, next_opener=PLAYERS[opener])


def build(
    rules: Ruleset,
    max_dice: int = 5,
    iterations: int = ITERATIONS,
    depth: int = 1,
    progress: Callable[[str], None] | None = None,
    starts: Iterable[PositionKey] = (),
    blind_opening: bool = True,
    memory: int = 1,
    exact_dice: int = 0,
) -> Book:
    """Every position reached from ``max_dice`` each (or from ``starts``, with at most
    ``max_dice`` dice each), solved by ``iterations`` of CFR+ on nodes counting the bids up to
    ``depth`` and remembering ``memory`` bids (1 or 2), the opener's moves from a solve with
    the opening blind unless ``blind_opening`` is false (see the module), and with
    ``exact_dice``, the rounds of the positions reached with that many dice in play solved
    exactly too (0: none; 4: those with 3 as well, and those with 4 on their bid ladders);
    ``progress`` is told a line per position solved.
    :class:`Unsolvable` for rules a solver does not take."""
    solved: dict[PositionKey, tuple[lastbid.Graph, lastbid.Strategy, float]] = {}

    def key(state: GameState) -> PositionKey:
        first, second = state.alive
        assert state.next_opener is not None
        return first.dice, second.dice, [first.name, second.name].index(state.next_opener)

    def worth(limit: int) -> Callable[[GameState], float]:
        def value(after: GameState) -> float:
            if after.over:
                return 1.0 if PLAYERS[0] in after.winners else -1.0
            if after.dice_in_play < limit:
                return solve(after)
            first, second = (player.dice for player in after.alive)
            return (first - second) / (first + second)

        return value

    def solve(state: GameState) -> float:
        found = key(state)
        if found not in solved:
            root = dealt_root(rules, state)
            graph = lastbid.build(rules, root, worth(state.dice_in_play), depth, memory)
            started = time.perf_counter()
            strategy, _ = lastbid.solve(graph, iterations)
            if blind_opening:
                strategy = _opened_blind(graph, strategy, iterations)
            value = lastbid.game_value(graph, strategy)
            solved[found] = (graph, strategy, value)
            if progress is not None:
                progress(
                    f"{found[0]} v {found[1]} dice, {PLAYERS[found[2]]} opens: value {value:+.4f}"
                    f" ({len(graph.nodes)} nodes, solved in {time.perf_counter() - started:.1f} s)"
                )
        return solved[found][2]

    for d0, d1, opener in starts or [(max_dice, max_dice, 0), (max_dice, max_dice, 1)]:
        solve(start(d0, d1, opener, max_dice))
    positions = {
        found: _position(graph, strategy, value)
        for found, (graph, strategy, value) in solved.items()
    }

    def starts_with(dice: int) -> list[GameState]:
        return [start(*found, max_dice) for found in sorted(solved) if sum(found[:2]) == dice]

    tree_dice = min(exact_dice, 3)
    ladders = ladder_policy.build(rules, starts_with(4), progress) if exact_dice >= 4 else None
    exact_rounds = _exact_rounds(rules, starts_with(tree_dice), tree_dice, progress)
    return Book(
        rules_key(rules),
        positions,
        iterations,
        max_dice,
        depth,
        blind_opening,
        memory,
        exact_rounds,
        4 if ladders is not None else tree_dice if exact_rounds is not None else 0,
        ladders,
    )


def _exact_rounds(
    rules: Ruleset,
    starts: list[GameState],
    dice: int,
    progress: Callable[[str], None] | None,
) -> exact.ExactRounds | None:
    """The rounds with ``dice`` in play from ``starts`` solved exactly, or ``None`` where there
    are none or the endgame solver refuses the rules (``progress`` is told why: the book plays
    its abstraction there)."""
    if not starts:
        return None
    try:
        return exact.build(rules, starts, dice, progress)
    except Unsolvable as error:
        if progress is not None:
            progress(
                f"the rounds with {dice} dice in play cannot be solved exactly "
                f"({error.reason}): the book keeps its abstraction there"
            )
        return None


def _opened_blind(
    graph: lastbid.Graph, strategy: lastbid.Strategy, iterations: int
) -> lastbid.Strategy:
    """``strategy`` with the opener's moves taken from a solve of ``graph`` with the opening
    blind: the opener tells nothing, and the other player answers as ``strategy`` does (an
    answer to an opener whose bid may tell, as any other player's may)."""
    blind, _ = lastbid.solve(graph, iterations, blind_opening=True)
    opener = graph.actor[0]
    return [
        blind[node] if graph.actor[node] == opener else strategy[node]
        for node in range(len(graph.nodes))
    ]


def _position(graph: lastbid.Graph, strategy: lastbid.Strategy, value: float) -> Position:
    return Position(
        nodes={node: n for n, node in enumerate(graph.nodes)},
        moves=tuple(tuple(stored_move(action) for action in actions) for actions in graph.actions),
        policy=tuple(_pruned(matrix) for matrix in strategy),
        hands=(
            {hand: row for row, hand in enumerate(graph.hands[0])},
            {hand: row for row, hand in enumerate(graph.hands[1])},
        ),
        actor=graph.actor,
        value=value,
    )


def _pruned(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` (a policy per row) without chances under :data:`SMALLEST`, rows scaled to 1,
    stored as float32."""
    kept = np.where(matrix < SMALLEST, 0.0, matrix)
    scaled: np.ndarray = (kept / kept.sum(axis=1, keepdims=True)).astype(np.float32)
    return scaled


def file_name(rules: Ruleset) -> str:
    """The file a book of ``rules`` is saved under (without the directory)."""
    return hashlib.sha256(rules_key(rules).encode()).hexdigest()[:24] + ".npz"


def directory() -> Path | None:
    """Where books are kept: ``books`` in the endgame store's directory
    (:func:`~liarsdice.endgame.store.default_directory`), or ``None`` where that is nowhere."""
    found = default_directory()
    return None if found is None else found / "books"


def save(book: Book, rules: Ruleset, where: Path) -> Path:
    """Write ``book`` (of ``rules``) into the directory ``where``, with its checksum beside it;
    the path written."""
    arrays: dict[str, np.ndarray] = {}
    index = []
    for number, (found, position) in enumerate(sorted(book.positions.items())):
        index.append(
            {
                "position": list(found),
                "value": position.value,
                "nodes": [list(node) if node is not None else None for node in position.nodes],
                "moves": [[list(move) for move in moves] for moves in position.moves],
                "actor": list(position.actor),
            }
        )
        for node, matrix in enumerate(position.policy):
            arrays[f"p{number}n{node}"] = matrix
    header = {
        "format": FORMAT,
        "rules": book.rules,
        "iterations": book.iterations,
        "max_dice": book.max_dice,
        "depth": book.depth,
        "blind_opening": book.blind_opening,
        "memory": book.memory,
        "positions": index,
        "exact_dice": book.exact_dice,
    }
    if book.exact is not None:
        header["exact_calls"] = list(book.exact.calls)
        arrays.update({f"exact_{name}": array for name, array in book.exact.arrays().items()})
    if book.ladders is not None:
        header["ladder_calls"] = list(book.ladders.calls)
        arrays.update({f"ladder_{name}": a for name, a in book.ladders.arrays().items()})
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    data = buffer.getvalue()
    where.mkdir(parents=True, exist_ok=True)
    path = where / file_name(rules)
    path.write_bytes(data)
    path.with_suffix(".sha256").write_text(hashlib.sha256(data).hexdigest() + "\n")
    return path


def load(rules: Ruleset, where: Path) -> Book | None:
    """The book of ``rules`` in the directory ``where``, or ``None`` if there is none;
    :class:`BookError` if its checksum does not match or it is for other rules."""
    path = where / file_name(rules)
    if not path.exists():
        return None
    data = path.read_bytes()
    checksum = path.with_suffix(".sha256")
    if not checksum.exists():
        raise BookError(f"{path} has no checksum beside it ({checksum.name}): build it again")
    if hashlib.sha256(data).hexdigest() != checksum.read_text().strip():
        raise BookError(f"{path} does not match its checksum: build it again")
    try:
        return _read(np.load(io.BytesIO(data)), rules, path)
    except (KeyError, ValueError, TypeError, zipfile.BadZipFile) as error:
        raise BookError(f"{path} cannot be read ({error!r}): build it again") from None


def _read(arrays: Mapping[str, np.ndarray], rules: Ruleset, path: Path) -> Book:
    """The book in ``arrays`` (a loaded archive) from ``path``, refused unless of ``rules``."""
    header = json.loads(arrays["header"].tobytes())
    if header.get("format") != FORMAT:
        raise BookError(f"{path} was built by another version of liarsdice: build it again")
    if header.get("rules") != rules_key(rules):
        raise BookError(f"{path} is not a book of these rules: build it again")
    positions = {}
    for number, entry in enumerate(header["positions"]):
        d0, d1, _ = entry["position"]
        nodes = [tuple(node) if node is not None else None for node in entry["nodes"]]
        positions[tuple(entry["position"])] = Position(
            nodes={node: n for n, node in enumerate(nodes)},
            moves=tuple(tuple(tuple(move) for move in moves) for moves in entry["moves"]),
            policy=tuple(arrays[f"p{number}n{node}"] for node in range(len(nodes))),
            hands=(_rows(d0), _rows(d1)),
            actor=tuple(entry["actor"]),
            value=entry["value"],
        )
    exact_rounds = None
    if "exact_calls" in header:
        saved = {name: arrays[f"exact_{name}"] for name in exact.ARRAYS}
        exact_rounds = exact.ExactRounds.from_arrays(saved, header["exact_calls"])
    ladders = None
    if "ladder_calls" in header:
        saved = {name: arrays[f"ladder_{name}"] for name in ladder_policy.ARRAYS}
        ladders = ladder_policy.LadderRounds.from_arrays(saved, header["ladder_calls"])
    return Book(
        header["rules"],
        positions,
        header["iterations"],
        header["max_dice"],
        header["depth"],
        header["blind_opening"],
        header.get("memory", 1),
        exact_rounds,
        header.get("exact_dice", 0),
        ladders,
    )


def _rows(dice: int) -> dict[Hand, int]:
    return {hand: row for row, hand in enumerate(hands(dice)[0])}


_FOUND: dict[tuple[str, Path], Book | None] = {}
"""The books read in this process by rules key and directory (``None``: one refused)."""


def find(rules: Ruleset) -> Book | None:
    """The book of ``rules`` in :func:`directory`, read once per process when it is first there
    (until then each call only looks for the file); ``None`` if it is not built, or damaged (a
    bot plays on without it)."""
    where = directory()
    if where is None:
        return None
    key = (rules_key(rules), where)
    if key in _FOUND:
        return _FOUND[key]
    try:
        found = load(rules, where)
    except BookError:
        found = None
    else:
        if found is None:
            return None
    _FOUND[key] = found
    return found
