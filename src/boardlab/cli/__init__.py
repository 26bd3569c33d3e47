"""The ``boardlab`` command."""

from __future__ import annotations

import argparse
import random
import sys

import boardlab


def _demo(args: argparse.Namespace) -> int:
    """Play one uniformly random game of each kind and print it."""
    rng = random.Random(args.seed)
    names = args.games or list(boardlab.GAMES)
    for name in names:
        game = boardlab.new_game(name, args.size)
        while not game.is_over:
            game.apply_action(rng.choice(game.legal_actions()))
        out = game.outcome
        print(f"== {name} {game.size}x{game.size}: {len(game.history)} moves, "
              f"{out.winner} ({out.termination.value})")
        print(" ".join(game.history))
        print(game)
        print()
    return 0


def _game_name(text: str) -> str:
    try:
        return boardlab.game_class(text).name
    except boardlab.OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardlab", description="Implo, Yugo, Pilo, Vimbre and Robble.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a random game of each kind and print it")
    demo.add_argument("games", nargs="*", metavar="GAME", type=_game_name,
                      help=f"any of {', '.join(boardlab.GAMES)} (default: all)")
    demo.add_argument("--size", type=int, default=None)
    demo.add_argument("--seed", type=int, default=None)
    demo.set_defaults(func=_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except boardlab.BoardlabError as exc:
        print(f"boardlab: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
