"""``boardlab engine --jsonl``: the analysis engine, in KataGo's analysis protocol.

One JSON query per line on stdin, one JSON answer per analysed turn on
stdout, with KataGo's field names wherever a field means the same thing
(``id``, ``moves``, ``initialPlayer``, ``analyzeTurns``, ``maxVisits``,
``komi``, ``boardXSize``/``boardYSize``, ``includeOwnership``,
``includePolicy``, ``reportDuringSearchEvery``, ``priority``/``priorities``;
``action`` queries ``query_version``, ``clear_cache``, ``terminate``) and
answers shaped like KataGo's (``turnNumber``, ``isDuringSearch``,
``moveInfos``, ``rootInfo``, ``ownership``, ``policy``). boardlab's own
fields: ``game``, ``size``, ``options``, ``position``, ``limit``, ``top``.
A field boardlab does not know, or a KataGo field it cannot honour, is
refused with an error naming it. docs/analysis.md has the whole mapping.

As KataGo's, the protocol is asynchronous: queries are read (and checked)
as they come, their turns are searched one at a time in priority order, and
``terminate`` stops queued or running ones. When stdin closes, the engine
finishes what is queued, then exits.
"""

from __future__ import annotations

import itertools
import json
import math
import queue
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any

import boardlab

from ..ai.analysis import Analysis, analyse
from ..ai.limit import Limit
from ..core.game import Game
from ..errors import BoardlabError

#: The budget of a turn when the query gives neither ``maxVisits`` nor ``limit``.
DEFAULT_LIMIT = "0.5s"
#: Candidates per answer when the query gives no ``top``.
DEFAULT_TOP = 5
MAX_TOP = 1000

#: Every field of an analysis query (KataGo's names first, then boardlab's).
#: A game's option may also be given at the top level, as KataGo gives its
#: ``komi``: every game's option names are fields too (:data:`OPTION_FIELDS`).
OPTION_FIELDS = tuple(dict.fromkeys(k for g in boardlab.GAMES
                                    for k in boardlab.game_class(g).option_defaults))
FIELDS = ("id", "moves", "initialPlayer", "analyzeTurns", "maxVisits", *OPTION_FIELDS,
          "boardXSize", "boardYSize", "includeOwnership", "includePolicy",
          "reportDuringSearchEvery", "priority", "priorities", "game", "size", "options",
          "position", "limit", "top")
#: The fields of each ``action`` query.
ACTIONS = {"query_version": ("id", "action"), "clear_cache": ("id", "action"),
           "terminate": ("id", "action", "terminateId", "turnNumbers")}
#: KataGo's query fields boardlab cannot honour, and why (the error says it).
UNSUPPORTED = {
    "rules": "each game has one rule set; a game's options go in \"options\"",
    "initialStones": "set up a position with \"position\" (a position text, docs/positions.md)",
    "whiteHandicapBonus": "these games have no handicap stones",
    "rootPolicyTemperature": "the search has no policy to flatten",
    "rootFpuReductionMax": "the search has no policy-based first-play urgency",
    "includeMovesOwnership": "ownership is given for the analysed position only",
    "includePVVisits": "principal variations do not carry their visits",
    "avoidMoves": "the search cannot be told to avoid moves",
    "allowMoves": "the search cannot be restricted to some moves",
    "overrideSettings": "the search has no settings to override per query",
}
#: Fields of boardlab's earlier query format that now go by KataGo's name.
RENAMED = {"turns": "analyzeTurns"}


