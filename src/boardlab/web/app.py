"""The web app: a FastAPI (ASGI) JSON API plus the static page that uses it.

Design in one paragraph: a stored game is its creation parameters plus its
move list (``db.Store``). The server keeps a live :class:`boardlab.Game` per
game it has touched, rebuilt by replaying the stored moves, and validates every
move with the library before committing it. All mutation happens on the event
loop; a computer move is computed in a worker process from plain data (the
move list) and applied only if the game has not changed meanwhile. Clients
learn about changes by long-polling ``GET /api/games/{id}?after=<version>``.
A game has two seats (human or computer), listed by starting color; a pie
swap flips which seat holds which color. See docs/web.md.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import html
import itertools
import multiprocessing
import random
import secrets
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

import boardlab
from boardlab.errors import GameOverError, IllegalMoveError, OptionError
from boardlab.rules import MissingRulesError, rules_text

from . import DEFAULT_DB, engines, markdown, recordio, view
from .db import GameRow, Store

STATIC = Path(__file__).parent / "static"


# ---------------------------------------------------------------- errors
class ApiError(Exception):
    """An error answered as ``{"error": {"code": ..., "message": ...}}``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


def _error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status)


class ErrorBody(BaseModel):
    code: str = Field(description="machine-readable: unknown_game, bad_option, malformed_move, "
                      "illegal_move, not_your_turn, game_over, stale, not_found, bad_request, "
                      "unknown_engine, bad_record, cannot_undo, no_rules")
    message: str = Field(description="human-readable; for moves, the library's reason")


class ErrorResponse(BaseModel):
    error: ErrorBody


ERRORS = {400: {"model": ErrorResponse}, 404: {"model": ErrorResponse},
          409: {"model": ErrorResponse}}


# ---------------------------------------------------------------- request / response models
class KomiNegotiation(BaseModel):
    """Yugo against the computer: one side names komi, the other picks a color."""
    namer: Literal["human", "computer"] = Field(
        description="who names the komi; the other side then picks a color")
    komi: int | None = Field(None, description="the komi, when the human names it")
    color: str | None = Field(None, description="the human's color, when the computer named komi")


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="implo, pilo, robble, vimbre or yugo", examples=["robble"])
    size: int | None = Field(None, description="board size 4..19; default: the game's default")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description='game options: {"pie": false}, {"komi": 6}')
    opponent: Literal["computer", "human"] = Field(
        "computer", description="computer: you against an engine; human: hot-seat on one screen")
    engine: str = Field("random", description="an engine name from GET /api/engines")
    color: str = Field("random", description="your color against the computer, or 'random'")
    komi_negotiation: KomiNegotiation | None = None


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(description="a move in the notation of RULES.md", examples=["c3"])
    ply: int | None = Field(None, description="the number of moves the client has seen; "
                            "if given and the game has moved on, 409 stale")
    color: str | None = Field(None, description="the color the client moves for; if given and "
                              "it is not that color's turn, 409 not_your_turn")


class ResignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    color: str | None = Field(None, description="hot-seat: the color that resigns "
                              "(default: the color to move); against the computer: yours")


class RecordIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(description="a record, as text or as JSON (boardlab.records formats)")


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class GameState(Loose):
    """A game as the page draws it. Other fields: see docs/web.md."""
    id: str
    game: str
    size: int
    version: str
    ply: int
    view_ply: int
    moves: list[str]
    to_move: str | None
    legal: list[str]
    over: bool
    thinking: bool


# ---------------------------------------------------------------- live games
@dataclass
class Live:
    row: GameRow
    game: boardlab.Game
    version: str = ""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None
    engine_error: str | None = None
    #: the color that made each move (parallel to row.moves)
    movers: list[str] = field(default_factory=list)


def _new_library_game(name: str, size: int, options: dict, start: str | None) -> boardlab.Game:
    if start:
        return boardlab.from_position(start)
    return boardlab.new_game(name, size, **options)


