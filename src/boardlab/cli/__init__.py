"""The ``boardlab`` command: play, replay, check, rules and demo (docs/cli.md)."""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass
from typing import Any

import boardlab

from .. import ai
from .args import option_pair


def _demo(args: argparse.Namespace) -> int:
    """Play one uniformly random game of each kind and print it."""
    rng = random.Random(args.seed)
    names = args.games or list(boardlab.GAMES)
    for name in names:
        game = boardlab.new_game(name, args.size)
        while not game.is_over:
            game.apply_action(rng.choice(game.legal_actions()))
        out = game.outcome
        assert out is not None  # the loop ran until the game was over
        print(f"== {name} {game.size}x{game.size}: {len(game.history)} moves, "
              f"{out.winner} ({out.termination.value})")
        print(" ".join(game.history))
        print(game)
        print()
    return 0


def _use_color(args: argparse.Namespace) -> bool:
    if getattr(args, "no_color", False) or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def _play(args: argparse.Namespace) -> int:
    from .terminal import Session

    cls = boardlab.game_class(args.game)
    options: dict = {}
    for key, flag in _option_flags().items():
        given = getattr(args, flag.dest)
        if given is None:
            continue
        if key not in cls.option_defaults:
            raise boardlab.OptionError(f"{flag.name}: {cls.name} has no {flag.label}")
        options[key] = given
    black, white = (args.black, args.white) if cls.colors[0] == "black" else \
        (args.blue or args.black, args.orange or args.white)
    if sys.stdin.isatty() and os.environ.get("TERM") not in (None, "", "dumb"):
        try:
            import readline  # noqa: F401 - line editing and history for input()
        except ImportError:  # pragma: no cover
            pass
    session = Session(cls.name, args.size, options, (black, white), color=_use_color(args),
                      seed=args.seed)
    return session.run()


@dataclass(frozen=True)
class _Flag:
    """``boardlab play``'s flag for a game option (every game's, from the
    game classes' option facts: the CLI names none)."""

    key: str
    name: str        # --no-pie, --komi
    label: str       # the option's short name in texts
    help: str
    default: Any     # the option's default (its type is the flag's)

    @property
    def dest(self) -> str:
        return self.name[2:].replace("-", "_")


def _option_flags() -> dict[str, _Flag]:
    """A flag per option any game has: a yes/no option on by default is
    switched off with ``--no-KEY``, one off by default on with ``--KEY``; a
    number is ``--KEY N``. The help names the games that have it, and for
    an option a pre-game settles (yugo's komi), who settles it without the flag."""
    found: dict[str, list[type[boardlab.Game]]] = {}
    for name in boardlab.GAMES:
        cls = boardlab.game_class(name)
        for key in cls.option_defaults:
            found.setdefault(key, []).append(cls)
    flags = {}
    for key, classes in found.items():
        first = classes[0]
        default = first.option_defaults[key]
        label = first.option_label(key)
        games = ", ".join(c.name for c in classes)
        if isinstance(default, bool):
            name = f"--no-{key}" if default else f"--{key}"
            text = f"switch the {label} {'off' if default else 'on'} ({games})"
        else:
            name = f"--{key}"
            text = f"{first.option_help.get(key) or label} ({games})"
            settles = [c for c in classes if c.pregame is not None and c.pregame.option == key]
            if settles:
                one, two = settles[0].colors
                text += f"; without it {one} names it and {two} picks a color"
        flags[key] = _Flag(key, name, label, text, default)
    return flags


def _replay(args: argparse.Namespace) -> int:
    from .commands import replay

    return replay(args.file, args.ply, args.game, _use_color(args))


def _check(args: argparse.Namespace) -> int:
    from .commands import check

    return check(args.files)


