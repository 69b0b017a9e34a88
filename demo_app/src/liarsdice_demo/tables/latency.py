"""Delays kept for the load benchmark while ``settings["MEASURE"]`` is on."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any


class Latency:
    """The delays recorded of each kind (``action``, ``fanout``) since they were last taken;
    ``settings["MEASURE"]`` is read at each record."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self._settings = settings
        self._delays: dict[str, list[float]] = {"action": [], "fanout": []}
        self._lock = threading.Lock()

    def record(self, delays: list[float], kind: str = "action") -> None:
        """Keep ``delays`` of ``kind`` if ``settings["MEASURE"]`` is on."""
        if self._settings.get("MEASURE"):
            with self._lock:
                self._delays[kind].extend(delays)

    def take(self, kind: str = "action") -> list[float]:
        """The delays of ``kind`` recorded so far, forgetting them."""
        with self._lock:
            found, self._delays[kind] = self._delays[kind], []
            return found
