"""What az's search is worth without its network's values (docs/az.md).

``az`` plays the Gumbel root (sequential halving, then PUCT below) with a
network's priors and values. This replaces the values by the mean of
``--playouts`` uniform playouts from each leaf (the kernel's, compiled) and
the priors by uniform ones, or by a network's (``--net``), and plays that
search against ``mcts`` at the same simulations a move, colors alternating,
on robble 5x5: if it holds its own where the trained network does not, the
network's evaluation is what loses, not the search around it.

    python bench/az/gumbel_playouts.py [--net WEIGHTS] [--games 10] [--simulations 500]
"""

from __future__ import annotations

import argparse

import numpy as np

import boardlab
from boardlab.ai import make_agent
from boardlab.az.evaluator import NetEvaluator
from boardlab.az.gumbel import SETTINGS, GumbelMove, run
from boardlab.az.weights import load
from boardlab.fast import _robble
from boardlab.fast._rng import new_rng
from boardlab.fast.search import Search

SIZE = 5


def playout_evaluator(playouts: int, net: NetEvaluator | None, seed: int):
    """(states, players) -> (values for the player to move, priors): values
    from uniform playouts, priors uniform or the network's."""
    rng = new_rng(seed)
    record = np.zeros(0, np.int64)
    scores = np.zeros(2)
    actions = boardlab.game_class("robble").num_distinct_actions_for(SIZE)

    def evaluate(states: np.ndarray, players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values = np.zeros(len(states))
        for i, (state, player) in enumerate(zip(states, players, strict=True)):
            total = 0.0
            for _ in range(playouts):
                s = state.copy()
                if _robble.current_player(s) >= 0:
                    _robble.playout(s, rng, record)
                winner, _ = _robble.outcome(s, scores)
                total += 0.0 if winner == 2 else (1.0 if winner == player else -1.0)
            values[i] = total / playouts
        priors = net(states, players)[1] if net is not None else \
            np.full((len(states), actions), 1.0 / actions)
        return values, priors

    return evaluate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", default=None, help="a network's weights for the priors")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=500)
    parser.add_argument("--playouts", type=int, default=1, help="playouts a leaf")
    args = parser.parse_args(argv)
    net = None
    if args.net:
        w = load(args.net)
        net = NetEvaluator(w.params, w.spec)
    evaluate = playout_evaluator(args.playouts, net, seed=5)
    settings = SETTINGS.replace(nodes=4 * args.simulations + 1000,
                                edges=(4 * args.simulations + 1000) * 26)
    score = 0.0
    for g in range(args.games):
        game = boardlab.new_game("robble", SIZE)
        mcts = make_agent(f"mcts:{args.simulations}", seed=g)
        mine = g % 2
        rng = np.random.default_rng(g)
        while not game.is_over:
            if game.current_player == mine:
                mv = GumbelMove(Search(game, settings, seed=g), args.simulations, rng, noise=0.0)
                run([mv], evaluate)
                action = mv.action()
            else:
                action = mcts.choose_action(game)
            game.apply_action(action)
        winner = game.outcome.winner
        score += 0.5 if winner == "draw" else float(game.colors.index(winner) == mine)
    what = "the network's priors" if net else "uniform priors"
    print(f"Gumbel search, {args.playouts} playout(s) a leaf, {what}, against "
          f"mcts:{args.simulations}: {score:g}/{args.games}")


if __name__ == "__main__":
    main()
