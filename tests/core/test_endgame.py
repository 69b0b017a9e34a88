"""Two-player endgames are solved from the rules alone: the known value, a low exploitability,
the legal moves exactly, the rules' own rounds (palifico), cycles, refusals with reasons, the
assumptions of the tree checked, and the caches."""

from __future__ import annotations

import gc
import json
import math
import re
import types
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from random import Random
from typing import Any

import attrs
import pytest

from liarsdice import Ruleset, VariantInfo, engine, hookimpl
from liarsdice.endgame import (
    Endgame,
    Limits,
    Store,
    Unsolvable,
    cached,
    cfr,
    names,
    rounds,
    solvable,
    solve,
    solving,
    store,
)
from liarsdice.endgame.draws import Drawn, Scripted, every_draw
from liarsdice.models import (
    Action,
    Bid,
    BidAction,
    CallAction,
    GameState,
    PlacedBid,
    PlayerState,
    Resolution,
    RoundState,
    Sight,
)
from liarsdice.testing import extra_variants
from liarsdice.views import player_view

OPENSPIEL_VALUE = -7 / 258
"""The value of OpenSpiel's liars_dice with one die each, to the first player (who opens)."""


def table(*dice: int, per_player: int = 5, opener: str = "A", plugins: Any = None) -> GameState:
    """A state between rounds: players A, B, ... holding ``dice``, ``opener`` to open."""
    players = tuple(PlayerState(chr(ord("A") + i), n) for i, n in enumerate(dice))
    return GameState(players, per_player, next_opener=opener, plugins=plugins or {})


def seated(
    players: Sequence[str], *dice: int, per_player: int = 5, plugins: Any = None
) -> GameState:
    """A state between rounds: ``players`` in seat order holding ``dice``, the first to open."""
    seats = tuple(PlayerState(name, n) for name, n in zip(players, dice, strict=True))
    return GameState(seats, per_player, next_opener=players[0], plugins=plugins or {})


def solved_with(rules: Ruleset, start: GameState | Any, **options: Any) -> Endgame:
    return solve(rules, start, store=SHARED, **options)


GAME_OVER = GameState((PlayerState("A", 1), PlayerState("B", 0, alive=False)), 5, winners=("A",))
SHARED = Store(None)
"""One store for the module, so that a ruleset's endgame is solved once."""


@pytest.fixture(scope="module")
def openspiel_rules() -> Ruleset:
    """OpenSpiel's liar's dice: sixes wild and biddable, one die each, the loser is out."""
    return Ruleset.build(["wild-sixes", "dice-loss"])


@pytest.fixture(scope="module")
def openspiel_game(openspiel_rules: Ruleset) -> Endgame:
    return solved_with(openspiel_rules, table(1, 1, per_player=1))


def test_one_die_each_has_openspiels_known_value(openspiel_game: Endgame) -> None:
    # An exploitability of e puts the value within 2e of the game's (the value lies between
    # the two best responses).
    assert openspiel_game.exploitability <= 0.01
    assert abs(openspiel_game.value("A") - OPENSPIEL_VALUE) <= 2 * openspiel_game.exploitability
    assert openspiel_game.value("B") == -openspiel_game.value("A")
    assert openspiel_game.estimated == ()


def test_a_uniform_policy_is_far_from_equilibrium(openspiel_game: Endgame) -> None:
    solved = openspiel_game.rounds[openspiel_game.start]
    tree = solved.tree
    uniform = [
        [[1 / len(kids)] * len(kids)] * len(tree.hands[a])
        for a, kids in zip(tree.actor, tree.kids, strict=True)
    ]
    payoffs = [tree.payoff(outcome) or 0.0 for outcome in tree.outcomes]  # each ends the game
    assert cfr.evaluate(tree, payoffs, uniform).exploitability > 30 * solved.exploitability
    assert cfr.exploitability(tree, payoffs, uniform) > 0.3


