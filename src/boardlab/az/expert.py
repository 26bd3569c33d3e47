"""Expert games: the playout search's own games as a run's first samples.

A network that starts from nothing plays near-random games, and the result
of a near-random game says little about its positions: on this machine's
CPU budget the value head of a fresh run hardly learned (docs/az.md). The
one search with playouts (the game's ``mcts`` settings) already plays
well at a few thousand simulations a move, in milliseconds. So a run may
begin, as expert iteration does (Anthony et al. 2017, "Thinking fast and
slow"), with games that search played against itself: each searched
position gives a sample whose policy target is the root's visit
distribution and whose value target is the game's result; the network
fits those before its own self-play takes over.

The value target may mix in the search's own estimate: with ``q_weight``
w it is ``(1 - w) * result + w * q``, q the root's mean return for the
mover (the "z and q" averaging of Leela Chess Zero's and Oracle's
AlphaZero experiments). Early in a robble game the result is close to a
coin flip even between good players (docs/az.md measures it), while q
says what thousands of playouts from there concluded.

The first ``opening`` plies of a game are drawn in proportion to the
visits (so that the games differ), the rest are the search's most-visited
move. Everything is seeded: game ``i`` of a task draws its moves and search
seeds from ``(seed, i)``, as :mod:`boardlab.az.selfplay` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import boardlab

from ..fast.advice import advice
from ..fast.search import Search, Settings, kernel_state
from ..research import _adapters
from .evaluator import NetEvaluator
from .net import Spec
from .selfplay import GameSlot, Samples, close_game, game_done, symmetry_bits


@dataclass(frozen=True)
class ExpertTask:
    """One worker's share of the expert games."""

    spec: Spec
    options: dict[str, Any]
    games: int
    simulations: int
    seed: int
    opening: int = 8
    q_weight: float = 0.0  # the share of the root's value in the value target


def expert_settings(game: str, simulations: int, actions: int) -> Settings:
    """The game's own search settings, with a tree sized for one move."""
    nodes = 2 * simulations + 1000
    return Settings(**advice(game).settings).replace(
        reuse=False, nodes=nodes, edges=max(1000, min(16_000_000, nodes * actions)))


def expert_play(task: ExpertTask) -> tuple[Samples, dict[str, Any]]:
    """Play ``task.games`` games of the playout search against itself; their
    samples and a few counts (as :func:`boardlab.az.selfplay.self_play`)."""
    spec = task.spec
    observer = NetEvaluator({}, spec)  # its planes only: no network is involved
    cap = _adapters.default_length(boardlab.game_class(spec.game), spec.size)
    settings = expert_settings(spec.game, task.simulations, spec.actions)
    stats: dict[str, Any] = {"games": 0, "moves": 0, "plies": 0, "wins": [0, 0, 0], "truncated": 0,
                             "simulations": 0}
    done = []
    values: list[float] = []  # each sample's root value for its mover
    for i in range(task.games):
        slot = GameSlot(boardlab.new_game(spec.game, spec.size, **task.options),
                     np.random.default_rng([task.seed, i]))
        g = slot.game
        while not game_done(g, cap):
            legal = g.legal_actions()
            if len(legal) == 1:  # nothing to choose, nothing to learn
                g.apply_action(legal[0])
                continue
            search = Search(g, settings, seed=int(slot.rng.integers(2 ** 62)))
            stats["simulations"] += search.run(task.simulations)
            kids = search.children()
            actions = np.array([k.action for k in kids], dtype=np.int64)
            visits = np.array([k.visits for k in kids], dtype=np.float64)
            if visits.sum() > 0:
                share = visits / visits.sum()
            else:  # the root was proven at once: its best move alone
                share = (actions == search.best_action()).astype(np.float64)
            policy = np.zeros(spec.actions, np.float32)
            policy[actions] = share
            mask = np.zeros(spec.actions, bool)
            mask[legal] = True
            mover = g.current_player
            assert mover is not None  # the game is on
            state, _ = kernel_state(g)
            planes = observer.planes(state[None], np.array([mover]))[0]
            slot.rows.append((planes, policy, mask, mover, symmetry_bits(g)))
            values.append(search.root_value(mover))
            if len(g.action_history) < task.opening:
                action = int(slot.rng.choice(actions, p=share))
            else:
                action = search.best_action()
            g.apply_action(action)
            stats["moves"] += 1
        done.append(close_game(slot, spec, stats, cap))
    samples = Samples.concat(done) if done else Samples.empty(spec)
    if task.q_weight > 0:
        q = np.array(values, np.float32)
        samples.z = ((1.0 - task.q_weight) * samples.z + task.q_weight * q).astype(np.float32)
    stats["samples"] = len(samples)
    return samples, stats
