"""The loop of ``liarsdice play``: one game between a player at the keyboard and bots.

:func:`play` reads lines with ``read`` and prints with ``write``, so it runs the same under a
terminal and in a test. The player sees only their own :class:`~liarsdice.views.PlayerView` (the
other cups stay hidden until a call lifts them); the bots decide through the same
:mod:`liarsdice.bots` policies as ``liarsdice tournament``, each from its own view, one move at a
time: ``pause`` waits ``delay`` seconds before each (injected, so a test never sleeps). A line that
is not a legal move gets the parser's or the engine's reason and a new prompt, changing nothing.
What stands out in colour is the :class:`~liarsdice.cli.terminal_style.Palette`'s business.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from liarsdice import engine, legality
from liarsdice import narration as words
from liarsdice.bots import Bot, interjection
from liarsdice.cli.terminal_input import Typed, call_words, help_text, parse, word
from liarsdice.cli.terminal_style import PROMPT, TURN, Palette
from liarsdice.errors import IllegalAction
from liarsdice.events import Event, RoundResolved
from liarsdice.game import Game
from liarsdice.i18n import Param, Text, _, render
from liarsdice.limits import StuckGame
from liarsdice.models import Action, BidAction, CallAction, Payload
from liarsdice.ruleset import Ruleset

Read = Callable[[str], str]
Write = Callable[[str], None]
Pause = Callable[[float], None]


class Quit(Exception):
    """The player typed "quit" (or closed the input)."""


class Table:
    """A game under way: the rules, the game, who is at the keyboard, the bots, the language;
    the colours, and the ``delay`` in seconds that ``pause`` waits before each bot's move."""

    def __init__(
        self,
        rules: Ruleset,
        game: Game,
        human: str,
        bots: Mapping[str, Bot],
        lang: str,
        read: Read,
        write: Write,
        *,
        colour: bool = False,
        delay: float = 0.0,
        pause: Pause = time.sleep,
    ) -> None:
        self.rules, self.game, self.human, self.bots = rules, game, human, bots
        self.lang, self.read, self.write = lang, read, write
        self.palette = Palette(colour, lang)
        self.delay, self.pause = delay, pause
        self.calls = call_words(rules.calls)
        self.prompt = self.palette.whole("> ", PROMPT)
        #: Whether a bid is typed as one number (a bid kind of one field, a total of pips).
        self.one_number = len(rules.bid_kind.fields) == 1

    def call_names(self, kinds: Sequence[str]) -> tuple[str, ...]:
        """The calls ``kinds`` as the player types them in their language ("не вірю")."""
        return tuple(word(render(self.rules.calls[kind].title, self.lang)) for kind in kinds)

    def say(self, text: Param) -> None:
        """Print ``text`` in the player's language."""
        self.write(text.render(self.lang) if isinstance(text, Text) else str(text))

    def tell(self, events: Sequence[Event]) -> None:
        """Narrate ``events``; at a ruling, first lift every cup."""
        for event in events:
            if isinstance(event, RoundResolved):
                for cup in words.reveal_lines(self.game.view(self.human)):
                    self.say(cup)
            line = words.event_line(self.rules, event)
            if line is not None:
                self.say(self.palette.event(event, line))

    def help_line(self) -> Text:
        """The grammar, with the calls the player may make now."""
        legal = legality.legal_calls(self.rules, self.game.state, self.human)
        return help_text(self.call_names(legal), self.one_number)

    def ask(self) -> Action:
        """Prompt until the player types a readable move (the engine judges it after)."""
        while True:
            try:
                line = self.read(self.prompt)
            except EOFError:
                raise Quit from None
            typed = parse(line, self.calls, self.one_number)
            if isinstance(typed, Text):
                self.say(typed)
            elif typed.word == "help":
                self.say(self.help_line())
            elif typed.word == "quit":
                raise Quit
            else:
                return self.payload(self.action(typed))

    def action(self, typed: Typed) -> Action:
        if typed.bid is not None:
            return BidAction(self.human, typed.bid)
        return CallAction(self.human, typed.kind or "challenge")

    def payload(self, action: Action) -> Action:
        """Ask for each plugin's extra data the move may carry (e.g. dice to show), if any."""
        chosen: dict[str, object] = {}
        for plugin, choices in legality.payload_choices(
            self.rules, self.game.state, action
        ).items():
            self.say(_("{plugin}: 0 = nothing", plugin=plugin))
            for number, choice in enumerate(choices, 1):
                self.write(f"  {number} = {choice}")
            answer = self.read(self.prompt).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(choices):
                chosen[plugin] = choices[int(answer) - 1]
        if not chosen:
            return action
        payload: Payload = chosen
        if isinstance(action, BidAction):
            return BidAction(action.player, action.bid, payload)
        assert isinstance(action, CallAction)
        return CallAction(action.player, action.kind, payload)

    def human_move(self) -> None:
        """The player's turn: show the bids and the prompt until a move is accepted."""
        view = self.game.view(self.human)
        self.say(self.palette.bids(words.bids_line(view, self.rules.bid_kind)))
        self.say(self.palette.whole(_("Your turn, {player}.", player=self.human), TURN))
        while True:
            action = self.ask()
            try:
                self.tell(self.game.act(action))
                return
            except IllegalAction as refused:
                for reason in refused.reasons:
                    self.say(reason)

    def bot_move(self) -> None:
        """A bot's interjection out of turn, if one makes it, else the move of the bot on turn;
        after the pause, so that moves appear one by one."""
        state = self.game.state
        assert state.round is not None
        action: Action | None = None
        for player in dict.fromkeys(c.player for c in engine.out_of_turn_calls(self.rules, state)):
            if player in self.bots:
                action = interjection(self.bots[player], self.game.view(player))
                if action is not None:
                    break
        if action is None:
            player = state.round.turn
            action = self.bots[player].decide(self.game.view(player))
        if self.delay > 0:
            self.pause(self.delay)
        self.tell(self.game.act(action))


def play(table: Table, dice_per_player: int) -> tuple[str, ...]:
    """Play the game to its end; return the winners. Raises :class:`Quit` if the player leaves,
    :class:`~liarsdice.limits.StuckGame` past the ruleset's move limit."""
    game, rules = table.game, table.rules
    limit = rules.move_limit(len(game.state.players), dice_per_player)
    table.tell(game.events)
    moves = 0
    while not game.over:
        table.tell(game.start_round())
        view = game.view(table.human)
        table.say(words.table_line(view))
        if any(player.name == table.human for player in game.state.alive):
            table.say(table.palette.own_dice(words.dice_line(view.own_dice)))
        state = game.state
        while state.round is not None and not state.round.over:
            if moves == limit.moves:
                raise StuckGame(repr(rules), limit)
            moves += 1
            if state.round.turn == table.human:
                table.human_move()
            else:
                table.bot_move()
            state = game.state
    return game.state.winners
