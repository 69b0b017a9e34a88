"""Hook contracts: what each hook's answer must be, checked on its way out of a plugin.

:data:`CONTRACTS` holds one :class:`Contract` per game hook (after the docstrings of
:mod:`liarsdice.hookspecs`) and per hook asked of one plugin at a time (:func:`call_one`). A
plugin whose implementation raises is reported as :class:`~liarsdice.errors.HookFailed`, one whose
answer breaks the contract (a wrong type, a seat that is not at the table) as
:class:`~liarsdice.errors.BadHookResult`; both name the plugin and the hook.
:mod:`liarsdice.dispatch` writes the checks into each hook's generated function.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import pluggy

from liarsdice.bidkinds import BidKind
from liarsdice.discovery import call_on
from liarsdice.errors import BadHookResult, HookFailed, IllegalAction, PluginError, RulesetError
from liarsdice.events import EFFECT_TYPES
from liarsdice.i18n import Text
from liarsdice.models import Bid, GameState, Resolution
from liarsdice.options import CallStakes
from liarsdice.rulestext import RulesText

PASS_THROUGH = (PluginError, RulesetError, IllegalAction)
"""Errors a hook implementation may raise on purpose: they reach the caller unchanged (a
:class:`PluginError` raised by a nested hook call already names its plugin)."""

ALL_FACES = frozenset(range(1, 7))
EFFECT_CLASSES = frozenset(EFFECT_TYPES)  # exactly these: the reducer knows no subclass
_SHOWN = 80


# --- messages -------------------------------------------------------------------------------------


def shown(value: Any) -> str:
    """``repr(value)``, cut to 80 characters, for error messages."""
    try:
        text = repr(value)
    except Exception:  # a plugin's object with a broken __repr__
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def where(plugin: str, hook: str) -> str:
    """How messages name an implementation: ``"revolver's liarsdice_settle"``."""
    return f"{plugin}'s {hook}"


def failed(plugin: str, hook: str, error: BaseException) -> HookFailed:
    """The :class:`HookFailed` for ``error``, raised inside ``plugin``'s ``hook`` (chain it with
    ``raise ... from error``)."""
    detail = str(error)
    what = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    return HookFailed(f"{where(plugin, hook)} raised {what}", plugin=plugin, hook=hook)


def bad(plugin: str, hook: str, tail: str) -> BadHookResult:
    """The :class:`BadHookResult` saying ``"<plugin>'s <hook> <tail>"``."""
    return BadHookResult(f"{where(plugin, hook)} {tail}", plugin=plugin, hook=hook)


# --- contracts ------------------------------------------------------------------------------------

Check = Callable[..., "str | None"]
"""``check(answer, *needs)``: ``None`` when a non-``None`` answer keeps the contract, else the end
of the sentence that starts with the plugin and the hook (``"returned 42: expected ..."``)."""


@attrs.frozen
class Contract:
    """What a hook's implementations may answer, besides ``None``.

    ``check`` decides; ``needs`` are the arguments of the call it reads as well (``"state"`` for
    the hooks that name a seat). ``fast`` is Python code written into the hook's function: an
    expression in terms of the answer ``_r`` (and the call's arguments) that is true only for good
    answers, or a block that runs ``{slow}`` when the answer may be bad. ``check`` runs only then,
    to say what is wrong (or to accept an unusual but good answer, such as a ``set`` of faces).
    ``expected`` says in a few words what the hook returns.
    """

    expected: str
    check: Check
    needs: tuple[str, ...] = ()
    fast: str = ""


def _expecting(expected: str, test: Callable[[Any], bool]) -> Check:
    def check(answer: Any) -> str | None:
        return None if test(answer) else f"returned {shown(answer)}: expected {expected}"

    return check


def _rank(answer: Any) -> bool:
    return isinstance(answer, tuple) and all(
        isinstance(key, numbers.Real) and not isinstance(key, bool) for key in answer
    )


def _reason(answer: Any) -> bool:
    return (isinstance(answer, str) and answer != "") or isinstance(answer, Text)


def _bid_reasons(answer: Any, bids: Sequence[Any]) -> str | None:
    """Why ``answer`` is not one reason or ``None`` for each of ``bids``, or ``None``."""
    if not isinstance(answer, list | tuple) or len(answer) != len(bids):
        return (
            f"returned {shown(answer)}: expected a list of {len(bids)} entries, one reason or None "
            "for each bid asked about"
        )
    for index, entry in enumerate(answer):
        if entry is not None and not _reason(entry):
            return f"returned {shown(entry)} for {bids[index]}: expected {_REASON}"
    return None


def _face_answer(answer: Any) -> bool:
    return answer is True or answer is False or _reason(answer)


def _faces(answer: Any) -> bool:
    return isinstance(answer, set | frozenset) and all(
        type(face) is int and 1 <= face <= 6 for face in answer
    )


_JSON_SCALARS = frozenset({str, int, bool, type(None)})


def json_problem(value: Any) -> str | None:
    """Why ``value`` is not a JSON value (``None`` when it is): null, booleans, numbers (finite),
    strings, lists (or tuples) and objects with string keys."""
    stack = [value]
    budget = 100_000  # items looked at, so that a list that holds itself ends
    while stack:
        budget -= 1
        if not budget:
            return "it is too big, or holds itself"
        item = stack.pop()
        kind = item.__class__
        if kind in _JSON_SCALARS:
            continue
        if kind is list or kind is tuple:
            stack.extend(item)
        elif isinstance(item, Mapping):
            for key in item:
                if key.__class__ is not str:
                    return f"the key {shown(key)} is not a string"
            stack.extend(item.values())
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"{item!r} is not a JSON number"
        elif isinstance(item, str | int | list | tuple):  # subclasses
            stack.extend(item if isinstance(item, list | tuple) else ())
        else:
            return f"{shown(item)} is not a JSON value"
    return None


def _public(answer: Any) -> str | None:
    if not isinstance(answer, Mapping):
        return f"returned {shown(answer)}: expected a mapping of public facts (JSON) or None"
    problem = json_problem(answer)
    return None if problem is None else f"returned {shown(answer)}: {problem}"


def _effects(answer: Any) -> str | None:
    if not isinstance(answer, list | tuple):
        return f"returned {shown(answer)}: return a list of effects"
    for effect in answer:
        if effect.__class__ not in EFFECT_CLASSES:
            return f"returned {shown(effect)}, which is not an effect"
    return None


def seated(state: GameState, name: str, living: bool) -> bool:
    """True when ``name`` sits at ``state``'s table (and is alive, with ``living``)."""
    for player in state.players:
        if player.name == name:
            return player.alive or not living
    return False


def _seat(answer: Any, state: GameState | None, *, living: bool) -> str | None:
    who = "a living player" if living else "a player at the table"
    if not isinstance(answer, str):
        return f"returned {shown(answer)}: expected the name of {who}"
    if state is not None and not seated(state, answer, living):
        return f"named {answer!r}, who is not {who}"
    return None  # without a state (asked outside a game) there are no seats to check


def _opener(answer: Any, state: GameState | None) -> str | None:
    return _seat(answer, state, living=False)


def _turn(answer: Any, state: GameState | None) -> str | None:
    return _seat(answer, state, living=True)


def good_ruling(answer: Any, state: GameState | None) -> bool:
    """The usual case of :func:`_ruling`, quickly: a ruling on players at the table."""
    if state is None or answer.__class__ is not Resolution:
        return False
    losers, winners, count = answer.losers, answer.winners, answer.count
    if not (
        losers.__class__ is tuple
        and winners.__class__ is tuple
        and answer.call.__class__ is str
        and (count is None or count.__class__ is int)
        and (answer.bid is None or answer.bid.__class__ is Bid)
        and (answer.bidder is None or answer.bidder.__class__ is str)
    ):
        return False
    names = {player.name for player in state.players}
    return answer.caller in names and names.issuperset(losers) and names.issuperset(winners)


def _ruling(answer: Any, state: GameState | None) -> str | None:
    if not isinstance(answer, Resolution):
        return f"returned {shown(answer)}: expected a Resolution or None"
    seated = None if state is None else {player.name for player in state.players}
    for field in ("losers", "winners"):
        names = getattr(answer, field)
        if not isinstance(names, tuple) or not all(isinstance(name, str) for name in names):
            return f"returned {shown(answer)}: its {field} must be a tuple of player names"
        strangers = [name for name in names if seated is not None and name not in seated]
        if strangers:
            return f"returned a ruling whose {field} name {strangers[0]!r}, who is not at the table"
    for field in ("call", "caller"):
        if not isinstance(getattr(answer, field), str):
            return f"returned {shown(answer)}: its {field} must be a str"
    if seated is not None and answer.caller not in seated:
        return f"returned a ruling whose caller {answer.caller!r} is not at the table"
    if answer.count is not None and type(answer.count) is not int:
        return f"returned {shown(answer)}: its count must be an int or None"
    if not isinstance(answer.bid, Bid | None) or not isinstance(answer.bidder, str | None):
        return f"returned {shown(answer)}: its bid must be a Bid and its bidder a name, or None"
    return None


def good_names(answer: Any, state: GameState | None, may_be_empty: bool) -> bool:
    """The usual case of :func:`_winners` and :func:`_others`, quickly: a tuple of distinct
    names at the table (not empty, unless ``may_be_empty``)."""
    if answer.__class__ is not tuple or state is None or not (answer or may_be_empty):
        return False
    names = {player.name for player in state.players}
    return len(set(answer)) == len(answer) and names.issuperset(answer)


def _names(answer: Any, state: GameState | None, what: str) -> str | None:
    if not isinstance(answer, list | tuple) or not all(isinstance(n, str) for n in answer):
        return f"returned {shown(answer)}: expected a tuple of player names ({what})"
    if len(set(answer)) != len(answer):
        return f"returned {shown(answer)}: a player is named twice"
    strangers = [name for name in answer if state is not None and not seated(state, name, False)]
    if strangers:
        return f"named {strangers[0]!r}, who is not at the table"
    return None


def _winners(answer: Any, state: GameState | None) -> str | None:
    if isinstance(answer, list | tuple) and not answer:
        return "returned no winners: return None to play on, or name at least one"
    return _names(answer, state, "the winners")


def _others(answer: Any, state: GameState | None, player: str | None) -> str | None:
    problem = _names(answer, state, "the player's partners")
    if problem is None and player in answer:
        return f"named {player!r} as their own partner"
    return problem


def _choices(answer: Any) -> str | None:
    # Only the type: the values go into payloads, which the engine checks for JSON when given.
    if answer.__class__ is list or isinstance(answer, list | tuple):
        return None
    return f"returned {shown(answer)}: expected a list of payload values or None"


_EFFECTS_CHECK = """\
if _r.__class__ is not list and _r.__class__ is not tuple:
    {slow}
else:
    for _x in _r:
        if _x.__class__ not in EFFECT_CLASSES:
            {slow}
            break
"""

_RANK_CHECK = """\
if _r.__class__ is not tuple:
    {slow}
else:
    for _x in _r:
        if _x.__class__ is not int and _x.__class__ is not float:
            {slow}
            break
"""


_REASON = "None or a reason (a non-empty str or a Text)"
_REASON_CHECK = "(_r.__class__ is str and _r != '') or _r.__class__ is Text"
_SEATED = "_r.__class__ is str and state is not None and _seated(state, _r, {which})"

CONTRACTS: Mapping[str, Contract] = {
    "liarsdice_bid_rank": Contract(
        "a tuple of numbers",
        _expecting("a tuple of numbers (the bid's rank key)", _rank),
        fast=_RANK_CHECK,
    ),
    "liarsdice_face_allowed": Contract(
        "True, False, a reason (a non-empty str or a Text) or None",
        _expecting("True, False, a reason (a non-empty str or a Text) or None", _face_answer),
        fast=f"_r is True or _r is False or {_REASON_CHECK}",
    ),
    "liarsdice_bid_problem": Contract(_REASON, _expecting(_REASON, _reason), fast=_REASON_CHECK),
    "liarsdice_bid_problems": Contract(
        "None, or one reason or None for each bid asked about", _bid_reasons, ("bids",)
    ),
    "liarsdice_call_problem": Contract(_REASON, _expecting(_REASON, _reason), fast=_REASON_CHECK),
    "liarsdice_matching_faces": Contract(
        "a frozenset of faces 1-6",
        _expecting("a frozenset of faces 1-6", _faces),
        fast="_r.__class__ is frozenset and _r <= ALL_FACES",
    ),
    "liarsdice_resolve_call": Contract(
        "a Resolution or None", _ruling, ("state",), fast="good_ruling(_r, state)"
    ),
    "liarsdice_timeout": Contract(
        "a Resolution or None", _ruling, ("state",), fast="good_ruling(_r, state)"
    ),
    "liarsdice_first_opener": Contract(
        "a player at the table", _opener, ("state",), fast=_SEATED.format(which=False)
    ),
    "liarsdice_next_opener": Contract(
        "a player at the table", _opener, ("state",), fast=_SEATED.format(which=False)
    ),
    "liarsdice_next_turn": Contract(
        "a living player", _turn, ("state",), fast=_SEATED.format(which=True)
    ),
    "liarsdice_player_public": Contract("a mapping of JSON values", _public),
    "liarsdice_game_winners": Contract(
        "the names of the winners", _winners, ("state",), fast="good_names(_r, state, False)"
    ),
    "liarsdice_partners": Contract(
        "the names of other players",
        _others,
        ("state", "player"),
        fast="good_names(_r, state, True) and player not in _r",
    ),
    "liarsdice_dice_visible": Contract(
        "True or False",
        _expecting("True or False", lambda a: a is True or a is False),
        fast="_r is True or _r is False",
    ),
    "liarsdice_settle": Contract("a list of effects", _effects, fast=_EFFECTS_CHECK),
    "liarsdice_round_started": Contract("a list of effects", _effects, fast=_EFFECTS_CHECK),
    "liarsdice_bid_made": Contract("a list of effects", _effects, fast=_EFFECTS_CHECK),
    "liarsdice_call_made": Contract("a list of effects", _effects, fast=_EFFECTS_CHECK),
    # Called on each plugin on its own (call_one), not through Hooks:
    "liarsdice_bid_kind": Contract(
        "a BidKind or None",
        _expecting("a BidKind or None", lambda answer: isinstance(answer, BidKind)),
    ),
    "liarsdice_call_stakes": Contract(
        "a CallStakes or None",
        _expecting("a CallStakes or None", lambda answer: isinstance(answer, CallStakes)),
    ),
    "liarsdice_combination_problem": Contract(_REASON, _expecting(_REASON, _reason)),
    "liarsdice_table_problem": Contract(_REASON, _expecting(_REASON, _reason)),
    "liarsdice_payload_choices": Contract("a list of JSON values", _choices),
    "liarsdice_describe": Contract(
        "a str, a Text or a RulesText",
        _expecting(
            "a str or Text (Markdown) or a RulesText, or None",
            lambda a: isinstance(a, str | Text | RulesText),
        ),
    ),
}
"""The contract of every game hook and of the per-plugin hooks that ``call_one`` asks."""


def check_answer(plugin: str, hook: str, answer: Any, *needs: Any) -> Any:
    """``answer`` if it keeps ``hook``'s contract (or is ``None``); else raise
    :class:`BadHookResult` naming ``plugin`` and ``hook``. ``needs`` as the contract says."""
    contract = CONTRACTS.get(hook)
    if answer is None or contract is None:
        return answer
    problem = contract.check(answer, *needs)
    if problem is not None:
        raise bad(plugin, hook, problem)
    return answer


def call_one(plugin: str, pm: pluggy.PluginManager, hook: str, **kwargs: Any) -> Any:
    """:func:`liarsdice.discovery.call_on`, checked: ``hook`` asked of ``plugin`` alone, an
    exception raised inside it reported as :class:`HookFailed` and a bad answer as
    :class:`BadHookResult` (for the per-plugin hooks in :data:`CONTRACTS`)."""
    try:
        answer = call_on(plugin, pm, hook, **kwargs)
    except PASS_THROUGH:
        raise
    except Exception as error:
        raise failed(plugin, hook, error) from error
    contract = CONTRACTS.get(hook)
    needs = () if contract is None else tuple(kwargs.get(name) for name in contract.needs)
    return check_answer(plugin, hook, answer, *needs)
