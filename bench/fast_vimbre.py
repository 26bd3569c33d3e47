"""Uniform random playouts per second of the compiled vimbre core, one core.

Each playout runs entirely in compiled code (``boardlab.fast._vimbre.playout``)
on a copy of a fresh ``init`` state; the time is this process's CPU time
(``time.process_time``), excluding the first call (the compile or cache load),
so other load on the machine distorts the figure less. Prints one row per size.

    python bench/fast_vimbre.py [--sizes 11,19] [--seconds S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardlab.fast import _vimbre as k
from boardlab.fast._rng import new_rng


def measure(size: int, seconds: float, seed: int = 1) -> tuple[float, float, int]:
    """(playouts per second, mean plies, games) at this size."""
    start_state = np.zeros(k.state_len(size), dtype=np.int64)
    k.init(start_state, size, k.encode_options({}))
    rng = new_rng(seed)
    no_record = np.zeros(0, dtype=np.int64)
    k.playout(start_state.copy(), rng, no_record)  # compile / load, not timed
    games = plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(50):
            plies += k.playout(start_state.copy(), rng, no_record)
        games += 50
    elapsed = time.process_time() - start
    return games / elapsed, plies / games, games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="11,19")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    print(f"{'size':>4} {'playouts/s':>11} {'mean plies':>11} {'games':>7}")
    for size in (int(x) for x in args.sizes.split(",")):
        rate, mean, games = measure(size, args.seconds)
        print(f"{size:>4} {rate:>11.0f} {mean:>11.1f} {games:>7}", flush=True)


if __name__ == "__main__":
    main()
