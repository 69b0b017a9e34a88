"""The rule laws on forehead, alone and beside every compatible installed variant: it changes who
sees what, which counts as doing something, and nothing leaks."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.liarsdice_variant("forehead")
