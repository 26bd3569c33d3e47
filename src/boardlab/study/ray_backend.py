"""``--ray ADDRESS`` / ``--ray local``: the study's games on Ray.

Ray is an optional extra (``pip install boardlab[ray]``); nothing else in
boardlab imports it. The games run the same
:func:`~boardlab.study.study_game.play_study_game` with the same seeds as the local
workers, so a study gives the same games on Ray as on one machine.

How (measured in docs/balance.md, "On Ray", with bench/study_ray.py): Ray
starts its worker processes at niceness 15 (``RAY_worker_niceness``) so that
its own daemons and the driver stay responsive; on a machine that runs
anything else those workers then get a sliver of the CPU (on 2 shared cores a
game took 2 s of wall time for 0.17 s of CPU). The driver here only stores
results, so a Ray instance this module starts gives its workers the driver's
own priority, as the local pool's workers have (unless
``RAY_worker_niceness`` is set already; a cluster started elsewhere keeps its
own setting). A fresh Python process also spends
about a second loading the compiled core before its first game, and the local
pool pays that once, in the parent, before it forks. So Ray gets one
long-lived *actor* per CPU that loads the core for the study's game and sizes
when it starts (all at once, before the clock of the games starts), and
each call plays a *batch* of games (:func:`batch_size`), so the driver's
round trip per call is paid once per batch; :class:`ray.util.ActorPool` hands
the next batch to whichever actor is free. The start (``ray.init`` and the
actors' warm-up) is measured apart from the games.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterator
from typing import Any

from .storage import StudyError
from .study_game import StudyGame, StudyTask, play_study_game, warm

#: the most games one call plays (a kill loses at most this many per actor)
MAX_BATCH = 8
#: calls per actor the games are cut into, at least (the last ones even out
#: the actors' finishing times)
CALLS_PER_ACTOR = 6


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise StudyError("--ray needs the ray package, which is not installed "
                         "(pip install 'boardlab[ray]', or run without --ray for local "
                         "worker processes)") from None
    return ray


def connect(address: str) -> Any:
    """Ray, connected to ``address`` (``"local"``: a Ray started here, its
    workers at this process's priority, see the module docstring); reused
    if this process is connected already. Every Ray user in boardlab (the
    study, training) connects here, so whichever starts Ray starts it alike."""
    ray = _ray()
    if not ray.is_initialized():
        if address == "local":
            os.environ.setdefault("RAY_worker_niceness", "0")
        ray.init(address=None if address == "local" else address,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
    return ray


def batch_size(games: int, actors: int) -> int:
    """Games per call: ``CALLS_PER_ACTOR`` calls per actor or more, at most
    :data:`MAX_BATCH` games each."""
    return max(1, min(MAX_BATCH, math.ceil(games / (actors * CALLS_PER_ACTOR))))


class _Player:
    """One Ray actor: loads the compiled core once, then plays batches."""

    def __init__(self, game: str, sizes: list[int], engine: str) -> None:
        warm(game, sizes, engine)

    def ready(self) -> bool:
        return True

    def play(self, batch: list[StudyTask]) -> list[StudyGame]:
        return [play_study_game(t) for t in batch]


class RayRun:
    """A started Ray backend: :attr:`actors` warm actors; :meth:`games` plays."""

    def __init__(self, address: str, game: str, sizes: list[int], engine: str,
                 games: int) -> None:
        ray = self.ray = connect(address)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        player = ray.remote(num_cpus=1)(_Player)
        self.actors = [player.remote(game, sizes, engine) for _ in range(max(1, min(cpus, games)))]
        ray.get([a.ready.remote() for a in self.actors])

    @property
    def workers(self) -> int:
        return len(self.actors)

    def games(self, tasks: list[StudyTask]) -> Iterator[StudyGame]:
        """Each batch's games as its call ends."""
        from ray.util import ActorPool

        size = batch_size(len(tasks), len(self.actors))
        batches = [tasks[k:k + size] for k in range(0, len(tasks), size)]
        pool = ActorPool(self.actors)
        for done in pool.map_unordered(lambda a, b: a.play.remote(b), batches):
            yield from done

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []


def start_ray(address: str, game: str, sizes: list[int], engine: str,
              games: int) -> tuple[RayRun, float]:
    """The backend and the seconds its start took (``ray.init`` and warm actors)."""
    t0 = time.perf_counter()
    run = RayRun(address, game, sizes, engine, games)
    return run, time.perf_counter() - t0
