"""The end-of-game law and the contracts of the game-end hooks catch a broken team plugin: one
that names the wrong winners, one that forgets to end the game when one side is left, and answers
that name strangers, nobody, or the player as their own partner. A sound ``teams`` keeps them."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from liarsdice import Game, Ruleset, engine, hookimpl
from liarsdice.errors import BadHookResult
from liarsdice.testing import LawViolation, RandomChooser, laws, play_game
from liarsdice.testing.plugins import extra_variants

PLAYERS = ["a", "b", "c", "d"]


def _team(state: Any, player: str) -> tuple[str, ...]:
    parity = state.seat(player) % 2
    return tuple(p.name for i, p in enumerate(state.players) if i % 2 == parity)


@hookimpl(specname="liarsdice_partners")
def partners(state: Any, player: str) -> tuple[str, ...]:
    return tuple(name for name in _team(state, player) if name != player)


@hookimpl(specname="liarsdice_game_winners")
def losers_win(state: Any) -> tuple[str, ...] | None:
    """Names the team that is out, not the one left standing."""
    standing = {state.seat(p.name) % 2 for p in state.alive}
    if len(standing) != 1:
        return None
    beaten = 1 - standing.pop()
    return tuple(p.name for i, p in enumerate(state.players) if i % 2 == beaten)


def play_until_the_law_breaks(rules: Ruleset) -> LawViolation | None:
    for seed in range(20):
        game = play_game(rules, PLAYERS, 1, seed, RandomChooser(seed))
        try:
            laws.game_has_one_winner(rules, game.steps)
        except LawViolation as violation:
            return violation
    return None


def test_the_law_catches_winners_who_are_out_while_the_other_side_lives(
    plugin_factory: Callable[..., Any],
) -> None:
    with extra_variants({"wrong-team": plugin_factory("wrong-team", partners, losers_win)}):
        violation = play_until_the_law_breaks(Ruleset.build(["dice-loss", "wrong-team"]))
    assert violation is not None and violation.law == laws.ONE_WINNER
    assert "living" in violation.detail


def test_the_law_catches_a_game_that_goes_on_with_one_side_left(
    plugin_factory: Callable[..., Any],
) -> None:
    with extra_variants({"no-end": plugin_factory("no-end", partners)}):
        violation = play_until_the_law_breaks(Ruleset.build(["dice-loss", "no-end"]))
    assert violation is not None and "one side, but nobody has won" in violation.detail


def test_a_sound_teams_keeps_the_law() -> None:
    rules = Ruleset.build(["dice-loss", "teams"])
    assert play_until_the_law_breaks(rules) is None


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (("a", "zed"), "named 'zed', who is not at the table"),
        ((), "returned no winners"),
        (("a", "a"), r"returned \('a', 'a'\): a player is named twice"),
        ("a", "returned 'a': expected a tuple of player names"),
    ],
)
def test_a_bad_list_of_winners_breaks_the_contract_and_names_the_plugin(
    answer: Any, message: str, plugin_factory: Callable[..., Any]
) -> None:
    @hookimpl(specname="liarsdice_game_winners")
    def winners(state: Any) -> Any:
        return answer if any(not p.alive for p in state.players) else None

    with extra_variants({"bad-end": plugin_factory("bad-end", winners)}):
        rules = Ruleset.build(["dice-loss", "bad-end"])
        game = Game(rules, PLAYERS, Random(0), dice_per_player=1)
        game.start_round()
        opener = game.state.round.turn  # type: ignore[union-attr]
        game.bid(opener, 4, 6)
        with pytest.raises(BadHookResult, match=f"bad-end's liarsdice_game_winners {message}"):
            game.call(game.state.round.turn)  # type: ignore[union-attr]


def test_a_player_is_not_their_own_partner(plugin_factory: Callable[..., Any]) -> None:
    @hookimpl(specname="liarsdice_partners")
    def everyone(state: Any) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    with extra_variants({"self-partner": plugin_factory("self-partner", everyone)}):
        rules = Ruleset.build(["dice-loss", "self-partner"])
        game = Game(rules, PLAYERS, Random(0), dice_per_player=1)
        with pytest.raises(BadHookResult, match="named 'a' as their own partner"):
            engine.partners(rules, game.state, "a")
