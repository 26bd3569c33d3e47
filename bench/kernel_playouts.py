"""Uniform random playouts per second of a game's compiled kernel (boardlab.fast),
one core: ``playout()`` on copies of a fresh ``init`` state, called from
Python, CPU time of this process (``time.process_time``), the first call
(compile or cache load) excluded. Prints one line per size. The game's
options are its defaults unless given (``--option pie=no`` for robble
against the C program of docs/engine.md, which has no pie rule).

    python bench/kernel_playouts.py GAME [--sizes 9,19] [--seconds S] [--option KEY=VALUE ...]

``--search``: instead, what a simulation of ``mcts`` spends at its leaf, in
one compiled loop, on the state ``mcts`` searches on (the plug-in's own
``SEARCH_STATE`` where it has one, else the kernel's): the state restored
(``copy_state``), the playout ``mcts`` runs in that game (the plug-in's
``POLICY_PLAYOUT`` where its settings say ``evaluator=policy``, else the
uniform one) and the final count (``outcome``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import boardlab
from boardlab.cli.args import option_pair
from boardlab.fast import resolve
from boardlab.fast._loops import kernel_function
from boardlab.fast._rng import new_rng
from boardlab.fast.advice import advice
from boardlab.fast.search import search_state


def playouts_per_second(name: str, size: int, seconds: float, seed: int = 1,
                        options: dict | None = None) -> tuple[float, float]:
    """(playouts per second, mean plies) over about ``seconds`` of CPU time."""
    req = resolve(name, size, options or {})
    k = req.kernel
    init = np.zeros(req.state_len, dtype=np.int64)
    k.init(init, size, req.opts)
    rng = new_rng(seed)
    record = np.zeros(0, dtype=np.int64)
    k.playout(init.copy(), rng, record)  # compile / load outside the timing
    games = plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            plies += k.playout(init.copy(), rng, record)
        games += 100
    elapsed = time.process_time() - start
    return games / elapsed, plies / games


@njit
def _leaf_loop(copy_state, playout, outcome, init, n, rng):
    state = init.copy()
    record = np.zeros(0, dtype=np.int64)
    scores = np.zeros(2)
    plies = 0
    for _ in range(n):
        copy_state(state, init)
        plies += playout(state, rng, record)
        outcome(state, scores)
    return plies


def search_playouts_per_second(name: str, size: int, seconds: float, seed: int = 1,
                               options: dict | None = None) -> tuple[float, float]:
    """:func:`playouts_per_second` for ``--search``."""
    evaluator = advice(name).settings.get("evaluator", "playout")
    init, k, adv, _ = search_state(boardlab.new_game(name, size, **(options or {})), evaluator)
    playout = adv.playout if evaluator == "policy" else k.playout
    copy_state = kernel_function(k, "copy_state")
    rng = new_rng(seed)
    _leaf_loop(copy_state, playout, k.outcome, init, 1, rng)  # compile outside the timing
    games = plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        plies += _leaf_loop(copy_state, playout, k.outcome, init, 1000, rng)
        games += 1000
    elapsed = time.process_time() - start
    return games / elapsed, plies / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--sizes", default="default")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--option", action="append", type=option_pair, default=[],
                        metavar="KEY=VALUE", help="a game option (repeatable)")
    parser.add_argument("--search", action="store_true",
                        help="the leaf of a search: state restored, mcts's playout, final count")
    args = parser.parse_args(argv)
    rate_of = search_playouts_per_second if args.search else playouts_per_second
    default = boardlab.game_class(args.game).default_size
    for part in args.sizes.split(","):
        size = default if part.strip() == "default" else int(part)
        rate, mean = rate_of(args.game, size, args.seconds, options=dict(args.option))
        print(f"{args.game:8} size {size:2}: {rate:9.0f} playouts/s, mean {mean:.1f} plies", flush=True)


if __name__ == "__main__":
    main()
