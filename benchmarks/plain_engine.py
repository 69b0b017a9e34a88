"""A plain, single-purpose Liar's Dice engine with no plugins: the benchmark's baseline.

Classic rules with wild ones and no bids on ones, dice loss, loser opens, the same random policy
as ``liarsdice simulate``. Mutable lists, no validation beyond what the policy needs. It exists
only to be timed beside the real engine in the same process.
"""

from __future__ import annotations

from random import Random

FACES = (1, 2, 3, 4, 5, 6)


def _lowest_raises(quantity: int, face: int, dice: int, limit: int) -> list[tuple[int, int]]:
    raises = []
    q, f = (1, 1) if quantity == 0 else (quantity, face)
    while len(raises) < limit:
        f += 1
        if f > 6:
            q, f = q + 1, 2
        if q > dice:
            break
        raises.append((q, f))
    return raises


def play_game(players: int, dice_per_player: int, rng: Random) -> tuple[int, int]:
    """Play one game; return the winner's seat index and the number of actions (bids and calls)."""
    dice = [dice_per_player] * players
    opener = 0
    actions = 0
    while sum(1 for d in dice if d) > 1:
        rolls = [rng.choices(FACES, k=d) for d in dice]
        in_play = sum(dice)
        turn = opener
        bid: tuple[int, int, int] | None = None  # quantity, face, bidder
        while True:
            actions += 1
            if bid is not None and rng.random() < 0.3:
                quantity, face, bidder = bid
                count = sum(1 for roll in rolls for die in roll if die == face or die == 1)
                loser = turn if count >= quantity else bidder
                break
            raises = _lowest_raises(bid[0] if bid else 0, bid[1] if bid else 0, in_play, 10)
            if not raises:
                quantity, face, bidder = bid  # type: ignore[misc]
                count = sum(1 for roll in rolls for die in roll if die == face or die == 1)
                loser = turn if count >= quantity else bidder
                break
            quantity, face = rng.choice(raises)
            bid = (quantity, face, turn)
            turn = (turn + 1) % players
            while not dice[turn]:
                turn = (turn + 1) % players
        dice[loser] -= 1
        opener = loser
        while not dice[opener]:
            opener = (opener + 1) % players
    return next(i for i, d in enumerate(dice) if d), actions
