"""Table settings: parse what the lobby sends into a validated :class:`TableConfig`.

Contract: :func:`parse_config` takes a JSON-like mapping (from the JSON API or the lobby form) and
returns a config whose ruleset has been built by :meth:`liarsdice.Ruleset.build`, or raises
:class:`ConfigError` whose message is fit to show a player (a ruleset error's text is passed on
unchanged, so it names the variants or option at fault). ``options`` holds only the options the
table sets; every other option takes its effective default, which :func:`combination_defaults`
computes (a variant may change another plugin's default: beside ``wild-sixes``,
``standard.wild_ones`` defaults to false). :func:`catalog` describes the installed variants, their
options and the presets for the lobby page; it is read at run time, so third-party variants appear
without any change here. Players read an option by its ``label`` (its help, as the rules page
shows it: :func:`liarsdice.rulespage.option_label`), a bot kind by its level (``bots``: "Hard
(mixed)", :func:`liarsdice.bots.bot_label`); the keys and kind names stay what the API takes.

Language: what players read here comes in the language given as ``locale`` (the page's, see
:mod:`liarsdice_demo.text.i18n`): titles, summaries and help from core and the plugins (``str`` or
:class:`liarsdice.i18n.Text`) through :func:`liarsdice.i18n.render`, the demo's own words
(:class:`ConfigError` messages) from the demo's catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
from flask_babel import gettext

from liarsdice import phrases, rulespage
from liarsdice.bots import bot_kinds, bot_label, bot_level, bot_title, by_level
from liarsdice.combination import option_defaults
from liarsdice.errors import RulesetError
from liarsdice.i18n import render
from liarsdice.presets import Preset
from liarsdice.ruleset import BASELINE, Ruleset, installed, presets
from liarsdice_demo.text.i18n import page_locale

MIN_SEATS, MAX_SEATS = 2, 6
MIN_TURN, MAX_TURN, DEFAULT_TURN = 5, 600, 60
MAX_DICE = 5
_SIZE_KEYS = ("seats", "dice_per_player")


class ConfigError(ValueError):
    """The lobby's request cannot make a table; the message says why."""


@attrs.frozen
class TableConfig:
    """Everything a table is made from (``bot_kind`` ``None``: empty seats wait for people)."""

    rules: Ruleset = attrs.field(eq=False, repr=False)
    preset: str | None
    variants: tuple[str, ...]
    options: Mapping[str, Any]
    seats: int = 4
    bot_kind: str | None = "random"
    turn_seconds: int = DEFAULT_TURN
    rated: bool = False
    dice_per_player: int = 5
    forgive_first_timeout: bool = False
    """Each human's first timeout of a game is forgiven: a bot plays that turn and the table is
    told (the quick game, for newcomers: :mod:`.forgiving`)."""
    _title: str = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_title", self.title_in("en"))  # stored with every commit

    @property
    def title(self) -> str:
        """A short name for the table's rules (in English)."""
        return self._title

    def title_in(self, locale: str) -> str:
        """A short name for the table's rules in ``locale``."""
        if self.rules.preset is not None:
            named = self.rules.preset.variants
            extra = [
                render(v.info.title, locale) for v in self.rules.variants[1:] if v.name not in named
            ]
            title = render(self.rules.preset.title, locale)
            return title + (" + " + ", ".join(extra) if extra else "")
        names = [render(v.info.title, locale) for v in self.rules.variants[1:]]
        if locale == "en":  # also outside a request: the stored and logged title
            return "Standard + " + ", ".join(names) if names else "Standard rules"
        if names:
            return str(gettext("Standard + %(variants)s", variants=", ".join(names)))
        return str(gettext("Standard rules"))

    def to_data(self) -> dict[str, Any]:
        """The request (JSON data) that :func:`parse_config` turns back into this config: how a
        live table's settings are stored."""
        return {
            "preset": self.preset,
            "variants": list(self.variants),
            "options": dict(self.options),
            "seats": self.seats,
            "bot_kind": self.bot_kind,
            "turn_seconds": self.turn_seconds,
            "rated": self.rated,
            "dice_per_player": self.dice_per_player,
            "forgive_first_timeout": self.forgive_first_timeout,
        }

    def summary(self, locale: str = "en") -> dict[str, Any]:
        """The settings as JSON data (for pages and the protocol), what players read in
        ``locale`` (``call_titles``: each call's name for players, ``call_help``: its claim)."""
        return {
            "title": self.title_in(locale),
            "preset": self.preset,
            "variants": list(self.variants),
            "options": dict(self.rules.options),
            "calls": list(self.rules.calls),
            # what a bid is made of (liarsdice.bidkinds): ["quantity", "face"], or ["total"]
            "bid_fields": list(self.rules.bid_kind.fields),
            "call_titles": {
                name: render(call.title, locale) for name, call in self.rules.calls.items()
            },
            "call_help": {
                name: render(call.help, locale) for name, call in self.rules.calls.items()
            },
            "seats": self.seats,
            "bot_kind": self.bot_kind,
            "bot_level": bot_level(self.bot_kind) if self.bot_kind else None,
            "turn_seconds": self.turn_seconds,
            "rated": self.rated,
            "dice_per_player": self.dice_per_player,
            "forgive_first_timeout": self.forgive_first_timeout,
        }


