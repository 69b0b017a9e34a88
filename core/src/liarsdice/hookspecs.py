"""Hook specifications: the contract between the engine and every rules plugin.

A plugin is any object (usually a module) with functions marked ``@liarsdice.hookimpl`` whose names
are listed here. An implementation may accept any subset of a hook's arguments, so hooks can grow
new arguments without breaking plugins. Hooks never mutate their arguments: state changes are
returned as *effects* (:data:`liarsdice.events.Effect`) that the engine applies.

Arguments shared by many hooks:

- ``state`` (:class:`~liarsdice.models.GameState`): the game as it is now, read-only.
- ``options`` (mapping ``"plugin.option" -> value``): every option of the ruleset, resolved.
- ``player`` (str): the name of the player acting.
- ``rules`` (:class:`~liarsdice.ruleset.Ruleset`): the ruleset being played, for questions only
  the whole ruleset answers, such as who plays after a player here
  (:func:`liarsdice.engine.next_player`: a variant may play anticlockwise). Read-only: never play
  moves with it. Taken by the hooks of :data:`TAKE_RULES` (not by ``liarsdice_next_turn``, which
  ``next_player`` asks).

Plugin-owned public state lives in ``state.plugins[plugin_name]`` and changes only through
:class:`~liarsdice.events.PluginStateSet` effects: every player's view carries it. A secret goes in
per-player private state (:class:`~liarsdice.events.PrivateStateSet`), which only its owner sees
until the cups are lifted.

"firstresult" hooks stop at the first implementation that returns something other than ``None``.
The variants are asked in their declared precedence order (``VariantInfo.before``/``after``); the
baseline plugin ``standard`` is a fallback, asked only when no variant answers. The other hooks
collect every non-``None`` result, in the same order, the baseline last. ``tryfirst``/``trylast``
are refused: order is declared, never implied.

Words players read (titles, summaries, option labels, call names, reasons, notices, rules text)
may be plain strings or :class:`~liarsdice.i18n.Text` made with the plugin's own catalog
(``_, _n = Catalog(__name__).markers()``): those are read in each player's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

import pluggy

from liarsdice.bidkinds import BidKind
from liarsdice.events import Effect
from liarsdice.i18n import Text
from liarsdice.limits import GameLimit
from liarsdice.models import JSON, Action, Bid, GameState, Payload, RankKey, Resolution
from liarsdice.options import CallRegistry, CallStakes, OptionRegistry, Options, VariantInfo
from liarsdice.presets import PresetRegistry
from liarsdice.rulestext import RulesText

Ruleset = Any
"""``rules``: a :class:`liarsdice.ruleset.Ruleset` (built on these specs, so not imported here)."""

PROJECT = "liarsdice"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

TAKE_RULES = frozenset(
    {
        "liarsdice_face_allowed",
        "liarsdice_bid_problem",
        "liarsdice_bid_problems",
        "liarsdice_call_problem",
        "liarsdice_call_made",
        "liarsdice_resolve_call",
        "liarsdice_settle",
        "liarsdice_timeout",
        "liarsdice_next_opener",
        "liarsdice_round_started",
        "liarsdice_bid_made",
        "liarsdice_describe",
    }
)
"""The hooks whose implementations may take ``rules``, the ruleset being played."""


# --- registration: called on each plugin separately, once per process at discovery ---------------


@hookspec
def liarsdice_variant_info() -> VariantInfo:  # type: ignore[empty-body]
    """Describe this plugin: title, one-line summary, requirements, conflicts, economics.

    Every plugin must implement it. Called on each plugin separately.
    """


@hookspec
def liarsdice_register_options(options: OptionRegistry) -> None:
    """Declare this plugin's options with ``options.add(name, default, help, ...)``.

    Called on each plugin separately; the registry prefixes names with the plugin's name, so
    ``options.add("wild_ones", True, ...)`` in plugin ``standard`` declares ``standard.wild_ones``.
    """


@hookspec
def liarsdice_register_calls(calls: CallRegistry) -> None:
    """Register the call kinds this plugin adds, with ``calls.add(name, help, ends_round=True)``.

    The core's ``standard`` plugin registers ``"challenge"``. A call kind that ends the round needs
    a plugin that resolves it (:func:`liarsdice_resolve_call`); one registered with
    ``ends_round=False`` continues the round (:func:`liarsdice_call_made`).
    """


@hookspec
def liarsdice_register_presets(presets: PresetRegistry) -> None:
    """Add named presets with ``presets.add(name, title=..., source=..., summary=..., variants=...,
    options=...)``.

    Called on every installed plugin, whether or not it is in a ruleset, when presets are listed or
    a ruleset is built from a preset.
    """


@hookspec
def liarsdice_combination_problem(variants: Sequence[str], options: Options) -> str | Text | None:
    """Refuse a combination this plugin cannot play in, or return ``None`` to accept it.

    :param variants: every variant name in the ruleset, ``"standard"`` included.
    :return: a reason naming both sides (for example "ones-locking needs standard.wild_ones=true"),
        or ``None``. All plugins are asked; every reason is reported.
    """


# --- bid ordering -------------------------------------------------------------------------------


@hookspec(firstresult=True)
def liarsdice_bid_kind(options: Options) -> BidKind | None:
    """The kind of bid this ruleset plays (a :class:`~liarsdice.bidkinds.BidKind`: its fields,
    words, range and truth function on the revealed dice), or ``None`` to leave it alone.

    The baseline answers :data:`~liarsdice.bidkinds.COUNT_OF_FACE` ("at least 3 fours"). A
    variant that plays another kind (a sum of pips) answers its own and also answers
    ``liarsdice_bid_rank`` for its bids; two variants answering kinds of different names cannot
    be played together (:class:`~liarsdice.errors.Conflict`). Asked once per ruleset, of each
    plugin (:attr:`liarsdice.Ruleset.bid_kind`).
    """


@hookspec(firstresult=True)
def liarsdice_bid_rank(bid: Bid, options: Options) -> RankKey:  # type: ignore[empty-body]
    """The sort key of ``bid`` in the total order of bids: a raise must have a greater key.

    Keys are tuples of numbers, distinct for distinct bids. The rank must not depend on
    the game state, only on the bid and the options: the ruleset sorts the bid ladder once.
    Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def liarsdice_face_allowed(
    state: GameState, player: str, face: int, rules: Ruleset, options: Options
) -> bool | str | Text | None:
    """May ``player`` name ``face`` in a bid right now?

    :return: ``True`` to allow, a reason string to refuse (``False`` refuses with a generic
        reason), ``None`` to leave it to later plugins (the baseline refuses ones while they are
        wild). Stops at the first non-``None`` result.
    """


