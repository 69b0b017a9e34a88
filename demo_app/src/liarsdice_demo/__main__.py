"""``liarsdice-demo [--host H] [--port P] [--db PATH]``: run the demo app with no setup step.

The development server (threaded) is fine for a few tables on a laptop; for real use run it
under gunicorn (see the README).
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

    from liarsdice_demo import create_app

    app = create_app({"DATABASE": args.db} if args.db else None)
    print(f"liarsdice-demo on http://{args.host}:{args.port}/  (Ctrl-C to stop)")
    print(f"games and ratings are kept in {app.config['DATABASE']}")
    try:
        app.run(host=args.host, port=args.port, threaded=True)
    finally:
        app.extensions["liarsdice_hub"].shutdown()


if __name__ == "__main__":
    main()
