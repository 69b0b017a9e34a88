"""``liarsdice evaluate``: bots measured: a rating ladder from heads-up matches, and exact figures.

The ladder and the matches are :func:`liarsdice.evaluation.ladder`'s (``random`` is always in,
as the anchor); with ``--exact-dice N`` also :func:`liarsdice.evaluation.exact` at 2 x N. Bots
are kinds (``--bots odds,bayes``) and outside policies (``--onnx NAME=PATH.onnx``).
"""

from __future__ import annotations

import json

import attrs
import click

from liarsdice import evaluation
from liarsdice import tournament as tournament_module
from liarsdice.cli.group import cli
from liarsdice.cli.shared import (
    build_ruleset,
    heading,
    option_option,
    preset_option,
    variant_option,
)


@cli.command("evaluate")
@preset_option
@variant_option
@option_option
@click.option(
    "--bots",
    default="odds,bayes,mixed",
    show_default=True,
    metavar="KINDS",
    help="Bot kinds, comma-separated (random is always in).",
)
@click.option(
    "--onnx",
    "outside",
    multiple=True,
    metavar="NAME=PATH.onnx",
    help="An outside policy (repeatable).",
)
@click.option(
    "--games", type=click.IntRange(min=2), default=100, show_default=True, help="Games per pair."
)
@click.option("--dice", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--exact-dice",
    type=click.IntRange(min=1),
    help="Also exact figures at 2 players x this many dice.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def evaluate_command(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    bots: str,
    outside: tuple[str, ...],
    games: int,
    dice: int,
    seed: int,
    workers: int,
    exact_dice: int | None,
    as_json: bool,
) -> None:
    """Rate bots against each other: heads-up matches with 95% intervals, an openskill ladder
    anchored at random, and (--exact-dice) exact exploitability and values on a small table."""
    rules = build_ruleset(preset, variants, options)
    try:
        kinds = list(dict.fromkeys(tournament_module.parse_kinds(bots)))
        for spec in outside:
            evaluation.parse_bot(spec)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    specs = [*kinds, *outside]
    result = evaluation.ladder(rules, specs, games, seed, dice=dice, workers=workers)
    exact = evaluation.exact(rules, ["random", *specs], exact_dice) if exact_dice else None
    if as_json:
        data = {"ladder": attrs.asdict(result), "exact": attrs.asdict(exact) if exact else None}
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{heading(rules)}: 2 x {dice}, {games} games a pair, seed {seed}")
    click.echo("\nLadder (openskill, anchored at random = 0; ordinal = mu - 3 sigma):")
    for rank, rating in enumerate(result.ratings, 1):
        click.echo(
            f"  {rank}. {rating.bot:20} mu {rating.mu:+7.2f}  sigma {rating.sigma:5.2f}  "
            f"ordinal {rating.ordinal:+7.2f}"
        )
    click.echo("\nMatches (first bot's share of the games, 95% Wilson interval):")
    for match in result.matches:
        low, high = match.ci95
        click.echo(
            f"  {match.first} vs {match.second}: {match.share:6.1%} ({low:.1%} - {high:.1%})"
        )
    if exact is not None:
        click.echo(
            f"\nExact at {exact.table} (exploitability; value of the row against the column):"
        )
        for spec, value in exact.exploitability.items():
            row = "  ".join(f"{other}: {v:+.4f}" for other, v in exact.value[spec].items())
            click.echo(f"  {spec:20} exploitability {value:.4f}   {row}")
