"""``python -m boardlab.web``: serve the browser app (see docs/web.md)."""

from __future__ import annotations

import argparse
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    from . import DEFAULT_DB
    p = argparse.ArgumentParser(prog="boardlab serve",
                                description="Play Implo, Yugo, Pilo, Vimbre and Robble in the browser.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=DEFAULT_DB,
                   help=f"SQLite database file for saved games (default {DEFAULT_DB})")
    p.add_argument("--engine-workers", type=int, default=1, metavar="N",
                   help="processes that compute the computer's moves (default 1; 0: threads)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    return p


def argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``serve``'s arguments, checked before the server
    starts: the app opens (and creates) its database before binding the
    port, so a bad port would otherwise leave a database file behind and end
    in a traceback."""
    if not 0 <= args.port <= 65535:
        return f"--port {args.port}: a port is 0..65535"
    if args.db != ":memory:":
        db = os.path.expanduser(args.db)
        if os.path.isdir(db):
            return f"--db {args.db}: is a directory, not a database file"
        parent = os.path.dirname(os.path.abspath(db))
        while not os.path.exists(parent):  # the folders still to be made
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            return f"--db {args.db}: {parent} is not a directory"
    return None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    problem = argument_problem(args)
    if problem:
        print(f"boardlab serve: {problem}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        print(f"boardlab.web needs the web extra ({exc.name} is missing): "
              "pip install -e '.[web]'  (make run does this)", file=sys.stderr)
        return 2

    app = create_app(args.db, engine_workers=args.engine_workers)
    print(f"boardlab: serving on http://{args.host}:{args.port}  (games in {args.db})",
          flush=True)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                            timeout_graceful_shutdown=2)
    uvicorn.Server(config).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
