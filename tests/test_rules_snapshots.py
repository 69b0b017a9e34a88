"""Every shipped variant's rules text and behaviour at each option value match its golden file,
``<package>/tests/rules_text/<variant>.md`` (liarsdice.testing.snapshots). After a change that is
meant, write them anew with ``uv run pytest tests/test_rules_snapshots.py --accept-rules-text`` and
review the diff: a behaviour that changed without its text, or the reverse, shows there."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from liarsdice.ruleset import BASELINE, installed
from liarsdice.testing.snapshots import check, path_for

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(set(installed()) - {BASELINE})


def package_tests(variant: str) -> Path:
    """The tests folder of the package that ships ``variant``."""
    plugin = installed()[variant].plugin
    source = inspect.getsourcefile(plugin if inspect.ismodule(plugin) else type(plugin))
    assert source is not None
    return Path(source).resolve().parents[1] / "tests"


@pytest.mark.parametrize("variant", SHIPPED)
def test_the_rules_text_snapshot_is_the_accepted_one(
    variant: str, request: pytest.FixtureRequest
) -> None:
    folder = package_tests(variant)
    assert ROOT in folder.parents, folder
    path = path_for(folder, variant)
    found = check(variant, path, accept=request.config.getoption("accept_rules_text"))
    assert found, f"no snapshot at {path}: write it with --accept-rules-text and commit it"
