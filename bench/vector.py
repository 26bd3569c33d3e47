"""Steps per second of ``boardlab.research.vector.VectorEnv`` at several batch sizes, next
to the PettingZoo AEC loop's, one core (CPU time of this process).

A *step* is one game moving one action, observation included: the vector
loop is ``env.step(env.random_actions())`` (planes, masks, rewards for every
env, autoreset; copies returned, the default), the PettingZoo loop is
bench/adapters.py's (``env.last()`` with planes and mask, a random legal
action, ``env.step``). ``x pz`` is the vector env's steps/s divided by
PettingZoo's. Default board sizes.

    python bench/vector.py [GAME ...] [--seconds S] [--batches 1,64,1024]
"""

from __future__ import annotations

import argparse
import random
import warnings

from adapters import pettingzoo_loop, stepping_loop, timed  # bench/adapters.py (same folder)

import boardlab


def vector_steps_per_s(name: str, n: int, seconds: float) -> float:
    from boardlab.research.vector import VectorEnv

    env = VectorEnv(name, n)
    env.reset(seed=1)
    return timed(stepping_loop(env, n), seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=1.0, help="per game and loop")
    parser.add_argument("--batches", default="1,64,1024")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    batches = [int(b) for b in args.batches.split(",")]
    head = " ".join(f"{f'vec{b}/s':>11} {'x pz':>6}" for b in batches)
    print(f"{'game':7} {'size':>4} {'pettingzoo/s':>12} {head}")
    for name in args.games:
        size = boardlab.game_class(name).default_size
        pz = timed(pettingzoo_loop(name, size, random.Random(1)), args.seconds)
        cols = []
        for b in batches:
            rate = vector_steps_per_s(name, b, args.seconds)
            cols.append(f"{rate:>11.0f} {rate / pz:>6.1f}")
        print(f"{name:7} {size:>4} {pz:>12.0f} {' '.join(cols)}", flush=True)


if __name__ == "__main__":
    main()
