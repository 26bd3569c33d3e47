"""Random playouts per second through the integer API, one core (CPU time of
this process, so other load on the machine does not distort the figure).

Every ply calls ``legal_actions()`` and ``apply_action()``, as an MCTS
rollout does. Prints one table row per game (``make bench`` runs all five).

    python bench/playouts.py [GAME ...] [--seconds S] [--size N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time

import boardlab


def playouts(name: str, size: int | None, seconds: float, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    games = plies = legal_total = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        game = boardlab.new_game(name, size)
        while True:
            legal = game.legal_actions()
            if not legal:
                break
            legal_total += len(legal)
            game.apply_action(legal[int(rng.random() * len(legal))])
            plies += 1
        games += 1
        if time.process_time() >= deadline:
            break
    elapsed = time.process_time() - start
    return {
        "playouts_per_s": games / elapsed,
        "mean_length": plies / games,
        "mean_legal": legal_total / max(plies, 1),
        "games": games,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3, help="runs per game; the best is shown")
    args = parser.parse_args(argv)
    print(f"{'game':8} {'size':>4} {'playouts/s':>11} {'mean length':>12} {'mean legal':>11} {'games':>6}")
    for name in args.games:
        size = args.size or boardlab.game_class(name).default_size
        runs = [playouts(name, size, args.seconds, seed=k + 1) for k in range(args.repeat)]
        best = max(runs, key=lambda r: r["playouts_per_s"])
        print(f"{name:8} {size:>4} {best['playouts_per_s']:>11.0f} {best['mean_length']:>12.1f} "
              f"{best['mean_legal']:>11.1f} {int(best['games']):>6}", flush=True)


if __name__ == "__main__":
    main()
