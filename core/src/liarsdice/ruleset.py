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

import bisect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from liarsdice import phrases, precedence, rulespage
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
from liarsdice.i18n import Text, _
from liarsdice.limits import MoveLimit, combine
from liarsdice.memo import Memos
from liarsdice.models import JSON, Bid, GameState, RankKey, opening_state
from liarsdice.options import CallKind, Option
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

FACES = (1, 2, 3, 4, 5, 6)
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
    pluggy itself.
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
        self.hooks = Hooks(self.pm, self.options, baseline.name)
        #: The memoised answers of the hooks whose implementations declare what they read.
        self.memos = Memos(self.pm)
        #: Which steps of a round the engine takes on its fused path (:mod:`liarsdice.plan`).
        self.plan = StepPlan.of(self.hooks, baseline.plugin)
        self._ladders: dict[tuple[int, frozenset[int]], tuple[list[RankKey], list[Bid]]] = {}
        self._ranks: dict[Bid, RankKey] = {}
        self._limits: dict[tuple[int, int], MoveLimit] = {}
        #: The faces refused all game when no ``face_allowed`` implementation reads the state or
        #: the player (asked once, here, instead of on every turn); ``None`` when they may change.
        fixed = not self.hooks.reads["face_allowed"] & {"state", "player"}
        self.fixed_refusals = self._refusals(None, None) if fixed else None

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

    def ladder(
        self, dice_in_play: int, refused: frozenset[int] = frozenset()
    ) -> tuple[list[RankKey], list[Bid]]:
        """Every bid with quantity 1..``dice_in_play`` and a face not in ``refused``, sorted by
        rank: (rank keys, bids)."""
        key = (dice_in_play, refused)
        if key not in self._ladders:
            rank = self.rank
            bids = sorted(
                (Bid(q, f) for q in range(1, dice_in_play + 1) for f in FACES if f not in refused),
                key=rank,
            )
            self._ladders[key] = ([rank(bid) for bid in bids], bids)
        return self._ladders[key]

    def rank(self, bid: Bid) -> RankKey:
        """``liarsdice_bid_rank`` of ``bid``, asked once per bid: a rank depends on the bid and
        the options only (the hook's contract), and the bids that reach it are the valid ones."""
        found = self._ranks.get(bid)
        if found is None:
            found = self._ranks[bid] = self.hooks.bid_rank(bid)
        return found

    def move_limit(self, players: int, dice_per_player: int) -> MoveLimit:
        """The most moves (accepted bids, calls and timeouts) a game of these rules may take at a
        table of ``players`` x ``dice_per_player``, and how that number follows from the plugins'
        ``liarsdice_game_limit`` answers (see :mod:`liarsdice.limits`). A game with no winner
        after ``move_limit(...).moves`` moves is stuck."""
        if players < 1 or dice_per_player < 1:
            raise ValueError(f"no table of {players} players x {dice_per_player} dice")
        key = (players, dice_per_player)
        if key not in self._limits:
            answers = [
                (
                    name,
                    call_one(
                        name,
                        self.pm,
                        "liarsdice_game_limit",
                        players=players,
                        dice_per_player=dice_per_player,
                        options=self.options,
                    ),
                )
                for name in (*self.order, BASELINE)
            ]
            ladder = len(self.ladder(players * dice_per_player)[1])
            self._limits[key] = combine(players, dice_per_player, ladder, answers)
        return self._limits[key]

    def bids_above(self, bid: Bid | None, dice_in_play: int) -> list[Bid]:
        """Bids of the ladder that rank above ``bid`` (all of them when ``bid`` is None)."""
        keys, bids = self.ladder(dice_in_play)
        if bid is None:
            return bids
        return bids[bisect.bisect_right(keys, self.rank(bid)) :]

    def refused_faces(self, state: GameState, player: str) -> frozenset[int]:
        """The faces ``player`` may not name in a bid now, by the ``face_allowed`` hook."""
        if self.fixed_refusals is not None:
            return self.fixed_refusals
        return self._refusals(state, player)

    def _refusals(self, state: GameState | None, player: str | None) -> frozenset[int]:
        return frozenset(
            face
            for face in FACES
            if self.face_refusal(state, player, face) is not None  # type: ignore[arg-type]
        )

    def face_refusal(self, state: GameState, player: str, face: int) -> str | Text | None:
        """Why ``player`` may not name ``face`` now (``face_allowed``), or None if they may."""
        allowed = self.hooks.face_allowed(state, player, face)
        if isinstance(allowed, str | Text):
            return allowed
        if allowed is False:
            return _("bids on {faces} are not allowed now", faces=phrases.faces(face))
        return None

    def wild_faces(self, state: GameState | None = None) -> frozenset[int]:
        """The faces that are wild at ``state`` (default: the start of a game's first round):
        those the ``matching_faces`` hook counts toward a bid on every other face. ``{1}`` with
        wild ones, ``{6}`` with wild sixes, empty once ones are locked or in a palifico round.
        Odds pages, the CLI and the rules page ask this instead of assuming ones."""
        state = opening_state(10) if state is None else state
        matching = self.hooks.matching_faces
        counted = {face: matching(state, face) for face in FACES}
        return frozenset(
            wild for wild in FACES if all(wild in counted[face] for face in FACES if face != wild)
        )

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
