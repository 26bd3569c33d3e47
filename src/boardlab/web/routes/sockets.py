"""Route: a game's live WebSocket (state pushed on every change, actions both
ways). An action sent here is the HTTP route's own function, called with the
socket's token, so the two can never disagree.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from .. import access, online
from ..hub import Hub, Live
from ..schemas import AnswerIn, ApiError, KomiPickIn, MoveIn, NameIn, ResignIn
from . import games
from . import online as online_routes

router = APIRouter()

_WS_ACTIONS = ("move", "undo", "answer", "resign", "komi", "name")


class _Close(Exception):
    """Close the WebSocket with this code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


@router.websocket("/api/games/{gid}/ws")
async def game_socket(websocket: WebSocket, gid: str) -> None:
    """Live updates both ways. The first message authenticates:
    ``{"type": "auth", "token": T}`` (the token never goes in the URL). Then the server
    sends ``{"type": "state", "state": ...}`` on every change, and the client may send
    ``move`` (move, ply), ``undo``, ``answer`` (accept), ``resign``, ``komi`` (color),
    ``name`` (name) and ``ping``; a refused action answers ``{"type": "error", "error":
    {code, message}}``. Messages over 4 KiB close the socket (1009); more than 10 a
    second (bursts of 20) are refused with ``rate_limited``."""
    hub: Hub = websocket.app.state.hub
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
    token: str | None = None
    live: Live | None = None
    pusher: asyncio.Task | None = None
    try:
        try:
            first = await asyncio.wait_for(receive(), online.AUTH_TIMEOUT)
        except TimeoutError:
            raise _Close(1008, "no auth message") from None
        try:
            token = first.get("token") if first.get("type") == "auth" else None
            if not isinstance(token, (str, type(None))):
                token = ""
            live = hub.get(gid, token)
            live.holds += 1
            viewer = access.identify(live, token)
        except ApiError as exc:
            await send_error(exc.code, exc.message)
            raise _Close(1008, exc.code) from None
        if isinstance(viewer, int):
            live.sockets[viewer] = live.sockets.get(viewer, 0) + 1
            hub.bump(live)

        async def push() -> None:
            nonlocal viewer
            sent = None
            while True:
                event = live.changed
                if live.version != sent:
                    sent = live.version
                    # the token's seat, asked afresh: a komi pick can swap the seats
                    viewer = access.identify(live, token)
                    await websocket.send_json({"type": "state",
                                               "state": hub.views.state(live, None, viewer)})
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
                args = {k: v for k, v in msg.items() if k not in ("type", "id")}
                if kind == "move":
                    await games.play(gid, MoveIn(**args), token, hub)
                elif kind == "undo":
                    await games.undo(gid, token, hub)
                elif kind == "answer":
                    await online_routes.answer_undo(gid, AnswerIn(**args), token, hub)
                elif kind == "resign":
                    await games.resign(gid, ResignIn(**args), token, hub)
                elif kind == "komi":
                    await online_routes.pick_color(gid, KomiPickIn(**args), token, hub)
                elif kind == "name":
                    await online_routes.set_name(gid, NameIn(**args), token, hub)
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
