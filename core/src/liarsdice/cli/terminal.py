"""``liarsdice play``: a whole game in the terminal against bots, under any preset or variants.

The options are those of the other commands (``--preset``, ``--variant``, ``--option``), of
the table (``--players``, ``--dice``, ``--bots``, ``--seed``, ``--name``, ``--lang``) and of the
screen (``--color``, ``--bot-delay``). The loop is :mod:`~liarsdice.cli.terminal_game`, the
grammar of what one types :mod:`~liarsdice.cli.terminal_input`, the colours
:mod:`~liarsdice.cli.terminal_style`, the words :mod:`~liarsdice.narration`.
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from collections.abc import Sequence
from random import Random

import click

from liarsdice import phrases
from liarsdice.bots import bot_label, make_bot
from liarsdice.cli.group import cli
from liarsdice.cli.shared import (
    DEFAULT_BOT,
    bot_kinds,
    build_ruleset,
    option_option,
    preset_option,
    variant_option,
)
from liarsdice.cli.terminal_game import Quit, Table, play
from liarsdice.cli.terminal_input import help_text
from liarsdice.cli.terminal_style import WINNER, colour_wanted
from liarsdice.game import Game
from liarsdice.i18n import LOCALES, Param, _
from liarsdice.ruleset import Ruleset

#: The bots' names, seat by seat after the player's; a larger table numbers the rest.
BOT_NAMES = ("Iris", "Knox", "Lena", "Milo", "Nadia", "Oleh", "Petra", "Rosa", "Sasha", "Taras")
#: The preset of a bare ``liarsdice play`` (no preset, variant or option): the standard rules
#: alone cost a lost round nothing, so they cannot be played.
DEFAULT_PRESET = "dudo"
#: Seconds before each bot's move when stdout is a terminal and ``--bot-delay`` is not given.
TTY_BOT_DELAY = 0.6


def _read(prompt: str) -> str:
    """A line from the keyboard (``EOFError`` when the input is closed)."""
    return input(prompt)


def _pause(seconds: float) -> None:
    """Wait before a bot's move (a test replaces this, and never sleeps)."""
    time.sleep(seconds)


def _stdout_tty() -> bool:
    """Whether what the game prints goes to a terminal."""
    return sys.stdout.isatty()


def _commas(items: Sequence[Param]) -> Param:
    """Titles one after another: "Calza (exact call), Dice loss"."""
    joined = items[0]
    for item in items[1:]:
        joined = _("{first}, {second}", first=joined, second=item)
    return joined


def rules_title(rules: Ruleset) -> Param:
    """The rules as the player reads them at the top of the game, in their language: the
    preset's title (or the standard rules') and its variants, the variants added to it, and the
    options set away from the preset's values, by their labels ("Dudo: Calza (exact call), Dice
    loss + Palifico; Ones are wild: no")."""
    variants = rules.variants[1:]
    named = set(rules.preset.variants) if rules.preset is not None else set()
    own = [v.info.title for v in variants if v.name in named]
    added = [v.info.title for v in variants if v.name not in named]
    title: Param = rules.preset.title if rules.preset is not None else rules.variants[0].info.title
    if own:
        title = _("{rules}: {variants}", rules=title, variants=_commas(own))
    if added:
        title = _("{rules} + {variants}", rules=title, variants=_commas(added))
    preset_options = rules.preset.options if rules.preset is not None else {}
    changed: list[Param] = []
    for key, value in rules.options.items():
        if value != preset_options.get(key, rules.defaults[key]):
            option = rules.option(key)
            shown = phrases.yes_no(value) if isinstance(value, bool) else option.value_label(value)
            changed.append(_("{option}: {value}", option=option.help, value=shown))
    if changed:
        title = _("{rules}; {options}", rules=title, options=phrases.clauses(changed))
    return title


def environment_lang() -> str:
    """The player's language from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (English if none fits)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = os.environ.get(name, "")[:2].lower()
        if code in LOCALES:
            return code
    return "en"


@cli.command("play")
@preset_option
@variant_option
@option_option
@click.option("--players", type=click.IntRange(min=2), help="Players, you included [default: 4].")
@click.option(
    "--dice", type=click.IntRange(min=1), default=5, show_default=True, help="Dice per player."
)
@click.option(
    "--bots",
    metavar="KINDS",
    help=f"Bot kinds, one per bot seat (KIND*N seats N); one kind fills every seat "
    f"[default: {DEFAULT_BOT}, the medium level].",
)
@click.option("--seed", type=int, help="Replay a game exactly (dice and bots).")
@click.option("--name", help='Your name at the table [default: "Player" in your language].')
@click.option("--lang", type=click.Choice(LOCALES), help="Language [default: from LANG, else en].")
@click.option(
    "--color/--no-color",
    "colour",
    default=None,
    help="Colour the dice, bids and rulings [default: on a terminal, unless NO_COLOR is set "
    "or TERM=dumb].",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help=f"Pause before each bot's move [default: {TTY_BOT_DELAY} on a terminal, else 0].",
)
def play_command(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    players: int | None,
    dice: int,
    bots: str | None,
    seed: int | None,
    name: str | None,
    lang: str | None,
    colour: bool | None,
    bot_delay: float | None,
) -> None:
    """Play a whole game against bots: type bids ("3 5" or "3x5") and calls, "help" or "quit".

    With no --preset, --variant or --option the game is the dudo preset."""
    lang = lang or environment_lang()
    name = _("Player").render(lang) if name is None else name
    if preset is None and not variants and not options:
        preset = DEFAULT_PRESET
    rules = build_ruleset(preset, variants, options)
    kinds = bot_kinds(bots, players)
    names = [f"Bot {n}" for n in range(1, len(kinds) + 1)]
    names = [*BOT_NAMES[: len(kinds)], *names[len(BOT_NAMES) :]]
    if not name.strip() or name in names:
        raise click.BadParameter(f"{name!r} is taken or empty", param_hint="--name")
    rules.check_table(len(kinds) + 1, dice)
    seed = secrets.randbits(32) if seed is None else seed
    seated = {
        bot: make_bot(kind, rules, Random(seed + n))
        for n, (bot, kind) in enumerate(zip(names, kinds, strict=True), 1)
    }
    game = Game(rules, [name, *names], Random(seed), dice_per_player=dice)
    tty = _stdout_tty()
    colour = colour_wanted(colour, tty, os.environ)

    def write(line: str) -> None:
        click.echo(line, color=colour)

    if bot_delay is None:
        bot_delay = TTY_BOT_DELAY if tty else 0.0
    table = Table(
        rules, game, name, seated, lang, _read, write, colour=colour, delay=bot_delay, pause=_pause
    )
    listed = [
        _("{player}: {kind}", player=bot, kind=bot_label(kind))
        for bot, kind in zip(names, kinds, strict=True)
    ]
    table.say(
        _(
            "{rules}. Game number {seed} (--seed {seed} replays it). Bots: {bots}.",
            rules=rules_title(rules),
            seed=seed,
            bots=phrases.listing(listed),
        )
    )
    table.say(help_text(table.call_names(list(rules.calls)), table.one_number))
    try:
        winners = play(table, dice)
    except Quit:
        table.say(_("You left the game."))
        return
    if name in winners:
        table.say(table.palette.whole(_("You win!"), WINNER))
