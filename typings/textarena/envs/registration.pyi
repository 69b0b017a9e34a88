# TextArena's registry, typed as far as liarsdice.arena uses it.
from collections.abc import Callable
from typing import Any

ENV_REGISTRY: dict[str, Any]

def register(
    id: str,
    entry_point: Callable[..., Any],
    default_wrappers: list[Any] | None = None,
    **kwargs: Any,
) -> None: ...
def make(env_id: str, **kwargs: Any) -> Any: ...
