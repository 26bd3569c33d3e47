"""What the two WebSockets (a game's, the analysis one) share: reading a
message whatever a client sends, writing one whatever text a stored game
holds, and the guard every socket runs under.

A socket handler must answer or close with a code, never crash: a binary
frame, brackets nested thousands deep (Python's JSON parser recurses), or a
lone surrogate in an echoed id (no UTF-8 for it) each dropped the connection
with 1006 and a traceback. Here: a binary frame is read as UTF-8 text or
closed 1003; nesting deeper than :data:`MAX_DEPTH` and anything not a JSON
object is a malformed message (answered, the socket stays open); the server
writes JSON as ASCII (``\\uXXXX`` escapes), which any string can be; and
whatever else fails closes the socket 1011 ("internal error"), logged.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

log = logging.getLogger("boardlab.web")

#: how deep a message's brackets may nest (the API's messages: 4 at most)
MAX_DEPTH = 32
#: an echoed ``id``: a number, or a string of at most this many characters
MAX_ID = 64
MALFORMED = {"type": "_malformed"}


class Closed(Exception):
    """Close the WebSocket with this code and reason."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether ``text``'s brackets nest deeper than ``limit`` (strings'
    contents aside): checked before parsing, in time linear in the text."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


async def receive(websocket: WebSocket, max_chars: int) -> dict[str, Any]:
    """The next message as a JSON object (:data:`MALFORMED` if it is not
    one). Raises WebSocketDisconnect when the client has gone, Closed for a
    message too big (1009) or bytes that are not UTF-8 (1003)."""
    msg = await websocket.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text = msg.get("text")
    if text is None:
        raw = msg.get("bytes") or b""
        if len(raw) > max_chars:
            raise Closed(1009, "message too big")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Closed(1003, "a message is UTF-8 JSON text") from None
    if len(text) > max_chars:
        raise Closed(1009, "message too big")
    if too_deep(text):
        return MALFORMED
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return MALFORMED
    return data if isinstance(data, dict) else MALFORMED


def message_id(msg: dict[str, Any]) -> str | int | float | None:
    """The ``id`` to echo: a number or a short string, else None."""
    value = msg.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) or (isinstance(value, str) and len(value) <= MAX_ID):
        return value
    return None


def dumps(data: Any) -> str:
    """JSON as ASCII: escapes make any string writable, a lone surrogate too."""
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"))


async def send(websocket: WebSocket, data: Any) -> None:
    await websocket.send_text(dumps(data))


@asynccontextmanager
async def guarded(websocket: WebSocket, what: str) -> AsyncIterator[None]:
    """Run a socket's body: a client that goes away ends it quietly, Closed
    closes with its code, anything else closes 1011 and is logged."""
    try:
        yield
    except WebSocketDisconnect:
        pass
    except Closed as exc:
        await _close(websocket, exc.code, exc.reason)
    except Exception:  # noqa: BLE001 - answer with a close code, never a dropped connection
        log.exception("the %s socket failed", what)
        await _close(websocket, 1011, "internal error")


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    if websocket.application_state == WebSocketState.DISCONNECTED:
        return
    try:
        await websocket.close(code, reason)
    except Exception:  # noqa: BLE001 - already gone
        pass
