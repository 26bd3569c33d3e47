"""Routes: analysis of a position (streamed) or of a whole game, on the engine pool.

A request names a position as the JSON-lines engine does: the game (kind,
size, options, or a set-up ``start`` position text) and the moves played
from it, so the page can analyse any position of any game it shows,
variations included, and so can a program. ``POST /api/analysis/view``
draws such a position (the page computes no rules);
``POST /api/analysis/position`` answers one final analysis;
``/api/analysis/ws`` streams: a position's analysis refined about four times
a second until its budget, or a whole game's progress then its judged moves.

Limits (``Settings.analysis_*``): a budget per request, one running
analysis per client (a second is refused 429 ``analysis_busy``; on one
socket a new request replaces the running one), and a socket that closes
stops its analysis. Bad requests get the API's errors: 400 ``unknown_game``,
``bad_option``, ``bad_position``, ``illegal_move`` (naming the move and its
number), ``bad_budget``, ``too_many_moves``; 409 ``game_over``.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import boardlab
from boardlab.core import grid
from boardlab.errors import IllegalMoveError, OptionError, PositionError
from boardlab.games import view as plugin

from .. import analysing, online, view
from ..hub import Hub
from ..pool import EngineBusy, EngineDied, EngineTimeout
from ..schemas import ERRORS, ApiError
from ..settings import Settings
from . import client_of

router = APIRouter()

#: seconds between looks at a running analysis's channel
POLL = 0.05
#: bytes a message on the analysis socket may have (a long game's move list)
MAX_MESSAGE = 64 * 1024
#: seconds a replaced or abandoned analysis has to stop before a new one of
#: the same client is refused
STOP_WAIT = 5.0


class PositionIn(BaseModel):
    """A position: a game's start and the moves played from it."""
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(description="implo, pilo, robble, vimbre or yugo")
    size: int | None = Field(None, description="board size; default: the game's")
    options: dict[str, Any] = Field(default_factory=dict)
    start: str | None = Field(None, max_length=2000,
                              description="a set-up position text to start from")
    moves: list[str] = Field(default_factory=list, description="moves from the start")


class CellIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(max_length=1, description="a piece's token (GET /api/kinds: pieces)")
    height: int = Field(1, ge=1, le=99, description="a stack's height")


class SetupIn(BaseModel):
    """A position set up on the board editor."""
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    size: int = Field(ge=4, le=19)
    cells: list[CellIn | None] = Field(description="one per point, a1 first (index order)")
    to_move: str = Field(max_length=20)
    options: dict[str, Any] = Field(default_factory=dict)


class AnalysisIn(PositionIn):
    seconds: float | None = Field(None, description="search budget (per position for a "
                                  "whole game); default and cap: GET /api/analysis/limits")
    top: int = Field(5, ge=1, le=10, description="candidates to report")


def _desk(app: Any) -> Desk:
    desk = getattr(app.state, "analysis_desk", None)
    if desk is None:
        desk = app.state.analysis_desk = Desk(app.state.hub)
    return desk


def build(body: PositionIn, settings: Settings) -> tuple[boardlab.Game, list[str]]:
    """The position ``body`` names, replayed, and who made each move; every
    problem as the API's 4xx error saying what and where."""
    if len(body.moves) > settings.analysis_max_moves:
        raise ApiError(400, "too_many_moves", f"{len(body.moves)} moves: at most "
                       f"{settings.analysis_max_moves} may be analysed")
    if body.start is not None:
        try:
            game = boardlab.from_position(body.start)
        except (PositionError, OptionError) as exc:
            raise ApiError(400, "bad_position", f"start: {exc}") from None
        if game.name != body.game:
            raise ApiError(400, "bad_position", f"start is a {game.name} position, "
                           f"not {body.game}")
    else:
        try:
            cls = boardlab.game_class(body.game)
        except OptionError as exc:
            raise ApiError(400, "unknown_game", str(exc)) from None
        try:
            game = cls(body.size, **body.options)
        except (OptionError, TypeError) as exc:
            raise ApiError(400, "bad_option", str(exc)) from None
    movers = []
    for i, move in enumerate(body.moves):
        if not isinstance(move, str) or len(move) > 200:
            raise ApiError(400, "malformed_move", f"move {i + 1} is not a move text")
        movers.append(game.to_move or "")
        try:
            game.play(move)
        except IllegalMoveError as exc:
            raise ApiError(400, "illegal_move", f"move {i + 1} ({move}): {exc.reason}",
                           move=move, index=i) from None
    return game, movers