def test_openspiel_measures_the_same_exploitability(openspiel_game: Endgame) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as tabular
    from open_spiel.python.algorithms import exploitability

    game = pyspiel.load_game("liars_dice", {"numdice": 1, "players": 2})
    policy = tabular.TabularPolicy(game)
    solved = openspiel_game.rounds[openspiel_game.start]
    tree = solved.tree

    def code(action: Action) -> int:  # OpenSpiel: bid (q, f) is 6 (q - 1) + f - 1; 12 calls
        return (
            6 * (action.bid.quantity - 1) + action.bid.face - 1
            if isinstance(action, BidAction)
            else 12
        )

    def copy(node: int, history: list[int]) -> None:
        seat = tree.actor[node]
        for hand, dist in zip(tree.hands[seat], solved.policy[node], strict=True):
            if dist is not None:
                bids = [f"{a // 6 + 1}-{a % 6 + 1}" for a in history]
                row = policy.policy_for_key(" ".join([str(hand[0]), *bids]))
                row[:] = 0.0
                for action, chance in zip(tree.actions[node], dist, strict=True):
                    row[code(action)] = chance
        for action, kid in zip(tree.actions[node], tree.kids[node], strict=True):
            if kid >= 0:
                copy(kid, [*history, code(action)])

    copy(0, [])
    assert exploitability.nash_conv(game, policy) / 2 == pytest.approx(
        solved.exploitability, abs=1e-9
    )


def reference_cfr_plus(
    tree: rounds.RoundTree, payoffs: Sequence[float], iterations: int
) -> list[list[list[float]]]:
    """CFR+ written plainly, one pair of hands at a time: the average strategy (weighted by the
    iteration squared), hand-major, after ``iterations``."""
    regrets = _blank(tree)
    sums = _blank(tree)
    for t in range(1, iterations + 1):
        for player in (0, 1):
            _reference_pass(tree, payoffs, player, float(t) ** 2, regrets, sums)
    return [[_matched(row) for row in node] for node in sums]


def _blank(tree: rounds.RoundTree) -> list[list[list[float]]]:
    return [[[0.0] * len(k) for _ in tree.hands[tree.actor[n]]] for n, k in enumerate(tree.kids)]


def _matched(row: list[float]) -> list[float]:
    total = sum(row)
    return [x / total for x in row] if total > 0.0 else [1.0 / len(row)] * len(row)


def _reference_pass(
    tree: rounds.RoundTree,
    payoffs: Sequence[float],
    player: int,
    weight: float,
    regrets: list[list[list[float]]],
    sums: list[list[list[float]]],
) -> None:
    """``player``'s update: their reach added to ``sums``, their ``regrets`` updated."""
    actor, kids = tree.actor, tree.kids
    sign = 1.0 if player == 0 else -1.0
    current = [[_matched(row) for row in node] for node in regrets]
    gains = _blank(tree)

    def payoff(c: int, h0: int, h1: int) -> float:
        table = tree.tables[c]
        return sum(payoffs[o] * p for o, p in table.cells[table.rows[h0]][table.cols[h1]])

    def walk(node: int, hands: tuple[int, int], other: float) -> float:
        """``player``'s value below ``node``, the other's reach (with chance) ``other``."""
        mover = actor[node]
        strategy = current[node][hands[mover]]
        values = []
        for kid, chance in zip(kids[node], strategy, strict=True):
            below = other if mover == player else other * chance
            values.append(
                walk(kid, hands, below) if kid >= 0 else sign * below * payoff(~kid, *hands)
            )
        if mover != player:
            return sum(values)
        expected = sum(s * v for s, v in zip(strategy, values, strict=True))
        row = gains[node][hands[player]]
        for a, v in enumerate(values):
            row[a] += v - expected
        return expected

    def average(node: int, hand: int, own: float) -> None:
        for a, kid in enumerate(kids[node]):
            reach = own
            if actor[node] == player:
                reach = own * current[node][hand][a]
                sums[node][hand][a] += reach
            if kid >= 0:
                average(kid, hand, reach)

    for hand in range(len(tree.hands[player])):
        average(0, hand, weight)
    for h0, c0 in enumerate(tree.chances[0]):
        for h1, c1 in enumerate(tree.chances[1]):
            walk(0, (h0, h1), c1 if player == 0 else c0)
    for node in range(len(kids)):
        if actor[node] == player:
            regrets[node] = [
                [max(r + g, 0.0) for r, g in zip(rs, gs, strict=True)]
                for rs, gs in zip(regrets[node], gains[node], strict=True)
            ]


