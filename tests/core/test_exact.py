"""Exactly solved rounds kept compact in a book: the policy is the solved endgame's at every
decision, found at any table down to two players, saved and read back, refused where the moves
are not the legal ones, and played alone by the hard bot."""

from __future__ import annotations

import hashlib
from pathlib import Path
from random import Random

import attrs
import numpy as np
import pytest
from click.testing import CliRunner

from liarsdice import Ruleset, engine
from liarsdice.bots import Policy, sample
from liarsdice.bots.mixed_bot import MixedBot
from liarsdice.cli import cli
from liarsdice.endgame import Limits, Store, book, exact, solve
from liarsdice.models import Action, BidAction, CallAction, GameState, PlayerState
from liarsdice.testing.bots import check_bot
from liarsdice.views import PlayerView, player_view


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    """OpenSpiel's liar's dice: sixes wild and biddable, the loser of a round loses a die."""
    return Ruleset.build(["wild-sixes", "dice-loss"])


@pytest.fixture(scope="module")
def exact_book(rules: Ruleset) -> book.Book:
    """One die each, either opener, with those rounds (two dice in play) solved exactly."""
    return book.build(rules, max_dice=1, iterations=5, exact_dice=2)


def _decisions(rules: Ruleset, start: GameState, games: int) -> list[tuple[GameState, str]]:
    """The states and players on turn of ``games`` rounds played at random from ``start``."""
    rng = Random(7)
    found = []
    for _ in range(games):
        state, _ = engine.start_round(rules, start, rng)
        while state.round is not None and not state.over:
            turn = state.round.turn
            assert turn is not None
            found.append((state, turn))
            moves = engine.legal_bids(rules, state, turn)
            calls = engine.legal_calls(rules, state, turn)
            if state.round.bids and (not moves or rng.random() < 0.3):
                action: Action = CallAction(turn, calls[0])
            else:
                action = BidAction(turn, rng.choice(moves))
            state, _ = engine.step(rules, state, action, rng)
    return found


def test_the_exact_rounds_play_the_solved_endgame(rules: Ruleset, exact_book: book.Book) -> None:
    """At every decision of random play, the book's exact policy is the solved endgame's, to
    the published 1/10000 (the same solution, kept compact), and nothing where that never
    leads with the hand."""
    assert exact_book.exact is not None and exact_book.exact_dice == 2
    played = 0
    for opener in (0, 1):
        start = book.start(1, 1, opener, 1)
        solved = solve(rules, start, limits=Limits(max_dice=2, beyond="dice-share"))
        for state, turn in _decisions(rules, start, 40):
            view = player_view(rules, state, turn)
            mine = exact_book.exact_policy(rules, view)
            try:
                theirs = solved.policy(view)
            except KeyError:  # where the solved policy never leads with this hand
                assert mine is None
                continue
            total = sum(theirs.values())
            assert mine == pytest.approx({a: p / total for a, p in theirs.items() if p > 0})
            played += 1
    assert played > 100


def _four_seats(rules: Ruleset, dice: tuple[int, ...], opener: int) -> GameState:
    """A round dealt at a table of four named players, some out (0 dice)."""
    names = ("ann", "bob", "cid", "dee")
    players = tuple(PlayerState(n, d, d > 0) for n, d in zip(names, dice, strict=True))
    between = GameState(players, 1, next_opener=names[opener])
    return engine.start_round(rules, between, Random(3))[0]


def test_two_players_left_at_any_table_are_found(rules: Ruleset, exact_book: book.Book) -> None:
    """Seats 1 and 3 of four left with a die each: found, answered in the real names; three
    players alive, or more dice than the exact rounds hold, are not."""
    state = _four_seats(rules, (0, 1, 0, 1), opener=3)
    view = player_view(rules, state, "dee")
    found = exact_book.exact_policy(rules, view)
    assert found is not None and all(action.player == "dee" for action in found)
    assert sum(found.values()) == pytest.approx(1.0)
    assert exact_book.exact_policy(rules, player_view(rules, state, "bob")) is None  # not on turn
    three = _four_seats(rules, (1, 1, 0, 1), opener=0)
    assert exact_book.exact_policy(rules, player_view(rules, three, "ann")) is None
    more = _four_seats(rules, (0, 1, 0, 1), opener=3)
    more = attrs.evolve(more, dice_per_player=2)
    assert exact_book.exact_policy(rules, player_view(rules, more, "dee")) is None


def test_a_saved_book_keeps_its_exact_rounds(
    rules: Ruleset, exact_book: book.Book, tmp_path: Path
) -> None:
    book.save(exact_book, rules, tmp_path)
    again = book.load(rules, tmp_path)
    assert again is not None and again.exact is not None and exact_book.exact is not None
    for name, array in exact_book.exact.arrays().items():
        assert np.array_equal(array, again.exact.arrays()[name])
    assert again.exact.calls == exact_book.exact.calls and again.exact_dice == 2


