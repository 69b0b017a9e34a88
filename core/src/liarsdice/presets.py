"""Presets: named combinations of variants and options, such as the rule sets the seeds describe.

Any plugin may add presets through ``liarsdice_register_presets``; the baseline registers the
built-in ones below. A preset only names variants, so building one fails with a clear error when a
variant it needs is not installed. A preset may also say which tables its document allows
(:class:`TableSize`): how many players, and how many dice each; a ruleset built from it refuses
any other table (:meth:`liarsdice.Ruleset.check_table`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from liarsdice.i18n import Text, _, _n
from liarsdice.models import JSON

Span = tuple[int, int | None]
"""Inclusive bounds ``(low, high)``; ``high`` is ``None`` for no upper bound."""

ANY_PLAYERS: Span = (2, None)
"""The players any game takes: two or more (``engine.new_game`` refuses fewer)."""
ANY_DICE: Span = (1, None)
"""The dice each player may start with in any game: one or more (``engine.new_game`` refuses
fewer)."""


def _as_span(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def _span(floor: int) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Span], value: object) -> None:
        low, high = value if isinstance(value, tuple) and len(value) == 2 else (None, None)
        if (
            type(low) is not int
            or low < floor
            or not (high is None or (type(high) is int and high >= low))
        ):
            raise ValueError(
                f"{attribute.name}={value!r} is not (low, high) with {floor} <= low <= high "
                "(high None for no upper bound)"
            )

    return check


@attrs.frozen
class TableSize:
    """The tables a preset's document allows: ``players`` at the table and ``dice`` each player
    starts with, each as inclusive bounds ``(low, high)`` (``high`` ``None``: no upper bound).
    The defaults are what any game takes."""

    players: Span = attrs.field(
        default=ANY_PLAYERS, converter=_as_span, validator=_span(ANY_PLAYERS[0])
    )
    dice: Span = attrs.field(default=ANY_DICE, converter=_as_span, validator=_span(ANY_DICE[0]))

    def fit(self, players: int, dice: int) -> tuple[int, int]:
        """The table nearest to ``players`` x ``dice`` each that this size allows: each number
        moved into its bounds."""
        return _clamp(players, self.players), _clamp(dice, self.dice)

    def players_text(self) -> Text:
        """The players allowed, as players read it: "2 to 6 players", "at least 2 players"."""
        low, high = self.players
        if high is None:
            return _n("at least {n} player", "at least {n} players", n=low)
        if low == high:
            return _n("{n} player", "{n} players", n=low)
        return _n("{low} to {n} player", "{low} to {n} players", low=low, n=high)

    def dice_text(self) -> Text:
        """The dice allowed, as players read it: "5 dice each", "1 to 5 dice each"."""
        low, high = self.dice
        if high is None:
            return _n("at least {n} die each", "at least {n} dice each", n=low)
        if low == high:
            return _n("{n} die each", "{n} dice each", n=low)
        return _n("{low} to {n} die each", "{low} to {n} dice each", low=low, n=high)

    def describe(self) -> Text | None:
        """The table this size allows, in a few words ("2 to 6 players, 5 dice each"), or
        ``None`` when it allows every table."""
        parts = [
            text()
            for text, span, default in (
                (self.players_text, self.players, ANY_PLAYERS),
                (self.dice_text, self.dice, ANY_DICE),
            )
            if span != default
        ]
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]
        return _("{players}, {dice}", players=parts[0], dice=parts[1])

    def line(self) -> Text | None:
        """The sentence that says the table on a preset's page and in the lobby ("Table: 2 to 6
        players, 5 dice each."), or ``None`` when it allows every table."""
        size = self.describe()
        return None if size is None else _("Table: {size}.", size=size)

    def refusal(
        self,
        preset: str,
        *,
        players: int | None = None,
        dice: int | None = None,
        in_play: int | None = None,
        hand: int | None = None,
    ) -> Text | None:
        """Why preset ``preset`` does not take a table of ``players`` x ``dice`` each at the
        start, with ``in_play`` dice on it, or a player with a ``hand`` of that many dice ("the
        perudo preset is for 2 to 6 players, not 7"); ``None`` when it does (a ``None`` value is
        not checked)."""
        most_players, most_each = self.players[1], self.dice[1]
        if players is not None and not _within(players, self.players):
            allowed, asked = self.players_text(), players
        elif dice is not None and not _within(dice, self.dice):
            allowed, asked = self.dice_text(), dice
        elif hand is not None and most_each is not None and hand > most_each:
            return _(
                "the {preset} preset is for {allowed}, not a hand of {asked}",
                preset=preset,
                allowed=self.dice_text(),
                asked=hand,
            )
        elif (
            in_play is not None
            and most_players is not None
            and most_each is not None
            and in_play > most_players * most_each
        ):
            allowed = _n(
                "at most {n} die in play ({players} x {dice})",
                "at most {n} dice in play ({players} x {dice})",
                n=most_players * most_each,
                players=most_players,
                dice=most_each,
            )
            asked = in_play
        else:
            return None
        return _(
            "the {preset} preset is for {allowed}, not {asked}",
            preset=preset,
            allowed=allowed,
            asked=asked,
        )


