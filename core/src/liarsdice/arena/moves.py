"""Moves as typed text: ``[Bid: 3, 5]``, ``[Challenge]``, ``[Exact]``, ``[Pass]``, ``[Wait]``.

A bid is ``[Bid: QUANTITY, FACE]``; a call is its kind in brackets (``[Challenge]``, or any
plugin's kind: ``[Exact]``, ``[Pass]``, ``[Doubt]``; a hyphen may be typed as a space), and
``[Wait]`` lets a call out of turn go by. A move a plugin lets carry a payload has it as JSON
before the closing bracket, keyed by plugin: ``[Bid: 3, 5 {"bluff": {"show": [2, 4]}}]``.
Case and spaces do not matter; in a longer text the last bracketed move counts, so an agent may
think aloud first. :func:`~liarsdice.moves.legal_moves` lists a player's moves now;
:func:`tool_schema` describes them as OpenAI-style tools.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from liarsdice.models import JSON, Bid, BidAction, CallAction
from liarsdice.moves import Move, Wait, legal_moves
from liarsdice.ruleset import Ruleset

__all__ = [
    "BadMove",
    "Move",
    "Wait",
    "format_move",
    "from_tool_call",
    "legal_moves",
    "parse_move",
    "tool_schema",
]


class BadMove(ValueError):
    """A typed move that is not a move, or not one of the player's legal moves now."""


_MOVE = re.compile(
    r"\[\s*(?P<word>[A-Za-z][A-Za-z -]*?)\s*"
    r"(?::\s*(?P<quantity>\d+)\s*,\s*(?P<face>\d+))?\s*(?P<payload>\{.*?\})?\s*\]",
    re.DOTALL,
)


def _title(kind: str) -> str:
    return kind.replace("-", " ").title()


def format_move(move: Move) -> str:
    """``move`` as it is typed: ``[Bid: 3, 5]``, ``[Challenge]``, ``[Wait]``, with its payload."""
    if isinstance(move, Wait):
        return "[Wait]"
    text = (
        f"Bid: {move.bid.quantity}, {move.bid.face}"
        if isinstance(move, BidAction)
        else _title(move.kind)
    )
    if move.payload:
        text += " " + json.dumps(move.payload, sort_keys=True)
    return f"[{text}]"


def parse_move(rules: Ruleset, player: str, text: str) -> Move:
    """The move ``player`` typed in ``text`` (its last bracketed move); :class:`BadMove` saying
    what is wrong when there is none, or it names no bid, call kind of ``rules`` or wait."""
    found = list(_MOVE.finditer(text))
    if not found:
        raise BadMove(
            f"no move found in {text[:80]!r}: type one in brackets, such as [Bid: 3, 5] or [Challenge]"
        )
    match = found[-1]
    word = match["word"].strip().lower().replace(" ", "-")
    payload: dict[str, JSON] = {}
    if match["payload"]:
        try:
            payload = json.loads(match["payload"])
        except json.JSONDecodeError as error:
            raise BadMove(f"the payload {match['payload']!r} is not JSON: {error.msg}") from None
    if word == "bid":
        if match["quantity"] is None:
            raise BadMove("a bid is [Bid: QUANTITY, FACE], such as [Bid: 3, 5]")
        bid = Bid(int(match["quantity"]), int(match["face"]))
        return BidAction(player, bid, payload)
    if match["quantity"] is not None:
        raise BadMove(f"[{_title(word)}] takes no numbers: only a bid does")
    if word == "wait" and not payload:
        return Wait(player)
    if word not in rules.calls:
        kinds = ", ".join(f"[{_title(kind)}]" for kind in sorted(rules.calls))
        raise BadMove(
            f"{match[0]!r} is not a move here: bids are [Bid: QUANTITY, FACE], calls {kinds}, or [Wait]"
        )
    return CallAction(player, word, payload)


def tool_schema(rules: Ruleset) -> list[dict[str, Any]]:
    """The moves of ``rules`` as OpenAI-style tools: ``bid`` (quantity, face, an optional
    payload), one per call kind, and ``wait``; :func:`from_tool_call` turns a call into text."""
    payload = {"type": "object", "description": "a plugin's payload, keyed by plugin, if offered"}
    tools: list[dict[str, Any]] = [
        _tool(
            "bid",
            "Raise the bid: at least QUANTITY dice show FACE (wild faces count as the rules say).",
            {
                "quantity": {"type": "integer", "minimum": 1},
                "face": {"type": "integer", "minimum": 1, "maximum": 6},
                "payload": payload,
            },
            ["quantity", "face"],
        )
    ]
    for kind in sorted(rules.calls):
        info = rules.calls[kind]
        tools.append(_tool(kind, str(info.help), {"payload": payload}, []))
    tools.append(_tool("wait", "Asked out of turn: let the moment go by.", {}, []))
    return tools


def _tool(
    name: str, description: str, properties: Mapping[str, Any], required: Sequence[str]
) -> dict[str, Any]:
    parameters = {"type": "object", "properties": dict(properties), "required": list(required)}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def from_tool_call(name: str, arguments: str | Mapping[str, Any]) -> str:
    """A tool call (its name and its JSON arguments) as typed text, for :func:`parse_move`."""
    given = json.loads(arguments) if isinstance(arguments, str) else dict(arguments)
    payload = given.get("payload")
    tail = f" {json.dumps(payload, sort_keys=True)}" if payload else ""
    if name == "bid":
        return f"[Bid: {given.get('quantity')}, {given.get('face')}{tail}]"
    return f"[{_title(name)}{tail}]"
