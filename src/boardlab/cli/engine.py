"""``boardlab engine``: the engines over a text protocol on stdin/stdout.

Two modes:

* UGI (the default), the UCI generalisation used for non-chess games, so any
  UGI-speaking GUI or match runner can drive boardlab's search::

      ugi                          -> id name ..., id author ..., ugiok
      isready                      -> readyok (at once, even while searching)
      uginewgame                   -> back to the start position
                                   (this, position and go first end a running search)
      position startpos [moves M ...]
      position fen <position text> [moves M ...]   (our position text, docs/positions.md)
      go nodes N | movetime MS | p1time MS p2time MS [p1inc MS p2inc MS] | infinite
                                   -> info ... lines while searching, then bestmove M
      stop                         -> ends the search (bestmove follows)
      query gameover|p1turn|result -> response true|false, response p1win|p2win|draw|none
      quit

  Moves are in the game's notation. A malformed or illegal line is answered
  with ``info string error: ...`` naming what was wrong, and changes nothing.

* ``--jsonl``: an analysis engine in the manner of KataGo's: one JSON request
  per line, one JSON answer per analysed turn (see docs/analysis.md).
"""

from __future__ import annotations

import json
import math
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

import boardlab

from ..ai.analysis import Analysis, analyse
from ..ai.limit import Limit
from ..core.game import Game
from ..errors import BoardlabError

#: A move's share of the remaining clock under ``go p1time ... p2time ...``.
CLOCK_SHARE = 1 / 30
_INFO_EVERY = 0.5


def _cp(winrate: float) -> int:
    """A win probability as a centipawn-like score (the logistic UCI GUIs expect)."""
    p = min(max(winrate, 1e-4), 1 - 1e-4)
    return round(400 * math.log10(p / (1 - p)))


def info_line(an: Analysis, multipv: bool = False) -> list[str]:
    """``info`` lines for an analysis: the best line, or one per candidate."""
    ms = max(1, round(an.seconds * 1000))
    rows = an.candidates if multipv else an.candidates[:1]
    out = []
    for k, c in enumerate(rows, 1):
        head = f"info multipv {k} " if multipv else "info "
        out.append(f"{head}nodes {an.visits} time {ms} nps {round(an.visits * 1000 / ms)} "
                   f"score cp {_cp(c.winrate)} winrate {c.winrate:.4f} visits {c.visits} "
                   f"pv {' '.join(c.pv)}")
    if not rows:
        out.append(f"info nodes {an.visits} time {ms}")
    return out


