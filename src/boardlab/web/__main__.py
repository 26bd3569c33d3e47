"""``python -m boardlab.web``: serve the browser app (see docs/web.md)."""

from __future__ import annotations

import argparse
import os
import sys

from .settings import DEFAULT_DB, Settings


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="boardlab serve",
                                description="Play Implo, Yugo, Pilo, Vimbre and Robble in the browser.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=DEFAULT_DB,
                   help=f"SQLite database file for saved games (default {DEFAULT_DB})")
    d = Settings()
    p.add_argument("--engine-workers", type=int, default=d.engine_workers, metavar="N",
                   help="processes that compute the computer's moves (default "
                        f"{d.engine_workers}; 0: threads)")
    p.add_argument("--engine-timeout", type=float, default=d.engine_timeout, metavar="S",
                   help=f"seconds an engine call may take (default {d.engine_timeout:g})")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    g = p.add_argument_group("access (see docs/web.md, Operating a server)")
    g.add_argument("--public", action="store_true",
                   help="games not played by link have no owner: anyone who reaches the "
                        "server may list, play and delete them")
    g.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name the server answers for, besides localhost and IP "
                        "addresses (repeatable; '*': any; refuses DNS rebinding)")
    g.add_argument("--trust-proxy", action="store_true",
                   help="count clients by X-Forwarded-For (only behind a proxy that sets it)")
    g.add_argument("--max-games", type=int, default=d.max_games, metavar="N",
                   help=f"stored games at most (default {d.max_games}); the oldest finished "
                        "or loaded from a record are evicted")
    g.add_argument("--games-per-client", type=int, default=d.games_per_client, metavar="N",
                   help=f"stored games one client may have (default {d.games_per_client}); "
                        "its own oldest finished are evicted, else 429")
    g.add_argument("--max-record-moves", type=int, default=d.max_record_moves, metavar="N",
                   help=f"main-line moves of a loaded record (default {d.max_record_moves})")
    g.add_argument("--max-variation-moves", type=int, default=d.max_variation_moves,
                   metavar="N", help="variation moves a game may keep, all lines together "
                                     f"(default {d.max_variation_moves})")
    g.add_argument("--max-name", type=int, default=d.max_name, metavar="N",
                   help=f"characters of a player's name in a loaded record (default "
                        f"{d.max_name})")
    g.add_argument("--max-analysis-bytes", type=int, default=d.max_analysis_bytes, metavar="N",
                   help="bytes of the whole-game analysis a game keeps, as stored (default "
                        f"{d.max_analysis_bytes}); a larger one is refused 413")
    g.add_argument("--creation-rate", type=float, nargs=2, default=d.creation_rate,
                   metavar=("PER_S", "BURST"),
                   help="new games per client: a second, burst (default "
                        f"{d.creation_rate[0]:.3g} {d.creation_rate[1]:g})")
    g.add_argument("--http-rate", type=float, nargs=2, default=d.http_rate,
                   metavar=("PER_S", "BURST"),
                   help=f"requests per client: a second, burst (default {d.http_rate[0]:g} "
                        f"{d.http_rate[1]:g})")
    g.add_argument("--csp", default=d.csp, metavar="POLICY",
                   help="the Content-Security-Policy header ('' : none)")
    g.add_argument("--studies", default=d.studies_dir, metavar="DIR",
                   help=f"the folder of balance-study reports /studies lists (default "
                        f"{d.studies_dir})")
    g.add_argument("--keep-alive", type=float, default=d.keep_alive, metavar="S",
                   help=f"seconds an idle connection is kept (default {d.keep_alive:g})")
    g.add_argument("--header-timeout", type=float, default=d.header_timeout, metavar="S",
                   help=f"seconds a request's headers may take (default {d.header_timeout:g})")
    g.add_argument("--max-connections", type=int, default=d.max_connections, metavar="N",
                   help=f"connections at once; more are answered 503 (default "
                        f"{d.max_connections})")
    g.add_argument("--held-per-client", type=int, default=d.held_per_client, metavar="N",
                   help="WebSockets and long-polls one client may hold open (default "
                        f"{d.held_per_client}); past it a socket is closed 1013")
    g.add_argument("--socket-idle", type=float, default=d.socket_idle, metavar="S",
                   help="seconds an analysis socket may stay idle before it is closed "
                        f"(default {d.socket_idle:g})")
    g.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                   help="a page origin (scheme://host[:port]) that may open the server's "
                        "WebSockets besides its own (repeatable; '*': any)")
    g.add_argument("--work-workers", type=int, default=1, metavar="N",
                   help="processes for heavy requests: records, big positions, the list's "
                        "replays (default 1)")
    g.add_argument("--work-timeout", type=float, default=d.work_timeout, metavar="S",
                   help=f"seconds such a request may take (default {d.work_timeout:g}); "
                        "then 503")
    return p


