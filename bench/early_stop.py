"""Could a timed search stop early without changing its move?

The engine plays the most-visited root child. Once that child leads the
runner-up by more simulations than the rest of the budget can deliver (at the
rate measured so far this move), the choice is settled and the remaining time
changes only the tree kept for the next move. This script measures how much
of a 5 s search (``mcts:5s``; ``--seconds``) that rule would save, on
positions taken from the level-4 acceptance games
(``bench/acceptance/levels-GAME-level4-vs-level3``).

    python bench/early_stop.py [--per-game N] [--seconds S] [GAME ...]

It prints, per game, the share of the budget each search needed before its
move was settled (1.00: it never was).
"""

from __future__ import annotations

import argparse
import gzip
import random
from pathlib import Path

from boardlab import GAMES, Game, records
from boardlab.ai.mcts import MCTSAgent, Node

SLICE = 8  # simulations between two looks at the root


class SettleTimer(MCTSAgent):
    """MCTS that runs its normal search in slices and notes, after each, the
    time, the simulations done and the root's two largest visit counts."""

    trace: list[tuple[float, int, int, int]]

    def _search(self, game: Game, root: Node, deadline: float | None) -> None:
        assert deadline is not None, "a timed search"
        clock = self.clock
        start = clock()
        self.trace = []
        done = 0
        self.iterations = SLICE
        while clock() < deadline and root.win is None:
            super()._search(game, root, deadline)
            done += self.info.iterations
            visits = sorted((child.n for child in root.children.values()), reverse=True)
            visits += [0, 0]
            self.trace.append((clock() - start, done, visits[0], visits[1]))
        self.iterations = None
        self.info.iterations = done


def settled_share(trace: list[tuple[float, int, int, int]], budget: float) -> float:
    """The share of ``budget`` used before the leader could no longer be
    caught (or before the search stopped by itself, on a proven result)."""
    for elapsed, done, first, second in trace:
        if elapsed > 0 and first - second > done / elapsed * (budget - elapsed):
            return elapsed / budget
    return min(1.0, trace[-1][0] / budget)


def positions(game: str, per_game: int, rng: random.Random) -> list[Game]:
    """Up to ``per_game`` positions from the level-4 games of ``game``, at
    random plies, each with at least two legal moves."""
    path = Path(f"bench/acceptance/levels-{game}-level4-vs-level3.rec.gz")
    if not path.exists():
        return []
    recs = records.parse_all(gzip.decompress(path.read_bytes()).decode())
    out: list[Game] = []
    for i in range(per_game * 4):
        if len(out) == per_game or not recs:
            break
        rec = recs[i % len(recs)]
        g = rec.start_game()
        for move in rec.moves[:rng.randrange(len(rec.moves))]:
            g.play(move)
        if not g.is_over and len(g.legal_actions()) > 1:
            out.append(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=sorted(GAMES))
    ap.add_argument("--per-game", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    rng = random.Random(1)
    print("| game | positions | mean share needed | median | settled before 90% |")
    print("|---|---|---|---|---|")
    for game in args.games:
        shares = []
        for position in positions(game, args.per_game, rng):
            agent = SettleTimer(seconds=args.seconds, seed=1)
            agent.choose_action(position)
            trace = getattr(agent, "trace", [])
            if trace:  # else no search ran (one-move win, yugo marking)
                # the search's own deadline is 97% of the budget (see MCTSAgent)
                shares.append(settled_share(trace, 0.97 * args.seconds))
        if not shares:
            print(f"| {game} | 0 | - | - | - |")
            continue
        shares.sort()
        early = sum(s < 0.9 for s in shares)
        print(f"| {game} | {len(shares)} | {sum(shares) / len(shares):.2f} | "
              f"{shares[len(shares) // 2]:.2f} | {early} of {len(shares)} |", flush=True)


if __name__ == "__main__":
    main()