@hookspec
def liarsdice_bid_problem(
    state: GameState, player: str, bid: Bid, payload: Payload, rules: Ruleset, options: Options
) -> str | Text | None:
    """Why ``bid`` by ``player`` is illegal now, or ``None`` if this plugin has no objection.

    The engine itself checks whose turn it is, that the bid ranks above the bid on the table and
    that every key of ``payload`` names a plugin that reads bid payloads; plugins add rules of
    their own (quantity bounds, a fixed face in a palifico round) and check the value under their
    own name in ``payload`` (empty when the bid carries none). Every plugin is asked and every
    reason is reported.
    """


@hookspec
def liarsdice_bid_problems(
    state: GameState, player: str, bids: Sequence[Bid], rules: Ruleset, options: Options
) -> Sequence[str | Text | None] | None:
    """The batch form of :func:`liarsdice_bid_problem`: for each bid of ``bids``, in order, why
    ``player`` may not make it now (with no payload), or ``None``; ``None`` for no objection to
    any.

    Asked once per turn over the candidate bids where the legal bids are listed, and with one bid
    to check a bid, for a plugin that does not implement the per-bid form. Implement it where one
    look at the state answers for every bid (a fixed face in a palifico round); the engine asks a
    plugin that implements only the per-bid form once per candidate. A plugin that implements both
    has its per-bid form asked to check a bid, which sees the payload, and its batch form to list
    the legal bids: they must agree (a law checks it). Collect-all.
    """