class QueryError(BoardlabError):
    """A query refused; ``field`` names the field at fault, if one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass
class Task:
    """One turn of one query, waiting for or under search."""

    id: Any
    turn: int
    game: Game
    limit: Limit
    top: int
    seed: int
    ownership: bool
    policy: bool
    every: float | None
    priority: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    terminated: bool = False


# ---------------------------------------------------------------- reading a query
def _whole(req: dict, key: str, low: int, high: int) -> int | None:
    value = req.get(key)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise QueryError(f"\"{key}\" must be a whole number in {low}..{high}, got {value!r}", key)
    return value


def _flag(req: dict, key: str) -> bool:
    value = req.get(key, False)
    if type(value) is not bool:
        raise QueryError(f"\"{key}\" must be true or false, got {value!r}", key)
    return value


def _player(game: Game, text: Any, where: str, key: str) -> None:
    """Check that ``text`` (a color's name or its first letter, as KataGo's
    "B"/"W") names the color to move in ``game``."""
    mover = game.to_move
    if not isinstance(text, str) or text.lower() not in {c.lower() for c in game.colors} | \
            {c[0].lower() for c in game.colors}:
        raise QueryError(f"{where}: the player must be a color of {game.name} "
                         f"({', '.join(game.colors)}, or its first letter), got {text!r}", key)
    if mover is None or text.lower() not in (mover.lower(), mover[0].lower()):
        raise QueryError(f"{where}: {text!r} is not to move ({mover or 'nobody'} is)", key)


def _start(req: dict, default_game: str | None) -> Game:
    name = req.get("game", default_game)
    if not isinstance(name, str):
        raise QueryError("the query names no game (\"game\": \"robble\", or "
                         "boardlab engine GAME --jsonl)", "game")
    cls = boardlab.game_class(name)
    options = req.get("options", {})
    if not isinstance(options, dict):
        raise QueryError("\"options\" must be an object", "options")
    options = dict(options)
    for key in OPTION_FIELDS:
        if key not in req:
            continue
        if key not in cls.option_defaults:
            known = ", ".join(cls.option_defaults) or "none"
            raise QueryError(f"\"{key}\": {cls.name} has no such option (options: {known})",
                             key)
        if key in options:
            raise QueryError(f"\"{key}\" is given twice (top level and in \"options\")", key)
        options[key] = req[key]
    size = req.get("size")
    xy = [req[k] for k in ("boardXSize", "boardYSize") if k in req]
    if xy:
        if len(xy) == 1 or xy[0] != xy[1]:
            raise QueryError("boardXSize and boardYSize must both be given and equal "
                             "(the boards are square)", "boardXSize")
        if size is not None and size != xy[0]:
            raise QueryError(f"\"size\" {size!r} and boardXSize {xy[0]!r} disagree", "size")
        size = xy[0]
    if "position" in req:
        if not isinstance(req["position"], str):
            raise QueryError("\"position\" must be a position text", "position")
        if options or size is not None:
            raise QueryError("a \"position\" text carries the size and options: give no "
                             "\"size\", \"options\" or option fields with it", "position")
        return cls.from_position(req["position"])
    if size is not None and type(size) is not int:
        raise QueryError(f"\"size\" must be a whole number, got {size!r}", "size")
    return cls(size, **options)


def _games(req: dict, start: Game) -> list[Game]:
    """The positions of the query: turn k after the first k moves."""
    moves = req.get("moves", [])
    if not isinstance(moves, list):
        raise QueryError("\"moves\" must be a list of moves (\"c3\", or KataGo's "
                         "[player, move] pairs)", "moves")
    if "initialPlayer" in req:
        _player(start, req["initialPlayer"], "initialPlayer", "initialPlayer")
    games = [start.copy()]
    for k, item in enumerate(moves, 1):
        g = games[-1].copy()
        move = item
        if isinstance(item, list):
            if len(item) != 2 or not isinstance(item[1], str):
                raise QueryError(f"move {k}: a pair must be [player, move], got {item!r}", "moves")
            _player(g, item[0], f"move {k}", "moves")
            move = item[1]
        if not isinstance(move, str):
            raise QueryError(f"move {k}: expected a move text or a [player, move] pair, "
                             f"got {item!r}", "moves")
        try:
            g.play(move)
        except BoardlabError as exc:
            raise QueryError(f"move {k} ({move}): {exc}", "moves") from None
        games.append(g)
    return games


def _limit(req: dict) -> Limit:
    text = req.get("limit", DEFAULT_LIMIT if "maxVisits" not in req else None)
    visits = _whole(req, "maxVisits", 1, 100_000_000)
    if text is None:
        assert visits is not None
        return Limit(visits)
    if not isinstance(text, str | int) or isinstance(text, bool):
        raise QueryError("\"limit\" must be a budget such as \"0.5s\", \"500\" or \"500+2s\"", "limit")
    try:
        limit = Limit.parse(str(text))
    except BoardlabError as exc:
        raise QueryError(str(exc), "limit") from None
    if visits is not None:
        if limit.simulations is not None:
            raise QueryError("\"maxVisits\" and a \"limit\" in simulations both set the visits",
                             "maxVisits")
        limit = Limit(visits, limit.seconds)
    return limit


def read_query(req: Any, default_game: str | None, seed: int = 0
               ) -> tuple[list[Task], list[dict]]:
    """The tasks of an analysis query (one per turn, in ``analyzeTurns``
    order) and the answers of its turns that need no search (a finished game)."""
    if not isinstance(req, dict):
        raise QueryError("a query must be a JSON object")
    unknown = [k for k in req if k not in FIELDS]
    for key in unknown:
        if key in UNSUPPORTED:
            raise QueryError(f"\"{key}\" is not supported: {UNSUPPORTED[key]}", key)
        if key in RENAMED:
            raise QueryError(f"\"{key}\" is now \"{RENAMED[key]}\" (KataGo's name)", key)
    if unknown:
        raise QueryError(f"unknown field{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(repr(k) for k in unknown)} (fields: {', '.join(FIELDS)}; "
                         f"or an \"action\" query: {', '.join(ACTIONS)})", unknown[0])
    games = _games(req, _start(req, default_game))
    key = "analyzeTurns"
    turns = req.get(key, [len(games) - 1])
    if not isinstance(turns, list) or not all(type(t) is int and 0 <= t < len(games) for t in turns):
        raise QueryError(f"\"{key}\" must be a list of whole numbers in 0..{len(games) - 1}", key)
    priority = _whole(req, "priority", -2**31, 2**31 - 1) or 0
    priorities = req.get("priorities")
    if priorities is not None and (not isinstance(priorities, list) or len(priorities) != len(turns)
                                   or not all(type(p) is int for p in priorities)):
        raise QueryError(f"\"priorities\" must be a list of {len(turns)} whole numbers, one per "
                         "turn of analyzeTurns", "priorities")
    every = req.get("reportDuringSearchEvery")
    if every is not None and (type(every) not in (int, float) or not 0 < every <= 3600):
        raise QueryError("\"reportDuringSearchEvery\" must be a number of seconds in (0, 3600]",
                         "reportDuringSearchEvery")
    limit = _limit(req)
    top = _whole(req, "top", 1, MAX_TOP) or DEFAULT_TOP
    ownership, policy = _flag(req, "includeOwnership"), _flag(req, "includePolicy")
    rid = req.get("id")
    tasks: list[Task] = []
    done: list[dict] = []
    for i, t in enumerate(turns):
        g = games[t]
        if g.is_over:
            assert g.outcome is not None
            done.append({"id": rid, "turnNumber": t, "isDuringSearch": False, "gameOver": True,
                         "winner": g.outcome.winner})
            continue
        tasks.append(Task(rid, t, g, limit, top, seed + t, ownership, policy,
                          None if every is None else float(every),
                          priorities[i] if priorities is not None else priority))
    return tasks, done


# ---------------------------------------------------------------- answers
def _ownership(game: Game, seed: int) -> list[float] | None:
    """KataGo's ``ownership``: one value per point in [-1, 1], row by row from
    the top-left corner (the last rank's a-file) to the bottom-right, +1 the
    color to move's."""
    from ..fast.ownership import ownership
    values = ownership(game, seed=seed)
    if values is None:
        return None
    sign = 1.0 if game.current_player == 0 else -1.0
    rows = (sign * values).reshape(game.size, game.size)[::-1]
    return [round(float(v), 4) for v in rows.ravel()]


def _policy(game: Game) -> dict[str, float]:
    """The search's prior per legal move: uniform (it has no policy network)."""
    moves = game.legal_moves()
    return {m: round(1 / len(moves), 6) for m in moves}


def answer(task: Task, an: Analysis, during: bool, extra: dict[str, Any]) -> dict[str, Any]:
    """One answer in KataGo's shape (winrates from the color to move's side)."""
    infos = []
    for order, c in enumerate(an.candidates):
        info: dict[str, Any] = {"move": c.move, "order": order, "visits": c.visits,
                                "winrate": round(c.winrate, 4), "pv": list(c.pv),
                                "wins": {k: round(v, 4) for k, v in c.wins.items()}}
        if c.proven or c.lost:
            info["proven"] = "win" if c.proven else "loss"
            if c.plies_to_end is not None:
                info["pliesToEnd"] = c.plies_to_end
        infos.append(info)
    return {"id": task.id, "turnNumber": task.turn, "isDuringSearch": during, "moveInfos": infos,
            "rootInfo": {"winrate": round(an.winrate, 4), "visits": an.visits,
                         "currentPlayer": an.to_move, "position": an.position,
                         "wins": {k: round(v, 4) for k, v in an.wins.items()},
                         "seconds": round(an.seconds, 3)},
            **extra}


class AnalysisEngine:
    """The reader (the caller's thread) and one search worker."""

    def __init__(self, default_game: str | None, seed: int, out: IO[str]) -> None:
        self.default_game = default_game
        self.seed = seed
        self.out = out
        self.lock = threading.Lock()  # one writer at a time; guards ``pending`` too
        self.pending: list[Task] = []  # queued or running
        self.queue: queue.PriorityQueue = queue.PriorityQueue()
        self.order = itertools.count()
        self.worker = threading.Thread(target=self._work, daemon=True)
        self.worker.start()

    def write(self, obj: dict[str, Any]) -> None:
        with self.lock:
            self.out.write(json.dumps(obj) + "\n")
            self.out.flush()

    # ------------------------------------------------------------ the reader
    def line(self, n: int, text: str) -> None:
        if not text.strip():
            return
        try:
            req = json.loads(text)
        except json.JSONDecodeError as exc:
            self.write({"id": None, "error": f"line {n}: not JSON: {exc.msg} at column {exc.colno}"})
            return
        rid = req.get("id") if isinstance(req, dict) else None
        try:
            if isinstance(req, dict) and "action" in req:
                self._action(req)
                return
            tasks, done = read_query(req, self.default_game, self.seed)
        except BoardlabError as exc:
            error: dict[str, Any] = {"id": rid, "error": f"line {n}: {exc}"}
            if getattr(exc, "field", None):
                error["field"] = exc.field  # type: ignore[attr-defined]
            self.write(error)
            return
        for d in done:
            self.write(d)
        with self.lock:
            self.pending.extend(tasks)
        for task in tasks:
            self.queue.put((-task.priority, next(self.order), task))

    def _action(self, req: dict) -> None:
        action = req["action"]
        if action not in ACTIONS:
            raise QueryError(f"unknown action {action!r} (actions: {', '.join(ACTIONS)})", "action")
        extra = [k for k in req if k not in ACTIONS[action]]
        if extra:
            raise QueryError(f"{action} takes no field{'s' if len(extra) > 1 else ''} "
                             f"{', '.join(repr(k) for k in extra)} (its fields: "
                             f"{', '.join(ACTIONS[action])})", extra[0])
        if action == "query_version":
            self.write({**req, "version": boardlab.__version__, "git_hash": "<omitted>"})
        elif action == "clear_cache":
            self.write(req)  # nothing to clear: every turn is searched in a fresh tree
        else:
            self._terminate(req)

    def _terminate(self, req: dict) -> None:
        if "terminateId" not in req:
            raise QueryError("terminate needs \"terminateId\" (the id of the queries to stop)",
                             "terminateId")
        turns = req.get("turnNumbers")
        if turns is not None and (not isinstance(turns, list)
                                  or not all(type(t) is int for t in turns)):
            raise QueryError("\"turnNumbers\" must be a list of whole numbers", "turnNumbers")
        with self.lock:
            for task in self.pending:
                if task.id == req["terminateId"] and (turns is None or task.turn in turns):
                    task.terminated = True
                    task.stop.set()
        self.write(req)

    def finish(self) -> None:
        """Stdin closed: search what is queued, then stop the worker."""
        self.queue.put((math.inf, next(self.order), None))
        self.worker.join()

    # ------------------------------------------------------------ the worker
    def _work(self) -> None:
        while True:
            _, _, task = self.queue.get()
            if task is None:
                return
            try:
                self._search(task)
            except Exception as exc:  # a search bug must not stop the other queries
                self.write({"id": task.id, "turnNumber": task.turn, "error": f"search failed: {exc}"})
            with self.lock:
                self.pending.remove(task)

    def _search(self, task: Task) -> None:
        no_results = {"id": task.id, "turnNumber": task.turn, "isDuringSearch": False,
                      "noResults": True}
        if task.terminated:
            self.write(no_results)
            return
        extra: dict[str, Any] = {}
        if task.ownership:
            owned = _ownership(task.game, task.seed)
            if owned is None:
                self.write({"id": task.id, "turnNumber": task.turn, "field": "includeOwnership",
                            "warning": f"{task.game.name} has no ownership: its score is not a "
                                       "count of points (docs/analysis.md)"})
            else:
                extra["ownership"] = owned
        if task.policy:
            extra["policy"] = _policy(task.game)
        report = None
        if task.every is not None:
            every = task.every
            due = [time.perf_counter() + every]

            def report(an: Analysis) -> None:
                now = time.perf_counter()
                if now >= due[0]:
                    due[0] = now + every
                    self.write(answer(task, an, True, extra))

        an = analyse(task.game, task.limit, seed=task.seed, top=task.top, on_update=report,
                     every=task.every or 0.25, stop=task.stop)
        self.write(no_results if an.visits == 0 else answer(task, an, False, extra))


def run_jsonl(default_game: str | None, seed: int = 0, stdin: IO[str] = sys.stdin,
              stdout: IO[str] = sys.stdout) -> int:
    engine = AnalysisEngine(default_game, seed, stdout)
    for n, line in enumerate(stdin, 1):
        engine.line(n, line)
    engine.finish()
    return 0
