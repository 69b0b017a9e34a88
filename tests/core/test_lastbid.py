"""Heads-up rounds solved on the last bid, and the books of them: the graph's values agree with the
whole-game calculator, CFR+ lowers what a best response wins in the real game, the refusals, and a
book saved, checked, found and played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from random import Random

import attrs
import numpy as np
import pytest
from click.testing import CliRunner

from liarsdice import Ruleset, engine, tournament
from liarsdice.bots import information
from liarsdice.bots.mixed_bot import EXPLOIT, MixedBot
from liarsdice.cli import cli, main
from liarsdice.endgame import Store, Unsolvable, book, lastbid, rounds
from liarsdice.endgame.response import Policy, measure, policy_value
from liarsdice.endgame.rounds import dealt_root
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState
from liarsdice.testing.bots import check_bot
from liarsdice.views import PlayerView, player_view, view_state


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    """OpenSpiel's liar's dice: sixes wild and biddable, the loser of a round loses a die."""
    return Ruleset.build(["wild-sixes", "dice-loss"])


def _final(after: GameState) -> float:
    assert after.over, "a round of one die each ends the game"
    return 1.0 if book.PLAYERS[0] in after.winners else -1.0


def _solved(rules: Ruleset, iterations: int) -> tuple[lastbid.Graph, lastbid.Strategy]:
    root = dealt_root(rules, book.start(1, 1, 0, 1))
    graph = lastbid.build(rules, root, _final)
    return graph, lastbid.solve(graph, iterations)[0]


def _policy(graph: lastbid.Graph, strategy: lastbid.Strategy) -> Policy:
    """``strategy`` as both players' policy, asked with a view."""
    index = graph.index

    def policy(view: PlayerView) -> Mapping[Action, float]:
        assert view.viewer is not None and view.own_dice is not None
        node = index[lastbid.node_id(view_state(view))]
        row = graph.hands[graph.players.index(view.viewer)].index(tuple(sorted(view.own_dice)))
        return dict(zip(graph.actions[node], strategy[node][row], strict=True))

    return policy


def test_the_graphs_value_is_the_whole_game_calculators(rules: Ruleset) -> None:
    """One die each: the round is the game, so the graph's value of the strategy is what the
    whole-game calculator (its own walk of the real tree) says the policy wins."""
    graph, strategy = _solved(rules, 50)
    policy = _policy(graph, strategy)
    start = book.start(1, 1, 0, 1)
    found = policy_value(rules, start, dict.fromkeys(book.PLAYERS, policy), "P0")
    assert found == pytest.approx(lastbid.game_value(graph, strategy), abs=1e-9)


def _exploitability(rules: Ruleset, iterations: int) -> float:
    """What best responses that remember every bid win against the solution, in the real game."""
    policy = _policy(*_solved(rules, iterations))
    found = measure(rules, book.start(1, 1, 0, 1), dict.fromkeys(book.PLAYERS, policy))
    return found.exploitability


def test_cfr_makes_the_policy_harder_to_exploit_in_the_real_game(rules: Ruleset) -> None:
    """Uniform play is 0.78 exploitable here; a few iterations are far from the solution, and
    with more the abstraction's price is left (0.16 at 1 die each, docs/bots.md)."""
    early = _exploitability(rules, 3)
    late = _exploitability(rules, 200)
    assert late < 0.25 < early


def _book_exploitability(rules: Ruleset, solved: book.Book) -> float:
    """What best responses win against ``solved`` at one die each, P0 opening, in the real game."""

    def played(view: PlayerView) -> Mapping[Action, float]:
        found = solved.policy(rules, view)
        assert found is not None
        return found

    start = book.start(1, 1, 0, 1)
    return measure(rules, start, dict.fromkeys(book.PLAYERS, played)).exploitability


def test_the_blind_opener_makes_the_book_harder_to_exploit(rules: Ruleset) -> None:
    """One die each, measured in the real game (docs/bots.md): the book whose opener plays the
    blind solve gives a best response less (0.14) than the one whose opener bids by its hand
    (0.16)."""
    blind = _book_exploitability(rules, book.build(rules, 1, starts=[(1, 1, 0)]))
    by_hand = book.build(rules, 1, starts=[(1, 1, 0)], blind_opening=False)
    assert blind < _book_exploitability(rules, by_hand) - 0.01


