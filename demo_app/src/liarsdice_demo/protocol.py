"""The WebSocket protocol, version 1: parsing client intents and shaping server messages.

Every message is a JSON object ``{"v": 1, "type": ..., ...}`` (see docs/protocol.md).
:func:`parse` turns one raw client message into an :class:`Intent` or raises
:class:`ProtocolError` with the text of the error reply; it does a bounded amount of work (the
size cap is checked before JSON is parsed). :func:`message` builds a server message.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

VERSION = 1
MAX_MESSAGE = 2048
"""Largest client message accepted, in characters; longer ones get an error reply."""

FIELDS: dict[str, dict[str, type]] = {
    "hello": {"seat_token": str},
    "bid": {"quantity": int, "face": int},
    "call": {"kind": str},
    "start": {},
    "rematch": {},
    "ping": {},
}
"""Client message types and their fields (all fields required except ``hello.seat_token``)."""

OPTIONAL = {("hello", "seat_token")}


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
    try:
        data = json.loads(raw)
    except ValueError:
        raise ProtocolError("malformed JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    if data.get("v") != VERSION:
        raise ProtocolError(f"unsupported protocol version {data.get('v')!r}; this server speaks 1")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(f"unknown message type {kind!r}; known: {', '.join(FIELDS)}")
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
            raise ProtocolError(f"{kind}: field {name!r} must be a {expected.__name__}")
        fields[name] = value
    return Intent(kind, fields, ident)


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """A server message of ``kind`` with ``fields``."""
    return {"v": VERSION, "type": kind, **fields}


def error(text: str, intent: Intent | None = None) -> dict[str, Any]:
    """The error reply to ``intent`` (or to an unparseable message)."""
    extra: dict[str, Any] = {}
    if intent is not None:
        extra["re"] = intent.type
        if intent.id is not None:
            extra["id"] = intent.id
    return message("error", error=text, **extra)