def _replay(row: GameRow, upto: int | None = None) -> boardlab.Game:
    game = _new_library_game(row.game, row.size, row.options, row.meta.get("start"))
    for move in row.moves[:upto]:
        game.play(move)
    return game


def _compute_move(name, size, options, start, moves, engine, seed) -> str:
    """Worker entry point (module level, so a process pool can pickle it)."""
    if start:
        game = boardlab.from_position(start)
        for move in moves:
            game.play(move)
        return engines.choose(engines.make_agent(engine, seed), game)
    return engines.compute_move(name, size, options, moves, engine, seed)


class Hub:
    """The server's state: the store, the live games, the engine pool."""

    def __init__(self, store: Store, engine_workers: int = 1) -> None:
        self.store = store
        self.live: dict[str, Live] = {}
        self.boot = secrets.token_hex(3)
        self.counter = itertools.count(1)
        self.engine_workers = engine_workers
        self.pool: concurrent.futures.Executor | None = None
        self._engine_names: set[str] | None = None

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self.engine_workers > 0:
            ctx = multiprocessing.get_context("spawn")
            self.pool = concurrent.futures.ProcessPoolExecutor(self.engine_workers, mp_context=ctx)
        else:
            self.pool = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="engine")

    def stop(self) -> None:
        for live in self.live.values():
            if live.task is not None:
                live.task.cancel()
        pool = self.pool
        self.pool = None
        if pool is not None:
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:  # an engine deep in thought must not hold up shutdown
                if proc.is_alive():
                    proc.terminate()
        self.store.close()

    def engine_names(self) -> set[str]:
        if self._engine_names is None:
            self._engine_names = {e["name"] for e in engines.list_engines()}
        return self._engine_names

    # ------------------------------------------------------------ loading
    def get(self, gid: str) -> Live:
        live = self.live.get(gid)
        if live is not None:
            return live
        row = self.store.load(gid)
        if row is None:
            raise ApiError(404, "not_found", f"no game {gid!r}")
        movers = []
        try:
            game = _replay(row, 0)
            for move in row.moves:
                movers.append(game.to_move)
                game.play(move)
        except boardlab.BoardlabError as exc:  # a stored game the library now refuses
            raise ApiError(409, "corrupt_game", f"game {gid} cannot be replayed: {exc}") from None
        live = Live(row=row, game=game, movers=movers)
        live.version = self._next_version()
        self.live[gid] = live
        return live

    def _next_version(self) -> str:
        return f"{self.boot}-{next(self.counter)}"

    def bump(self, live: Live) -> None:
        live.version = self._next_version()
        live.changed.set()
        live.changed = asyncio.Event()

    # ------------------------------------------------------------ seats
    @staticmethod
    def swapped(live: Live) -> int:
        return live.row.moves.count("swap") % 2

    def seat_of(self, live: Live, color: str) -> int:
        return live.game.colors.index(color) ^ self.swapped(live)

    def color_of(self, live: Live, seat: int) -> str:
        return live.game.colors[seat ^ self.swapped(live)]

    def to_move_seat(self, live: Live) -> int | None:
        if self.is_over(live):
            return None
        return self.seat_of(live, live.game.to_move)

    @staticmethod
    def is_over(live: Live) -> bool:
        return live.row.result is not None or live.game.is_over

    @staticmethod
    def vs_computer(live: Live) -> bool:
        return any(s["kind"] == "computer" for s in live.row.seats)

    def undo_count(self, live: Live) -> int | None:
        """How many moves an undo takes back now, or None if it cannot."""
        if live.row.result is not None or not live.row.moves:
            return None
        if not self.vs_computer(live):
            return 1
        game = live.game.copy()
        moves = list(live.row.moves)
        n = 0
        while moves:
            game.undo()
            moves.pop()
            n += 1
            swapped = moves.count("swap") % 2
            seat = game.colors.index(game.to_move) ^ swapped
            if live.row.seats[seat]["kind"] == "human" and not view.mid_turn(game, game.legal_moves()):
                return n
        return None

    # ------------------------------------------------------------ state
    def state(self, live: Live, ply: int | None = None) -> dict[str, Any]:
        row = live.row
        n = len(row.moves)
        if ply is None or ply >= n:
            view_ply = n
            game = live.game
        else:
            view_ply = max(0, ply)
            game = live.game.copy()
            for _ in range(n - view_ply):
                game.undo()
        v = view.game_view(game)
        over = self.is_over(live)
        seat = self.to_move_seat(live)
        your_turn = (not over and seat is not None and row.seats[seat]["kind"] == "human")
        if view_ply != n or not your_turn:
            v["legal"] = []
        result = row.result if row.result is not None else (
            None if live.game.outcome is None else view.game_view(live.game)["outcome"])
        seats = []
        for i, s in enumerate(row.seats):
            seats.append({**{key: val for key, val in s.items() if key != "token"},
                          "color": self.color_of(live, i)})
        return {
            "id": row.id, "game": row.game, "size": row.size, "options": row.options,
            "colors": list(live.game.colors), "board": view.BOARD_KIND[row.game],
            "meta": row.meta, "created": row.created, "updated": row.updated,
            "version": live.version, "seats": seats,
            "ply": n, "view_ply": view_ply, "viewing": view_ply != n,
            "moves": list(row.moves),
            "movers": list(live.movers),
            **v,
            "to_move": None if over else live.game.to_move if view_ply == n else v["to_move"],
            "to_move_seat": seat,
            "your_turn": your_turn,
            "over": over,
            "result": result,
            "result_text": _result_text(result, row, live, self),
            "thinking": live.task is not None and not live.task.done(),
            "engine_error": live.engine_error,
            "can_undo": self.undo_count(live) is not None,
            "swapped": bool(self.swapped(live)),
        }

    def summary(self, row: GameRow, n_moves: int) -> dict[str, Any]:
        return {"id": row.id, "game": row.game, "size": row.size, "options": row.options,
                "seats": row.seats, "moves": n_moves, "status": row.status,
                "result": row.result, "meta": row.meta,
                "created": row.created, "updated": row.updated}

    # ------------------------------------------------------------ changes
    def commit_move(self, live: Live, move: str) -> None:
        """Play ``move`` (library-validated) and store it; raises IllegalMoveError."""
        game = live.game
        mover = game.to_move
        game.play(move)
        canonical = game.history[-1]
        try:
            self.store.append_move(live.row.id, len(live.row.moves), canonical,
                                   "over" if game.is_over else "playing")
        except Exception:
            game.undo()
            raise
        live.row.moves.append(canonical)
        live.movers.append(mover)
        live.row.updated = time.time()
        live.engine_error = None
        self.bump(live)
        self.ensure_engine(live)

    def ensure_engine(self, live: Live) -> None:
        """If a computer is to move, start it thinking (once)."""
        if live.task is not None and not live.task.done():
            return
        seat = self.to_move_seat(live)
        if seat is None or live.engine_error is not None:
            return
        s = live.row.seats[seat]
        if s["kind"] != "computer" or self.pool is None:
            return
        live.task = asyncio.get_running_loop().create_task(
            self._engine_turn(live, live.version, s.get("engine", "random")))

    async def _engine_turn(self, live: Live, version: str, engine: str) -> None:
        row = live.row
        seed = int.from_bytes(hashlib.sha256(f"{row.id}:{len(row.moves)}".encode()).digest()[:4],
                              "big")
        loop = asyncio.get_running_loop()
        try:
            move = await loop.run_in_executor(
                self.pool, _compute_move, row.game, row.size, row.options, row.meta.get("start"),
                list(row.moves), engine, seed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the engine failed: say so, let the player retry
            if live.version == version:
                live.task = None
                live.engine_error = f"the computer ({engine}) failed: {exc}"
                self.bump(live)
            return
        if live.version != version or self.is_over(live):
            return  # undone or resigned meanwhile: the answer is stale
        live.task = None
        try:
            self.commit_move(live, move)
        except IllegalMoveError as exc:
            live.engine_error = f"the computer ({engine}) chose an illegal move: {exc}"
            self.bump(live)

    async def wait_change(self, live: Live, after: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while live.version == after:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(live.changed.wait(), left)
            except TimeoutError:
                return


def _result_text(result, row: GameRow, live: Live, hub: Hub) -> str | None:
    if result is None:
        return None
    term = result["termination"]
    if result["winner"] == "draw":
        text = f"Draw by {term}"
    else:
        winner = result["winner"]
        seat = hub.seat_of(live, winner)
        who = row.seats[seat].get("label") or winner
        if term == "resignation":
            text = f"{winner.capitalize()} ({who}) wins: {result.get('resigned', 'the other side')} resigned"
        else:
            text = f"{winner.capitalize()} ({who}) wins by {term}"
    scores = result.get("scores")
    if scores:
        text += " — " + ", ".join(f"{c} {_num(v)}" for c, v in scores.items())
    return text


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# ---------------------------------------------------------------- rules pages
def rules_markdown(name: str) -> str | None:
    """The rules page of a game, in the project's words (boardlab/rules/<game>.md)."""
    try:
        return rules_text(name)
    except MissingRulesError:
        return None


# ---------------------------------------------------------------- the app
def create_app(db_path: str | Path = DEFAULT_DB, engine_workers: int = 1) -> FastAPI:
    """The ASGI app. ``engine_workers``: processes that run the computer's moves
    (0: a thread pool instead, for tests)."""
    hub = Hub(Store(db_path), engine_workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub.start()
        try:
            yield
        finally:
            hub.stop()

    app = FastAPI(
        title="boardlab", version=boardlab.__version__, lifespan=lifespan,
        description="Play Implo, Yugo, Pilo, Vimbre and Robble in the browser. "
                    "Every move is validated by the boardlab library; errors are "
                    '`{"error": {"code", "message"}}`.',
        docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return _error_response(exc.status, exc.code, exc.message, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        details = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            details.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
        return _error_response(400, "bad_request", "; ".join(details) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error_response(exc.status_code, code, str(exc.detail))

    # ------------------------------------------------------------ catalogue
    @app.get("/api/kinds", summary="The five games: colors, sizes, options, board kind")
    async def kinds() -> list[dict[str, Any]]:
        return [view.kind_info(name) for name in boardlab.GAMES]

    @app.get("/api/engines", summary="The computer opponents on offer (boardlab.ai's registry)")
    async def engine_list() -> list[dict[str, Any]]:
        return engines.list_engines()

    @app.get("/api/yugo/komi", summary="The komi the computer names for a yugo game",
             responses=ERRORS)
    async def yugo_komi(size: int = Query(9, ge=4, le=19),
                        engine: str = Query("random")) -> dict[str, int]:
        return {"komi": engines.komi_for(engine, size)}

    # ------------------------------------------------------------ games
    @app.get("/api/games", summary="Saved games, most recently changed first")
    async def list_games() -> list[dict[str, Any]]:
        return [hub.summary(row, n) for row, n in hub.store.list()]

    @app.post("/api/games", status_code=201, response_model=GameState, responses=ERRORS,
              summary="Start a game (against the computer or hot-seat)")
    async def new_game(spec: NewGame) -> dict[str, Any]:
        try:
            cls = boardlab.game_class(spec.game)
        except OptionError as exc:
            raise ApiError(400, "unknown_game", str(exc)) from None
        options = dict(spec.options)
        meta: dict[str, Any] = {}
        colors = cls.colors
        if spec.opponent == "computer":
            if spec.engine not in hub.engine_names():
                raise ApiError(400, "unknown_engine", f"unknown engine {spec.engine!r} (engines: "
                               f"{', '.join(sorted(hub.engine_names()))})")
            human = spec.color
            neg = spec.komi_negotiation
            if neg is not None:
                if cls.name != "yugo":
                    raise ApiError(400, "bad_option", "komi negotiation is for yugo only")
                size_for = spec.size or cls.default_size
                if neg.namer == "human":
                    if neg.komi is None:
                        raise ApiError(400, "bad_option", "name the komi (komi_negotiation.komi)")
                    options["komi"] = neg.komi
                    machine = engines.color_for(spec.engine, neg.komi, size_for)
                    human = colors[1 - colors.index(machine)]
                    meta["komi"] = {"named_by": "human", "komi": neg.komi, "picked_by": "computer",
                                    "computer_color": machine}
                else:
                    komi = engines.komi_for(spec.engine, size_for)
                    options["komi"] = komi
                    if neg.color not in colors:
                        raise ApiError(400, "bad_option", f"pick a color: {' or '.join(colors)}")
                    human = neg.color
                    meta["komi"] = {"named_by": "computer", "komi": komi, "picked_by": "human",
                                    "human_color": human}
            if human == "random":
                human = random.choice(colors)
            if human not in colors:
                raise ApiError(400, "bad_option", f"color must be {' or '.join(colors)} or random, "
                               f"got {human!r}")
            label = next((e["label"] for e in engines.list_engines() if e["name"] == spec.engine),
                         spec.engine)
            seats = [{"kind": "human", "label": "You"} if c == human else
                     {"kind": "computer", "engine": spec.engine, "label": f"Computer ({label})"}
                     for c in colors]
        else:
            if spec.komi_negotiation is not None:
                if cls.name != "yugo":
                    raise ApiError(400, "bad_option", "komi negotiation is for yugo only")
                if spec.komi_negotiation.komi is not None:
                    options["komi"] = spec.komi_negotiation.komi
            seats = [{"kind": "human", "label": "Player 1"}, {"kind": "human", "label": "Player 2"}]
        try:
            game = cls(spec.size, **options)
        except OptionError as exc:
            raise ApiError(400, "bad_option", str(exc)) from None
        row = hub.store.create(cls.name, game.size, dict(game.options), seats, meta)
        live = hub.get(row.id)
        hub.ensure_engine(live)
        return hub.state(live)

    @app.get("/api/games/{gid}", response_model=GameState, responses=ERRORS,
             summary="A game's state; ?ply=N shows it after N moves; ?after=VERSION long-polls")
    async def get_game(gid: str, ply: int | None = Query(None, ge=0, description="view after N moves"),
                       after: str | None = Query(None, description="wait until the version differs"),
                       wait: float = Query(20.0, ge=0, le=60, description="longest wait, seconds")
                       ) -> dict[str, Any]:
        live = hub.get(gid)
        hub.ensure_engine(live)
        if after is not None:
            await hub.wait_change(live, after, wait)
        return hub.state(live, ply)

    @app.delete("/api/games/{gid}", status_code=204, responses=ERRORS, summary="Delete a saved game")
    async def delete_game(gid: str) -> Response:
        live = hub.live.pop(gid, None)
        if live is not None and live.task is not None:
            live.task.cancel()
        if not hub.store.delete(gid):
            raise ApiError(404, "not_found", f"no game {gid!r}")
        return Response(status_code=204)

    @app.post("/api/games/{gid}/moves", response_model=GameState, responses=ERRORS,
              summary="Play a move for the human to move")
    async def play(gid: str, body: MoveIn) -> dict[str, Any]:
        live = hub.get(gid)
        game = live.game
        if hub.is_over(live):
            raise ApiError(409, "game_over", "the game is over: "
                           + (_result_text(hub.state(live)["result"], live.row, live, hub) or ""))
        if body.ply is not None and body.ply != len(live.row.moves):
            raise ApiError(409, "stale", f"the game has moved on: {len(live.row.moves)} moves, "
                           f"you saw {body.ply}", ply=len(live.row.moves))
        seat = hub.to_move_seat(live)
        if live.row.seats[seat]["kind"] != "human":
            raise ApiError(409, "not_your_turn",
                           f"it is the computer's turn ({game.to_move}); wait for its move")
        if body.color is not None and body.color != game.to_move:
            raise ApiError(409, "not_your_turn", f"it is {game.to_move}'s turn, not {body.color}'s")
        try:
            game.string_to_action(body.move)
        except IllegalMoveError as exc:
            raise ApiError(400, "malformed_move", f"{body.move!r} is not a move: {exc.reason}",
                           move=body.move) from None
        try:
            hub.commit_move(live, body.move)
        except GameOverError as exc:
            raise ApiError(409, "game_over", exc.reason) from None
        except IllegalMoveError as exc:
            raise ApiError(400, "illegal_move", exc.reason, move=body.move) from None
        return hub.state(live)

    @app.post("/api/games/{gid}/undo", response_model=GameState, responses=ERRORS,
              summary="Take back: against the computer, back to your previous turn; hot-seat, one move")
    async def undo(gid: str) -> dict[str, Any]:
        live = hub.get(gid)
        n = hub.undo_count(live)
        if n is None:
            why = ("the game was resigned" if live.row.result is not None else
                   "nothing to undo" if not live.row.moves else "you have no move to take back yet")
            raise ApiError(409, "cannot_undo", why)
        for _ in range(n):
            live.game.undo()
            live.row.moves.pop()
            live.movers.pop()
        hub.store.truncate(gid, len(live.row.moves), "over" if live.game.is_over else "playing")
        if live.task is not None:
            live.task.cancel()
            live.task = None
        live.engine_error = None
        hub.bump(live)
        hub.ensure_engine(live)
        return hub.state(live)

    @app.post("/api/games/{gid}/resign", response_model=GameState, responses=ERRORS,
              summary="Resign (against the computer: you; hot-seat: the given color or the one to move)")
    async def resign(gid: str, body: ResignIn | None = None) -> dict[str, Any]:
        body = body or ResignIn()
        live = hub.get(gid)
        if hub.is_over(live):
            raise ApiError(409, "game_over", "the game is already over")
        colors = live.game.colors
        if hub.vs_computer(live):
            humans = [i for i, s in enumerate(live.row.seats) if s["kind"] == "human"]
            color = hub.color_of(live, humans[0])
            if body.color is not None and body.color != color:
                raise ApiError(409, "not_your_turn", f"you play {color}; you cannot resign for "
                               f"{body.color}")
        else:
            color = body.color or live.game.to_move
            if color not in colors:
                raise ApiError(400, "bad_request", f"color must be {' or '.join(colors)}")
        result = {"winner": colors[1 - colors.index(color)], "termination": "resignation",
                  "resigned": color, "scores": None}
        hub.store.set_result(gid, result, "over")
        live.row.result = result
        if live.task is not None:
            live.task.cancel()
            live.task = None
        hub.bump(live)
        return hub.state(live)

    @app.post("/api/games/{gid}/engine", response_model=GameState, responses=ERRORS,
              summary="Ask the computer to try again after an engine error")
    async def retry_engine(gid: str) -> dict[str, Any]:
        live = hub.get(gid)
        live.engine_error = None
        hub.bump(live)
        hub.ensure_engine(live)
        return hub.state(live)

    # ------------------------------------------------------------ records
    def _players(live: Live) -> dict[str, str]:
        return {hub.color_of(live, i): s.get("name") or s.get("label") or "?"
                for i, s in enumerate(live.row.seats)}

    @app.get("/api/games/{gid}/record", responses=ERRORS,
             summary="Download the game record (format=text or json)")
    async def record(gid: str, format: Literal["text", "json"] = "text") -> Response:
        live = hub.get(gid)
        resigned = (live.row.result or {}).get("resigned")
        date = time.strftime("%Y.%m.%d", time.localtime(live.row.created))
        try:
            if format == "json":
                body = recordio.to_json(live.game, _players(live), resigned, date)
            else:
                body = recordio.to_text(live.game, _players(live), resigned, date)
        except boardlab.BoardlabError as exc:
            raise ApiError(409, "bad_record", str(exc)) from None
        ext, media = ("json", "application/json") if format == "json" else ("txt", "text/plain")
        filename = f"{live.row.game}-{live.row.id}.{ext}"
        return PlainTextResponse(body, media_type=f"{media}; charset=utf-8",
                                 headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @app.post("/api/records", status_code=201, response_model=GameState, responses=ERRORS,
              summary="Load a record (text or JSON) as a stored game to review (or play on, hot-seat)")
    async def load_record(body: RecordIn) -> dict[str, Any]:
        try:
            imp = recordio.parse(body.text)
        except (recordio.RecordProblem, boardlab.BoardlabError) as exc:
            raise ApiError(400, "bad_record", str(exc)) from None
        players = imp.players or {}
        game_cls = boardlab.game_class(imp.game)
        # players name colors after any swap; seats are by starting color
        swapped = imp.moves.count("swap") % 2
        seats = []
        for i in range(len(game_cls.colors)):
            now = game_cls.colors[i ^ swapped]
            name = players.get(now) or "?"
            seats.append({"kind": "human", "label": name if name != "?" else f"Player {i + 1}"})
        meta: dict[str, Any] = {"source": "record"}
        if imp.start:
            meta["start"] = imp.start
        status = "over" if imp.result else "playing"
        row = hub.store.create(imp.game, imp.size, imp.options, seats, meta, imp.moves,
                               imp.result, status)
        live = hub.get(row.id)
        if live.game.is_over:
            hub.store.set_result(row.id, imp.result, "over")
        return hub.state(live, 0)

    # ------------------------------------------------------------ rules
    @app.get("/api/rules/{name}", responses=ERRORS, summary="A game's rules in the project's words")
    async def rules(name: str) -> dict[str, str]:
        try:
            cls = boardlab.game_class(name)
        except OptionError as exc:
            raise ApiError(404, "unknown_game", str(exc)) from None
        text = rules_markdown(cls.name)
        if text is None:
            raise ApiError(404, "no_rules", f"no rules page for {cls.name} yet")
        return {"game": cls.name, "markdown": text, "html": markdown.to_html(text)}

    @app.get("/rules/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def rules_page(name: str) -> HTMLResponse:
        data = await rules(name)
        return HTMLResponse(
            "<!doctype html><html lang=en><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{data['game'].capitalize()} rules</title>"
            "<link rel=stylesheet href='/static/style.css'>"
            f"<body class=rules-page><main class=rules>{data['html']}"
            "<p><a href='/'>Back to boardlab</a></p></main></body></html>")

    # ------------------------------------------------------------ API reference
    @app.get("/api", response_class=HTMLResponse, include_in_schema=False)
    async def api_reference() -> HTMLResponse:
        """The endpoints, from the OpenAPI document, as a page that needs no CDN."""
        rows = []
        for path, ops in app.openapi()["paths"].items():
            for method, op in ops.items():
                rows.append(f"<tr><td><code>{method.upper()}</code></td><td><code>{html.escape(path)}"
                            f"</code></td><td>{html.escape(op.get('summary', ''))}</td></tr>")
        return HTMLResponse(
            "<!doctype html><html lang=en><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            "<title>boardlab API</title><link rel=stylesheet href='/static/style.css'>"
            "<body class=rules-page><main class=rules><h1>boardlab JSON API</h1>"
            "<p>Machine-readable: <a href='/api/openapi.json'>/api/openapi.json</a> (OpenAPI). "
            "Interactive: <a href='/api/docs'>/api/docs</a> (Swagger UI; loads its scripts from "
            "a CDN). Errors are <code>{\"error\": {\"code\", \"message\"}}</code>. "
            "See docs/web.md.</p><table><thead><tr><th>method</th><th>path</th><th>what</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
            "<p><a href='/'>Back to boardlab</a></p></main></body></html>")

    # ------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
