"""Engine vs engine: a match of ``N`` games between engine A and engine B.

Game ``i`` (from 0) starts with engine A on the first color when ``i`` is even
and on the second color when it is odd; a pie ``swap`` exchanges the colors
the two engines hold (the agents decide swaps themselves). Each game has its own
seeds (derived from the match seed and ``i``), so a match with iteration budgets
replays exactly, whatever the number of jobs. The games are played by the one
self-play loop (:func:`boardlab.ai.selfplay.play`) in worker processes.

:func:`run_match` plays (the rest of) a match and returns its results: wins,
losses and draws of A, the Elo difference with a 95% interval
(:mod:`boardlab.ai.stats`). Each engine move carries the engine's own comment
in the record (MCTS: ``{+0.62/640 0.41s}``, expected return / simulations /
time). Every game is appended to the records file (boardlab's record format,
gzip-compressed when the name ends in ``.gz``) as soon as it ends, so an
interrupted match keeps its finished games, and ``resume`` plays only the
games the file does not hold yet: long measurements can be stopped, moved and
continued. The command (``boardlab match``) and the printed report are
:mod:`boardlab.cli.match`.
"""

from __future__ import annotations

import gzip
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import boardlab

from .. import records
from ..core import pie
from .engines import make_engine, same_engine
from .selfplay import CLOCKS, GameTask, Played, game_seeds, play, seats
from .stats import SPRT, EloEstimate, elo_estimate, format_elo

__all__ = ["CLOCKS", "GameResult", "MatchResult", "MatchSpec", "game_seeds", "load_finished",
           "play_game", "replay_check", "result_record", "run_match"]


# ---------------------------------------------------------------- one game
@dataclass
class GameResult:
    index: int
    a_color: str                 # the color A started with
    swapped: bool
    actions: list[int]
    winner: str                  # a color, "draw", or "unfinished" (a study's ply cap)
    a_result: float              # 1, 0.5, 0
    termination: str
    plies: int
    seconds: float               # wall time of the game
    max_move_seconds: dict[str, float] = field(default_factory=dict)  # "A"/"B" -> max
    cpu_seconds: float = 0.0     # CPU time of the game's process (0: not known)
    comments: dict[int, str] = field(default_factory=dict)  # ply -> the mover's comment


def play_game(task: GameTask) -> GameResult:
    """Play one game of a match (or a study): the task's engines in their
    seats, to the end or the task's ply cap."""
    game = task.new_game()
    return game_result(task, game, play(game, task.seated_agents(), max_plies=task.max_plies))


def game_result(task: GameTask, game: boardlab.Game, played: Played) -> GameResult:
    """A played game's result for engine A (an unfinished game, stopped at a
    ply cap, counts half)."""
    people = seats(task.index)
    out = game.outcome
    winner = None if out is None else out.winner
    if winner is None or winner == "draw":
        a_result = 0.5
    else:
        a_result = 1.0 if people[game.seat_of(winner)] == "A" else 0.0
    return GameResult(task.index, game.colors[people.index("A")], game.colors_swapped,
                      game.action_history, "unfinished" if winner is None else winner,
                      a_result, "unfinished" if out is None else out.termination.value,
                      len(game), played.seconds,
                      {people[s]: played.longest[s] for s in (0, 1)}, played.cpu_seconds,
                      played.comments)


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
    agents = GameTask(rec.name, rec.size, dict(rec.options), a_spec, b_spec, index,
                      seed).agents()
    game = rec.start_game()
    people = seats(index)
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
        got = tags.get(key)
        if got != want and (key == "MatchSeed" or got is None or not same_engine(got, want)):
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
    a_seat = seats(index).index("A")
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
    """Write every game of ``results`` in round order (replacing ``path`` at once).
    A gzip file carries no time or name in its header, so the same games give
    the same bytes: a resumed match that adds nothing leaves a committed record
    file unchanged."""
    text = records.format_all(result_record(spec, r) for r in results).encode("utf-8")
    data = gzip.compress(text, mtime=0) if path.endswith(".gz") else text
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as fh:
        fh.write(data)
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

    def tasks(self, indices: list[int]) -> list[GameTask]:
        return [GameTask(self.game, self.size, self.options, self.a, self.b, i, self.seed,
                         self.clock) for i in indices]


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


def _play_all(tasks: list[GameTask], jobs: int):
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
