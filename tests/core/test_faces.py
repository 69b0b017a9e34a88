"""liarsdice.faces: the faces refused and the wild faces, built alone from stand-in hooks."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from liarsdice import Ruleset
from liarsdice.faces import FACES, FaceRules
from liarsdice.models import opening_state


def _faces(face_allowed: Any, reads: frozenset[str], matching: Any = None) -> FaceRules:
    hooks = SimpleNamespace(
        face_allowed=face_allowed,
        reads={"face_allowed": reads},
        matching_faces=matching or (lambda state, face: {face}),
    )
    return FaceRules(hooks)  # type: ignore[arg-type]


def test_faces_that_never_change_are_asked_once_at_the_start() -> None:
    asked: list[tuple[Any, Any, int]] = []

    def face_allowed(state: Any, player: Any, face: int) -> bool | None:
        asked.append((state, player, face))
        return False if face == 1 else None

    faces = _faces(face_allowed, frozenset({"face"}))
    assert faces.fixed_refusals == frozenset({1})
    assert asked == [(None, None, face) for face in FACES]
    assert faces.refused_faces(opening_state(6), "you") == frozenset({1})
    assert len(asked) == len(FACES)


def test_faces_that_follow_the_state_are_asked_each_time() -> None:
    def face_allowed(state: Any, player: str, face: int) -> str | None:
        return "not yours" if player == "Ann" and face == 6 else None

    faces = _faces(face_allowed, frozenset({"player", "face"}))
    assert faces.fixed_refusals is None
    assert faces.refused_faces(opening_state(6), "Ann") == frozenset({6})
    assert faces.refused_faces(opening_state(6), "Ben") == frozenset()
    assert faces.face_refusal(opening_state(6), "Ann", 6) == "not yours"


def test_a_plain_refusal_is_given_a_reason() -> None:
    faces = _faces(lambda state, player, face: face != 2, frozenset({"face"}))
    assert str(faces.face_refusal(opening_state(6), "you", 2)) == "bids on twos are not allowed now"
    assert faces.face_refusal(opening_state(6), "you", 3) is None


def test_a_face_is_wild_when_every_other_face_counts_it() -> None:
    sixes = _faces(lambda *_: None, frozenset(), lambda state, face: {face, 6})
    assert sixes.wild_faces() == frozenset({6})
    assert sixes.wild_faces(opening_state(3)) == frozenset({6})
    not_on_fives = _faces(
        lambda *_: None, frozenset(), lambda state, face: {face, 6} if face != 5 else {5}
    )
    assert not_on_fives.wild_faces() == frozenset()


def test_the_ruleset_hands_out_the_face_rules_methods() -> None:
    rules = Ruleset.build(["dice-loss"])
    assert rules.refused_faces.__self__ is rules.face_rules  # type: ignore[attr-defined]
    assert rules.fixed_refusals is rules.face_rules.fixed_refusals
    assert rules.wild_faces() == frozenset({1})
