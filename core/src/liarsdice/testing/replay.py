"""One game of the rule laws replayed exactly, from the command a failure prints or as a scenario.

A game of the driver (:func:`~liarsdice.testing.driver.play_game`) is fixed by its ruleset, its
table, the engine's seed and every answer its chooser gave (:attr:`PlayedGame.choices`): a
:class:`GameSpec`. :func:`command` writes one as a shell command,
``python -m liarsdice.testing.replay --rules '{...}' --players p1,p2 --dice 2 --seed 7 --choices
0,3,1``, which plays that game again and checks every law on it (exit status 1 when one fails);
``--export FILE`` writes it as a scenario file for ``liarsdice adjudicate`` (:func:`scenario`).
Variants installed without an entry point (the marker's ``plugin=``) are named by import path
(``--plugin mine=my_tests.mine``), and laws of a test module's own likewise (``--law``).
"""

from __future__ import annotations

import json
import pkgutil
import re
import shlex
import sys
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import attrs
import click

from liarsdice.events import RoundStarted
from liarsdice.models import JSON, BidAction, CallAction, TimeoutAction
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import PlayedGame, StartRound, play_game
from liarsdice.testing.laws import GAME_LAWS, RULESET_LAWS, GameLaw, LawViolation, check_ruleset
from liarsdice.testing.plugins import extra_variants

MODULE = "liarsdice.testing.replay"


@attrs.frozen
class GameSpec:
    """What replays one game of the driver exactly."""

    rules: Mapping[str, Any]
    """:meth:`Ruleset.to_data`: the variants, the preset and the options."""
    players: tuple[str, ...]
    dice: int
    seed: int
    choices: tuple[int, ...]
    plugins: Mapping[str, str] = attrs.Factory(dict)
    """Variants installed without an entry point: name -> ``module`` or ``module:attribute``."""
    laws: tuple[str, ...] = ()
    """Laws checked beside the shipped ones, as ``module:function``."""
    exclude: tuple[str, ...] = ()
    """Shipped laws left out, by name (the marker's ``exclude=``)."""


def import_path(thing: Any) -> str | None:
    """``module`` for a module, ``module:name`` for a module-level object (found by identity),
    or ``None`` when ``thing`` cannot be imported by name."""
    if isinstance(thing, types.ModuleType):
        return thing.__name__
    module = getattr(thing, "__module__", None) or type(thing).__module__
    owner = sys.modules.get(module)
    if owner is None:
        return None
    for name, value in vars(owner).items():
        if value is thing:
            return f"{module}:{name}"
    return None


def spec_of(
    game: PlayedGame,
    plugins: Mapping[str, Any] | None = None,
    laws: Iterable[GameLaw] = (),
    exclude: Iterable[str] = (),
) -> GameSpec:
    """The spec of ``game``, played with the unpackaged ``plugins`` (name -> module or object)
    installed and checked with the extra ``laws``, without the shipped laws ``exclude`` names."""
    start = game.start
    return GameSpec(
        game.rules.to_data(),
        start.players,
        start.dice_per_player,
        start.seed,
        game.choices,
        {name: import_path(plugin) or f"<{plugin!r}>" for name, plugin in (plugins or {}).items()},
        tuple(import_path(law) or f"<{law!r}>" for law in laws),
        tuple(exclude),
    )


def command(spec: GameSpec) -> str:
    """The shell command that replays ``spec`` and checks every law on it (trailing 0 answers
    are left out: a replay answers 0 past the end of its list)."""
    choices = list(spec.choices)
    while choices and choices[-1] == 0:
        choices.pop()
    words = [
        sys.executable,
        "-m",
        MODULE,
        "--rules",
        json.dumps(spec.rules, sort_keys=True, separators=(",", ":")),
        "--players",
        ",".join(spec.players),
        "--dice",
        str(spec.dice),
        "--seed",
        str(spec.seed),
        "--choices",
        ",".join(map(str, choices)) or "-",
    ]
    for name, path in spec.plugins.items():
        words += ["--plugin", f"{name}={path}"]
    for law in spec.laws:
        words += ["--law", law]
    for name in spec.exclude:
        words += ["--exclude", name]
    return shlex.join(words)


