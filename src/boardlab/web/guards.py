"""ASGI middleware that guards every request before a route sees it: the Host
header (DNS rebinding), a WebSocket's Origin (another site's page), a request
rate per client, the security headers of every answer (errors included) and
the 500 answer of a failure no route expected.

A *client* is the peer's address without its port (a browser opens many
connections, an attacker as many as it likes, so a per-connection limit
limits nothing), or with ``trust_proxy`` the first ``X-Forwarded-For``
address.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from .online import RateLimit

log = logging.getLogger("boardlab.web")


def client_key(scope: dict[str, Any], trust_proxy: bool = False) -> str:
    """Who sent this request, as the limits count clients."""
    if trust_proxy:
        for key, value in scope.get("headers", ()):
            if key == b"x-forwarded-for":
                first = value.decode("latin-1").split(",")[0].strip()
                if first:
                    return first[:64]
    client = scope.get("client")
    return str(client[0]) if client else "?"


async def send_error(send, status: int, code: str, message: str,
                     headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Answer with the API's error envelope, from middleware (no route ran)."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


def host_name(header: str) -> str:
    """The name in a Host header, without its port (``[::1]:8000`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostCheck:
    """Refuse (421) a request whose Host header names a host this server is not:
    a page on an attacker's domain that re-points its name at 127.0.0.1 (DNS
    rebinding) reaches a local server with its own name in Host. IP
    literals are always accepted (a rebinding host is a name); ``*`` in
    ``allowed`` accepts any name."""

    def __init__(self, app, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = {h.lower().strip("[]") for h in allowed}

    def permits(self, header: str) -> bool:
        name = host_name(header)
        return "*" in self.allowed or name in self.allowed or is_ip(name)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        header = next((v.decode("latin-1") for k, v in scope.get("headers", ())
                       if k == b"host"), "")
        if self.permits(header):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await send_error(send, 421, "bad_host", f"this server does not answer for host "
                         f"{host_name(header)[:80]!r} (see --allowed-host)")


class OriginCheck:
    """Refuse a WebSocket opened by a page of another origin (403 at the
    handshake): a browser sends its page's origin, and a page on any site
    could otherwise open the server's sockets through a visitor's browser
    (run analyses on a LAN server, watch its games). Allowed: the server's
    own origin (the Origin's host and port are the Host header's), those in
    ``allowed`` (``scheme://host[:port]``; ``*``: any), and a client that
    sends no Origin (a program, not a page)."""

    def __init__(self, app, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {o.strip().lower().rstrip("/") for o in allowed}

    def permits(self, origin: str, host: str) -> bool:
        origin = origin.strip().lower().rstrip("/")
        if "*" in self.allowed or origin in self.allowed:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and bool(parts.netloc) \
            and parts.netloc == host.strip().lower()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            origin = host = None
            for key, value in scope.get("headers", ()):
                if key == b"origin":
                    origin = value.decode("latin-1")
                elif key == b"host":
                    host = value.decode("latin-1")
            if origin is not None and not self.permits(origin, host or ""):
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "this page's origin may not open the server's sockets"})
                return
        await self.app(scope, receive, send)


class Internal:
    """Answer 500 ``internal`` (the API's envelope, never a stack trace) for
    a failure no route expected, inside the security headers: Starlette's
    own last-resort handler sits outside every middleware, so its 500s went
    without them. The failure is logged."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def watched(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:  # noqa: BLE001 - the point of this middleware
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                await send_error(send, 500, "internal", "the server failed on this request")


class ClientRateLimit:
    """A token bucket per client (see :func:`client_key`): over it, 429
    ``rate_limited``. Generous enough for a page that polls and plays; idle
    clients' buckets are dropped after a minute."""

    def __init__(self, app, rate: float, burst: float, trust_proxy: bool = False) -> None:
        self.app = app
        self.rate, self.burst = rate, burst
        self.trust_proxy = trust_proxy
        self.buckets: dict[str, RateLimit] = {}
        self.calls = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        key = client_key(scope, self.trust_proxy)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = RateLimit(self.rate, self.burst)
        self.calls += 1
        if self.calls % 1000 == 0:
            now = bucket.clock()
            for k in [k for k, b in self.buckets.items() if now - b.last > 60.0]:
                del self.buckets[k]
        if not bucket.allow():
            await send_error(send, 429, "rate_limited", "too many requests; slow down",
                             [(b"retry-after", b"1")])
            return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """Add the security headers to every HTTP answer: Content-Security-Policy,
    X-Frame-Options, X-Content-Type-Options: nosniff and Referrer-Policy."""

    def __init__(self, app, csp: str | None, frame_options: str | None) -> None:
        self.app = app
        extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]
        if csp:
            extra.append((b"content-security-policy", csp.encode()))
        if frame_options:
            extra.append((b"x-frame-options", frame_options.encode()))
        self.extra = extra

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", ())}
                message = {**message, "headers": [*message.get("headers", ()),
                                                  *(h for h in self.extra if h[0] not in names)]}
            await send(message)

        await self.app(scope, receive, with_headers)
