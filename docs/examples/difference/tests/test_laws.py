"""The rule laws of liarsdice, run on this variant alone and with every compatible one."""

import pytest

pytestmark = pytest.mark.liarsdice_variant("difference")