def request_of(body: AnalysisIn, kind: str, settings: Settings) -> analysing.Request:
    """The worker's request for ``body``: the position checked (see
    :func:`build`) and the budget within its cap."""
    game, _ = build(body, settings)
    whole = kind == "game"
    default, cap = ((settings.analysis_game_seconds, settings.analysis_game_max_seconds)
                    if whole else (settings.analysis_seconds, settings.analysis_max_seconds))
    seconds = default if body.seconds is None else body.seconds
    if not math.isfinite(seconds) or seconds <= 0:
        raise ApiError(400, "bad_budget", f"seconds must be positive, got {seconds!r}")
    if seconds > cap:
        raise ApiError(400, "bad_budget", f"seconds: at most {cap:g} "
                       f"{'per position' if whole else ''}, got {seconds:g}".replace("  ", " "))
    if whole:
        positions = len(body.moves) + (0 if game.is_over else 1)
        if positions * seconds > settings.analysis_game_budget:
            raise ApiError(400, "bad_budget", f"{positions} positions x {seconds:g} s is over "
                           f"the {settings.analysis_game_budget:g} s a game analysis may take")
    elif game.is_over:
        raise ApiError(409, "game_over", "the game is over at this position: nothing to "
                       "analyse")
    return analysing.Request(body.game, body.size, dict(body.options), body.start,
                             tuple(body.moves), float(seconds), body.top)


class Desk:
    """The analyses running now, one per client (see the module docstring)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        #: client -> set when its running analysis has ended (its worker free)
        self.running: dict[str, asyncio.Event] = {}

    async def idle(self, client: str, timeout: float = STOP_WAIT) -> None:
        """Wait (a little) for ``client``'s analysis that is stopping to end."""
        ended = self.running.get(client)
        if ended is not None:
            try:
                await asyncio.wait_for(ended.wait(), timeout)
            except TimeoutError:
                pass

    async def run(self, client: str, kind: str, req: analysing.Request,
                  send: Callable[[dict[str, Any]], Awaitable[None]] | None = None
                  ) -> dict[str, Any]:
        """Run ``req`` (``kind``: position or game) for ``client`` on the pool,
        handing each message from the worker to ``send``; the final answer is
        returned, not sent. Cancelling this asks the worker to stop; the
        client counts as busy until it has."""
        if client in self.running:
            raise ApiError(429, "analysis_busy", "you already have an analysis running; "
                           "stop it (or wait for it) first")
        fn = analysing.analyse_position if kind == "position" else analysing.analyse_whole_game
        channel = analysing.Channel.open()
        ended = self.running[client] = asyncio.Event()
        call = asyncio.ensure_future(self.hub.pool.run(client, "mcts", fn, req, channel.path))

        def finish(_: Any = None) -> None:
            if not call.cancelled():
                call.exception()  # retrieved: never "exception was never retrieved"
            channel.close()
            if self.running.get(client) is ended:
                del self.running[client]
            ended.set()

        try:
            while True:
                done, _ = await asyncio.wait({call}, timeout=POLL)
                messages = channel.take()
                if done:
                    break
                if send is not None:
                    for msg in messages:
                        await send(msg)
            try:
                return call.result()
            except EngineBusy as exc:
                raise ApiError(429, "engine_busy", f"the engines are busy with your other "
                               f"requests ({exc})") from None
            except (EngineTimeout, EngineDied) as exc:
                raise ApiError(503, "engine_failed", f"the analysis failed: {exc}") from None
        except BaseException:
            channel.stop()
            raise
        finally:
            if call.done():
                finish()
            else:
                call.add_done_callback(finish)


# ---------------------------------------------------------------- HTTP
@router.get("/api/analysis/limits", summary="Analysis budgets: defaults and caps, seconds")
async def limits(request: Request) -> dict[str, Any]:
    s: Settings = request.app.state.settings
    return {"position": {"default": s.analysis_seconds, "max": s.analysis_max_seconds},
            "game": {"default": s.analysis_game_seconds, "max": s.analysis_game_max_seconds,
                     "total": s.analysis_game_budget},
            "max_moves": s.analysis_max_moves}


@router.post("/api/analysis/view", responses=ERRORS,
             summary="Draw a position (a start and moves): board, legal moves, hints")
async def position_view(body: PositionIn, request: Request) -> dict[str, Any]:
    game, movers = build(body, request.app.state.settings)
    return {"game": game.name, "size": game.size, "colors": list(game.colors),
            **view.board_facts(game), "ply": len(body.moves),
            "moves": list(body.moves), "movers": movers,
            "legal_points": {m: view.move_points(m, game.size) for m in game.legal_moves()},
            **view.game_view(game)}


@router.post("/api/analysis/setup", responses=ERRORS,
             summary="A position from the board editor's pieces: its position text and "
                     "drawing, or what makes it impossible")
async def setup(body: SetupIn, request: Request) -> dict[str, Any]:
    try:
        cls = boardlab.game_class(body.game)
    except OptionError as exc:
        raise ApiError(400, "unknown_game", str(exc)) from None
    if len(body.cells) != body.size * body.size:
        raise ApiError(400, "bad_position", f"cells: {body.size * body.size} for a "
                       f"{body.size}x{body.size} board, got {len(body.cells)}")
    known = set(plugin.pieces(cls))
    tokens = []
    for i, c in enumerate(body.cells):
        if c is not None and c.token not in known:
            raise ApiError(400, "bad_position", f"cells[{i}]: {c.token!r} is not a {cls.name} "
                           f"piece ({', '.join(sorted(known))})")
        tokens.append(None if c is None else c.token + (f"({c.height})" if c.height > 1 else ""))
    if body.to_move not in cls.colors:
        raise ApiError(400, "bad_position", f"to_move: {' or '.join(cls.colors)}")
    implied = plugin.hook(cls, "setup_fields")
    given = {**(implied(cls, body.to_move) if implied else {}),
             **{k: _option_text(v) for k, v in body.options.items()}}
    fields = " ".join(f"{k}={v}" for k, v in given.items())
    text = f"{cls.name} {body.size} {grid.format_board(tokens, body.size)} {body.to_move} {fields}"
    try:
        game = boardlab.from_position(text.strip())
    except (PositionError, OptionError) as exc:
        raise ApiError(400, "bad_position", str(exc)) from None
    return {"position": game.position(),
            **await position_view(PositionIn(game=cls.name, size=game.size, start=game.position()),
                                  request)}


