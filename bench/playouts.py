"""Random playouts per second, pure Python and compiled, one core (CPU time of
this process, so other load on the machine does not distort the figure).

Pure Python: every ply calls ``legal_actions()`` and ``apply_action()``, as
an MCTS rollout does. Compiled: ``boardlab.fast.playouts`` (the whole loop in
numba, through the generic loop that takes the kernel as a first-class
function), and, to show what that indirection costs, the same loop compiled
directly against the kernel ("direct"). Games without a kernel yet show "-".
Prints one table row per game (``make bench`` runs all five).

    python bench/playouts.py [GAME ...] [--seconds S] [--size N] [--repeat R]
"""

from __future__ import annotations

import argparse
import importlib.util
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


def _direct_loop(k):
    """The playout loop compiled against one kernel (a closure: not cacheable,
    compiled here once; it is only the yardstick for the generic loop)."""
    from numba import njit

    init, playout = k.init, k.playout

    @njit
    def loop(state, size, opts, n, rng, record):
        total = 0
        for _ in range(n):
            init(state, size, opts)
            total += playout(state, rng, record)
        return total

    return loop


def compiled(name: str, size: int, seconds: float, seed: int = 1) -> dict[str, float] | None:
    """Compiled playouts/s (generic loop and direct loop); None without a kernel."""
    if importlib.util.find_spec(f"boardlab.fast._{name}") is None:
        return None
    import numpy as np

    from boardlab.fast import playouts as fast_playouts
    from boardlab.fast._rng import new_rng
    from boardlab.fast.kernels import kernel

    fast_playouts(name, 1, size)  # load or compile before timing
    n = 16
    while True:  # grow n until one call takes a fifth of the time
        start = time.process_time()
        plies = fast_playouts(name, n, size, seed=seed)
        elapsed = time.process_time() - start
        if elapsed >= seconds / 5:
            break
        n *= 4
    k = kernel(name)
    state = np.zeros(k.state_len(size), dtype=np.int64)
    opts = k.encode_options(boardlab.game_class(name)._check_options({}))
    record = np.zeros(0, dtype=np.int64)
    loop = _direct_loop(k)
    loop(state, size, opts, 1, new_rng(seed), record)
    start = time.process_time()
    loop(state, size, opts, n, new_rng(seed), record)
    direct = time.process_time() - start
    return {"playouts_per_s": n / elapsed, "direct_per_s": n / direct,
            "mean_length": plies / n}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3, help="runs per game; the best is shown")
    args = parser.parse_args(argv)
    print(f"{'game':8} {'size':>4} {'python/s':>9} {'mean length':>12} {'mean legal':>11} "
          f"{'games':>6} {'compiled/s':>11} {'direct/s':>10} {'ratio':>7}")
    for name in args.games:
        size = args.size or boardlab.game_class(name).default_size
        runs = [playouts(name, size, args.seconds, seed=k + 1) for k in range(args.repeat)]
        best = max(runs, key=lambda r: r["playouts_per_s"])
        fast = [compiled(name, size, args.seconds, seed=k + 1) for k in range(args.repeat)]
        row = (f"{name:8} {size:>4} {best['playouts_per_s']:>9.0f} {best['mean_length']:>12.1f} "
               f"{best['mean_legal']:>11.1f} {int(best['games']):>6}")
        if fast[0] is None:
            row += f" {'-':>11} {'-':>10} {'-':>7}"
        else:
            top = max(fast, key=lambda r: r["playouts_per_s"])
            direct = max(r["direct_per_s"] for r in fast)
            row += (f" {top['playouts_per_s']:>11.0f} {direct:>10.0f} "
                    f"{top['playouts_per_s'] / best['playouts_per_s']:>6.0f}x")
        print(row, flush=True)


if __name__ == "__main__":
    main()
