"""Run a study: every missing game of every configuration, in worker
processes (all cores by default) or on Ray, each stored as it ends.

Games are dealt index-major (game 0 of every configuration, then game 1, ...),
so a study stopped early still has every configuration about equally covered.
Each game's seeds come from its configuration and index only
(:meth:`Config.seed`, :func:`boardlab.ai.selfplay.game_seeds`), so with a
simulation budget the same study gives the same games whatever ``jobs``, the
order games finish in, a resume, or Ray.

What a run measured (its start: forking and warming workers, or starting Ray;
then games/s, CPU use of the process tree against the cores it had, the
runner's own time against the engines') is returned and appended to
``DIR/runs.jsonl``. The games' figures are measured from the end of the start
on, for both backends alike.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass

import boardlab

from ..ai.engines import make_engine
from ..ai.match import MatchSpec
from ..ai.selfplay import GameTask
from .spec import Config, StudySpec
from .storage import Store
from .study_game import StudyGame, StudyTask, play_study_game, warm


@dataclass
class RunStats:
    """What one run (one ``boardlab study`` call) played and measured."""

    played: int
    resumed: int
    wall_seconds: float
    workers: int
    backend: str
    cpu_seconds: float          # the process tree's (workers included when local)
    engine_seconds: float       # inside the engines' choose_action, summed over games
    worker_seconds: float       # the worker tasks' wall time, summed
    parent_cpu_seconds: float   # the runner's own process (storage, records, progress)
    stored_bytes: int
    stored_games: int
    start_seconds: float = 0.0  # before the first game: warming workers, starting Ray

    @property
    def games_per_second(self) -> float:
        return self.played / self.wall_seconds if self.wall_seconds > 0 else 0.0

    @property
    def cpu_utilisation(self) -> float:
        """CPU time over (wall time x workers): 1.0 keeps every worker's core busy."""
        return self.cpu_seconds / (self.wall_seconds * self.workers) if self.wall_seconds else 0.0

    @property
    def occupancy(self) -> float:
        """The share of (wall time x workers) the workers spent inside a game:
        how well the runner keeps them fed, whatever else runs on the machine
        (CPU utilisation falls when other programs share the cores; this does not)."""
        return self.worker_seconds / (self.wall_seconds * self.workers) \
            if self.wall_seconds and self.workers else 0.0

    @property
    def overhead(self) -> float:
        """The runner's time (worker bookkeeping + the parent's CPU) over the engines' time."""
        if self.engine_seconds <= 0:
            return 0.0
        worker_extra = max(0.0, self.worker_seconds - self.engine_seconds)
        return (worker_extra + self.parent_cpu_seconds) / self.engine_seconds

    @property
    def bytes_per_game(self) -> float:
        return self.stored_bytes / self.stored_games if self.stored_games else 0.0

    def summary(self) -> str:
        return (f"played {self.played} games ({self.resumed} already stored) in "
                f"{self.wall_seconds:.1f} s (after a {self.start_seconds:.1f} s start) on {self.workers} {self.backend} worker(s): "
                f"{self.games_per_second:.2f} games/s; workers busy {self.occupancy:.0%} of the "
                f"time, CPU {self.cpu_utilisation:.0%} of their cores; runner overhead {self.overhead:.1%} of engine time; "
                f"{self.bytes_per_game:,.0f} bytes stored per game")


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def recorded_settings(spec: StudySpec) -> dict:
    """What a study's games depend on beyond their configuration: the
    engine's full settings (asked of the engine), the boardlab version, the
    study seed and the ply cap. A resume with any of them different is refused."""
    game = boardlab.new_game(spec.game, spec.sizes[0])
    return {"engine": make_engine(spec.engine, 0).settings(game),
            "boardlab": boardlab.__version__, "seed": spec.seed, "max_plies": spec.max_plies}


def _tasks(spec: StudySpec, todo: list[tuple[Config, int]]) -> list[StudyTask]:
    return [StudyTask(c.key, GameTask(spec.game, c.size, c.options, spec.engine, spec.engine, i,
                                      c.seed(spec.seed), max_plies=spec.max_plies))
            for c, i in todo]


def _local(tasks: list[StudyTask], jobs: int) -> Iterator[StudyGame]:
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield play_study_game(t)
        return
    import multiprocessing
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)),
                               mp_context=multiprocessing.get_context("fork"))
    try:
        # a bounded window of submitted tasks: memory stays small for long studies
        pending: set = set()
        it = iter(tasks)
        window = 4 * jobs
        for t in it:
            pending.add(pool.submit(play_study_game, t))
            if len(pending) >= window:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                nxt = next(it, None)
                if nxt is not None:
                    pending.add(pool.submit(play_study_game, nxt))
                yield f.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stored_bytes(directory: str) -> int:
    total = 0
    for root, _dirs, files in os.walk(directory):
        for f in files:
            if f.endswith((".sqlite", ".rec.gz")):
                total += os.path.getsize(os.path.join(root, f))
    return total


