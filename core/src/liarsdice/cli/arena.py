"""``liarsdice arena``: a text agent (a person at the keyboard, or a program) against bots.

The agent reads the arena's prompt (:class:`~liarsdice.arena.ArenaTable`: the rules, its view,
its legal moves) and types a move such as ``[Bid: 3, 5]``. A program given with ``--program``
is started once and talks one line at a time: it reads a JSON line per decision,
``{"player": ..., "seat": ..., "prompt": ..., "moves": [...]}``, and writes one line back, the
move as text (or ``{"move": "[Challenge]"}``). The other seats are bots (``--bots``).
"""

from __future__ import annotations

import json
import secrets
import shlex
import subprocess
from random import Random

import click

from liarsdice.arena import ArenaTable, format_move
from liarsdice.bots import make_bot
from liarsdice.cli.group import cli
from liarsdice.cli.shared import (
    bot_kinds,
    option_option,
    parse_options,
    preset_option,
    variant_option,
)
from liarsdice.i18n import LOCALES


class Program:
    """An agent program, started once, that answers one JSON line with one line."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, question: dict[str, object]) -> str:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(question, ensure_ascii=False) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise click.ClickException("the agent program closed its output")
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            return line.strip()
        return str(answer.get("move", "")) if isinstance(answer, dict) else str(answer)

    def close(self) -> None:
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.process.wait(timeout=5)


def _keyboard(question: dict[str, object]) -> str:
    """The prompt printed, and the line the person types."""
    click.echo(str(question["prompt"]))
    return str(click.prompt(">", prompt_suffix=" "))


@cli.command("arena")
@preset_option
@variant_option
@option_option
@click.option("--players", type=click.IntRange(min=2), default=2, show_default=True)
@click.option("--dice", type=click.IntRange(min=1), default=5, show_default=True)
@click.option(
    "--seat", type=click.IntRange(min=0), default=0, show_default=True, help="The agent's seat."
)
@click.option(
    "--bots",
    default="odds",
    show_default=True,
    metavar="KINDS",
    help="The other seats' bots (one kind fills them).",
)
@click.option(
    "--program",
    metavar="COMMAND",
    help="An agent program (stdin/stdout, a line a move); else the keyboard.",
)
@click.option("--retries", type=click.IntRange(min=0), default=1, show_default=True)
@click.option(
    "--forfeit", type=click.Choice(["random", "first"]), default="random", show_default=True
)
@click.option("--seed", type=int, help="Replay a game exactly (dice and bots).")
@click.option("--lang", type=click.Choice(LOCALES), default="en", show_default=True)
def arena_command(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    players: int,
    dice: int,
    seat: int,
    bots: str,
    program: str | None,
    retries: int,
    forfeit: str,
    seed: int | None,
    lang: str,
) -> None:
    """Play a text agent (the keyboard or --program) against bots; print the result as JSON."""
    if seat >= players:
        raise click.BadParameter(f"seat {seat} is not at a table of {players}", param_hint="--seat")
    table = ArenaTable(preset, variants, parse_options(options), dice, lang, retries, forfeit)
    kinds = bot_kinds(bots, players)
    seed = secrets.randbits(32) if seed is None else seed
    names = [f"Player {i}" for i in range(players)]
    others = [name for i, name in enumerate(names) if i != seat]
    seated = {
        name: make_bot(kind, table.rules, Random(seed + n))
        for n, (name, kind) in enumerate(zip(others, kinds, strict=True), 1)
    }
    agent = Program(program) if program else None
    table.reset(players, seed, names)
    try:
        while not table.done:
            player_id, prompt = table.get_observation()
            player = names[player_id]
            if player in seated:
                table.play(table.bot_move(seated[player]))
                continue
            question = {
                "player": player,
                "seat": player_id,
                "prompt": prompt,
                "moves": [format_move(m) for m in table.legal()],
            }
            text = agent.ask(question) if agent else _keyboard(question)
            _, info = table.step(text)
            if "refused" in info and agent is None:
                click.echo(f"! {info['refused']}")
    finally:
        if agent:
            agent.close()
    rewards, info = table.close()
    click.echo(
        json.dumps(
            {"seed": seed, "rewards": {names[i]: r for i, r in rewards.items()}, **info},
            ensure_ascii=False,
        )
    )
