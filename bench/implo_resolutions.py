"""How much implo's resolution choices matter.

After a placement the mover resolves the pending patches one at a time, in an
order of their choosing (and picks among tied biggest groups). The search
treats each resolution as a decision of its own. This counts, over random
games, how often the mover has a real choice (two or more legal resolutions)
and whether the choice matters: from each such point every order is played
out to the end of the turn, and the choice is *irrelevant* when all orders
reach the same position.

    python bench/implo_resolutions.py [--games N] [--size S] [--seed K]
"""

from __future__ import annotations

import argparse
import random

import boardlab
from boardlab.core.game import Game


def turn_ends(game: Game) -> set[str]:
    """Every position the mover can reach at the end of the current turn."""
    ends: set[str] = set()
    stack = [game.copy(history=False)]
    while stack:
        g = stack.pop()
        if not g.is_mid_turn:
            ends.add(g.position())
            continue
        for action in g.legal_actions():
            child = g.copy(history=False)
            child.apply_action(action)
            stack.append(child)
    return ends


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--size", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    plies = resolutions = choices = irrelevant = 0
    end_counts = 0
    for _ in range(args.games):
        game = boardlab.new_game("implo", args.size)
        while not game.is_over:
            legal = game.legal_actions()
            plies += 1
            if game.is_mid_turn:
                resolutions += 1
                if len(legal) > 1:
                    choices += 1
                    n_ends = len(turn_ends(game))
                    end_counts += n_ends
                    irrelevant += n_ends == 1
            game.apply_action(rng.choice(legal))
    size = boardlab.new_game("implo", args.size).size
    print(f"implo {size}x{size}, {args.games} random games (seed {args.seed}): {plies} plies")
    print(f"resolution plies: {resolutions} ({resolutions / plies:.0%} of plies)")
    print(f"with a choice (2+ legal resolutions): {choices} ({choices / plies:.0%} of plies)")
    if choices:
        print(f"choice irrelevant (every order ends the turn in the same position): "
              f"{irrelevant} ({irrelevant / choices:.0%} of choices)")
        print(f"distinct end-of-turn positions per choice: mean {end_counts / choices:.2f}")


if __name__ == "__main__":
    main()