def how_to_replay(
    game: PlayedGame,
    plugins: Mapping[str, Any] | None = None,
    laws: Iterable[GameLaw] = (),
    exclude: Iterable[str] = (),
) -> str:
    """The note a law failure carries: the command that replays its game."""
    spec = spec_of(game, plugins, laws, exclude)
    return f"replay this game and check every law on it:\n  {command(spec)}"


def _load(path: str) -> Any:
    """The object at import path ``module`` or ``module:attribute``."""
    if path.startswith("<"):
        raise click.BadParameter(f"{path} cannot be imported by name: give it a module of its own")
    return pkgutil.resolve_name(path)


def installed_for(spec: GameSpec) -> AbstractContextManager[None]:
    """A context in which the spec's unpackaged variants are installed."""
    if not spec.plugins:
        return nullcontext()
    return extra_variants({name: _load(path) for name, path in spec.plugins.items()})


class _Replayed:
    """A chooser giving back recorded answers; past their end, the simplest choice (0)."""

    def __init__(self, answers: Sequence[int]) -> None:
        self.answers = answers
        self.asked = 0

    def __call__(self, n: int) -> int:
        index = self.answers[self.asked] if self.asked < len(self.answers) else 0
        self.asked += 1
        if not 0 <= index < n:
            raise ValueError(
                f"the replay diverged at choice {self.asked}: {index} is not below {n} (a plugin "
                "that answers differently for the same game: global state, the clock)"
            )
        return index


def replay(spec: GameSpec) -> PlayedGame:
    """Play ``spec``'s game again (its unpackaged variants must be installed: :func:`installed_for`)."""
    rules = Ruleset.from_data(spec.rules)
    return play_game(rules, spec.players, spec.dice, spec.seed, _Replayed(spec.choices))


def verdicts(
    game: PlayedGame, extra: Sequence[GameLaw] = (), exclude: Iterable[str] = ()
) -> list[tuple[str, str | None]]:
    """Each law's verdict on ``game``: (law name, ``None`` when it holds, else the violation);
    the shipped laws ``exclude`` names are not checked."""
    left_out = set(exclude)
    found: list[tuple[str, str | None]] = []
    for ruleset_law in RULESET_LAWS:
        if ruleset_law.__name__ in left_out:
            continue
        try:
            check_ruleset(game.rules, (ruleset_law,))
            found.append((ruleset_law.__name__, None))
        except LawViolation as violation:
            found.append((ruleset_law.__name__, str(violation)))
    for law in (*(law for law in GAME_LAWS if law.__name__ not in left_out), *extra):
        try:
            law(game.rules, game.steps)
            found.append((law.__name__, None))
        except LawViolation as violation:
            found.append((law.__name__, str(violation)))
        except Exception as error:  # a law of one's own that crashed
            found.append((law.__name__, f"the law raised {type(error).__name__}: {error}"))
    return found


def scenario(game: PlayedGame) -> dict[str, JSON]:
    """``game`` as a scenario file (``liarsdice adjudicate`` plays it to the same rulings): the
    ruleset, the table, the seed, each round's dice as dealt and every action tried in it, the
    refused ones included. Attempts before the first round, or by a stranger to the table, have no
    place in a scenario and are left out."""
    start = game.start
    data = game.rules.to_data()
    found: dict[str, JSON] = {}
    if data.get("preset"):
        found["preset"] = data["preset"]
    if data.get("variants"):
        found["variants"] = list(data["variants"])
    if data.get("options"):
        found["options"] = dict(data["options"])
    found |= {"players": list(start.players), "dice_per_player": start.dice_per_player}
    found["seed"] = start.seed
    rounds: list[JSON] = []
    for step in game.steps[1:]:
        action = step.action
        if isinstance(action, StartRound) and step.accepted:
            dealt = next(event for event in step.events if isinstance(event, RoundStarted))
            rounds.append({"dice": {name: list(roll) for name, roll in dealt.rolls.items()}})
        elif (
            isinstance(action, BidAction | CallAction | TimeoutAction)
            and rounds
            and action.player in start.players
        ):
            current = rounds[-1]
            assert isinstance(current, dict)
            actions = current.setdefault("actions", [])
            assert isinstance(actions, list)
            actions.append(_written(action))
    found["rounds"] = rounds
    return found