def test_remembering_the_bid_before_the_last_halves_the_exploitability(
    rules: Ruleset, tmp_path: Path
) -> None:
    """One die each, the opening by the hand, measured in the real game (docs/bots.md): a book
    whose nodes remember the last two bids gives a best response 0.07, one remembering the last
    bid 0.16; the larger book reads back from disk and is found by its nodes."""

    two = book.build(rules, 1, starts=[(1, 1, 0)], blind_opening=False, memory=2)
    book.save(two, rules, tmp_path)
    again = book.load(rules, tmp_path)
    assert again is not None and again.memory == 2
    one = book.build(rules, 1, starts=[(1, 1, 0)], blind_opening=False)
    assert _book_exploitability(rules, again) < 0.1 < 0.15 < _book_exploitability(rules, one)
    with pytest.raises(ValueError, match="the last bid or the last two"):
        lastbid.build(rules, dealt_root(rules, book.start(1, 1, 0, 1)), _final, memory=3)


def test_an_outcome_worth_more_than_the_count_says_is_refused(rules: Ruleset) -> None:
    def by_dice(after: GameState) -> float:
        assert after.round is not None
        return float(sum(after.round.rolls[book.PLAYERS[0]]))

    root = dealt_root(rules, book.start(2, 1, 0, 2))
    with pytest.raises(Unsolvable, match="depends on more than the count"):
        lastbid.build(rules, root, by_dice)


def test_bids_of_another_kind_are_refused() -> None:
    pip_sum = Ruleset.build(["pip-sum", "dice-loss"], {"standard.wild_ones": False})
    with pytest.raises(Unsolvable, match="count of a face"):
        lastbid.build(pip_sum, dealt_root(pip_sum, book.start(1, 1, 0, 1)), _final)


@pytest.fixture(scope="module")
def small_book(rules: Ruleset) -> book.Book:
    """Every position up to 2 dice each."""
    return book.build(rules, max_dice=2, iterations=60)


def test_a_book_holds_the_positions_a_game_reaches(small_book: book.Book) -> None:
    """From 2 v 2 either opening; the loser of a round opens the next, so 2 v 1 is opened by
    the player with one die."""
    assert set(small_book.positions) == {
        (2, 2, 0),
        (2, 2, 1),
        (2, 1, 1),
        (1, 2, 0),
        (1, 1, 0),
        (1, 1, 1),
    }
    assert small_book.positions[(2, 1, 1)].value > 0.3  # two dice against one


def test_a_saved_book_reads_back_and_a_damaged_one_is_refused(
    rules: Ruleset, small_book: book.Book, tmp_path: Path
) -> None:
    path = book.save(small_book, rules, tmp_path)
    again = book.load(rules, tmp_path)
    assert again is not None and set(again.positions) == set(small_book.positions)
    for key, position in small_book.positions.items():
        for mine, theirs in zip(position.policy, again.positions[key].policy, strict=True):
            assert np.array_equal(mine, theirs)
    assert book.load(Ruleset.build(["dice-loss"]), tmp_path) is None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(book, "FORMAT", book.FORMAT - 1)
        book.save(small_book, rules, tmp_path / "older")
    with pytest.raises(book.BookError, match="another version of liarsdice"):
        book.load(rules, tmp_path / "older")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(book.BookError, match="does not match its checksum"):
        book.load(rules, tmp_path)


def _view(
    rules: Ruleset,
    seats: int,
    dice: tuple[int, ...],
    opener: int,
    viewer: int,
    bids: Sequence[Bid] = (),
) -> PlayerView:
    """A round of ``seats`` players with ``dice`` each (0 for out), opened by seat ``opener``,
    after ``bids`` (each made by the player on turn)."""
    names = [f"S{seat}" for seat in range(seats)]
    state, _ = engine.new_game(rules, names, Random(1), dice_per_player=2)
    players = tuple(
        engine_player.__class__(engine_player.name, count, count > 0)
        for engine_player, count in zip(state.players, dice, strict=True)
    )
    between = GameState(players, 2, next_opener=names[opener])
    started, _ = engine.start_round(rules, between, Random(2))
    for bid in bids:
        assert started.round is not None and started.round.turn is not None
        started, _ = engine.step(rules, started, BidAction(started.round.turn, bid), Random(3))
    return player_view(rules, started, names[viewer])


