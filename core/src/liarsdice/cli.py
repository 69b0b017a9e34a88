"""The ``liarsdice`` command: list variants, print rules, adjudicate scenarios, simulate games.

Bad input (an unreadable file, an unknown variant, a bad option) prints one line on stderr and
exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import attrs
import click

from liarsdice import scenario
from liarsdice.errors import PluginError, RulesetError
from liarsdice.ruleset import Ruleset, installed
from liarsdice.ruleset import presets as installed_presets
from liarsdice.simulate import simulate as run_simulation

EXIT_BAD_INPUT = 2


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        options[name.strip()] = value.strip()
    return options


def _ruleset(preset: str | None, variants: Sequence[str], options: Sequence[str]) -> Ruleset:
    return Ruleset.build(variants, _parse_options(options), preset)


preset_option = click.option(
    "--preset", "-p", metavar="NAME", help="Start from a preset (see `liarsdice presets`)."
)
variant_option = click.option(
    "--variant", "-v", "variants", multiple=True, metavar="NAME", help="Add a variant (repeatable)."
)
option_option = click.option(
    "--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
    help="Set an option, e.g. standard.wild_ones=false (repeatable).",
)


@click.group()
def cli() -> None:
    """Liar's Dice rules engine: variants, rules pages, scenario rulings and simulations."""


@cli.command()
def variants() -> None:
    """List the installed variants."""
    found = installed()
    width = max(len(name) for name in found)
    dist_width = max(len(v.distribution) for v in found.values())
    for name, variant in found.items():
        click.echo(f"{name:<{width}}  {variant.distribution:<{dist_width}}  {variant.info.summary}")


@cli.command()
def presets() -> None:
    """List the presets: named tables following the source rule sets."""
    found = installed_presets()
    width = max((len(name) for name in found), default=0)
    for name, preset in found.items():
        click.echo(f"{name:<{width}}  {preset.title} ({preset.source})")
        click.echo(f"{'':<{width}}  variants: {', '.join(preset.variants)}")
        if preset.options:
            shown = ", ".join(f"{k}={_show(v)}" for k, v in preset.options.items())
            click.echo(f"{'':<{width}}  options: {shown}")


@cli.command()
@preset_option
@variant_option
@option_option
def rules(preset: str | None, variants: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Print the rules page of a combination of variants and options."""
    click.echo(_ruleset(preset, variants, options).describe(), nl=False)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=False))
def adjudicate(file: str) -> None:
    """Play a scenario FILE and print the ruling of each round as JSON."""
    click.echo(json.dumps(scenario.run(scenario.load(file)), indent=2))


@cli.command()
@preset_option
@variant_option
@option_option
@click.option("--players", type=click.IntRange(min=2), default=6, show_default=True)
@click.option("--dice", type=click.IntRange(min=1), default=5, show_default=True, help="Dice per player.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def simulate(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    players: int,
    dice: int,
    games: int,
    seed: int,
    as_json: bool,
) -> None:
    """Play GAMES full games with the random policy and report throughput and wins by seat."""
    rules = _ruleset(preset, variants, options)
    show_bar = sys.stderr.isatty() and not as_json
    with click.progressbar(length=games, label="games", file=sys.stderr, hidden=not show_bar) as bar:
        report = run_simulation(rules, players, games, seed, dice_per_player=dice, progress=bar.update)
    if as_json:
        click.echo(json.dumps(attrs.asdict(report)))
        return
    click.echo(f"{rules!r}: {players} players x {dice} dice, seed {seed}")
    click.echo(f"games            {report.games} in {report.seconds:.2f} s ({report.games_per_second} games/s)")
    click.echo(f"rounds per game  {report.rounds_per_game}")
    click.echo(f"actions per game {report.actions_per_game}")
    click.echo("wins by seat     " + ", ".join(f"{s}: {n}" for s, n in report.wins_by_seat.items()))


def main(argv: Sequence[str] | None = None) -> Any:
    """Entry point: run the command, turning bad input into one line on stderr and exit status 2."""
    try:
        return cli.main(args=argv, prog_name="liarsdice", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.Abort:
        sys.exit(1)
    except click.ClickException as error:
        click.echo(f"liarsdice: {error.format_message()}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (RulesetError, PluginError, scenario.ScenarioError) as error:
        click.echo(f"liarsdice: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
