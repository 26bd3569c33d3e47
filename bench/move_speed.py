"""Simulations per CPU second of an engine over the moves of one game (docs/ai.md).

Unlike ``bench/search_speed.py`` (one search from a few positions), this
plays an engine against itself with its tree reuse, new trees and all, as a
match does, and divides the simulations of its moves by their CPU time.
Run it against another checkout with ``PYTHONPATH=OTHER/src`` to compare
two versions side by side (alternate the processes).

    python bench/move_speed.py [GAME] [--engine mcts:150000] [--plies 30]
"""

from __future__ import annotations

import argparse
import time

import boardlab
from boardlab.ai import make_agent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="robble")
    parser.add_argument("--engine", default="mcts:150000",
                        help="an engine with a simulation budget")
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    agent = make_agent(args.engine, seed=args.seed)
    sims = agent.limit.simulations
    if not sims:
        parser.error(f"{args.engine}: give the engine a simulation budget (mcts:150000)")
    game = boardlab.new_game(args.game)
    agent.choose_action(game.copy())  # the compiled code loaded before timing
    spent, plies = 0.0, 0
    while not game.is_over and plies < args.plies:
        start = time.process_time()
        action = agent.choose_action(game)
        spent += time.process_time() - start
        game.apply_action(action)
        plies += 1
    print(f"{args.game} {args.engine}: {plies} plies, {sims * plies / spent:,.0f} simulations "
          "per CPU second")


if __name__ == "__main__":
    main()
