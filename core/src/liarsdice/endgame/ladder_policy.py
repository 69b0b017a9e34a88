"""Rounds solved on their ladders, kept small for a book: the policy where its players go.

A round of four dice in play solved on its ladder (:mod:`~liarsdice.endgame.ladder_cfr`) has
up to 16.8 million nodes, and its average strategy gives nearly every move some weight: 1.4 GB
as whole parts of :data:`~liarsdice.endgame.solution.QUANTUM`. :func:`publish` keeps it small:
chances under :data:`THRESHOLD` are dropped and the rest scaled back to 1, and only the
(node, hand) pairs the player's own policy reaches are kept, each with its moves of positive
chance, in whole parts of ``QUANTUM``. That drops 14 in 15 of the entries at 2 dice each with
ones wild, and costs no exploitability there (measured in docs/bots.md).

:class:`LadderRounds` holds several rounds. A round is found by the key of its root (the
:func:`~liarsdice.endgame.exact.heads_up_key` of a view's state with its bids left out: the
two seats renamed, the dice per player, the opener, the public plugin state) with the plugin
state of one of its modes (:class:`~liarsdice.endgame.ladder.Ladder`), and a node by the bids'
rungs, numbered as on the ladder (:meth:`~liarsdice.endgame.ladder.Ladder.node`), whose mode
must be that one; the engine's legal moves there must be the rungs above the last bid and the
round's calls.

:func:`build` solves and publishes rounds one at a time, keeping each in the endgame cache, and
:func:`merged` gathers them.
"""

from __future__ import annotations

import hashlib
import json
import math
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import attrs
import numpy as np

from liarsdice.endgame.exact import FACE_CODES, hand_rows, heads_up_key, key_hash
from liarsdice.endgame.graph import Limits
from liarsdice.endgame.ladder import mode_after
from liarsdice.endgame.ladder_cfr import Level, Solver, Strategy
from liarsdice.endgame.ladders import solve_round
from liarsdice.endgame.rounds import Unsolvable, dealt_root, legal_moves, node_key
from liarsdice.endgame.solution import QUANTUM
from liarsdice.endgame.store import default_directory, solution_key
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, view_state

THRESHOLD = 0.01
"""Chances under this are dropped from a published ladder policy (see the module)."""
ARRAYS = (
    "opener",
    "rung_offsets",
    "rungs",
    "mode_keys",
    "mode_offsets",
    "steps",
    "keys",
    "offsets",
    "moves",
    "chances",
)
"""The arrays a :class:`LadderRounds` is saved as (:meth:`LadderRounds.arrays`)."""
_ROUND, _DEPTH, _RANK = 46, 40, 8
"""A pair's key: ``round << 46 | depth << 40 | rank << 8 | hand``."""


