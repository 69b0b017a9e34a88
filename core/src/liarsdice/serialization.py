"""JSON round trips for state, events, actions and views (cattrs), kept out of the model classes.

Union types (actions, events) are tagged with a ``"type"`` key naming the class.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from liarsdice.events import Event
from liarsdice.models import Action

T = TypeVar("T")

converter = make_converter()
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
