"""How long to wait, in the reader's language: "try again in 46 minutes".

Contract: :func:`wait_words` turns a ``Retry-After`` into words through Babel's own plural rules
(``babel.dates.format_timedelta``), in the request's locale (English outside a request): whole
seconds under a minute, else minutes rounded up, and hours from an hour and a half on. English
reads in full ("46 minutes"); Ukrainian and Russian read abbreviated ("46 хв", "46 мин"), which
takes no grammatical case after the "за"/"через" of the sentence around it.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Literal

from babel.dates import format_timedelta
from flask_babel import get_locale


def wait_words(seconds: int) -> str:
    """``seconds`` to wait, in words in the request's language ("50 seconds", "46 minutes")."""
    wait = (
        timedelta(seconds=max(1, seconds))
        if seconds < 60
        else timedelta(minutes=math.ceil(seconds / 60))
    )
    locale = str(get_locale() or "en")
    style: Literal["long", "short"] = "long" if locale == "en" else "short"
    return str(format_timedelta(wait, threshold=1.5, format=style, locale=locale))