@attrs.frozen(eq=False)
class LadderRounds:
    """Rounds solved on their ladders, small (see the module): per round ``r``, the seat that
    opens (``opener[r]``), its rungs' codes (``rungs[rung_offsets[r]:rung_offsets[r + 1]]``,
    ``quantity * FACE_CODES + face``), the hashes of its root's key with each of its modes'
    plugin states (``mode_keys[mode_offsets[r]:mode_offsets[r + 1]]``, the root's own first:
    :attr:`roots`) and its
    transitions (``steps``, each round's modes by rungs in turn: the mode after a bid on a
    rung, -1 where none is; :class:`~liarsdice.endgame.ladder.Ladder`); per
    (node, hand) pair kept, its key (``keys``, sorted, see :data:`_ROUND`) and its moves
    (``moves``: a rung number, or ``-1 - k`` for call ``calls[k]``) with their chances
    (``chances``, parts of ``QUANTUM``) at ``offsets[i]:offsets[i + 1]``."""

    opener: np.ndarray
    rung_offsets: np.ndarray
    rungs: np.ndarray
    mode_keys: np.ndarray
    mode_offsets: np.ndarray
    steps: np.ndarray
    keys: np.ndarray
    offsets: np.ndarray
    moves: np.ndarray
    chances: np.ndarray
    calls: tuple[str, ...]
    _found: dict[int, list[tuple[int, int]]] = attrs.field(init=False, factory=dict)
    """The (round, mode) pairs by the hash of a key with their plugin state."""
    _steps: list[np.ndarray] = attrs.field(init=False, factory=list)
    """Each round's transitions, modes by rungs."""

    def __attrs_post_init__(self) -> None:
        start = 0
        for r in range(len(self.opener)):
            low, high = int(self.mode_offsets[r]), int(self.mode_offsets[r + 1])
            for mode in range(high - low):
                self._found.setdefault(int(self.mode_keys[low + mode]), []).append((r, mode))
            rungs = int(self.rung_offsets[r + 1] - self.rung_offsets[r])
            size = (high - low) * rungs
            self._steps.append(self.steps[start : start + size].reshape(high - low, rungs))
            start += size

    @property
    def roots(self) -> np.ndarray:
        """Each round's root key hash (its first mode's)."""
        found: np.ndarray = self.mode_keys[self.mode_offsets[:-1]]
        return found

    def __len__(self) -> int:
        """The number of (node, hand) pairs kept."""
        return len(self.keys)

    def policy(self, rules: Ruleset, view: PlayerView) -> dict[Action, float] | None:
        """The published policy at ``view`` (the viewer on turn), in the viewer's name; ``None``
        where no round here has that node, the policy never leads there with the viewer's hand,
        or the legal moves are not the ladder's."""
        state = view_state(view)
        alive = state.alive
        if state.round is None or len(alive) != 2 or view.own_dice is None or not view.viewer:
            return None
        head, bids, plugins = heads_up_key(state)
        located = self._locate(key_hash((head, (), plugins)), bids)
        if located is None:
            return None
        found, codes, path = located
        seat = [player.name for player in alive].index(view.viewer)
        if view.turn != view.viewer or (int(self.opener[found]) + len(path)) % 2 != seat:
            return None
        top = path[-1] if path else -1
        legal = legal_moves(rules, state, view.viewer)
        raises = {a.bid for a in legal if isinstance(a, BidAction)}
        calls = {a.kind for a in legal if isinstance(a, CallAction)}
        above = {_bid(int(code)) for code in codes[top + 1 :]}
        if not (raises <= above if not path else raises == above and calls == set(self.calls)):
            return None
        row = hand_rows(alive[seat].dice).get(tuple(sorted(view.own_dice)))
        if row is None:
            return None
        rank = sum(math.comb(rung, index + 1) for index, rung in enumerate(path))
        key = (found << _ROUND) | (len(path) << _DEPTH) | (rank << _RANK) | row
        at = int(np.searchsorted(self.keys, np.uint64(key)))
        if at == len(self.keys) or int(self.keys[at]) != key:
            return None
        start, end = int(self.offsets[at]), int(self.offsets[at + 1])
        chances: dict[Action, float] = {}
        for move, part in zip(self.moves[start:end], self.chances[start:end], strict=True):
            if move >= 0:
                action: Action = BidAction(view.viewer, _bid(int(codes[move])))
            else:
                action = CallAction(view.viewer, self.calls[-1 - int(move)])
            if action not in legal:
                return None
            chances[action] = int(part) / QUANTUM
        return chances

    def _locate(
        self, mode_key: int, bids: tuple[tuple[str, int, int], ...]
    ) -> tuple[int, np.ndarray, list[int]] | None:
        """The round whose node after ``bids`` has the mode hashed as ``mode_key``, its rungs'
        codes and the bids' rungs; ``None`` where none has."""
        for found, mode in self._found.get(mode_key, []):
            low, high = int(self.rung_offsets[found]), int(self.rung_offsets[found + 1])
            codes = self.rungs[low:high]
            place = {int(code): rung for rung, code in enumerate(codes)}
            path = [place.get(quantity * FACE_CODES + face, -1) for _, quantity, face in bids]
            if any(rung < 0 for rung in path) or path != sorted(set(path)):
                continue
            if mode_after(self._steps[found], path) == mode:
                return found, codes, path
        return None

    def strategy(self, round_index: int, solver: Solver) -> Strategy:
        """Round ``round_index``'s policy as level arrays for ``solver`` (on that round's
        ladder: its best responses against what is kept; moves never kept get 0, and pairs not
        kept are spread evenly: their player never goes there)."""
        low = np.searchsorted(self.keys, np.uint64(round_index << _ROUND))
        high = np.searchsorted(self.keys, np.uint64((round_index + 1) << _ROUND))
        keys = self.keys[low:high]
        depths = (keys >> np.uint64(_DEPTH)) & np.uint64(63)
        levels: dict[int, Level] = {}

        def level(depth: int) -> Level:
            if depth not in levels:
                levels[depth] = self._level(solver, depth, int(low), keys, depths == depth)
            return levels[depth]

        return level

    def _level(
        self, solver: Solver, depth: int, low: int, keys: np.ndarray, here: np.ndarray
    ) -> Level:
        n, c = solver.rungs, solver.binomial
        raises, calls = solver.uniform_level(depth)
        pairs = np.flatnonzero(here)
        ranks = ((keys[pairs] >> np.uint64(_RANK)) & np.uint64(2**32 - 1)).astype(np.int64)
        hands = (keys[pairs] & np.uint64(255)).astype(np.int64)
        for j in range(depth, n):
            inside = ranks < c[j][depth]
            raises[c[j][depth + 1] + ranks[inside], hands[inside]] = 0.0
        calls[:, ranks, hands] = 0.0
        starts, ends = self.offsets[pairs + low], self.offsets[pairs + low + 1]
        counts = ends - starts
        owner = np.repeat(np.arange(len(pairs)), counts)
        before = np.cumsum(counts) - counts
        entries = starts[owner] + np.arange(len(owner)) - before[owner]
        moves = self.moves[entries].astype(np.int64)
        chances = self.chances[entries] / QUANTUM
        bids = moves >= 0
        column = np.array([c[j][depth + 1] for j in range(n)], dtype=np.int64)
        rows = column[moves[bids]] + ranks[owner[bids]]
        raises[rows, hands[owner[bids]]] = chances[bids]
        kinds = -1 - moves[~bids]
        calls[kinds, ranks[owner[~bids]], hands[owner[~bids]]] = chances[~bids]
        return raises, calls

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays to save (:data:`ARRAYS`); :attr:`calls` goes in the book's header."""
        return {name: getattr(self, name) for name in ARRAYS}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], calls: Iterable[str]) -> LadderRounds:
        """The rounds saved as :meth:`arrays` (and ``calls``); ``ValueError`` if their sizes
        do not fit together."""
        a = {name: np.asarray(arrays[name]) for name in ARRAYS}
        if not (
            len(a["opener"]) == len(a["rung_offsets"]) - 1 == len(a["mode_offsets"]) - 1
            and int(a["rung_offsets"][-1]) == len(a["rungs"])
            and int(a["mode_offsets"][-1]) == len(a["mode_keys"])
            and len(a["steps"]) == int(np.diff(a["mode_offsets"]) @ np.diff(a["rung_offsets"]))
            and len(a["offsets"]) == len(a["keys"]) + 1
            and int(a["offsets"][-1]) == len(a["moves"]) == len(a["chances"])
        ):
            raise ValueError("the ladder rounds' arrays do not fit together")
        return cls(**a, calls=tuple(calls))


