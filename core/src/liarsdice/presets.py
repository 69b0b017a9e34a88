"""Presets: named combinations of variants and options, such as the rule sets the seeds describe.

Any plugin may add presets through ``liarsdice_register_presets``; the baseline registers the five
built-in ones below. A preset only names variants, so building one fails with a clear error when a
variant it needs is not installed.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from liarsdice.i18n import Text, _
from liarsdice.models import JSON


@attrs.frozen
class Preset:
    """A named table: ``variants`` and ``options`` on top of the baseline, following ``source``."""

    name: str
    title: str | Text
    source: str
    summary: str | Text
    variants: tuple[str, ...]
    options: Mapping[str, JSON] = attrs.field(factory=dict)


class PresetRegistry:
    """Passed to ``liarsdice_register_presets``; collects presets from every installed plugin."""

    def __init__(self) -> None:
        self.presets: dict[str, Preset] = {}

    def add(
        self,
        name: str,
        *,
        title: str | Text,
        source: str,
        summary: str | Text,
        variants: tuple[str, ...],
        options: Mapping[str, JSON] | None = None,
    ) -> None:
        """Register preset ``name``; a second preset of the same name is an error."""
        if name in self.presets:
            raise ValueError(f"preset {name!r} is registered twice")
        self.presets[name] = Preset(
            name, title, source, summary, tuple(variants), dict(options or {})
        )


BUILT_IN = (
    Preset(
        "casino",
        _("Casino revolver"),
        "seed 000, with seed 003's house rule",
        _(
            "Wild ones, no bids on ones, the revolver instead of losing dice, an exact call that makes "
            "the table pay, the winner of the call opens; a timeout is fatal."
        ),
        ("revolver", "calza", "winner-opens"),
        {"calza.reward": "table-pays", "calza.window": "always"},
    ),
    Preset(
        "online",
        _("Online room (Big Talk)"),
        "seed 001",
        _(
            "Ones wild until someone bids ones, then locked for the round; the loser loses a die and "
            "opens."
        ),
        ("ones-locking", "dice-loss"),
    ),
    Preset(
        "cheko",
        _("Cheko (three ones)"),
        "seed 002",
        _(
            "Aces count double (ceil(q/2) in, 2q+1 out), dice loss, an exact call that regains a die "
            "while more than half the dice are in play, whoever's dice changed last opens, a roll-off "
            'for the first round, no "one one" against a one-die player.'
        ),
        ("aces-switch", "dice-loss", "calza", "last-change-opens", "roll-off", "cheko"),
        {
            "aces-switch.back": "double-plus-one",
            "aces-switch.open_on_ones": True,
            "calza.reward": "regain-die",
            "calza.window": "half",
        },
    ),
    Preset(
        "dudo",
        _("Dudo"),
        "seed 003",
        _(
            "Traditional dudo: wild ones, no bids on ones, the loser loses a die and opens, calza "
            "regains a die."
        ),
        ("dice-loss", "calza"),
        {"calza.reward": "regain-die", "calza.window": "always"},
    ),
    Preset(
        "perudo",
        _("Perudo"),
        "seed 004, with palifico from seed 003",
        _(
            "Aces switch (ceil(q/2) in, 2q+1 out, no opening on aces), dice loss, the loser opens, "
            "palifico when a player drops to one die."
        ),
        ("aces-switch", "dice-loss", "palifico"),
        {"aces-switch.back": "double-plus-one", "aces-switch.open_on_ones": False},
    ),
)