# --- counting -----------------------------------------------------------------------------------


@hookspec(firstresult=True)
def liarsdice_matching_faces(state: GameState, face: int, options: Options) -> frozenset[int]:  # type: ignore[empty-body]
    """The die faces that count toward a bid on ``face`` right now.

    For example ``{face, 1}`` with wild ones, ``{face}`` once ones are locked. The engine counts a
    call with it, and the odds and bots derive their probabilities from it. Stops at the first
    non-``None`` result.
    """


# --- calls --------------------------------------------------------------------------------------


@hookspec
def liarsdice_call_problem(
    state: GameState, player: str, call: str, payload: Payload, rules: Ruleset, options: Options
) -> str | Text | None:
    """Why ``player`` may not make a call of kind ``call`` now, or ``None``.

    The engine itself checks the turn, that the call kind is registered, that there is a bid to
    call and that every key of ``payload`` names a plugin that reads that call's payload. Every
    plugin is asked (about every kind: check ``call`` first) and every reason is reported.
    """


@hookspec
def liarsdice_call_made(
    state: GameState,
    player: str,
    call: str,
    payload: Payload,
    rng: Random,
    rules: Ruleset,
    options: Options,
) -> Sequence[Effect] | None:
    """``player`` made a call of kind ``call`` that does not end the round (registered with
    ``ends_round=False``; ``CallMade`` is in ``state``). Return effects to apply, or ``None``.

    As for :func:`liarsdice_bid_made`, effects may set public and private plugin state, show and
    reroll dice and post notices, but not change dice counts or eliminate anyone. Then the turn
    passes (:func:`liarsdice_next_turn`). Collect-all.
    """