def publish(solvers: Iterable[Solver], threshold: float = THRESHOLD) -> LadderRounds:
    """The rounds of ``solvers`` (each on a ladder of two seats ``P0`` and ``P1``), their
    average strategies published (see the module)."""
    return merged([_published(solver, threshold) for solver in solvers])


def build(
    rules: Ruleset,
    starts: Iterable[GameState],
    progress: Callable[[str], None] | None = None,
    threshold: float = THRESHOLD,
) -> LadderRounds | None:
    """The rounds ``starts`` (states between rounds, two seats ``P0`` and ``P1``) deal, solved
    on their ladders (:func:`~liarsdice.endgame.ladders.solve_round`, the positions after them
    as endgames of at most one die fewer in play) and published, one at a time; a round that is
    not a ladder, or leads to a position that cannot be solved, is left out (``progress`` is
    told why; it is told each round's steps as they end); ``None`` where none is left. Each
    round published is kept in ``ladders/`` of the endgame store's directory
    (:func:`~liarsdice.endgame.store.default_directory`, where there is one) and read from there
    by a later build: a build stopped part way goes on from the round it stopped in."""
    rounds: list[LadderRounds] = []
    cache = default_directory()
    for state in starts:
        dice = " v ".join(str(player.dice) for player in state.players)
        opens = f"{dice} dice, {state.next_opener} opens"
        limits = Limits(max_dice=state.dice_in_play - 1, beyond="dice-share")
        path = None if cache is None else _cache_path(cache, rules, state, limits, threshold)
        kept = None if path is None else _read_cached(path)
        if kept is not None:
            rounds.append(kept)
            if progress is not None:
                progress(f"{opens}: solved on its ladder before (read from {path})")
            continue
        try:
            solved = solve_round(
                rules,
                state,
                limits=limits,
                progress=None if progress is None else _prefixed(progress, opens),
            )
        except Unsolvable as error:
            if progress is not None:
                progress(
                    f"{opens}: not solved on its ladder ({error.reason}): the book keeps its "
                    "abstraction there"
                )
            continue
        rounds.append(_published(solved.solver, threshold))
        if path is not None:
            _write_cached(path, rounds[-1])
        if progress is not None:
            climb, after, solving = solved.seconds
            progress(
                f"{opens}: solved on its ladder, exploitability {solved.exploitability:.4f} "
                f"({solved.ladder.size:,} nodes, {solved.solver.iterations} iterations, "
                f"in {climb + after + solving:.1f} s)"
            )
        del solved  # its arrays go before the next round's are made
    return merged(rounds) if rounds else None


