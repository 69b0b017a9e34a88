"""The opening bid's information about the hand: the hands, the entropy and the mutual information
on channels whose answer is known, and the opener's views."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from liarsdice import Ruleset
from liarsdice.bots.information import (
    entropy,
    hands,
    marginal,
    mutual_information,
    opening_views,
)


def most_common(hand: tuple[int, ...]) -> int:
    """The face the hand holds most of, the higher face of equals."""
    counts = Counter(hand)
    return max(counts, key=lambda face: (counts[face], face))


def test_the_hands_of_five_dice_are_252_multisets_at_their_multinomial_chance() -> None:
    found = dict(hands(5))
    assert len(found) == 252 and math.isclose(math.fsum(found.values()), 1.0)
    assert found[(1, 1, 1, 1, 1)] == pytest.approx(1 / 7776)
    assert found[(1, 2, 3, 4, 5)] == pytest.approx(120 / 7776)
    assert found[(2, 2, 5, 5, 5)] == pytest.approx(10 / 7776)


def test_a_policy_that_ignores_the_hand_tells_nothing() -> None:
    policy = {"low": 0.5, "mid": 0.3, "high": 0.2}
    rows = [(chance, policy) for _, chance in hands(5)]
    assert mutual_information(rows) == pytest.approx(0.0, abs=1e-12)
    assert entropy(marginal(rows)) == pytest.approx(
        -(0.5 * math.log2(0.5) + 0.3 * math.log2(0.3) + 0.2 * math.log2(0.2))
    )


def test_bidding_the_most_common_face_tells_the_entropy_of_that_face() -> None:
    """A certain function of the hand tells all it says: the entropy of the face, counted here
    over the 7,776 ordered rolls."""
    rows = [(chance, {most_common(hand): 1.0}) for hand, chance in hands(5)]
    faces = Counter(most_common(roll) for roll in itertools.product(range(1, 7), repeat=5))
    expected = entropy({face: n / 6**5 for face, n in faces.items()})
    assert mutual_information(rows) == pytest.approx(expected)
    assert entropy(marginal(rows)) == pytest.approx(expected)
    assert 2.0 < expected < math.log2(6)


def test_a_noisy_channel_tells_one_bit_less_its_noise() -> None:
    """A fair coin told truly 9 times in 10: 1 - H(0.1) bits."""
    rows = [
        (0.5, {"heads": 0.9, "tails": 0.1}),
        (0.5, {"heads": 0.1, "tails": 0.9}),
    ]
    noise = -(0.9 * math.log2(0.9) + 0.1 * math.log2(0.1))
    assert mutual_information(rows) == pytest.approx(1.0 - noise)


@pytest.mark.parametrize("players", [2, 6])
def test_each_hand_is_dealt_to_the_opener_of_a_first_round(players: int) -> None:
    rules = Ruleset.build(preset="perudo", players=players, dice_per_player=5)
    views = list(opening_views(rules, players))
    assert [(hand, chance) for hand, chance, _ in views] == hands(5)
    for hand, _, view in views:
        assert view.viewer == view.turn == "P1" and not view.bids
        assert tuple(view.own_dice or ()) == hand
        assert view.dice_in_play == 5 * players
