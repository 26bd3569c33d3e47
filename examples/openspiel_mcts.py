"""boardlab's MCTS against OpenSpiel's MCTS bot at equal simulations.

Both search the same game: OpenSpiel's ``MCTSBot`` (UCT, one random rollout
per simulation, ``RandomRolloutEvaluator``) sees it through
``boardlab.research.openspiel`` (``python_boardlab_<game>``); boardlab's engine reads
the boardlab game inside the OpenSpiel state. Colors alternate every game.
Prints boardlab's W-L-D, its score and the Elo difference with a 95% interval
(``boardlab.ai.stats.elo_estimate``).

    python examples/openspiel_mcts.py robble --size 5 --simulations 100 --games 20
    python examples/openspiel_mcts.py pilo --ours 'mcts:100,knowledge=no'

``--ours`` is any boardlab engine name (default ``mcts:<simulations>``, the
one search with the game's knowledge; add ``knowledge=no`` for plain UCB1
with random rollouts, like the bot).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import boardlab
import boardlab.research.openspiel  # noqa: F401  (registers python_boardlab_<game>)
from boardlab.ai import make_agent
from boardlab.ai.stats import elo_estimate


def play_match(game_name: str, size: int, simulations: int, games: int, ours: str,
               uct_c: float, seed: int) -> tuple[int, int, int, float]:
    game = pyspiel.load_game(f"python_boardlab_{game_name}", {"size": size})
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, uct_c, simulations, mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng, solve=False)
    wins = losses = draws = 0
    start = time.perf_counter()
    for g in range(games):
        agent = make_agent(ours, seed=seed + g)
        our_color = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == our_color:
                action = agent.choose_action(state.game)
            else:
                action = bot.step(state)
            state.apply_action(action)
        result = state.returns()[our_color]
        wins += result > 0
        losses += result < 0
        draws += result == 0
        print(f"game {g + 1:3}: boardlab as {state.game.colors[our_color]:6} "
              f"{'won' if result > 0 else 'lost' if result < 0 else 'drew'} "
              f"in {len(state.game)} actions", flush=True)
    return wins, losses, draws, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=boardlab.GAMES)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--ours", default=None, help="boardlab engine (default mcts:<simulations>)")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel bot's exploration constant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ours = args.ours or f"mcts:{args.simulations}"
    w, lo, d, seconds = play_match(args.game, args.size, args.simulations, args.games, ours,
                                   args.uct_c, args.seed)
    est = elo_estimate(w, lo, d)
    print(f"{args.game} {args.size}x{args.size}, {args.simulations} simulations a move: "
          f"boardlab {ours} vs OpenSpiel MCTSBot(uct_c={args.uct_c:g}, random rollouts): "
          f"{w}-{lo}-{d}, score {est.score:.2f}, Elo {est.elo:+.0f} ({est.low:+.0f}..{est.high:+.0f}, 95%), "
          f"{seconds:.0f} s")


if __name__ == "__main__":
    main()
