"""Why a big batch steps slower per game: the step's cost against the size of
the states it reads, batch size by batch size (docs/engine.md, "Batched
stepping").

For each batch size: ``step`` ns/game, the compiled step alone
(``_batch_loops.step`` called directly, each game's next action the one it
drew in the previous step: no Python checks, no ``random_actions`` copy);
``legal`` ns/game, the kernel's ``legal_actions`` alone on each state in
turn (a row read cold); and ``floor`` ns/game, a compiled loop that only
reads one word of every cache line of each game's whole state row, game
after game: what one pass over every word of the states costs where they
live (a step reads only part of its row, so it loses less). "set" is the states of the whole batch; the
core's L2 cache is 2 MB on the machine of docs/engine.md. Best of
``--rounds`` rounds, the sizes interleaved, CPU time of one process.

    python bench/batch_memory.py [GAME ...] [--batches 64,128,256,512,1024,4096] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import boardlab
from boardlab.fast import Batch, _batch_loops, _loops


@njit(cache=True)
def _read_rows(states, reps):
    total = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            row = states[i]
            for w in range(0, row.shape[0], 8):
                total += row[w]
    return total


def step_ns(env: Batch, seconds: float) -> float:
    pfns, obs = env._no_planes
    calls, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        _batch_loops.step(env._fns, pfns, env.states, env._ahead, env.size, env._g.opts, True,
                          env.legal_mask, env.current_player, env._span, env.terminated,
                          env.rewards, env._buf, env._scores, env._rngs, env._ahead, obs, False,
                          env._hot)
        calls += 1
    return (time.process_time() - start) / (calls * env.n) * 1e9


@njit(cache=True)
def _scan_rows(fns, states, buf, reps):
    legal_actions = _loops._make_legal(fns[2], fns[3])
    total = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            total += legal_actions(states[i], buf)
    return total


def scan_ns(env: Batch) -> float:
    """The kernel's ``legal_actions`` alone, on every game's state in turn
    (the part of a step that reads the most of a row)."""
    reps = max(1, 200_000 // env.n)
    start = time.process_time()
    _scan_rows(env._fns, env.states, env._buf, reps)
    return (time.process_time() - start) / (reps * env.n) * 1e9


def floor_ns(env: Batch) -> float:
    reps = max(1, 200_000 // env.n)
    start = time.process_time()
    _read_rows(env.states, reps)
    return (time.process_time() - start) / (reps * env.n) * 1e9


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--batches", default="64,128,256,512,1024,4096")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.25)
    args = parser.parse_args(argv)
    sizes = [int(b) for b in args.batches.split(",")]
    print(f"{'game':7} {'size':>4} {'batch':>6} {'set MB':>10} {'step ns':>8} {'x64':>5} "
          f"{'legal ns':>8} {'x64':>5} {'floor ns':>8}")
    for game in args.games:
        envs = {n: Batch(game, n, seed=1, auto_reset=True) for n in sizes}
        for env in envs.values():
            env.step(env.random_actions())  # load the compiled code
            _read_rows(env.states, 1)
            _scan_rows(env._fns, env.states, env._buf, 1)
        step = dict.fromkeys(sizes, np.inf)
        scan = dict.fromkeys(sizes, np.inf)
        floor = dict.fromkeys(sizes, np.inf)
        for _ in range(args.rounds):
            for n, env in envs.items():
                step[n] = min(step[n], step_ns(env, args.seconds))
                scan[n] = min(scan[n], scan_ns(env))
                floor[n] = min(floor[n], floor_ns(env))
        base = step.get(64, step[sizes[0]])
        base_scan = scan.get(64, scan[sizes[0]])
        for n, env in envs.items():
            print(f"{game:7} {env.size:>4} {n:>6} {env.states.nbytes / 2**20:>10.1f} "
                  f"{step[n]:>8.0f} {base / step[n]:>5.2f} {scan[n]:>8.0f} {base_scan / scan[n]:>5.2f} "
                  f"{floor[n]:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
