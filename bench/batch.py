"""Steps per second of the batched compiled API (``boardlab.fast.Batch``), one core.

Each step is ``env.step(env.random_actions())`` on an auto-resetting batch:
one compiled call samples an action per game, one applies them all (checked
first) and refreshes the legal masks. "game steps/s" counts one game moving
one ply; "calls/s" counts ``step`` calls (what Python pays per batch). CPU
time of this process. Games without a kernel yet are skipped.

    python bench/batch.py [GAME ...] [--seconds S] [--batches 1,64,1024]
"""

from __future__ import annotations

import argparse
import importlib.util

from adapters import stepping_loop, timed  # bench/adapters.py (same folder)

import boardlab


def steps_per_s(name: str, n: int, seconds: float) -> tuple[float, float]:
    from boardlab.fast import Batch

    rate = timed(stepping_loop(Batch(name, n, seed=1, auto_reset=True), n), seconds)
    return rate, rate / n


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--batches", default="1,64,1024")
    args = parser.parse_args(argv)
    batches = [int(b) for b in args.batches.split(",")]
    print(f"{'game':8} {'size':>4} {'batch':>6} {'game steps/s':>13} {'calls/s':>9}")
    for name in args.games:
        if importlib.util.find_spec(f"boardlab.fast._{name}") is None:
            print(f"{name:8} {'-':>4} {'-':>6} {'-':>13} {'-':>9}", flush=True)
            continue
        size = boardlab.game_class(name).default_size
        for n in batches:
            rate, calls = steps_per_s(name, n, args.seconds)
            print(f"{name:8} {size:>4} {n:>6} {rate:>13.0f} {calls:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