@pytest.mark.parametrize("dice", [(2, 1), (1, 2)])
def test_cfr_plus_is_the_plain_algorithm(two_faces_rules: Ruleset, dice: tuple[int, int]) -> None:
    """The vectorised solver's average after a few iterations is the plain algorithm's, with a
    round that goes on (a payoff of 0.25) besides the game won or lost."""
    tree = rounds.build(two_faces_rules, rounds.dealt_root(two_faces_rules, table(*dice)))
    payoffs = [0.25 if (p := tree.payoff(outcome)) is None else p for outcome in tree.outcomes]
    solver = cfr.Solver(tree)
    solver.set_payoffs(payoffs)
    solver.run(5)
    found = solver.average()
    expected = reference_cfr_plus(tree, payoffs, 5)
    for node, dists in zip(expected, found, strict=True):
        for dist, got in zip(node, dists, strict=True):
            assert got == pytest.approx(dist, abs=1e-9)
    assert solver.exploitability(payoffs) == pytest.approx(
        cfr.exploitability(tree, payoffs, found), abs=1e-12
    )


def test_a_tree_compiled_for_the_solver_is_not_kept_alive(two_faces_rules: Ruleset) -> None:
    tree = rounds.build(two_faces_rules, rounds.dealt_root(two_faces_rules, table(1, 1)))
    solver = cfr.Solver(tree)
    solver.run(2)
    assert cfr.exploitability(tree, [1.0, -1.0], solver.average()) > 0.0
    alive = weakref.ref(tree)
    del tree, solver
    gc.collect()
    assert alive() is None


def play_rounds(rules: Ruleset, endgame: Endgame, start: GameState, rounds: int) -> set[Any]:
    """Deal ``start``'s round ``rounds`` times and play it out by ``endgame``'s policy, checking
    at every decision that the policy is a distribution over exactly the legal moves; the bid
    histories met."""
    rng = Random(7)
    seen = set()
    for _ in range(rounds):
        state, _ = engine.start_round(rules, start, rng)
        while state.round is not None and not state.round.over:
            player = state.round.turn
            policy = endgame.policy(player_view(rules, state, player))
            bids = engine.legal_bids(rules, state, player)
            calls = engine.legal_calls(rules, state, player)
            legal = {*(BidAction(player, b) for b in bids), *(CallAction(player, k) for k in calls)}
            assert set(policy) == legal
            assert all(p >= 0.0 for p in policy.values())
            assert math.fsum(policy.values()) == pytest.approx(1.0, abs=1e-9)
            seen.add(state.round.bids)
            actions = list(policy)
            action = rng.choices(actions, weights=[policy[a] for a in actions])[0]
            state, _ = engine.step(rules, state, action, rng)
    return seen


def test_the_policy_spans_exactly_the_legal_moves(
    openspiel_rules: Ruleset, openspiel_game: Endgame
) -> None:
    seen = play_rounds(openspiel_rules, openspiel_game, table(1, 1, per_player=1), 60)
    assert len(seen) > 30


def test_a_view_finds_its_round_in_a_solved_endgame(
    openspiel_rules: Ruleset, openspiel_game: Endgame
) -> None:
    state, _ = engine.start_round(openspiel_rules, table(1, 1, per_player=1), Random(1))
    state, _ = engine.step(openspiel_rules, state, BidAction("A", Bid(1, 2)), Random(1))
    view = player_view(openspiel_rules, state, "B")
    assert solved_with(openspiel_rules, view) is openspiel_game
    assert openspiel_game.covers(view)
    assert not openspiel_game.covers(player_view(openspiel_rules, state, "A"))  # not on turn
    with pytest.raises(KeyError, match="not on turn"):
        openspiel_game.policy(player_view(openspiel_rules, state, "A"))


