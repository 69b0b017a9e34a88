"""The WebSocket protocol, version 1: parsing client intents and shaping server messages.

Every message is a JSON object ``{"v": 1, "type": ..., ...}`` (see docs/protocol.md).
:func:`parse` turns one raw client message into an :class:`Intent` or raises
:class:`ProtocolError` with the text of the error reply; it does a bounded amount of work (the
size cap and the nesting cap are both checked on the raw text before JSON is parsed, so no
message reaches the JSON parser's recursion; types are strict: a boolean is not a number), and
every value must be one any JSON encoder can send back (I-JSON, RFC 7493: strings of valid
Unicode, so no lone surrogate such as ``"\\ud800"``; integers within ±:data:`MAX_INT`; finite
numbers, so no ``NaN`` or ``Infinity``), so nothing taken from a message can fail to encode
later, in a reply, the store or the history. A
``bid`` or ``call`` may carry a ``payload``: a JSON object keyed by plugin name, passed to the
engine as the action's payload (the engine and the plugins judge its contents). :func:`message`
builds a server message and :func:`encode` gives its text (compact JSON, UTF-8 text as is).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import attrs
import orjson

from liarsdice.i18n import LOCALES, Text
from liarsdice_demo.text.narrate import Log

VERSION = 1
MAX_MESSAGE = 2048
"""Largest client message accepted, in characters; longer ones get an error reply."""
MAX_DEPTH = 16
"""Deepest nesting of objects and lists accepted in a message (the message object itself is 1);
checked on the raw text before it is parsed."""
MAX_PAYLOAD_DEPTH = 8
"""Deepest nesting of objects and lists accepted in a payload (the payload object itself is 1)."""
MAX_INT = 2**53 - 1
"""The largest integer (in size) a message may hold: the largest every JSON reader keeps exact."""

FIELDS: dict[str, dict[str, type]] = {
    "hello": {"seat_token": str},
    "bid": {"quantity": int, "face": int, "payload": dict},
    "call": {"kind": str, "payload": dict},
    "start": {},
    "rematch": {},
    "kick": {"seat": int},
    "add_bot": {"seat": int, "kind": str},
    "remove_bot": {"seat": int},
    "move_seat": {"seat": int},
    "say": {"phrase": str},
    "ping": {},
}
"""Client message types and their fields (all fields required except those in :data:`OPTIONAL`)."""

OPTIONAL = {("hello", "seat_token"), ("bid", "payload"), ("call", "payload")}
"""Fields that may be left out (or sent as ``null``)."""

_TYPE_NAMES = {int: "a int", str: "a str", dict: "a JSON object"}


class ProtocolError(ValueError):
    """A client message was refused; ``str(error)`` is the reason sent back."""


@attrs.frozen
class Intent:
    """A parsed client message: its ``type``, its fields, and the client's ``id`` to echo back."""

    type: str
    fields: dict[str, Any]
    id: str | int | None = None


def parse(raw: object) -> Intent:
    """The intent in ``raw`` (a text frame), or :class:`ProtocolError` saying what is wrong."""
    if not isinstance(raw, str):
        raise ProtocolError("send text frames holding JSON")
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(f"message too large: at most {MAX_MESSAGE} characters")
    if nesting(raw) > MAX_DEPTH:
        raise ProtocolError(f"malformed JSON: nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError cannot happen below MAX_DEPTH
        raise ProtocolError("malformed JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    for name, value in data.items():
        why = _unencodable(name)
        if why is not None:
            raise ProtocolError(f"a field name: {why}")
        why = _unencodable(value)
        if why is not None:
            raise ProtocolError(f"field {_shown(name)}: {why}")
    version = data.get("v")
    if type(version) is not int or version != VERSION:  # true and 1.0 are not 1
        raise ProtocolError(f"unsupported protocol version {_shown(version)}; this server speaks 1")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(f"unknown message type {_shown(kind)}; known: {', '.join(FIELDS)}")
    ident = data.get("id")
    if ident is not None and not (
        isinstance(ident, int | str) and not isinstance(ident, bool) and len(str(ident)) <= 64
    ):
        ident = None
    fields: dict[str, Any] = {}
    for name, expected in FIELDS[kind].items():
        value = data.get(name)
        if value is None and (kind, name) in OPTIONAL:
            continue
        if type(value) is not expected:
            if name == "payload":
                raise ProtocolError(
                    f"{kind}: field 'payload' must be a JSON object keyed by plugin name, "
                    f'such as {{"bluff": {{"show": [5, 5]}}}}, not {_json_kind(value)}'
                )
            raise ProtocolError(f"{kind}: field {name!r} must be {_TYPE_NAMES[expected]}")
        if name == "payload" and _too_deep(value):
            raise ProtocolError(
                f"{kind}: the payload is nested too deeply (at most {MAX_PAYLOAD_DEPTH} levels)"
            )
        fields[name] = value
    return Intent(kind, fields, ident)


def nesting(raw: str) -> int:
    """How deep objects and lists nest in the JSON text ``raw`` (brackets inside strings do not
    count; malformed text is measured as well as it can be and refused later by the parser)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _unencodable(value: Any) -> str | None:
    """Why the parsed JSON ``value`` could not be encoded again by every JSON encoder, or
    ``None`` (its nesting is bounded by :data:`MAX_DEPTH`, its size by :data:`MAX_MESSAGE`)."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return "text must be valid Unicode (no lone surrogate such as \\ud800)"
        return None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return None if abs(value) <= MAX_INT else f"integers are at most {MAX_INT} in size"
    if isinstance(value, float):
        return None if math.isfinite(value) else "numbers must be finite (no NaN or Infinity)"
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
    return next((why for item in items if (why := _unencodable(item)) is not None), None)


def _shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for echoing a client's value in an error."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_kind(value: Any) -> str:
    """What a JSON value is, for error messages: "a list", "a string"..."""
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list"}
    return names.get(type(value), "that")


def _too_deep(value: Any, levels: int = MAX_PAYLOAD_DEPTH) -> bool:
    """True when objects and lists nest in ``value`` more than ``levels`` deep (looks no deeper
    than that, so a hostile message costs little)."""
    if not isinstance(value, dict | list):
        return False
    if levels == 0:
        return True
    items = value.values() if isinstance(value, dict) else value
    return any(_too_deep(item, levels - 1) for item in items)


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """A server message of ``kind`` with ``fields``."""
    return {"v": VERSION, "type": kind, **fields}


def encode(data: dict[str, Any], locale: str = "en") -> str:
    """The text of server message ``data``, as sent (non-string keys become strings), with every
    :class:`~liarsdice.i18n.Text` (and a table's :class:`~liarsdice_demo.text.narrate.Log`) in it read
    in ``locale``."""
    return orjson.dumps(data, default=_READERS[locale], option=orjson.OPT_NON_STR_KEYS).decode()


def _reader(locale: str) -> Callable[[Any], Any]:
    def read(value: Any) -> Any:
        if isinstance(value, Text | Log):
            return value.render(locale)
        raise TypeError(f"{type(value).__name__} is not JSON serialisable")

    return read


_READERS = {locale: _reader(locale) for locale in LOCALES}


def error(text: str | Text, intent: Intent | None = None) -> dict[str, Any]:
    """The error reply to ``intent`` (or to an unparseable message)."""
    extra: dict[str, Any] = {}
    if intent is not None:
        extra["re"] = intent.type
        if intent.id is not None:
            extra["id"] = intent.id
    return message("error", error=text, **extra)
