"""Does a bigger batch step as fast per game as a small one? Steps per CPU
second of ``boardlab.fast.Batch`` and of the research ``VectorEnv``, batch
sizes side by side (docs/engine.md, "Batched stepping").

A step is one game moving one action: ``step(random_actions())``, with the
vector env's observations (planes and masks, new arrays: ``copy=True``, the
default; ``vector-nocopy``: ``copy=False``, the env's own arrays refilled
in place). Each figure is the best of ``--rounds`` rounds of ``--seconds``
CPU seconds (``time.process_time``), in one process per game and batch size,
the sizes interleaved round by round so that a busy machine slows them
alike; ``x64`` is the figure over batch 64's.

    python bench/batch_scaling.py [GAME ...] [--batches 64,1024,4096] [--rounds 5] [--seconds 0.3]
        [--kinds batch,vector,vector-nocopy]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import boardlab

_ONE = r"""
import sys, time
kind, game, n, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
if kind == "batch":
    from boardlab.fast import Batch
    env = Batch(game, n, seed=1, auto_reset=True)
else:
    from boardlab.research.vector import VectorEnv
    env = VectorEnv(game, n, copy=kind == "vector")
    env.reset(seed=1)
for _ in range(20):
    env.step(env.random_actions())  # load the compiled code, leave the start behind
calls, start = 0, time.process_time()
while time.process_time() - start < seconds:
    env.step(env.random_actions())
    calls += 1
print(calls * n / (time.process_time() - start))
"""


def rate(kind: str, game: str, n: int, seconds: float) -> float:
    out = subprocess.run([sys.executable, "-c", _ONE, kind, game, str(n), str(seconds)],
                         capture_output=True, text=True, env=dict(os.environ), check=True)
    return float(out.stdout)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--batches", default="64,1024,4096")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--kinds", default="batch,vector,vector-nocopy")
    args = parser.parse_args(argv)
    batches = [int(b) for b in args.batches.split(",")]
    cols = " ".join(f"{f'b{b}/s':>10} {'x64':>5}" for b in batches)
    print(f"{'kind':13} {'game':7} {'size':>4} {cols}")
    for kind in args.kinds.split(","):
        for game in args.games:
            best = dict.fromkeys(batches, 0.0)
            for _ in range(args.rounds):
                for b in batches:
                    best[b] = max(best[b], rate(kind, game, b, args.seconds))
            base = best.get(64) or best[batches[0]]
            size = boardlab.game_class(game).default_size
            row = " ".join(f"{best[b]:>10.0f} {best[b] / base:>5.2f}" for b in batches)
            print(f"{kind:13} {game:7} {size:>4} {row}", flush=True)


if __name__ == "__main__":
    main()
