"""What the commands share: the ruleset options, the ruleset built from them, and its heading."""

from __future__ import annotations

from collections.abc import Sequence

import click

from liarsdice import tournament as tournament_module
from liarsdice.ruleset import Ruleset


def heading(rules: Ruleset) -> str:
    """A ruleset as a reader names it: the preset (or the standard rules) and the variants'
    titles, then the options set away from their defaults (and the preset's values) by name, e.g.
    "casino (Casino revolver): Calza (exact call), Revolver, Winner opens" or "Standard rules:
    Dice loss; wild ones: no" (not its ``repr``)."""
    variants = rules.variants[1:]
    preset_options = rules.preset.options if rules.preset is not None else {}
    changed = [
        f"{rules.option(key).name.replace('_', ' ')}: {_value(value)}"
        for key, value in rules.options.items()
        if value != preset_options.get(key, rules.defaults[key])
    ]
    tail = "; " + ", ".join(changed) if changed else ""
    if rules.preset is None:
        titles = ": " + ", ".join(str(v.info.title) for v in variants) if variants else ""
        return "Standard rules" + titles + tail
    named = set(rules.preset.variants)
    head = f"{rules.preset.name} ({rules.preset.title}): "
    head += ", ".join(str(v.info.title) for v in variants if v.name in named)
    added = [str(v.info.title) for v in variants if v.name not in named]
    return head + (" + " + ", ".join(added) if added else "") + tail


def _value(value: object) -> str:
    """An option's value as a reader reads it: yes/no for a flag."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option NAME=VALUE`` pairs as a mapping (the values still text, parsed by the ruleset)."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        options[name.strip()] = value.strip()
    return options


#: The bots when ``--bots`` is not given: the medium level at every seat.
DEFAULT_BOT = "odds"


def bot_kinds(bots: str | None, players: int | None) -> list[str]:
    """The kind of each bot seat: ``--bots`` (one kind fills every seat), else the default kind
    for ``--players`` (4 if not given) less the player. Refuses a count that disagrees."""
    if bots is None:
        return [DEFAULT_BOT] * ((players or 4) - 1)
    try:
        kinds = tournament_module.parse_kinds(bots)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--bots") from None
    if len(kinds) == 1 and players is not None:
        return kinds * (players - 1)
    if players is not None and len(kinds) != players - 1:
        message = f"{len(kinds)} bots do not fill a table of {players} with you"
        raise click.BadParameter(message, param_hint="--bots")
    return kinds


def build_ruleset(preset: str | None, variants: Sequence[str], options: Sequence[str]) -> Ruleset:
    """The ruleset of ``--preset``, ``--variant`` and ``--option``."""
    return Ruleset.build(variants, parse_options(options), preset)


preset_option = click.option(
    "--preset", "-p", metavar="NAME", help="Start from a preset (see `liarsdice presets`)."
)
variant_option = click.option(
    "--variant", "-v", "variants", multiple=True, metavar="NAME", help="Add a variant (repeatable)."
)
option_option = click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set an option, e.g. standard.wild_ones=false (repeatable).",
)