def _prefixed(progress: Callable[[str], None], prefix: str) -> Callable[[str], None]:
    return lambda line: progress(f"{prefix}: {line}")


def merged(rounds: Sequence[LadderRounds]) -> LadderRounds:
    """``rounds`` (each one round, as :func:`build` publishes them) as one
    :class:`LadderRounds`, in their order (the calls of all, in the order first met)."""
    calls: list[str] = []
    for part in rounds:
        calls += [kind for kind in part.calls if kind not in calls]
    keys, moves, offsets, rung_offsets = [], [], [np.zeros(1, dtype=np.int64)], [0]
    mode_offsets = [0]
    for index, part in enumerate(rounds):
        mode_offsets += [int(o) + mode_offsets[-1] for o in part.mode_offsets[1:]]
        keys.append(part.keys + (np.uint64(index) << np.uint64(_ROUND)))  # each part's round: 0
        own = part.moves.copy()
        for k, kind in enumerate(part.calls):
            own[part.moves == -1 - k] = -1 - calls.index(kind)
        moves.append(own)
        offsets.append(part.offsets[1:] + offsets[-1][-1])
        rung_offsets += [int(o) + rung_offsets[-1] for o in part.rung_offsets[1:]]
    return LadderRounds(
        opener=np.concatenate([part.opener for part in rounds]),
        rung_offsets=np.asarray(rung_offsets, dtype=np.int64),
        rungs=np.concatenate([part.rungs for part in rounds]),
        mode_keys=np.concatenate([part.mode_keys for part in rounds]),
        mode_offsets=np.asarray(mode_offsets, dtype=np.int64),
        steps=np.concatenate([part.steps for part in rounds]),
        keys=np.concatenate(keys),
        offsets=np.concatenate(offsets),
        moves=np.concatenate(moves),
        chances=np.concatenate([part.chances for part in rounds]),
        calls=tuple(calls),
    )


