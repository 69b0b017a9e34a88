"""Finding installed variants and building a validated ruleset from names and options.

Variants are found through the entry-point group ``liarsdice``; the baseline ``standard`` is found
the same way as any third-party plugin. Each ruleset gets a fresh plugin manager: nothing global.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable, Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs
import pluggy

from liarsdice import hookspecs, rulestext
from liarsdice.dispatch import Hooks
from liarsdice.errors import (
    Conflict,
    MissingRequirement,
    NoEconomics,
    PluginError,
    UnknownOption,
    UnknownPreset,
    UnknownVariant,
)
from liarsdice.models import FACE_NAMES, JSON, Bid, GameState, RankKey
from liarsdice.options import CallKind, CallRegistry, Option, OptionRegistry, VariantInfo
from liarsdice.presets import Preset, PresetRegistry

GROUP = "liarsdice"
BASELINE = "standard"
FACES = (1, 2, 3, 4, 5, 6)


@attrs.frozen
class InstalledVariant:
    """An installed plugin: its variant name, the distribution that ships it, and its metadata."""

    name: str
    distribution: str
    info: VariantInfo
    options: tuple[Option, ...]
    calls: tuple[CallKind, ...]
    plugin: Any = attrs.field(eq=False, repr=False)


def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        found.setdefault(entry.name, entry)
    return found


def _call_on(plugin_name: str, pm: pluggy.PluginManager, hook: str, **kwargs: Any) -> Any:
    """Call ``hook`` on one plugin only; ``None`` if the plugin does not implement it."""
    for impl in getattr(pm.hook, hook).get_hookimpls():
        if impl.plugin_name == plugin_name:
            return impl.function(**{arg: kwargs[arg] for arg in impl.argnames})
    return None


def _new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def _inspect(name: str, entry: EntryPoint) -> InstalledVariant:
    distribution = entry.dist.name if entry.dist is not None else "?"
    try:
        plugin = entry.load()
    except Exception as error:
        raise PluginError(f"variant {name} ({distribution}) failed to load: {error}") from error
    pm = _new_manager()
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as error:
        raise PluginError(f"variant {name} ({distribution}): {error}") from error
    info = _call_on(name, pm, "liarsdice_variant_info")
    if not isinstance(info, VariantInfo):
        raise PluginError(f"variant {name} ({distribution}) must implement liarsdice_variant_info")
    options = OptionRegistry(name)
    _call_on(name, pm, "liarsdice_register_options", options=options)
    calls = CallRegistry(name)
    _call_on(name, pm, "liarsdice_register_calls", calls=calls)
    return InstalledVariant(
        name, distribution, info, tuple(options.options), tuple(calls.calls), plugin
    )


@functools.cache
def installed() -> Mapping[str, InstalledVariant]:
    """Every installed variant that loads, by name, sorted; loaded once per process.

    A plugin that fails to load is left out, so it cannot break the others; :func:`broken` says
    why, and naming it in a ruleset raises that :class:`PluginError`.
    """
    found = {}
    for name, entry in _entry_points().items():
        try:
            found[name] = _inspect(name, entry)
        except PluginError:
            continue
    return found


def broken() -> Mapping[str, PluginError]:
    """Installed plugins that fail to load, by name, with the error saying why."""
    problems = {}
    for name, entry in _entry_points().items():
        if name not in installed():
            try:
                _inspect(name, entry)
            except PluginError as error:
                problems[name] = error
    return problems


@functools.cache
def presets() -> Mapping[str, Preset]:
    """Every preset registered by an installed plugin, by name; collected once per process."""
    registry = PresetRegistry()
    for variant in installed().values():
        pm = _new_manager()
        pm.register(variant.plugin, name=variant.name)
        try:
            _call_on(variant.name, pm, "liarsdice_register_presets", presets=registry)
        except ValueError as error:
            raise PluginError(f"variant {variant.name}: {error}") from error
    return dict(sorted(registry.presets.items()))


def find_preset(name: str) -> Preset:
    """The preset ``name``; :class:`UnknownPreset` lists the available ones."""
    known = presets()
    if name not in known:
        raise UnknownPreset(f"unknown preset {name!r}; available: {', '.join(known) or '(none)'}")
    return known[name]


def find_variant(name: str) -> InstalledVariant:
    """The installed variant ``name``; :class:`UnknownVariant` lists what is installed."""
    variants = installed()
    if name not in variants:
        failed = broken()
        if name in failed:
            raise failed[name]
        raise UnknownVariant(f"unknown variant {name!r}; installed: {', '.join(variants)}")
    return variants[name]


def _resolve_options(
    variants: Sequence[InstalledVariant], given: Mapping[str, Any]
) -> dict[str, JSON]:
    declared = {option.key: option for variant in variants for option in variant.options}
    names = {variant.name for variant in variants}
    resolved = {key: option.default for key, option in declared.items()}
    for key, value in given.items():
        if key not in declared:
            plugin = key.partition(".")[0]
            if plugin not in names:
                raise UnknownOption(
                    f"unknown option {key}: variant {plugin!r} is not in this ruleset"
                )
            own = sorted(k for k in declared if k.startswith(f"{plugin}."))
            has = f"its options are {', '.join(own)}" if own else "it has no options"
            raise UnknownOption(f"unknown option {key}: {has}")
        resolved[key] = declared[key].parse(value)
    return resolved


def _check_combination(variants: Sequence[InstalledVariant], options: Mapping[str, JSON]) -> None:
    names = [variant.name for variant in variants]
    for variant in variants:
        for required in variant.info.requires:
            if required not in names:
                raise MissingRequirement(
                    f"{variant.name} requires {required}, which is not in this ruleset"
                )
        for other in variant.info.conflicts:
            if other in names:
                raise Conflict(f"{variant.name} conflicts with {other}: choose one of them")
    pm = _new_manager()
    for variant in variants:
        pm.register(variant.plugin, name=variant.name)
    problems = pm.hook.liarsdice_combination_problem(variants=tuple(names), options=options)
    if problems:
        raise Conflict("; ".join(problems))
    if not any(variant.info.economics for variant in variants):
        offers = [v.name for v in installed().values() if v.info.economics]
        raise NoEconomics(
            "no variant makes a lost round cost anything: add one of "
            + ", ".join(offers or ["(none installed)"])
        )


class Ruleset:
    """A validated combination of variants and option values, ready to play any number of games.

    Build it with :meth:`build`. ``hooks`` is the pre-resolved dispatch facade; ``pm`` is the
    plugin manager behind it, for callers that want pluggy itself.
    """

    def __init__(
        self,
        variants: Sequence[InstalledVariant],
        options: Mapping[str, JSON],
        preset: Preset | None = None,
    ) -> None:
        self.preset = preset
        self.variants = tuple(variants)
        self.names = tuple(variant.name for variant in variants)
        self.options: Mapping[str, JSON] = dict(options)
        self.calls = {call.name: call for variant in variants for call in variant.calls}
        self.pm = _new_manager()
        for variant in variants:
            self.pm.register(variant.plugin, name=variant.name)
        self.hooks = Hooks(self.pm, self.options)
        self._ladders: dict[tuple[int, frozenset[int]], tuple[list[RankKey], list[Bid]]] = {}
        # When no face_allowed implementation reads the state or the player, its answers never
        # change: ask once now instead of on every turn.
        fixed = not self.hooks.reads["face_allowed"] & {"state", "player"}
        self._fixed_refusals = self._refusals(None, None) if fixed else None

    @classmethod
    def build(
        cls,
        variants: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> Ruleset:
        """The ruleset of the baseline plus ``variants``, with ``options`` (``"plugin.name": value``).

        With ``preset``, its variants and options come first and ``variants``/``options`` add to
        them (a given option overrides the preset's value). Raises a
        :class:`~liarsdice.errors.RulesetError` subclass naming the plugin or option for an unknown
        preset, variant or option, a bad value, a missing requirement, a conflict, or no economics.
        """
        chosen_preset = find_preset(preset) if preset is not None else None
        if chosen_preset is not None:
            variants = [*chosen_preset.variants, *variants]
            options = {**chosen_preset.options, **(options or {})}
        wanted = sorted(set(variants) - {BASELINE})
        unknown = [name for name in wanted if name not in installed()]
        failed = broken() if unknown else {}
        for name in unknown:
            if name in failed:
                raise failed[name]
        if unknown:
            raise UnknownVariant(
                f"unknown variant{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
                f"installed: {', '.join(installed())}"
            )
        chosen = [find_variant(BASELINE), *(find_variant(name) for name in wanted)]
        resolved = _resolve_options(chosen, options or {})
        _check_combination(chosen, resolved)
        return cls(chosen, resolved, chosen_preset)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.option(k).default}
        preset = f", preset={self.preset.name!r}" if self.preset else ""
        return f"Ruleset({list(self.names[1:])!r}, {changed!r}{preset})"

    def option(self, key: str) -> Option:
        """The declaration of option ``key``."""
        for variant in self.variants:
            for option in variant.options:
                if option.key == key:
                    return option
        raise UnknownOption(f"unknown option {key}")

    def ladder(
        self, dice_in_play: int, refused: frozenset[int] = frozenset()
    ) -> tuple[list[RankKey], list[Bid]]:
        """Every bid with quantity 1..``dice_in_play`` and a face not in ``refused``, sorted by
        rank: (rank keys, bids)."""
        key = (dice_in_play, refused)
        if key not in self._ladders:
            rank = self.hooks.bid_rank
            bids = sorted(
                (Bid(q, f) for q in range(1, dice_in_play + 1) for f in FACES if f not in refused),
                key=rank,
            )
            self._ladders[key] = ([rank(bid) for bid in bids], bids)
        return self._ladders[key]

    def bids_above(self, bid: Bid | None, dice_in_play: int) -> list[Bid]:
        """Bids of the ladder that rank above ``bid`` (all of them when ``bid`` is None)."""
        keys, bids = self.ladder(dice_in_play)
        if bid is None:
            return bids
        return bids[bisect.bisect_right(keys, self.hooks.bid_rank(bid)) :]

    def refused_faces(self, state: GameState, player: str) -> frozenset[int]:
        """The faces ``player`` may not name in a bid now, by the ``face_allowed`` hook."""
        if self._fixed_refusals is not None:
            return self._fixed_refusals
        return self._refusals(state, player)

    def _refusals(self, state: GameState | None, player: str | None) -> frozenset[int]:
        return frozenset(
            face
            for face in FACES
            if self.face_refusal(state, player, face) is not None  # type: ignore[arg-type]
        )

    def face_refusal(self, state: GameState, player: str, face: int) -> str | None:
        """Why ``player`` may not name ``face`` now (``face_allowed``), or None if they may."""
        allowed = self.hooks.face_allowed(state, player, face)
        if isinstance(allowed, str):
            return allowed
        if allowed is False:
            return f"bids on {FACE_NAMES[face]} are not allowed now"
        return None

    def describe(self) -> str:
        """The rules page of this combination, in Markdown (see :mod:`liarsdice.rulestext`)."""
        return rulestext.render(self)
