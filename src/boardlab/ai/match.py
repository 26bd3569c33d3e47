"""``boardlab match GAME --a ENGINE --b ENGINE --games N [--jobs J]``: engine vs engine.

Game ``i`` (from 0) starts with engine A on the first color when ``i`` is even
and on the second color when it is odd; a pie ``swap`` exchanges the colors
the two engines hold (the agents decide swaps themselves). Each game has its own
seeds (derived from ``--seed`` and ``i``), so a match with iteration budgets
replays exactly, whatever ``--jobs``. Games run in ``--jobs`` worker processes.

Printed: wins / losses / draws of A, its score, the Elo difference A - B with a
95% interval (:mod:`boardlab.ai.stats`), and how each engine fared with each
color. Each engine move carries the engine's own comment in the record
(MCTS: ``{+0.62/640 0.41s}``, expected return / simulations / time). Every
game is appended to the records file (``--out``; boardlab's record
format, gzip-compressed when the name ends in ``.gz``) as soon as it ends, so an
interrupted match keeps its finished games, and ``--resume`` plays only the
games the file does not hold yet: long measurements can be stopped, moved and
continued.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import boardlab

from .. import records
from ..core import pie
from .engines import make_engine
from .stats import SPRT, EloEstimate, elo_estimate, format_elo


# ---------------------------------------------------------------- one game
@dataclass
class GameResult:
    index: int
    a_color: str                 # the color A started with
    swapped: bool
    actions: list[int]
    winner: str                  # a color, or "draw"
    a_result: float              # 1, 0.5, 0
    termination: str
    plies: int
    seconds: float               # wall time of the game
    max_move_seconds: dict[str, float] = field(default_factory=dict)  # "A"/"B" -> max
    cpu_seconds: float = 0.0     # CPU time of the game's process (0: not known)
    comments: dict[int, str] = field(default_factory=dict)  # ply -> the mover's comment


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    base = (seed * 1_000_003 + index * 7_919) % (2 ** 31)
    return base, base + 1


#: What a timed engine's seconds are measured on: ``wall`` (the clock on the
#: wall) or ``cpu`` (the CPU time of the thread that searches, so two engines
#: get equal computation on a machine shared with other work).
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def play_game(task: tuple) -> GameResult:
    """Play game ``index`` of a match. ``task`` = (game, size, options, a, b,
    index, seed[, clock])."""
    name, size, options, a_spec, b_spec, index, seed = task[:7]
    clock = task[7] if len(task) > 7 else "wall"
    game = boardlab.new_game(name, size, **options)
    agents = _agents(a_spec, b_spec, seed, index)
    for agent in agents.values():
        if hasattr(agent, "clock"):
            agent.clock = CLOCKS[clock]
    people = _seats(index)
    a_color = game.colors[people.index("A")]
    longest = {"A": 0.0, "B": 0.0}
    comments: dict[int, str] = {}
    start = time.perf_counter()
    cpu_start = time.process_time()
    while not game.is_over:
        who = people[game.seat_of(game.to_move)]
        agent = agents[who]
        t0 = time.perf_counter()
        action = agent.choose_action(game)
        dt = time.perf_counter() - t0
        longest[who] = max(longest[who], dt)
        game.apply_action(action)  # checked: an illegal move raises here
        comment = agent.move_comment() if hasattr(agent, "move_comment") else None
        if comment:
            comments[len(game)] = comment
    out = game.outcome
    if out.winner == "draw":
        a_result = 0.5
    else:
        a_result = 1.0 if people[game.seat_of(out.winner)] == "A" else 0.0
    return GameResult(index, a_color, game.colors_swapped, game.action_history, out.winner, a_result,
                      out.termination.value, len(game), time.perf_counter() - start, longest,
                      time.process_time() - cpu_start, comments)


def _agents(a_spec: str, b_spec: str, seed: int, index: int) -> dict:
    seed_a, seed_b = game_seeds(seed, index)
    return {"A": make_engine(a_spec, seed_a), "B": make_engine(b_spec, seed_b)}


def _seats(index: int) -> tuple[str, str]:
    """Seat -> "A" or "B" in game ``index``: seat 0 starts with the first color,
    so A starts with it when ``index`` is even (``Game.seat_of`` follows swaps)."""
    return ("A", "B") if index % 2 == 0 else ("B", "A")


def replay_check(rec: records.Record, plies: int | None = None) -> int:
    """Replay a match record's first ``plies`` actions (all: None) with the
    engines, seeds and seats its tags name, and return how many were checked.
    Raises ValueError at the first ply where an engine now chooses another
    move than the record holds: the record (and a table made from it) is then
    not what this code plays. Only iteration budgets replay; a timed engine
    (``mcts``) depends on the machine."""
    tags = rec.tags
    try:
        a_spec, b_spec = tags["EngineA"], tags["EngineB"]
        seed, index = int(tags["MatchSeed"]), int(tags["Round"]) - 1
    except (KeyError, ValueError):
        raise ValueError("not a match record: it needs the tags EngineA, EngineB, "
                         "MatchSeed and Round") from None
    agents = _agents(a_spec, b_spec, seed, index)
    game = rec.start_game()
    people = _seats(index)
    want = rec.game.action_history
    count = len(want) if plies is None else min(plies, len(want))
    for ply in range(count):
        who = people[game.seat_of(game.to_move)]
        action = agents[who].choose_action(game)
        if action != want[ply]:
            raise ValueError(
                f"round {index + 1}, ply {ply + 1}: {tags[f'Engine{who}']} now plays "
                f"{game.action_to_string(action)}, the record has "
                f"{game.action_to_string(want[ply])}")
        game.apply_action(action)
    return count


# ---------------------------------------------------------------- records
def build_game(name: str, size: int, options: dict, actions: list[int]):
    game = boardlab.new_game(name, size, **options)
    for a in actions:
        game.apply_action(a)
    return game


def players_after(result: GameResult, a_name: str, b_name: str, colors) -> dict[str, str]:
    """Who holds each color at the end (after any swap), for the record."""
    a_seat = colors.index(result.a_color)
    return {pie.color_of(colors, a_seat, result.swapped): a_name,
            pie.color_of(colors, 1 - a_seat, result.swapped): b_name}


def result_record(spec: MatchSpec, result: GameResult) -> records.Record:
    """The record of one match game; its tags carry what resuming needs."""
    game = build_game(spec.game, spec.size, spec.options, result.actions)
    tags = {"Event": f"match {spec.a} vs {spec.b}", "Round": str(result.index + 1),
            "EngineA": spec.a, "EngineB": spec.b, "MatchSeed": str(spec.seed),
            "Seconds": f"{result.seconds:.3f}", "CpuSeconds": f"{result.cpu_seconds:.3f}",
            "LongestMoveA": f"{result.max_move_seconds.get('A', 0.0):.3f}",
            "LongestMoveB": f"{result.max_move_seconds.get('B', 0.0):.3f}"}
    if spec.clock != "wall":
        tags["Clock"] = spec.clock
    return records.Record.from_game(game, players_after(result, spec.a, spec.b, game.colors),
                                    tags=tags, comments=result.comments)


def result_from_record(spec: MatchSpec, rec: records.Record, where: str) -> GameResult:
    """Rebuild a finished game's result from its record (``where`` names it in errors)."""
    tags = rec.tags
    for key, want in (("EngineA", spec.a), ("EngineB", spec.b), ("MatchSeed", str(spec.seed))):
        if tags.get(key) != want:
            raise ValueError(f"{where} is from another match: {key} is "
                             f"{tags.get(key)!r}, this match has {want!r}")
    if (rec.name, rec.size, rec.options) != (spec.game, spec.size, spec.full_options):
        raise ValueError(f"{where} is a {rec.name} {rec.size}x{rec.size} game with options "
                         f"{rec.options}, not this match's {spec.game} {spec.size}x{spec.size} "
                         f"with {spec.full_options}")
    if not rec.game.is_over:
        raise ValueError(f"{where} is not finished (result {rec.result})")
    try:
        index = int(tags.get("Round", "")) - 1
    except ValueError:
        raise ValueError(f"{where} has no round number") from None
    game = rec.game
    a_seat = _seats(index).index("A")
    a_color, a_final = game.colors[a_seat], game.color_of(a_seat)
    winner = rec.result
    a_result = 0.5 if winner == "draw" else 1.0 if winner == a_final else 0.0
    def seconds(tag: str) -> float:
        try:
            return float(tags.get(tag, "0"))
        except ValueError:
            raise ValueError(f"{where}: tag {tag} is {tags[tag]!r}, not a number of "
                             f"seconds") from None

    longest = {k: seconds(f"LongestMove{k}") for k in "AB"}
    return GameResult(index, a_color, game.colors_swapped, game.action_history, winner, a_result,
                      game.outcome.termination.value, len(game), seconds("Seconds"), longest,
                      seconds("CpuSeconds"), dict(rec.comments))


