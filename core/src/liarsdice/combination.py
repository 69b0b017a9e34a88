"""Which variants and option values make a playable combination, before any plugin is asked.

:func:`resolve_options` gives every option its value: the table's, else the default the variants
set for each other's options (:func:`option_defaults`), else the declared one; an unknown option
or a bad value is refused naming the variant. :func:`structural_problem` finds what needs no
option value: a missing requirement, a conflict, no economics. :meth:`Ruleset.build
<liarsdice.ruleset.Ruleset.build>` runs both before it asks the plugins' own objections.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from liarsdice.discovery import InstalledVariant, installed
from liarsdice.errors import (
    BadOptionValue,
    Conflict,
    MissingRequirement,
    NoEconomics,
    RulesetError,
    UnknownOption,
)
from liarsdice.i18n import _
from liarsdice.models import JSON


def option_defaults(
    variants: Sequence[InstalledVariant], given: Iterable[str] = ()
) -> dict[str, JSON]:
    """The default of every option the ``variants`` declare, after the defaults variants set for
    each other's options (``VariantInfo.option_defaults``); options in ``given`` are left at their
    declared default, since the table sets them. Raises :class:`Conflict` when two variants set
    different defaults for one option, and :class:`UnknownOption` or :class:`BadOptionValue`
    naming the variant that set a default for an option its plugin does not declare or cannot take.
    """
    declared = {option.key: option for variant in variants for option in variant.options}
    names = {variant.name for variant in variants}
    defaults = {key: option.default for key, option in declared.items()}
    setters: dict[str, str] = {}
    for variant in variants:
        for key, value in variant.info.option_defaults.items():
            if key.partition(".")[0] not in names or key in given:
                continue
            if key not in declared:
                raise UnknownOption(
                    f"{variant.name} sets a default for {key}, which "
                    f"{key.partition('.')[0]} does not declare"
                )
            try:
                parsed = declared[key].parse(value)
            except BadOptionValue as error:
                raise BadOptionValue(f"{variant.name} sets a bad default: {error}") from error
            if key in setters and defaults[key] != parsed:
                raise Conflict(
                    f"{setters[key]} and {variant.name} set different defaults for {key} "
                    f"({_show(defaults[key])} and {_show(parsed)}): set {key} for the table"
                )
            defaults[key], setters[key] = parsed, variant.name
    return defaults


def _show(value: JSON) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def resolve_options(
    variants: Sequence[InstalledVariant], given: Mapping[str, Any]
) -> dict[str, JSON]:
    """Every option of ``variants`` with its value: ``given`` parsed, the rest at their defaults
    (:func:`option_defaults`). Raises :class:`UnknownOption` for an option no variant here
    declares, saying which options its plugin has, and :class:`BadOptionValue` for a bad value."""
    declared = {option.key: option for variant in variants for option in variant.options}
    names = {variant.name for variant in variants}
    resolved = option_defaults(variants, given)
    for key, value in given.items():
        if key not in declared:
            plugin = key.partition(".")[0]
            if plugin not in names:
                raise UnknownOption(
                    _(
                        "unknown option {key}: variant {plugin} is not in this ruleset",
                        key=key,
                        plugin=repr(plugin),
                    )
                )
            own = sorted(k for k in declared if k.startswith(f"{plugin}."))
            if own:
                raise UnknownOption(
                    _("unknown option {key}: its options are {own}", key=key, own=", ".join(own))
                )
            raise UnknownOption(_("unknown option {key}: it has no options", key=key))
        resolved[key] = declared[key].parse(value)
    return resolved


def providers(name: str, variants: Iterable[InstalledVariant]) -> list[str]:
    """The names of ``variants`` that are called ``name`` or provide the capability ``name``."""
    return [v.name for v in variants if v.name == name or name in v.info.provides]


def structural_problem(variants: Sequence[InstalledVariant]) -> RulesetError | None:
    """The first requirement, conflict or missing economics among ``variants`` (the baseline
    included), the checks that need no option values; ``None`` when there is none."""
    for variant in variants:
        others = [v for v in variants if v is not variant]
        for required in variant.info.requires:
            if providers(required, others):
                continue
            offers = [v for v in providers(required, installed().values()) if v != variant.name]
            if offers == [required]:
                return MissingRequirement(
                    _(
                        "{variant} requires {required}, which is not in this ruleset",
                        variant=variant.name,
                        required=required,
                    )
                )
            fields = {"variant": variant.name, "required": required}
            if offers:
                return MissingRequirement(
                    _(
                        "{variant} requires {required}, which no variant in this ruleset "
                        "provides (installed variants that do: {offers})",
                        offers=", ".join(offers),
                        **fields,
                    )
                )
            return MissingRequirement(
                _(
                    "{variant} requires {required}, which no variant in this ruleset provides",
                    **fields,
                )
            )
        for other in variant.info.conflicts:
            clashing = providers(other, others)
            if clashing:
                which = other if clashing == [other] else f"{other} ({', '.join(clashing)})"
                return Conflict(
                    _(
                        "{variant} conflicts with {other}: choose one of them",
                        variant=variant.name,
                        other=which,
                    )
                )
    if not any(variant.info.economics for variant in variants):
        offers = [v.name for v in installed().values() if v.info.economics]
        return NoEconomics(
            _(
                "no variant makes a lost round cost anything: add one of {offers}",
                offers=", ".join(offers) if offers else _("(none installed)"),
            )
        )
    return None
