"""Running the app under uvicorn with the server's connection limits.

uvicorn closes a keep-alive connection that stays idle ``timeout_keep_alive``
seconds after an answer, but it waits for ever for a request's headers: a
client sending a header byte every few seconds (slowloris) holds a
connection, and forty of them held one for a minute. :class:`GuardedH11`
gives every request ``header_timeout`` seconds, from the connection's start
or the previous answer, to finish its headers, and closes it otherwise.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .settings import Settings


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers."""

    header_timeout: float = Settings.header_timeout
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def handle_websocket_upgrade(self, event) -> None:  # type: ignore[override]
        self._disarm()  # the socket is the WebSocket protocol's now (it pings)
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
        self._header_timer = None

    def _headers_late(self) -> None:
        """Close a connection still without a complete request (a request
        being answered, a WebSocket, is left alone)."""
        self._header_timer = None
        cycle = self.cycle
        if (cycle is None or cycle.response_complete) and not self.transport.is_closing():
            self.transport.close()


def uvicorn_config(app: Any, settings: Settings, host: str, port: int,
                   log_level: str = "info") -> Any:
    """The uvicorn Config that serves ``app`` with ``settings``' connection limits."""
    import uvicorn

    protocol = type("GuardedH11", (GuardedH11,), {"header_timeout": settings.header_timeout})
    return uvicorn.Config(app, host=host, port=port, log_level=log_level, http=protocol,
                          timeout_keep_alive=max(1, round(settings.keep_alive)),
                          limit_concurrency=settings.max_connections,
                          timeout_graceful_shutdown=2,
                          proxy_headers=settings.trust_proxy,
                          forwarded_allow_ips="*" if settings.trust_proxy else None)
