"""How much of a kernel playout is the processor guessing branches wrong?

Plays the kernel's uniform playout from each game's start position two
ways, rounds alternating: with fresh random numbers every playout (a new
game each time, as a search plays them), and with the generator reset to
the same state before every playout (the same game again and again, so the
branch predictor learns every branch of it). Both do the same work on the
same memory; the difference is what mispredicted branches cost.
``share`` = 1 - same / fresh, the part of a fresh playout's time that a
branch-free kernel could hope to win back (docs/engine.md, "Batched
stepping", for the same effect in batched stepping).

    python bench/playout_branches.py [GAME ...] [--seconds 1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import boardlab
from boardlab.fast import resolve
from boardlab.fast._rng import new_rng


def ns_a_ply(kernel, init: np.ndarray, same: bool, seconds: float, seed: int = 5) -> float:
    """CPU ns a ply of playouts from ``init``: fresh games, or one game replayed."""
    rng = new_rng(seed)
    start_rng = rng.copy()
    record = np.zeros(0, dtype=np.int64)
    plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(50):
            if same:
                rng[:] = start_rng
            plies += kernel.playout(init.copy(), rng, record)
    return (time.process_time() - start) / plies * 1e9


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'game':7} {'size':>4} {'fresh ns':>9} {'same ns':>8} {'share':>6}")
    for name in args.games:
        size = boardlab.new_game(name).size
        req = resolve(name, size, {})
        init = np.zeros(req.state_len, dtype=np.int64)
        req.kernel.init(init, size, req.opts)
        req.kernel.playout(init.copy(), new_rng(1), np.zeros(0, dtype=np.int64))  # compile
        fresh = same = np.inf
        for _ in range(args.rounds):
            fresh = min(fresh, ns_a_ply(req.kernel, init, False, args.seconds))
            same = min(same, ns_a_ply(req.kernel, init, True, args.seconds))
        print(f"{name:7} {size:>4} {fresh:>9.0f} {same:>8.0f} {1 - same / fresh:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
