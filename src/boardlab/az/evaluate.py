"""Strength matches of a network in training against named engines (NumPy only).

One task is one game (so a pool or Ray spreads them): the network plays
``az`` at ``limit`` against ``engine`` (``mcts:0.05s``, ``uct:...``), seats
alternating with the game index as :mod:`boardlab.ai.match` seats them
(:func:`boardlab.ai.selfplay.seats`; the network is engine "A"), played by the
one self-play loop (:func:`boardlab.ai.selfplay.play`), both timed on the same
clock (``cpu``: each thread's CPU time, fair on a shared machine).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import boardlab

from ..ai.az import AZAgent
from ..ai.engines import make_engine
from ..ai.limit import Limit
from ..ai.selfplay import CLOCKS, play, seats
from .weights import Weights


@dataclass(frozen=True)
class EvalTask:
    weights: Weights
    options: dict[str, Any]
    engine: str
    limit: str
    index: int
    seed: int
    clock: str = "cpu"


def play_eval_game(task: EvalTask) -> dict[str, Any]:
    """``{"score": 1 | 0.5 | 0 for the network, "plies", "cpu"}``."""
    t0 = time.process_time()
    spec = task.weights.spec
    game = boardlab.new_game(spec.game, spec.size, **task.options)
    clock = CLOCKS[task.clock]
    az = AZAgent(Limit.parse(task.limit), task.seed, weights=task.weights, clock=clock)
    other = make_engine(task.engine, task.seed + 1)
    if hasattr(other, "clock"):
        other.clock = clock
    people = seats(task.index)  # seat -> "A" (the network) or "B"
    agents = {"A": az, "B": other}
    play(game, [agents[who] for who in people])
    out = game.outcome
    assert out is not None
    score = 0.5 if out.winner == "draw" else float(people[game.seat_of(out.winner)] == "A")
    return {"score": score, "plies": len(game), "cpu": time.process_time() - t0}