def settings_from(args: argparse.Namespace) -> Settings:
    """The server's settings from ``serve``'s arguments."""
    hosts = ["localhost", *args.allowed_host]
    if args.host not in ("0.0.0.0", "::", ""):
        hosts.append(args.host)  # a name the server was bound by
    return Settings(public=args.public, allowed_hosts=tuple(hosts), trust_proxy=args.trust_proxy,
                    http_rate=tuple(args.http_rate), creation_rate=tuple(args.creation_rate),
                    max_games=args.max_games, engine_workers=args.engine_workers,
                    engine_warm_up=args.engine_workers > 0,
                    engine_timeout=args.engine_timeout, csp=args.csp or None,
                    keep_alive=args.keep_alive, header_timeout=args.header_timeout,
                    max_connections=args.max_connections, studies_dir=args.studies,
                    games_per_client=args.games_per_client,
                    max_record_moves=args.max_record_moves,
                    max_variation_moves=args.max_variation_moves, max_name=args.max_name,
                    max_analysis_bytes=args.max_analysis_bytes,
                    held_per_client=args.held_per_client, socket_idle=args.socket_idle,
                    allowed_origins=tuple(args.allowed_origin),
                    work_workers=args.work_workers, work_timeout=args.work_timeout)


def argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``serve``'s arguments, checked before the server
    starts: the app opens (and creates) its database before binding the
    port, so a bad port would otherwise leave a database file behind and end
    in a traceback."""
    if not 0 <= args.port <= 65535:
        return f"--port {args.port}: a port is 0..65535"
    for name in ("engine_workers", "max_games", "max_connections", "games_per_client",
                 "max_record_moves", "max_variation_moves", "max_name", "held_per_client",
                 "work_workers", "max_analysis_bytes"):
        if getattr(args, name) < (0 if name in ("engine_workers", "max_variation_moves")
                                  else 1):
            return f"--{name.replace('_', '-')} {getattr(args, name)}: too small"
    for name in ("engine_timeout", "keep_alive", "header_timeout", "socket_idle",
                 "work_timeout"):
        if not 0 < getattr(args, name) < 10 ** 6:
            return f"--{name.replace('_', '-')} {getattr(args, name)}: seconds, more than 0"
    for name in ("creation_rate", "http_rate"):
        if not all(0 < v < 10 ** 6 for v in getattr(args, name)):
            return f"--{name.replace('_', '-')}: two numbers, more than 0"
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
        from .db import DatabaseVersionError
        from .server import uvicorn_config
    except ImportError as exc:
        print(f"boardlab.web needs the web extra ({exc.name} is missing): "
              "pip install -e '.[web]'  (make run does this)", file=sys.stderr)
        return 2

    settings = settings_from(args)
    try:
        app = create_app(args.db, settings=settings)
    except DatabaseVersionError as exc:
        print(f"boardlab serve: {exc}", file=sys.stderr)
        return 2
    mode = "public: anyone may play every game" if settings.public else "games have owners"
    print(f"boardlab: serving on http://{args.host}:{args.port}  (games in {args.db}; {mode})",
          flush=True)
    uvicorn.Server(uvicorn_config(app, settings, args.host, args.port, args.log_level)).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
