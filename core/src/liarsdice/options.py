"""Plugin options and the registries plugins fill in at ruleset build time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from liarsdice.errors import BadOptionValue
from liarsdice.models import JSON

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


@attrs.frozen
class Option:
    """An option of plugin ``plugin``, addressed as ``"plugin.name"``.

    Its type is the type of ``default`` (bool, int or str). ``choices`` limits a str option;
    ``minimum``/``maximum`` bound an int option.
    """

    plugin: str
    name: str
    default: JSON
    help: str
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    @property
    def key(self) -> str:
        """The qualified name, ``"plugin.name"``."""
        return f"{self.plugin}.{self.name}"

    def parse(self, value: Any) -> JSON:
        """``value`` converted to this option's type, from a native value or a command-line string.

        Raises :class:`BadOptionValue` naming the option when the value does not fit.
        """
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            value = self._from_text(value, kind)
        if type(value) is not kind:
            raise BadOptionValue(f"option {self.key} takes {_a(kind.__name__)}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise BadOptionValue(
                f"option {self.key} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        if self.minimum is not None and value < self.minimum:
            raise BadOptionValue(f"option {self.key} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise BadOptionValue(f"option {self.key} must be at most {self.maximum}, not {value}")
        return value

    def _from_text(self, text: str, kind: type) -> JSON:
        lowered = text.strip().lower()
        if kind is bool and lowered in _TRUE | _FALSE:
            return lowered in _TRUE
        if kind is int:
            try:
                return int(lowered)
            except ValueError:
                pass
        raise BadOptionValue(f"option {self.key} takes {_a(kind.__name__)}, not {text!r}")

    def describe(self) -> str:
        """One line for help pages: key, type or choices, default and help text."""
        kind = "|".join(self.choices) if self.choices else type(self.default).__name__
        default = str(self.default).lower() if isinstance(self.default, bool) else self.default
        return f"{self.key} ({kind}, default {default}): {self.help}"


class OptionRegistry:
    """Passed to ``liarsdice_register_options``; collects one plugin's options."""

    def __init__(self, plugin: str) -> None:
        self.plugin = plugin
        self.options: list[Option] = []

    def add(
        self,
        name: str,
        default: JSON,
        help: str,
        *,
        choices: tuple[str, ...] | None = None,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> None:
        """Declare option ``name`` (the registry prefixes it with the plugin's name)."""
        if type(default) not in (bool, int, str):
            raise TypeError(f"option {self.plugin}.{name}: default must be a bool, int or str")
        option = Option(self.plugin, name, default, help, choices, minimum, maximum)
        option.parse(default)  # a default must satisfy its own constraints
        self.options.append(option)


@attrs.frozen
class CallKind:
    """A kind of call a player may make instead of raising, registered by plugin ``plugin``."""

    plugin: str
    name: str
    help: str


class CallRegistry:
    """Passed to ``liarsdice_register_calls``; collects one plugin's call kinds."""

    def __init__(self, plugin: str) -> None:
        self.plugin = plugin
        self.calls: list[CallKind] = []

    def add(self, name: str, help: str) -> None:
        """Register call kind ``name`` (for example ``"exact"``)."""
        self.calls.append(CallKind(self.plugin, name, help))


@attrs.frozen
class VariantInfo:
    """What a plugin says about itself.

    ``requires`` and ``conflicts`` name other variants; ``economics`` is true for a plugin that
    makes a lost round cost something (at least one is needed in every ruleset).
    """

    title: str
    summary: str
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    economics: bool = False


Options = Mapping[str, JSON]
"""Resolved option values of a ruleset, keyed ``"plugin.name"``; every declared option is present."""
