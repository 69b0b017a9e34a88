"""Building a validated ruleset from variant names, a preset and options.

``Ruleset.build`` finds the variants (:mod:`liarsdice.discovery`), resolves the options (the
defaults variants set for each other's options first), refuses what cannot be played
(requirements, conflicts, each plugin's objections, no economics, unordered or unreachable hook
implementations) and registers the plugins in a fresh plugin manager: nothing global. The baseline
is registered first and the variants after it in reverse precedence order, so pluggy asks the
variants in their declared order and the baseline last, as a fallback
(:mod:`liarsdice.precedence`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from liarsdice import precedence, rulespage
from liarsdice.bidkinds import COUNT_OF_FACE, BidKind
from liarsdice.combination import option_defaults, resolve_options, structural_problem
from liarsdice.contracts import call_one
from liarsdice.discovery import (
    BASELINE,
    GROUP,
    InstalledVariant,
    broken,
    broken_presets,
    find_preset,
    find_variant,
    installed,
    new_manager,
    presets,
)
from liarsdice.dispatch import Hooks
from liarsdice.errors import (
    BadTableSize,
    Conflict,
    NoEconomics,
    PluginError,
    UnknownOption,
    UnknownVariant,
)
from liarsdice.faces import FACES, FaceRules
from liarsdice.i18n import Text, _
from liarsdice.ladder import BidLadder
from liarsdice.memo import Memos
from liarsdice.models import JSON, Bid, RankKey
from liarsdice.options import CallKind, CallStakes, Option
from liarsdice.plan import StepPlan
from liarsdice.presets import Preset

__all__ = [
    "BASELINE",
    "FACES",
    "GROUP",
    "InstalledVariant",
    "Ruleset",
    "broken",
    "broken_presets",
    "find_preset",
    "find_variant",
    "installed",
    "presets",
]

_PROBE_BIDS = tuple(Bid(q, f) for q in range(1, precedence.PROBE_QUANTITIES + 1) for f in FACES)


def _calls(variants: Sequence[InstalledVariant]) -> dict[str, CallKind]:
    """Every call kind the variants register, by name; two variants registering one name is a
    :class:`~liarsdice.errors.Conflict` (one would be ruled as the other)."""
    calls: dict[str, CallKind] = {}
    for variant in variants:
        for call in variant.calls:
            other = calls.get(call.name)
            if other is not None:
                raise Conflict(
                    f"{other.plugin} and {call.plugin} both register the call {call.name!r}: one "
                    "must declare the other in VariantInfo(conflicts=...), or name its call "
                    "otherwise"
                )
            calls[call.name] = call
    return calls


class Ruleset:
    """A validated combination of variants and option values, ready to play any number of games.

    Build it with :meth:`build`. ``variants`` holds the baseline first, then the variants by name;
    ``order`` holds the variants' names in precedence order (asked first, first). ``hooks`` is the
    pre-resolved dispatch facade; ``pm`` is the plugin manager behind it, for callers that want
    pluggy itself. The bid ladder and the faces are parts of their own, ``bid_ladder``
    (:class:`~liarsdice.ladder.BidLadder`) and ``face_rules`` (:class:`~liarsdice.faces.FaceRules`),
    whose methods the ruleset hands out under the same names (``rank``, ``refused_faces``, ...).
    """

    def __init__(
        self,
        variants: Sequence[InstalledVariant],
        options: Mapping[str, JSON],
        preset: Preset | None = None,
        defaults: Mapping[str, JSON] | None = None,
    ) -> None:
        baseline, *others = variants
        self.preset = preset
        self.variants = (baseline, *sorted(others, key=lambda v: v.name))
        self.names = tuple(variant.name for variant in self.variants)
        self.options: Mapping[str, JSON] = dict(options)
        #: Each option's default in this ruleset: declared, or set by another variant.
        self.defaults: Mapping[str, JSON] = dict(
            option_defaults(self.variants, self.options) if defaults is None else defaults
        )
        self.calls = _calls(self.variants)
        #: The call kinds that may be made out of turn here (``CallKind.out_of_turn``: always, or
        #: where its option is on), in order.
        self.out_of_turn = tuple(
            name for name, call in self.calls.items() if self._out_of_turn(call)
        )
        try:
            order, self.precedes = precedence.order(others)
        except ValueError as error:
            raise Conflict(str(error)) from error
        self.order = tuple(order)
        by_name = {variant.name: variant for variant in self.variants}
        #: For each action (``"bid"`` or a call kind) whose payload some plugin reads, those
        #: plugins (empty when no plugin reads payloads).
        readers = {
            action: frozenset(v.name for v in self.variants if action in v.info.payloads)
            for action in ("bid", *self.calls)
        }
        self.payload_readers: Mapping[str, frozenset[str]] = {
            action: names for action, names in readers.items() if names
        }
        self.pm = new_manager()
        self.pm.register(baseline.plugin, name=baseline.name)
        for name in reversed(self.order):  # pluggy asks the last registered first
            self.pm.register(by_name[name].plugin, name=name)
        self.hooks = Hooks(self.pm, self.options, baseline.name, self)
        #: The memoised answers of the hooks whose implementations declare what they read.
        self.memos = Memos(self.pm)
        #: Which steps of a round the engine takes on its fused path (:mod:`liarsdice.plan`).
        self.plan = StepPlan.of(self.hooks, baseline.plugin)
        #: The kind of bid played here (``liarsdice_bid_kind``, :mod:`liarsdice.bidkinds`).
        self.bid_kind: BidKind = self._bid_kind()
        #: The bid ladder (:mod:`liarsdice.ladder`) and the faces (:mod:`liarsdice.faces`).
        self.bid_ladder = BidLadder(
            self.hooks, self.pm, self.options, (*self.order, BASELINE), self.bid_kind
        )
        self.face_rules = FaceRules(self.hooks)
        # Their methods under the names callers use, bound once here: a call through the ruleset
        # runs the part's own method, with no wrapper frame between (``rank`` runs for every bid).
        #: ``liarsdice_bid_rank`` of a bid, asked once per bid: :meth:`BidLadder.rank`.
        self.rank: Callable[[Bid], RankKey] = self.bid_ladder.rank
        self.ladder = self.bid_ladder.ladder
        self.bids_above = self.bid_ladder.bids_above
        self.move_limit = self.bid_ladder.move_limit
        self.refused_faces = self.face_rules.refused_faces
        self.face_refusal = self.face_rules.face_refusal
        self.wild_faces = self.face_rules.wild_faces
        #: The faces refused all game, or ``None``: :attr:`FaceRules.fixed_refusals`.
        self.fixed_refusals = self.face_rules.fixed_refusals
        self._stakes: dict[str, CallStakes | None] = {}

    @classmethod
    def build(
        cls,
        variants: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
        *,
        players: int | None = None,
        dice_per_player: int | None = None,
    ) -> Ruleset:
        """The ruleset of the baseline plus ``variants``, with ``options`` (``"plugin.name": value``).

        With ``preset``, its variants and options come first and ``variants``/``options`` add to
        them (a given option overrides the preset's value). Raises a
        :class:`~liarsdice.errors.RulesetError` subclass naming the plugin or option for an unknown
        preset, variant or option, a bad value, a missing requirement, a conflict, or no economics.
        With ``players`` or ``dice_per_player``, also :class:`~liarsdice.errors.BadTableSize` for
        a table the preset does not take (:meth:`check_table`).
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
        resolved = resolve_options(chosen, options or {})
        problem = structural_problem(chosen)
        if problem is not None and not isinstance(problem, NoEconomics):
            raise problem
        rules = cls(chosen, resolved, chosen_preset, option_defaults(chosen, options or {}))
        objections = [
            answer
            for name in (*rules.order, BASELINE)
            if (
                answer := call_one(
                    name,
                    rules.pm,
                    "liarsdice_combination_problem",
                    variants=rules.names,
                    options=rules.options,
                )
            )
            is not None
        ]
        if objections:
            raise Conflict(*objections)
        if problem is not None:
            raise problem
        rules._check_precedence()
        rules.check_table(players, dice_per_player)
        return rules

    def check_table(
        self,
        players: int | None = None,
        dice_per_player: int | None = None,
        *,
        dice_in_play: int | None = None,
        hand: int | None = None,
    ) -> None:
        """Refuse a table that the preset's document does not allow (``Preset.size``) or that a
        plugin's rules cannot be played at (``liarsdice_table_problem``) with
        :class:`~liarsdice.errors.BadTableSize` ("the perudo preset is for 2 to 6 players, not
        7"; "teams: ... an even number of players, not 5"): ``players`` x ``dice_per_player``
        each at the start, ``dice_in_play`` dice on the table, or a ``hand`` of that many dice.
        ``None`` values are not checked; without a preset or such a plugin every table passes
        here (the engine still wants two players and a die each)."""
        refusal = self.table_refusal(players, dice_per_player, dice_in_play=dice_in_play, hand=hand)
        if refusal is not None:
            raise BadTableSize(refusal)

    def table_refusal(
        self,
        players: int | None = None,
        dice_per_player: int | None = None,
        *,
        dice_in_play: int | None = None,
        hand: int | None = None,
    ) -> Text | None:
        """Why :meth:`check_table` would refuse this table, or ``None``."""
        if self.preset is not None:
            refusal = self.preset.size.refusal(
                self.preset.name,
                players=players,
                dice=dice_per_player,
                in_play=dice_in_play,
                hand=hand,
            )
            if refusal is not None:
                return refusal
        if players is None and dice_per_player is None:
            return None
        for name in self.order:
            problem = call_one(
                name,
                self.pm,
                "liarsdice_table_problem",
                players=players,
                dice_per_player=dice_per_player,
                options=self.options,
            )
            if problem is not None:
                return _("{plugin}: {problem}", plugin=name, problem=problem)
        return None

    def call_stakes(self, call: str) -> CallStakes | None:
        """What a call of kind ``call`` stands to win or lose here (``liarsdice_call_stakes``:
        the variants in precedence order, then the baseline), or ``None`` when no plugin says:
        the bots then never make it on their own. Asked once per kind; a plugin whose answer
        breaks the contract is a :class:`PluginError` naming it and the hook."""
        if call not in self._stakes:
            answers = (
                call_one(name, self.pm, "liarsdice_call_stakes", call=call, options=self.options)
                for name in (*self.order, BASELINE)
            )
            self._stakes[call] = next((a for a in answers if a is not None), None)
        return self._stakes[call]

    def _bid_kind(self) -> BidKind:
        """The variants' answer to ``liarsdice_bid_kind``, else the baseline's; two variants
        answering kinds of different names are a :class:`~liarsdice.errors.Conflict`."""
        answers = [
            (name, kind)
            for name in (*self.order, BASELINE)
            if (kind := call_one(name, self.pm, "liarsdice_bid_kind", options=self.options))
            is not None
        ]
        for (name, kind), (other, other_kind) in itertools.pairwise(answers):
            if other != BASELINE and kind.name != other_kind.name:
                raise Conflict(
                    _(
                        "{plugin} plays bids of kind {kind} and {other} of kind {other_kind}: "
                        "a table plays one kind of bid",
                        plugin=name,
                        kind=repr(kind.name),
                        other=other,
                        other_kind=repr(other_kind.name),
                    )
                )
        return answers[0][1] if answers else COUNT_OF_FACE

    def _out_of_turn(self, call: CallKind) -> bool:
        """Whether ``call`` is made out of turn in this ruleset (its flag, or its option's
        value); a flag naming an option nobody declared is a :class:`PluginError`."""
        flag = call.out_of_turn
        if not isinstance(flag, str):
            return bool(flag)
        if flag not in self.options:
            raise PluginError(
                f"{call.plugin}: call {call.name!r} is made out of turn where option {flag!r} is "
                "on, but no such option is declared",
                plugin=call.plugin,
            )
        return self.options[flag] is True

    def _check_precedence(self) -> None:
        """Refuse unordered answers to one first-result hook and implementations that can never
        run (:mod:`liarsdice.precedence`)."""
        probes = {"face": FACES, "bid": _PROBE_BIDS, "call": tuple(self.calls)}
        problems = precedence.unordered(self.pm, BASELINE, self.precedes, probes, self.options)
        problems += precedence.unordered_wrappers(self.pm, BASELINE, self.precedes)
        if not problems:
            problems = precedence.unreachable(
                self.pm, BASELINE, self.precedes, probes, self.options
            )
        if problems:
            raise Conflict("; ".join(problems))

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.defaults[k]}
        preset = f", preset={self.preset.name!r}" if self.preset else ""
        return f"Ruleset({list(self.names[1:])!r}, {changed!r}{preset})"

    def option(self, key: str) -> Option:
        """The declaration of option ``key``."""
        for variant in self.variants:
            for option in variant.options:
                if option.key == key:
                    return option
        raise UnknownOption(f"unknown option {key}")

    def describe(self, locale: str = "en") -> str:
        """The rules page of this combination, in Markdown, in ``locale`` (see
        :mod:`liarsdice.rulespage`)."""
        return rulespage.page(self, locale)

    def to_data(self) -> dict[str, JSON]:
        """What :meth:`build` needs to rebuild this ruleset, as JSON-able data:
        ``{"variants": [...], "preset": name or None, "options": {...}}`` (see :meth:`from_data`).

        A ruleset does not pickle (its plugin manager holds modules); this data does, so it
        carries a ruleset to other processes and machines. The options are those the table set:
        each value that differs from its declared default, and each value of an option that another
        variant or the preset sets a default for (such a default applies only when the table leaves
        the option alone).
        """
        declared = {option.key: option.default for v in self.variants for option in v.options}
        defaulted = {key for variant in self.variants for key in variant.info.option_defaults}
        if self.preset is not None:
            defaulted |= set(self.preset.options)
        options = {
            key: value
            for key, value in self.options.items()
            if self.defaults[key] == declared[key] and (value != declared[key] or key in defaulted)
        }
        return {
            "variants": list(self.names[1:]),
            "preset": None if self.preset is None else self.preset.name,
            "options": options,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Ruleset:
        """The ruleset :meth:`to_data` gave ``data``, rebuilt with :meth:`build` (same ``repr``,
        same rules). Raises what :meth:`build` raises, e.g. :class:`UnknownVariant` naming a
        variant that is not installed here."""
        return cls.build(data.get("variants", ()), data.get("options"), data.get("preset"))
