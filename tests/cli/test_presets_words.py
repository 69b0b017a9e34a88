"""``liarsdice presets`` says where each preset comes from in a player's words, not "seed 000"."""

from __future__ import annotations

from click.testing import CliRunner

from liarsdice.cli import cli
from liarsdice.presets import BUILT_IN, ORIGINS


def test_presets_never_name_a_seed() -> None:
    result = CliRunner().invoke(cli, ["presets"])
    assert result.exit_code == 0, result.output
    assert "seed" not in result.output
    assert "Casino revolver (the casino revolver game, with a dudo house rule)" in result.output


def test_every_built_in_source_has_words_in_each_language() -> None:
    for preset in BUILT_IN:
        origin = preset.origin
        assert origin is ORIGINS[preset.source]
        for lang in ("uk", "ru"):
            assert origin.render(lang) != str(origin)
