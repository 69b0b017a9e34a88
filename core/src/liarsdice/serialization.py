"""JSON round trips for state, events, actions and views (cattrs), kept out of the model classes.

Union types (actions, events) are tagged with a ``"type"`` key naming the class.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from liarsdice.events import Event, GameWon, RoundStarted
from liarsdice.i18n import Text
from liarsdice.models import Action, GameState, RoundState

T = TypeVar("T")

converter = make_converter()


def _text_to_data(text: Text) -> Any:
    """A text as data: a plain string when it has nothing to translate, else its parts."""
    if not text.domain and not text.params and text.plural is None:
        return text.msgid
    data: dict[str, Any] = {"msgid": text.msgid, "domain": text.domain}
    if text.plural is not None:
        data["plural"] = text.plural
    if text.params:
        data["params"] = {
            key: _text_to_data(value) if isinstance(value, Text) else value
            for key, value in text.params.items()
        }
    return data


def _text_from_data(data: Any, _: Any = None) -> Text:
    if isinstance(data, str):
        return Text(data, domain="")
    params = {
        key: _text_from_data(value) if isinstance(value, dict) else value
        for key, value in data.get("params", {}).items()
    }
    return Text(data["msgid"], params, data["domain"], data.get("plural"))


converter.register_unstructure_hook(Text, _text_to_data)
converter.register_structure_hook(Text, _text_from_data)
# A round's sights are written only where the rules change who sees what: most logs read as before.
for _kind in (RoundStarted, RoundState):
    converter.register_unstructure_hook(
        _kind, make_dict_unstructure_fn(_kind, converter, sights=override(omit_if_default=True))
    )


def _reading_one_winner(kind: type, old: str) -> None:
    """Let ``kind`` be read from data written before a game could have several winners, which
    named its one winner (or none) under ``old``."""
    structure: Any = make_dict_structure_fn(kind, converter)

    def read(data: dict[str, Any], _: Any) -> Any:
        if old in data:
            data = dict(data)
            winner = data.pop(old)
            data["winners"] = [] if winner is None else [winner]
        return structure(data, kind)

    converter.register_structure_hook(kind, read)


_reading_one_winner(GameWon, "player")
_reading_one_winner(GameState, "winner")
configure_tagged_union(Event, converter, tag_name="type")
configure_tagged_union(Action, converter, tag_name="type")


def to_data(value: Any, as_type: Any = None) -> Any:
    """``value`` as plain JSON data (dicts, lists, numbers, strings)."""
    return converter.unstructure(value, unstructure_as=as_type)


def from_data(data: Any, as_type: type[T]) -> T:
    """Data produced by :func:`to_data` back into an instance of ``as_type``."""
    return converter.structure(data, as_type)


def dumps(value: Any, as_type: Any = None) -> str:
    """``value`` as a JSON string."""
    return json.dumps(to_data(value, as_type))


def loads(text: str, as_type: type[T]) -> T:
    """A JSON string from :func:`dumps` back into an instance of ``as_type``."""
    return from_data(json.loads(text), as_type)