def _written(action: BidAction | CallAction | TimeoutAction) -> dict[str, JSON]:
    """One action as a scenario file writes it."""
    written: dict[str, JSON] = {"player": action.player}
    if isinstance(action, BidAction):
        written["bid"] = [action.bid.quantity, action.bid.face]
    elif isinstance(action, CallAction):
        written["call"] = action.kind
    else:
        written["timeout"] = True
    payload = getattr(action, "payload", None)
    if payload:
        written["payload"] = json.loads(json.dumps(dict(payload)))
    return written


_FLAT_LIST = re.compile(r"\[\s*([^\[\]{}]*?)\s*\]", re.S)


def export(game: PlayedGame, path: Path) -> Path:
    """Write ``game`` as a scenario file at ``path`` (folders made as needed), a list of plain
    values (dice, a bid) on one line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(scenario(game), indent=2)
    text = _FLAT_LIST.sub(lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]", text)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _split(text: str, convert: Callable[[str], Any]) -> tuple[Any, ...]:
    return tuple(convert(part) for part in text.split(",") if part and part != "-")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rules", "rules", required=True, help="the ruleset as JSON (Ruleset.to_data)")
@click.option("--players", required=True, help="the players, clockwise, comma-separated")
@click.option("--dice", type=int, required=True, help="dice per player at the start")
@click.option("--seed", type=int, required=True, help="the engine's seed")
@click.option("--choices", default="-", help="the chooser's answers, comma-separated")
@click.option(
    "--plugin", "plugins", multiple=True, help="NAME=MODULE[:ATTR]: an unpackaged variant"
)
@click.option("--law", "laws", multiple=True, help="MODULE:FUNCTION: a law of one's own")
@click.option("--exclude", "exclude", multiple=True, help="a shipped law left out, by name")
@click.option("--export", "export_to", type=click.Path(path_type=Path), help="write a scenario")
def main(
    rules: str,
    players: str,
    dice: int,
    seed: int,
    choices: str,
    plugins: tuple[str, ...],
    laws: tuple[str, ...],
    exclude: tuple[str, ...],
    export_to: Path | None,
) -> None:
    """Replay one game of the rule laws and check every law on it (exit status 1 if one fails)."""
    spec = GameSpec(
        json.loads(rules),
        _split(players, str),
        dice,
        seed,
        _split(choices, int),
        dict(plugin.partition("=")[::2] for plugin in plugins),
        laws,
        exclude,
    )
    try:
        installing = installed_for(spec)
        extra = [_load(law) for law in spec.laws]
    except (ImportError, AttributeError, ValueError) as error:
        raise click.BadParameter(
            f"{error}: run the command from the folder the tests ran in, or put the module's "
            "folder on PYTHONPATH"
        ) from error
    with installing:
        game = replay(spec)
        click.echo("\n".join(game.transcript()))
        failed = False
        for law, verdict in verdicts(game, extra, spec.exclude):
            failed |= verdict is not None
            click.echo(f"{law}: {'holds' if verdict is None else 'FAILS'}")
            if verdict is not None:
                click.echo("  " + verdict.replace("\n", "\n  "))
        if export_to is not None:
            click.echo(f"scenario written to {export(game, export_to)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":  # pragma: no cover - run as a command
    main()
