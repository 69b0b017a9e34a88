"""The authoring commands: ``new-variant`` (a plugin package) and ``catalog update|check``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from liarsdice import catalogs, scaffold
from liarsdice.cli.group import cli
from liarsdice.ruleset import installed


@cli.group()
def catalog() -> None:
    """Keep a package's translations (its locale/<lang>/LC_MESSAGES/<domain>.po) up to date."""


def _package(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """The package folder named (resolved, so ``.`` works); a folder that is no package is bad
    input, as its name is the catalogs' domain."""
    folder = value.resolve()
    if not (folder / "__init__.py").is_file():
        raise click.BadParameter(
            f"{value} is not a package (it has no __init__.py): name the folder whose name is the "
            "import name, such as plugins/revolver/liarsdice_revolver",
            ctx,
            param,
        )
    return folder


package_argument = click.argument(
    "package",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    callback=_package,
)


@catalog.command("update")
@package_argument
def catalog_update(package: Path) -> None:
    """Add PACKAGE's newly marked messages to its catalogs (a folder such as
    plugins/heavy_loss/liarsdice_heavy_loss); create missing catalogs."""
    for path in catalogs.update(package, package.name):
        click.echo(f"updated {path}")


@catalog.command("check")
@package_argument
def catalog_check(package: Path) -> None:
    """List what PACKAGE's catalogs lack (exit status 1 if anything)."""
    found = catalogs.problems(package, package.name)
    for line in found:
        click.echo(line)
    if found:
        sys.exit(1)
    click.echo(f"{package.name}: every message is translated into {', '.join(catalogs.TRANSLATED)}")


@cli.command("new-variant")
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    default="plugins",
    show_default=True,
    metavar="PATH",
    help="Make the package folder in PATH.",
)
def new_variant(name: str, parent: str) -> None:
    """Scaffold a variant plugin package NAME (e.g. heavy-loss) in PATH/<name_with_underscores>/.

    It holds a pyproject.toml with the entry point, a module with a working rule (the loser gives
    up one die) and its rules text, a README, a golden scenario, unit tests and a laws test.
    """
    folder = scaffold.new_variant(name, parent)
    distribution = scaffold.placeholders(name)["distribution"]
    click.echo(f"created {folder}/ (distribution {distribution}, variant {name}):")
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        click.echo(f"  {path.relative_to(folder)}")
    if name in installed():
        click.echo(f"note: a variant named {name} is already installed here", err=True)
    root = scaffold.workspace_root(folder)
    if root is not None:
        click.echo(
            f"next: add {distribution} to the dependencies and [tool.uv.sources] of "
            f"{root / 'pyproject.toml'}, then run uv lock && uv sync"
        )
    else:
        here = folder if folder.is_absolute() or folder.parts[0] == ".." else f"./{folder}"
        click.echo(
            f"next: install it beside liarsdice-rules (pip install -e '{here}[test]'), "
            f"then run pytest in {folder}"
        )