def test_moves_that_are_not_the_legal_ones_are_refused(
    rules: Ruleset, exact_book: book.Book
) -> None:
    """A book whose stored moves differ from the engine's (other rules, a damaged build)
    gives nothing rather than a policy over the wrong moves."""
    assert exact_book.exact is not None
    view = player_view(rules, _four_seats(rules, (1, 1, 0, 0), opener=0), "ann")
    assert exact_book.exact_policy(rules, view) is not None
    moves = exact_book.exact.moves.copy()
    moves[0] += exact.FACE_CODES  # the root's first bid, one more die
    damaged = attrs.evolve(exact_book.exact, moves=moves)
    assert damaged.policy(rules, view) is None


def _view_at(rules: Ruleset, opener: int) -> PlayerView:
    state = _four_seats(rules, (1, 1, 0, 0), opener=opener)
    assert state.round is not None and state.round.turn is not None
    return player_view(rules, state, state.round.turn)


def test_hard_plays_an_exact_round_alone(rules: Ruleset, exact_book: book.Book) -> None:
    """No heuristic is blended into an exactly solved round (unlike the book's abstracted
    rounds), and without the exact rounds the book's blend plays."""
    view = _view_at(rules, 0)
    bot = MixedBot(rules, Random(0), endgames="cached", store=Store(None), book=exact_book)
    assert bot.policy(view) == exact_book.exact_policy(rules, view)
    plain = attrs.evolve(exact_book, exact=None, exact_dice=0)
    blended = MixedBot(rules, Random(0), endgames="cached", store=Store(None), book=plain)
    assert blended.policy(view) != bot.policy(view)
    assert sample(bot.policy(view), Random(1)) in bot.policy(view)


def test_the_command_solves_rounds_exactly_and_shows_them(tmp_path: Path) -> None:
    """By default a build solves the rounds of three dice in play a game reaches exactly (from 2
    v 2, the loser opening: 2 v 1 and 1 v 2 opened by the player with one die)."""
    runner = CliRunner()
    args = ["--variant", "dice-loss", "--dir", str(tmp_path)]
    built = runner.invoke(cli, ["endgames", "build", *args, "--max-dice", "2", "--iterations", "5"])
    assert built.exit_code == 0, built.output
    assert "1 v 2 dice, P0 opens: solved exactly, exploitability" in built.output
    assert "2 v 1 dice, P1 opens: solved exactly, exploitability" in built.output
    shown = runner.invoke(cli, ["endgames", "show", *args])
    assert "the rounds with 3 dice in play solved exactly (65,536 nodes)" in shown.output
    refused = runner.invoke(cli, ["endgames", "build", *args, "--exact-dice", "2"])
    assert refused.exit_code == 2 and "'2' is not one of '0', '3', '4'" in refused.output


def test_rules_the_exact_solver_refuses_keep_the_abstraction(tmp_path: Path) -> None:
    """The endgame solver does not take the bluff plugin (it reads a move's payload); the
    last-bid solver does: the book is built without exact rounds, and says why."""
    rules = Ruleset.build(["bluff", "dice-loss"])
    told: list[str] = []
    built = book.build(rules, max_dice=1, iterations=5, exact_dice=2, progress=told.append)
    assert built.positions and built.exact is None and built.exact_dice == 0
    assert any("cannot be solved exactly" in line for line in told)


def test_a_damaged_book_with_its_checksum_is_refused(
    rules: Ruleset, exact_book: book.Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An archive cut short, or exact arrays that do not fit together, though the checksum beside it
    matches: refused as unreadable, and a bot finds no book (it plays on without one)."""
    path = book.save(exact_book, rules, tmp_path / "books")
    checksum = path.with_suffix(".sha256")
    path.write_bytes(path.read_bytes()[:1000])  # an archive cut short
    checksum.write_text(hashlib.sha256(path.read_bytes()).hexdigest() + "\n")
    with pytest.raises(book.BookError, match="cannot be read"):
        book.load(rules, tmp_path / "books")
    monkeypatch.setenv("LIARSDICE_ENDGAME_CACHE", str(tmp_path))
    assert book.find(rules) is None
    assert exact_book.exact is not None
    short = attrs.evolve(exact_book.exact, chances=exact_book.exact.chances[:-1])
    path = book.save(attrs.evolve(exact_book, exact=short), rules, tmp_path / "short")
    with pytest.raises(book.BookError, match="do not fit together"):
        book.load(rules, tmp_path / "short")
    checksum.unlink()
    with pytest.raises(book.BookError, match="no checksum beside it"):
        book.load(rules, tmp_path / "books")


def test_hard_with_exact_rounds_keeps_the_bot_contract(
    rules: Ruleset, exact_book: book.Book
) -> None:
    """Three seats of one die down to two: the exact rounds play the last one, every decision
    legal and repeatable under a seed (``check_bot``); the exact policy was asked."""
    asked: list[PlayerView] = []

    class Counting(MixedBot):
        def policy(self, view: PlayerView) -> Policy:
            if exact_book.exact_policy(rules, view) is not None:
                asked.append(view)
            return super().policy(view)

    def hard(table_rules: Ruleset, rng: Random) -> MixedBot:
        return Counting(table_rules, rng, endgames="cached", store=Store(None), book=exact_book)

    assert check_bot(hard, rules, games=4, players=3, dice_per_player=1) > 0
    assert asked