@pytest.mark.parametrize(
    ("variants", "options", "start", "reason"),
    [
        (["dice-loss"], {}, table(1, 1, 1), "between two players, and 3 are in"),
        (["dice-loss"], {}, table(2, 1), "3 dice are in play, more than the 2"),
        (["dice-loss"], {}, GAME_OVER, "the game is over"),
        (["dice-loss", "calza"], {"calza.anyone": True}, table(1, 1), "calls out of turn (exact)"),
        (["dice-loss", "pass"], {}, table(1, 1), "the call pass does not end the round"),
        (["dice-loss", "bluff"], {}, table(1, 1), "bluff read payloads"),
    ],
    ids=["three players", "too many dice", "over", "out of turn", "pass", "payloads"],
)
def test_refuses_at_once_with_a_reason(
    variants: list[str], options: dict[str, Any], start: GameState, reason: str
) -> None:
    rules = Ruleset.build(variants, options)
    verdict = solvable(rules, start)
    assert not verdict and verdict.reason is not None and reason in verdict.reason
    with pytest.raises(Unsolvable, match=re.escape(reason)):
        solve(rules, start, store=Store(None))


def test_refuses_a_round_being_played_but_takes_a_view_of_it(openspiel_rules: Ruleset) -> None:
    between = table(1, 1, per_player=1)
    started, _ = engine.start_round(openspiel_rules, between, Random(2))
    assert solvable(openspiel_rules, between) and solvable(openspiel_rules, between).reason is None
    assert "a round is being played" in str(solvable(openspiel_rules, started).reason)
    assert solvable(openspiel_rules, player_view(openspiel_rules, started, "A"))
    assert "not of a round" in str(
        solvable(openspiel_rules, player_view(openspiel_rules, between, "A")).reason
    )


def _plugin(name: str, *hooks: Callable[..., Any]) -> types.ModuleType:
    module = types.ModuleType(name)
    for hook in hooks:
        setattr(module, hook.__name__, hook)

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(title=name, summary=f"a test plugin: {name}")

    module.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    return module


@hookimpl
def liarsdice_bid_made(rng: Random) -> Sequence[Any]:
    rng.random()  # a reroll under the cup, say
    return []


@hookimpl
def liarsdice_bid_problem(state: GameState, player: str, bid: Bid) -> str | None:
    assert state.round is not None
    return "no bids on your own face" if bid.face in state.round.rolls[player] else None


@hookimpl
def liarsdice_resolve_call(state: GameState, player: str, call: str, count: int) -> Resolution:
    assert state.round is not None
    placed = state.round.bids[-1]
    late = len(state.round.bids) >= 3  # a late challenge always wins: the history matters
    stands = count >= placed.bid.quantity and not late
    loser, winner = (player, placed.player) if stands else (placed.player, player)
    return Resolution(
        call, player, placed.player, placed.bid, count, not stands, (loser,), (winner,)
    )


@pytest.mark.parametrize(
    ("plugin", "reason"),
    [
        (
            _plugin("reroller", liarsdice_bid_made),
            "reroller's liarsdice_bid_made draws a real number when a bid is made",
        ),
        (
            _plugin("peeker", liarsdice_bid_problem),
            "the legal moves after 0 bids depend on the dice",
        ),
        (_plugin("late", liarsdice_resolve_call), "depends on more of the history"),
    ],
    ids=["a draw in a round", "moves that depend on the dice", "a call that reads the history"],
)
def test_refuses_what_the_walk_of_a_round_finds(plugin: types.ModuleType, reason: str) -> None:
    with extra_variants({plugin.__name__: plugin}):
        rules = Ruleset.build(["dice-loss", plugin.__name__])
        start = table(1, 1)
        assert solvable(rules, start)
        with pytest.raises(Unsolvable, match=reason):
            rounds.build(rules, rounds.dealt_root(rules, start), audit=1)


def test_refuses_sights_and_a_game_that_grows_beyond_the_limits() -> None:
    with pytest.raises(Unsolvable, match="who sees which dice"):
        solve(Ruleset.build(["dice-loss", "forehead"]), table(1, 1), store=Store(None))
    dudo = Ruleset.build(preset="dudo")
    kept = Store(None)
    with pytest.raises(Unsolvable, match="A holding 2 dice and B 1, more than the 2"):
        solve(dudo, table(1, 1), store=kept)
    assert len(kept.refused) == 1  # asked again, it is refused without a walk
    with pytest.raises(Unsolvable, match="A holding 2 dice"):
        solve(dudo, table(1, 1), store=kept)


