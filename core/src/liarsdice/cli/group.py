"""The ``liarsdice`` click group, and ``main``: the entry point that runs it and reports bad input.

The commands register on :data:`cli` from their own modules (the package imports them all).
:func:`main` turns bad input into one line on stderr and exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from liarsdice import scaffold, scenario
from liarsdice.errors import PluginError, RulesetError
from liarsdice.limits import StuckGame

EXIT_BAD_INPUT = 2
EXIT_STUCK = 2
"""A game passed the ruleset's move limit: the ruleset is bad input too, found by playing it."""


@click.group()
def cli() -> None:
    """Liar's Dice rules engine: variants, rules pages, scenario rulings and simulations."""


def main(argv: Sequence[str] | None = None) -> Any:
    """Entry point: run the command, turning bad input into one line on stderr and exit status 2."""
    try:
        return cli.main(args=argv, prog_name="liarsdice", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.Abort:
        sys.exit(1)
    except click.ClickException as error:
        _fail(error.format_message())
    except StuckGame as error:
        _fail(str(error), EXIT_STUCK)
    except (RulesetError, PluginError, scenario.ScenarioError, scaffold.ScaffoldError) as error:
        _fail(str(error))


def _fail(message: str, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``message`` as one line on stderr (pluggy's messages span several) and exit with
    ``status`` (2)."""
    click.echo(f"liarsdice: {' '.join(message.split())}", err=True)
    sys.exit(status)
