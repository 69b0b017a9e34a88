"""The commands that play or price games: ``simulate``, ``odds`` and ``tournament``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from random import Random
from typing import TypeVar

import attrs
import click

from liarsdice import kindodds, oddspage, parallel
from liarsdice import tournament as tournament_module
from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.bots import make_bot
from liarsdice.cli.group import cli
from liarsdice.cli.shared import (
    build_ruleset,
    heading,
    option_option,
    preset_option,
    variant_option,
)
from liarsdice.errors import BadTableSize
from liarsdice.models import FACE_NAMES, Bid
from liarsdice.odds import SAMPLES
from liarsdice.ruleset import Ruleset
from liarsdice.simulate import simulate as run_simulation

_RUN_OPTIONS = (
    click.option(
        "--dice", type=click.IntRange(min=1), default=5, show_default=True, help="Dice per player."
    ),
    click.option("--seed", type=int, default=0, show_default=True),
    click.option("--json", "as_json", is_flag=True, help="Print the report as JSON."),
    click.option(
        "--workers",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="Play the games on N local processes (the result does not depend on N).",
    ),
    click.option(
        "--dask",
        metavar="ADDRESS",
        help="Play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(needs liarsdice-rules[dask]).",
    ),
)

Command = TypeVar("Command", bound=Callable[..., None])
Report = TypeVar("Report")


def run_options(games: int) -> Callable[[Command], Command]:
    """The options of a command that plays a batch of games: ``--dice``, ``--games`` (default
    ``games``), ``--seed``, ``--json``, ``--workers`` and ``--dask``, in that order."""
    dice, seed, as_json, workers, dask = _RUN_OPTIONS
    count = click.option("--games", type=click.IntRange(min=1), default=games, show_default=True)

    def decorate(command: Command) -> Command:
        for option in (dask, workers, as_json, seed, count, dice):
            command = option(command)
        return command

    return decorate


def _backend(workers: int, dask: str | None) -> None:
    """Refuse --dask together with --workers > 1."""
    if dask is not None and workers > 1:
        raise click.UsageError(
            "--dask and --workers exclude each other: the cluster's workers play the games"
        )


def _played(
    run: Callable[..., Report],
    rules: Ruleset,
    seats: object,
    *,
    games: int,
    seed: int,
    dice: int,
    as_json: bool,
    workers: int,
    dask: str | None,
) -> Report:
    """``run(rules, seats, games, seed, ...)`` (a batch of games: the simulation's or the
    tournament's), with a progress bar on a terminal (none for ``--json``); a backend's failure
    is the command's error."""
    hidden = not sys.stderr.isatty() or as_json
    with click.progressbar(length=games, label="games", file=sys.stderr, hidden=hidden) as bar:
        try:
            return run(
                rules,
                seats,
                games,
                seed,
                dice_per_player=dice,
                progress=bar.update,
                workers=workers,
                dask=dask,
            )
        except parallel.BackendError as error:
            raise click.ClickException(str(error)) from None


@cli.command()
@preset_option
@variant_option
@option_option
@click.option("--players", type=click.IntRange(min=2), default=6, show_default=True)
@run_options(games=1000)
def simulate(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    players: int,
    dice: int,
    games: int,
    seed: int,
    as_json: bool,
    workers: int,
    dask: str | None,
) -> None:
    """Play GAMES full games with the random policy and report throughput and wins by seat.

    Each game has its own seed, derived from --seed and the game's number, so the report (timings
    aside) is the same whatever --workers or --dask.
    """
    _backend(workers, dask)
    rules = build_ruleset(preset, variants, options)
    rules.check_table(players, dice)  # before the progress bar shows
    report = _played(
        run_simulation,
        rules,
        players,
        games=games,
        seed=seed,
        dice=dice,
        as_json=as_json,
        workers=workers,
        dask=dask,
    )
    if as_json:
        click.echo(json.dumps(attrs.asdict(report)))
        return
    click.echo(f"{heading(rules)} — {players} players, {dice} dice each, seed {seed}")
    click.echo(
        f"games            {report.games} in {report.seconds:.2f} s ({report.games_per_second} games/s)"
    )
    click.echo(f"rounds per game  {report.rounds_per_game}")
    click.echo(f"actions per game {report.actions_per_game}")
    click.echo("wins by seat     " + ", ".join(f"{s}: {n}" for s, n in report.wins_by_seat.items()))


def _parse_hand(text: str | None) -> tuple[int, ...]:
    if text is None or not text.strip():
        return ()
    try:
        hand = tuple(int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        message = f"{text!r} is not dice such as 5,5,1,2,3"
        raise click.BadParameter(message, param_hint="--hand") from None
    if any(not 1 <= die <= 6 for die in hand):
        raise click.BadParameter(f"{text!r}: dice show 1 to 6", param_hint="--hand")
    return hand


def _table_fits(rules: Ruleset, hint: str, **size: int) -> None:
    """Refuse a table size the preset does not take as a bad value of option ``hint``."""
    try:
        rules.check_table(**size)
    except BadTableSize as error:
        raise click.BadParameter(str(error), param_hint=hint) from None


MAX_DICE_IN_PLAY = 10_000
"""The most dice ``odds`` prices: past it the page (a row per likely quantity) takes seconds and
runs to thousands of lines; up to it the arithmetic never overflows (:func:`liarsdice.odds.binomial_pmf`)."""


def _percent(chance: float) -> str:
    if chance >= 0.9995 and chance < 1:
        return ">99.9%"
    if 0 < chance < 0.0005:
        return "<0.1%"
    return f"{chance * 100:.1f}%"


def _kind_odds(rules: Ruleset, dice_in_play: int, hand: tuple[int, ...], as_json: bool) -> None:
    """``liarsdice odds`` for bids that are not counts of a face: every bid and its chances."""
    table = kindodds.kind_odds(rules, dice_in_play, hand)
    if as_json:
        click.echo(json.dumps(table.as_dict()))
        return
    shown = " ".join(map(str, hand)) if hand else "none"
    click.echo(heading(rules))
    click.echo(f"{dice_in_play} dice in play; your hand: {shown}; {table.unknown} unseen")
    how = (
        "computed exactly from the bid kind's distribution"
        if table.method == "exact"
        else f"estimated from {SAMPLES:,} seeded deals of the unseen dice"
    )
    click.echo(f"Bids of kind {table.kind!r}; the chances are {how}.")
    for row in table.rows:
        click.echo(
            f"  {row.words.render('en')}: {_percent(row.at_least)} true, "
            f"{_percent(row.exactly)} exactly"
        )


@cli.command()
@preset_option
@variant_option
@option_option
@click.option(
    "--dice-in-play",
    "-n",
    type=click.IntRange(min=1, max=MAX_DICE_IN_PLAY),
    required=True,
    help=f"Dice on the table (at most {MAX_DICE_IN_PLAY:,}).",
)
@click.option("--hand", metavar="DICE", help="Your own dice, e.g. 5,5,1,2,3 (known, not random).")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def odds(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    dice_in_play: int,
    hand: str | None,
    as_json: bool,
) -> None:
    """Print the odds of every bid, with the wild faces and with the face alone side by side.

    For each face and quantity: the chance that at least that many dice count (the bid is true)
    and that exactly that many do (an exact call succeeds), with the table's wild faces (ones if
    it has none) and with the face counted alone; the column marked * is how these rules count at
    the start of a round. Per
    face: the expected count and the best exact call, with its success chance and the fair odds
    it would pay.
    """
    rules = build_ruleset(preset, variants, options)
    dice = _parse_hand(hand)
    _table_fits(rules, "--dice-in-play", dice_in_play=dice_in_play)
    _table_fits(rules, "--hand", hand=len(dice))
    if len(dice) > dice_in_play:
        message = f"a hand of {len(dice)} dice is more than the {dice_in_play} in play"
        raise click.BadParameter(message, param_hint="--hand")
    if rules.bid_kind is not COUNT_OF_FACE:
        _kind_odds(rules, dice_in_play, dice, as_json)
        return
    table = oddspage.odds_table(rules, dice_in_play, dice)
    if as_json:
        click.echo(json.dumps(table.as_dict()))
        return
    shown = " ".join(map(str, dice)) if dice else "none"
    click.echo(heading(rules))
    click.echo(f"{dice_in_play} dice in play; your hand: {shown}; {table.unknown} unseen")
    wild_names = " and ".join(FACE_NAMES[face] for face in table.wild_faces)
    click.echo(
        f"These rules count {wild_names} as wild at the start of a round."
        if table.wild_faces
        else "These rules count each face alone at the start of a round."
    )
    compared = " and ".join(FACE_NAMES[face] for face in table.compared_wild)
    for summary in table.faces:
        face = summary.face
        rows = table.rows_of(face)
        in_force = "rules"
        if summary.counted == (face,):
            in_force = "alone"
        elif summary.counted == tuple(sorted({face, *table.compared_wild})):
            in_force = "wild"
        name = FACE_NAMES[face]
        exact = summary.exact
        click.echo("")
        note = f" ({summary.note})" if summary.note else ""
        click.echo(f"{name}: counted {', '.join(map(str, summary.counted))}{note}")
        click.echo(
            f"  expected {summary.expected.wild:.2f} wild, {summary.expected.plain:.2f} alone; "
            f"best exact call {Bid(exact.quantity, face)}: {_percent(exact.chance)} "
            + (f"(fair odds {exact.fair_odds:.1f} to 1)" if exact.fair_odds is not None else "")
        )
        columns = ["wild", "alone"] + (["rules"] if in_force == "rules" else [])
        titles = {"wild": f"{compared} wild", "alone": "face alone", "rules": "these rules"}
        titled = "".join(f"  {titles[c] + ('*' if c == in_force else ''):^18}" for c in columns)
        click.echo(f"     {titled}".rstrip())
        click.echo("  qty" + f"  {'at least':>10}  {'exactly':>6}" * len(columns))
        for row in rows:
            chances = {"wild": row.wild, "alone": row.plain, "rules": row.rules}
            if all(chances[c].at_least < 0.0005 for c in columns):
                break
            cells = "".join(
                f"  {_percent(chances[c].at_least):>10}  {_percent(chances[c].exactly):>6}"
                for c in columns
            )
            click.echo(f"  {row.quantity:>3}{cells}")


@cli.command()
@preset_option
@variant_option
@option_option
@click.option(
    "--bots",
    "bots",
    default="mixed,odds,random",
    show_default=True,
    metavar="KINDS",
    help="Bot kinds, one per seat, comma-separated; KIND*N seats a kind N times (mixed,odds*5).",
)
@run_options(games=200)
def tournament(
    preset: str | None,
    variants: tuple[str, ...],
    options: tuple[str, ...],
    bots: str,
    dice: int,
    games: int,
    seed: int,
    as_json: bool,
    workers: int,
    dask: str | None,
) -> None:
    """Play GAMES games between bots, seats rotating; print win rates and decision times.

    The win rate is per seat, with a 95% Wilson interval; "share" is what a seat wins by chance.
    Decision times are of one bot's `decide` call, from its view: mean and median over the
    tournament, and the median at the full table (every die in play). Each game has its own
    seed, derived from --seed and the game's number, so the results (times aside) are the same
    whatever --workers or --dask.
    """
    _backend(workers, dask)
    try:
        kinds = tournament_module.parse_kinds(bots)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--bots") from None
    if len(kinds) < 2:
        raise click.BadParameter("a tournament needs at least 2 seats", param_hint="--bots")
    rules = build_ruleset(preset, variants, options)
    rules.check_table(len(kinds), dice)  # before the progress bar shows
    for kind in dict.fromkeys(kinds):
        make_bot(kind, rules, Random(0))  # an unknown kind fails here, before any game
    report = _played(
        tournament_module.run,
        rules,
        kinds,
        games=games,
        seed=seed,
        dice=dice,
        as_json=as_json,
        workers=workers,
        dask=dask,
    )
    if as_json:
        click.echo(json.dumps(attrs.asdict(report)))
        return
    click.echo(f"{heading(rules)} — {len(kinds)} seats ({', '.join(kinds)}), {dice} dice each")
    click.echo(
        f"{games} games, seed {seed}, seats rotating; "
        f"{report.rounds_per_game:.1f} rounds per game; {report.seconds:.1f} s"
    )
    click.echo("")
    click.echo(
        f"{'bot':<10} {'seats':>5} {'wins':>6} {'win rate':>9}  {'95% CI':<13} {'share':>6} "
        f"{'decisions':>10} {'mean ms':>8} {'median ms':>9} {'at full table':>13}"
    )
    for result in report.results:
        low, high = result.ci95
        interval = f"{low * 100:.1f}-{high * 100:.1f}%"
        click.echo(
            f"{result.kind:<10} {result.seats:>5} {result.wins:>6} {result.win_rate * 100:>8.1f}%  "
            f"{interval:<13} {result.share * 100:>5.1f}% {result.decisions:>10} "
            f"{result.mean_ms:>8.3f} {result.median_ms:>9.3f} {result.full_table_median_ms:>13.3f}"
        )
    click.echo("")
    click.echo(
        "win rate: per seat; share: a seat's chance share; times: one decide call, in ms "
        f"(median at the full table: all {len(kinds) * dice} dice in play)"
    )