def _clamp(value: int, span: Span) -> int:
    low, high = span
    return max(low, value) if high is None else min(max(low, value), high)


def _within(value: int, span: Span) -> bool:
    low, high = span
    return value >= low and (high is None or value <= high)


@attrs.frozen
class Preset:
    """A named table: ``variants`` and ``options`` on top of the baseline, following ``source``,
    for the tables ``size`` allows."""

    name: str
    title: str | Text
    source: str
    summary: str | Text
    variants: tuple[str, ...]
    options: Mapping[str, JSON] = attrs.field(factory=dict)
    size: TableSize = TableSize()

    @property
    def origin(self) -> str | Text:
        """Where the rules come from, in a player's words: the tradition or the document's title
        for the built-in presets' sources (``source`` cites the seed), else ``source`` itself."""
        return ORIGINS.get(self.source, self.source)


class PresetRegistry:
    """Passed to ``liarsdice_register_presets``; collects presets from every installed plugin.
    ``refused`` holds, by name, why a preset was left out."""

    def __init__(self) -> None:
        self.presets: dict[str, Preset] = {}
        self.refused: dict[str, str] = {}

    def add(
        self,
        name: str,
        *,
        title: str | Text,
        source: str,
        summary: str | Text,
        variants: tuple[str, ...],
        options: Mapping[str, JSON] | None = None,
        players: Span = ANY_PLAYERS,
        dice: Span = ANY_DICE,
    ) -> None:
        """Register preset ``name`` for tables of ``players`` and ``dice`` each (inclusive
        ``(low, high)`` bounds, ``high`` ``None`` for none; by default any table). A second
        preset of the same name, or bounds that are not bounds, is left out, with why in
        ``refused``: the other presets stay."""
        if name in self.presets:
            self.refused[name] = f"preset {name!r} is registered twice"
            return
        try:
            size = TableSize(players, dice)
        except ValueError as error:
            self.refused[name] = f"preset {name!r}: {error}"
            return
        self.presets[name] = Preset(
            name, title, source, summary, tuple(variants), dict(options or {}), size
        )


SEED_TABLE = TableSize(players=(2, 6), dice=(5, 5))
"""The table of seeds 000, 001, 003 and 004: two to six players, five dice each (000: "a full
table of six", 30 dice; 001: "from two to six players, five dice each"; 003: "two to six
players... five dice each"; 004: "2-6 players", "5 dice each"). Seed 002 (cheko) says five
players are usual and other numbers of players and dice may be tried: it has no bounds."""

ORIGINS: Mapping[str, Text] = {
    "seed 000, with seed 003's house rule": _("the casino revolver game, with a dudo house rule"),
    "seed 001": _("the Big Talk online room"),
    "seed 002": _('cheko, or "three ones", as taught at an office table'),
    "seed 003": _("traditional South American dudo"),
    "seed 004": _("the classic Perudo, aces wild"),
    "not a seed; seed 003 mentions them": _("the rules printed in the Perudo box"),
}
"""Players' words for the sources the built-in presets cite (:attr:`Preset.origin`)."""

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
        size=SEED_TABLE,
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
        size=SEED_TABLE,
    ),
    Preset(
        "cheko",
        _("Cheko (three ones)"),
        "seed 002",
        _(
            "Aces count double: a bid on aces needs half the quantity, rounded up, and a bid back from "
            "aces more than twice as many; a round may open on aces. Dice loss, an exact call that "
            "regains a die while more than half the dice are in play, whoever's dice changed last "
            'opens, a roll-off for the first round, no "one one" against a one-die player.'
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
            "Traditional dudo: wild ones, no bids on ones, the loser loses a die, calza regains a "
            "die. The loser opens the next round: the source does not say who opens, so this is "
            "our choice."
        ),
        ("dice-loss", "calza"),
        {"calza.reward": "regain-die", "calza.window": "always"},
        size=SEED_TABLE,
    ),
    Preset(
        "perudo",
        _("Perudo"),
        "seed 004",
        _(
            "Aces switch: a bid on aces needs half the quantity, rounded up, and a bid back from "
            "aces more than twice as many; a round may open on aces. Ones wild all game, dice "
            "loss, the loser opens."
        ),
        ("aces-switch", "dice-loss"),
        {"aces-switch.back": "double-plus-one", "aces-switch.open_on_ones": True},
        size=SEED_TABLE,
    ),
    Preset(
        "perudo-box",
        _("Perudo (boxed rules)"),
        "not a seed; seed 003 mentions them",
        _(
            "The boxed game's rules: aces switch (a bid on aces needs half the quantity, rounded "
            "up, and a bid back from aces more than twice as many; no opening on aces outside "
            "palifico), dice loss, the loser opens, palifico when a player drops to one die."
        ),
        ("aces-switch", "dice-loss", "palifico"),
        {"aces-switch.back": "double-plus-one", "aces-switch.open_on_ones": False},
        size=SEED_TABLE,
    ),
)
