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

``--niceness`` measures Ray's worker niceness alone, paired so that the
machine's other load cancels out: the same games played at the same time in
one Ray worker and in one local process at the driver's priority, with Ray's
default niceness and with ``RAY_worker_niceness=0``, each game's CPU time
over its wall time compared.
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

        from boardlab.study.runner import _tasks
        from boardlab.study.study_game import play_study_game
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
    init = 0.0
    if way == "ray":  # started here to give it JOBS CPUs; run_study then finds it started
        import os

        import ray
        t0 = time.perf_counter()
        os.environ.setdefault("RAY_worker_niceness", "0")  # what run_study's own start sets
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                 num_cpus=jobs)
        init = time.perf_counter() - t0
    seen: list[float] = []
    with tempfile.TemporaryDirectory() as out_dir:
        stats = run_study(spec, out_dir, jobs=jobs, ray="local" if way == "ray" else None,
                          on_game=lambda g: seen.append(g.worker_seconds))
    return {"way": way, "start": init + stats.start_seconds, "wall": stats.wall_seconds,
            "games": stats.played, "busy": stats.occupancy, "slowest": max(seen),
            "median": sorted(seen)[len(seen) // 2], "process": time.perf_counter() - t_process}


def _cpu_share(task: tuple) -> float:
    """Play one game; its process CPU time over its wall time."""
    from boardlab.study.study_game import play_study_game
    t, c = time.perf_counter(), time.process_time()
    play_study_game(task)
    return (time.process_time() - c) / (time.perf_counter() - t)


def niceness_way(nice0: bool, games: int) -> dict:
    """One Ray worker and one local process play ``games`` games each at the
    same time (after one warm-up game each): the mean CPU share of each."""
    import multiprocessing
    import os

    import ray
    if nice0:
        os.environ["RAY_worker_niceness"] = "0"
    ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False, num_cpus=1)

    @ray.remote
    class Worker:
        def share(self, task):
            return _cpu_share(task)

        def nice(self):
            return os.getpriority(os.PRIO_PROCESS, 0)

    w = Worker.remote()
    tasks = [("k", "robble", 7, {}, "mcts:200", i, 5, None) for i in range(games + 1)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        ray.get(w.share.remote(tasks[0]))
        pool.apply(_cpu_share, (tasks[0],))
        remote = [w.share.remote(t) for t in tasks[1:]]
        local = pool.map(_cpu_share, tasks[1:])
        remote_shares = ray.get(remote)
    return {"way": f"ray worker niceness {ray.get(w.nice.remote())}",
            "ray": sum(remote_shares) / games, "local": sum(local) / games}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10, help="games per configuration (2 of them)")
    p.add_argument("--engine", default="mcts:200")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--ways", default="local,ray-tasks,ray-tasks-nice0,ray")
    p.add_argument("--repeat", type=int, default=1,
                   help="play every way this many times, interleaved (a shared machine's "
                        "load drifts: compare the medians)")
    p.add_argument("--niceness", action="store_true",
                   help="measure Ray's worker niceness alone (paired, see above)")
    p.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        if args.one.startswith("nice"):
            print(json.dumps(niceness_way(args.one == "nice0", args.games)))
        else:
            print(json.dumps(run_way(args.one, args.games, args.engine, args.jobs)))
        return 0
    if args.niceness:
        print(f"CPU time over wall time of {args.games} robble 7x7 games ({args.engine}), "
              "a Ray worker and a local process at once")
        for way in ("nice15", "nice0", "nice15", "nice0"):
            out = subprocess.run([sys.executable, __file__, "--one", way, "--games",
                                  str(args.games)], capture_output=True, text=True, check=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"{r['way']:24} Ray worker {r['ray']:6.0%}   local process {r['local']:6.0%}   "
                  f"ratio {r['ray'] / r['local']:.2f}", flush=True)
        return 0
    print(f"robble 7x7, pie yes/no, {args.games} games each, {args.engine}, {args.jobs} CPUs")
    print(f"{'way':15} {'start s':>8} {'games s':>8} {'total s':>8} {'games/s':>8} "
          f"{'busy':>6} {'slowest game s':>15} {'median game s':>14}")
    for way in args.ways.split(",") * args.repeat:
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
