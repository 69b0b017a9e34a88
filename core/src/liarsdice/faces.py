"""The faces of a ruleset: which a player may not bid now, and which are wild.

:class:`FaceRules` asks the ``face_allowed`` and ``matching_faces`` hooks through a ruleset's
:class:`~liarsdice.dispatch.Hooks`; :class:`~liarsdice.ruleset.Ruleset` hands its methods out
under the same names (``rules.refused_faces``, ``rules.wild_faces``, ...).
"""

from __future__ import annotations

from liarsdice import phrases
from liarsdice.dispatch import Hooks
from liarsdice.i18n import Text, _
from liarsdice.models import GameState, opening_state

__all__ = ["FACES", "FaceRules"]

FACES = (1, 2, 3, 4, 5, 6)


class FaceRules:
    """The faces a player may not name in a bid, and the wild faces, by ``hooks``."""

    def __init__(self, hooks: Hooks) -> None:
        self.hooks = hooks
        #: The faces refused all game when no ``face_allowed`` implementation reads the state or
        #: the player (asked once, here, instead of on every turn); ``None`` when they may change.
        fixed = not hooks.reads["face_allowed"] & {"state", "player"}
        self.fixed_refusals = self._refusals(None, None) if fixed else None

    def refused_faces(self, state: GameState, player: str) -> frozenset[int]:
        """The faces ``player`` may not name in a bid now, by the ``face_allowed`` hook."""
        if self.fixed_refusals is not None:
            return self.fixed_refusals
        return self._refusals(state, player)

    def _refusals(self, state: GameState | None, player: str | None) -> frozenset[int]:
        return frozenset(
            face
            for face in FACES
            if self.face_refusal(state, player, face) is not None  # type: ignore[arg-type]
        )

    def face_refusal(self, state: GameState, player: str, face: int) -> str | Text | None:
        """Why ``player`` may not name ``face`` now (``face_allowed``), or None if they may."""
        allowed = self.hooks.face_allowed(state, player, face)
        if isinstance(allowed, str | Text):
            return allowed
        if allowed is False:
            return _("bids on {faces} are not allowed now", faces=phrases.faces(face))
        return None

    def wild_faces(self, state: GameState | None = None) -> frozenset[int]:
        """The faces that are wild at ``state`` (default: the start of a game's first round):
        those the ``matching_faces`` hook counts toward a bid on every other face. ``{1}`` with
        wild ones, ``{6}`` with wild sixes, empty once ones are locked or in a palifico round.
        Odds pages, the CLI and the rules page ask this instead of assuming ones."""
        state = opening_state(10) if state is None else state
        matching = self.hooks.matching_faces
        counted = {face: matching(state, face) for face in FACES}
        return frozenset(
            wild for wild in FACES if all(wild in counted[face] for face in FACES if face != wild)
        )