def _int(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    raw = data.get(key, default)
    if raw in (None, ""):
        return default
    # A boolean or a fraction is not a whole number, though int() would take it (True, 6.7).
    whole = isinstance(raw, int | str) or (isinstance(raw, float) and raw.is_integer())
    try:
        if isinstance(raw, bool) or not whole:
            raise ValueError(raw)
        value = int(raw)
    except (TypeError, ValueError):
        raise ConfigError(gettext("%(key)s must be a whole number", key=key)) from None
    if not low <= value <= high:
        raise ConfigError(
            gettext("%(key)s must be %(low)s to %(high)s", key=key, low=low, high=high)
        )
    return value


def _bool(data: Mapping[str, Any], key: str) -> bool:
    raw = data.get(key, False)
    if isinstance(raw, str):
        return raw.lower() in {"1", "true", "on", "yes"}
    return bool(raw)


def build_rules(
    data: Mapping[str, Any],
) -> tuple[Ruleset, str | None, tuple[str, ...], dict[str, Any]]:
    """The ruleset of ``data``'s ``preset``, ``variants``, ``options``; else ``ConfigError``."""
    preset = data.get("preset") or None
    variants = data.get("variants") or []
    options = data.get("options") or {}
    if preset is not None and not isinstance(preset, str):
        raise ConfigError(gettext("preset must be a name"))
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ConfigError(gettext("variants must be a list of names"))
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ConfigError(gettext("options must map option names to values"))
    if len(variants) > 32 or len(options) > 64:
        raise ConfigError(gettext("too many variants or options"))
    try:
        rules = Ruleset.build(variants, dict(options), preset=preset)
    except RulesetError as error:
        raise ConfigError(render(phrases.clauses(error.reasons), page_locale())) from None
    chosen = tuple(name for name in rules.names if name != BASELINE)
    return rules, preset, chosen, dict(options)


def combination_defaults(data: Mapping[str, Any]) -> dict[str, Any]:
    """The value each option of ``data``'s combination (``preset``, ``variants``) takes unless the
    table sets it: its plugin's default, changed by the other variants' ``option_defaults`` and then
    by the preset's options. Works on combinations that cannot be built (unknown names are left
    out, a clash of defaults falls back to the declared ones), so the lobby can show them."""
    known = installed()
    names: set[str] = set()
    preset_options: dict[str, Any] = {}
    preset = data.get("preset")
    chosen_preset = presets().get(preset) if isinstance(preset, str) and preset else None
    if chosen_preset is not None:
        names.update(chosen_preset.variants)
        preset_options = dict(chosen_preset.options)
    variants = data.get("variants")
    if isinstance(variants, list):
        names.update(v for v in variants if isinstance(v, str))
    chosen = [known[BASELINE], *(known[n] for n in sorted(names - {BASELINE}) if n in known)]
    try:
        defaults = option_defaults(chosen, preset_options)
    except RulesetError:
        defaults = {option.key: option.default for v in chosen for option in v.options}
    defaults.update((key, value) for key, value in preset_options.items() if key in defaults)
    return defaults


def parse_config(data: Mapping[str, Any]) -> TableConfig:
    """A validated table config from ``data`` (see the module docstring); ``ConfigError`` if not."""
    if not isinstance(data, Mapping):
        raise ConfigError(gettext("send a JSON object"))
    rules, preset, variants, options = build_rules(data)
    bot_kind = data.get("bot_kind", "random") or None
    if bot_kind is not None and not isinstance(bot_kind, str):
        raise ConfigError(gettext("the bot kind is a name (text)"))
    if bot_kind in ("none", ""):
        bot_kind = None
    if bot_kind is not None and bot_kind not in bot_kinds():
        raise ConfigError(
            gettext(
                "unknown bot kind %(kind)s; installed: %(installed)s",
                kind=repr(bot_kind),
                installed=", ".join(bot_kinds()),
            )
        )
    seats, dice = parse_table_size(rules, data)
    return TableConfig(
        rules=rules,
        preset=preset,
        variants=variants,
        options=options,
        seats=seats,
        bot_kind=bot_kind,
        turn_seconds=_int(data, "turn_seconds", DEFAULT_TURN, MIN_TURN, MAX_TURN),
        rated=_bool(data, "rated"),
        dice_per_player=dice,
        forgive_first_timeout=_bool(data, "forgive_first_timeout"),
    )


def parse_table_size(
    rules: Ruleset, data: Mapping[str, Any], *, given_only: bool = False
) -> tuple[int, int]:
    """``data``'s ``seats`` and ``dice_per_player`` (defaults 4 and 5), checked against the demo's
    bounds and the table size of ``rules``'s preset (seed 004's perudo: 2 to 6 players, 5 dice
    each); ``ConfigError`` naming the bound if not. With ``given_only`` the preset checks only
    what ``data`` gives (a combination checked before its table is chosen)."""
    seats = _int(data, "seats", 4, MIN_SEATS, MAX_SEATS)
    dice = _int(data, "dice_per_player", 5, 1, MAX_DICE)
    checked = {key: not given_only or data.get(key) not in (None, "") for key in _SIZE_KEYS}
    try:
        rules.check_table(
            seats if checked["seats"] else None, dice if checked["dice_per_player"] else None
        )
    except RulesetError as error:
        raise ConfigError(render(phrases.clauses(error.reasons), page_locale())) from None
    return seats, dice


def fits_the_demo(preset: Preset) -> bool:
    """Whether the demo can seat a table that ``preset`` takes (it seats 2 to 6 players with 1
    to 5 dice each; a preset's bounds start at 2 players and 1 die at least)."""
    return preset.size.players[0] <= MAX_SEATS and preset.size.dice[0] <= MAX_DICE


def catalog(locale: str = "en") -> dict[str, Any]:
    """Installed variants (with option declarations; not the examples, ``VariantInfo.example``),
    presets and bot kinds, as JSON data
    (``bots``: each kind with its level, title and label, easiest first; ``call_titles``: each call's
    name for players; each preset's ``players`` and ``dice`` bounds, ``[low, high]`` with
    ``high`` null for none, its ``table`` as players read it and the ``table_line`` that says it,
    null for any table, and ``fits_demo``, whether the demo can seat any table it takes), what
    players read in ``locale``."""
    variants = []
    call_titles: dict[str, str] = {}
    for name, variant in installed().items():
        if variant.info.example:  # a tutorial's or a test's plugin: not offered to players
            continue
        for call in variant.calls:
            call_titles[call.name] = render(call.title, locale)
        variants.append(
            {
                "name": name,
                "title": render(variant.info.title, locale),
                "summary": render(variant.info.summary, locale),
                "baseline": name == BASELINE,
                "requires": list(variant.info.requires),
                "conflicts": list(variant.info.conflicts),
                "economics": variant.info.economics,
                "calls": [call.name for call in variant.calls],
                "option_defaults": dict(variant.info.option_defaults),
                "options": [
                    {
                        "key": option.key,
                        "label": rulespage.option_label(option, locale),
                        "type": type(option.default).__name__,
                        "default": option.default,
                        "choices": list(option.choices) if option.choices else None,
                        "choice_labels": {
                            value: render(label, locale)
                            for value, label in option.choice_labels.items()
                        },
                        "minimum": option.minimum,
                        "maximum": option.maximum,
                    }
                    for option in variant.options
                ],
            }
        )
    return {
        "variants": variants,
        "presets": [
            {
                "name": preset.name,
                "title": render(preset.title, locale),
                "summary": render(preset.summary, locale),
                "variants": list(preset.variants),
                "options": dict(preset.options),
                "players": list(preset.size.players),
                "dice": list(preset.size.dice),
                "table": render(preset.size.describe(), locale) or None,
                "table_line": render(preset.size.line(), locale) or None,
                "fits_demo": fits_the_demo(preset),
            }
            for preset in presets().values()
        ],
        "bot_kinds": list(bot_kinds()),
        "bots": [
            {
                "kind": kind,
                "level": bot_level(kind),
                "title": render(bot_title(kind), locale),
                "label": render(bot_label(kind), locale),
            }
            for kind in by_level(bot_kinds())
        ],
        "call_titles": call_titles,
    }
