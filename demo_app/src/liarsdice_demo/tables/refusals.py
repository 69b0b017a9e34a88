"""The engine's refusals of a move, said to the player who made it: in the second person.

Contract: :func:`to_the_mover` rewrites the engine's reasons that name the mover themself ("not
Iris's turn", "Iris is out of the game") as the demo's second-person texts ("it is not your turn",
"you are out of the game"); every other reason (another player's name, no name) is kept as it is.
A seat only ever moves as itself, so a reason naming its own player is about the reader.
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice.i18n import Catalog, Text

_, _n = Catalog(__name__).markers()

SECOND_PERSON = {
    "not {player}'s turn": _("it is not your turn"),
    "{player} is out of the game": _("you are out of the game"),
}
"""The engine's messages about a player (``{player}``), by their English template, as said to
that player."""


def to_the_mover(reasons: Sequence[str | Text], mover: str | None) -> list[str | Text]:
    """``reasons`` as the player ``mover`` reads them (``None``: a spectator, unchanged)."""
    return [_addressed(reason, mover) for reason in reasons]


def _addressed(reason: str | Text, mover: str | None) -> str | Text:
    if mover is None or not isinstance(reason, Text) or reason.params.get("player") != mover:
        return reason
    return SECOND_PERSON.get(reason.msgid, reason)
