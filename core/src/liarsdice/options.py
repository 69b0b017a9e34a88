"""Plugin options and the registries plugins fill in at ruleset build time."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from liarsdice.errors import BadOptionValue
from liarsdice.i18n import Text, _
from liarsdice.models import JSON

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


#: "option X takes a Y, not Z", by the option's type.
_TAKES: Mapping[str, Callable[..., Text]] = {
    "bool": lambda **fields: _("option {key} takes a bool, not {value}", **fields),
    "int": lambda **fields: _("option {key} takes an int, not {value}", **fields),
    "str": lambda **fields: _("option {key} takes a str, not {value}", **fields),
}


@attrs.frozen
class Option:
    """An option of plugin ``plugin``, addressed as ``"plugin.name"``.

    Its type is the type of ``default`` (bool, int or str). ``choices`` limits a str option;
    ``minimum``/``maximum`` bound an int option. ``help`` is its label for players (a
    :class:`~liarsdice.i18n.Text` to be translated, or a plain string); ``choice_labels`` name
    some choices for players ("the table pays" for ``"table-pays"``).
    """

    plugin: str
    name: str
    default: JSON
    help: str | Text
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    choice_labels: Mapping[str, str | Text] = attrs.field(factory=dict)

    def value_label(self, value: JSON) -> str | Text:
        """What players read for ``value``: a choice's label, else the value itself."""
        label = self.choice_labels.get(value) if isinstance(value, str) else None
        return label if label is not None else str(value)

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
            raise BadOptionValue(_TAKES[kind.__name__](key=self.key, value=repr(value)))
        if self.choices is not None and value not in self.choices:
            raise BadOptionValue(
                _(
                    "option {key} must be one of {choices}, not {value}",
                    key=self.key,
                    choices=", ".join(self.choices),
                    value=repr(value),
                )
            )
        if self.minimum is not None and value < self.minimum:
            raise BadOptionValue(
                _(
                    "option {key} must be at least {minimum}, not {value}",
                    key=self.key,
                    minimum=self.minimum,
                    value=value,
                )
            )
        if self.maximum is not None and value > self.maximum:
            raise BadOptionValue(
                _(
                    "option {key} must be at most {maximum}, not {value}",
                    key=self.key,
                    maximum=self.maximum,
                    value=value,
                )
            )
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
        raise BadOptionValue(_TAKES[kind.__name__](key=self.key, value=repr(text)))

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
        help: str | Text,
        *,
        choices: tuple[str, ...] | Mapping[str, str | Text] | None = None,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> None:
        """Declare option ``name`` (the registry prefixes it with the plugin's name). ``choices``
        of a str option: the values, or a mapping of each value to its label for players."""
        if type(default) not in (bool, int, str):
            raise TypeError(f"option {self.plugin}.{name}: default must be a bool, int or str")
        labels = dict(choices) if isinstance(choices, Mapping) else {}
        values = tuple(choices) if choices is not None else None
        option = Option(self.plugin, name, default, help, values, minimum, maximum, labels)
        option.parse(default)  # a default must satisfy its own constraints
        self.options.append(option)


@attrs.frozen
class CallKind:
    """A kind of call a player may make instead of raising, registered by plugin ``plugin``.

    A call that ``ends_round`` is ruled on (``liarsdice_resolve_call``) and ends the round; one
    that does not is followed by ``liarsdice_call_made`` effects and the turn passes on.
    ``label`` is the call's name for players (a button, a log line), ``help`` what it claims;
    either may be a :class:`~liarsdice.i18n.Text`. A call ``out_of_turn`` may be made by any
    living player but the bidder while a bid stands, not only by the player on turn (the
    plugin's ``liarsdice_call_problem`` may narrow that down); the first to act wins.
    ``out_of_turn`` is ``True``, or the key of a bool option that turns it on
    (``"calza.anyone"``): see :meth:`Ruleset.out_of_turn <liarsdice.Ruleset>`.
    """

    plugin: str
    name: str
    help: str | Text
    ends_round: bool = True
    label: str | Text = ""
    out_of_turn: bool | str = False

    @property
    def title(self) -> str | Text:
        """The call's name for players: its label, else its name capitalised."""
        return self.label or self.name[:1].upper() + self.name[1:]


RIGHT_WHEN = ("false", "exact", "true")
"""When a call settled by the count is right: the bid on the table is false (the count is below
its quantity: a challenge), exactly right (an exact call, "spot on"), or true (the count reaches
it)."""