def _published(solver: Solver, threshold: float) -> LadderRounds:
    """The round of ``solver`` alone, its average strategy published (see the module)."""
    ladder = solver.ladder
    parts = []
    for player in (0, 1):
        kept = _thresholded(solver, solver.average(player), threshold)
        reach = solver.reach(player, kept)
        for depth in range(solver.rungs + 1):
            if ladder.actor(depth) == player:
                parts.append(_entries(solver, depth, kept(depth), reach[depth]))
    keys = np.concatenate([p[0] for p in parts])
    moves = np.concatenate([p[1] for p in parts])
    chances = np.concatenate([p[2] for p in parts])
    order = np.lexsort((-chances, keys))
    keys, moves, chances = keys[order], moves[order], chances[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    quantized = np.floor(chances * QUANTUM)
    quantized[first] += QUANTUM - np.add.reduceat(quantized, first)  # the largest: the rest
    rungs = [bid.quantity * FACE_CODES + bid.face for bid in ladder.rungs]
    seats, _, _ = node_key(ladder.root)
    return LadderRounds(
        opener=np.asarray([ladder.opener], dtype=np.int8),
        rung_offsets=np.asarray([0, len(rungs)], dtype=np.int64),
        rungs=np.asarray(rungs, dtype=np.int32),
        mode_keys=np.asarray([key_hash((seats, (), mode)) for mode in ladder.modes], np.uint64),
        mode_offsets=np.asarray([0, len(ladder.modes)], dtype=np.int64),
        steps=ladder.step.reshape(-1).astype(np.int8),
        keys=keys[first],
        offsets=np.r_[first, len(keys)].astype(np.int64),
        moves=moves,
        chances=quantized.astype(np.uint16),
        calls=ladder.calls,
    )


def _cache_path(
    directory: Path, rules: Ruleset, state: GameState, limits: Limits, threshold: float
) -> Path:
    """Where the round ``state`` deals, published with ``threshold``, is kept in the cache."""
    key = solution_key(
        rules, node_key(dealt_root(rules, state)), [limits.to_data(), "ladder", threshold]
    )
    return directory / "ladders" / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".npz")


def _read_cached(path: Path) -> LadderRounds | None:
    """The round kept at ``path``, or ``None`` where there is none or it cannot be read."""
    try:
        with np.load(path) as saved:
            calls = json.loads(saved["calls"].tobytes())
            return LadderRounds.from_arrays({name: saved[name] for name in ARRAYS}, calls)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None


def _write_cached(path: Path, rounds: LadderRounds) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    calls = np.frombuffer(json.dumps(list(rounds.calls)).encode(), dtype=np.uint8)
    partial = path.with_suffix(".partial.npz")
    np.savez_compressed(partial, calls=calls, **rounds.arrays())  # type: ignore[arg-type]
    partial.replace(path)


def _thresholded(solver: Solver, strategy: Strategy, threshold: float) -> Strategy:
    """``strategy`` with chances under ``threshold`` dropped and the rest scaled to sum to 1."""

    def level(depth: int) -> Level:
        raises, calls = strategy(depth)
        raises = np.where(raises >= threshold, raises, 0.0).astype(raises.dtype)
        calls = np.where(calls >= threshold, calls, 0.0).astype(calls.dtype)
        return solver.normalised(depth, (raises, calls))

    return level


def _entries(
    solver: Solver, depth: int, level: Level, reach: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The keys (of round 0), moves and chances of one level's kept entries: positive chances
    at the (node, hand) pairs the player's own policy reaches."""
    n, c = solver.rungs, solver.binomial
    raises, calls = level
    keys, moves, chances = [], [], []
    base = np.uint64(depth << _DEPTH)
    for j in range(depth, n):
        low, high, count = c[j][depth + 1], c[j + 1][depth + 1], c[j][depth]
        rank, hand = np.nonzero((raises[low:high] > 0) & (reach[:count] > 0))
        keys.append(base | (rank.astype(np.uint64) << np.uint64(_RANK)) | hand.astype(np.uint64))
        moves.append(np.full(len(rank), j, dtype=np.int8))
        chances.append(raises[low:high][rank, hand].astype(np.float64))
    for k in range(len(calls) if depth else 0):
        rank, hand = np.nonzero((calls[k] > 0) & (reach > 0))
        keys.append(base | (rank.astype(np.uint64) << np.uint64(_RANK)) | hand.astype(np.uint64))
        moves.append(np.full(len(rank), -1 - k, dtype=np.int8))
        chances.append(calls[k][rank, hand].astype(np.float64))
    return np.concatenate(keys), np.concatenate(moves), np.concatenate(chances)


def _bid(code: int) -> Bid:
    return Bid(code // FACE_CODES, code % FACE_CODES)
