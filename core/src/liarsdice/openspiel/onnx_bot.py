"""An outside policy as a bot: an ONNX model scoring the action numbers from an observation.

The model maps the bridge's observation tensor to a score per action number, and is played
through ``policy(view)`` like any other bot.

The model is trained for one ruleset at one table (``players`` x ``dice``): its input is the
observation tensor of the PettingZoo and Gymnasium environments (the bridge's, shape
``(1, N)``, float32), its first output a score (a logit) per action number, shape ``(1, A)``.
The policy is the softmax of the scores of the legal actions, the others left out; it reads the
view only, so it passes ``check_bot``. Needs ``onnxruntime`` (the ``agents`` extra).
"""

from __future__ import annotations

import math
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING

from liarsdice.bots import Policy, sample
from liarsdice.models import Action
from liarsdice.openspiel.actions import Wait
from liarsdice.openspiel.game import LiarsDiceGame, load
from liarsdice.openspiel.observers import Observer
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, view_state

if TYPE_CHECKING:
    from onnxruntime import InferenceSession


_LOADED: dict[tuple[str, str, int, int], tuple[LiarsDiceGame, Observer, InferenceSession]] = {}
"""Each model loaded once per process, for a ruleset (by ``repr``) and a table."""


def _loaded(
    path: str, rules: Ruleset, players: int, dice: int
) -> tuple[LiarsDiceGame, Observer, InferenceSession]:
    """The bridged game, its observer and the model's session; ``ValueError`` when the model's
    input or output does not fit the table."""
    key = (path, repr(rules), players, dice)
    if key not in _LOADED:
        from onnxruntime import InferenceSession

        game = load(rules, players, dice, max_info_states=None)
        observer = game.make_py_observer()
        session = InferenceSession(path, providers=["CPUExecutionProvider"])
        wanted, actions = observer.tensor.size, game.num_distinct_actions()
        reads, scores = session.get_inputs()[0].shape[-1], session.get_outputs()[0].shape[-1]
        if reads != wanted:
            raise ValueError(
                f"{path}: the model reads {reads} numbers, the observation has {wanted}"
            )
        if scores != actions:
            raise ValueError(f"{path}: the model scores {scores} actions, the table has {actions}")
        _LOADED[key] = (game, observer, session)
    return _LOADED[key]


class OnnxBot:
    """The policy of the ONNX model at ``path`` for ``rules`` at ``players`` x ``dice``; raises
    ``ValueError`` when the model's input or output does not fit that table."""

    def __init__(
        self, path: str | Path, rules: Ruleset, players: int, dice: int, rng: Random
    ) -> None:
        self.rules, self.rng = rules, rng
        self.game, self.observer, self.session = _loaded(str(path), rules, players, dice)
        self.input = self.session.get_inputs()[0].name

    def policy(self, view: PlayerView) -> Policy:
        """The softmax of the model's scores over the legal actions of ``view.viewer``."""
        assert view.viewer is not None
        seat = [seat.name for seat in view.seats].index(view.viewer)
        self.observer.set_from_view(view, seat)
        scores = self.session.run(None, {self.input: self.observer.tensor[None, :]})[0][0]
        state = view_state(view)
        moves = self.game.table.space.moves(state, view.viewer, asked=False)  # no Wait on turn
        legal = {number: move for number, move in moves.items() if not isinstance(move, Wait)}
        top = max(float(scores[number]) for number in legal)
        weights = {move: math.exp(float(scores[number]) - top) for number, move in legal.items()}
        total = math.fsum(weights.values())
        return {move: weight / total for move, weight in weights.items()}

    def decide(self, view: PlayerView) -> Action:
        """An action drawn from :meth:`policy` with the bot's own ``Random``."""
        return sample(self.policy(view), self.rng)
