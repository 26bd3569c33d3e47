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
from functools import partial

from _docs import splice

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


def rates(name: str, seconds: float, rounds: int) -> tuple[float, float, float]:
    """Median simulations per CPU second of uct and of the uniform one search
    (alternating which goes first), and the rate with the game's knowledge."""
    game = position(name, 7)
    runs = {"uct": partial(uct_rate, game), "search": partial(search_rate, game, settings=Settings())}
    for fn in runs.values():
        fn(0.05)  # load the compiled code first
    got: dict[str, list[float]] = {"uct": [], "search": []}
    for r in range(rounds):
        order = list(runs) if r % 2 == 0 else list(runs)[::-1]
        for tag in order:
            got[tag].append(runs[tag](seconds))
    known = search_rate(game, seconds, Settings(**advice(name).settings))
    return statistics.median(got["uct"]), statistics.median(got["search"]), known


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--docs", help="also splice the table into this Markdown file "
                                   "(between <!-- speed:begin --> and <!-- speed:end -->)")
    args = ap.parse_args()
    rows = ["| game | `uct` simulations / CPU s | one search, uniform | ratio | one search with the game's knowledge |",
            "|---|---|---|---|---|"]
    for name in args.games:
        mu, ms, known = rates(name, args.seconds, args.rounds)
        rows.append(f"| {name} | {mu:,.0f} | {ms:,.0f} | {ms / mu:.2f} | {known:,.0f} |")
        print(rows[-1], flush=True)
    if args.docs:
        cmd = (f"`python bench/search_speed.py --seconds {args.seconds:g} --rounds {args.rounds}` "
               "(medians; default sizes; the project's shared 2-core machine):")
        splice(args.docs, "speed", cmd + "\n\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
