"""Play a friend by link: seat tokens, request limits.

A seat token is ``secrets.token_urlsafe(24)``; only its SHA-256 is stored and
it is compared with :func:`hmac.compare_digest`. The page keeps a token in the
URL fragment (never sent to the server in a request line, so never in an
access log) and sends it in the ``X-Seat-Token`` header.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import unicodedata

from starlette.exceptions import HTTPException

TOKEN_HEADER = "x-seat-token"
#: the saved-games list shows the games whose owner tokens the browser sends here
OWNER_TOKENS_HEADER = "x-owner-tokens"
#: owner tokens read from one list request (the page keeps no more)
MAX_OWNER_TOKENS = 200
MAX_TOKEN = 128
MAX_NAME = 40
#: the largest request body the server reads (a long game record fits easily)
MAX_BODY = 256 * 1024


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def matches(stored_hash: str | None, token: str) -> bool:
    if not stored_hash:
        return False
    return hmac.compare_digest(stored_hash, token_hash(token))


def matches_share(share: str | None, token: str | None) -> bool:
    """Whether ``token`` is a game's share token (a read-only link). Unlike a
    seat token it is stored as it is, so the owner can be given the same link
    again: it only lets one read what the database it is stored in holds."""
    if not share or not token or len(token) > MAX_TOKEN:
        return False
    return hmac.compare_digest(share.encode(), token.encode("utf-8", "replace"))


def owner_tokens(header: str | None) -> list[str]:
    """The owner tokens a browser sends with the list (comma-separated): at
    most :data:`MAX_OWNER_TOKENS`, each at most :data:`MAX_TOKEN` long."""
    if not header:
        return []
    out = [t.strip() for t in header.split(",", MAX_OWNER_TOKENS)[:MAX_OWNER_TOKENS]]
    return [t for t in out if t and len(t) <= MAX_TOKEN]


def clean_name(name: str | None, default: str) -> str:
    """A display name: printable characters only, trimmed, at most MAX_NAME."""
    if name is None:
        return default
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] not in ("C",))
    text = " ".join(text.split())[:MAX_NAME]
    return text or default


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413."""

    def __init__(self, app, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    return await _too_large(send, self.limit)
        seen = 0

        async def limited_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # a chunked body: FastAPI answers this one
                    raise HTTPException(413, f"request body over {self.limit} bytes")
            return message

        await self.app(scope, limited_receive, send)


async def _too_large(send, limit: int) -> None:
    body = json.dumps({"error": {"code": "too_large",
                                 "message": f"request body over {limit} bytes"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------- WebSocket limits
#: the largest WebSocket message the server reads, in bytes (characters for text)
MAX_MESSAGE = 4096
#: seconds a new WebSocket has to send its auth message
AUTH_TIMEOUT = 10.0
#: seconds a page that polls instead of holding a socket still counts as connected
POLL_PRESENCE = 30.0


class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` per second."""

    def __init__(self, rate: float = 10.0, burst: float = 20.0, clock=None) -> None:
        import time
        self.clock = clock or time.monotonic
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = self.clock()
        self.refused = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False
