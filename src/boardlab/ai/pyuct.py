"""``pyuct``: plain UCT over the public Python step API.

The same textbook algorithm as the yardstick ``uct`` (:mod:`boardlab.ai.uct`,
compiled), written as a newcomer would against the pure-Python games: it
needs no compiled core, and it is the reference the compiled one is checked
against. Kocsis & Szepesvári's UCT and nothing more: UCB1 with
c = 1 on returns in [-1, 1], one node expanded per simulation (untried moves
in random order), uniform-random playouts to the end, and the most-visited
move at the root. No game knowledge, no tree reuse, no solver. It knows two
rules facts that any correct player needs: each node is valued for the color
that acts there (so a color acting twice in a row is fine), and the pie
``swap`` edge is valued for the *other* color, whose owner the swapping
player becomes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..core.game import Game
from ..errors import GameOverError
from .agent import BaseAgent
from .limit import Limit


class _Node:
    __slots__ = ("children", "untried", "n", "w")

    def __init__(self, untried: list[int]) -> None:
        self.children: dict[int, _Node] = {}
        self.untried = untried
        self.n = 0
        self.w = [0.0, 0.0]  # summed returns per color index


class PyUCTAgent(BaseAgent):
    """The ``pyuct`` engine: ``pyuct`` (1 s), ``pyuct:500``, ``pyuct:0.25s``."""

    def __init__(self, limit: Limit | None = None, seed: int | None = None,
                 name: str | None = None) -> None:
        super().__init__(seed)
        self.limit = limit or Limit(seconds=1.0)
        self.name = name or f"pyuct:{self.limit}"
        self.simulations = 0  # of the last search
        #: what the seconds budget is measured on
        self.clock: Callable[[], float] = time.perf_counter

    def choose_action(self, game: Game) -> int:
        legal = game.legal_actions()
        if not legal:
            raise GameOverError(None, "the game is over: no move to choose")
        if len(legal) == 1:
            return legal[0]
        swap = game.swap_action
        rng = self.rng
        root = _Node(self._shuffled(legal))
        clock = self.clock
        deadline = self.limit.deadline(clock())
        cap = self.limit.simulations
        sims = 0
        while (cap is None or sims < cap) and (deadline is None or clock() < deadline):
            sim = game.copy(history=False)
            node, path = root, [root]
            while not node.untried and node.children:          # selection
                node = self._select(node, sim, swap)
                path.append(node)
            if node.untried:                                     # expansion
                action = node.untried.pop()
                sim.step(action)
                child = _Node(self._shuffled(sim.step_actions()))
                node.children[action] = child
                path.append(child)
            while (moves := sim.step_actions()):                # playout
                sim.step(moves[int(rng.random() * len(moves))])
            result = sim.returns()
            for n in path:                                       # backup
                n.n += 1
                n.w[0] += result[0]
                n.w[1] += result[1]
            sims += 1
        self.simulations = sims
        return max(root.children.items(), key=lambda kv: kv[1].n)[0]

    def _shuffled(self, actions: list[int]) -> list[int]:
        out = list(actions)
        self.rng.shuffle(out)
        return out

    @staticmethod
    def _select(node: _Node, sim: Game, swap: int | None) -> _Node:
        mover = sim.current_player
        log_n = math.log(node.n)
        best, best_a, best_score = None, -1, -math.inf
        for a, ch in node.children.items():
            color = 1 - mover if a == swap else mover
            score = ch.w[color] / ch.n + math.sqrt(log_n / ch.n)
            if score > best_score:
                best, best_a, best_score = ch, a, score
        sim.step(best_a)
        return best
