"""``boardlab train GAME [--size N] ...``: self-play training (docs/az.md).

Resumable: run the same command again (or ``boardlab train --resume DIR``)
and it continues from the folder's checkpoint, bit for bit. ``--minutes``
stops cleanly after the generation that passes it; ``--ship`` copies the
network into the package (``boardlab/az/weights/<game>-<size>.npz``), where
the ``az`` engine finds it; ``--report`` draws the curves of a run into a
picture and a Markdown table (docs/az.md).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import boardlab

from ..cli.args import option_pair
from ..errors import BoardlabError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="boardlab train", description="Train a policy-value network by self-play "
        "(Gumbel AlphaZero on the compiled search), resumable; see docs/az.md.")
    p.add_argument("game", metavar="GAME", nargs="?", help=f"one of {', '.join(boardlab.GAMES)}")
    p.add_argument("--size", type=int, default=None, help="board size (default: the game's)")
    p.add_argument("--no-pie", action="store_true", help="train without the pie rule")
    p.add_argument("--option", action="append", type=option_pair, default=[], metavar="KEY=VALUE",
                   help="a game option to train under, e.g. komi=7 (repeatable; the network "
                        "then plays only games with the same options)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="the run's folder (default runs/az-GAME-SIZE); an existing run resumes")
    p.add_argument("--resume", default=None, metavar="DIR", help="resume the run in DIR")
    p.add_argument("--generations", type=int, default=None,
                   help="train until this many generations")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after the generation that passes this many minutes")
    p.add_argument("--games", type=int, default=None, help="self-play games a generation")
    p.add_argument("--simulations", type=int, default=None, help="simulations a move (Gumbel root)")
    p.add_argument("--parallel", type=int, default=None,
                   help="games in flight per task (their leaves share a network call)")
    p.add_argument("--tasks", type=int, default=None,
                   help="self-play tasks a generation (default: the workers)")
    p.add_argument("--channels", type=int, default=None, help="channels of the residual tower")
    p.add_argument("--blocks", type=int, default=None, help="residual blocks")
    p.add_argument("--batch", type=int, default=None, help="training batch (samples)")
    p.add_argument("--lr", type=float, default=None, help="Adam's learning rate")
    p.add_argument("--buffer", type=int, default=None, help="replay buffer (samples)")
    p.add_argument("--reuse", type=float, default=None,
                   help="times each new sample is drawn for training, on average")
    p.add_argument("--seed", type=int, default=None, help="the run's seed")
    p.add_argument("--workers", type=int, default=None,
                   help="local self-play processes (default: the CPU count; 1: this process)")
    p.add_argument("--ray", default=None, metavar="ADDRESS|local",
                   help="run self-play on Ray (local: start one here) instead of a local pool")
    p.add_argument("--eval-every", type=int, default=None, metavar="G",
                   help="a strength match every G generations (0: none)")
    p.add_argument("--eval-games", type=int, default=None, help="games against each engine")
    p.add_argument("--eval-engines", default=None,
                   help="comma-separated opponents of the strength matches")
    p.add_argument("--eval-limit", default=None, help="the network's budget in them")
    p.add_argument("--expert-games", type=int, default=None, metavar="N",
                   help="first, N games of the playout search against itself to learn from "
                        "(expert iteration; 0: none)")
    p.add_argument("--expert-simulations", type=int, default=None,
                   help="the playout search's simulations a move in them")
    p.add_argument("--expert-opening", type=int, default=None, metavar="PLIES",
                   help="plies of each drawn in proportion to the visits")
    p.add_argument("--expert-q", type=float, default=None, metavar="W",
                   help="value targets of those games: (1 - W) x result + W x the search's root "
                        "value (0: the result)")
    p.add_argument("--ship", action="store_true",
                   help="copy the run's network into the package for the az engine")
    p.add_argument("--report", default=None, metavar="PNG",
                   help="draw the run's curves into PNG (and print its Markdown table)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    from dataclasses import fields

    from .train import Config
    defaults = {f.name: f.default for f in fields(Config)}
    for action in p._actions:  # a new run's defaults are Config's (a saved run keeps its own)
        if action.dest in defaults and action.dest not in ("game", "size", "tasks"):
            value = defaults[action.dest]
            shown = ",".join(value) if isinstance(value, tuple) else value
            action.help = f"{action.help or action.dest.replace('_', ' ')} (default {shown})"
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser().parse_args(argv)
    try:
        return _run(args, argv)
    except BoardlabError as exc:
        print(f"boardlab train: {exc}", file=sys.stderr)
        return 2


def _folder(args: argparse.Namespace) -> Path:
    if args.resume:
        return Path(args.resume)
    if args.out:
        return Path(args.out)
    if not args.game:
        raise BoardlabError("name the game (or --resume DIR)")
    cls = boardlab.game_class(args.game)
    return Path("runs") / f"az-{cls.name}-{cls._check_size(args.size)}"


def _run(args: argparse.Namespace, argv: list[str]) -> int:
    from .train import CONFIG, Config, Trainer, Workers, describe
    folder = _folder(args)
    config = None
    given = _given(args)
    if not args.resume and not (folder / CONFIG).exists():
        if not args.game:
            raise BoardlabError("name the game (or --resume DIR)")
        cls = boardlab.game_class(args.game)
        if args.no_pie and "pie" not in cls.option_defaults:
            raise BoardlabError(f"--no-pie: {cls.name} has no pie rule")
        given.setdefault("tasks", args.workers or _cpus())
        config = Config(cls.name, cls._check_size(args.size), **given)
    elif (folder / CONFIG).exists():
        saved = Config.from_dict(json.loads((folder / CONFIG).read_text())).as_dict()
        asked = Config.from_dict({**saved, **given}).as_dict()
        other = sorted(k for k in given if k != "generations" and saved[k] != asked[k])
        if other:
            raise BoardlabError(f"{folder} holds a run with other settings ({', '.join(other)}): "
                                "resume it with the same ones, or train into another --out folder")
    command = "boardlab train " + " ".join(shlex.quote(a) for a in argv)
    trainer = Trainer(folder, config, command=command)
    if args.report:
        from .report import write_report
        print(write_report(trainer.folder, Path(args.report)))
        return 0
    if args.ship:
        return _ship(trainer)
    target = args.generations or trainer.config.generations
    trainer.start()
    workers = Workers(args.workers or _cpus(), args.ray)
    c = trainer.config
    print(f"training {describe(trainer)} in {folder}: generation {trainer.generation} of {target}, "
          f"{c.games} games of {c.simulations} simulations a move each")
    start = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm
        bar = tqdm(total=target, initial=trainer.generation, unit="gen", dynamic_ncols=True)
    try:
        if trainer.needs_expert:
            _say(bar, f"{c.expert_games} games of the playout search, {c.expert_simulations} "
                      "simulations a move, to learn from first")
            games = None
            if not args.quiet:
                from tqdm import tqdm
                games = tqdm(total=c.expert_games, unit="game", desc="expert games",
                             dynamic_ncols=True, leave=False)
            try:
                row = trainer.run_expert(workers, None if games is None else games.update)
            finally:
                if games is not None:
                    games.close()
            _say(bar, f"expert games: {row['samples']:,} samples, policy loss "
                      f"{row['policy_loss']:.3f}, value loss {row['value_loss']:.3f}")
            if c.eval_every:
                for ev in trainer.evaluate(workers):
                    _say(bar, f"after the expert games: {ev['az']} vs {ev['engine']} "
                              f"{ev['score']:g}/{ev['games']}")
            trainer.checkpoint()
        while trainer.generation < target:
            row = trainer.run_generation(workers)
            if c.eval_every and trainer.generation % c.eval_every == 0:
                for ev in trainer.evaluate(workers):
                    _say(bar, f"generation {ev['generation']}: {ev['az']} vs {ev['engine']} "
                              f"{ev['score']:g}/{ev['games']}")
            trainer.checkpoint()
            if bar is not None:
                bar.set_postfix(policy=f"{row['policy_loss']:.3f}", value=f"{row['value_loss']:.3f}",
                                samples=row["buffer"], cpu_h=f"{row['cpu_hours']:.2f}")
                bar.update(1)
            if args.minutes is not None and time.perf_counter() - start > 60 * args.minutes:
                _say(bar, f"stopping after {args.minutes:g} minutes (resume with the same command)")
                break
    finally:
        if bar is not None:
            bar.close()
        workers.close()
    return 0


#: options that are a run's settings (Config fields), by their dest
_SETTINGS = ("games", "simulations", "parallel", "tasks", "channels", "blocks", "batch", "lr",
             "buffer", "reuse", "seed", "eval_every", "eval_games", "generations", "expert_games",
             "expert_simulations", "expert_opening", "expert_q")


def _given(args: argparse.Namespace) -> dict:
    """The run settings the command names (the rest keep Config's defaults,
    or a saved run's values)."""
    given = {k: getattr(args, k) for k in _SETTINGS if getattr(args, k) is not None}
    options = dict(args.option)
    if args.no_pie:
        options["pie"] = False
    if options:
        given["options"] = options
    if args.eval_engines is not None:
        given["eval_engines"] = tuple(e for e in args.eval_engines.split(",") if e)
    if args.eval_limit is not None:
        given["eval_limit"] = args.eval_limit
    return given


def _say(bar, text: str) -> None:
    if bar is not None:
        bar.write(text)
    else:
        print(text)


def _ship(trainer) -> int:
    from .weights import save, shipped_path
    w = trainer.weights()
    if trainer.generation == 0:
        raise BoardlabError(f"{trainer.folder}: nothing trained yet")
    path = shipped_path(w.spec.game, w.spec.size)
    save(path, w)
    print(f"{path}: generation {trainer.generation} of {trainer.folder} "
          f"({path.stat().st_size / 1e6:.2f} MB)")
    return 0


def _cpus() -> int:
    import os
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


__all__ = ["build_parser", "main"]
