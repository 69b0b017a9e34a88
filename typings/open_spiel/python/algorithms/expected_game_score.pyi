# OpenSpiel's expected game score, typed as far as liarsdice.evaluation uses it.
from collections.abc import Sequence
from typing import Any

def policy_value(state: Any, policies: Sequence[Any]) -> list[float]: ...