@hookspec(firstresult=True)
def liarsdice_resolve_call(
    state: GameState, player: str, call: str, count: int, rules: Ruleset, options: Options
) -> Resolution | None:
    """Rule on a call of kind ``call`` by ``player`` against the bid on the table.

    :param count: how many dice match the bid (counted with :func:`liarsdice_matching_faces`).
    :return: a :class:`~liarsdice.models.Resolution` naming losers and winners, or ``None`` if
        this plugin does not resolve that kind. Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def liarsdice_call_stakes(call: str, options: Options) -> CallStakes | None:
    """What a call of kind ``call`` stands to win or lose, for the bots: when it is right (the
    bid on the table is false, exactly right or true, by the count) and what each outcome deals
    out, in lost rounds to the caller, the bidder and each other living player, and dice the
    caller regains (a :class:`~liarsdice.options.CallStakes`).

    Answer it for each call kind you register that is settled by the count, as your
    ``liarsdice_resolve_call`` and ``liarsdice_settle`` rule it; ``None`` for other kinds. The
    odds, bayes and mixed bots weigh a call with stakes like a challenge or an exact call, and
    never make a call without (a ``pass``, a doubt of one). Asked once per call kind and ruleset
    (:meth:`liarsdice.Ruleset.call_stakes`); the baseline answers ``"challenge"``. Stops at the
    first non-``None`` result.
    """


# --- penalty economics ------------------------------------------------------------------------


@hookspec
def liarsdice_settle(
    state: GameState, resolution: Resolution, rng: Random, rules: Ruleset, options: Options
) -> Sequence[Effect] | None:
    """Turn a ruling into effects: lose a die, load a bullet and pull, regain a die, ...

    Every plugin is asked, and all effects are applied in order; effects on a player who is already
    out are dropped, and a loss of more dice than a player holds takes what is there. ``state`` is
    the state with the ruling recorded. Draw any randomness from ``rng`` (see
    :func:`liarsdice.chance.rigged`). A player left with no dice is eliminated by the engine.
    """


@hookspec(firstresult=True)
def liarsdice_timeout(
    state: GameState, player: str, rules: Ruleset, options: Options
) -> Resolution | None:
    """What a timeout by ``player`` costs, as a ruling that :func:`liarsdice_settle` then prices.

    The baseline rules it a lost round for ``player`` (call ``"timeout"``, no reveal). Stops at
    the first non-``None`` result.
    """


@hookspec
def liarsdice_game_limit(players: int, dice_per_player: int, options: Options) -> GameLimit | None:
    """How long this plugin lets a game at a table of ``players`` x ``dice_per_player`` last, or
    ``None`` if it does not change that.

    An economics plugin states the most rounds a game can last (``GameLimit(rounds=...)``:
    ``dice-loss`` answers ``players * dice_per_player - 1``, since every lost round costs a die);
    a plugin that lengthens games says by how much (``rounds_factor``, ``extra_rounds``), and one
    that adds turns to a round without a bid says how many (``extra_turns``). The ruleset takes
    the largest ``rounds`` (:data:`~liarsdice.limits.DEFAULT_ROUNDS` if nobody states one),
    multiplies and adds the rest, and allows rounds x (the bid ladder + 1 + extra turns) moves
    (:meth:`liarsdice.Ruleset.move_limit`); a game with no winner by then is stuck, and the law
    "every game ends within the ruleset's move limit" fails. Called on each plugin separately.
    """


@hookspec
def liarsdice_table_problem(
    players: int | None, dice_per_player: int | None, options: Options
) -> str | Text | None:
    """Why this plugin's rules cannot be played at a table of ``players`` with
    ``dice_per_player`` dice each (``None``: not known yet, so not for you to judge), or ``None``
    when they can: ``teams`` refuses an odd number of players. Asked of each plugin on its own by
    :meth:`liarsdice.Ruleset.check_table`, so wherever a table is set up (``new_game``,
    ``simulate``, tournaments, the CLI, the demo); a reason refuses the table with
    :class:`~liarsdice.errors.BadTableSize`, prefixed with the plugin's name.
    """


@hookspec(firstresult=True)
def liarsdice_game_winners(state: GameState, options: Options) -> Sequence[str] | None:
    """Whether the game is over, and who won it: the names of its winners (one or several players
    at the table, living or out, each once), or ``None`` to play on.

    Asked after each round is settled, once its effects are applied and the players left with no
    dice are out (``state`` is that state). Winners end the game with a ``GameWon`` naming them
    all. The baseline answers the last living player, when only one is left. A game that goes on
    needs two living players: nobody named with fewer is a :class:`~liarsdice.errors.PluginError`.
    Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def liarsdice_partners(state: GameState, player: str, options: Options) -> Sequence[str] | None:
    """The other players on ``player``'s side: whose lost round is ``player``'s loss too (a
    team-mate), never ``player``. The bots play for their side, and the demo's ratings rate a
    side as a team. The baseline answers nobody: everyone plays for themselves. Stops at the first
    non-``None`` result.
    """


# --- openers ------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def liarsdice_first_opener(state: GameState, rng: Random, options: Options) -> str | None:
    """The player who opens the first round. Stops at the first non-``None`` result."""


@hookspec(firstresult=True)
def liarsdice_next_opener(
    state: GameState, resolution: Resolution, rules: Ruleset, options: Options
) -> str | None:
    """The player who opens the round after ``resolution``, given the state after settling.

    If the player named is out, the next living player clockwise opens. Stops at the first
    non-``None`` result.
    """


# --- flow notifications -------------------------------------------------------------------------


