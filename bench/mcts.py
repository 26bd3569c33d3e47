"""MCTS iterations (simulations) per second per game at its default size.

For each game the default MCTS agent searches, for ``--seconds`` each, the
start position and a middle-game position (reached by random moves, a fixed
seed); the table shows simulations per second of search and the number of
legal moves in the middle-game position. One process, one core; the search
uses wall-clock time, so other load on the machine lowers the figures.

    python bench/mcts.py [GAME ...] [--seconds S] [--size N]
"""

from __future__ import annotations

import argparse
import random
import time

import boardlab
from boardlab.ai.mcts import MCTSAgent


def midgame(name: str, size: int | None, seed: int = 7):
    """A position about a third of the way into a random game."""
    rng = random.Random(seed)
    game = boardlab.new_game(name, size)
    probe = game.copy()
    while not probe.is_over:
        probe.apply_action(rng.choice(probe.legal_actions()))
    target = len(probe) // 3
    actions = probe.action_history[:target]
    for a in actions:
        game.apply_action(a)
    return game


def rate(game, seconds: float) -> tuple[float, int]:
    agent = MCTSAgent(seconds=seconds, seed=1, win_scan=False, reuse=False)
    t = time.perf_counter()
    agent.choose_action(game)
    elapsed = time.perf_counter() - t
    return agent.info.iterations / elapsed, agent.info.iterations


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--size", type=int, default=None)
    args = parser.parse_args(argv)
    print(f"{'game':8} {'size':>4} {'start it/s':>11} {'middle it/s':>12} {'legal (middle)':>15}")
    for name in args.games:
        size = args.size or boardlab.game_class(name).default_size
        start = boardlab.new_game(name, size)
        mid = midgame(name, size)
        r0, _ = rate(start, args.seconds)
        r1, _ = rate(mid, args.seconds)
        print(f"{name:8} {size:>4} {r0:>11.0f} {r1:>12.0f} {len(mid.legal_actions()):>15}",
              flush=True)


if __name__ == "__main__":
    main()