def _option_text(value: Any) -> str:
    """An option's value as position text writes it (``yes``/``no``, numbers)."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


@router.post("/api/analysis/position", responses={**ERRORS, 429: ERRORS[400]},
             summary="Analyse one position within a budget; the final analysis")
async def analyse_position(body: AnalysisIn, request: Request) -> dict[str, Any]:
    req = request_of(body, "position", request.app.state.settings)
    out = await _desk(request.app).run(client_of(request), "position", req)
    return out["analysis"]


# ---------------------------------------------------------------- WebSocket
@router.websocket("/api/analysis/ws")
async def analysis_socket(websocket: WebSocket) -> None:
    """Send ``{"type": "position", "id", ...AnalysisIn}``: answered by
    ``{"type": "analysis", "id", "analysis"}`` messages, the last with
    ``analysis.done`` true. ``{"type": "game", ...}``: ``{"type": "progress",
    "id", "done", "total", "ply", "analysis"}`` per position, then
    ``{"type": "game", "id", "result"}``. ``{"type": "stop"}`` stops the
    running one (answered ``stopped``); a new request replaces it; closing
    the socket stops it. More than 10 messages a second (bursts of 20) are
    refused ``rate_limited``. Errors: ``{"type": "error", "id", "error": {status,
    code, message}}``."""
    await websocket.accept()
    desk = _desk(websocket.app)
    settings: Settings = websocket.app.state.settings
    client = websocket.app.state.client_key(websocket.scope)
    current: asyncio.Task | None = None
    limit = online.RateLimit()  # as the game socket: 10 a second, bursts of 20

    async def send(msg: dict[str, Any]) -> None:
        await websocket.send_json(msg)

    async def error(msg_id: Any, exc: ApiError) -> None:
        await send({"type": "error", "id": msg_id, "error": {
            "status": exc.status, "code": exc.code, "message": exc.message, **exc.extra}})

    async def job(msg_id: Any, kind: str, req: analysing.Request) -> None:
        async def relay(m: dict[str, Any]) -> None:
            if m.get("kind") == "analysis":
                await send({"type": "analysis", "id": msg_id, "analysis": m["analysis"]})
            elif m.get("kind") == "progress":
                await send({"type": "progress", "id": msg_id, **{k: v for k, v in m.items()
                                                                 if k != "kind"}})
        try:
            out = await desk.run(client, kind, req, relay)
        except ApiError as exc:
            await error(msg_id, exc)
            return
        if kind == "position":
            await send({"type": "analysis", "id": msg_id, "analysis": out["analysis"]})
        else:
            await send({"type": "game", "id": msg_id, "result": out})

    async def stop_current() -> bool:
        nonlocal current
        if current is None or current.done():
            current = None
            return False
        current.cancel()
        try:
            await current
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - it is being dropped
            pass
        current = None
        await desk.idle(client)
        return True

    try:
        while True:
            raw = await websocket.receive_text()
            if len(raw) > MAX_MESSAGE:
                await websocket.close(1009, "message too big")
                return
            try:
                msg = json.loads(raw)
            except ValueError:
                msg = None
            if not isinstance(msg, dict):
                await error(None, ApiError(400, "bad_request", "a message is a JSON object"))
                continue
            msg_id, kind = msg.get("id"), msg.get("type")
            if not limit.allow():
                if limit.refused > 100:
                    await websocket.close(1008, "too many messages")
                    return
                await error(msg_id, ApiError(429, "rate_limited", "too many messages; slow down"))
                continue
            if kind == "stop":
                stopped = await stop_current()
                await send({"type": "stopped", "id": msg_id, "was_running": stopped})
                continue
            if kind not in ("position", "game"):
                await error(msg_id, ApiError(400, "bad_request",
                                             "type must be position, game or stop"))
                continue
            try:
                body = AnalysisIn(**{k: v for k, v in msg.items() if k not in ("type", "id")})
                req = request_of(body, kind, settings)
            except ValidationError as exc:
                await error(msg_id, ApiError(400, "bad_request", _validation_text(exc)))
                continue
            except ApiError as exc:
                await error(msg_id, exc)
                continue
            await stop_current()
            current = asyncio.create_task(job(msg_id, kind, req))
    except WebSocketDisconnect:
        pass
    finally:
        if current is not None and not current.done():
            current.cancel()  # its channel is told to stop; the worker ends by itself


def _validation_text(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return "; ".join(parts) or "bad request"