def test_settling_draws_are_enumerated_with_their_chances() -> None:
    found = dict(every_draw(lambda rng: (rng.randrange(3), rng.choice("ab")), 10))
    assert sorted(found) == [(a, b) for a in range(3) for b in "ab"]
    assert all(chance == pytest.approx(1 / 6) for chance in found.values())
    with pytest.raises(Drawn, match="a real number"):
        every_draw(lambda rng: rng.random(), 10)
    with pytest.raises(Drawn, match="an integer below 6"):
        Scripted(strict=True).randrange(6)

    revolver = Ruleset.build(["revolver"])
    tree = rounds.build(revolver, rounds.dealt_root(revolver, table(1, 1, per_player=1)))
    chances = {round(p, 9) for t in tree.tables for row in t.cells for cell in row for _, p in cell}
    assert chances == {round(1 / 6, 9), round(5 / 6, 9)}  # the pull after a first loss
    with pytest.raises(Unsolvable, match="more than 3 different rounds"):
        solve(revolver, table(1, 1, per_player=1), limits=Limits(max_rounds=3), store=Store(None))


@pytest.mark.parametrize(
    ("preset", "audit"),
    [("online", 29), ("cheko", 29), ("dudo", 7), ("perudo", 29), ("perudo-box", 29)],
)
def test_the_memoised_outcomes_and_hidden_dice_hold_on_the_presets(preset: str, audit: int) -> None:
    # Every audit-th node in full: its moves, the state after its bids and its calls' outcomes
    # for every pair of hands, against those found once on hidden dice or memoised.
    rules = Ruleset.build(preset=preset)
    tree = rounds.build(rules, rounds.dealt_root(rules, table(1, 1, opener="B")), audit=audit)
    assert tree.actor[0] == 1 and tree.players == ("A", "B")


def test_the_memoised_outcomes_hold_everywhere_on_the_baseline() -> None:
    rules = Ruleset.build(["dice-loss"])
    tree = rounds.build(rules, rounds.dealt_root(rules, table(1, 1)), audit=1)
    assert len(tree.actor) == 2**10  # every rising sequence of the 10 bids on 2 dice


def test_a_palifico_round_is_solved_with_palifico_rules() -> None:
    rules = Ruleset.build(preset="perudo-box")
    palifico = table(1, 1)  # A is down to one die and has not had a palifico round
    ordinary = table(1, 1, plugins={"palifico": {"done": ["A", "B"]}})
    special = rounds.build(rules, rounds.dealt_root(rules, palifico))
    usual = rounds.build(rules, rounds.dealt_root(rules, ordinary))
    opening = {a.bid for a in special.actions[0] if isinstance(a, BidAction)}
    assert Bid(1, 1) in opening
    assert Bid(1, 1) not in {a.bid for a in usual.actions[0] if isinstance(a, BidAction)}
    assert '"active":"A"' in special.key[2]
    endgame = solved_with(rules, palifico)
    state, _ = engine.start_round(rules, palifico, Random(4))
    policy = endgame.policy(player_view(rules, state, "A"))
    assert {a.bid for a in policy if isinstance(a, BidAction)} == opening
    assert endgame.exploitability <= 0.01
    # A view in the middle of the palifico round finds it again (palifico acts on no bid).
    bid = max(policy, key=policy.__getitem__)
    state, _ = engine.step(rules, state, bid, Random(4))
    assert solved_with(rules, player_view(rules, state, "B")) is endgame


def test_a_view_after_a_bid_that_changed_the_public_state_finds_its_round() -> None:
    rules = Ruleset.build(preset="online")  # bidding ones locks them: a bid changes the state
    state, _ = engine.start_round(rules, table(1, 1), Random(3))
    state, _ = engine.step(rules, state, BidAction("A", Bid(1, 1)), Random(3))
    assert state.plugin("ones-locking")["locked"] is True
    view = player_view(rules, state, "B")
    endgame = solve(rules, view, store=SHARED, target=0.05)
    assert endgame.covers(view)
    assert set(endgame.policy(view)) == {
        *(BidAction("B", bid) for bid in engine.legal_bids(rules, state, "B")),
        CallAction("B", "challenge"),
    }


