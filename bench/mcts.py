"""Search simulations per second per game at its default size, side by side.

For each game three searches run, for ``--seconds`` each, on the start
position and a middle-game position (reached by random moves, a fixed
seed): ``uct`` (the plain-UCT baseline on the Python step API), ``pymcts``
(the Python MCTS the levels run) and ``mcts`` (the compiled search); the
table shows simulations per second and the compiled search's ratio to
``uct``. One process, one core; the searches use wall-clock time, so other
load on the machine lowers the figures (all three alike).

    python bench/mcts.py [GAME ...] [--seconds S] [--size N]
"""

from __future__ import annotations

import argparse
import random
import time

import boardlab
from boardlab.ai.engines import make_engine
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


def rate(game, seconds: float, engine: str = "pymcts") -> tuple[float, int]:
    if engine == "pymcts":
        agent = MCTSAgent(seconds=seconds, seed=1, win_scan=False, reuse=False)
    else:
        agent = make_engine(f"{engine}:{seconds}s", seed=1)
    t = time.perf_counter()
    agent.choose_action(game)
    elapsed = time.perf_counter() - t
    sims = agent.simulations if engine == "uct" else agent.info.iterations
    return sims / elapsed, sims


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--size", type=int, default=None)
    args = parser.parse_args(argv)
    warm = boardlab.new_game("robble", 4)
    rate(warm, 0.05, "mcts")  # numba's import and cache load, not a search
    engines = ("uct", "pymcts", "mcts")
    print(f"{'game':8} {'size':>4} {'position':>8} " + " ".join(f"{e + ' sims/s':>14}" for e in engines)
          + f" {'mcts/uct':>9} {'legal':>6}")
    for name in args.games:
        size = args.size or boardlab.game_class(name).default_size
        for label, game in (("start", boardlab.new_game(name, size)), ("middle", midgame(name, size))):
            rates = [rate(game, args.seconds, e)[0] for e in engines]
            print(f"{name:8} {size:>4} {label:>8} " + " ".join(f"{r:>14.0f}" for r in rates)
                  + f" {rates[2] / rates[0]:>8.1f}x {len(game.legal_actions()):>6}", flush=True)


if __name__ == "__main__":
    main()
