"""Solved endgames kept, in this process and on disk as JSON, so that no game waits twice.

A solution is found by a key: the ruleset (:meth:`~liarsdice.Ruleset.to_data`), the version of
every distribution whose rules it plays, the solver's limits and the public state at the start
of the round it starts with (seats, dice, opener, public plugin state), with the players renamed
by seat (:func:`~liarsdice.endgame.names.renaming`): an endgame is identified up to the players'
names, so one solution serves every table that reaches the same start under other names. The
refusals are kept in those names too, and given back in the caller's. In this process a
dict holds every solution met (and every refusal, so that an endgame the solver cannot take is
refused at once the next time). On disk, each solution is one JSON file, written to a temporary
file and renamed into place (a reader never sees half a file), under
``$LIARSDICE_ENDGAME_CACHE`` if set (empty: no disk), else ``$XDG_CACHE_HOME/liarsdice/endgames``,
else ``~/.cache/liarsdice/endgames``. The file holds each round's root state and published
policy; loading rebuilds the rounds' trees with the engine (the tree's digest must match) and
takes the policy as stored.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import weakref
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from liarsdice import serialization
from liarsdice.endgame.rounds import NodeKey, RoundTree
from liarsdice.endgame.solution import QUANTUM, Endgame, Policy, SolvedRound, quantized
from liarsdice.models import JSON, GameState
from liarsdice.ruleset import Ruleset

ENV = "LIARSDICE_ENDGAME_CACHE"
FORMAT = 2
"""The version of the file format; files of another are ignored. 2: keys, roots and policies in
the players' canonical names (1 kept the real names)."""

Key = str
Builder = Callable[[GameState], RoundTree]


def default_directory() -> Path | None:
    """Where solutions are kept on disk (see the module), or ``None`` for nowhere."""
    configured = os.environ.get(ENV)
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "liarsdice" / "endgames"


def solution_key(rules: Ruleset, start: NodeKey, limits: JSON) -> Key:
    """The key of the endgame of ``rules`` from the round at ``start`` under ``limits``."""
    return json.dumps([rules_key(rules), limits, list(start)], separators=(",", ":"))


_RULES_KEYS: weakref.WeakKeyDictionary[Ruleset, str] = weakref.WeakKeyDictionary()


def rules_key(rules: Ruleset) -> str:
    """``rules`` and the versions of the distributions that make them, as JSON (asked once per
    ruleset: reading versions is slow)."""
    found = _RULES_KEYS.get(rules)
    if found is None:
        versions = {v.distribution: _version(v.distribution) for v in rules.variants}
        found = json.dumps([rules.to_data(), versions], sort_keys=True, separators=(",", ":"))
        _RULES_KEYS[rules] = found
    return found


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "unknown"


class Store:
    """Solutions by key (:func:`solution_key`), in memory and in ``directory`` (``None``: in
    memory only)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.memory: dict[Key, Endgame] = {}
        self.refused: dict[Key, str] = {}

    def path(self, key: Key) -> Path | None:
        """The file of ``key``'s solution, or ``None`` without a directory."""
        if self.directory is None:
            return None
        return self.directory / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".json")

    def get(self, key: Key, target: float, rebuild: Builder) -> Endgame | None:
        """The solution of ``key`` solved for ``target`` or better, from memory or disk (its
        trees rebuilt with ``rebuild``), or ``None``."""
        found = self.memory.get(key)
        if found is not None and found.target <= target:
            return found
        path = self.path(key)
        if path is None or not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            loaded = _from_data(data, key, rebuild) if data.get("format") == FORMAT else None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if loaded is None or loaded.target > target:
            return None
        self.memory[key] = loaded
        return loaded

    def put(self, key: Key, endgame: Endgame, *, disk: bool = True) -> None:
        """Keep ``endgame`` under ``key`` in memory and (with ``disk``) on disk."""
        self.memory[key] = endgame
        path = self.path(key)
        if path is None or not disk:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(_to_data(endgame, key), separators=(",", ":"))
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(name, path)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise


def encode_policy(policy: Policy) -> JSON:
    """``policy`` as JSON: per node, per hand, ``null`` (never reached), the index of an action
    played for sure, or every action's chance in parts of :data:`QUANTUM`."""
    found: list[JSON] = []
    for node in policy:
        hands: list[JSON] = []
        for dist in node:
            if dist is None:
                hands.append(None)
                continue
            parts = quantized(dist)
            hands.append(parts.index(QUANTUM) if QUANTUM in parts else list(parts))
        found.append(hands)
    return found


def decode_policy(data: JSON, tree: RoundTree) -> Policy:
    """The policy :func:`encode_policy` wrote, for ``tree``."""
    nodes: list[tuple[tuple[float, ...] | None, ...]] = []
    for hands, kids in zip(data, tree.kids, strict=True):
        found: list[tuple[float, ...] | None] = []
        for item in hands:
            if item is None:
                found.append(None)
            elif isinstance(item, int):
                found.append(tuple(float(a == item) for a in range(len(kids))))
            else:
                if len(item) != len(kids):
                    raise ValueError("a stored distribution does not fit its node")
                found.append(tuple(part / QUANTUM for part in item))
        nodes.append(tuple(found))
    return tuple(nodes)


def _to_data(endgame: Endgame, key: Key) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "key": key,
        "start": list(endgame.start),
        "target": endgame.target,
        "estimated": list(endgame.estimated),
        "rounds": [
            {
                "root": serialization.to_data(solved.tree.root, GameState),
                "digest": solved.tree.digest,
                "value": solved.value,
                "exploitability": solved.exploitability,
                "iterations": solved.iterations,
                "policy": encode_policy(solved.policy),
            }
            for solved in endgame.rounds.values()
        ],
    }


def _from_data(data: dict[str, Any], key: Key, rebuild: Builder) -> Endgame | None:
    if data["key"] != key:
        return None
    rounds: dict[NodeKey, SolvedRound] = {}
    for stored in data["rounds"]:
        tree = rebuild(serialization.from_data(stored["root"], GameState))
        if tree.digest != stored["digest"]:
            return None
        solved = SolvedRound(
            tree=tree,
            policy=decode_policy(stored["policy"], tree),
            value=float(stored["value"]),
            exploitability=float(stored["exploitability"]),
            iterations=int(stored["iterations"]),
        )
        rounds[tree.key] = solved
    head, bids, plugins = data["start"]
    start = (str(head), tuple((str(p), int(q), int(f)) for p, q, f in bids), str(plugins))
    estimated = [str(position) for position in data["estimated"]]
    return Endgame(start, rounds, estimated=estimated, target=float(data["target"]))
