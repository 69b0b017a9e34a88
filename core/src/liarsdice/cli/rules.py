"""The rules commands: ``variants``, ``presets``, ``rules`` (the rules page) and ``adjudicate``."""

from __future__ import annotations

import json

import click

from liarsdice import scenario
from liarsdice.cli.group import cli
from liarsdice.cli.shared import build_ruleset, option_option, preset_option, variant_option
from liarsdice.i18n import LOCALES
from liarsdice.ruleset import broken, broken_presets, installed
from liarsdice.ruleset import presets as installed_presets


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@cli.command()
def variants() -> None:
    """List the installed variants."""
    found = installed()
    width = max(len(name) for name in found)
    dist_width = max(len(v.distribution) for v in found.values())
    for name, variant in found.items():
        click.echo(f"{name:<{width}}  {variant.distribution:<{dist_width}}  {variant.info.summary}")
    for name, error in broken().items():
        click.echo(f"{name:<{width}}  (broken: {' '.join(str(error).split())})", err=True)


@cli.command()
def presets() -> None:
    """List the presets: named tables following the source rule sets, and the table sizes they take."""
    found = installed_presets()
    width = max((len(name) for name in found), default=0)
    for name, preset in found.items():
        click.echo(f"{name:<{width}}  {preset.title} ({preset.origin})")
        click.echo(f"{'':<{width}}  variants: {', '.join(preset.variants)}")
        if preset.options:
            shown = ", ".join(f"{k}={_show(v)}" for k, v in preset.options.items())
            click.echo(f"{'':<{width}}  options: {shown}")
        size = preset.size.describe()
        if size is not None:
            click.echo(f"{'':<{width}}  table: {size}")
    for name, error in broken_presets().items():
        click.echo(f"{name:<{width}}  (broken: {' '.join(str(error).split())})", err=True)


@cli.command()
@preset_option
@variant_option
@option_option
@click.option(
    "--lang",
    type=click.Choice(LOCALES),
    default="en",
    show_default=True,
    help="The language of the page.",
)
def rules(
    preset: str | None, variants: tuple[str, ...], options: tuple[str, ...], lang: str
) -> None:
    """Print the rules page of a combination of variants and options."""
    click.echo(build_ruleset(preset, variants, options).describe(lang), nl=False)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=False))
def adjudicate(file: str) -> None:
    """Play a scenario FILE and print the ruling of each round as JSON."""
    click.echo(json.dumps(scenario.run(scenario.load(file)), indent=2))
