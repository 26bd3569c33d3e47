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
live (a step reads only part of its row, so it loses less); and ``tiled``
ns/game, the compiled step on a batch of that size made of copies of the
64-game batch's games (states, generators, masks and next actions copied,
so each copy plays the same game as its original): as many bytes as the
batch itself, each row in its own memory, but only 64 games' worth of
branch outcomes for the processor to predict. Where ``tiled`` is near batch
64's ``step`` and the real batch is slower, the loss is the branch
predictor's (it remembers 64 boards from one step to the next, not 1,024),
not the caches' (``tiled legal``: the same for ``legal``). "set" is the
states of the whole batch; the core's L2 cache is 2 MB on the machine of
docs/engine.md. Best of ``--rounds`` rounds, the sizes interleaved, CPU
time of one process.

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


#: the per-game arrays of a Batch that decide its games' next steps
_PER_GAME = ("states", "_rngs", "legal_mask", "current_player", "_span", "terminated", "rewards",
             "_ahead")


def tiled(game: str, small: Batch, n: int) -> Batch:
    """A batch of ``n`` games (a multiple of ``small.n``), copies of ``small``'s."""
    env = Batch(game, n, seed=1, auto_reset=True)
    for name in _PER_GAME:
        src = getattr(small, name)
        getattr(env, name)[...] = np.tile(src, (n // small.n,) + (1,) * (src.ndim - 1))
    return env


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
          f"{'legal ns':>8} {'x64':>5} {'floor ns':>8} {'tiled ns':>8} {'tiled legal':>11}")
    for game in args.games:
        envs = {n: Batch(game, n, seed=1, auto_reset=True) for n in sizes}
        for env in envs.values():
            for _ in range(30):  # load the compiled code, leave the opening
                env.step(env.random_actions())
            _read_rows(env.states, 1)
            _scan_rows(env._fns, env.states, env._buf, 1)
        tiles = {n: tiled(game, envs[64], n) for n in sizes if 64 in envs and n > 64 and n % 64 == 0}
        step = dict.fromkeys(sizes, np.inf)
        scan = dict.fromkeys(sizes, np.inf)
        floor = dict.fromkeys(sizes, np.inf)
        tile = dict.fromkeys(tiles, np.inf)
        tile_scan = dict.fromkeys(tiles, np.inf)
        for _ in range(args.rounds):
            for n, env in envs.items():
                step[n] = min(step[n], step_ns(env, args.seconds))
                scan[n] = min(scan[n], scan_ns(env))
                floor[n] = min(floor[n], floor_ns(env))
                if n in tiles:
                    tile[n] = min(tile[n], step_ns(tiles[n], args.seconds))
                    tile_scan[n] = min(tile_scan[n], scan_ns(tiles[n]))
        base = step.get(64, step[sizes[0]])
        base_scan = scan.get(64, scan[sizes[0]])
        for n, env in envs.items():
            shown = f"{tile[n]:>8.0f} {tile_scan[n]:>11.0f}" if n in tile else ""
            print(f"{game:7} {env.size:>4} {n:>6} {env.states.nbytes / 2**20:>10.1f} "
                  f"{step[n]:>8.0f} {base / step[n]:>5.2f} {scan[n]:>8.0f} {base_scan / scan[n]:>5.2f} "
                  f"{floor[n]:>8.0f} {shown}", flush=True)


if __name__ == "__main__":
    main()
