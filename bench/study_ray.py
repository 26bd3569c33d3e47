"""Why a study was slower on a local Ray than on the local pool, measured.

Plays the same study (robble 7x7, pie yes/no, ``--games`` per configuration,
``mcts:200`` by default) three ways, each in a fresh process so each pays its
own start:

* ``local``: ``run_study(jobs=N)``, the local process pool (the parent warms
  the compiled core, then forks);
* ``ray-tasks``: what ``--ray`` did before: one Ray task per game, on
  workers that each load the compiled core inside their first game, at
  Ray's default worker niceness (15);
* ``ray-tasks-nice0``: the same with ``RAY_worker_niceness=0``;
* ``ray``: ``run_study(ray="local")``: warm actors, batches of games.

and prints, per way: the start (pool warm-up; ``ray.init``; the actors'
warm-up), the games' wall time, games/s, how busy the workers were, and the
slowest first game (a cold worker's). Every way stores the same games.

    PYTHONPATH=src python bench/study_ray.py --games 10 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time


def _spec(games: int, engine: str):
    from boardlab.study import StudySpec
    return StudySpec("robble", [7], {"pie": [True, False]}, engine, games, 1)


def run_way(way: str, games: int, engine: str, jobs: int) -> dict:
    t_process = time.perf_counter()
    from boardlab.study import run_study
    spec = _spec(games, engine)
    if way.startswith("ray-tasks"):
        import os

        import ray
        if way.endswith("nice0"):
            os.environ["RAY_worker_niceness"] = "0"

        from boardlab.study.play import play_study_game
        from boardlab.study.runner import _tasks
        t0 = time.perf_counter()
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                 num_cpus=jobs)
        start = time.perf_counter() - t0
        tasks = _tasks(spec, [(c, i) for i in range(games) for c in spec.configs()])
        remote = ray.remote(play_study_game)
        t1 = time.perf_counter()
        out = ray.get([remote.remote(t) for t in tasks])
        wall = time.perf_counter() - t1
        busy = sum(g.worker_seconds for g in out) / (wall * jobs)
        return {"way": way, "start": start, "wall": wall, "games": len(out),
                "busy": busy, "slowest": max(g.worker_seconds for g in out),
                "median": sorted(g.worker_seconds for g in out)[len(out) // 2],
                "process": time.perf_counter() - t_process}
    if way == "ray":
        import ray
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                 num_cpus=jobs)
    seen: list[float] = []
    with tempfile.TemporaryDirectory() as out_dir:
        stats = run_study(spec, out_dir, jobs=jobs, ray="local" if way == "ray" else None,
                          on_game=lambda g: seen.append(g.worker_seconds))
    return {"way": way, "start": stats.start_seconds, "wall": stats.wall_seconds,
            "games": stats.played, "busy": stats.occupancy, "slowest": max(seen),
            "median": sorted(seen)[len(seen) // 2], "process": time.perf_counter() - t_process}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10, help="games per configuration (2 of them)")
    p.add_argument("--engine", default="mcts:200")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--ways", default="local,ray-tasks,ray-tasks-nice0,ray")
    p.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        print(json.dumps(run_way(args.one, args.games, args.engine, args.jobs)))
        return 0
    print(f"robble 7x7, pie yes/no, {args.games} games each, {args.engine}, {args.jobs} CPUs")
    print(f"{'way':15} {'start s':>8} {'games s':>8} {'total s':>8} {'games/s':>8} "
          f"{'busy':>6} {'slowest game s':>15} {'median game s':>14}")
    for way in args.ways.split(","):
        line = subprocess.run([sys.executable, __file__, "--one", way, "--games",
                               str(args.games), "--engine", args.engine, "--jobs",
                               str(args.jobs)], capture_output=True, text=True, check=True)
        r = json.loads(line.stdout.strip().splitlines()[-1])
        print(f"{r['way']:15} {r['start']:8.1f} {r['wall']:8.1f} {r['start'] + r['wall']:8.1f} "
              f"{r['games'] / r['wall']:8.2f} {r['busy']:6.0%} {r['slowest']:15.2f} "
              f"{r['median']:14.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
