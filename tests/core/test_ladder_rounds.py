"""Rounds solved on their bid ladders (liarsdice.endgame.ladder, ladder_cfr, ladders) and whole-game
best responses on solved endgames (liarsdice.endgame.wholegame), met against the tree solver
and the exact calculator that asks policies as they play."""

from __future__ import annotations

import math
from pathlib import Path
from random import Random

import attrs
import numpy as np
import pytest
from click.testing import CliRunner

from liarsdice import Ruleset
from liarsdice.bots.mixed_bot import MixedBot
from liarsdice.cli import cli
from liarsdice.endgame import Limits, Store, book, cfr, ladder_cfr, ladder_policy, solve
from liarsdice.endgame.arrays import compiled as arrays_of
from liarsdice.endgame.book import start
from liarsdice.endgame.exact import key_hash
from liarsdice.endgame.ladder import Ladder, climb
from liarsdice.endgame.ladders import solve_round, whole_game
from liarsdice.endgame.response import measure
from liarsdice.endgame.rounds import RoundTree, Unsolvable, build, dealt_root, node_key
from liarsdice.endgame.solution import Endgame
from liarsdice.endgame.wholegame import best_responses
from liarsdice.models import Action, Bid, BidAction, GameState, PlayerState
from liarsdice.views import PlayerView


@pytest.mark.parametrize(
    ("variants", "position"),
    [
        (["wild-sixes", "dice-loss"], (1, 1, 0)),  # OpenSpiel's game, 12 rungs
        (["dice-loss"], (1, 2, 1)),  # 21 hands against 6, the second seat opening
        (["dice-loss"], (2, 1, 0)),  # 21 hands against 6, the first seat opening
        (["calza", "dice-loss"], (1, 1, 1)),  # two kinds of call, a die won back
        (["aces-switch", "dice-loss"], (1, 1, 0)),  # ones bid at half the quantity
        (["ones-locking", "dice-loss"], (1, 1, 1)),  # ones locked once bid: two modes
    ],
)
def test_an_iteration_on_the_ladder_is_one_on_the_tree(
    variants: list[str], position: tuple[int, int, int]
) -> None:
    """From the same regrets and sums (drawn at random, so that no two moves tie), one CFR+
    iteration on the ladder (in float64) gives the tree solver's regrets and exploitability.
    (Longer runs part where a regret is 0 in one and 1e-17 in the other.)"""
    rules = Ruleset.build(variants)
    root = dealt_root(rules, start(*position, 2))
    ladder = climb(rules, root)
    tree = build(rules, root)
    worth: dict[str, float] = {}
    draw = Random(1)
    payoffs = [worth.setdefault(o.key, draw.uniform(-1, 1)) for o in tree.outcomes]
    ladder_payoffs = [worth[o.key] for o in ladder.outcomes]
    on_ladder = ladder_cfr.Solver(ladder, dtype=np.float64)
    on_ladder.set_payoffs(ladder_payoffs)
    generator = np.random.default_rng(2)
    for raises, calls in (*on_ladder._regrets, *on_ladder._sums):
        raises[...] = generator.uniform(0.0, 1.0, raises.shape)
        calls[...] = generator.uniform(0.0, 1.0, calls.shape)
    on_tree = cfr.Solver(tree)
    on_tree.set_payoffs(payoffs)
    arrays = arrays_of(tree)
    on_tree._regrets = list(arrays.edge_arrays(_as_tree(ladder, tree, on_ladder._regrets)))
    on_tree._sums = list(arrays.edge_arrays(_as_tree(ladder, tree, on_ladder._sums)))
    on_tree._current = [arrays.normalised(p, on_tree._regrets[p]) for p in (0, 1)]
    on_tree._reach = [arrays.reach(p, on_tree._current[p])[1:] for p in (0, 1)]
    on_ladder._current = [None] * len(on_ladder._current)
    for solver in (on_tree, on_ladder):
        solver.iterations = 4
        solver.run(1)
    expected = np.array(_flat(arrays.nested(tuple(on_tree._regrets))))
    found = np.array(_flat(_as_tree(ladder, tree, on_ladder._regrets)))
    assert found == pytest.approx(expected, abs=1e-12)
    assert on_ladder.exploitability(ladder_payoffs) == pytest.approx(
        on_tree.exploitability(payoffs), abs=1e-12
    )