def test_the_book_plays_heads_up_at_any_table_and_nothing_else(
    rules: Ruleset, small_book: book.Book
) -> None:
    """Two players left at a table of four are found by their dice and who opens; three players
    are not, nor a position the book does not hold."""
    view = _view(rules, 4, (0, 2, 0, 1), opener=3, viewer=3)
    found = small_book.policy(rules, view)
    position = small_book.positions[(2, 1, 1)]
    assert view.own_dice is not None
    row = position.hands[1][tuple(sorted(view.own_dice))]
    assert found is not None and sum(found.values()) == pytest.approx(1.0, abs=1e-6)
    assert sorted(found.values()) == pytest.approx(
        sorted(p for p in position.policy[0][row] if p > 0), abs=1e-6
    )
    assert all(action.player == "S3" for action in found)
    assert small_book.policy(rules, _view(rules, 3, (2, 1, 1), opener=0, viewer=0)) is None
    assert small_book.policy(rules, _view(rules, 2, (2, 1), opener=0, viewer=0)) is None


def test_hard_blends_the_book_with_its_heuristic_heads_up(
    rules: Ruleset, small_book: book.Book
) -> None:
    """Beyond its exact endgames (two dice in play), with a book, once a bid is on the table:
    EXPLOIT of the heuristic, the rest of the book, action by action; with the book off, the
    heuristic alone."""
    view = _view(rules, 2, (2, 1), opener=1, viewer=0, bids=[Bid(1, 2)])
    played = MixedBot(rules, Random(0), book=small_book).policy(view)
    booked = small_book.policy(rules, view)
    heuristic = MixedBot(rules, Random(0), book="off").policy(view)
    assert booked is not None and booked != heuristic
    for action in {*booked, *heuristic}:
        expected = (1 - EXPLOIT) * booked.get(action, 0.0) + EXPLOIT * heuristic.get(action, 0.0)
        assert played.get(action, 0.0) == pytest.approx(expected, abs=1e-12)
    assert sum(played.values()) == pytest.approx(1.0, abs=1e-6)


def test_hard_leaves_exact_calls_to_the_book() -> None:
    """With calza, the heuristic's weight on the exact call goes to the book's policy: hard
    calls exact as often as the book (scaled up by what the heuristic gave away), never more
    because its heuristic likes it."""
    rules = Ruleset.build(["dice-loss", "calza"])
    solved = book.build(rules, 2, iterations=20, starts=[(2, 1, 0)])
    checked = 0
    for bid in [Bid(1, 2), Bid(2, 3), Bid(2, 5), Bid(3, 4), Bid(3, 6)]:
        view = _view(rules, 2, (2, 1), opener=0, viewer=1, bids=[bid])
        exact = CallAction("S1", "exact")
        heuristic = MixedBot(rules, Random(0), book="off").policy(view)
        booked = solved.policy(rules, view)
        assert booked is not None
        played = MixedBot(rules, Random(0), book=solved).policy(view)
        moved = heuristic.get(exact, 0.0)
        expected = (1 - EXPLOIT + EXPLOIT * moved) * booked.get(exact, 0.0)
        assert played.get(exact, 0.0) == pytest.approx(expected, abs=1e-9)
        assert sum(played.values()) == pytest.approx(1.0, abs=1e-6)
        checked += moved > 0.05
    assert checked, "the heuristic called exact somewhere here"


def test_a_book_opens_blind_and_plays_the_hand_after(rules: Ruleset, small_book: book.Book) -> None:
    """The book's opening is one policy whatever the hand (and not the same move every time);
    solved with the opening by the hand, it differs by hand; once a bid is on the table the
    blind book's policy depends on the hand again."""
    rolls, _ = rounds.hands(2)
    blind = {frozenset(_policy_at(rules, small_book, roll).items()) for roll in rolls}
    assert len(blind) == 1 and len(next(iter(blind))) > 1
    by_hand = book.build(rules, 2, iterations=60, starts=[(2, 2, 0)], blind_opening=False)
    assert not by_hand.blind_opening
    assert len({frozenset(_policy_at(rules, by_hand, roll).items()) for roll in rolls}) > 1
    answered = {
        frozenset(_policy_at(rules, small_book, roll, [Bid(1, 3)]).items()) for roll in rolls
    }
    assert len(answered) > 1


@pytest.mark.parametrize("opener", [0, 1])
def test_only_the_opener_plays_the_blind_solve(rules: Ruleset, opener: int) -> None:
    """One die each (the round is the game, so both solves see the same leaves): at every node of
    the opener the book holds the blind solve's policy, at every node of the other player the
    plain solve's; the two differ at the opening."""
    graph = lastbid.build(rules, dealt_root(rules, book.start(1, 1, opener, 1)), _final)
    blind = lastbid.solve(graph, 60, blind_opening=True)[0]
    plain = lastbid.solve(graph, 60)[0]
    held = book.build(rules, 1, iterations=60, starts=[(1, 1, opener)]).positions[(1, 1, opener)]
    assert held.actor[0] == opener
    for node, actor in enumerate(held.actor):
        solved = blind[node] if actor == opener else plain[node]
        assert np.array_equal(held.policy[node], book._pruned(solved)), (node, actor)
    assert not np.array_equal(book._pruned(blind[0]), book._pruned(plain[0]))


