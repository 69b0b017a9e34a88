"""Endgames solved off the table's path, so a hard bot's solved policy never stalls a table.

The hard bots (``mixed``) play solved two-player endgames (:mod:`liarsdice.endgame`). Solving
one takes 1 to 4 s of CPU, which would stop every table of a gevent worker, so the demo's hard
bots only use solutions already in the store (``endgames="cached"``); on a miss they call
:func:`solve_later`, which solves in a real OS thread (gevent's thread pool where gevent runs the
server, a daemon thread otherwise), one at a time: a miss while one is being solved is dropped,
and asked again at the next miss. Until it is solved the bot plays its heuristic; the solution is
kept in the process and on disk (``$LIARSDICE_ENDGAME_CACHE``), so a server solves each endgame
once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from liarsdice import endgame
from liarsdice.bots.mixed_bot import ENDGAME_LIMITS
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView

log = logging.getLogger(__name__)
_busy = threading.Lock()


def solve_later(rules: Ruleset, view: PlayerView) -> bool:
    """Start solving the endgame at ``view`` in the background, unless one is being solved;
    ``True`` if this call started one."""
    if not _busy.acquire(blocking=False):
        return False
    try:
        _in_real_thread(_solve, rules, view)
    except BaseException:
        _busy.release()
        raise
    return True


def solving() -> bool:
    """Whether an endgame is being solved in the background now."""
    return _busy.locked()


def _solve(rules: Ruleset, view: PlayerView) -> None:
    try:
        endgame.solve(rules, view, limits=ENDGAME_LIMITS)
    except endgame.Unsolvable as error:
        log.info("endgame not solved: %s", error.reason)
    except Exception:  # a solver bug must not take the server down; the bot plays on
        log.exception("endgame solver failed")
    finally:
        _busy.release()


def _in_real_thread(function: Callable[..., object], *args: object) -> None:
    """Run ``function(*args)`` in an OS thread, even where gevent patched ``threading``."""
    try:
        from gevent import get_hub, monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        patched = False
    else:
        patched = monkey.is_module_patched("threading")
    if patched:
        get_hub().threadpool.spawn(function, *args)
    else:
        threading.Thread(target=function, args=args, name="liarsdice-endgame", daemon=True).start()
