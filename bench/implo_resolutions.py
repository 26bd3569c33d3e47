"""How much implo's resolution choices matter.

After a placement the mover resolves the pending patches one at a time, in an
order of their choosing (and picks among tied biggest groups). The search
treats each resolution as a decision of its own. This counts, over random
games, how often the mover has a real choice (two or more legal resolutions)
and whether the choice matters: from each such point every order is played
out to the end of the turn, and the choice is *irrelevant* when all orders
reach the same position.

With ``--playouts P`` it also values, at up to ``--points`` such choices, each
option by P uniform playouts on the compiled kernel (the mover's share of
wins): how far apart the best and the worst option are, and whether
resolving a patch the mover owns is worth more than resolving the
opponent's (a rule a playout policy could follow).

    python bench/implo_resolutions.py [--games N] [--size S] [--seed K]
    python bench/implo_resolutions.py --games 30 --playouts 300 --points 64
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

import boardlab
from boardlab.core.game import Game
from boardlab.fast import _implo
from boardlab.fast._rng import new_rng
from boardlab.fast.search import kernel_state


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


def option_values(game: Game, playouts: int, rng: np.ndarray) -> list[tuple[float, bool]]:
    """Each legal resolution of ``game`` (mid-turn): the mover's share of
    wins over ``playouts`` uniform playouts after it, and whether the
    patch it resolves is the mover's own."""
    state, req = kernel_state(game)
    k, n = req.kernel, game.size * game.size
    mover = game.current_player
    record, scores = np.zeros(0, dtype=np.int64), np.zeros(2)
    out = []
    for action in game.legal_actions():
        key = action - n if action < 2 * n else (action - 2 * n) // n
        owner = int(state[_implo._H + _implo._POWNER * n + key])
        after = state.copy()
        k.apply(after, action)
        wins = 0
        for _ in range(playouts):
            s = after.copy()
            k.playout(s, rng, record)
            wins += k.outcome(s, scores)[0] == mover
        out.append((wins / playouts, owner == mover))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--size", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--playouts", type=int, default=0,
                    help="value each option of a choice by this many uniform playouts")
    ap.add_argument("--points", type=int, default=64, help="choices valued (with --playouts)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    prng = new_rng(args.seed)
    plies = resolutions = choices = irrelevant = 0
    end_counts = 0
    spreads: list[float] = []
    own_minus_other: list[float] = []
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
                    if args.playouts and len(spreads) < args.points:
                        vals = option_values(game, args.playouts, prng)
                        spreads.append(max(v for v, _ in vals) - min(v for v, _ in vals))
                        own = [v for v, mine in vals if mine]
                        other = [v for v, mine in vals if not mine]
                        if own and other:
                            own_minus_other.append(statistics.mean(own) - statistics.mean(other))
            game.apply_action(rng.choice(legal))
    size = boardlab.new_game("implo", args.size).size
    print(f"implo {size}x{size}, {args.games} random games (seed {args.seed}): {plies} plies")
    print(f"resolution plies: {resolutions} ({resolutions / plies:.0%} of plies)")
    print(f"with a choice (2+ legal resolutions): {choices} ({choices / plies:.0%} of plies)")
    if choices:
        print(f"choice irrelevant (every order ends the turn in the same position): "
              f"{irrelevant} ({irrelevant / choices:.0%} of choices)")
        print(f"distinct end-of-turn positions per choice: mean {end_counts / choices:.2f}")
    if spreads:
        noise = 0.5 / args.playouts ** 0.5
        print(f"valued by {args.playouts} playouts an option, {len(spreads)} choices: best minus "
              f"worst option {statistics.mean(spreads):.3f} of a win on average (median "
              f"{statistics.median(spreads):.3f}; one value's noise up to {noise:.3f})")
    if len(own_minus_other) > 1:
        print(f"the mover's own patch first minus the opponent's: "
              f"{statistics.mean(own_minus_other):+.3f} (sd {statistics.stdev(own_minus_other):.3f}, "
              f"{len(own_minus_other)} choices with both)")


if __name__ == "__main__":
    main()