def _open_records(path: str, mode: str) -> IO[str]:
    if path.endswith(".gz"):
        return gzip.open(path, mode + "t", encoding="utf-8")  # type: ignore[return-value]
    return open(path, mode, encoding="utf-8")


def load_finished(spec: MatchSpec, path: str) -> dict[int, GameResult]:
    """The games of this match already in ``path`` (empty if there is no file)."""
    if not os.path.exists(path):
        return {}
    # a last game cut short (the run was killed while writing it) is left out,
    # so the games before it still count; other damage is a RecordError
    text = records.read_text(path, drop_cut_off=True)
    try:
        recs = records.parse_all(text)
    except records.RecordError as exc:
        raise ValueError(f"{path}: {exc} (remove the damaged game, or start the match "
                         f"again without --resume)") from None
    done: dict[int, GameResult] = {}
    for k, rec in enumerate(recs, 1):
        result = result_from_record(spec, rec, f"{path}: game {k}")
        if not 0 <= result.index < spec.games:
            raise ValueError(f"{path}: game {k} is round {result.index + 1}, outside this "
                             f"match's 1..{spec.games}")
        if result.index in done:
            raise ValueError(f"{path}: round {result.index + 1} appears twice")
        done[result.index] = result
    return done


def write_records(path: str, spec: MatchSpec, results: list[GameResult]) -> None:
    """Write every game of ``results`` in round order (replacing ``path`` at once)."""
    tmp = f"{path}.tmp{os.getpid()}" + (".gz" if path.endswith(".gz") else "")
    with _open_records(tmp, "w") as fh:
        fh.write(records.format_all(result_record(spec, r) for r in results))
    os.replace(tmp, path)


