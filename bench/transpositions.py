"""Would a transposition table pay? How often the one search's tree holds
one position at several nodes, depth by depth.

A seeded random game is played to a fraction of the board's points; the
search (uniform, ``Settings()``, the yardstick's algorithm) runs
``--sims`` simulations there; then every node of its tree is replayed in a
Python game and keyed by its position text (``Game.position()``, board,
mover and state fields). Per depth: the nodes, the distinct positions among
them (their ratio is how many nodes a table would merge into one), and the
share of the depth's visits that fell on positions held by two or more
nodes (what sharing statistics could pool). Positions repeated across
depths are not counted: a table would merge those too, but the search keys
them apart by depth only in cycles, which these games all but never make.

    python bench/transpositions.py [GAME ...] [--sims 100000] [--at 0.33,0.8] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter, defaultdict

import boardlab
from boardlab.fast.search import Search, Settings


def position(name: str, fraction: float, seed: int) -> boardlab.Game:
    game = boardlab.new_game(name)
    rng = random.Random(seed)
    for _ in range(int(game.n_points * fraction)):
        if game.is_over:
            break
        game.apply_action(rng.choice(game.legal_actions()))
    return game


def depths(game: boardlab.Game, sims: int, seed: int) -> dict[int, tuple[int, int, float]]:
    """depth -> (nodes, distinct positions, share of visits on shared positions)."""
    search = Search(game, Settings(), seed=seed)
    search.run(sims)
    t = search.tree
    keys: dict[int, Counter] = defaultdict(Counter)
    visits: dict[tuple[int, str], float] = defaultdict(float)
    stack = [(search.root, game.copy(), 0)]
    while stack:
        node, here, d = stack.pop()
        f = int(t.first[node])
        if f < 0:
            continue
        for e in range(f, f + int(t.tried[node])):
            j = int(t.child[e]) - 1
            if j < 0:
                continue
            there = here.copy()
            there.apply_action(int(t.action[e]))
            key = there.position()
            keys[d + 1][key] += 1
            visits[d + 1, key] += float(t.en[e])
            stack.append((j, there, d + 1))
    out = {}
    for d, counts in sorted(keys.items()):
        total = sum(v for (dd, _), v in visits.items() if dd == d)
        shared = sum(v for (dd, k), v in visits.items() if dd == d and counts[k] > 1)
        out[d] = (sum(counts.values()), len(counts), shared / total if total else 0.0)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["robble", "pilo", "implo"])
    parser.add_argument("--sims", type=int, default=100_000)
    parser.add_argument("--at", default="0.33,0.8", help="fractions of the board's points played")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("| game | played | depth | nodes | distinct | nodes a position | visits on shared positions |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games:
        for fraction in (float(x) for x in args.at.split(",")):
            game = position(name, fraction, args.seed)
            for d, (nodes, distinct, shared) in depths(game, args.sims, args.seed).items():
                print(f"| {name} {game.size}x{game.size} | {fraction:.0%} | {d} | {nodes:,} | "
                      f"{distinct:,} | {nodes / distinct:.2f} | {shared:.0%} |", flush=True)


if __name__ == "__main__":
    main()
