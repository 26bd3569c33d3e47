"""Training: generations of self-play, a replay buffer, JAX updates, checkpoints.

A run lives in a folder (``runs/az-<game>-<size>`` by default):

* ``config.json``: everything that decides the run (:class:`Config`);
* ``checkpoint.npz``: the whole state after the last generation: network,
  optimiser state, replay buffer, the trainer's random generator, the
  counters and the history. A resumed run continues *bit for bit* as if it
  had never stopped (tests/test_az.py checks it): self-play seeds are
  derived from (seed, generation, task), never from a generator's state, and
  the one generator the trainer draws batches from is saved;
* ``log.jsonl``: one line per generation (losses, games, samples, CPU
  seconds), and one per evaluation match (the strength curve);
* ``weights.npz``: the latest network, ready for ``az`` (:mod:`boardlab.az.weights`).

A generation: the self-play tasks (:mod:`boardlab.az.selfplay`, NumPy only)
run on a local process pool, or on Ray (``ray_address``), or in this
process (``workers`` 1); their samples join the buffer; then
``ceil(new samples * reuse / batch)`` Adam steps on batches drawn from the
buffer under random symmetries. Loss: cross-entropy of the improved policy
against the network's legal-masked softmax, plus the squared error of the
value against the game's result.

Before the first generation, a run with ``expert_games`` plays that many
games of the playout search against itself (:mod:`boardlab.az.expert`) and
trains on them the same way (a log row of kind ``expert``): the network
starts from what the search knows instead of from near-random games.

This module needs the ``train`` extra (``pip install 'boardlab[train]'``:
JAX and optax); everything else of :mod:`boardlab.az` needs NumPy only.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

import boardlab

from ..errors import OptionError
from ..research import tensors
from .expert import ExpertTask, expert_play
from .net import Spec, count, init_params
from .replay import ReplayBuffer
from .selfplay import Samples, SelfPlayTask, self_play
from .weights import Weights, save

CHECKPOINT = "checkpoint.npz"
CONFIG = "config.json"
LOG = "log.jsonl"
WEIGHTS = "weights.npz"


def _jax() -> tuple[Any, Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise OptionError("boardlab train needs JAX and optax, which are not installed: "
                          "pip install 'boardlab[train]' (playing with trained networks "
                          "needs neither)") from None
    return jax, jnp, optax


@dataclass(frozen=True)
class Config:
    """Everything that decides a training run (written to config.json)."""

    game: str
    size: int
    options: dict[str, Any] = field(default_factory=dict)
    channels: int = 32
    blocks: int = 4
    simulations: int = 32          # per move, after the root's evaluation
    max_considered: int = 16
    games: int = 64                # self-play games a generation
    parallel: int = 32             # games in flight per task (one network call a round)
    tasks: int = 2                 # self-play tasks a generation (spread over the workers)
    generations: int = 100
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    buffer: int = 50_000
    reuse: float = 4.0             # times each new sample is drawn, on average
    seed: int = 0
    eval_every: int = 0            # generations between strength matches (0: none)
    eval_games: int = 10
    eval_engines: tuple[str, ...] = ("mcts:0.05s", "uct:0.05s")
    eval_limit: str = "0.05s"      # az's budget in those matches
    eval_clock: str = "cpu"
    expert_games: int = 0          # the playout search's games before generation 1 (0: none)
    expert_simulations: int = 2000  # its simulations a move
    expert_opening: int = 8        # plies drawn in proportion to its visits
    expert_q: float = 0.0          # the share of its root value in their value targets

    def __post_init__(self) -> None:
        def check(ok: bool, what: str) -> None:
            if not ok:
                raise OptionError(f"boardlab train: {what}")
        cls = boardlab.game_class(self.game)
        object.__setattr__(self, "game", cls.name)
        object.__setattr__(self, "size", cls._check_size(self.size))
        object.__setattr__(self, "options", dict(cls._check_options(dict(self.options))))
        object.__setattr__(self, "eval_engines", tuple(self.eval_engines))
        check(1 <= self.channels <= 512, f"channels must be 1..512, got {self.channels}")
        check(0 <= self.blocks <= 64, f"blocks must be 0..64, got {self.blocks}")
        check(1 <= self.simulations <= 100_000, f"simulations must be 1..100000, got {self.simulations}")
        check(1 <= self.max_considered <= 1024, "max_considered must be 1..1024")
        check(1 <= self.games, f"games must be >= 1, got {self.games}")
        check(1 <= self.parallel, f"parallel must be >= 1, got {self.parallel}")
        check(1 <= self.tasks <= self.games, f"tasks must be 1..games, got {self.tasks}")
        check(1 <= self.batch, f"batch must be >= 1, got {self.batch}")
        check(0 < self.lr < 1, f"lr must be in (0, 1), got {self.lr}")
        check(self.buffer >= self.batch, f"buffer ({self.buffer}) must hold a batch ({self.batch})")
        check(0 < self.reuse <= 1000, f"reuse must be in (0, 1000], got {self.reuse}")
        check(self.eval_clock in ("cpu", "wall"), "eval_clock must be cpu or wall")
        check(0 <= self.expert_games, f"expert_games must be >= 0, got {self.expert_games}")
        check(1 <= self.expert_simulations <= 10_000_000,
              f"expert_simulations must be 1..10000000, got {self.expert_simulations}")
        check(0 <= self.expert_opening, f"expert_opening must be >= 0, got {self.expert_opening}")
        check(0 <= self.expert_q <= 1, f"expert_q must be in [0, 1], got {self.expert_q}")

    def spec(self) -> Spec:
        cls = boardlab.game_class(self.game)
        planes = len(tensors.plane_names(cls))
        return Spec(self.game, self.size, planes, cls.num_distinct_actions_for(self.size),
                    self.channels, self.blocks)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["eval_engines"] = list(self.eval_engines)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Config:
        names = {f.name for f in fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise OptionError(f"config.json: unknown keys {sorted(unknown)}")
        return cls(**d)


def task_seed(seed: int, generation: int, task: int) -> int:
    """The self-play seed of one task of one generation (no generator state involved)."""
    return int(np.random.SeedSequence([seed, generation, task]).generate_state(1, np.uint64)[0] >> 1)


# ---------------------------------------------------------------- workers


class Workers:
    """Where self-play and evaluation tasks run: this process, a local
    process pool (spawned: the trainer holds JAX, which must not be forked),
    or Ray. Results come back in task order, so every backend gives the same
    generation."""

    def __init__(self, workers: int, ray_address: str | None = None) -> None:
        self.workers = workers
        self.ray_address = ray_address
        self._pool = None
        if ray_address is not None:
            from ..study.ray_backend import connect
            self._ray = connect(ray_address)
        elif workers > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core per worker
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def map(self, fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
        if self.ray_address is not None:
            remote = self._ray.remote(fn)
            refs = [remote.remote(t) for t in tasks]
            for ref in refs:
                yield self._ray.get(ref)
        elif self._pool is not None:
            yield from self._pool.map(fn, tasks)
        else:
            for t in tasks:
                yield fn(t)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def _self_play_timed(task: SelfPlayTask) -> tuple[Samples, dict[str, Any]]:
    t0 = time.process_time()
    samples, stats = self_play(task)
    stats["cpu"] = time.process_time() - t0
    return samples, stats


def _expert_play_timed(task: ExpertTask) -> tuple[Samples, dict[str, Any]]:
    t0 = time.process_time()
    samples, stats = expert_play(task)
    stats["cpu"] = time.process_time() - t0
    return samples, stats


#: the generation number in the seeds of the expert games (never a real one)
_EXPERT = 1 << 30
#: expert games a task plays at most (a task's games come back together)
EXPERT_CHUNK = 25


# ---------------------------------------------------------------- the trainer


class Trainer:
    """A training run in ``folder``: created from ``config``, or resumed
    from its checkpoint (``config`` None, or the same as the folder's)."""

    def __init__(self, folder: str | os.PathLike, config: Config | None = None, *,
                 command: str = "") -> None:
        jax, jnp, optax = _jax()
        self.jax, self.jnp, self.optax = jax, jnp, optax
        self.folder = Path(folder)
        saved = self.folder / CONFIG
        if saved.exists():
            old = Config.from_dict(json.loads(saved.read_text()))
            if config is not None and config.as_dict() != old.as_dict():
                diff = sorted(k for k, v in config.as_dict().items() if old.as_dict()[k] != v)
                raise OptionError(f"{self.folder} holds a run with other settings ({', '.join(diff)}): "
                                  "resume it with the same ones, or train into another --out folder")
            config = old
        elif config is None:
            raise OptionError(f"{self.folder}: no training run here to resume")
        self.config = config
        self.spec = config.spec()
        self.commands: list[str] = []   # the training commands this run was made by
        self.commits: list[str] = []    # the source commit of each (a run may span several)
        self.command = command
        self.folder.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps(config.as_dict(), indent=1, sort_keys=True) + "\n")
        self.opt, self._step = _compiled(self.spec, config.lr, config.weight_decay)
        self.buffer = ReplayBuffer(self.spec, config.buffer)
        self.generation = 0
        self.cpu = {"selfplay": 0.0, "train": 0.0, "eval": 0.0}
        self.history: list[dict[str, Any]] = []
        if (self.folder / CHECKPOINT).exists():
            self._load()
        else:
            init_rng = np.random.default_rng([config.seed, 1 << 20])
            self.params = {k: jnp.asarray(v) for k, v in init_params(self.spec, init_rng).items()}
            self.opt_state = self.opt.init(self.params)
            self.rng = np.random.default_rng([config.seed, 1 << 21])

    def numpy_params(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(v, np.float32) for k, v in self.params.items()}

    def weights(self) -> Weights:
        made_by = self.commands or [self.command]
        meta = {"generation": self.generation, "seed": self.config.seed, "command": made_by[0],
                "commands": made_by, "commits": self.commits,
                "commit": _commit(), "config": self.config.as_dict(),
                "cpu_hours": round(sum(self.cpu.values()) / 3600, 4),
                "samples": self.buffer.added}
        return Weights(self.spec, self.numpy_params(), meta)

    # ------------------------------------------------------------ one generation
    def generation_tasks(self) -> list[SelfPlayTask]:
        c = self.config
        params = self.numpy_params()
        share = [c.games // c.tasks + (1 if i < c.games % c.tasks else 0) for i in range(c.tasks)]
        return [SelfPlayTask(params, self.spec, c.options, n, c.parallel, c.simulations,
                             task_seed(c.seed, self.generation, i), c.max_considered)
                for i, n in enumerate(share) if n]

    @property
    def needs_expert(self) -> bool:
        """Whether the run asks for expert games and has not played them yet."""
        return self.config.expert_games > 0 and not any(r["kind"] == "expert" for r in self.history)

    def expert_tasks(self) -> list[ExpertTask]:
        """The expert games in tasks of at most :data:`EXPERT_CHUNK` games
        (and at least one per task slot), so their progress can be shown."""
        c = self.config
        parts = max(c.tasks, math.ceil(c.expert_games / EXPERT_CHUNK))
        share = [c.expert_games // parts + (1 if i < c.expert_games % parts else 0)
                 for i in range(parts)]
        return [ExpertTask(self.spec, c.options, n, c.expert_simulations,
                           task_seed(c.seed, _EXPERT, i), c.expert_opening, c.expert_q)
                for i, n in enumerate(share) if n]

    def run_expert(self, workers: Workers,
                   progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """The expert games (:mod:`boardlab.az.expert`) into the buffer, and
        the Adam steps for them; logged as a row of kind ``expert``.
        ``progress(games)`` is called as each task's games come back."""
        row, _ = self._play_and_train(workers, _expert_play_timed, self.expert_tasks(), progress)
        row = {"kind": "expert", **row, "simulations": self.config.expert_simulations}
        self.history.append(row)
        self._log(row)
        return row

    def _play_and_train(self, workers: Workers, play: Callable[[Any], tuple[Samples, dict[str, Any]]],
                        tasks: list[Any], progress: Callable[[int], None] | None = None,
                        ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``tasks``' games into the buffer, then the Adam steps for their
        samples: a log row's common fields, and the tasks' counts."""
        wall = time.perf_counter()
        parts, stats = [], []
        for samples, st in workers.map(play, tasks):
            parts.append(samples)
            stats.append(st)
            if progress is not None:
                progress(st["games"])
        new = Samples.concat(parts)
        self.buffer.add(new)
        t0 = time.process_time()
        pl, vl, steps = self.train_on(min(len(new), len(self.buffer)))
        train_cpu = time.process_time() - t0
        sp_cpu = sum(s["cpu"] for s in stats)
        self.cpu["selfplay"] += sp_cpu
        self.cpu["train"] += train_cpu
        games = sum(s["games"] for s in stats)
        row = {"generation": self.generation, "games": games, "samples": len(new),
               "buffer": len(self.buffer), "steps": steps, "policy_loss": pl, "value_loss": vl,
               "plies": sum(s["plies"] for s in stats) / max(1, games),
               "wins": [sum(s["wins"][i] for s in stats) for i in range(3)],
               "selfplay_cpu": sp_cpu, "train_cpu": train_cpu,
               "cpu_hours": sum(self.cpu.values()) / 3600, "wall": time.perf_counter() - wall}
        return row, stats

    def train_on(self, new_samples: int) -> tuple[float, float, int]:
        """The Adam steps for ``new_samples`` new samples: mean losses and steps."""
        c = self.config
        if len(self.buffer) < min(c.batch, c.buffer):
            return math.nan, math.nan, 0
        steps = max(1, math.ceil(new_samples * c.reuse / c.batch))
        pls, vls = [], []
        for _ in range(steps):
            x, pi, legal, z = self.buffer.batch(c.batch, self.rng)
            self.params, self.opt_state, pl, vl = self._step(self.params, self.opt_state, x, pi,
                                                             legal, z)
            pls.append(pl)
            vls.append(vl)
        return float(np.mean([float(p) for p in pls])), float(np.mean([float(v) for v in vls])), steps

    def run_generation(self, workers: Workers) -> dict[str, Any]:
        row, stats = self._play_and_train(workers, _self_play_timed, self.generation_tasks())
        self.generation += 1
        row = {"kind": "generation", **row, "generation": self.generation,
               "evaluations": sum(s["evaluations"] for s in stats)}
        self.history.append(row)
        self._log(row)
        return row

    def evaluate(self, workers: Workers) -> list[dict[str, Any]]:
        """The current network against each engine of ``eval_engines``
        (``eval_games`` games each, colors alternating): the strength curve."""
        from .evaluate import EvalTask, play_eval_game
        c = self.config
        w = self.weights()
        rows = []
        for engine in c.eval_engines:
            tasks = [EvalTask(w, c.options, engine, c.eval_limit, i,
                              task_seed(c.seed, self.generation, 1000 + i), c.eval_clock)
                     for i in range(c.eval_games)]
            results = list(workers.map(play_eval_game, tasks))
            score = sum(r["score"] for r in results)
            cpu = sum(r["cpu"] for r in results)
            self.cpu["eval"] += cpu
            row = {"kind": "eval", "generation": self.generation, "engine": engine,
                   "az": f"az:{c.eval_limit}", "games": len(results), "score": score,
                   "rate": score / max(1, len(results)), "clock": c.eval_clock,
                   "cpu_hours": sum(self.cpu.values()) / 3600,
                   "train_cpu_hours": (self.cpu["selfplay"] + self.cpu["train"]) / 3600}
            self.history.append(row)
            self._log(row)
            rows.append(row)
        return rows

    def start(self) -> None:
        """Before training (a new run or a resumed one): the log as the
        checkpoint knows it (rows of a generation cut short go), and this
        command among those the run was made by."""
        (self.folder / LOG).write_text("".join(json.dumps(r, sort_keys=True) + "\n"
                                               for r in self.history))
        if self.command and (not self.commands or self.commands[-1] != self.command):
            self.commands.append(self.command)
        commit = _commit()
        if not self.commits or self.commits[-1] != commit:
            self.commits.append(commit)

    # ------------------------------------------------------------ files
    def _log(self, row: dict[str, Any]) -> None:
        with open(self.folder / LOG, "a") as f:
            f.write(json.dumps(row, sort_keys=True) + "\n")

    def checkpoint(self) -> None:
        """The whole state, atomically (a crash leaves the last one whole)."""
        jax = self.jax
        leaves = jax.tree_util.tree_leaves(self.opt_state)
        arrays: dict[str, Any] = {f"p.{k}": np.asarray(v) for k, v in self.params.items()}
        arrays.update({f"o.{i}": np.asarray(x) for i, x in enumerate(leaves)})
        arrays.update(self.buffer.state())
        meta = {"generation": self.generation, "cpu": self.cpu, "history": self.history,
                "commands": self.commands, "commits": self.commits,
                "rng": self.rng.bit_generator.state, "opt_leaves": len(leaves)}
        arrays["meta"] = np.array(json.dumps(meta))
        tmp = self.folder / (CHECKPOINT + ".tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, self.folder / CHECKPOINT)
        save(self.folder / WEIGHTS, self.weights())

    def _load(self) -> None:
        jax, jnp = self.jax, self.jnp
        with np.load(self.folder / CHECKPOINT, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        meta = json.loads(str(arrays["meta"]))
        self.params = {k[2:]: jnp.asarray(v) for k, v in arrays.items() if k.startswith("p.")}
        template = self.opt.init(self.params)
        treedef = jax.tree_util.tree_structure(template)
        leaves = [jnp.asarray(arrays[f"o.{i}"]) for i in range(meta["opt_leaves"])]
        self.opt_state = jax.tree_util.tree_unflatten(treedef, leaves)
        self.buffer.restore(arrays)
        self.generation = int(meta["generation"])
        self.cpu = {k: float(v) for k, v in meta["cpu"].items()}
        self.history = list(meta["history"])
        self.commands = list(meta.get("commands", []))
        self.commits = list(meta.get("commits", []))
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = meta["rng"]


_COMPILED: dict[tuple, tuple[Any, Any]] = {}


def _compiled(spec: Spec, lr: float, weight_decay: float) -> tuple[Any, Any]:
    """The optimiser and the jitted training step for a network shape (one
    per process: JAX compiles a step once per shape, seconds on a CPU)."""
    key = (spec, lr, weight_decay)
    if key not in _COMPILED:
        jax, jnp, optax = _jax()
        from .net import forward
        opt = optax.chain(optax.clip_by_global_norm(1.0),
                          optax.adamw(lr, weight_decay=weight_decay))

        def loss_fn(params, x, pi, legal, z):
            logits, v = forward(params, x, spec, jnp)
            logp = jax.nn.log_softmax(jnp.where(legal, logits, -1e9), axis=-1)
            policy_loss = -jnp.mean(jnp.sum(jnp.where(legal, pi * logp, 0.0), axis=-1))
            value_loss = jnp.mean((v - z) ** 2)
            return policy_loss + value_loss, (policy_loss, value_loss)

        @jax.jit
        def step(params, opt_state, x, pi, legal, z):
            (_, (pl, vl)), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, pi, legal, z)
            updates, opt_state = opt.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, pl, vl

        _COMPILED[key] = (opt, step)
    return _COMPILED[key]


def _commit() -> str:
    """The source commit (and '+dirty' when the tree has changes), if a git checkout."""
    import subprocess
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head + ("+dirty" if dirty else "")) if head else "unknown"


def describe(trainer: Trainer) -> str:
    return (f"{trainer.spec.game} {trainer.spec.size}x{trainer.spec.size}: "
            f"{trainer.spec.blocks} blocks x {trainer.spec.channels} channels "
            f"({count(trainer.numpy_params()):,} weights)")