def _as_tree(
    ladder: Ladder, tree: RoundTree, levels: list[tuple[np.ndarray, np.ndarray]]
) -> list[list[list[float]]]:
    """Per-edge arrays of a ladder solver as a hand-major strategy over the tree's nodes."""
    place = {bid: rung for rung, bid in enumerate(ladder.rungs)}
    found: list[list[list[float]]] = [[] for _ in tree.actor]
    for key, node in tree.index.items():
        depth, number = ladder.node([place[Bid(q, f)] for _, q, f in key[1]])
        raises, calls = levels[depth]
        rows = [
            raises[math.comb(place[a.bid], depth + 1) + number]
            if isinstance(a, BidAction)
            else calls[ladder.calls.index(a.kind), number]
            for a in tree.actions[node]
        ]
        found[node] = np.array(rows).T.tolist()
    return found


def _flat(nested: list[list[list[float]]]) -> list[float]:
    return [x for node in nested for hand in node for x in hand]


def test_a_whole_round_solves_to_the_target_at_the_tree_solvers_pace() -> None:
    """OpenSpiel's 2 dice v 1 (262,144 nodes): to 0.01 in the tree solver's 45 iterations, and
    a best response over the whole game wins what it wins against the tree solver's (docs/bots.md:
    +0.6065 in seat 1, -0.5837 in seat 2)."""
    rules = Ruleset.build(["wild-sixes", "dice-loss"])
    limits = Limits(max_dice=3)
    solved = solve_round(rules, start(2, 1, 0, 2), limits=limits)
    assert solved.solver.iterations == 45
    assert solved.exploitability <= 0.01
    assert whole_game(rules, solved.solver, limits) == pytest.approx((0.6065, -0.5837), abs=2e-4)


def test_the_ladder_counts_every_node_of_the_tree() -> None:
    """Where every bid may open, the ladder's nodes are the tree's, numbered one to one."""
    rules = Ruleset.build(["dice-loss"])
    root = dealt_root(rules, start(1, 1, 0, 1))
    ladder = climb(rules, root)
    tree = build(rules, root)
    assert ladder.size == len(tree.actor) == 2**10
    place = {bid: rung for rung, bid in enumerate(ladder.rungs)}
    numbers = {ladder.node([place[Bid(q, f)] for _, q, f in key[1]]) for key in tree.index}
    assert len(numbers) == len(tree.index)
    assert all(0 <= number < 2**10 for _, number in numbers)


@pytest.mark.parametrize(
    ("variants", "position", "reason"),
    [
        (["palifico", "dice-loss"], (2, 1, 1), "another cannot be raised to"),
        (["pass", "dice-loss"], (2, 1, 1), "the legal raises are not the bids above it"),
    ],
)
def test_bids_that_are_no_ladder_are_refused_with_the_reason(
    variants: list[str], position: tuple[int, int, int], reason: str
) -> None:
    rules = Ruleset.build(variants)
    with pytest.raises(Unsolvable, match=reason):
        climb(rules, dealt_root(rules, start(*position, 2)))


def test_whole_game_best_responses_are_the_calculators(two_faces_rules: Ruleset) -> None:
    """Against a solved endgame of two rounds (2 dice v 1, then 1 v 1), the best responses
    worked out on its trees are what the calculator finds asking its policy as it plays."""
    state = start(2, 1, 0, 2)
    endgame = solve(two_faces_rules, state, limits=Limits(max_dice=3), store=Store(None))
    found = best_responses(two_faces_rules, endgame)[endgame.start]
    played = dict.fromkeys(endgame.players, endgame.policy)
    asked = measure(two_faces_rules, state, played)
    assert found == pytest.approx(asked.best, abs=1e-12)
    assert asked.exploitability > 1e-6  # not a trivial game: the check can fail


