"""The law that games are independent: a plugin keeps nothing from one game to the next.

State that outlives a game (a module global, a class attribute, a cache keyed on the wrong
thing) makes the same seeded game come out differently after other games. :func:`check` plays
seeded games of some rulesets, then the same games again in the reverse order, and, with
``fresh=True``, once more in a new Python process (``python -m liarsdice.testing.isolation``,
which reads the games as JSON on stdin and prints a digest of each); every game must give the
same events each time. Each game is the driver's (:func:`~liarsdice.testing.driver.play_game`,
with a :class:`~liarsdice.testing.driver.RandomChooser`), at 3 players with 2 dice or the nearest
table the ruleset takes.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

from liarsdice.ruleset import Ruleset
from liarsdice.serialization import dumps
from liarsdice.testing.driver import RandomChooser, play_game, seat_names, table_near
from liarsdice.testing.laws import INDEPENDENT, LawViolation
from liarsdice.testing.replay import GameSpec, import_path, installed_for
from liarsdice.testing.suite import law_cases, option_rows, playable_options, smallest_combination

GAMES = 5
"""Seeded games per ruleset."""
FRESH_TIMEOUT = 300
"""Seconds the fresh process may take."""


def rulesets_for(variant: str) -> list[Ruleset]:
    """The rulesets a variant's games are checked under: its smallest combination at options
    that build, then at each option row of it (every option value at least once)."""
    alone = law_cases(variant, combine=False)[0]
    names = smallest_combination(alone.candidates, alone.include)
    rows = [playable_options(names) or {}, *option_rows(names)[0]]
    unique = {tuple(sorted(row.items())): row for row in rows}
    return [Ruleset.build(names, row) for row in unique.values()]


def _games(rules: Sequence[Ruleset], games: int) -> list[tuple[Ruleset, int, int, int]]:
    """(ruleset, players, dice, seed) of each game checked, in playing order."""
    found = []
    for index, ruleset in enumerate(rules):
        players, dice = table_near(ruleset, 3, 2)
        found += [(ruleset, players, dice, 7_919 * index + game) for game in range(games)]
    return found


def digest(rules: Ruleset, players: int, dice: int, seed: int) -> str:
    """A digest of the events of one seeded game, and of where it stopped. The game is played
    under a ruleset built anew, so that nothing a ruleset remembers (its memos) carries over."""
    fresh = Ruleset.from_data(rules.to_data())
    game = play_game(fresh, seat_names(players), dice, seed, RandomChooser(seed))
    events = [event for step in game.steps if step.accepted for event in step.events]
    record = dumps(events) + "|" + "|".join(str(step.error) for step in game.steps if step.error)
    return hashlib.sha256(record.encode()).hexdigest()[:16]


def check(rules: Sequence[Ruleset], *, games: int = GAMES, fresh: bool = False) -> str:
    """Law: every seeded game of ``rules`` gives the same events played first to last, last to
    first and (with ``fresh``) in a new process, where every plugin of ``rules`` is installed by
    its import path (so unpackaged ones too). Returns what was compared, in words; raises
    :class:`~liarsdice.testing.laws.LawViolation` naming the ruleset and seed that changed."""
    played = _games(rules, games)
    forward = [digest(*game) for game in played]
    backward = [digest(*game) for game in reversed(played)][::-1]
    _compare(played, forward, backward, "played again after the games that follow it")
    if not fresh:
        return f"{len(played)} games gave the same events in both orders"
    plugins = {variant.name: variant.plugin for ruleset in rules for variant in ruleset.variants}
    paths = {name: import_path(plugin) for name, plugin in plugins.items()}
    fresh_digests = None if None in paths.values() else _in_new_process(played, paths)
    if fresh_digests is None:
        return (
            f"{len(played)} games gave the same events in both orders (not in a new process: a "
            "plugin is not importable by name there)"
        )
    _compare(played, forward, fresh_digests, "played in a new Python process")
    return f"{len(played)} games gave the same events in both orders and in a new process"


def _compare(
    played: Sequence[tuple[Ruleset, int, int, int]],
    first: Sequence[str],
    again: Sequence[str],
    how: str,
) -> None:
    for (rules, players, dice, seed), one, other in zip(played, first, again, strict=True):
        if one != other:
            raise LawViolation(
                INDEPENDENT,
                rules,
                f"the game of seed {seed} at {players} players x {dice} dice gives other events "
                f"when {how}: a plugin keeps state outside the game (a module global, a class "
                "attribute); keep it in the state (PluginStateSet, PrivateStateSet) instead",
                f"the driver's game (RandomChooser({seed})) at {players} players x {dice} dice, "
                f"seed {seed}",
            )


UNIMPORTABLE = 3
"""The new process's exit status when an unpackaged plugin cannot be imported there."""


def _in_new_process(
    played: Sequence[tuple[Ruleset, int, int, int]], plugins: Mapping[str, str | None]
) -> list[str] | None:
    """The digests of ``played`` computed by ``python -m liarsdice.testing.isolation`` (with this
    process's import path), or ``None`` when an unpackaged plugin cannot be imported there."""
    request = {
        "plugins": plugins,
        "games": [[rules.to_data(), players, dice, seed] for rules, players, dice, seed in played],
    }
    done = subprocess.run(
        [sys.executable, "-m", __name__],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=FRESH_TIMEOUT,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(path for path in sys.path if path)},
    )
    if done.returncode == UNIMPORTABLE:
        return None
    if done.returncode != 0:
        raise RuntimeError(f"the new process failed: {done.stderr.strip()[-2000:]}")
    found: list[str] = json.loads(done.stdout)
    return found


def _main() -> None:
    """Read games as JSON on stdin, print their digests as JSON."""
    request = json.loads(sys.stdin.read())
    spec = GameSpec({}, (), 0, 0, (), request["plugins"])
    try:
        installing = installed_for(spec)
    except (ImportError, AttributeError) as error:
        print(f"cannot import an unpackaged plugin: {error}", file=sys.stderr)
        sys.exit(UNIMPORTABLE)
    with installing:
        digests = [
            digest(Ruleset.from_data(data), players, dice, seed)
            for data, players, dice, seed in request["games"]
        ]
    print(json.dumps(digests))


if __name__ == "__main__":  # pragma: no cover - run in a new process by check()
    _main()
