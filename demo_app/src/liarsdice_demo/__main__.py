"""``liarsdice-demo [--host H] [--port P] [--db PATH]``: run the demo app with no setup step.

It serves with gunicorn's gevent worker (:mod:`liarsdice_demo.serve`): one process, a greenlet
per connection, so thousands of open WebSockets cost little. The same server is the documented
way to host it (see the README).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence


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
    args = parser.parse_args(argv)

    from flask import Flask

    from liarsdice_demo import serve

    config = {"DATABASE": args.db} if args.db else None
    instance = Flask("liarsdice_demo", instance_relative_config=True).instance_path
    print(f"liarsdice-demo on http://{args.host}:{args.port}/  (Ctrl-C to stop)", flush=True)
    print(
        f"live tables, games and ratings are kept in {args.db or instance + '/liarsdice.sqlite'}",
        flush=True,
    )
    serve.serve(config, args.host, args.port)


if __name__ == "__main__":
    main()
