"""Stubs for ``open_spiel.python.policy``: the base class of policies."""

from collections.abc import Sequence
from typing import Any

import pyspiel

class Policy:
    game: pyspiel.Game
    player_ids: Sequence[int]
    def __init__(
        self, game: pyspiel.Game, player_ids: Sequence[int], random_state: Any = None
    ) -> None: ...
    def action_probabilities(
        self, state: pyspiel.State, player_id: int | None = None
    ) -> dict[int, float]: ...
