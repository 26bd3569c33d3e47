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
import json
import multiprocessing
import random
import secrets
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

import boardlab
from boardlab.errors import GameOverError, IllegalMoveError, OptionError
from boardlab.rules import MissingRulesError, rules_text

from . import DEFAULT_DB, engines, markdown, online, recordio, view
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
    opponent: Literal["computer", "human", "online"] = Field(
        "computer", description="computer: you against an engine; human: hot-seat on one screen; "
        "online: a friend by link (the answer carries your link, the invite and a spectator link)")
    name: str | None = Field(None, max_length=200, description="online: your display name")
    time_control: TimeControl | None = Field(None, description="online: an enforced clock")
    engine: str = Field("random", description="an engine name from GET /api/engines")
    color: str = Field("random", description="your color against the computer, or 'random'")
    komi_negotiation: KomiNegotiation | None = None


class TimeControl(BaseModel):
    """Online: a clock the server enforces. It starts with the first move."""
    model_config = ConfigDict(extra="forbid")
    kind: Literal["move", "total"] = Field(
        description="move: at most `seconds` per move; total: `seconds` for the whole game, "
                    "plus `increment` after each turn")
    seconds: float = Field(gt=0, le=7 * 86400)
    increment: float = Field(0, ge=0, le=3600)


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(max_length=200, description="a move in the notation of RULES.md",
                      examples=["c3"])
    ply: int | None = Field(None, description="the number of moves the client has seen; "
                            "if given and the game has moved on, 409 stale")
    color: str | None = Field(None, description="the color the client moves for; if given and "
                              "it is not that color's turn, 409 not_your_turn")


class ResignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    color: str | None = Field(None, description="hot-seat: the color that resigns "
                              "(default: the color to move); against the computer: yours")


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accept: bool = Field(description="online: accept (true) or decline the opponent's request")


class KomiPickIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    color: str = Field(max_length=20, description="online yugo: the color the picker takes")


class NameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="online: your display name")


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
    #: online play: every change to this game is made holding this lock
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: online play: open WebSockets per seat, and when each seat last polled
    sockets: dict[int, int] = field(default_factory=dict)
    polled: dict[int, float] = field(default_factory=dict)
    clock_task: asyncio.Task | None = None
    #: online play: a rate limit per seat for the HTTP actions
    limits: dict[int, online.RateLimit] = field(default_factory=dict)


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
            if live.clock_task is not None:
                live.clock_task.cancel()
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
        live = self._get(gid)
        if live.row.meta.get("clock"):
            self.check_flag(live)
            self.ensure_clock(live)
        return live

    def _get(self, gid: str) -> Live:
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

    # ------------------------------------------------------------ online seats
    @staticmethod
    def is_online(live: Live) -> bool:
        return bool(live.row.meta.get("online"))

    def identify(self, live: Live, token: str | None) -> int | str | None:
        """Who holds ``token``: a seat index, "spectator", or None for a game that is not
        online (no tokens). Raises 401 missing_token / 403 wrong_token."""
        if not self.is_online(live):
            return None
        if not token:
            raise ApiError(401, "missing_token", "this game is played by link: send the token "
                           "from your link in the X-Seat-Token header")
        if len(token) > online.MAX_TOKEN:
            raise ApiError(403, "wrong_token", "that token does not belong to this game")
        found: int | str | None = None
        for i, seat in enumerate(live.row.seats):
            if online.matches(seat.get("token_hash"), token):
                found = i
        if found is None and online.matches(live.row.meta.get("spectator_hash"), token):
            found = "spectator"
        if found is None:
            raise ApiError(403, "wrong_token", "that token does not belong to this game")
        return found

    def need_seat(self, live: Live, token: str | None) -> int | None:
        """The seat that may change an online game (None: not online)."""
        who = self.identify(live, token)
        if who == "spectator":
            raise ApiError(403, "spectator", "a spectator link can only watch")
        if who is not None:
            limit = live.limits.setdefault(who, online.RateLimit())
            if not limit.allow():
                raise ApiError(429, "rate_limited", "too many requests; slow down")
        return who  # type: ignore[return-value]

    def need_online_seat(self, live: Live, token: str | None, refusal: str) -> int:
        """:meth:`need_seat` for what only an online game has; ``refusal``
        is the 400 message for a game that is not online."""
        me = self.need_seat(live, token)
        if me is None:
            raise ApiError(400, "bad_request", refusal)
        return me

    def mover_seats(self, live: Live) -> list[int]:
        """The seat that made each move."""
        out, swaps = [], 0
        for color, move in zip(live.movers, live.row.moves, strict=True):
            out.append(live.game.colors.index(color) ^ swaps)
            if move == "swap":
                swaps ^= 1
        return out

    def online_undo_count(self, live: Live, seat: int) -> int | None:
        """Online: how many moves taking back ``seat``'s last turn removes."""
        if live.row.result is not None or not live.row.moves:
            return None
        seats = self.mover_seats(live)
        j = len(seats) - 1
        while j >= 0 and seats[j] != seat:
            j -= 1
        if j < 0:
            return None
        while j > 0 and seats[j - 1] == seat:
            j -= 1
        return len(seats) - j

    def set_meta(self, live: Live, **changes: Any) -> None:
        meta = dict(live.row.meta)
        for key, value in changes.items():
            if value is None:
                meta.pop(key, None)
            else:
                meta[key] = value
        self.store.update(live.row.id, meta=meta)
        live.row.meta = meta

    def take_back(self, live: Live, n: int) -> None:
        for _ in range(n):
            live.game.undo()
            live.row.moves.pop()
            live.movers.pop()
        self.store.truncate(live.row.id, len(live.row.moves),
                            "over" if live.game.is_over else "playing")
        if live.task is not None:
            live.task.cancel()
            live.task = None
        live.engine_error = None

    # ------------------------------------------------------------ clocks
    def clock_deadline(self, live: Live) -> tuple[int, float] | None:
        """The seat whose clock runs and the wall time its flag falls, if one runs."""
        c = live.row.meta.get("clock")
        if not c or c.get("started") is None or self.is_over(live):
            return None
        seat = self.to_move_seat(live)
        if seat is None:
            return None
        budget = c["seconds"] if c["kind"] == "move" else c["remaining"][seat]
        return seat, c["started"] + budget

    def clock_view(self, live: Live) -> dict[str, Any] | None:
        c = live.row.meta.get("clock")
        if not c:
            return None
        d = self.clock_deadline(live)
        now = time.time()
        if c["kind"] == "move":
            remaining = [float(c["seconds"])] * len(live.row.seats)
        else:
            remaining = [float(r) for r in c["remaining"]]
        if d is not None:
            remaining[d[0]] = max(0.0, d[1] - now)
        return {"kind": c["kind"], "seconds": c["seconds"], "increment": c["increment"],
                "remaining": remaining, "running": None if d is None else d[0]}

    def check_flag(self, live: Live) -> bool:
        """End the game if the clock of the seat to move has run out."""
        d = self.clock_deadline(live)
        if d is None or time.time() < d[1]:
            return False
        colors = live.game.colors
        loser = self.color_of(live, d[0])
        result = {"winner": colors[1 - colors.index(loser)], "termination": "timeout",
                  "flagged": loser, "scores": None}
        self.store.set_result(live.row.id, result, "over")
        live.row.result = result
        if "undo_request" in live.row.meta:
            self.set_meta(live, undo_request=None)
        self.bump(live)
        return True

    def ensure_clock(self, live: Live) -> None:
        """Online games with a clock: a task that makes the flag fall on time."""
        if not live.row.meta.get("clock") or self.is_over(live):
            return
        if live.clock_task is None or live.clock_task.done():
            live.clock_task = asyncio.get_running_loop().create_task(self._clock_loop(live))

    async def _clock_loop(self, live: Live) -> None:
        while not self.is_over(live):
            event = live.changed
            d = self.clock_deadline(live)
            if d is not None and time.time() >= d[1]:
                self.check_flag(live)
                continue
            timeout = None if d is None else d[1] - time.time() + 0.005
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                pass

    def restart_clock(self, live: Live) -> None:
        """After an undo the clock of the seat to move starts afresh (remaining kept)."""
        c = live.row.meta.get("clock")
        if c:
            self.set_meta(live, clock={**c, "started": time.time() if live.row.moves else None})

    @staticmethod
    def connected(live: Live, seat: int) -> bool:
        """A seat is connected while it holds a WebSocket or has polled lately."""
        if live.sockets.get(seat):
            return True
        seen = live.polled.get(seat)
        return seen is not None and time.monotonic() - seen < online.POLL_PRESENCE

    @staticmethod
    def public_seats(seats: list[dict]) -> list[dict]:
        return [{k: v for k, v in s.items() if k not in ("token", "token_hash")} for s in seats]

    # ------------------------------------------------------------ state
    def state(self, live: Live, ply: int | None = None,
              viewer: int | str | None = None) -> dict[str, Any]:
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
        is_online = self.is_online(live)
        komi_pending = bool(is_online and (row.meta.get("komi") or {}).get("pending"))
        if is_online:
            your_turn = your_turn and seat == viewer and not komi_pending
        if view_ply != n or not your_turn:
            v["legal"] = []
        result = row.result if row.result is not None else (
            None if live.game.outcome is None else view.game_view(live.game)["outcome"])
        seats = []
        for i, s in enumerate(row.seats):
            seats.append({**self.public_seats([s])[0], "color": self.color_of(live, i)})
        return {
            "id": row.id, "game": row.game, "size": row.size, "options": row.options,
            "colors": list(live.game.colors), "board": view.BOARD_KIND[row.game],
            "meta": {k: v for k, v in row.meta.items() if k != "spectator_hash"}, "created": row.created, "updated": row.updated,
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
            "online": is_online,
            **({"you": ("spectator" if viewer == "spectator" else None if viewer is None else
                        {"seat": viewer, "color": self.color_of(live, viewer)}),
                "undo_request": row.meta.get("undo_request"),
                "komi_pending": komi_pending,
                "connected": [self.connected(live, i) for i in range(len(row.seats))],
                "clock": self.clock_view(live),
                "can_undo": (viewer not in (None, "spectator") and not over
                             and self.online_undo_count(live, viewer) is not None)}
               if is_online else {}),
        }

    def summary(self, row: GameRow, n_moves: int) -> dict[str, Any]:
        return {"id": row.id, "game": row.game, "size": row.size, "options": row.options,
                "seats": self.public_seats(row.seats), "moves": n_moves, "status": row.status,
                "result": row.result,
                "meta": {k: v for k, v in row.meta.items() if k != "spectator_hash"},
                "created": row.created, "updated": row.updated}

    # ------------------------------------------------------------ changes
    def commit_move(self, live: Live, move: str) -> None:
        """Play ``move`` (library-validated) and store it; raises IllegalMoveError."""
        game = live.game
        mover = game.to_move
        mover_seat = self.seat_of(live, mover)
        game.play(move)
        canonical = game.history[-1]
        clock = live.row.meta.get("clock")
        meta = None
        if clock:
            now = time.time()
            clock = dict(clock)
            if clock["started"] is not None and clock["kind"] == "total":
                rem = list(clock["remaining"])
                rem[mover_seat] -= now - clock["started"]
                swaps = live.row.moves.count("swap") + (canonical == "swap")
                next_seat = None if game.is_over else game.colors.index(game.to_move) ^ (swaps % 2)
                if next_seat != mover_seat:
                    rem[mover_seat] += clock["increment"]
                clock["remaining"] = rem
            clock["started"] = now
            meta = {**live.row.meta, "clock": clock}
        try:
            self.store.append_move(live.row.id, len(live.row.moves), canonical,
                                   "over" if game.is_over else "playing", meta)
        except Exception:
            game.undo()
            raise
        if meta is not None:
            live.row.meta = meta
        live.row.moves.append(canonical)
        live.movers.append(mover)
        if "undo_request" in live.row.meta:  # a move answers an undo request: no
            self.set_meta(live, undo_request=None)
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
        elif term == "timeout" and result.get("flagged"):
            text = f"{winner.capitalize()} ({who}) wins on time: {result['flagged']} ran out of time"
        else:
            text = f"{winner.capitalize()} ({who}) wins by {term}"
    scores = result.get("scores")
    if scores:
        text += " — " + ", ".join(f"{c} {_num(v)}" for c, v in scores.items())
    return text


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class _Close(Exception):
    """Close the WebSocket with this code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


_WS_ACTIONS = ("move", "undo", "answer", "resign", "komi", "name")


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
        code = {404: "not_found", 405: "method_not_allowed",
                413: "too_large"}.get(exc.status_code, "http_error")
        return _error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception):  # never a stack trace to a client
        return _error_response(500, "internal", "the server failed on this request")

    app.add_middleware(online.BodyLimit, limit=online.MAX_BODY)
    app.add_middleware(online.ConnectionRateLimit)

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
        return [hub.summary(row, n) for row, n in hub.store.list()
                if not row.meta.get("online")]  # a game by link is reached by its link

    @app.post("/api/games", status_code=201, response_model=GameState, responses=ERRORS,
              summary="Start a game (against the computer or hot-seat)")
    async def new_game(spec: NewGame) -> dict[str, Any]:
        if spec.time_control is not None and spec.opponent != "online":
            raise ApiError(400, "bad_option", "time controls are for online games")
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
        elif spec.opponent == "online":
            if spec.engine != "random":
                raise ApiError(400, "bad_option", "an online game has no engine")
            tokens = [online.new_token(), online.new_token()]
            spectator = online.new_token()
            neg = spec.komi_negotiation
            if neg is not None:
                if cls.name != "yugo":
                    raise ApiError(400, "bad_option", "komi negotiation is for yugo only")
                if neg.namer != "human" or neg.komi is None or neg.color is not None:
                    raise ApiError(400, "bad_option", "online, you name the komi "
                                   "(komi_negotiation: {namer: human, komi: N}) and your friend "
                                   "picks a color")
                if spec.color != "random":
                    raise ApiError(400, "bad_option", "with komi negotiation your friend picks "
                                   "the colors")
                options["komi"] = neg.komi
                meta["komi"] = {"named_by": "creator", "komi": neg.komi, "picked_by": "friend",
                                "pending": True}
                mine = 0
            else:
                human = random.choice(colors) if spec.color == "random" else spec.color
                if human not in colors:
                    raise ApiError(400, "bad_option", f"color must be {' or '.join(colors)} or "
                                   f"random, got {human!r}")
                mine = colors.index(human)
            seats = [{"kind": "human", "online": True,
                      "label": (online.clean_name(spec.name, f"Player {i + 1}") if i == mine
                                else f"Player {i + 1}"),
                      "token_hash": online.token_hash(tokens[i])} for i in range(len(colors))]
            meta.update(online=True, creator_seat=mine,
                        spectator_hash=online.token_hash(spectator))
            tc = spec.time_control
            if tc is not None:
                meta["clock"] = {"kind": tc.kind, "seconds": tc.seconds, "increment": tc.increment,
                                 "remaining": [tc.seconds] * len(colors) if tc.kind == "total"
                                 else None, "started": None}
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
        if spec.opponent != "online":
            return hub.state(live)
        gid = row.id
        links = {"you": tokens[mine], "invite": tokens[1 - mine], "spectate": spectator}
        return {**hub.state(live, viewer=mine), "tokens": links,
                "links": {"you": f"/#/play/{gid}/{tokens[mine]}",
                          "invite": f"/#/play/{gid}/{tokens[1 - mine]}",
                          "spectate": f"/#/watch/{gid}/{spectator}"}}

    @app.get("/api/games/{gid}", response_model=GameState, responses=ERRORS,
             summary="A game's state; ?ply=N shows it after N moves; ?after=VERSION long-polls")
    async def get_game(gid: str, ply: int | None = Query(None, ge=0, description="view after N moves"),
                       after: str | None = Query(None, description="wait until the version differs"),
                       wait: float = Query(20.0, ge=0, le=60, description="longest wait, seconds"),
                       x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        viewer = hub.identify(live, x_seat_token)
        hub.ensure_engine(live)
        if isinstance(viewer, int):
            if not hub.connected(live, viewer):
                live.polled[viewer] = time.monotonic()
                hub.bump(live)  # the other seat sees this one come back
            live.polled[viewer] = time.monotonic()
        if after is not None:
            await hub.wait_change(live, after, wait)
            if isinstance(viewer, int):
                live.polled[viewer] = time.monotonic()
        return hub.state(live, ply, viewer)

    @app.delete("/api/games/{gid}", status_code=204, responses=ERRORS, summary="Delete a saved game")
    async def delete_game(gid: str, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> Response:
        hub.need_seat(hub.get(gid), x_seat_token)
        live = hub.live.pop(gid, None)
        if live is not None and live.task is not None:
            live.task.cancel()
        if live is not None and live.clock_task is not None:
            live.clock_task.cancel()
        if not hub.store.delete(gid):
            raise ApiError(404, "not_found", f"no game {gid!r}")
        return Response(status_code=204)

    @app.post("/api/games/{gid}/moves", response_model=GameState, responses=ERRORS,
              summary="Play a move for the human to move")
    async def play(gid: str, body: MoveIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        seat = hub.need_seat(live, x_seat_token)
        async with live.lock:
            return _play(live, body, seat)

    def _play(live: Live, body: MoveIn, me: int | None) -> dict[str, Any]:
        game = live.game
        if me is not None:
            if (live.row.meta.get("komi") or {}).get("pending"):
                raise ApiError(409, "komi_pending", "your friend has yet to pick a color")
            if body.ply is None:
                raise ApiError(400, "bad_request", "online, a move names the ply it was made at")
        if hub.is_over(live):
            raise ApiError(409, "game_over", "the game is over: "
                           + (_result_text(hub.state(live)["result"], live.row, live, hub) or ""))
        if body.ply is not None and body.ply != len(live.row.moves):
            raise ApiError(409, "stale", f"the game has moved on: {len(live.row.moves)} moves, "
                           f"you saw {body.ply}", ply=len(live.row.moves))
        seat = hub.to_move_seat(live)
        if me is not None and seat != me:
            raise ApiError(409, "not_your_turn", f"it is {game.to_move}'s turn; wait for your "
                           "friend's move")
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
        return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/undo", response_model=GameState, responses=ERRORS,
              summary="Take back: against the computer, back to your previous turn; hot-seat, one move")
    async def undo(gid: str, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_seat(live, x_seat_token)
        if me is not None:  # online: ask; the other seat answers at /undo/answer
            async with live.lock:
                if hub.is_over(live) or hub.online_undo_count(live, me) is None:
                    raise ApiError(409, "cannot_undo", "the game is over" if hub.is_over(live)
                                   else "you have no move to take back")
                req = live.row.meta.get("undo_request")
                if req is not None and req["by"] != me:
                    raise ApiError(409, "undo_pending", "answer your friend's undo request first")
                hub.set_meta(live, undo_request={"by": me, "ply": len(live.row.moves)})
                hub.bump(live)
                return hub.state(live, viewer=me)
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
    async def resign(gid: str, body: ResignIn | None = None, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        body = body or ResignIn()
        live = hub.get(gid)
        me = hub.need_seat(live, x_seat_token)
        if hub.is_over(live):
            raise ApiError(409, "game_over", "the game is already over")
        colors = live.game.colors
        if me is not None:
            color = hub.color_of(live, me)
            if body.color is not None and body.color != color:
                raise ApiError(409, "not_your_turn", f"you play {color}; you cannot resign for "
                               f"{body.color}")
        elif hub.vs_computer(live):
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
        if me is not None and "undo_request" in live.row.meta:
            hub.set_meta(live, undo_request=None)
        hub.bump(live)
        return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/undo/answer", response_model=GameState, responses=ERRORS,
              summary="Online: accept or decline the other player's undo request")
    async def answer_undo(gid: str, body: AnswerIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_online_seat(live, x_seat_token,
                                     "only an online game has undo requests")
        async with live.lock:
            req = live.row.meta.get("undo_request")
            if req is None:
                raise ApiError(409, "no_request", "there is no undo request to answer")
            if req["by"] == me:
                raise ApiError(409, "not_your_turn", "your friend answers your undo request")
            n = hub.online_undo_count(live, req["by"])
            if req["ply"] != len(live.row.moves) or n is None or hub.is_over(live):
                hub.set_meta(live, undo_request=None)
                hub.bump(live)
                raise ApiError(409, "stale", "the game has changed since the request")
            hub.set_meta(live, undo_request=None,
                         undo_answer={"by": me, "accepted": body.accept, "ply": req["ply"]})
            if body.accept:
                hub.take_back(live, n)
                hub.restart_clock(live)
            hub.bump(live)
            return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/komi", response_model=GameState, responses=ERRORS,
              summary="Online yugo: the friend picks a color after the creator named the komi")
    async def pick_color(gid: str, body: KomiPickIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_online_seat(live, x_seat_token,
                                     "only an online game negotiates komi this way")
        async with live.lock:
            komi = live.row.meta.get("komi") or {}
            if not komi.get("pending"):
                raise ApiError(409, "komi_settled", "there is no color to pick")
            creator = live.row.meta.get("creator_seat", 0)
            if me == creator:
                raise ApiError(409, "not_your_turn", "you named the komi; your friend picks")
            colors = live.game.colors
            if body.color not in colors:
                raise ApiError(400, "bad_option", f"pick a color: {' or '.join(colors)}")
            seats = list(live.row.seats)
            if colors.index(body.color) != me:
                seats.reverse()
                creator = 1 - creator
                me = 1 - me
            meta = {**live.row.meta, "creator_seat": creator,
                    "komi": {**komi, "pending": False, "friend_color": body.color}}
            hub.store.update(gid, seats=seats, meta=meta)
            live.row.seats, live.row.meta = seats, meta
            hub.bump(live)
            return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/name", response_model=GameState, responses=ERRORS,
              summary="Online: set your display name")
    async def set_name(gid: str, body: NameIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_online_seat(live, x_seat_token,
                                     "only an online game has display names")
        async with live.lock:
            seats = [dict(s) for s in live.row.seats]
            seats[me]["label"] = online.clean_name(body.name, f"Player {me + 1}")
            hub.store.update(gid, seats=seats)
            live.row.seats = seats
            hub.bump(live)
            return hub.state(live, viewer=me)

    # ------------------------------------------------------------ live updates
    @app.websocket("/api/games/{gid}/ws")
    async def game_socket(websocket: WebSocket, gid: str) -> None:
        """Live updates both ways. The first message authenticates:
        ``{"type": "auth", "token": T}`` (the token never goes in the URL). Then the server
        sends ``{"type": "state", "state": ...}`` on every change, and the client may send
        ``move`` (move, ply), ``undo``, ``answer`` (accept), ``resign``, ``komi`` (color),
        ``name`` (name) and ``ping``; a refused action answers ``{"type": "error", "error":
        {code, message}}``. Messages over 4 KiB close the socket (1009); more than 10 a
        second (bursts of 20) are refused with ``rate_limited``."""
        await websocket.accept()
        limit = online.RateLimit()

        async def receive() -> dict[str, Any]:
            msg = await websocket.receive()
            if msg["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(msg.get("code", 1000))
            text = msg.get("text")
            if text is None:
                raw = msg.get("bytes") or b""
                if len(raw) > online.MAX_MESSAGE:
                    raise _Close(1009, "message too big")
                try:
                    text = raw.decode()
                except UnicodeDecodeError:
                    raise _Close(1003, "not text") from None
            if len(text) > online.MAX_MESSAGE:
                raise _Close(1009, "message too big")
            try:
                data = json.loads(text)
            except ValueError:
                return {"type": "_malformed"}
            return data if isinstance(data, dict) else {"type": "_malformed"}

        async def send_error(code: str, message: str, msg_id: Any = None) -> None:
            await websocket.send_json({"type": "error", "id": msg_id,
                                       "error": {"code": code, "message": message}})

        viewer: int | str | None = None
        live: Live | None = None
        pusher: asyncio.Task | None = None
        try:
            try:
                first = await asyncio.wait_for(receive(), online.AUTH_TIMEOUT)
            except TimeoutError:
                raise _Close(1008, "no auth message") from None
            try:
                live = hub.get(gid)
                token = first.get("token") if first.get("type") == "auth" else None
                if not isinstance(token, (str, type(None))):
                    token = ""
                viewer = hub.identify(live, token)
            except ApiError as exc:
                await send_error(exc.code, exc.message)
                raise _Close(1008, exc.code) from None
            if isinstance(viewer, int):
                live.sockets[viewer] = live.sockets.get(viewer, 0) + 1
                hub.bump(live)

            async def push() -> None:
                sent = None
                while True:
                    event = live.changed
                    if live.version != sent:
                        sent = live.version
                        await websocket.send_json({"type": "state",
                                                   "state": hub.state(live, None, viewer)})
                    await event.wait()

            pusher = asyncio.create_task(push())
            while True:
                msg = await receive()
                msg_id = msg.get("id")
                if not limit.allow():
                    if limit.refused > 100:
                        raise _Close(1008, "too many messages")
                    await send_error("rate_limited", "too many messages; slow down", msg_id)
                    continue
                kind = msg.get("type")
                try:
                    if kind == "ping":
                        await websocket.send_json({"type": "pong", "id": msg_id})
                        continue
                    if kind not in _WS_ACTIONS:
                        raise ApiError(400, "bad_request", "unknown or malformed message")
                    if viewer == "spectator":
                        raise ApiError(403, "spectator", "a spectator link can only watch")
                    token = first.get("token") if viewer is not None else None  # the socket's
                    args = {k: v for k, v in msg.items() if k not in ("type", "id")}
                    if kind == "move":
                        await play(gid, MoveIn(**args), token)
                    elif kind == "undo":
                        await undo(gid, token)
                    elif kind == "answer":
                        await answer_undo(gid, AnswerIn(**args), token)
                    elif kind == "resign":
                        await resign(gid, ResignIn(**args), token)
                    elif kind == "komi":
                        await pick_color(gid, KomiPickIn(**args), token)
                    elif kind == "name":
                        await set_name(gid, NameIn(**args), token)
                    await websocket.send_json({"type": "ack", "id": msg_id})
                except ApiError as exc:
                    await send_error(exc.code, exc.message, msg_id)
                except (ValidationError, TypeError):
                    await send_error("bad_request", "malformed message", msg_id)
        except WebSocketDisconnect:
            pass
        except _Close as exc:
            try:
                await websocket.close(exc.code, exc.reason)
            except Exception:  # noqa: BLE001 - already gone
                pass
        finally:
            if pusher is not None:
                pusher.cancel()
            if live is not None and isinstance(viewer, int):
                live.sockets[viewer] -= 1
                hub.bump(live)

    @app.post("/api/games/{gid}/engine", response_model=GameState, responses=ERRORS,
              summary="Ask the computer to try again after an engine error")
    async def retry_engine(gid: str, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        hub.need_seat(live, x_seat_token)
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
    async def record(gid: str, format: Literal["text", "json"] = "text", x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> Response:
        live = hub.get(gid)
        hub.identify(live, x_seat_token)
        result = live.row.result or {}
        resigned = result.get("resigned")
        timeout = None
        if result.get("termination") == "timeout":
            resigned, timeout = None, result.get("flagged") or result.get("resigned")
        date = time.strftime("%Y.%m.%d", time.localtime(live.row.created))
        try:
            if format == "json":
                body = recordio.to_json(live.game, _players(live), resigned, date, timeout)
            else:
                body = recordio.to_text(live.game, _players(live), resigned, date, timeout)
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
