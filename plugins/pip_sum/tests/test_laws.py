"""The rule laws on ``pip-sum``: alone, beside each other variant, and in any combination."""

import pytest

pytestmark = pytest.mark.liarsdice_variant("pip-sum")