def test_a_round_solved_on_its_ladder_is_measured_as_the_calculator_measures_it(
    two_faces_rules: Ruleset,
) -> None:
    """2 dice each (8 rungs): the first round solved on its ladder, the rounds after it as
    endgames; the whole game's best responses are the calculator's against that play."""
    state = start(2, 2, 0, 2)
    limits = Limits(max_dice=3)
    solved = solve_round(two_faces_rules, state, limits=limits, target=0.002)
    assert solved.exploitability <= 0.002
    first_round = node_key(dealt_root(two_faces_rules, state))

    endgames: dict[tuple[object, ...], Endgame] = {}

    def play(view: PlayerView) -> dict[Action, float]:
        if view.dice_in_play == 4:
            return solved.solver.policy(view)
        position = (*(seat.dice for seat in view.seats), view.opener)
        if position not in endgames:
            endgames[position] = solve(two_faces_rules, _between(view), limits=limits)
        return endgames[position].policy(view)

    asked = measure(two_faces_rules, state, dict.fromkeys(solved.ladder.players, play))
    assert whole_game(two_faces_rules, solved.solver, limits) == pytest.approx(asked.best, abs=1e-5)
    assert solved.value == pytest.approx(asked.value[0], abs=1e-5)
    assert first_round == node_key(solved.ladder.root)


def _between(view: PlayerView) -> GameState:
    """The state between rounds a view's round was dealt from."""
    players = tuple(PlayerState(seat.name, seat.dice) for seat in view.seats)
    return GameState(players, view.dice_per_player, next_opener=view.opener)


def test_a_call_on_a_rung_no_node_bids_is_worth_nothing() -> None:
    """A rung that no legal opening reaches as the opener's has no call table (-1)."""
    rules = Ruleset.build(["dice-loss"])
    ladder = climb(rules, dealt_root(rules, start(1, 1, 0, 1)))
    assert ladder.table[0, 1 - ladder.opener, 0] == -1  # the lowest bid is only ever an opening
    assert bool(np.all(ladder.table[1:, :, 0] >= 0))


@pytest.fixture(scope="module")
def ladder_book(two_faces_rules: Ruleset) -> book.Book:
    """Up to 2 dice each, with the rounds of 3 dice solved exactly and those of 4 (2 v 2,
    either opener) on their ladders."""
    return book.build(two_faces_rules, max_dice=2, iterations=5, exact_dice=4)


def test_hard_plays_the_published_ladder_rounds_and_is_measured_exactly(
    two_faces_rules: Ruleset, ladder_book: book.Book
) -> None:
    """Hard (the book's exact rounds at 3 and 4 dice in play, live endgames at 2) over a whole
    game from 2 v 2: the calculator asking hard as it plays finds what the ladder's best
    responses find against the book's published policy, the next positions valued against
    their endgames."""
    rules = two_faces_rules
    assert ladder_book.ladders is not None and ladder_book.exact_dice == 4
    assert len(ladder_book.ladders.roots) == 2
    state = start(2, 2, 0, 2)
    hard = MixedBot(rules, Random(0), endgames="solve", store=Store(None), book=ladder_book)
    measured = measure(rules, state, {"P0": hard.policy, "P1": hard.policy})
    ladder = climb(rules, dealt_root(rules, state))
    solver = ladder_cfr.Solver(ladder)
    (index,) = [
        r
        for r, root in enumerate(ladder_book.ladders.roots)
        if root == key_hash(node_key(ladder.root))
    ]
    stored = ladder_book.ladders.strategy(index, solver)
    found = whole_game(rules, solver, Limits(max_dice=3), stored)
    assert found == pytest.approx(measured.best, abs=1e-6)
    assert measured.exploitability < 0.05


