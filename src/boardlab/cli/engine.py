"""``boardlab engine``: the search over UGI (and UCI's spelling of it) on stdin/stdout.

UGI is UCI generalised to other games (kz04px/cutegames ``ugi.md``): UCI's
commands, plus ``query``. Any UGI- or UCI-speaking GUI, match runner or
script can drive boardlab's search::

    ugi | uci                    -> id name ..., id author ..., option name ... lines, ugiok | uciok
    isready                      -> readyok: once the compiled search is loaded (warmed up),
                                    then at once (also while searching)
    setoption name N [value V]   -> MultiPV, Threads, Seed, MoveOverhead (see OPTIONS)
    uginewgame | ucinewgame      -> back to the start position
    position startpos [moves M ...]
    position fen <position text> [moves M ...]   (our position text, docs/positions.md)
    go [nodes N] [movetime MS] [depth D] [p1time MS p2time MS [p1inc MS p2inc MS]]
       [wtime MS btime MS [winc MS binc MS]] [movestogo N] [infinite]
                                 -> info ... lines while searching, then bestmove M
    stop                         -> ends the search (its bestmove follows)
    query gameover|p1turn|result -> response true|false, response p1win|p2win|draw|none
    quit

Every ``go`` is answered by exactly one ``bestmove``: ``bestmove 0000`` (the
null move) when the game is over or the ``go`` line was refused, so a GUI
never waits for an answer that will not come. A malformed or illegal line is
answered with ``info string error: ...`` naming what was wrong, and changes
nothing. docs/analysis.md has the details (clock use, scores, depth).

``--jsonl`` is the KataGo-style analysis engine: :mod:`.jsonl`.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import boardlab

from ..ai.analysis import PV_LENGTH, Analysis, Candidate, analyse
from ..ai.limit import MAX_SECONDS, Limit
from ..core.game import Game
from ..errors import BoardlabError

#: Without ``movestogo`` a move gets 1/MOVES_AHEAD of the remaining clock ...
MOVES_AHEAD = 30
#: ... plus this share of the increment ...
INC_SHARE = 0.8
#: ... but never more than this share of what is left.
MAX_SHARE = 0.8
#: The shortest search a clock is given (seconds).
MIN_SECONDS = 0.01
#: Seconds between ``info`` lines while a search runs.
INFO_EVERY = 0.5
#: A ``go depth`` is checked this often (seconds).
_DEPTH_EVERY = 0.1
#: What the warm-up searches, so that the first clocked move does not pay for loading code.
WARM_UP = Limit(simulations=64)


@dataclass(frozen=True)
class Option:
    """A ``spin`` option, announced as ``option name N type spin default D min A max B``."""

    name: str
    default: int
    low: int
    high: int
    meaning: str

    def line(self, default: int | None = None) -> str:
        d = self.default if default is None else default
        return f"option name {self.name} type spin default {d} min {self.low} max {self.high}"


OPTIONS = (
    Option("MultiPV", 1, 1, 50, "how many best lines the info lines show (multipv 1..N)"),
    Option("Threads", 1, 1, 256, "search trees grown at once, one per thread, read as one "
                                 "(root parallelisation)"),
    Option("Seed", 0, -(2**31), 2**31 - 1, "the search's random seed (with go nodes a search "
                                            "replays exactly; Threads > 1 uses Seed, Seed + 1, ...)"),
    Option("MoveOverhead", 30, 0, 5000, "milliseconds kept back from each clocked move for "
                                        "the GUI's and the pipe's delays"),
)


def _cp(winrate: float) -> int:
    """A win probability as a centipawn-like score (the logistic UCI GUIs expect)."""
    p = min(max(winrate, 1e-4), 1 - 1e-4)
    return round(400 * math.log10(p / (1 - p)))


def score(c: Candidate) -> str:
    """UCI's ``score`` of a candidate: ``mate N`` for a proven result (N > 0:
    the mover wins in N of its moves, N < 0: it is lost in N of the
    opponent's; as UCI counts moves, N is the plies to the end halved,
    rounded up), else ``cp`` from the win probability."""
    if (c.proven or c.lost) and c.plies_to_end is not None:
        moves = (c.plies_to_end + 1) // 2
        return f"mate {moves if c.proven else -moves}"
    return f"cp {_cp(c.winrate)}"


def info_lines(an: Analysis, multipv: int = 1) -> list[str]:
    """``info`` lines for an analysis: one per candidate up to ``multipv``
    (UCI's ``multipv k`` on each when more than one is asked for)."""
    ms = max(1, round(an.seconds * 1000))
    rows = an.candidates[:multipv]
    out = []
    for k, c in enumerate(rows, 1):
        head = f"info multipv {k} " if multipv > 1 else "info "
        out.append(f"{head}depth {len(c.pv)} score {score(c)} nodes {an.visits} time {ms} "
                   f"nps {round(an.visits * 1000 / ms)} winrate {c.winrate:.4f} "
                   f"visits {c.visits} pv {' '.join(c.pv)}")
    if not rows:
        out.append(f"info nodes {an.visits} time {ms}")
    return out


def allot(remaining_ms: int, inc_ms: int, movestogo: int | None, overhead_ms: int) -> float:
    """Seconds for one move on a clock: the remaining time shared over
    ``movestogo`` moves (MOVES_AHEAD when not given) plus most of the
    increment, at most MAX_SHARE of what is left, less the move overhead."""
    ahead = movestogo if movestogo else MOVES_AHEAD
    ms = min(remaining_ms / ahead + INC_SHARE * inc_ms, MAX_SHARE * remaining_ms) - overhead_ms
    return max(MIN_SECONDS, ms / 1000)


#: ``go`` parameters that take a number, with UCI's names of the two clocks.
_NUMBERS = ("nodes", "movetime", "depth", "movestogo", "p1time", "p2time", "p1inc", "p2inc",
            "wtime", "btime", "winc", "binc")


class UGIEngine:
    """The protocol state: the game, the options, the running search, the output."""

    def __init__(self, name: str, size: int | None, options: dict[str, Any],
                 out: IO[str], seed: int = 0) -> None:
        self.cls = boardlab.game_class(name)
        self.start = self.cls(size, **options)  # OptionError before the loop starts
        self.game = self.start.copy()
        self.out = out
        self.values = {o.name: o.default for o in OPTIONS}
        seeds = next(o for o in OPTIONS if o.name == "Seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not seeds.low <= seed <= seeds.high:
            raise BoardlabError(f"the seed must be a whole number in {seeds.low}..{seeds.high}, "
                                f"got {seed!r}")
        self.values["Seed"] = seed
        self.lock = threading.Lock()
        self.search: threading.Thread | None = None
        self.stop = threading.Event()
        self._warm = threading.Thread(target=self._warm_up, daemon=True)
        self._warm.start()

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, what: str) -> None:
        self.send(f"info string error: {what}")

    # ------------------------------------------------------------ warm-up
    def _warm_up(self) -> None:
        """Load the compiled search (from numba's cache, or compile it) with a
        small search of the start position, so that ``readyok`` means a clocked
        move will not overrun while code loads."""
        started = time.perf_counter()
        try:
            analyse(self.start, WARM_UP, seed=0, top=1)
        except Exception as exc:  # the engine still answers; the first search pays the cost
            self.error(f"warm-up failed: {exc}")
            return
        self.send(f"info string search loaded in {time.perf_counter() - started:.1f} s")

    def ready(self) -> None:
        """Wait for the warm-up (once; then at once)."""
        self._warm.join()

    # ------------------------------------------------------------ commands
    def handle(self, line: str) -> bool:
        """One input line; False once ``quit`` is read."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        handler: Callable[[list[str]], None] | None = {
            "ugi": lambda a: self._hello("ugiok"), "uci": lambda a: self._hello("uciok"),
            "isready": self._isready,
            "uginewgame": self._newgame, "ucinewgame": self._newgame,
            "position": self._position, "go": self._go, "stop": lambda a: self._stop(),
            "query": self._query, "setoption": self._setoption,
        }.get(cmd)
        if cmd == "quit":
            self._stop()
            return False
        if handler is None:
            self.error(f"unknown command {cmd!r} (commands: ugi, uci, isready, setoption, "
                       "uginewgame, position, go, stop, query, quit)")
            return True
        try:
            handler(args)
        except BoardlabError as exc:
            self.error(f"{line.strip()!r}: {exc}")
        return True

    def _hello(self, ok: str) -> None:
        self.send(f"id name boardlab {boardlab.__version__} {self.cls.name} "
                  f"{self.start.size}x{self.start.size}")
        self.send("id author the boardlab developers")
        for option in OPTIONS:
            self.send(option.line(self.values[option.name] if option.name == "Seed" else None))
        self.send(ok)

    def _isready(self, args: list[str]) -> None:
        self.ready()
        self.send("readyok")

    def _setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            raise BoardlabError("setoption needs: setoption name <option> value <number>")
        words = args[1:]
        cut = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[:cut]), words[cut + 1:]
        option = next((o for o in OPTIONS if o.name.lower() == name.lower()), None)
        if option is None:
            raise BoardlabError(f"unknown option {name!r} (options: "
                                f"{', '.join(o.name for o in OPTIONS)})")
        text = " ".join(value)
        try:
            number = int(text)
        except ValueError:
            number = None
        if number is None or not option.low <= number <= option.high:
            raise BoardlabError(f"{option.name} takes a whole number in "
                                f"{option.low}..{option.high}, got {text!r}")
        self.values[option.name] = number  # a search already running keeps its settings

    def _newgame(self, args: list[str]) -> None:
        self._stop()
        self.game = self.start.copy()

    def _position(self, args: list[str]) -> None:
        # A new position while a search runs ends that search first (its
        # bestmove is still sent), as UCI engines do.
        self._stop()
        if not args or args[0] not in ("startpos", "fen"):
            raise BoardlabError("position needs startpos or fen <position text>")
        moves: list[str] = []
        rest = args[1:]
        if "moves" in rest:
            i = rest.index("moves")
            rest, moves = rest[:i], rest[i + 1:]
        if args[0] == "startpos":
            if rest:
                raise BoardlabError(f"unexpected {' '.join(rest)!r} after startpos")
            game = self.start.copy()
        else:
            if not rest:
                raise BoardlabError("position fen needs a position text")
            game = self.cls.from_position(" ".join(rest))
        for k, move in enumerate(moves, 1):
            try:
                game.play(move)
            except BoardlabError as exc:
                raise BoardlabError(f"move {k} ({move}): {exc}") from None
        self.game = game  # only a fully valid line replaces the position

    def _clock_keys(self) -> tuple[str, str]:
        """UCI's clock names for the first and the second color: ``w`` is the
        color named white and ``b`` black (UCI's white and USI's black both
        move first, and each keeps its color's letter); in a game without
        those colors, ``w`` is the first player's, as in UCI."""
        colors = self.game.colors
        if set(colors) == {"black", "white"}:
            return ("w", "b") if colors[0] == "white" else ("b", "w")
        return "w", "b"

    def _limit(self, args: list[str]) -> tuple[Limit | None, int | None]:
        """The budget a ``go`` line asks for (None: until stop) and its depth, if any."""
        values: dict[str, int] = {}
        infinite = False
        keys = iter(args)
        for key in keys:
            if key == "infinite":
                infinite = True
                continue
            if key not in _NUMBERS:
                raise BoardlabError(f"go: unknown parameter {key!r} (go takes "
                                    f"{', '.join(_NUMBERS)}, infinite)")
            value = next(keys, None)
            if value is None or not value.isdigit() or len(value) > 12:
                raise BoardlabError(f"go {key}: expected a whole number, got {value!r}")
            if key in values:
                raise BoardlabError(f"go: {key} given twice")
            values[key] = int(value)
        first, second = self._clock_keys()
        for p, letter in (("p1", first), ("p2", second)):
            for kind in ("time", "inc"):
                if f"{letter}{kind}" in values:
                    if f"{p}{kind}" in values:
                        raise BoardlabError(f"go: {p}{kind} and {letter}{kind} both name "
                                            f"{self.game.colors[int(p[1]) - 1]}'s clock")
                    values[f"{p}{kind}"] = values.pop(f"{letter}{kind}")
        depth = values.get("depth")
        if depth is not None and depth < 1:
            raise BoardlabError("go depth: expected at least 1")
        if infinite:
            return None, depth
        sims = values.get("nodes") or None
        secs = values["movetime"] / 1000 if values.get("movetime") else None
        mover = "p1" if self.game.current_player == 0 else "p2"
        if f"{mover}time" in values:
            clock = allot(values[f"{mover}time"], values.get(f"{mover}inc", 0),
                          values.get("movestogo"), self.values["MoveOverhead"])
            secs = clock if secs is None else min(secs, clock)
        if sims is None and secs is None:
            if depth is None:
                raise BoardlabError("go needs nodes, movetime, depth, a clock (p1time/p2time, "
                                    "wtime/btime) or infinite")
            return None, depth
        return Limit(sims, None if secs is None else min(secs, MAX_SECONDS)), depth

    def _go(self, args: list[str]) -> None:
        self._stop()
        self.ready()
        try:
            limit, depth = self._limit(args)
        except BoardlabError as exc:
            self.error(f"{' '.join(['go', *args])!r}: {exc}")
            self.send("bestmove 0000")  # every go gets its bestmove
            return
        if self.game.is_over:
            self.send("info string the game is over: no move to search")
            self.send("bestmove 0000")
            return
        self.stop.clear()
        game = self.game.copy()
        settings = dict(self.values)
        self.search = threading.Thread(target=self._run, args=(game, limit, depth, settings),
                                       daemon=True)
        self.search.start()

    def _run(self, game: Game, limit: Limit | None, depth: int | None,
             settings: dict[str, int]) -> None:
        multipv = settings["MultiPV"]
        # The principal variation stops at PV_LENGTH moves: a deeper depth
        # is reached when it does.
        deep = None if depth is None else min(depth, PV_LENGTH)
        last = [time.perf_counter()]
        best = None
        try:
            def report(a: Analysis) -> None:
                if deep is not None and a.best is not None and len(a.best.pv) >= deep:
                    self.stop.set()
                now = time.perf_counter()
                if now - last[0] >= INFO_EVERY:
                    last[0] = now
                    for line in info_lines(a, multipv):
                        self.send(line)

            an = analyse(game, limit or Limit(seconds=MAX_SECONDS), seed=settings["Seed"],
                         top=multipv, on_update=report, stop=self.stop,
                         every=_DEPTH_EVERY if deep is not None else INFO_EVERY,
                         threads=settings["Threads"])
            for line in info_lines(an, multipv):
                self.send(line)
            best = an.best.move if an.best else None
        except Exception as exc:  # a search bug must not kill the protocol loop
            self.error(f"search failed: {exc}")
        self.send(f"bestmove {best or game.legal_moves()[0]}")

    def _stop(self) -> None:
        self.stop.set()
        if self.search is not None:
            self.search.join()
            self.search = None

    def _query(self, args: list[str]) -> None:
        what = args[0] if args else ""
        g = self.game
        if what == "gameover":
            self.send(f"response {'true' if g.is_over else 'false'}")
        elif what == "p1turn":
            self.send(f"response {'true' if g.current_player == 0 else 'false'}")
        elif what == "result":
            out = g.outcome
            if out is None:
                self.send("response none")
            elif out.winner == "draw":
                self.send("response draw")
            else:
                self.send(f"response {'p1win' if out.winner == g.colors[0] else 'p2win'}")
        else:
            raise BoardlabError("query needs gameover, p1turn or result")


def run_ugi(name: str, size: int | None, options: dict[str, Any], seed: int = 0,
            stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    engine = UGIEngine(name, size, options, stdout, seed)
    for line in stdin:
        if not engine.handle(line):
            break
    engine._stop()
    return 0