def _lost_rounds(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not int or value < 0:
        raise ValueError(
            f"Payoff.{attribute.name} counts lost rounds or dice: an int, 0 or more, not {value!r}"
        )


@attrs.frozen
class Payoff:
    """What one outcome of a call deals out: how many lost rounds the ``caller``, the ``bidder``
    (whose bid was called) and each of the ``others`` (every other living player) take, each
    priced by the economics in play (a die, a pull of the trigger), and how many dice the caller
    ``regains`` (up to the starting count)."""

    caller: int = attrs.field(default=0, validator=_lost_rounds)
    bidder: int = attrs.field(default=0, validator=_lost_rounds)
    others: int = attrs.field(default=0, validator=_lost_rounds)
    regains: int = attrs.field(default=0, validator=_lost_rounds)


@attrs.frozen
class CallStakes:
    """What a call kind settled by the count stands to win or lose, for the bots
    (``liarsdice_call_stakes``): the call is ``right`` when the bid on the table is
    ``right_when`` (one of :data:`RIGHT_WHEN`), and each outcome deals out a :class:`Payoff`.

    A challenge is ``CallStakes("false", right=Payoff(bidder=1), wrong=Payoff(caller=1))``; an
    exact call where the table pays is ``CallStakes("exact", right=Payoff(bidder=1, others=1),
    wrong=Payoff(caller=1))``.
    """

    right_when: str = attrs.field(validator=attrs.validators.in_(RIGHT_WHEN))
    right: Payoff = attrs.field(validator=attrs.validators.instance_of(Payoff))
    wrong: Payoff = attrs.field(validator=attrs.validators.instance_of(Payoff))


class CallRegistry:
    """Passed to ``liarsdice_register_calls``; collects one plugin's call kinds."""

    def __init__(self, plugin: str) -> None:
        self.plugin = plugin
        self.calls: list[CallKind] = []

    def add(
        self,
        name: str,
        help: str | Text,
        *,
        ends_round: bool = True,
        label: str | Text = "",
        out_of_turn: bool | str = False,
    ) -> None:
        """Register call kind ``name`` (for example ``"exact"``); with ``ends_round=False`` the
        call does not end the round (for example a ``"pass"``). ``label`` names it for players
        (default: the name, capitalised). With ``out_of_turn`` any living player but the bidder
        may make it while a bid stands; such a call must end the round. ``out_of_turn`` may name
        one of this plugin's bool options instead (``"anyone"``): the call is made out of turn
        only where that option is on, and on turn only elsewhere."""
        if not name or name == "bid" or not all(c.isalnum() or c == "-" for c in name):
            raise ValueError(
                f"{self.plugin}: a call kind is a word of letters, digits and dashes, not {name!r}"
            )
        if out_of_turn and not ends_round:
            raise ValueError(
                f"{self.plugin}: call {name!r} is made out of turn, so it must end the round"
            )
        if isinstance(out_of_turn, str):
            out_of_turn = f"{self.plugin}.{out_of_turn}"
        self.calls.append(CallKind(self.plugin, name, help, ends_round, label, out_of_turn))


def _names(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


@attrs.frozen
class VariantInfo:
    """What a plugin says about itself.

    - ``requires``: names each of which some variant in the ruleset must have or provide
      (a variant name, or a capability from ``provides``: "requires any variant that provides it").
    - ``conflicts``: variant names or capabilities that must not be in the same ruleset.
    - ``provides``: capabilities this variant offers (``"dice-economy"``: lost rounds take dice
      away). A variant always provides its own name.
    - ``before`` / ``after``: variants this one answers first-result hooks before (or after), and
      runs collect-all hooks before (or after). Two variants that answer the same first-result
      hook must be ordered this way, directly or through others.
    - ``option_defaults``: new defaults for other plugins' options (``{"standard.wild_ones":
      False}``), used unless the table sets the option itself.
    - ``payloads``: the actions whose payload this plugin reads under its own name: ``"bid"``
      and/or call kinds.
    - ``economics``: true for a plugin that makes a lost round cost something (every ruleset needs
      one).
    - ``presentation``: true for a plugin that only presents (rules text, public facts,
      narration) and changes no legal move or ruling; the rule-law kit's "does something" law
      then leaves it alone.
    - ``example``: true for a plugin written to show how (a tutorial's, a test's): it is
      installed and plays when a ruleset names it, but places where players choose variants
      (the demo's lobby) do not offer it.
    """

    title: str | Text
    summary: str | Text
    requires: tuple[str, ...] = attrs.field(default=(), converter=_names)
    conflicts: tuple[str, ...] = attrs.field(default=(), converter=_names)
    economics: bool = False
    provides: tuple[str, ...] = attrs.field(default=(), converter=_names)
    before: tuple[str, ...] = attrs.field(default=(), converter=_names)
    after: tuple[str, ...] = attrs.field(default=(), converter=_names)
    option_defaults: Mapping[str, JSON] = attrs.field(factory=dict, converter=dict)
    payloads: tuple[str, ...] = attrs.field(default=(), converter=_names)
    presentation: bool = False
    example: bool = False


Options = Mapping[str, JSON]
"""Resolved option values of a ruleset, keyed ``"plugin.name"``; every declared option is present."""
