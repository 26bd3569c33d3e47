"""How closely timed searches keep to their budget: wall and CPU seconds per
move over the budget, for ``uct:Ss``, ``pyuct:Ss`` and ``mcts:Ss``.

The tests check that a seconds budget stops a search by the agent's clock
(tests/test_ai_uct.py, tests/test_ai_mcts.py); how far a real search runs past
it depends on the machine and its load, so it is measured here. Each engine
chooses ``--moves`` moves per game at its default size, from positions a few
random moves into a game (a fixed seed). Printed per engine and game: the
median and the largest wall time of a move and its CPU time (this process),
each as a multiple of the budget (1.00: exactly on time).

    python bench/time_budget.py [GAME ...] [--seconds S] [--moves N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import boardlab
from boardlab.ai.engines import make_engine


def positions(name: str, count: int, seed: int = 3) -> list[boardlab.Game]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = boardlab.new_game(name)
        for _ in range(rng.randrange(4, 16)):
            if game.is_over:
                break
            game.apply_action(rng.choice(game.legal_actions()))
        if not game.is_over:
            out.append(game)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=0.2, help="the budget of a move")
    parser.add_argument("--moves", type=int, default=5, help="moves per engine and game")
    args = parser.parse_args(argv)
    for name in args.games:  # load each game's compiled kernel and search: not a move's time
        make_engine("mcts:0.01s", seed=1).choose_action(boardlab.new_game(name))
    budget = args.seconds
    print(f"budget {budget:g} s a move; wall and CPU time of a move / budget")
    print(f"{'engine':8} {'game':7} {'wall med':>8} {'wall max':>8} {'cpu med':>8} {'cpu max':>8}")
    for engine in ("uct", "pyuct", "mcts"):
        for name in args.games:
            agent = make_engine(f"{engine}:{budget:g}s", seed=1)
            walls, cpus = [], []
            for game in positions(name, args.moves):
                wall, cpu = time.perf_counter(), time.process_time()
                agent.choose_action(game)
                walls.append((time.perf_counter() - wall) / budget)
                cpus.append((time.process_time() - cpu) / budget)
            print(f"{engine:8} {name:7} {statistics.median(walls):8.2f} {max(walls):8.2f} "
                  f"{statistics.median(cpus):8.2f} {max(cpus):8.2f}", flush=True)


if __name__ == "__main__":
    main()
