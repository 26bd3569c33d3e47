"""Does the ownership heat map help a reader? What it predicts, measured.

For every game with an ownership map (``boardlab.fast.ownership``) and every
recorded game of ``bench/strength/`` (mcts against uct at default sizes: real
games, not random ones), takes the positions at 25%, 50% and 75% of the game
and asks who each point ends up scoring for (the finished game's owners).
Three readers guess it:

- ``board``: the score as it stands (the owners if the game ended now), what
  the page's live score already tells a reader;
- ``map``: the sign of the ownership map from that position (0 where the map
  is within 0.2 of 0: the map says "unclear");
- ``map mae`` / ``board mae``: the mean absolute error of the map's values and
  of the board's owners against the final owners (-1 / 0 / 1).

A map worth showing must beat the board clearly in the middle of the game.

    python bench/ownership.py [--playouts 256] [--games 40]
"""

from __future__ import annotations

import argparse
import glob
import os
import sys

import numpy as np

import boardlab
from boardlab import records
from boardlab.fast.kernels import kernel
from boardlab.fast.ownership import has_ownership, ownership

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = (0.25, 0.5, 0.75)


def owners_now(game: boardlab.Game) -> np.ndarray:
    k = kernel(game.name)
    out = np.zeros(game.n_points, dtype=np.int64)
    k.owner(k.from_game(game), out)
    return out


def measure(name: str, playouts: int, games: int) -> dict[float, np.ndarray]:
    """Per stage: rows of (board right, map right, map mae, board mae) per position."""
    rows: dict[float, list] = {s: [] for s in STAGES}
    paths = sorted(glob.glob(os.path.join(ROOT, "bench", "strength", f"{name}-*.rec.gz")))
    recs = [r for p in paths for r in records.parse_all(records.read_text(p, drop_cut_off=True))]
    for rec in recs[:games]:
        final = rec.game  # the record's game, played to its end
        game = type(final)(final.size, **final.options)  # these records start from the start
        if not final.is_over:
            continue
        truth = owners_now(final)
        for stage in STAGES:
            g = game.copy()
            for m in rec.moves[:int(len(rec.moves) * stage)]:
                g.play(m)
            if g.is_over:
                continue
            board = owners_now(g)
            est = ownership(g, playouts, seed=1)
            assert est is not None
            guess = np.where(np.abs(est) < 0.2, 0, np.sign(est))
            rows[stage].append(((board == truth).mean(), (guess == truth).mean(),
                                np.abs(est - truth).mean(), np.abs(board - truth).mean()))
    return {s: np.array(v) for s, v in rows.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--playouts", type=int, default=256)
    p.add_argument("--games", type=int, default=40)
    args = p.parse_args(argv)
    print(f"{'game':8}{'stage':>6}{'positions':>10}{'board right':>12}{'map right':>10}"
          f"{'board mae':>10}{'map mae':>9}")
    for name in boardlab.GAMES:
        if not has_ownership(boardlab.new_game(name)):
            continue
        for stage, arr in measure(name, args.playouts, args.games).items():
            if not len(arr):
                continue
            b, m, mae, bmae = arr.mean(axis=0)
            print(f"{name:8}{stage:>6.0%}{len(arr):>10}{b:>12.3f}{m:>10.3f}{bmae:>10.3f}{mae:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