def test_rounds_that_lead_back_to_each_other_are_solved_together() -> None:
    # One die each at a one-die table: a good exact call costs nobody a die and the caller opens.
    rules = Ruleset.build(["dice-loss", "calza"])
    endgame = solved_with(rules, table(1, 1, per_player=1))
    assert len(endgame.rounds) == 2
    values = sorted(solved.value for solved in endgame.rounds.values())
    assert values[0] == pytest.approx(-values[1], abs=4 * endgame.exploitability)  # symmetry
    assert endgame.exploitability <= 0.01
    play_rounds(rules, endgame, table(1, 1, per_player=1, opener="B"), 20)  # challenge, exact


def test_positions_beyond_the_limits_may_be_estimated_instead() -> None:
    dudo = Ruleset.build(preset="dudo")
    endgame = solve(
        dudo, table(1, 1), limits=Limits(beyond="dice-share"), store=Store(None), target=0.05
    )
    assert len(endgame.estimated) == 2  # A or B regains a die: 2 v 1 (in the canonical names)
    assert json.loads(endgame.estimated[0])[0] in (
        [["P0", 1, True], ["P1", 2, True]],
        [["P0", 2, True], ["P1", 1, True]],
    )


def test_solutions_are_kept_on_disk_and_read_back(
    tmp_path: Path,
    openspiel_rules: Ruleset,
    openspiel_game: Endgame,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept = Store(tmp_path)
    start = table(1, 1, per_player=1)
    key = store.solution_key(openspiel_rules, openspiel_game.start, Limits().to_data())
    kept.put(key, openspiel_game)
    assert [p.name for p in tmp_path.iterdir()] == [kept.path(key).name]  # type: ignore[union-attr]
    fresh = Store(tmp_path)
    loaded = solve(openspiel_rules, start, store=fresh)
    assert loaded is not openspiel_game
    original, read = openspiel_game.rounds[openspiel_game.start], loaded.rounds[loaded.start]
    assert read.policy == original.policy and read.value == original.value
    assert read.exploitability == original.exploitability
    # A solution for a looser target is not taken for a stricter one.
    assert fresh.get(key, 0.001, lambda state: rounds.build(openspiel_rules, state)) is None
    # A file of the format before the names were renamed is not read.
    path = kept.path(key)
    assert path is not None and store.FORMAT == 2
    path.write_text(path.read_text().replace('"format":2', '"format":1', 1))
    assert Store(tmp_path).get(key, 1.0, lambda state: rounds.build(openspiel_rules, state)) is None
    monkeypatch.setenv(store.ENV, str(tmp_path / "elsewhere"))
    assert store.default_directory() == tmp_path / "elsewhere"
    monkeypatch.setenv(store.ENV, "")
    assert store.default_directory() is None
    monkeypatch.delenv(store.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert store.default_directory() == tmp_path / "liarsdice" / "endgames"


# --- an endgame is identified up to the players' names ------------------------------------------


def renamed(policy: dict[Action, float], to: dict[str, str]) -> dict[Action, float]:
    """``policy`` with each action's player renamed by ``to``."""
    return {attrs.evolve(action, player=to[action.player]): p for action, p in policy.items()}


def test_tables_with_other_names_share_one_solution(
    tmp_path: Path, openspiel_rules: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = Store(tmp_path)
    first = solve(openspiel_rules, seated(["ann", "bob"], 1, 1, per_player=1), store=kept)
    entries = dict(kept.memory)
    assert len(list(tmp_path.iterdir())) == 1
    assert first.players == ("ann", "bob") and json.loads(first.start[0])[0][0][0] == "P0"

    def unsolved(*_: Any) -> Endgame:
        raise AssertionError("solved again")

    monkeypatch.setattr(solving, "_solve", unsolved)
    # Zed opens, seated first; alphabetically, Amy comes first.
    other = seated(["Zed", "Amy"], 1, 1, per_player=1)
    second = solve(openspiel_rules, other, store=kept)
    assert kept.memory == entries and len(list(tmp_path.iterdir())) == 1  # a hit
    assert second.rounds is first.rounds and second.players == ("Zed", "Amy")
    assert second.value("Zed") == first.value("ann") and second.value("Amy") == first.value("bob")
    assert solve(openspiel_rules, other, store=kept) is second  # one object per table
    # A new store reads the one file for either table.
    assert cached(openspiel_rules, other, store=Store(tmp_path)) is not None

    # The same deal at both tables, played along: the policies are the same up to the renaming.
    to = {"ann": "Zed", "bob": "Amy"}
    rules = openspiel_rules
    for seed in range(12):
        real, _ = engine.start_round(
            rules, seated(["ann", "bob"], 1, 1, per_player=1), Random(seed)
        )
        again, _ = engine.start_round(rules, other, Random(seed))
        rng = Random(seed)
        while real.round is not None and not real.round.over:
            player = real.round.turn
            view, twin = player_view(rules, real, player), player_view(rules, again, to[player])
            assert twin.own_dice == view.own_dice
            policy = first.policy(view)
            assert second.policy(twin) == first.policy(twin) == renamed(policy, to)
            assert cached(rules, twin, store=kept) is not None
            actions = list(policy)
            action = rng.choices(actions, weights=[policy[a] for a in actions])[0]
            real, _ = engine.step(rules, real, action, Random(0))
            again, _ = engine.step(rules, again, attrs.evolve(action, player=to[player]), Random(0))


@pytest.mark.parametrize("preset", ["online", "cheko", "dudo", "perudo", "perudo-box"])
def test_the_engine_plays_the_renamed_round_as_the_real_one(preset: str) -> None:
    # The round's tree under the real names is the canonical one renamed: the same moves, the
    # same children and the same outcomes (palifico's state included: the opener's round).
    rules = Ruleset.build(preset=preset)
    real = seated(["Zed", "Amy"], 1, 1, plugins={"palifico": {"done": ["Amy"]}})
    renaming = names.renaming(real)
    assert not renaming.identity and renaming.canonical == ("P0", "P1")
    tree = rounds.build(rules, rounds.dealt_root(rules, real))
    canon = rounds.build(rules, rounds.dealt_root(rules, renaming.state(real)))
    assert tree.players == ("Zed", "Amy") and canon.players == ("P0", "P1")
    assert tree.actor == canon.actor and tree.kids == canon.kids and tree.tables == canon.tables
    assert tree.actions == tuple(
        tuple(renaming.action(action) for action in node) for node in canon.actions
    )
    assert renaming.node_key(tree.root) == canon.key
    assert {renaming.node_key(tree.root): 0} == {key: n for key, n in canon.index.items() if n == 0}
    assert len(tree.index) == len(canon.index)
    for mine, theirs in zip(tree.outcomes, canon.outcomes, strict=True):
        assert tuple(renaming.name(w) for w in mine.winners) == theirs.winners
        if mine.state is not None:
            assert rounds.position_key(renaming.state(mine.state)) == theirs.key


def test_the_renaming_reaches_palificos_state() -> None:
    rules = Ruleset.build(preset="perudo-box")  # palifico keeps who has had theirs, by name
    kept = Store(None)

    def solved(players: list[str], plugins: Any = None) -> Endgame:
        return solve(rules, seated(players, 1, 1, plugins=plugins), store=kept, target=0.05)

    # ann is down to one die and opens her palifico round; so does Zed at the other table.
    endgame = solved(["ann", "bob"])
    assert '"active":"P0"' in endgame.start[2] and '"done":["P0"]' in endgame.start[2]
    assert "ann" not in json.dumps(list(endgame.start))
    assert solved(["Zed", "Amy"]).rounds is endgame.rounds
    # Who has had theirs is renamed too: bob's and Amy's (the second seat) are one endgame.
    had = {"palifico": {"done": ["Amy"], "active": None}}
    assert names.renaming(seated(["Zed", "Amy"], 1, 1, plugins=had)).plugins(had) == {
        "palifico": {"done": ["P1"], "active": None}
    }
    second = solved(["Zed", "Amy"], had)
    assert '"done":["P1","P0"]' in second.start[2] and second.rounds is not endgame.rounds
    assert (
        solved(["ann", "bob"], {"palifico": {"done": ["bob"], "active": None}}).rounds
        is second.rounds
    )
    # A view in the middle of Zed's palifico round at the second table finds it.
    state, _ = engine.start_round(rules, seated(["Zed", "Amy"], 1, 1), Random(4))
    assert state.plugin("palifico")["active"] == "Zed"
    view = player_view(rules, state, "Zed")
    assert endgame.covers(view)
    assert {action.player for action in endgame.policy(view)} == {"Zed"}


def test_a_name_held_where_it_cannot_be_renamed_keeps_the_real_names() -> None:
    rules = Ruleset.build(["dice-loss"])
    unsafe = [
        {"notes": {"last": "Zed lost"}},  # inside a longer string
        {"notes": {"last": "P1"}},  # a canonical name that is nobody here
        {"notes": {"Zed": 1}},  # a plugin's field
    ]
    for plugins in unsafe:
        state = seated(["Zed", "Amy"], 1, 1, per_player=1, plugins=plugins)
        assert names.renaming(state).identity, plugins
    assert not names.renaming(
        seated(["Zed", "Amy"], 1, 1, per_player=1, plugins={"notes": {"last": {"Zed": ["Amy"]}}})
    ).identity
    kept = Store(None)
    state = seated(["Zed", "Amy"], 1, 1, per_player=1, plugins=unsafe[0])
    endgame = solve(rules, state, store=kept, target=0.05)
    assert endgame.players == ("Zed", "Amy") and '"Zed"' in endgame.start[0]
    assert endgame.rounds[endgame.start].tree.players == ("Zed", "Amy")
    play_rounds(rules, endgame, state, 10)
    # Another table's like start is not this one: solved on its own, correctly.
    other = seated(["ann", "bob"], 1, 1, per_player=1, plugins={"notes": {"last": "ann lost"}})
    again = solve(rules, other, store=kept, target=0.05)
    assert again.rounds is not endgame.rounds and again.players == ("ann", "bob")
    assert again.value("ann") == pytest.approx(endgame.value("Zed"), abs=0.2)
    assert [key for key in kept.memory if "Zed" in key] == [
        store.solution_key(rules, endgame.start, Limits().to_data())
    ]
    # The real names are shown in a refusal found under the canonical ones.
    dudo = Ruleset.build(preset="dudo")
    with pytest.raises(Unsolvable, match="Zed holding 2 dice and Amy 1, more than the 2"):
        solve(dudo, seated(["Zed", "Amy"], 1, 1), store=kept)
    with pytest.raises(Unsolvable, match="ann holding 2 dice and bob 1, more than the 2"):
        solve(dudo, seated(["ann", "bob"], 1, 1), store=kept)  # refused at once, in its names


def test_the_renaming_renames_every_name_of_a_state() -> None:
    # Every field of the state is known to the renaming: a new one must be renamed, or not.
    for cls, known in names.KNOWN_FIELDS.items():
        assert tuple(field.name for field in attrs.fields(cls)) == tuple(known), cls
    ruling = Resolution("challenge", "Amy", "Zed", Bid(1, 2), 0, True, ("Zed",), ("Amy",))
    round_ = RoundState(
        number=3,
        opener="Zed",
        rolls={"Zed": (2,), "Amy": (5,)},
        dice_in_play=2,
        turn="Amy",
        bids=(PlacedBid("Zed", Bid(1, 2)),),
        resolution=ruling,
        shown={"Amy": (5,)},
        private={"secret": {"Zed": {"peek": "Amy"}}},
        sights=(Sight("Zed", ("Zed", "Amy")),),
    )
    players = (PlayerState("Zed", 1), PlayerState("Kim", 0, alive=False), PlayerState("Amy", 1))
    state = GameState(players, 5, round_, next_opener="Zed", plugins={"x": {"who": ["Kim"]}})
    renaming = names.renaming(state)
    assert renaming.canonical == ("P0", "P1", "P2")
    renamed = renaming.state(state)
    text = repr(renamed)
    assert "Zed" not in text and "Amy" not in text and "Kim" not in text
    assert renamed.round is not None and renamed.round.private == {"secret": {"P0": {"peek": "P2"}}}
    assert renamed.plugins == {"x": {"who": ["P1"]}} and renamed.next_opener == "P0"
    assert renaming.node_key(state) == rounds.node_key(renamed)
    assert (
        renaming.text("P0 holding 2 dice and P2 1, not P10")
        == "Zed holding 2 dice and Amy 1, not P10"
    )
    assert names.renaming(seated(["P0", "P1"], 1, 1)).identity  # named so already
    assert names.renaming(attrs.evolve(state, next_opener="Nobody")).identity
