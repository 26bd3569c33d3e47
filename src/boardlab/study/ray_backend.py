"""``--ray ADDRESS`` / ``--ray local``: the study's games as Ray tasks.

Ray is an optional extra (``pip install boardlab[ray]``); nothing else in
boardlab imports it. Each game is one task running the same
:func:`~boardlab.study.play.play_study_game` with the same seeds as the local
workers, so a study gives the same games on Ray as on one machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .play import StudyGame, play_study_game
from .storage import StudyError


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise StudyError("--ray needs the ray package, which is not installed "
                         "(pip install 'boardlab[ray]', or run without --ray for local "
                         "worker processes)") from None
    return ray


def ray_games(tasks: list[tuple], address: str) -> Iterator[StudyGame]:
    """Each game's result as its task ends; ``address`` ``local`` starts a Ray
    instance on this machine, anything else is a cluster address (ray://..., auto)."""
    ray = _ray()
    if not ray.is_initialized():
        ray.init(address=None if address == "local" else address,
                 include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    remote = ray.remote(play_study_game)
    pending = [remote.remote(t) for t in tasks]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            yield ray.get(ref)


def ray_workers() -> int:
    """The CPUs the Ray instance offers (the workers a study can use)."""
    ray = _ray()
    return int(ray.cluster_resources().get("CPU", 1)) if ray.is_initialized() else 1
