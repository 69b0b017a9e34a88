"""A stored game's or table's title in the reader's language.

Contract: games and tables store their title in English (``TableConfig.title``), for logs and
for any reader; :func:`game_title` rebuilds a stored game's title in ``locale`` from its preset,
variants, options and dice, and falls back to the stored English title when that combination can
no longer be built (a variant since uninstalled).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from liarsdice.errors import RulesetError
from liarsdice_demo.tables.composition import ConfigError, parse_config


def game_title(row: Mapping[str, Any], locale: str) -> str:
    """The title of the stored game ``row`` (``title``, ``preset``, ``variants`` and ``options``
    as JSON text, ``dice_per_player``) in ``locale``."""
    if locale == "en":
        return str(row["title"])
    try:
        config = parse_config(
            {
                "preset": row["preset"],
                "variants": json.loads(row["variants"]),
                "options": json.loads(row["options"]),
                "dice_per_player": row["dice_per_player"],
                "bot_kind": "none",
            }
        )
    except (ConfigError, RulesetError, ValueError, TypeError):
        return str(row["title"])
    return config.title_in(locale)
