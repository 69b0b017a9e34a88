"""The exceptions of liarsdice, each a subclass of the matching built-in, to be caught broadly."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from liarsdice.i18n import Text


class RulesetError(ValueError):
    """A ruleset cannot be built; the message names the plugin or option at fault.

    ``reasons`` holds each reason given (a string, or a :class:`~liarsdice.i18n.Text` a player
    reads in their own language); the message joins them in English.
    """

    def __init__(self, *reasons: str | Text) -> None:
        self.reasons = reasons
        super().__init__("; ".join(map(str, reasons)))


class UnknownVariant(RulesetError):
    """No installed plugin has that variant name."""


class UnknownPreset(RulesetError):
    """No installed plugin registers a preset of that name."""


class UnknownOption(RulesetError):
    """No plugin in the ruleset declares that option."""


class BadOptionValue(RulesetError):
    """An option was given a value of the wrong type or out of range."""


class MissingRequirement(RulesetError):
    """A plugin requires a variant or option value that the ruleset lacks."""


class Conflict(RulesetError):
    """Two plugins, or a plugin and an option value, cannot be combined."""


class NoEconomics(RulesetError):
    """No plugin in the ruleset makes a lost round cost anything."""


class BadTableSize(RulesetError):
    """The ruleset's preset does not take a table of that many players or dice (its
    :class:`~liarsdice.presets.TableSize`); the message names the preset and the bound."""


class PluginError(RuntimeError):
    """A plugin failed to load or broke a hook contract; the message names the plugin.

    ``plugin`` and ``hook`` name the culprit when the engine knows them (``None`` otherwise):
    ``plugin`` is ``"(a wrapper)"`` when the answer came through a hook wrapper.
    """

    def __init__(self, message: str, *, plugin: str | None = None, hook: str | None = None):
        super().__init__(message)
        self.plugin = plugin
        self.hook = hook

    def __reduce__(self) -> tuple[object, ...]:  # keep the attributes through pickling
        return (_rebuild, (type(self), str(self), self.plugin, self.hook))


def _rebuild(
    cls: type[PluginError], message: str, plugin: str | None, hook: str | None
) -> PluginError:
    return cls(message, plugin=plugin, hook=hook)


class HookFailed(PluginError):
    """A plugin's hook implementation raised an exception (chained as ``__cause__``): "revolver's
    liarsdice_settle raised KeyError: 'Zed'"."""


class BadHookResult(PluginError):
    """A plugin's hook implementation returned an answer that breaks the hook's contract (a wrong
    type, a seat that is not at the table, a misplaced effect): the message shows the answer and
    what was expected."""


class IllegalAction(ValueError):
    """An action was refused. ``reasons`` lists every problem found; the state is unchanged."""

    def __init__(self, reasons: Sequence[str | Text]) -> None:
        self.reasons = reasons
        super().__init__("; ".join(map(str, reasons)))