def run_study(spec: StudySpec, out: str, *, jobs: int | None = None, resume: bool = False,
              ray: str | None = None, progress: bool = False,
              on_game: Callable[[StudyGame], None] | None = None,
              limit: int | None = None) -> RunStats:
    """Play every game of ``spec`` that ``out`` does not hold yet and store each.

    ``limit`` stops after that many new games (a test's stand-in for a kill);
    ``on_game`` sees each game after it is stored."""
    jobs = default_jobs() if jobs is None else max(1, jobs)
    store = Store(out, spec.game, resume=resume)
    try:
        store.agree(spec.engine, recorded_settings(spec))
        store.set_spec(spec.as_dict())
        colors = boardlab.game_class(spec.game).colors
        configs = spec.configs()
        match_specs: dict[str, MatchSpec] = {}
        done: dict[str, set[int]] = {}
        for c in configs:
            full = dict(boardlab.new_game(spec.game, c.size, **c.options).options)
            ms = MatchSpec(spec.game, c.size, c.options, spec.engine, spec.engine,
                           spec.games, c.seed(spec.seed), full)
            match_specs[c.key] = ms
            done[c.key] = store.reconcile(spec.engine, c, ms) if resume else set()
        by_key = {c.key: c for c in configs}
        todo = [(c, i) for i in range(spec.games) for c in configs if i not in done[c.key]]
        if limit is not None:
            todo = todo[:limit]
        resumed = sum(len(v) for v in done.values())
        # the start, timed apart: a one-off cost, not a cost per game
        start = time.perf_counter()
        remote = None
        if ray is not None and todo:
            from .ray_backend import start_ray
            remote, _ = start_ray(ray, spec.game, spec.sizes, spec.engine, len(todo))
            stream: Iterator[StudyGame] = remote.games(_tasks(spec, todo))
            workers = remote.workers
        else:
            if todo and jobs > 1:
                warm(spec.game, spec.sizes, spec.engine)
            stream = _local(_tasks(spec, todo), jobs)
            workers = min(jobs, max(1, len(todo)))
        start_s = time.perf_counter() - start
        t0, wall0 = os.times(), time.perf_counter()
        bar = _bar(spec.games * len(configs), resumed) if progress else None
        engine_s = worker_s = game_cpu = 0.0
        played = 0
        try:
            for g in stream:
                c = by_key[g.config_key]
                store.add(spec.engine, c, match_specs[c.key], g, colors)
                played += 1
                engine_s += g.engine_seconds
                worker_s += g.worker_seconds
                game_cpu += g.result.cpu_seconds
                if bar is not None:
                    bar.update(1)
                if on_game is not None:
                    on_game(g)
        finally:
            if bar is not None:
                bar.close()
            if remote is not None:
                remote.close()
        wall = time.perf_counter() - wall0
        t1 = os.times()
        parent = (t1.user - t0.user) + (t1.system - t0.system)
        children = (t1.children_user - t0.children_user) + \
            (t1.children_system - t0.children_system)
        if ray is not None:
            # remote processes are not our children: their CPU is what each game
            # measured of itself (process time from its first move to its last)
            cpu = parent + game_cpu
        else:
            cpu = parent + children
        stored = store.db.execute("SELECT count(*) FROM games").fetchone()[0]
        stats = RunStats(played, resumed, wall, workers, "ray" if ray else "local", cpu,
                         engine_s, worker_s, parent, 0, stored, start_s)
    finally:
        store.close()
    stats.stored_bytes = _stored_bytes(out)
    with open(os.path.join(out, "runs.jsonl"), "a", encoding="utf-8") as fh:
        row = asdict(stats) | {"engine": spec.engine, "games_per_second": stats.games_per_second,
                               "cpu_utilisation": stats.cpu_utilisation,
                               "occupancy": stats.occupancy,
                               "overhead": stats.overhead, "bytes_per_game": stats.bytes_per_game,
                               "cores": default_jobs(), "load": os.getloadavg()[0]}
        fh.write(json.dumps(row) + "\n")
    return stats


def _bar(total: int, done: int):
    from tqdm import tqdm
    return tqdm(total=total, initial=done, unit="game", file=sys.stderr, dynamic_ncols=True,
                smoothing=0.05)