@pytest.mark.usefixtures("two_faces_installed")
def test_hard_plays_ladder_rounds_whose_ones_lock_and_is_measured_exactly() -> None:
    """Ones-locking: a bid on ones locks them (two modes). Hard, from a book of 2 dice each
    whose 2 v 2 rounds are ladders with modes, is found at every node, ones locked or not: the
    calculator asking it as it plays finds what the ladder's best responses find against the
    book's stored policy (a node not found would be played by the abstraction instead)."""
    rules = Ruleset.build(["two-faces", "dice-loss", "ones-locking"])
    built = book.build(rules, max_dice=2, iterations=5, exact_dice=4)
    assert built.ladders is not None and len(built.ladders.mode_keys) == 2 * 2
    state = start(2, 2, 1, 2)
    hard = MixedBot(rules, Random(0), endgames="solve", store=Store(None), book=built)
    measured = measure(rules, state, {"P0": hard.policy, "P1": hard.policy})
    ladder = climb(rules, dealt_root(rules, state))
    assert len(ladder.modes) == 2
    solver = ladder_cfr.Solver(ladder)
    (index,) = [
        r for r, root in enumerate(built.ladders.roots) if root == key_hash(node_key(ladder.root))
    ]
    found = whole_game(rules, solver, Limits(max_dice=3), built.ladders.strategy(index, solver))
    assert found == pytest.approx(measured.best, abs=1e-6)


def test_a_ladder_policy_drops_small_chances_and_keeps_where_its_player_goes(
    two_faces_rules: Ruleset,
) -> None:
    """Published with a threshold, every kept chance is at least it (to the 1/10000 rounding),
    each kept pair sums to 1, and a pair the player's own policy never reaches is not kept."""
    ladder = climb(two_faces_rules, dealt_root(two_faces_rules, start(2, 2, 1, 2)))
    solver = ladder_cfr.Solver(ladder)
    solver.set_payoffs([0.5 - index for index in range(len(ladder.outcomes))])
    solver.run(20)
    published = ladder_policy.publish([solver], threshold=0.05)
    assert published.chances.min() >= 500 - 1
    sums = np.add.reduceat(published.chances.astype(np.int64), published.offsets[:-1])
    assert set(sums.tolist()) == {10_000}
    everything = ladder_policy.publish([solver], threshold=0.0)
    assert (
        len(published)
        < len(everything)
        <= sum(
            len(ladder.hands[ladder.actor(d)]) * math.comb(len(ladder.rungs), d)
            for d in range(len(ladder.rungs) + 1)
        )
    )


def test_a_book_with_ladder_rounds_is_saved_and_read_back(
    two_faces_rules: Ruleset, ladder_book: book.Book, tmp_path: Path
) -> None:
    book.save(ladder_book, two_faces_rules, tmp_path)
    again = book.load(two_faces_rules, tmp_path)
    assert again is not None and again.ladders is not None and ladder_book.ladders is not None
    assert again.exact_dice == 4 and again.ladders.calls == ladder_book.ladders.calls
    for name, array in ladder_book.ladders.arrays().items():
        assert np.array_equal(getattr(again.ladders, name), array), name
    short = attrs.evolve(ladder_book.ladders, chances=ladder_book.ladders.chances[:-1])
    book.save(attrs.evolve(ladder_book, ladders=short), two_faces_rules, tmp_path / "short")
    with pytest.raises(book.BookError, match="do not fit together"):
        book.load(two_faces_rules, tmp_path / "short")