def _engine(args: argparse.Namespace) -> int:
    from .engine import run_ugi
    from .jsonl import run_jsonl

    if args.jsonl:
        return run_jsonl(args.game, args.seed)
    if args.game is None:
        raise boardlab.OptionError("boardlab engine: name the game (or use --jsonl)")
    return run_ugi(args.game, args.size, dict(args.option), args.seed)


def _analyse(args: argparse.Namespace) -> int:
    from .analyse import run

    return run(args.record, args.engine, args.output, args.plot, args.game, args.jobs,
               args.seed, args.quiet)


def _rules(args: argparse.Namespace) -> int:
    from .commands import rules

    return rules(args.game)


def _game_name(text: str) -> str:
    try:
        return boardlab.game_class(text).name
    except boardlab.OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _player(text: str) -> str:
    name = text.strip().lower()
    if name == "human":
        return name
    try:
        ai.make_agent(name)  # registered names and MCTS specs such as mcts:500
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"unknown player {text!r} (human, an engine: {', '.join(ai.agent_names())}, "
            "or an MCTS spec such as mcts:500 or mcts:0.5s)") from None
    return name


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardlab", description="Implo, Yugo, Pilo, Vimbre and Robble: play, "
        "replay and check game records.")
    parser.add_argument("--version", action="version", version=f"boardlab {boardlab.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    players = f"human or an engine ({', '.join(ai.agent_names())})"
    play = sub.add_parser("play", help="play a game in the terminal",
                          description="Play a game in the terminal. Type moves in the "
                          "notation of the rules; type help during the game for commands.")
    play.add_argument("game", metavar="GAME", type=_game_name,
                      help=f"one of {', '.join(boardlab.GAMES)}")
    play.add_argument("--size", type=int, default=None, help="board size (4..19)")
    for flag in _option_flags().values():
        if isinstance(flag.default, bool):
            play.add_argument(flag.name, dest=flag.dest, action="store_const",
                              const=not flag.default, default=None, help=flag.help)
        else:
            play.add_argument(flag.name, dest=flag.dest, type=type(flag.default), default=None,
                              metavar="N", help=flag.help)
    play.add_argument("--black", type=_player, default="human", metavar="PLAYER",
                      help=f"who plays black (pilo: blue): {players}; default human")
    play.add_argument("--white", type=_player, default="random", metavar="PLAYER",
                      help="who plays white (pilo: orange); default random")
    play.add_argument("--blue", type=_player, default=None, metavar="PLAYER",
                      help="pilo: the same as --black")
    play.add_argument("--orange", type=_player, default=None, metavar="PLAYER",
                      help="pilo: the same as --white")
    play.add_argument("--seed", type=int, default=None, help="seed for the engines")
    play.add_argument("--no-color", action="store_true", help="no ANSI colors (or set NO_COLOR)")
    play.set_defaults(func=_play)

    rep = sub.add_parser("replay", help="show the positions of a game record",
                         description="Show the positions of a record: after every turn, "
                         "or the one after --ply N moves.")
    rep.add_argument("file", metavar="FILE", help="a record file; - reads standard input")
    rep.add_argument("--ply", type=int, default=None, metavar="N",
                     help="show only the position after N moves (0: the start)")
    rep.add_argument("--game", type=int, default=None, metavar="K",
                     help="which game of a many-game file (from 1)")
    rep.add_argument("--no-color", action="store_true", help="no ANSI colors (or set NO_COLOR)")
    rep.set_defaults(func=_replay)

    chk = sub.add_parser("check", help="validate game records (exit status 1 if invalid)",
                         description="Replay and validate every game in the files (gzip "
                         "too); print every error, each with its line and column, and exit "
                         "with status 1 if there was one.")
    chk.add_argument("files", nargs="+", metavar="FILE", help="a record file; - reads standard input")
    chk.set_defaults(func=_check)

    rul = sub.add_parser("rules", help="print a game's rules")
    rul.add_argument("game", metavar="GAME", type=_game_name,
                     help=f"one of {', '.join(boardlab.GAMES)}")
    rul.set_defaults(func=_rules)

    eng = sub.add_parser("engine", help="the engine over a text protocol (UGI, or JSON lines)",
                         description="Speak UGI on stdin/stdout (ugi, isready, position, go, "
                         "stop, query, quit; docs/analysis.md), or with --jsonl answer one "
                         "JSON analysis request per line.")
    eng.add_argument("game", metavar="GAME", type=_game_name, nargs="?", default=None,
                     help=f"one of {', '.join(boardlab.GAMES)} (with --jsonl: the default game)")
    eng.add_argument("--size", type=int, default=None, help="board size (4..19)")
    eng.add_argument("--option", action="append", type=option_pair, default=[], metavar="KEY=VALUE",
                     help="a game option, e.g. pie=no or komi=6 (repeatable)")
    eng.add_argument("--seed", type=int, default=0)
    eng.add_argument("--jsonl", action="store_true", help="JSON-lines analysis mode")
    eng.set_defaults(func=_engine)

    ana = sub.add_parser("analyse", aliases=["analyze"], help="review a recorded game with the engine",
                         description="Search every position of a record; write it with a comment "
                         "and a glyph per move (?! ? ??) and draw the win-rate graph.")
    ana.add_argument("record", metavar="RECORD", help="a record file ('-': standard input)")
    ana.add_argument("--engine", default=None, metavar="mcts[:BUDGET]",
                     help="the search and its budget per position (default mcts:0.5s)")
    ana.add_argument("-o", "--output", default=None, metavar="FILE",
                     help="write the annotated record here ('-': standard output)")
    ana.add_argument("--plot", default=None, metavar="PNG", help="write the win-rate graph")
    ana.add_argument("--game", type=int, default=None, metavar="K",
                     help="which game of a many-game file (from 1)")
    ana.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ana.add_argument("--seed", type=int, default=0)
    ana.add_argument("--quiet", action="store_true", help="no progress bar")
    ana.set_defaults(func=_analyse)

    # These two have their own parsers (boardlab match -h, boardlab serve -h); main()
    # hands them the rest of the command line.
    sub.add_parser("match", help="play engine A against engine B: boardlab match GAME --a "
                   "ENGINE --b ENGINE --games N [--jobs J]", add_help=False)
    sub.add_parser("study", help="self-play balance study: boardlab study GAME [--sizes 5,7,9] "
                   "[--engine E] [--games N] [--option komi=0..12] [--out DIR] [--resume]",
                   add_help=False)
    sub.add_parser("train", help="train a network by self-play for the az engine: boardlab "
                   "train GAME [--size N] [--generations G] [--workers W | --ray ADDRESS]",
                   add_help=False)
    sub.add_parser("serve", help="serve the browser app (what make run does): boardlab serve "
                   "[--host H] [--port P] [--db PATH]", add_help=False)

    demo = sub.add_parser("demo", help="play a random game of each kind and print it")
    demo.add_argument("games", nargs="*", metavar="GAME", type=_game_name,
                      help=f"any of {', '.join(boardlab.GAMES)} (default: all)")
    demo.add_argument("--size", type=int, default=None)
    demo.add_argument("--seed", type=int, default=None)
    demo.set_defaults(func=_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["match"]:
        from .match import main as match_main
        return match_main(argv[1:])
    if argv[:1] == ["study"]:
        from ..study.cli import main as study_main
        return study_main(argv[1:])
    if argv[:1] == ["train"]:
        from ..az.cli import main as train_main
        return train_main(argv[1:])
    if argv[:1] == ["serve"]:
        from ..web.__main__ import main as serve_main
        return serve_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except boardlab.BoardlabError as exc:
        sys.stdout.flush()
        print(f"boardlab: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. boardlab replay ... | head
        try:
            sys.stdout.close()
        except OSError:
            pass
        return 0


if __name__ == "__main__":
    sys.exit(main())
