"""Serving the app: gunicorn's gevent workers, one greenlet per connection.

Contract: :func:`serve` runs ``create_app(config)`` on ``host:port`` under gunicorn with gevent
workers (one, the embedded default; several only with a shared Redis store, see docs/deploy.md)
until SIGINT or SIGTERM; the app is built inside each worker, after gevent has patched the
standard library, and its hub is shut down when the worker exits; with a shared store, ``SIGTERM``
first makes the worker hand its tables over (:meth:`~liarsdice_demo.storage.cluster.Cluster.drain`).
A WebSocket costs a few greenlets and one file descriptor, not a thread, so one process holds
thousands of them (docs/security.md has the measured figures). Before serving, the open-file
limit is raised to the most the system allows, and gunicorn holds at most as many connections as
that limit has room for (:func:`~liarsdice_demo.edge.gate.connection_capacity`), so it stops accepting
before a file descriptor runs out; the socket gate keeps room in it for pages. The worker is
:class:`DemoWorker`: a connection from an address the handshake door is turning away
(:meth:`~liarsdice_demo.edge.handshakes.HandshakeDoor.turns_away`) is closed as soon as it is accepted.
After the app is built its objects are frozen out of the garbage collector (:func:`gc.freeze`),
so a full collection walks only what serving made, not the whole app.
"""

from __future__ import annotations

import gc
import resource
import signal
import threading
from collections.abc import Mapping
from typing import Any

from gunicorn.app.base import BaseApplication
from gunicorn.workers.ggevent import GeventWorker

from liarsdice_demo.edge import handshakes
from liarsdice_demo.edge.gate import connection_capacity

GRACE_SECONDS = 5


class DemoServer(BaseApplication):
    """gunicorn configured in code: ``liarsdice-demo`` needs no gunicorn command line."""

    def __init__(self, config: Mapping[str, Any] | None, options: Mapping[str, Any]) -> None:
        self.app_config = dict(config or {})
        self.options = dict(options)
        self.app: Any = None
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        self.cfg.set("worker_exit", self._worker_exit)

    def load(self) -> Any:
        from liarsdice_demo import create_app

        self.app = create_app(self.app_config)
        gc.collect()
        gc.freeze()  # the app's own objects: never walked again by a collection
        cluster = self.app.extensions["liarsdice_hub"].cluster
        if cluster is not None:  # on SIGTERM, hand the tables over before the sockets close
            stop = signal.getsignal(signal.SIGTERM)

            def drain_then_stop(signum: int, frame: Any) -> None:
                # not in the handler itself: draining takes locks and talks to Redis
                threading.Thread(target=cluster.drain, name="liarsdice-drain").start()
                if callable(stop):
                    stop(signum, frame)

            signal.signal(signal.SIGTERM, drain_then_stop)
        return self.app

    def _worker_exit(self, server: Any, worker: Any) -> None:
        if self.app is not None:
            self.app.extensions["liarsdice_hub"].shutdown()


class DemoWorker(GeventWorker):
    """gunicorn's gevent worker, which closes a connection unread when the app's handshake door
    turns its address away (a storm of handshakes from that address is under way)."""

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        door = getattr(self.wsgi, "extensions", {}).get(handshakes.KEY)
        peer = addr[0] if isinstance(addr, tuple) else None
        if door is not None and peer is not None and door.turns_away(peer):
            client.close()
            return
        super().handle(listener, client, addr)


def raise_file_limit() -> None:
    """Raise this process's open-file limit to its hard limit (each WebSocket holds one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def serve(config: Mapping[str, Any] | None, host: str, port: int, workers: int = 1) -> None:
    """Serve the demo app on ``host:port`` with ``workers`` processes until interrupted."""
    raise_file_limit()
    options = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": f"{DemoWorker.__module__}.{DemoWorker.__qualname__}",
        "worker_connections": connection_capacity(),
        "graceful_timeout": GRACE_SECONDS,
        "errorlog": "-",
        "loglevel": "warning",
    }
    DemoServer(config, options).run()
