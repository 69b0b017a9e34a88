"""What the table page reads at the end of a game (issue 49): the host's word and its title, the
rating line's words, the summary of a finished game (places, rounds, the best call) and the
watchers, without a browser (tests/test_game_end.py looks at them in one)."""

from __future__ import annotations

from typing import Any

import pytest

from .test_game_end import HOST
from .test_i18n_pages import client_text, create


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_the_host_s_word_and_title_are_translated(client: Any, lang: str) -> None:
    made = create(client)
    text = client_text(client.get(f"/t/{made['code']}?lang={lang}").get_data(as_text=True))
    assert (text["host"], text["hostTitle"]) == HOST[lang]