class _Appender:
    """Appends each finished game to the records file as it ends, opening and
    closing the file each time: the game is on disk, complete (for gzip, its
    own finished member), before the next one starts, whatever kills the run."""

    def __init__(self, path: str | None, spec: MatchSpec, fresh: bool) -> None:
        self.path, self.spec = path, spec
        self.empty = True
        if path is not None:
            if fresh:
                _open_records(path, "w").close()
            self.empty = fresh or os.path.getsize(path) == 0

    def add(self, result: GameResult) -> None:
        if self.path is None:
            return
        text = records.format(result_record(self.spec, result))
        with _open_records(self.path, "a") as fh:
            fh.write(text if self.empty else "\n" + text)
        self.empty = False


# ---------------------------------------------------------------- the match
@dataclass
class MatchSpec:
    """What identifies a match: game, size, options, engines, games, seed."""

    game: str
    size: int
    options: dict[str, Any]
    a: str
    b: str
    games: int
    seed: int
    full_options: dict[str, Any] = field(default_factory=dict)
    clock: str = "wall"

    def tasks(self, indices: list[int]) -> list[tuple]:
        return [(self.game, self.size, self.options, self.a, self.b, i, self.seed, self.clock)
                for i in indices]


@dataclass
class MatchResult:
    game: str
    size: int
    a: str
    b: str
    results: list[GameResult]
    elo: EloEstimate
    seconds: float
    records_path: str | None = None
    resumed: int = 0              # games taken from the records file, not played
    sprt: SPRT | None = None

    @property
    def sprt_status(self) -> str | None:
        """``H1``, ``H0`` or ``continue`` (the game limit came first); None without a test."""
        e = self.elo
        return None if self.sprt is None else self.sprt.status(e.wins, e.losses, e.draws)

    def by_color(self) -> dict[str, tuple[int, int, int]]:
        """A's W/L/D by the color it started with."""
        out: dict[str, list[int]] = {}
        for r in self.results:
            row = out.setdefault(r.a_color, [0, 0, 0])
            row[0 if r.a_result == 1 else 1 if r.a_result == 0 else 2] += 1
        return {k: tuple(v) for k, v in out.items()}  # type: ignore[misc]

    def longest_move(self, who: str) -> float:
        return max(r.max_move_seconds.get(who, 0.0) for r in self.results)

    def report(self) -> str:
        e = self.elo
        n = e.games
        lines = [
            f"{self.game} {self.size}x{self.size}: A = {self.a}, B = {self.b}, {n} games"
            + (f" ({self.resumed} from the records file)" if self.resumed else ""),
            f"A: {e.wins} wins, {e.losses} losses, {e.draws} draws; "
            f"score {e.score:.3f} ({e.wins + 0.5 * e.draws:g}/{n})",
            f"Elo A - B: {format_elo(e.elo)} (95% interval {format_elo(e.low)} .. "
            f"{format_elo(e.high)}; normal approximation on the mean score, "
            f"p = {e.p_value:.3g}; exact sign test p = {e.p_sign:.3g})",
        ]
        if e.stderr == 0:
            lines.append("(every game had the same result: the normal approximation has no "
                         "spread, so the interval is a single point)")
        for color, (won, lost, drawn) in sorted(self.by_color().items()):
            lines.append(f"A starting as {color}: {won}-{lost}-{drawn} (W-L-D)")
        swaps = sum(r.swapped for r in self.results)
        if swaps:
            lines.append(f"games with a swap: {swaps}")
        plies = sum(r.plies for r in self.results) / len(self.results)
        lines.append(f"mean length {plies:.1f} moves; longest move A "
                     f"{self.longest_move('A'):.3f} s, B {self.longest_move('B'):.3f} s; "
                     f"wall {self.seconds:.1f} s")
        if self.sprt is not None:
            verdict = {"H1": f"H1 accepted: A is at least {self.sprt.elo1:g} Elo stronger",
                       "H0": f"H0 accepted: A is at most {self.sprt.elo0:g} Elo stronger",
                       "continue": "undecided at the game limit"}[self.sprt_status or "continue"]
            lines.append(f"{self.sprt}: LLR {self.sprt.llr(e.wins, e.losses, e.draws):+.2f} "
                         f"(bounds {self.sprt.lower:.2f}, {self.sprt.upper:.2f}): {verdict}")
        if self.records_path:
            lines.append(f"records: {self.records_path}")
        return "\n".join(lines)