@hookspec
def liarsdice_round_started(
    state: GameState, rng: Random, rules: Ruleset, options: Options
) -> Sequence[Effect] | None:
    """A round has started (dice rolled, opener set); return effects to apply, or ``None``.

    Dice are in play now: effects here may set public and private plugin state, show or reroll
    dice (drawing from ``rng``) and post notices, but changing how many dice a player holds or
    eliminating a player is a :class:`~liarsdice.errors.PluginError` (do that in settling).
    """


@hookspec
def liarsdice_bid_made(
    state: GameState,
    player: str,
    bid: Bid,
    payload: Payload,
    rng: Random,
    rules: Ruleset,
    options: Options,
) -> Sequence[Effect] | None:
    """``player`` has bid ``bid`` with ``payload`` (already in ``state``: the bid is on the table
    and the turn has passed clockwise); return effects to apply, or ``None``.

    For example ones-locking records that ones are locked for the rest of the round, and bluff
    shows the dice named in its payload and rerolls the rest. As for
    :func:`liarsdice_round_started`, effects here may not change dice counts or eliminate anyone.
    """


@hookspec(firstresult=True)
def liarsdice_next_turn(state: GameState, player: str, options: Options) -> str | None:
    """Who acts after ``player``, who has just bid or made a call that does not end the round
    (the effects of that action are in ``state``). Must name a living player.

    The baseline names the next living player clockwise. Stops at the first non-``None`` result.
    """


# --- who sees what -----------------------------------------------------------------------------


@hookspec(firstresult=True)
def liarsdice_dice_visible(
    state: GameState, viewer: str | None, owner: str, options: Options
) -> bool | None:
    """Whether ``viewer`` (a player at the table, out or not, or ``None`` for a spectator) sees
    ``owner``'s dice under the cup this round, until a call lifts the cups.

    Asked by the engine once per viewer and owner as each round starts, right after the
    ``liarsdice_round_started`` effects (``state`` holds the new rolls); the answers hold for the
    whole round, and the engine records each viewer's sight that differs from the default in
    ``RoundStarted.sights``. Every view, every viewer's event log, the odds and the bots follow
    it. Dice put face up are seen by everyone, and everything is once the cups
    are lifted, whatever this answers. Answer from public facts (dice counts, plugin state): who
    sees whose dice is public. The baseline answers ``viewer == owner``: your own dice, nobody
    else's. Stops at the first non-``None`` result.
    """


# --- payloads -----------------------------------------------------------------------------------


@hookspec
def liarsdice_payload_choices(
    state: GameState, player: str, action: Action, options: Options
) -> Sequence[JSON] | None:
    """The values this plugin would accept now under its own name in the payload of ``action``
    (a bid or a call by ``player``, given without a payload), or ``None`` for none.

    Called on each plugin that declares payloads on that action (``VariantInfo.payloads``),
    separately. Test drivers and bots use it to try the mechanic; every value listed must pass the
    plugin's own checks (a rule law checks that it does).
    """


# --- presentation -------------------------------------------------------------------------------


@hookspec
def liarsdice_player_public(
    state: GameState, player: str, options: Options
) -> Mapping[str, JSON] | None:
    """Public facts about ``player`` that this plugin owns, for views (for example bullets)."""


@hookspec
def liarsdice_describe(options: Options, rules: Ruleset) -> str | Text | RulesText | None:
    """This plugin's part of the rules page, in Markdown, for these option values; ``rules``
    (the table's ruleset: ``rules.names`` are the variants at the table) for text that depends on
    what else is played.

    Mark the text with the plugin's catalog (``_("...")``, :mod:`liarsdice.i18n`) so that the
    page reads in the player's language; a plain string reads as it is in every language.

    Return a string for a section of its own, or a :class:`~liarsdice.rulestext.RulesText` that
    also replaces the baseline's clauses on the rules it changes (``clauses={"wilds.bids": ...}``)
    or another variant's (``clauses={"calza.window": ...}``: read only when that variant is at
    the table), so the page never states a rule the table does not play. Called on each plugin
    separately; the page is assembled by :func:`liarsdice.rulespage.page`.
    """
