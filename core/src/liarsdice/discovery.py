"""Finding the installed variants and presets: the entry-point group ``liarsdice``.

Every variant, the baseline ``standard`` included, is whatever an entry point of the group loads.
Each is loaded once per process, registered alone in a scratch plugin manager and checked: hook
names (pluggy's ``check_pending``), hook markers (:func:`liarsdice.precedence.marker_problems`) and
its ``VariantInfo``. A plugin that fails is left out and reported by :func:`broken`, so it cannot
break the others.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs
import pluggy

from liarsdice import hookspecs, precedence
from liarsdice.errors import PluginError, UnknownPreset, UnknownVariant
from liarsdice.i18n import _
from liarsdice.options import CallKind, CallRegistry, Option, OptionRegistry, VariantInfo
from liarsdice.presets import Preset, PresetRegistry

GROUP = "liarsdice"
BASELINE = "standard"


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


def call_on(plugin_name: str, pm: pluggy.PluginManager, hook: str, **kwargs: Any) -> Any:
    """Call ``hook`` on one plugin only, with the arguments it takes from ``kwargs`` (give every
    argument of the hook's spec); ``None`` if the plugin does not implement it."""
    for impl in getattr(pm.hook, hook).get_hookimpls():
        if impl.plugin_name == plugin_name:
            return impl.function(**{arg: kwargs[arg] for arg in impl.argnames})
    return None


class _Manager(pluggy.PluginManager):
    """A plugin manager that skips a module's names that are neither ``liarsdice_*`` nor marked
    (pluggy otherwise inspects every name a plugin module holds, its imports included: most of the
    cost of building a ruleset). A marked function with another name is still seen, and refused."""

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        if (
            not name.startswith(_PREFIX)
            and isinstance(plugin, types.ModuleType)
            and not hasattr(vars(plugin).get(name), _MARK)
        ):
            return None
        return super().parse_hookimpl_opts(plugin, name)

    def parse_hookspec_opts(self, module_or_class: Any, name: str) -> Any:
        if not name.startswith(_PREFIX):
            return None
        return super().parse_hookspec_opts(module_or_class, name)


_PREFIX = f"{hookspecs.PROJECT}_"
_MARK = f"{hookspecs.PROJECT}_impl"


def new_manager() -> pluggy.PluginManager:
    """A fresh plugin manager that knows the liarsdice hook specifications."""
    pm = _Manager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def _inspect(name: str, entry: EntryPoint) -> InstalledVariant:
    distribution = entry.dist.name if entry.dist is not None else "?"
    try:
        plugin = entry.load()
    except Exception as error:
        raise PluginError(f"variant {name} ({distribution}) failed to load: {error}") from error
    pm = new_manager()
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as error:
        raise PluginError(f"variant {name} ({distribution}): {error}") from error
    problems = precedence.marker_problems(name, pm)
    if problems:
        raise PluginError(f"variant {name} ({distribution}): {problems[0]}")
    info = call_on(name, pm, "liarsdice_variant_info")
    if not isinstance(info, VariantInfo):
        got = "nothing" if info is None else f"a {type(info).__name__}"
        raise PluginError(
            f"variant {name} ({distribution}): liarsdice_variant_info must return a VariantInfo, "
            f"and it returned {got}"
        )
    for key in info.option_defaults:
        if key.count(".") != 1 or key.startswith(f"{name}."):
            raise PluginError(
                f"variant {name} ({distribution}): option_defaults names {key!r}; give another "
                "plugin's option as plugin.option (set your own options' defaults in "
                "liarsdice_register_options)"
            )
    if name in (*info.before, *info.after):
        raise PluginError(f"variant {name} ({distribution}) declares an order with itself")
    options = OptionRegistry(name)
    call_on(name, pm, "liarsdice_register_options", options=options)
    calls = CallRegistry(name)
    call_on(name, pm, "liarsdice_register_calls", calls=calls)
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
def _registered() -> tuple[Mapping[str, Preset], Mapping[str, PluginError]]:
    """The presets every installed plugin registers, and those left out with why (a name
    registered twice, bounds that are not bounds, a registration that raised)."""
    registry = PresetRegistry()
    refused: dict[str, PluginError] = {}
    for variant in installed().values():
        where = f"variant {variant.name} ({variant.distribution})"
        pm = new_manager()
        pm.register(variant.plugin, name=variant.name)
        seen = set(registry.refused)
        try:
            call_on(variant.name, pm, "liarsdice_register_presets", presets=registry)
        except Exception as error:
            refused[variant.name] = PluginError(
                f"{where}: liarsdice_register_presets raised {type(error).__name__}: {error}",
                plugin=variant.name,
                hook="liarsdice_register_presets",
            )
        for name in set(registry.refused) - seen:
            refused[name] = PluginError(f"{where}: {registry.refused[name]}", plugin=variant.name)
    return dict(sorted(registry.presets.items())), refused


def presets() -> Mapping[str, Preset]:
    """Every preset registered by an installed plugin, by name; collected once per process. A
    preset a plugin cannot register is left out, so it cannot break the others:
    :func:`broken_presets` says why."""
    return _registered()[0]


def broken_presets() -> Mapping[str, PluginError]:
    """The presets left out, by name (or the plugin's name, when its registration raised), with
    the error saying why."""
    return _registered()[1]


def find_preset(name: str) -> Preset:
    """The preset ``name``; the :class:`PluginError` of one left out, else
    :class:`UnknownPreset` listing the available ones."""
    known = presets()
    if name not in known:
        if name in broken_presets():
            raise broken_presets()[name]
        raise UnknownPreset(
            _(
                "unknown preset {name}; available: {known}",
                name=repr(name),
                known=", ".join(known) or "-",
            )
        )
    return known[name]


def find_variant(name: str) -> InstalledVariant:
    """The installed variant ``name``; :class:`UnknownVariant` lists what is installed."""
    variants = installed()
    if name not in variants:
        failed = broken()
        if name in failed:
            raise failed[name]
        raise UnknownVariant(
            _(
                "unknown variant {name}; installed: {known}",
                name=repr(name),
                known=", ".join(variants),
            )
        )
    return variants[name]