def run_match(game: str, a: str, b: str, games: int, *, jobs: int = 1, size: int | None = None,
              options: dict[str, Any] | None = None, seed: int = 1, out: str | None = None,
              resume: bool = False, progress: bool = False,
              on_result: Callable[[GameResult], None] | None = None,
              sprt: SPRT | None = None, clock: str = "wall") -> MatchResult:
    """Play (the rest of) a match. With ``resume``, the games already in
    ``out`` count and only the missing rounds are played; otherwise ``out`` is
    started afresh. ``on_result`` is called with each game as it ends (after it
    is saved). With ``sprt`` the match stops as soon as the test decides
    (``games`` is then the most it plays); ``progress`` shows a bar with the
    score, Elo, the test's log-likelihood ratio and an ETA. ``clock``: see
    :data:`CLOCKS`."""
    if clock not in CLOCKS:
        raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
    cls = boardlab.game_class(game)
    size = size or cls.default_size
    options = dict(options or {})
    full_options = dict(cls(size, **options).options)  # checks the options now
    make_engine(a)
    make_engine(b)  # unknown engines fail before any game
    if games < 1:
        raise ValueError("a match needs at least one game")
    spec = MatchSpec(cls.name, size, options, a, b, games, seed, full_options, clock)
    if resume and out is None:
        raise ValueError("--resume needs a records file (--out)")
    done = load_finished(spec, out) if resume and out else {}
    todo = [i for i in range(games) if i not in done]
    results = list(done.values())
    start = time.perf_counter()
    if done and out is not None:
        # rewritten first, so a damaged tail a killed run left is gone before
        # new games are appended after it
        write_records(out, spec, sorted(done.values(), key=lambda r: r.index))
    appender = _Appender(out, spec, fresh=not done)
    bar = _Progress(games, len(done), sprt) if progress else None
    try:
        if not _decided(results, sprt):
            for r in _play_all(spec.tasks(todo), jobs):
                appender.add(r)
                results.append(r)
                if bar is not None:
                    bar.update(results)
                if on_result is not None:
                    on_result(r)
                if _decided(results, sprt):
                    break
    finally:
        if bar is not None:
            bar.close()
    results.sort(key=lambda r: r.index)
    if out is not None:
        write_records(out, spec, results)
    wins = sum(r.a_result == 1 for r in results)
    losses = sum(r.a_result == 0 for r in results)
    draws = len(results) - wins - losses
    return MatchResult(spec.game, size, a, b, results, elo_estimate(wins, losses, draws),
                       time.perf_counter() - start, out, resumed=len(done), sprt=sprt)


def _play_all(tasks: list[tuple], jobs: int):
    """Each game's result as it ends (in worker processes when ``jobs`` > 1)."""
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield play_game(t)
        return
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap_unordered(play_game, tasks)


def _wld(results: list[GameResult]) -> tuple[int, int, int]:
    wins = sum(r.a_result == 1 for r in results)
    losses = sum(r.a_result == 0 for r in results)
    return wins, losses, len(results) - wins - losses


