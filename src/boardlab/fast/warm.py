"""Compile (or load from numba's cache) everything the engines run, once, up front.

``python -m boardlab.fast.warm`` is what ``make run`` and ``make test`` do
before they start: on a fresh checkout numba compiles each game's kernel,
its search advice and the generic search loops (tens of seconds a game), and
a newcomer's first move against the computer or first analysis must not wait
for that. Once the code is in numba's on-disk cache (``__pycache__`` beside
the sources) the same command takes a few seconds: it only loads. Shows a
progress line with an ETA (tqdm).
"""

from __future__ import annotations

import argparse
import time

import boardlab


def warm_game(name: str) -> None:
    """Run every compiled path of one game once: kernel steps and playouts,
    the one search in each evaluator mode it has, the plain UCT yardstick."""
    from ..ai.limit import Limit
    from ..ai.search import analysis_settings
    from ..ai.uct import UCTAgent
    from .advice import advice
    from .search import Search, Settings

    game = boardlab.new_game(name)
    Search(game, analysis_settings(name), seed=0).run(8)
    Search(game, Settings(), seed=0).run(8)
    _, on_state = advice(name).for_state(game.size, "policy")
    if on_state.has_policy:
        Search(game, Settings(evaluator="policy"), seed=0).run(8)
    UCTAgent(Limit(8), seed=0).choose_action(game)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m boardlab.fast.warm", description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    from tqdm import tqdm
    start = time.perf_counter()
    with tqdm(args.games, desc="compiled code", unit="game", disable=args.quiet) as bar:
        for name in bar:
            bar.set_postfix_str(name)
            warm_game(name)
    if not args.quiet:
        print(f"compiled code ready ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