class UGIEngine:
    """The protocol state: the game, the running search, the output."""

    def __init__(self, name: str, size: int | None, options: dict[str, Any],
                 out: IO[str], seed: int = 0) -> None:
        self.cls = boardlab.game_class(name)
        self.size = size
        self.options = options
        self.start = self.cls(size, **options)  # OptionError before the loop starts
        self.game = self.start.copy()
        self.out = out
        self.seed = seed
        self.lock = threading.Lock()
        self.search: threading.Thread | None = None
        self.stop = threading.Event()

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, what: str) -> None:
        self.send(f"info string error: {what}")

    # ------------------------------------------------------------ commands
    def handle(self, line: str) -> bool:
        """One input line; False once ``quit`` is read."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        handler: Callable[[list[str]], None] | None = {
            "ugi": self._ugi, "isready": lambda a: self.send("readyok"),
            "uginewgame": self._newgame, "position": self._position, "go": self._go,
            "stop": lambda a: self._stop(), "query": self._query,
            "setoption": lambda a: self.error("this engine has no options"),
        }.get(cmd)
        if cmd == "quit":
            self._stop()
            return False
        if handler is None:
            self.error(f"unknown command {cmd!r} (commands: ugi, isready, uginewgame, "
                       "position, go, stop, query, quit)")
            return True
        try:
            handler(args)
        except BoardlabError as exc:
            self.error(f"{line.strip()!r}: {exc}")
        return True

    def _ugi(self, args: list[str]) -> None:
        self.send(f"id name boardlab {boardlab.__version__} {self.cls.name} "
                  f"{self.start.size}x{self.start.size}")
        self.send("id author the boardlab developers")
        self.send("ugiok")

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

    def _limit(self, args: list[str]) -> Limit | None:
        """The budget a ``go`` line asks for (None: until stop)."""
        values: dict[str, int] = {}
        keys = iter(args)
        for key in keys:
            if key == "infinite":
                values[key] = 1
                continue
            value = next(keys, None)
            if key not in ("nodes", "movetime", "p1time", "p2time", "p1inc", "p2inc"):
                raise BoardlabError(f"go: unknown parameter {key!r}")
            if value is None or not value.isdigit() or len(value) > 12:
                raise BoardlabError(f"go {key}: expected a whole number, got {value!r}")
            values[key] = int(value)
        if "infinite" in values:
            return None
        sims = values.get("nodes")
        secs = values.get("movetime", 0) / 1000 or None
        mover = "p1" if self.game.current_player == 0 else "p2"
        if f"{mover}time" in values:
            clock = values[f"{mover}time"] * CLOCK_SHARE + values.get(f"{mover}inc", 0) * 0.8
            secs = max(0.01, min(secs or clock, clock) / 1000)
        if sims is None and secs is None:
            raise BoardlabError("go needs nodes, movetime, p1time/p2time or infinite")
        return Limit(sims or None, secs)

    def _go(self, args: list[str]) -> None:
        self._stop()
        if self.game.is_over:
            raise BoardlabError("the game is over: no move to search")
        limit = self._limit(args)
        self.stop.clear()
        game = self.game.copy()
        self.search = threading.Thread(target=self._run, args=(game, limit), daemon=True)
        self.search.start()

    def _run(self, game: Game, limit: Limit | None) -> None:
        try:
            def report(a: Analysis) -> None:
                for line in info_line(a):
                    self.send(line)

            an = analyse(game, limit or Limit(seconds=24 * 3600.0), seed=self.seed,
                         on_update=report, every=_INFO_EVERY, stop=self.stop)
            for x in info_line(an):
                self.send(x)
            best = an.best.move if an.best else game.legal_moves()[0]
            self.send(f"bestmove {best}")
        except Exception as exc:  # a search bug must not kill the protocol loop
            self.error(f"search failed: {exc}")

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


# ---------------------------------------------------------------- JSON lines
def answer_request(req: Any, default_game: str | None, seed: int = 0) -> list[dict]:
    """The answers to one JSON-lines request (a list: one per analysed turn).

    A request: ``{"id": ..., "game": "robble", "size": 7, "options": {...},
    "position": <position text>?, "moves": ["c3", ...]?, "turns": [0, 2]?,
    "limit": "0.5s" | "500", "top": 5}``. Turn k is the position after the
    first k moves; default: after all of them."""
    if not isinstance(req, dict):
        raise BoardlabError("a request must be a JSON object")
    rid = req.get("id")
    name = req.get("game", default_game)
    if not isinstance(name, str):
        raise BoardlabError("the request names no game (\"game\": \"robble\")")
    options = req.get("options", {})
    if not isinstance(options, dict):
        raise BoardlabError("\"options\" must be an object")
    if "position" in req:
        if not isinstance(req["position"], str):
            raise BoardlabError("\"position\" must be a position text")
        start = boardlab.game_class(name).from_position(req["position"])
    else:
        start = boardlab.new_game(name, req.get("size"), **options)
    moves = req.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BoardlabError("\"moves\" must be a list of move strings")
    turns = req.get("turns", [len(moves)])
    if not isinstance(turns, list) or not all(type(t) is int and 0 <= t <= len(moves)
                                              for t in turns):
        raise BoardlabError(f"\"turns\" must be a list of whole numbers in 0..{len(moves)}")
    limit_text = req.get("limit", "0.5s")
    if not isinstance(limit_text, str | int) or isinstance(limit_text, bool):
        raise BoardlabError("\"limit\" must be a budget such as \"0.5s\" or \"500\"")
    limit = Limit.parse(str(limit_text))
    top = req.get("top", 5)
    if type(top) is not int or not 1 <= top <= 50:
        raise BoardlabError("\"top\" must be a whole number in 1..50")
    games = [start.copy()]
    for k, move in enumerate(moves, 1):
        g = games[-1].copy()
        try:
            g.play(move)
        except BoardlabError as exc:
            raise BoardlabError(f"move {k} ({move}): {exc}") from None
        games.append(g)
    out = []
    for t in turns:
        g = games[t]
        if g.is_over:
            assert g.outcome is not None
            out.append({"id": rid, "turn": t, "over": True, "winner": g.outcome.winner})
            continue
        an = analyse(g, limit, seed=seed + t, top=top)
        out.append({"id": rid, "turn": t, **an.to_json()})
    return out


def run_jsonl(default_game: str | None, seed: int = 0, stdin: IO[str] = sys.stdin,
              stdout: IO[str] = sys.stdout) -> int:
    for n, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as exc:
            answers = [{"id": None, "error": f"line {n}: not JSON: {exc.msg} at column {exc.colno}"}]
        else:
            try:
                answers = answer_request(req, default_game, seed)
            except BoardlabError as exc:
                rid = req.get("id") if isinstance(req, dict) else None
                answers = [{"id": rid, "error": f"line {n}: {exc}"}]
        for a in answers:
            stdout.write(json.dumps(a) + "\n")
        stdout.flush()
    return 0