def _decided(results: list[GameResult], sprt: SPRT | None) -> bool:
    return sprt is not None and bool(results) and sprt.status(*_wld(results)) != "continue"


class _Progress:
    """A tqdm bar on stderr: games, W-L-D, Elo so far, the SPRT's LLR, ETA."""

    def __init__(self, total: int, done: int, sprt: SPRT | None) -> None:
        from tqdm import tqdm

        self.sprt = sprt
        self.bar = tqdm(total=total, initial=done, unit="game", file=sys.stderr,
                        dynamic_ncols=True, smoothing=0.1)

    def update(self, results: list[GameResult]) -> None:
        wins, losses, draws = _wld(results)
        post = f"A {wins}-{losses}-{draws}"
        if results:
            post += f", Elo {format_elo(elo_estimate(wins, losses, draws).elo)}"
        if self.sprt is not None:
            post += f", LLR {self.sprt.llr(wins, losses, draws):+.2f} ({self.sprt.lower:.2f}, {self.sprt.upper:.2f})"
        self.bar.set_postfix_str(post, refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"option {text!r} is not key=value")
    if value in ("yes", "no"):
        return key, value == "yes"
    try:
        return key, int(value)
    except ValueError:
        return key, value


#: Where a match's records go without --out: a folder .gitignore leaves out, so a
#: match run in a checkout does not litter it with untracked files.
RESULTS_DIR = "results"


def _sprt(text: str) -> SPRT:
    try:
        return SPRT.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def match_file_name(game: str, a: str, b: str) -> str:
    """``match-GAME-A-vs-B.rec``, the names cleaned to letters, digits and dots."""
    def clean(x: str) -> str:
        return re.sub(r"[^A-Za-z0-9.]+", "-", x).strip("-")
    return f"match-{clean(game)}-{clean(a)}-vs-{clean(b)}.rec"


def default_out(game: str, a: str, b: str) -> str:
    return os.path.join(RESULTS_DIR, match_file_name(game, a, b))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="boardlab match",
                                description="Play engine A against engine B.")
    p.add_argument("game", help=f"one of {', '.join(boardlab.GAMES)}")
    p.add_argument("--a", required=True, metavar="ENGINE",
                   help="random, uct, mcts, level1..level5, or a budget: mcts:500, uct:0.25s")
    p.add_argument("--b", required=True, metavar="ENGINE")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--size", type=int, default=None)
    p.add_argument("--option", action="append", type=_option, default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. pie=no or komi=6 (repeatable)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None,
                   help="records file (default results/match-GAME-A-vs-B.rec, the folder "
                        "made if needed; '-' for none; gzip when it ends in .gz)")
    p.add_argument("--resume", action="store_true",
                   help="keep the games already in the records file and play the rest")
    p.add_argument("--overwrite", action="store_true",
                   help="replace a records file that already holds games")
    p.add_argument("--sprt", type=_sprt, default=None, metavar="ELO0,ELO1[,ALPHA,BETA]",
                   help="stop as soon as a sequential test decides between A being ELO0 and "
                        "ELO1 Elo stronger (alpha = beta = 0.05 by default); --games is then "
                        "the most games played")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                   help="what a timed engine's seconds are: wall clock (default) or the CPU "
                        "time of its thread (equal computation on a shared machine)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.games < 1:
        print("boardlab match: --games must be at least 1", file=sys.stderr)
        return 2
    out = args.out or default_out(args.game, args.a, args.b)
    if out == "-":
        out = None
    if args.out is None and out:
        os.makedirs(os.path.dirname(out), exist_ok=True)
    if out and not (args.resume or args.overwrite) and os.path.isfile(out) \
            and os.path.getsize(out) > 0:
        print(f"boardlab match: {out} already holds games: --resume continues that match, "
              "--overwrite replaces it, or name another --out", file=sys.stderr)
        return 2
    try:
        match = run_match(args.game, args.a, args.b, args.games, jobs=max(1, args.jobs),
                          size=args.size, options=dict(args.option), seed=args.seed,
                          out=out, resume=args.resume, sprt=args.sprt, clock=args.clock,
                          progress=not args.quiet and sys.stderr.isatty())
    except (ValueError, boardlab.BoardlabError) as exc:
        print(f"boardlab match: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the records file: a missing folder, no permission, a full disk
        what = f"cannot write {exc.filename}: {exc.strerror}" if exc.filename else str(exc)
        print(f"boardlab match: {what}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        saved = f"; the finished games are in {out} (--resume continues)" if out else ""
        print(f"\nboardlab match: interrupted{saved}", file=sys.stderr)
        return 130
    print(match.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
