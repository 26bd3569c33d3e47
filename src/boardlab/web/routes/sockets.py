"""Route: a game's live WebSocket (state pushed on every change, actions both
ways). An action sent here is the HTTP route's own function, called with the
socket's token, so the two can never disagree.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from .. import access, online, wire
from ..hub import Hub, Live
from ..schemas import AnswerIn, ApiError, ColorPickIn, MoveIn, NameIn, ResignIn
from . import client_of, games
from . import online as online_routes

router = APIRouter()

_WS_ACTIONS = ("move", "undo", "answer", "resign", "color", "name")


@router.websocket("/api/games/{gid}/ws")
async def game_socket(websocket: WebSocket, gid: str) -> None:
    """Live updates both ways. The first message authenticates:
    ``{"type": "auth", "token": T}`` (the token never goes in the URL). Then the server
    sends ``{"type": "state", "state": ...}`` on every change, and the client may send
    ``move`` (move, ply), ``undo``, ``answer`` (accept), ``resign``, ``color`` (color),
    ``name`` (name) and ``ping``; a refused action answers ``{"type": "error", "error":
    {code, message}}``. Messages over 4 KiB close the socket (1009), bytes that are
    not UTF-8 1003; more than 10 a second (bursts of 20) are refused with
    ``rate_limited``. A client holding too many sockets is closed 1013."""
    hub: Hub = websocket.app.state.hub
    client = client_of(websocket)
    await websocket.accept()
    if not hub.held.enter(client):
        await websocket.close(1013, "too many sockets from you; close some")
        return
    limit = online.RateLimit()

    async def send_error(code: str, message: str, msg_id: Any = None) -> None:
        await wire.send(websocket, {"type": "error", "id": msg_id,
                                    "error": {"code": code, "message": message}})

    viewer: int | str | None = None
    token: str | None = None
    live: Live | None = None
    pusher: asyncio.Task | None = None
    try:
        async with wire.guarded(websocket, "game"):
            try:
                first = await asyncio.wait_for(wire.receive(websocket, online.MAX_MESSAGE),
                                               online.AUTH_TIMEOUT)
            except TimeoutError:
                raise wire.Closed(1008, "no auth message") from None
            try:
                token = first.get("token") if first.get("type") == "auth" else None
                if not isinstance(token, (str, type(None))):
                    token = ""
                live = hub.get(gid, token)
                live.holds += 1
                viewer = access.identify(live, token)
            except ApiError as exc:
                await send_error(exc.code, exc.message)
                raise wire.Closed(1008, exc.code) from None
            if isinstance(viewer, int):
                live.sockets[viewer] = live.sockets.get(viewer, 0) + 1
                hub.bump(live)

            async def push() -> None:
                nonlocal viewer
                assert live is not None
                sent = None
                while True:
                    event = live.changed
                    if live.version != sent:
                        sent = live.version
                        # the token's seat, asked afresh: a color pick can swap the seats
                        viewer = access.identify(live, token)
                        await wire.send(websocket, {"type": "state",
                                                    "state": hub.views.state(live, None, viewer)})
                    await event.wait()

            pusher = asyncio.create_task(push())
            while True:
                msg = await wire.receive(websocket, online.MAX_MESSAGE)
                msg_id = wire.message_id(msg)
                if not limit.allow():
                    if limit.refused > 100:
                        raise wire.Closed(1008, "too many messages")
                    await send_error("rate_limited", "too many messages; slow down", msg_id)
                    continue
                kind = msg.get("type")
                try:
                    if kind == "ping":
                        await wire.send(websocket, {"type": "pong", "id": msg_id})
                        continue
                    if kind not in _WS_ACTIONS:
                        raise ApiError(400, "bad_request", "unknown or malformed message")
                    if viewer == "spectator":
                        raise ApiError(403, "spectator", "a spectator link can only watch")
                    args = {k: v for k, v in msg.items() if k not in ("type", "id")}
                    if kind == "move":
                        await games.play(gid, MoveIn(**args), token, hub)
                    elif kind == "undo":
                        await games.undo(gid, token, hub)
                    elif kind == "answer":
                        await online_routes.answer_undo(gid, AnswerIn(**args), token, hub)
                    elif kind == "resign":
                        await games.resign(gid, ResignIn(**args), token, hub)
                    elif kind == "color":
                        await online_routes.pick_color(gid, ColorPickIn(**args), token, hub)
                    elif kind == "name":
                        await online_routes.set_name(gid, NameIn(**args), token, hub)
                    await wire.send(websocket, {"type": "ack", "id": msg_id})
                except ApiError as exc:
                    await send_error(exc.code, exc.message, msg_id)
                except (ValidationError, TypeError):
                    await send_error("bad_request", "malformed message", msg_id)
    finally:
        hub.held.leave(client)
        if pusher is not None:
            pusher.cancel()
        if live is not None:
            live.holds -= 1
        if live is not None and isinstance(viewer, int):
            try:
                viewer = access.identify(live, token)  # its seat now (see push)
            except ApiError:
                pass
            if isinstance(viewer, int):
                live.sockets[viewer] = live.sockets.get(viewer, 1) - 1
            hub.bump(live)
