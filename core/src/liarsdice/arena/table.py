"""A game for text agents, in TextArena's shape: ``reset``, ``get_observation``, ``step``, ``close``.

Every player is an agent that reads a prompt and types a move (:mod:`liarsdice.arena.moves`).
The prompt is the table's own rules page, then the player's view in words (the table, their
dice, the bids, the last ruling) and their legal moves. The game is the engine's, played as
:func:`liarsdice.tournament.play_game` plays it: dice from ``Random(seed)``, and before each move
every player who may call out of turn is asked first, clockwise from the player on turn (a
``[Wait]`` lets it go), so agents typing a bot's moves replay that bot's tournament game.

A move that cannot be read, or is not legal now, is refused with the reason; after ``retries``
refusals in a row the player's move is the ``forfeit``: ``"random"`` (a legal move drawn from a
generator of its own, seeded from the game's seed) or ``"first"`` (the first legal move listed:
the lowest bid, or the first call). A game that reaches the ruleset's move limit ends drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from liarsdice import engine, narration
from liarsdice.arena.moves import BadMove, format_move, parse_move
from liarsdice.bots import Bot, interjection
from liarsdice.i18n import Text, _, render
from liarsdice.models import BidAction, Resolution, TimeoutAction
from liarsdice.moves import Move, Wait, legal_moves
from liarsdice.ruleset import Ruleset
from liarsdice.views import player_view

FORFEITS = ("random", "first")


class ArenaTable:
    """A table of text agents under a ruleset (``Ruleset.build(variants, options, preset)``),
    each starting with ``dice``; see the module's text. TextArena's methods:
    ``reset(num_players, seed)``, ``get_observation() -> (player_id, prompt)``,
    ``step(text) -> (done, info)``, ``close() -> (rewards, game_info)``."""

    def __init__(
        self,
        preset: str | None = None,
        variants: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        dice: int = 5,
        lang: str = "en",
        retries: int = 1,
        forfeit: str = "random",
    ) -> None:
        if forfeit not in FORFEITS:
            raise ValueError(f"forfeit is one of {', '.join(FORFEITS)}, not {forfeit!r}")
        if retries < 0:
            raise ValueError(f"retries is 0 or more, not {retries}")
        self.rules = Ruleset.build(list(variants), options, preset)
        self.dice, self.lang, self.retries, self.forfeit = dice, lang, retries, forfeit
        self.names: tuple[str, ...] = ()
        self.asking: list[str] = []
        self.refused: dict[str, int] = {}
        self.last_error: str | None = None
        self.ruling: Resolution | None = None

    def reset(
        self, num_players: int, seed: int | None = None, names: Sequence[str] | None = None
    ) -> None:
        """A new game of ``num_players`` (named ``names``, by default ``Player 0``...), its dice
        drawn from ``Random(seed)``."""
        self.names = (
            tuple(names) if names is not None else tuple(f"Player {i}" for i in range(num_players))
        )
        if len(self.names) != num_players:
            raise ValueError(
                f"{num_players} players need {num_players} names, not {len(self.names)}"
            )
        self.rules.check_table(num_players, self.dice)
        self.rng = Random(seed)
        self.forfeits = Random(f"{seed}:forfeit")
        self.limit = self.rules.move_limit(num_players, self.dice).moves
        self.moves = 0
        self.refused = dict.fromkeys(self.names, 0)
        self.last_error = None
        self.ruling = None
        self.state, _ = engine.new_game(
            self.rules, list(self.names), self.rng, dice_per_player=self.dice
        )
        self._settle()

    @property
    def done(self) -> bool:
        """The game is over, or drawn at the move limit."""
        return self.state.over or self.moves >= self.limit

    @property
    def decider(self) -> str:
        """The player to move: the first asked out of turn, else the player on turn."""
        if self.done or self.state.round is None:
            raise RuntimeError("the game is over: nobody moves")
        return self.asking[0] if self.asking else self.state.round.turn

    def legal(self) -> list[Move]:
        """The decider's legal moves now."""
        return legal_moves(self.rules, self.state, self.decider, asked=bool(self.asking))

    def get_observation(self) -> tuple[int, str]:
        """The decider's seat and prompt."""
        player = self.decider
        return self.names.index(player), self.prompt(player)

    def prompt(self, player: str) -> str:
        """What ``player`` reads before typing a move: the rules, their view, their moves."""
        view = player_view(self.rules, self.state, player)
        lines: list[Text] = [
            narration.table_line(view),
            narration.dice_line(view.own_dice),
            narration.bids_line(view, self.rules.bid_kind),
        ]
        if self.ruling is not None and not view.bids:
            ruling = narration.ruling(self.rules, self.ruling)
            lines.insert(0, _("Last round: {ruling}", ruling=ruling))
        if self.asking:
            lines.append(_("You may call out of turn now, or let it go with [Wait]."))
        moves = ", ".join(format_move(move) for move in self.legal())
        lines.append(_("Your legal moves: {moves}", moves=moves))
        lines.append(_("Type one move in brackets, such as [Bid: 3, 5] or [Challenge]."))
        if self.last_error is not None:
            lines.append(_("Your last move was refused: {reason}", reason=self.last_error))
        you = _(
            "You are {player}. Players at the table: {count}. The rules of the game:",
            player=player,
            count=len(self.names),
        )
        words = [line.render(self.lang) for line in lines]
        return "\n".join([you.render(self.lang), "", self.rules.describe(self.lang), "---", *words])

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """Play the decider's typed ``action``; a refused one is retried, then forfeited."""
        player = self.decider
        try:
            move = self._read(player, action)
        except BadMove as refusal:
            self.refused[player] += 1
            if self.refused[player] <= self.retries:
                self.last_error = str(refusal)
                return False, {"refused": str(refusal), "player": self.names.index(player)}
            move = self._forfeit()
            info = {
                "refused": str(refusal),
                "forfeit": format_move(move),
                "player": self.names.index(player),
            }
        else:
            info = {"player": self.names.index(player), "move": format_move(move)}
        self.refused[player] = 0
        self.last_error = None
        self.play(move)
        return self.done, info

    def play(self, move: Move) -> None:
        """Play ``move``, one of :meth:`legal`'s."""
        if isinstance(move, Wait):
            self.asking.pop(0)
            return
        self.state, _ = engine.step(self.rules, self.state, move, self.rng)
        self.moves += 1
        self._settle()

    def bot_move(self, bot: Bot) -> Move:
        """The move ``bot`` makes for the decider, from their view: asked out of turn, its call
        or a wait (:func:`~liarsdice.bots.interjection`); on turn, :meth:`Bot.decide`."""
        view = player_view(self.rules, self.state, self.decider)
        move = (interjection(bot, view) or Wait(self.decider)) if self.asking else bot.decide(view)
        if isinstance(move, TimeoutAction):
            raise BadMove(f"{type(bot).__name__} answered with a timeout, which is not a move")
        return move

    def close(self) -> tuple[dict[int, float], dict[str, Any]]:
        """Each seat's reward (the winners share +1 and the others -1; a drawn game 0 for all)
        and how the game ended."""
        winners = set(self.state.winners) if self.state.over else set()
        if not winners:
            rewards = dict.fromkeys(range(len(self.names)), 0.0)
        else:
            others = len(self.names) - len(winners)
            rewards = {
                i: 1 / len(winners) if n in winners else -1 / others
                for i, n in enumerate(self.names)
            }
        reason = "won" if winners else ("move limit" if self.moves >= self.limit else "not over")
        return rewards, {"winners": sorted(winners), "reason": reason, "moves": self.moves}

    def _read(self, player: str, action: str) -> Move:
        move = parse_move(self.rules, player, action)
        if move in self.legal():
            return move
        if isinstance(move, Wait):
            raise BadMove("[Wait] is only for a player asked whether to call out of turn")
        problems = (
            engine.bid_problems(self.rules, self.state, player, move.bid, move.payload)
            if isinstance(move, BidAction)
            else engine.call_problems(self.rules, self.state, player, move.kind, move.payload)
        )
        reason = (
            "; ".join(render(p, self.lang) for p in problems) or "not among your legal moves now"
        )
        raise BadMove(f"{format_move(move)} is not legal now: {reason}")

    def _forfeit(self) -> Move:
        moves = self.legal()
        return self.forfeits.choice(moves) if self.forfeit == "random" else moves[0]

    def _settle(self) -> None:
        """Deal the next round when one is due, and list who is asked out of turn."""
        self.asking = []
        if self.done:
            return
        if self.state.round is None or self.state.round.over:
            if self.state.round is not None:
                self.ruling = self.state.round.resolution
            self.state, _ = engine.start_round(self.rules, self.state, self.rng)
        calls = engine.out_of_turn_calls(self.rules, self.state)
        self.asking = list(dict.fromkeys(call.player for call in calls))
