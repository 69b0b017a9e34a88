"""Variant ``revolver``: a lost round loads the loser's revolver and they pull the trigger once.

The first lost round loads ``revolver.initial_bullets``; each later loss adds one more; bullets are
never removed. After loading, the cylinder is spun and the trigger pulled once: the chance of a hit
is bullets / chambers, so a full cylinder is certain death. A hit eliminates the player, and their
dice leave with them. A timeout loads every remaining chamber and fires. With ``dice-loss`` also in
play, a lost round costs a die *and* a pull (seed 000's "lose a die per lost round").

A player's ``chambers - initial_bullets + 1``-th lost round loads every chamber, so each player
survives at most ``chambers - initial_bullets`` lost rounds, and a game in which every round has a
loser lasts at most ``players x (chambers - initial_bullets + 1) - 1`` rounds
(``liarsdice_game_limit``).

Plugin state: ``{"bullets": {player: n}}``. Pulls draw from the rigged stream ``"trigger"``
(``"click"`` or ``"bang"``) when a scenario rigs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random

from liarsdice import (
    Eliminated,
    GameLimit,
    GameState,
    Notice,
    Options,
    PluginError,
    PluginStateSet,
    Resolution,
    VariantInfo,
    hookimpl,
    rigged,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text
from liarsdice.options import OptionRegistry
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NAME = "revolver"
OUTCOMES = ("click", "bang")


def bullets(state: GameState) -> Mapping[str, int]:
    """Bullets loaded in each player's revolver (players never loaded are absent)."""
    loaded: Mapping[str, int] = state.plugin(NAME).get("bullets", {})
    return loaded


def _pull(rng: Random, loaded: int, chambers: int) -> bool:
    outcome = rigged(rng, "trigger")
    if outcome is None:
        return rng.randrange(chambers) < loaded
    if outcome not in OUTCOMES:
        raise PluginError(f"revolver: a rigged trigger pull is 'click' or 'bang', not {outcome!r}")
    if outcome == "click" and loaded >= chambers:
        raise PluginError(f"revolver: rigged 'click' with all {chambers} chambers loaded")
    return bool(outcome == "bang")


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Revolver"),
        summary=_("A lost round loads bullets and pulls the trigger; a hit is out."),
        economics=True,
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add("chambers", 6, _("chambers in the cylinder"), minimum=1, maximum=12)
    options.add(
        "initial_bullets",
        1,
        _("bullets loaded on a player's first lost round"),
        minimum=1,
        maximum=12,
    )


@hookimpl
def liarsdice_combination_problem(options: Options) -> Text | None:
    if options["revolver.initial_bullets"] > options["revolver.chambers"]:
        return _(
            "revolver.initial_bullets={initial} is more than revolver.chambers={chambers}",
            initial=options["revolver.initial_bullets"],
            chambers=options["revolver.chambers"],
        )
    return None


@hookimpl
def liarsdice_settle(
    state: GameState, resolution: Resolution, rng: Random, options: Options
) -> Sequence[Effect]:
    chambers = options["revolver.chambers"]
    loaded = dict(bullets(state))
    effects: list[Effect] = []
    for loser in resolution.losers:
        before = loaded.get(loser, 0)
        if resolution.call == "timeout":
            after = chambers
        elif before == 0:
            after = options["revolver.initial_bullets"]
        else:
            after = min(chambers, before + 1)
        loaded[loser] = after
        effects.append(PluginStateSet(NAME, "bullets", dict(loaded)))
        hit = _pull(rng, after, chambers)
        if hit:
            pulled = _(
                "{player} loads {loaded} of {chambers} and pulls: bang",
                player=loser,
                loaded=after,
                chambers=chambers,
            )
        else:
            pulled = _(
                "{player} loads {loaded} of {chambers} and pulls: click",
                player=loser,
                loaded=after,
                chambers=chambers,
            )
        effects.append(Notice(NAME, pulled, loser))
        if hit:
            shot = _(
                "shot by the revolver ({loaded} of {chambers} loaded)",
                loaded=after,
                chambers=chambers,
            )
            effects.append(Eliminated(loser, shot))
    return effects


@hookimpl
def liarsdice_game_limit(players: int, options: Options) -> GameLimit:
    lives = options["revolver.chambers"] - options["revolver.initial_bullets"] + 1
    return GameLimit(
        rounds=players * lives - 1,
        why=(
            f"a player's {_ordinal(lives)} lost round loads all {options['revolver.chambers']} "
            f"chambers, {players} x {lives} - 1"
        ),
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@hookimpl
def liarsdice_player_public(state: GameState, player: str) -> Mapping[str, int]:
    return {"bullets": bullets(state).get(player, 0)}


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    chambers = options["revolver.chambers"]
    initial = options["revolver.initial_bullets"]
    first = _n("one bullet", "{n} bullets", n=initial)
    own = _(
        """\
Whoever loses a round takes the revolver. Their first lost round loads {first}; every later loss
adds one more, and no bullet is ever removed. The cylinder is spun and the trigger pulled once, so
the chance of a hit is bullets in {chambers}: with every chamber loaded it is certain. A player who
is hit is out, and their dice leave the table with them. Survivors keep their bullets.""",
        first=first,
        chambers=chambers,
    )
    timeouts = _(
        "Sleeping through your clock is fatal: every remaining chamber of your revolver is loaded "
        "and fired."
    )
    return RulesText(
        text=own,
        clauses={"timeouts.cost": timeouts, "winning.last": _("The last player alive wins.")},
    )
