"""The ``endgames`` commands: build the book of heads-up positions the hard bot plays, and show it."""

from __future__ import annotations

import time
from pathlib import Path

import click

from liarsdice.cli.group import cli
from liarsdice.cli.shared import build_ruleset, option_option, preset_option, variant_option
from liarsdice.endgame import Unsolvable, book


@cli.group()
def endgames() -> None:
    """Books of solved heads-up positions, which the hard bot plays."""


def _where(directory: str | None) -> Path:
    found = Path(directory) if directory else book.directory()
    if found is None:
        raise click.ClickException("no directory for books: LIARSDICE_ENDGAME_CACHE is set empty")
    return found


directory_option = click.option(
    "--dir",
    "directory",
    metavar="DIR",
    help="Where books are kept (default: the endgame cache's 'books' directory).",
)


@endgames.command("build")
@preset_option
@variant_option
@option_option
@click.option(
    "--max-dice", default=5, show_default=True, type=click.IntRange(1, 5), help="Dice each."
)
@click.option(
    "--iterations",
    default=book.ITERATIONS,
    show_default=True,
    type=click.IntRange(1),
    help="CFR+ iterations per position.",
)
@click.option(
    "--depth",
    default=1,
    show_default=True,
    type=click.IntRange(1),
    help="Bids a player counts (1: the last bid alone; more: how many were made, up to this).",
)
@click.option(
    "--memory",
    default=1,
    show_default=True,
    type=click.IntRange(1, 2),
    help="Bids a player remembers (1: the last; 2: the last two, a graph 15 to 25 times larger).",
)
@click.option(
    "--exact-dice",
    default="3",
    show_default=True,
    type=click.Choice(["0", "3", "4"]),
    help="Solve the rounds with 3 dice in play exactly, on their whole trees (0: none; 4: the "
    "rounds with 4 dice too, on their bid ladders: minutes and gigabytes of memory each); "
    "--iterations does not apply to them.",
)
@directory_option
def build(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    max_dice: int,
    iterations: int,
    depth: int,
    memory: int,
    exact_dice: str,
    directory: str | None,
) -> None:
    """Solve every heads-up position of a ruleset up to MAX_DICE each and save the book."""
    rules = build_ruleset(preset, variants, options)
    where = _where(directory)
    existing = where / book.file_name(rules)
    if existing.exists():
        click.echo(
            f"{existing} holds a book of these rules ({existing.stat().st_size / 1e6:.1f} MB): "
            "this build replaces it when it ends"
        )
    started = time.perf_counter()
    try:
        built = book.build(
            rules,
            max_dice,
            iterations,
            depth,
            progress=click.echo,
            memory=memory,
            exact_dice=int(exact_dice),
        )
    except Unsolvable as error:
        raise click.ClickException(f"the book cannot be built: {error.reason}") from None
    path = book.save(built, rules, where)
    click.echo(
        f"{len(built.positions)} positions in {time.perf_counter() - started:.0f} s; "
        f"saved {path} ({path.stat().st_size / 1e6:.1f} MB, its SHA-256 in "
        f"{path.with_suffix('.sha256').name})"
    )


@endgames.command("show")
@preset_option
@variant_option
@option_option
@directory_option
def show(
    preset: str | None, variants: tuple[str, ...], options: tuple[str, ...], directory: str | None
) -> None:
    """Say whether a ruleset's book is built, and what it holds."""
    rules = build_ruleset(preset, variants, options)
    where = _where(directory)
    try:
        found = book.load(rules, where)
    except book.BookError as error:
        raise click.ClickException(str(error)) from None
    if found is None:
        click.echo(f"no book for {rules!r} in {where}: `liarsdice endgames build` makes one")
        return
    path = where / book.file_name(rules)
    click.echo(
        f"{path}: {len(found.positions)} positions up to {found.max_dice} "
        f"{'die' if found.max_dice == 1 else 'dice'} each, "
        f"{found.iterations} CFR+ iterations each, "
        f"{'the last bid' if found.memory == 1 else 'the last two bids'} remembered, "
        f"{'a blind opening' if found.blind_opening else 'the opening by the hand'}, "
        f"{_exact(found)}, checksum matches"
    )


def _exact(found: book.Book) -> str:
    parts = []
    if found.exact is not None:
        parts.append(f"the rounds with 3 dice in play solved exactly ({len(found.exact):,} nodes)")
    if found.ladders is not None:
        parts.append(
            f"the rounds with 4 dice in play solved on their bid ladders "
            f"({len(found.ladders.roots)} rounds, {len(found.ladders):,} (node, hand) pairs kept)"
        )
    return ", ".join(parts) or "no round solved exactly"
