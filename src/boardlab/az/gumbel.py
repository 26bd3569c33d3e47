"""Gumbel AlphaZero's root: Gumbel-top-k, sequential halving, completed Q.

Danihelka, Guez, Schrittwieser and Silver, "Policy improvement by planning
with Gumbel" (ICLR 2022), as DeepMind's ``mctx.gumbel_muzero_policy`` does
it, on the compiled tree (:class:`boardlab.fast.search.Search` with the
external evaluator):

1. the root is evaluated; its legal moves get prior logits ``l(a)`` and, in
   self-play, Gumbel noise ``g(a)`` (zero when playing to win);
2. the ``m`` = min(16, legal) moves with the highest ``g + l`` are
   *considered* (Gumbel-top-k: sampling without replacement);
3. **sequential halving** spreads the ``n`` simulations over them: in each
   phase every considered move gets the same number of visits (the path of
   each simulation is forced to start with it: ``collect(force=a)``), then
   the better half by ``g + l + sigma(q)`` goes on; mctx's exact visit
   sequence (``get_sequence_of_considered_visits``), with the last round cut
   at ``n``;
4. the move played is the best by ``g + l + sigma(q)`` among the most
   visited, and the policy target is ``softmax(l + sigma(completed q))``:
   ``q`` of a visited move, the mixed value estimate of an unvisited one,
   min-max rescaled and scaled by ``(50 + max visits) * 0.1`` (mctx's
   ``qtransform_completed_by_mix_value``).

Below the root the compiled search selects by PUCT on the network's priors.
A :class:`GumbelMove` is a state machine that never waits: it hands out the
leaves it needs (:meth:`GumbelMove.request`) and takes their evaluations
(:meth:`GumbelMove.receive`), so many games' moves can share one network
call (self-play) and one game's move can ask for a few leaves at once
(play: ``min_batch`` leaves a round at least, several per considered move
under virtual loss as the considered moves get few).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from ..fast.search import Search, Settings

#: mctx's defaults for Gumbel MuZero
MAX_CONSIDERED = 16
VALUE_SCALE = 0.1
MAXVISIT_INIT = 50.0


#: the compiled search under a Gumbel root: PUCT on the network's priors
#: (AlphaZero's c = 1.25), an unvisited child valued its parent's mean less
#: 0.25, no playouts; tree capacity set by the budget
SETTINGS = Settings(evaluator="external", cpuct=1.25, c=0.0, fpu_red=0.25, solver=False,
                    reuse=False, nodes=20_000, edges=1_000_000)


def play_settings(limit, actions: int) -> Settings:
    """:data:`SETTINGS` with room for ``limit``'s simulations (seconds: a
    generous guess) in a game of ``actions`` integer actions (the edge rows
    are allocated lazily: room not used costs nothing)."""
    sims = limit.simulations if limit.simulations is not None else int(20_000 * (limit.seconds or 1))
    nodes = min(50_000_000, max(20_000, 2 * sims + 1000))
    return SETTINGS.replace(nodes=nodes, edges=min(1_000_000_000, nodes * actions))


def halving_schedule(considered: int, simulations: int) -> list[tuple[int, int]]:
    """The phases of sequential halving as ``(moves considered, rounds)``:
    each round visits every considered move once; mctx's
    ``get_sequence_of_considered_visits`` (its sequence is these rounds
    one after another, cut at ``simulations``)."""
    if considered <= 1:
        return [(1, simulations)]
    log2max = math.ceil(math.log2(considered))
    out = []
    total = 0
    num = considered
    while total < simulations:
        extra = max(1, int(simulations / (log2max * num)))
        out.append((num, extra))
        total += extra * num
        num = max(2, num // 2)
    return out


def _log(p: np.ndarray) -> np.ndarray:
    return np.log(np.maximum(p, 1e-30))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


class GumbelMove:
    """The search of one move with a Gumbel root (see the module doc).

    ``search``: a fresh external-evaluator search at the position;
    ``simulations``: the budget ``n`` (simulations after the root's own
    evaluation); ``noise``: scale of the Gumbel noise (1 in self-play, 0 to
    play the best move); ``min_batch``: leaves a round asks for at least
    (each considered move gets that many divided among them, within what
    its phase still owes it); ``deadline`` on ``clock``: stop there,
    whatever is left."""

    def __init__(self, search: Search, simulations: int, rng: np.random.Generator, *,
                 noise: float = 1.0, min_batch: int = 1, max_considered: int = MAX_CONSIDERED,
                 deadline: float | None = None, clock: Callable[[], float] = time.perf_counter) -> None:
        self.search = search
        self.simulations = simulations
        self.rng = rng
        self.noise = noise
        self.min_batch = max(1, min_batch)
        self.max_considered = max_considered
        self.deadline = deadline
        self.clock = clock
        self.sims = 0               # forced visits asked for so far
        self.done = False
        self.legal: np.ndarray = np.zeros(0, np.int64)   # root moves, ascending
        self.logits = np.zeros(0)
        self.gumbel = np.zeros(0)
        self.raw_value = 0.0
        self.considered: np.ndarray = np.zeros(0, np.int64)  # indices into legal
        self._schedule: list[tuple[int, int]] = []
        self._phase = -1            # -1: the root is not evaluated yet
        self._given = 0             # visits each considered move got in this phase
        self._step = 1              # visits each gets in the round under way
        self._asked = False         # a request is out, its answer not back yet

    # ------------------------------------------------------------ the protocol
    def request(self) -> tuple[np.ndarray, np.ndarray]:
        """The leaves to evaluate next (kernel states, nodes); empty once done."""
        assert not self._asked, "receive() the last request first"
        s = self.search
        while not self.done:
            if self._phase < 0:
                states, nodes = s.collect(1)
                if len(nodes):
                    self._asked = True
                    return states, nodes
                self.done = True  # cannot happen for a position in play: nothing to search
                break
            if self.deadline is not None and self.clock() >= self.deadline:
                self.done = True
                break
            states, nodes = self._round_leaves()
            if len(nodes):
                self._asked = True
                return states, nodes
            self._next_round()  # every leaf ended the game: backed up already
        return np.zeros((0, len(s.state)), np.int64), np.zeros(0, np.int64)

    def receive(self, states: np.ndarray, nodes: np.ndarray, values: np.ndarray,
                priors: np.ndarray) -> None:
        """The evaluations of the leaves of the last :meth:`request`."""
        self._asked = False
        self.search.deliver(states, nodes, values, priors)
        if self._phase < 0:
            self._start(float(values[0]), priors[0])
        else:
            self._next_round()

    # ------------------------------------------------------------ the root
    def _start(self, value: float, prior_row: np.ndarray) -> None:
        t, r = self.search.tree, self.search.root
        f, k = int(t.first[r]), int(t.kids[r])
        self.legal = np.sort(t.action[f:f + k].astype(np.int64))
        self.raw_value = value
        self.logits = _log(np.asarray(prior_row, np.float64)[self.legal])
        self.logits -= self.logits.max()
        self.gumbel = self.noise * self.rng.gumbel(size=len(self.legal)) if self.noise else \
            np.zeros(len(self.legal))
        m = min(self.max_considered, len(self.legal))
        self.considered = np.argsort(-(self.gumbel + self.logits), kind="stable")[:m]
        if m <= 1 or self.simulations <= 0:
            self.done = True
            return
        self._schedule = halving_schedule(m, self.simulations)
        self._phase, self._given = 0, 0

    def reschedule(self) -> None:
        """Plan the phases again for a changed ``simulations`` (before any round)."""
        if self._phase == 0 and self._given == 0 and self.sims == 0:
            self._schedule = halving_schedule(len(self.considered), self.simulations)

    def _round_leaves(self) -> tuple[np.ndarray, np.ndarray]:
        """One round: the same number of forced leaves for each considered
        move (the best first; the last round of the budget may cover only some)."""
        num = len(self.considered)
        owed = self._schedule[self._phase][1] - self._given
        left = self.simulations - self.sims
        self._step = k = max(1, min(owed, -(-self.min_batch // num), -(-left // num)))
        take = self.considered[:max(1, -(-left // k))]
        got_s, got_n = [], []
        for i in take:
            states, nodes = self.search.collect(k, force=int(self.legal[i]))
            got_s.append(states)
            got_n.append(nodes)
        self.sims += k * len(take)
        return np.concatenate(got_s), np.concatenate(got_n)

    def _next_round(self) -> None:
        if self.sims >= self.simulations:
            self.done = True
            return
        self._given += self._step
        if self._given >= self._schedule[self._phase][1]:  # the phase's visits are done
            self._phase += 1
            self._given = 0
            if self._phase >= len(self._schedule):
                self.done = True
                return
            keep = self._schedule[self._phase][0]
            score = self.scores()[self.considered]
            self.considered = self.considered[np.argsort(-score, kind="stable")[:keep]]

    # ------------------------------------------------------------ reading the root
    def root_stats(self) -> tuple[np.ndarray, np.ndarray]:
        """Per legal move (ascending): visits and mean value for the player
        who chooses it (nan where unvisited)."""
        s = self.search
        t, r = s.tree, s.root
        f, k = int(t.first[r]), int(t.kids[r])
        acts = t.action[f:f + k].astype(np.int64)
        en = t.en[f:f + k]
        ew = t.ew[f:f + k]
        mover = int(t.player[r])
        owner = np.where(acts == s.swap, 1 - mover, mover)
        sign = np.where(owner == 0, 1.0, -1.0)
        where = np.searchsorted(self.legal, acts)
        visits = np.zeros(len(self.legal))
        q = np.full(len(self.legal), np.nan)
        visits[where] = en
        with np.errstate(invalid="ignore", divide="ignore"):
            q[where] = np.where(en > 0, sign * ew / np.maximum(en, 1e-12), np.nan)
        return visits, q

    def sigma_q(self) -> np.ndarray:
        """``sigma(completed q)`` per legal move (mctx's completed-by-mix-value transform)."""
        visits, q = self.root_stats()
        seen = visits > 0
        total = visits.sum()
        value = self.raw_value
        if seen.any():
            pi = np.maximum(_softmax(self.logits), 1e-30)
            wq = float((pi[seen] * q[seen]).sum() / pi[seen].sum())
            value = (self.raw_value + total * wq) / (total + 1.0)
        completed = np.where(seen, q, value)
        lo, hi = completed.min(), completed.max()
        completed = (completed - lo) / max(hi - lo, 1e-8)
        return (MAXVISIT_INIT + visits.max()) * VALUE_SCALE * completed

    def scores(self) -> np.ndarray:
        """``g + l + sigma(q)`` per legal move: what sequential halving ranks by."""
        return self.gumbel + self.logits + self.sigma_q()

    def policy(self) -> np.ndarray:
        """The improved policy per legal move: ``softmax(l + sigma(completed q))``
        (the training target)."""
        return _softmax(self.logits + self.sigma_q())

    def action(self) -> int:
        """The move: the best by ``g + l + sigma(q)`` among the most visited."""
        if len(self.legal) == 1:
            return int(self.legal[0])
        visits, _ = self.root_stats()
        score = self.scores()
        score = np.where(visits == visits.max(), score, -np.inf)
        return int(self.legal[int(np.argmax(score))])


def tick(moves: list[GumbelMove], evaluate: Callable[[np.ndarray, np.ndarray],
                                                    tuple[np.ndarray, np.ndarray]]) -> bool:
    """One round for every move not done: their leaves evaluated by one
    ``evaluate(states, players)`` call. False when none asked for any."""
    asked = []
    for mv in moves:
        if mv.done:
            continue
        states, nodes = mv.request()
        if len(nodes):
            asked.append((mv, states, nodes))
    if not asked:
        return False
    states = np.concatenate([a[1] for a in asked])
    players = np.concatenate([a[0].search.tree.player[a[2]] for a in asked])
    values, priors = evaluate(states, players)
    at = 0
    for mv, st, nd in asked:
        k = len(nd)
        mv.receive(st, nd, values[at:at + k], priors[at:at + k])
        at += k
    return True


def run(moves: list[GumbelMove], evaluate: Callable[[np.ndarray, np.ndarray],
                                                   tuple[np.ndarray, np.ndarray]]) -> int:
    """Drive ``moves`` until each is done (:func:`tick` after tick); the rounds it took."""
    rounds = 0
    while tick(moves, evaluate):
        rounds += 1
    return rounds
