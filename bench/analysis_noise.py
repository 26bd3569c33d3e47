"""How much two searches of one position disagree: the noise that the move
judgements' thresholds must stand clear of (docs/analysis.md).

For each game at its default size: a position after 20 seeded random moves,
analysed with N different seeds at the default budget; prints the standard
deviation and the range of the mover's win probability (the root value), and
the time of a whole-game analysis at that budget.

    python bench/analysis_noise.py [--seeds 6] [--plies 20]
"""

from __future__ import annotations

import argparse
import random
import statistics

import boardlab
from boardlab.ai.analysis import DEFAULT_LIMIT, analyse


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=6)
    p.add_argument("--plies", type=int, default=20)
    args = p.parse_args()
    print(f"budget {DEFAULT_LIMIT} a position, {args.seeds} seeds, position after {args.plies} random moves")
    print(f"{'game':8} {'size':>4} {'visits':>7} {'mean':>6} {'sd':>6} {'range':>6}")
    for name in boardlab.GAMES:
        game = boardlab.new_game(name)
        rng = random.Random(1)
        for _ in range(args.plies):
            if game.is_over:
                break
            game.apply_action(rng.choice(game.legal_actions()))
        runs = [analyse(game, DEFAULT_LIMIT, seed=s) for s in range(args.seeds)]
        w = [r.winrate for r in runs]
        print(f"{name:8} {game.size:>4} {round(statistics.mean(r.visits for r in runs)):>7} "
              f"{statistics.mean(w):6.3f} {statistics.stdev(w):6.3f} {max(w) - min(w):6.3f}",
              flush=True)


if __name__ == "__main__":
    main()
