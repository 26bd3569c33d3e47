"""The one search against the plain-UCT yardstick, side by side, per CPU second.

``python bench/search_speed.py [GAME ...] [--seconds S] [--rounds R]``

For each game (default size), positions met along seeded random games (a
third of the way in) are searched in turns by ``uct``'s compiled UCT and by
the one search in uniform-playout mode (``Settings()``: UCB1, c = 1, the
kernel's playout, exactly what ``uct`` does, plus tree reuse's
bookkeeping), each for S CPU seconds of its own thread, R rounds alternating
which goes first. Printed: simulations per CPU second of each (medians over
the rounds) and their ratio; issue "one search" asks for >= 0.90. Also the
rate with the game's own settings (``mcts``'s knowledge), for the record.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import boardlab
from boardlab.ai import uct as uct_mod
from boardlab.fast import _loops, _uct
from boardlab.fast._rng import new_rng
from boardlab.fast.advice import advice
from boardlab.fast.search import Search, Settings, kernel_state


def position(name: str, seed: int) -> boardlab.Game:
    game = boardlab.new_game(name)
    rng = random.Random(seed)
    for _ in range(game.n_points // 3):
        if game.is_over:
            break
        game.apply_action(rng.choice(game.legal_actions()))
    return game


def uct_rate(game: boardlab.Game, seconds: float) -> float:
    state, req = kernel_state(game)
    fns = _loops.kernel_table(req.kernel)
    tree = _uct.UCTTree(uct_mod.NODES, uct_mod.POOL, req.num_actions, req.state_len)
    swap = game.swap_action if game.swap_action is not None else -1
    rng = new_rng(1)
    arrays = tree.arrays()
    t0 = time.thread_time()
    done = 0
    while time.thread_time() - t0 < seconds:
        done += _uct.uct_chunk(fns, state, swap, req.num_actions, rng, 64, *arrays)
    return done / (time.thread_time() - t0)


def search_rate(game: boardlab.Game, seconds: float, settings: Settings) -> float:
    s = Search(game, settings, seed=1)
    t0 = time.thread_time()
    done = 0
    while time.thread_time() - t0 < seconds:
        done += s.run(64)
    return done / (time.thread_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"{'game':8} {'uct/s':>9} {'search/s':>9} {'ratio':>6} {'knowledge/s':>12}")
    for name in args.games:
        game = position(name, 7)
        for fn in (lambda: uct_rate(game, 0.05), lambda: search_rate(game, 0.05, Settings())):
            fn()  # load the compiled code first
        u, s = [], []
        for r in range(args.rounds):
            pair = [("u", lambda: uct_rate(game, args.seconds)),
                    ("s", lambda: search_rate(game, args.seconds, Settings()))]
            for tag, fn in (pair if r % 2 == 0 else pair[::-1]):
                (u if tag == "u" else s).append(fn())
        k = search_rate(game, args.seconds, Settings(**advice(name).settings))
        mu, ms = statistics.median(u), statistics.median(s)
        print(f"{name:8} {mu:9.0f} {ms:9.0f} {ms / mu:6.2f} {k:12.0f}", flush=True)


if __name__ == "__main__":
    main()
