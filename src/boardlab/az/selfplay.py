"""Self-play: many games at once, their leaves evaluated in one network call a round.

:func:`self_play` plays ``games`` games of one kind with the network
(NumPy, :class:`~boardlab.az.evaluator.NetEvaluator`), ``parallel`` of them
at a time: each move is a :class:`~boardlab.az.gumbel.GumbelMove` with
Gumbel noise, and every round of sequential halving of every game in flight
shares one network call (:func:`boardlab.az.gumbel.tick`); a game whose move
is chosen plays it and starts its next search at once, and a game that ends
makes room for the next. Each searched position gives a training sample:
the observation planes of the color to move, the improved policy
(``softmax(logits + sigma(completed q))``), the legal moves, the game's
final result for that color, and the board symmetries under which the
sample may be transformed (augmentation).

Everything is seeded: game ``i`` of a task draws its noise and search seeds
from ``(seed, i)``, so a task gives the same samples whichever process (a
local pool or a Ray worker) plays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import boardlab

from ..core.game import Game
from ..fast.search import Search
from ..research import _adapters, tensors
from .evaluator import NetEvaluator
from .gumbel import SETTINGS, GumbelMove, tick
from .net import Spec


@dataclass
class Samples:
    """Training samples as arrays (one row each)."""

    planes: np.ndarray     # (N, planes, size*size) float32, seen by the color to move
    policy: np.ndarray     # (N, actions) float32, the improved policy (0 where illegal)
    legal: np.ndarray      # (N, actions) bool
    z: np.ndarray          # (N,) float32, the final result for the color to move
    syms: np.ndarray       # (N,) uint8, bit k: symmetry k transforms the sample exactly

    @classmethod
    def empty(cls, spec: Spec) -> Samples:
        return cls(np.zeros((0, spec.planes, spec.points), np.float32),
                   np.zeros((0, spec.actions), np.float32), np.zeros((0, spec.actions), bool),
                   np.zeros(0, np.float32), np.zeros(0, np.uint8))

    @classmethod
    def concat(cls, parts: list[Samples]) -> Samples:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                     ("planes", "policy", "legal", "z", "syms")))

    def __len__(self) -> int:
        return len(self.z)


def symmetry_bits(game: Game) -> int:
    """The symmetries (a bitmask) under which this position's planes and
    moves transform by the static maps of the game's tensors module (a
    position-dependent action, such as implo's patch resolutions, leaves a
    symmetry out)."""
    module = tensors.tensors_module(game)
    special = getattr(module, "state_action_map", None)
    bits = 0
    for k in tensors.symmetries(game):
        if special is not None:
            static = module.action_map(game.size, k)
            if any(static[a] != b for a, b in special(game, k).items()):
                continue
        bits |= 1 << k
    return bits


@dataclass
class GameSlot:
    """A game being played for samples (here and in :mod:`boardlab.az.expert`):
    its random generator and the rows its searched positions gave."""

    game: Game
    rng: np.random.Generator
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int, int]] = field(default_factory=list)
    move: GumbelMove | None = None


@dataclass(frozen=True)
class SelfPlayTask:
    """One worker's share of a generation (what a pool or Ray task receives)."""

    params: dict[str, np.ndarray]
    spec: Spec
    options: dict[str, Any]
    games: int
    parallel: int
    simulations: int
    seed: int
    max_considered: int = 16


def self_play(task: SelfPlayTask) -> tuple[Samples, dict[str, Any]]:
    """Play ``task.games`` games; their samples and a few counts."""
    spec = task.spec
    evaluator = NetEvaluator(task.params, spec)
    cls = boardlab.game_class(spec.game)
    cap = _adapters.default_length(cls, spec.size)
    settings = SETTINGS.replace(nodes=max(1000, 4 * task.simulations + 1000),
                                edges=max(1000, (4 * task.simulations + 1000) * spec.actions))
    started = 0
    slots: list[GameSlot] = []
    done: list[Samples] = []
    stats: dict[str, Any] = {"games": 0, "moves": 0, "plies": 0, "wins": [0, 0, 0], "truncated": 0}

    def new_slot() -> GameSlot:
        nonlocal started
        rng = np.random.default_rng([task.seed, started])
        started += 1
        return GameSlot(boardlab.new_game(spec.game, spec.size, **task.options), rng)

    while len(slots) < min(task.parallel, task.games):
        slots.append(new_slot())
    while slots:
        for slot in slots:
            while slot.move is None and not game_done(slot.game, cap):
                g = slot.game
                legal = g.legal_actions()
                if len(legal) == 1:  # nothing to choose, nothing to learn
                    g.apply_action(legal[0])
                    continue
                search = Search(g, settings, seed=int(slot.rng.integers(2 ** 62)))
                slot.move = GumbelMove(search, task.simulations, slot.rng, noise=1.0,
                                       max_considered=task.max_considered)
        tick([s.move for s in slots if s.move is not None], evaluator)
        for slot in list(slots):
            mv = slot.move
            if mv is not None and mv.done:
                _record(slot, mv, evaluator, spec)
                slot.game.apply_action(mv.action())
                slot.move = None
                stats["moves"] += 1
            if slot.move is None and game_done(slot.game, cap):
                done.append(close_game(slot, spec, stats, cap))
                slots.remove(slot)
                if started < task.games:
                    slots.append(new_slot())
    samples = Samples.concat(done) if done else Samples.empty(spec)
    stats["samples"] = len(samples)
    stats["evaluations"] = evaluator.positions
    stats["calls"] = evaluator.calls
    return samples, stats


def game_done(game: Game, cap: int) -> bool:
    """Over, or cut at the length cap (a draw for learning)."""
    return game.is_over or len(game.action_history) >= cap


def _record(slot: GameSlot, mv: GumbelMove, evaluator: NetEvaluator, spec: Spec) -> None:
    g = slot.game
    assert g.current_player is not None  # a move was searched: the game is on
    mover = g.current_player
    planes = evaluator.planes(mv.search.state[None], np.array([mover]))[0]
    policy = np.zeros(spec.actions, np.float32)
    policy[mv.legal] = mv.policy()
    legal = np.zeros(spec.actions, bool)
    legal[mv.legal] = True
    slot.rows.append((planes, policy, legal, mover, symmetry_bits(g)))


def close_game(slot: GameSlot, spec: Spec, stats: dict[str, Any], cap: int) -> Samples:
    """A finished game's rows as samples, each with the result for its mover."""
    g = slot.game
    stats["games"] += 1
    stats["plies"] += len(g.action_history)
    out = g.outcome
    if out is None:  # cut at the length cap: a draw for learning
        stats["truncated"] += 1
        winner = None
    else:
        winner = None if out.winner == "draw" else g.colors.index(out.winner)
    stats["wins"][2 if winner is None else winner] += 1
    if not slot.rows:
        return Samples.empty(spec)
    planes, policy, legal, movers, syms = zip(*slot.rows, strict=True)
    movers_a = np.array(movers)
    z = np.zeros(len(movers_a), np.float32) if winner is None else \
        np.where(movers_a == winner, 1.0, -1.0).astype(np.float32)
    return Samples(np.stack(planes), np.stack(policy), np.stack(legal), z,
                   np.array(syms, np.uint8))
