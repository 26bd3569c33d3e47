"""Compiled Pilo playouts per second, one core (CPU time of this process).

Each playout runs entirely in compiled code (``boardlab.fast._pilo.playout``)
from a fresh ``init`` state; the first call (compile or cache load) is not
timed. Also times ``outcome`` (the patch scoring) on finished games.

    python bench/fast_pilo.py [--sizes 8,19] [--seconds S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardlab.fast import _pilo as k
from boardlab.fast._rng import new_rng


def measure(size: int, seconds: float, seed: int = 1) -> dict[str, float]:
    base = np.zeros(k.state_len(size), dtype=np.int64)
    k.init(base, size, k.encode_options({}))
    rng = new_rng(seed)
    none = np.zeros(0, dtype=np.int64)
    k.playout(base.copy(), rng, none)  # compile / load, untimed
    games = plies = 0
    finals = []
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            state = base.copy()
            plies += k.playout(state, rng, none)
            games += 1
        finals.append(state)
    elapsed = time.process_time() - start
    scores = np.zeros(2, dtype=np.float64)
    reps = 0
    start = time.process_time()
    while time.process_time() - start < seconds / 5:
        for state in finals:
            k.outcome(state, scores)
        reps += len(finals)
    score_s = (time.process_time() - start) / reps
    return {"playouts_per_s": games / elapsed, "mean_plies": plies / games,
            "outcome_us": score_s * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,19")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        r = measure(size, args.seconds)
        print(f"pilo {size:2}x{size:<2}: {r['playouts_per_s']:10,.0f} playouts/s  "
              f"mean plies {r['mean_plies']:6.1f}  outcome {r['outcome_us']:.2f} us", flush=True)


if __name__ == "__main__":
    main()
