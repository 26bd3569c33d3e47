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
number), ``bad_budget``, ``too_many_moves``; 409 ``game_over``; 422
``cannot_analyse`` for a position the search refuses (the library's reason).
``POST /api/analysis/setup`` turns the board editor's pieces into such a
position (in the work pool, as the drawing of any position).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import boardlab

from .. import analysis_worker, online, wire, work
from ..hub import Hub, answered
from ..schemas import ERRORS, ApiError
from ..settings import Settings
from . import HubDep, client_of

router = APIRouter()
log = logging.getLogger("boardlab.web")

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
    cells: list[CellIn | None] = Field(max_length=19 * 19,
                                       description="one per point, a1 first (index order)")
    to_move: str = Field(max_length=20)
    options: dict[str, int | float | bool | str] = Field(default_factory=dict, max_length=20)


class AnalysisIn(PositionIn):
    seconds: float | None = Field(None, description="search budget (per position for a "
                                  "whole game); default and cap: GET /api/analysis/limits")
    top: int = Field(5, ge=1, le=10, description="candidates to report")


def _desk(app: Any) -> Desk:
    desk = getattr(app.state, "analysis_desk", None)
    if desk is None:
        desk = app.state.analysis_desk = Desk(app.state.hub)
    return desk


def request_fields(body: PositionIn, settings: Settings, seconds: float = 0.0,
                   top: int = 1) -> analysis_worker.Request:
    """``body`` as the workers take it, after the check that costs nothing
    (the moves' count); the replay is the work pool's (``work``)."""
    if len(body.moves) > settings.analysis_max_moves:
        raise ApiError(400, "too_many_moves", f"{len(body.moves)} moves: at most "
                       f"{settings.analysis_max_moves} may be analysed")
    return analysis_worker.Request(body.game, body.size, dict(body.options), body.start,
                             tuple(body.moves), seconds, top)


async def request_of(hub: Hub, client: str, body: AnalysisIn, kind: str) -> analysis_worker.Request:
    """The worker's request for ``body``: the budget within its cap and the
    position checked (in the work pool: a replay grows with the moves)."""
    settings = hub.settings
    req = request_fields(body, settings)
    req = replace(req, seconds=work.budget(body.seconds, kind, settings), top=body.top)
    await hub.offload(client, work.check_analysis, req, kind, settings)
    return req


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

    async def run(self, client: str, kind: str, req: analysis_worker.Request,
                  send: Callable[[dict[str, Any]], Awaitable[None]] | None = None
                  ) -> dict[str, Any]:
        """Run ``req`` (``kind``: position or game) for ``client`` on the pool,
        handing each message from the worker to ``send``; the final answer is
        returned, not sent. Cancelling this asks the worker to stop; the
        client counts as busy until it has."""
        if client in self.running:
            raise ApiError(429, "analysis_busy", "you already have an analysis running; "
                           "stop it (or wait for it) first")
        fn = analysis_worker.analyse_position if kind == "position" else analysis_worker.analyse_whole_game
        ended = self.running[client] = asyncio.Event()
        try:
            line = await self.hub.relay.open()
        except BaseException:
            del self.running[client]
            ended.set()
            raise
        call = asyncio.ensure_future(self.hub.pool.run(client, "mcts", fn, req, line.address))

        def finish(_: Any = None) -> None:
            if not call.cancelled():
                call.exception()  # retrieved: never "exception was never retrieved"
            line.close()
            if self.running.get(client) is ended:
                del self.running[client]
            ended.set()

        try:
            async for msg in line.messages(call):
                if send is not None:
                    await send(msg)
            await asyncio.wait({call})  # (a cancelled wait leaves the call running)
            with answered("engine_busy", "engine_failed", "the analysis"):
                try:
                    return call.result()
                except boardlab.BoardlabError as exc:  # the search refused the position
                    raise ApiError(422, "cannot_analyse", f"this position cannot be "
                                   f"analysed: {exc}") from None
        except BaseException:
            line.stop()
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
async def position_view(body: PositionIn, request: Request,
                        hub: Hub = HubDep) -> Response:
    req = request_fields(body, hub.settings)
    return Response(await hub.offload(client_of(request), work.position_view, req,
                                      hub.settings.analysis_max_moves),
                    media_type="application/json")


@router.post("/api/analysis/setup", responses=ERRORS,
             summary="A position from the board editor's pieces: its position text and "
                     "drawing, or what makes it impossible")
async def setup(body: SetupIn, request: Request, hub: Hub = HubDep) -> Response:
    # checking the position and drawing it (all its legal moves) grow with
    # the board a client sends: the work pool's
    cells = [None if c is None else (c.token, c.height) for c in body.cells]
    return Response(await hub.offload(client_of(request), work.setup_position, body.game,
                                      body.size, cells, body.to_move, dict(body.options)),
                    media_type="application/json")


@router.post("/api/analysis/position", responses={**ERRORS, 429: ERRORS[400]},
             summary="Analyse one position within a budget; the final analysis")
async def analyse_position(body: AnalysisIn, request: Request,
                           hub: Hub = HubDep) -> dict[str, Any]:
    client = client_of(request)
    req = await request_of(hub, client, body, "position")
    out = await _desk(request.app).run(client, "position", req)
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
    code, message}}``. Closes: 1009 a message over 64 KiB, 1003 bytes that
    are not UTF-8, 1013 this client holds too many sockets, 1001 idle
    (``Settings.socket_idle``), 1011 an internal error."""
    hub: Hub = websocket.app.state.hub
    client = client_of(websocket)
    await websocket.accept()
    if not hub.held.enter(client):
        await websocket.close(1013, "too many sockets from you; close some")
        return
    desk = _desk(websocket.app)
    current: asyncio.Task | None = None
    limit = online.RateLimit()  # as the game socket: 10 a second, bursts of 20

    async def send(msg: dict[str, Any]) -> None:
        await wire.send(websocket, msg)

    async def error(msg_id: Any, exc: ApiError) -> None:
        await send({"type": "error", "id": msg_id, "error": {
            "status": exc.status, "code": exc.code, "message": exc.message, **exc.extra}})

    async def job(msg_id: Any, kind: str, req: analysis_worker.Request) -> None:
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
        except Exception:  # noqa: BLE001 - said to the page, not left unanswered
            log.exception("analysis failed")
            await error(msg_id, ApiError(500, "internal", "the analysis failed (the server's "
                                         "log says why)"))
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

    async def next_message() -> dict[str, Any]:
        """The next message; a socket idle for ``socket_idle`` seconds, with
        no analysis running, is closed."""
        while True:
            try:
                return await asyncio.wait_for(wire.receive(websocket, MAX_MESSAGE),
                                              hub.settings.socket_idle)
            except TimeoutError:
                if current is None or current.done():
                    raise wire.Closed(1001, "idle") from None

    try:
        async with wire.guarded(websocket, "analysis"):
            while True:
                msg = await next_message()
                msg_id, kind = wire.message_id(msg), msg.get("type")
                if msg is wire.MALFORMED:
                    await error(None, ApiError(400, "bad_request", "a message is a JSON object"))
                    continue
                if not limit.allow():
                    if limit.refused > 100:
                        raise wire.Closed(1008, "too many messages")
                    await error(msg_id, ApiError(429, "rate_limited",
                                                 "too many messages; slow down"))
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
                    req = await request_of(hub, client, body, kind)
                except ValidationError as exc:
                    await error(msg_id, ApiError(400, "bad_request", _validation_text(exc)))
                    continue
                except ApiError as exc:
                    await error(msg_id, exc)
                    continue
                await stop_current()
                current = asyncio.create_task(job(msg_id, kind, req))
    finally:
        hub.held.leave(client)
        if current is not None and not current.done():
            current.cancel()  # its line is told to stop; the worker ends by itself


def _validation_text(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return "; ".join(parts) or "bad request"
