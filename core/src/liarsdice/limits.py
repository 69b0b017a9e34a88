"""Liveness: the most moves a game may take, and the error for a game that takes more.

Every game must end. A round does: bids strictly raise (the law "bids form a strict total order"),
so a round holds at most one bid per rung of the bid ladder (6 faces x the dice in play), then the
call or timeout that ends it, plus the turns a variant adds without bidding (``pass``). A game
ends because its economics make progress: each lost round costs a die (``dice-loss``) or loads a
bullet (``revolver``). Plugins state this with the hook ``liarsdice_game_limit``, answering a
:class:`GameLimit`, and :meth:`liarsdice.Ruleset.move_limit` combines the answers into a
:class:`MoveLimit` for a table of ``players`` x ``dice_per_player``:

- **rounds**: the largest ``rounds`` any plugin declares (each is an upper bound; taking the
  largest means no plugin's bound can cut short another's game), or :data:`DEFAULT_ROUNDS` when no
  plugin declares one; then multiplied by every ``rounds_factor`` and increased by every
  ``extra_rounds``, which plugins that lengthen games declare (``calza``'s exact call can give a
  die back);
- **turns** a round: the bid ladder for all the dice the table starts with, plus 1 (the call or
  timeout that ends the round), plus every ``extra_turns``;
- **moves** = rounds x turns. A move is an accepted bid, call or timeout; refused attempts do not
  count.

A game with no winner after ``moves`` moves is stuck: the ruleset cannot finish it (a variant
undoes what the economics take, or lengthens games without declaring it). ``simulate``,
``tournament``, the laws' driver and the demo's tables stop it there and report it as a
:class:`StuckGame`, and the game law "every game ends within the ruleset's move limit" fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from liarsdice.errors import PluginError, RulesetError

DEFAULT_ROUNDS = 1000
"""The rounds a game may last when no plugin in the ruleset declares how many (``GameLimit.rounds``):
generous, so that an economy that does not declare its bound is not called stuck, and small enough
that a stuck game is stopped in seconds."""


def _at_least(low: int) -> Any:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) is not int or value < low:
            raise ValueError(
                f"GameLimit.{attribute.name} is a whole number >= {low}, not {value!r}"
            )

    return check


def _rounds(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None:
        _at_least(1)(instance, attribute, value)


@attrs.frozen
class GameLimit:
    """A plugin's answer to ``liarsdice_game_limit``: how long it lets a game last.

    - ``rounds``: the most rounds a game can last under this plugin's economics, whatever the
      other plugins do short of undoing it (``dice-loss``: every lost round costs a die, so
      ``players x dice - 1``). ``None``: this plugin does not bound the rounds.
    - ``rounds_factor`` and ``extra_rounds``: a plugin that lengthens games (a round that costs
      nobody anything, a die given back) multiplies the rounds by ``rounds_factor`` and adds
      ``extra_rounds``.
    - ``extra_turns``: turns this plugin adds to a round besides its bids and the call that ends
      it (``pass``: one per pass allowed in a round).
    - ``why``: how the numbers follow from the rules, in a few words, for messages
      ("a lost round costs a die: 3 x 2 dice - 1").
    """

    rounds: int | None = attrs.field(default=None, validator=_rounds)
    rounds_factor: int = attrs.field(default=1, validator=_at_least(1))
    extra_rounds: int = attrs.field(default=0, validator=_at_least(0))
    extra_turns: int = attrs.field(default=0, validator=_at_least(0))
    why: str = ""


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _because(why: str) -> str:
    return f": {why}" if why else ""


@attrs.frozen
class MoveLimit:
    """The most moves (accepted bids, calls and timeouts) a game of a ruleset may take at a table
    of ``players`` x ``dice_per_player``: ``rounds`` x ``turns`` a round, with how each was
    found (``rounds_why``, ``turns_why``). ``str()`` says it all on one line."""

    players: int
    dice_per_player: int
    rounds: int
    turns: int
    rounds_why: str
    turns_why: str

    @property
    def moves(self) -> int:
        """The most moves a game may take: ``rounds`` x ``turns``."""
        return self.rounds * self.turns

    @property
    def table(self) -> str:
        """``"3 players x 2 dice"``."""
        return f"{self.players} players x {_dice(self.dice_per_player)}"

    def explain(self) -> str:
        """``"for 3 players x 2 dice: 5 rounds [why] x 37 turns [why]"``."""
        return (
            f"for {self.table}: {_plural(self.rounds, 'round')} [{self.rounds_why}] "
            f"x {self.turns} turns [{self.turns_why}]"
        )

    def __str__(self) -> str:
        return f"{self.moves} moves {self.explain()}"


def combine(
    players: int,
    dice_per_player: int,
    ladder: int,
    answers: Sequence[tuple[str, Any]],
) -> MoveLimit:
    """The :class:`MoveLimit` of a table from each plugin's ``liarsdice_game_limit`` answer
    (``(plugin name, answer)`` pairs; ``None`` answers are skipped) and the size of the bid ladder
    for every die the table starts with. A plugin that answers something other than a
    :class:`GameLimit` raises :class:`~liarsdice.errors.PluginError` naming it."""
    declared: list[tuple[str, GameLimit]] = []
    for name, answer in answers:
        if answer is None:
            continue
        if not isinstance(answer, GameLimit):
            raise PluginError(
                f"{name}'s liarsdice_game_limit returned {answer!r}, not a GameLimit or None"
            )
        declared.append((name, answer))
    bounded = [(name, limit) for name, limit in declared if limit.rounds is not None]
    stretched = [
        (name, limit) for name, limit in declared if limit.rounds_factor > 1 or limit.extra_rounds
    ]
    if bounded:
        base = max(limit.rounds for _, limit in bounded if limit.rounds is not None)
        shown = f" {base}" if stretched else ""
        parts = [
            f"{name}{shown}{_because(limit.why)}" for name, limit in bounded if limit.rounds == base
        ]
    else:
        base = DEFAULT_ROUNDS
        parts = [f"the default{f' {base}' if stretched else ''}, as no variant states how many"]
    rounds = base
    for name, limit in stretched:
        rounds = rounds * limit.rounds_factor + limit.extra_rounds
        factor = f" x {limit.rounds_factor}" if limit.rounds_factor > 1 else ""
        added = f" + {limit.extra_rounds}" if limit.extra_rounds else ""
        parts.append(f"{name}{factor}{added}{_because(limit.why)}")
    turns = ladder + 1
    turn_parts = [f"{ladder} bids", "the call"]
    for name, limit in declared:
        if limit.extra_turns:
            turns += limit.extra_turns
            turn_parts.append(f"{name} {limit.extra_turns}{_because(limit.why)}")
    return MoveLimit(
        players=players,
        dice_per_player=dice_per_player,
        rounds=rounds,
        turns=turns,
        rounds_why="; ".join(parts),
        turns_why=" + ".join(turn_parts),
    )


class StuckGame(RulesetError):
    """A game reached its ruleset's move limit (:meth:`liarsdice.Ruleset.move_limit`) without a
    winner: the ruleset cannot finish games. ``rules`` is the ruleset's ``repr``, ``limit`` the
    :class:`MoveLimit`, ``where`` which game it was ("game 3 of 1000, seed 0"), if known."""

    def __init__(self, rules: str, limit: MoveLimit, where: str = "") -> None:
        self.rules = rules
        self.limit = limit
        self.where = where
        game = f"in {where}, " if where else ""
        super().__init__(
            f"stuck ruleset: {game}{rules} found no winner after {limit.moves} moves, the most "
            f"it allows {limit.explain()}"
        )

    def during(self, where: str) -> StuckGame:
        """The same error, saying which game it was."""
        return StuckGame(self.rules, self.limit, where)

    def __reduce__(self) -> tuple[Any, ...]:  # keep the attributes through pickling
        return (StuckGame, (self.rules, self.limit, self.where))


__all__ = ["DEFAULT_ROUNDS", "GameLimit", "MoveLimit", "StuckGame", "combine"]
