"""The bot contract, checked: for authors of a bot kind, as the laws are for variant authors.

:func:`check_bot` plays whole games with a bot kind in every seat and, at every decision, checks
the contract of docs/bots.md: the policy is a probability distribution over legal actions only, it
is a function of the view (asked twice, and asked again with every die the player may not see
re-dealt, it is the same), and ``decide`` returns an action the policy gives weight to. It raises
:class:`BotContractBroken` naming the kind, the rule broken and the decision::

    from liarsdice import Ruleset
    from liarsdice.testing.bots import check_bot

    def test_my_bot_keeps_the_contract():
        check_bot(MyBot, Ruleset.build(preset="dudo"), games=5)
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

import attrs

from liarsdice import engine
from liarsdice.bots import BadPolicy, Bot, BotFactory, checked_policy
from liarsdice.models import Action, BidAction, CallAction, GameState, sight_of
from liarsdice.ruleset import Ruleset
from liarsdice.views import player_view


class BotContractBroken(AssertionError):
    """A bot kind broke the contract of docs/bots.md at one decision."""


def check_bot(
    factory: BotFactory,
    rules: Ruleset,
    *,
    games: int = 3,
    seed: int = 0,
    players: int = 3,
    dice_per_player: int = 3,
) -> int:
    """Play ``games`` games of ``players`` seats, each seat a bot from ``factory``, checking every
    decision; return how many decisions were checked. A game that reaches the ruleset's move
    limit is left there. Raises :class:`BotContractBroken`."""
    name = getattr(factory, "__name__", repr(factory))
    checked = 0
    for game in range(games):
        rng = Random(f"{seed}-{game}")
        names = [f"p{i}" for i in range(players)]
        bots = {player: factory(rules, Random(f"{seed}-{game}-{player}")) for player in names}
        state, _ = engine.new_game(rules, names, rng, dice_per_player=dice_per_player)
        moves = rules.move_limit(players, dice_per_player).moves
        while not state.over and moves > 0:
            state, _ = engine.start_round(rules, state, rng)
            while state.round is not None and not state.round.over and moves > 0:
                player = state.round.turn
                action = check_decision(name, rules, state, bots[player], rng)
                checked += 1
                moves -= 1
                state, _ = engine.step(rules, state, action, rng)
    return checked


def check_decision(kind: str, rules: Ruleset, state: GameState, bot: Bot, rng: Random) -> Action:
    """Check ``bot`` at one decision of the player on turn in ``state``; return its choice."""
    assert state.round is not None
    player = state.round.turn
    view = player_view(rules, state, player)
    where = f"bot {kind} at round {state.round.number}, {player} to play after {view.bids!r}"
    policy = _distribution(where, bot.policy(view))
    for action in policy:
        problems = _problems(rules, state, action)
        if problems:
            reasons = "; ".join(problems)
            raise BotContractBroken(
                f"{where}: its policy has an illegal action {action!r}: {reasons}"
            )
    if _distribution(where, bot.policy(view)) != policy:
        raise BotContractBroken(f"{where}: asked twice on one view, its policy changed")
    redealt = player_view(rules, _redeal(state, player, rng), player)
    if redealt == view and _distribution(where, bot.policy(redealt)) != policy:
        raise BotContractBroken(
            f"{where}: its policy changed when dice the player cannot see were re-dealt"
        )
    action = bot.decide(view)
    if action not in policy:
        raise BotContractBroken(f"{where}: decide chose {action!r}, which its policy never takes")
    return action


def _distribution(where: str, policy: Mapping[Action, float]) -> dict[Action, float]:
    """``policy`` as :func:`~liarsdice.bots.checked_policy` reads it; a bad one breaks the
    contract."""
    try:
        return checked_policy(policy)
    except BadPolicy as bad:
        raise BotContractBroken(f"{where}: {bad}") from None


def _problems(rules: Ruleset, state: GameState, action: Action) -> list[str]:
    if isinstance(action, BidAction):
        reasons = engine.bid_problems(rules, state, action.player, action.bid, action.payload)
    elif isinstance(action, CallAction):
        reasons = engine.call_problems(rules, state, action.player, action.kind, action.payload)
    else:
        return [f"{type(action).__name__} is not a move a bot makes"]
    return [str(reason) for reason in reasons]


def _redeal(state: GameState, player: str, rng: Random) -> GameState:
    """``state`` with every die ``player`` does not see rolled again."""
    assert state.round is not None
    seen = sight_of(state.round.sights, player)
    rolls = {
        name: roll if name in seen else tuple(rng.randint(1, 6) for _ in roll)
        for name, roll in state.round.rolls.items()
    }
    return attrs.evolve(state, round=attrs.evolve(state.round, rolls=rolls))