def _policy_at(
    rules: Ruleset, solved: book.Book, roll: tuple[int, ...], bids: Sequence[Bid] = ()
) -> dict[Action, float]:
    """The book's policy at 2 v 2, seat 0 opening, for the player on turn after ``bids`` with
    ``roll`` under their cup."""
    view = _view(rules, 2, (2, 2), opener=0, viewer=len(bids) % 2, bids=bids)
    found = solved.policy(rules, attrs.evolve(view, own_dice=roll))
    assert found is not None
    return found


def test_hards_opening_with_a_book_tells_nothing_of_its_hand(
    rules: Ruleset, small_book: book.Book
) -> None:
    """Issue 47's gate: heads-up with a book, hard opens with the book's blind opening and no
    heuristic blended in, so its opening bid and its hand share no information; without a book
    its (disguised) heuristic opening still tells some."""
    with_book = [
        (chance, MixedBot(rules, Random(0), book=small_book).policy(view))
        for _, chance, view in information.opening_views(rules, 2, 2)
    ]
    assert information.mutual_information(with_book) < 1e-9
    assert information.entropy(information.marginal(with_book)) > 1.0
    without = [
        (chance, MixedBot(rules, Random(0), book="off").policy(view))
        for _, chance, view in information.opening_views(rules, 2, 2)
    ]
    assert information.mutual_information(without) > 0.05


def test_the_command_builds_and_shows_a_book(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["--variant", "wild-sixes", "--variant", "dice-loss", "--dir", str(tmp_path)]
    shown = runner.invoke(cli, ["endgames", "show", *args])
    assert shown.exit_code == 0 and "no book" in shown.output
    built = runner.invoke(
        cli, ["endgames", "build", *args, "--max-dice", "1", "--iterations", "20"]
    )
    assert built.exit_code == 0, built.output
    assert "1 v 1 dice, P0 opens" in built.output and "2 positions" in built.output
    shown = runner.invoke(cli, ["endgames", "show", *args])
    assert (
        "2 positions up to 1 die each, 20 CFR+ iterations each, the last bid remembered, "
        "a blind opening"
    ) in shown.output


def test_hard_with_a_book_keeps_the_bot_contract_and_its_seeds(
    rules: Ruleset, small_book: book.Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three seats down to two with 2 dice each at most: the book plays the last rounds; a
    tournament is the same on one process or two (each reads the book from disk)."""

    def hard(table_rules: Ruleset, rng: Random) -> MixedBot:
        """Exact endgames only as kept (none here), so the book plays every heads-up round."""
        return MixedBot(table_rules, rng, endgames="cached", store=Store(None), book=small_book)

    assert check_bot(hard, rules, games=4, players=3, dice_per_player=2) > 0
    monkeypatch.setenv("LIARSDICE_ENDGAME_CACHE", str(tmp_path))
    book.save(small_book, rules, tmp_path / "books")
    played = [
        tournament.run(rules, ["mixed", "odds", "bayes"], 6, 3, dice_per_player=2, workers=n)
        for n in (1, 2)
    ]
    assert [r.wins for r in played[0].results] == [r.wins for r in played[1].results]
    assert book.find(rules) is not None


def test_a_book_built_beside_a_running_process_is_found(
    rules: Ruleset, small_book: book.Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LIARSDICE_ENDGAME_CACHE", str(tmp_path / "cache"))
    assert book.find(rules) is None
    book.save(small_book, rules, tmp_path / "cache" / "books")
    found = book.find(rules)
    assert found is not None and set(found.positions) == set(small_book.positions)
    rebuilt = book.build(rules, 1, iterations=5)
    book.save(rebuilt, rules, tmp_path / "cache" / "books")
    assert book.find(rules) is found, "read once per process: a rebuilt book needs a restart"


def test_the_command_refuses_rules_the_solver_does_not_take(tmp_path: Path) -> None:
    args = ["-v", "pip-sum", "-v", "dice-loss", "-o", "standard.wild_ones=false"]
    with pytest.raises(SystemExit) as stopped:
        main(["endgames", "build", *args, "--max-dice", "1", "--dir", str(tmp_path)])
    assert stopped.value.code == 2
    assert not list(tmp_path.iterdir())
