"""liarsdice: a pluggable rules engine for Liar's Dice and its family.

Build a :class:`Ruleset` from variant names and options, then play it with :class:`Game` (or the
pure functions in :mod:`liarsdice.engine`). Write a variant with :data:`hookimpl`; the hooks are
specified in :mod:`liarsdice.hookspecs`.
"""

from liarsdice.bidkinds import COUNT_OF_FACE, BidKind
from liarsdice.chance import RiggedRandom, rigged
from liarsdice.errors import BadHookResult, HookFailed, IllegalAction, PluginError, RulesetError
from liarsdice.events import (
    DiceChanged,
    DiceRerolled,
    DiceShown,
    Eliminated,
    Notice,
    PluginStateSet,
    PrivateStateSet,
)
from liarsdice.game import Game
from liarsdice.hookspecs import hookimpl, hookspec
from liarsdice.limits import GameLimit, StuckGame
from liarsdice.models import (
    Bid,
    BidAction,
    CallAction,
    GameState,
    Payload,
    PlayerState,
    RankKey,
    Resolution,
    RoundState,
    TimeoutAction,
)
from liarsdice.options import CallRegistry, CallStakes, OptionRegistry, Options, Payoff, VariantInfo
from liarsdice.reads import reads
from liarsdice.ruleset import Ruleset

__all__ = [
    "COUNT_OF_FACE",
    "BadHookResult",
    "Bid",
    "BidAction",
    "BidKind",
    "CallAction",
    "CallRegistry",
    "CallStakes",
    "DiceChanged",
    "DiceRerolled",
    "DiceShown",
    "Eliminated",
    "Game",
    "GameLimit",
    "GameState",
    "HookFailed",
    "IllegalAction",
    "Notice",
    "OptionRegistry",
    "Options",
    "Payload",
    "Payoff",
    "PlayerState",
    "PluginError",
    "PluginStateSet",
    "PrivateStateSet",
    "RankKey",
    "Resolution",
    "RiggedRandom",
    "RoundState",
    "Ruleset",
    "RulesetError",
    "StuckGame",
    "TimeoutAction",
    "VariantInfo",
    "hookimpl",
    "hookspec",
    "reads",
    "rigged",
]