@pytest.mark.usefixtures("two_faces_installed")
def test_the_command_builds_the_ladder_rounds_and_shows_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--exact-dice 4`` adds the rounds of 4 dice in play (2 v 2, either opener) on their
    ladders to those of 3 solved exactly; ``show`` counts them. A book already there is named
    first: the build replaces it."""
    monkeypatch.setenv("LIARSDICE_ENDGAME_CACHE", str(tmp_path / "cache"))  # nothing solved yet
    runner = CliRunner()
    rules = ["-v", "two-faces", "-v", "dice-loss", "-o", "standard.wild_ones=false"]
    args = [*rules, "--dir", str(tmp_path)]
    older = Ruleset.build(["two-faces", "dice-loss"], {"standard.wild_ones": False})
    (tmp_path / book.file_name(older)).write_bytes(b"a book built before")
    built = runner.invoke(
        cli,
        ["endgames", "build", *args, "--max-dice", "2", "--iterations", "5", "--exact-dice", "4"],
    )
    assert built.exit_code == 0, built.output
    assert "holds a book of these rules (0.0 MB): this build replaces it" in built.output
    for opener in ("P0", "P1"):
        assert f"2 v 2 dice, {opener} opens: solved on its ladder, exploitability" in built.output
    assert "1 v 2 dice, P0 opens: solved exactly" in built.output
    shown = runner.invoke(cli, ["endgames", "show", *args])
    assert shown.exit_code == 0, shown.output
    assert "the rounds with 4 dice in play solved on their bid ladders (2 rounds" in shown.output


def test_a_build_says_why_a_round_is_no_ladder_and_keeps_none() -> None:
    """The pass call does not end the round: no ladder, so no ladder rounds, and the build is
    told why (the book plays its abstraction there)."""
    rules = Ruleset.build(["pass", "dice-loss"])
    told: list[str] = []
    assert ladder_policy.build(rules, [start(2, 1, 1, 2)], told.append) is None
    (line,) = told
    assert line.startswith("2 v 1 dice, P1 opens: not solved on its ladder (")
    assert line.endswith("): the book keeps its abstraction there")


@pytest.mark.usefixtures("two_faces_installed")
def test_a_round_whose_next_rounds_lead_back_to_each_other_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Calza wins a die back (2 v 1, 1 v 1, 2 v 1 again): the endgames after the round cannot be
    measured by whole-game best responses, but the round is solved and published all the same,
    and the build tells its steps."""
    monkeypatch.setenv("LIARSDICE_ENDGAME_CACHE", str(tmp_path))  # nothing solved yet
    rules = Ruleset.build(["two-faces", "dice-loss", "calza"], {"standard.wild_ones": False})
    told: list[str] = []
    found = ladder_policy.build(rules, [start(2, 2, 0, 3)], told.append)  # 3 each: a die won back
    assert found is not None and len(found.roots) == 1 and "exact" in found.calls
    assert told[0].startswith("2 v 2 dice, P0 opens: 8 rungs, 256 nodes, in ")
    assert told[-1].startswith("2 v 2 dice, P0 opens: solved on its ladder, exploitability")


def test_a_stopped_build_goes_on_from_the_ladder_rounds_it_solved(
    two_faces_rules: Ruleset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each ladder round published is kept in the endgame cache: a second build reads it
    instead of solving it again, and gets the same rounds; a damaged one is solved again."""
    monkeypatch.setenv("LIARSDICE_ENDGAME_CACHE", str(tmp_path))
    starts = [start(2, 2, 0, 2), start(2, 2, 1, 2)]
    told: list[str] = []
    first = ladder_policy.build(two_faces_rules, starts, told.append)
    kept = sorted((tmp_path / "ladders").iterdir())
    assert first is not None and len(kept) == 2
    assert sum("solved on its ladder, exploitability" in line for line in told) == 2
    told.clear()
    again = ladder_policy.build(two_faces_rules, starts, told.append)
    assert again is not None and len(told) == 2
    assert all("solved on its ladder before" in line for line in told)
    for name, array in first.arrays().items():
        assert np.array_equal(getattr(again, name), array), name
    kept[0].write_bytes(b"not an archive")
    told.clear()
    ladder_policy.build(two_faces_rules, starts, told.append)
    assert sum("solved on its ladder, exploitability" in line for line in told) == 1
