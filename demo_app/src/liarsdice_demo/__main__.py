"""The ``liarsdice-demo`` command: run the demo app with no setup step.

``liarsdice-demo [--host H] [--port P] [--db PATH] [--database-url URL] [--redis URL]
[--allow-redis-without-aof] [--workers N]``.

It serves with gunicorn's gevent workers (:mod:`liarsdice_demo.serve`): one process by default,
a greenlet per connection, so thousands of open WebSockets cost little; with Redis, several
processes share the live tables, and with a server database (``--database-url``) several hosts
share the players, ratings and finished games too. It refuses a Redis that keeps no append-only
file (its live games would not survive a restart of redis-server) unless told to allow it: with
exit code 2 and one line, before any worker starts. The
same server is the documented way to host it (see the README and docs/deploy.md). What it prints
names no password.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

ALLOW_VARIABLE = "LIARSDICE_DEMO_ALLOW_REDIS_WITHOUT_AOF"
"""Set (to any value): the command leaves the append-only-file check to the app's config."""


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(
        prog="liarsdice-demo", description="Run the liarsdice demo app: Liar's Dice in the browser."
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=5000, help="port to listen on")
    parser.add_argument(
        "--db", metavar="PATH", help="SQLite file (default: in the instance folder)"
    )
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="players, ratings and finished games in this SQLAlchemy database, e.g."
        " postgresql+psycopg://user:password@host/dbname (default: $DATABASE_URL, else the"
        " SQLite file)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="keep live tables in Redis (default: $REDIS_URL, else SQLite)",
    )
    parser.add_argument(
        "--allow-redis-without-aof",
        action="store_true",
        help="run on a Redis that keeps no append-only file (a restart of redis-server then"
        " loses every live game; the fix: redis-server --appendonly yes)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes (more than 1 needs Redis: --redis or $REDIS_URL)",
    )
    args = parser.parse_args(argv)
    redis_url = args.redis or os.environ.get("REDIS_URL")
    database_url = args.database_url or os.environ.get("DATABASE_URL")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.workers > 1 and not redis_url:
        parser.error(
            "--workers above 1 needs Redis (--redis URL or REDIS_URL): the embedded SQLite store"
            " keeps live tables for one process"
        )

    from flask import Flask

    from liarsdice_demo import serve
    from liarsdice_demo.storage import persistence
    from liarsdice_demo.storage.db import shown

    allowed = args.allow_redis_without_aof or ALLOW_VARIABLE in os.environ
    if redis_url and not allowed:  # said here, not as a traceback from each worker
        try:
            persistence.require_aof(redis_url)
        except RuntimeError as refused:
            parser.exit(2, f"liarsdice-demo: {refused}\n")

    config: dict[str, str | bool] = {"DATABASE": args.db} if args.db else {}
    if args.redis:
        config["REDIS_URL"] = args.redis
    if args.allow_redis_without_aof:
        config["ALLOW_REDIS_WITHOUT_AOF"] = True
    if args.database_url:
        config["DATABASE_URL"] = args.database_url
    instance = Flask("liarsdice_demo", instance_relative_config=True).instance_path
    print(f"liarsdice-demo on http://{args.host}:{args.port}/  (Ctrl-C to stop)", flush=True)
    database = args.db or instance + "/liarsdice.sqlite"
    live = (
        f"live tables in Redis at {shown(redis_url)}" if redis_url else f"live tables in {database}"
    )
    kept = shown(database_url) if database_url else database
    print(f"{live}; players, games and ratings in {kept}", flush=True)
    serve.serve(config, args.host, args.port, args.workers)


if __name__ == "__main__":
    main()
