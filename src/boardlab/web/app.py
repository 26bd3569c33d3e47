"""The web app: a FastAPI (ASGI) JSON API plus the static page that uses it.

Design in one paragraph: a stored game is its creation parameters plus its
move list (``db.Store``). The server keeps a live :class:`boardlab.Game` per
game it has touched, rebuilt by replaying the stored moves, and validates every
move with the library before committing it. All mutation happens on the event
loop; a computer move is computed in a worker process from plain data (the
move list) and applied only if the game has not changed meanwhile. Clients
learn about changes by long-polling ``GET /api/games/{id}?after=<version>``
or over a WebSocket. A game has two seats (human or computer), listed by
starting color; a pie swap flips which seat holds which color. See docs/web.md.

This module only assembles the app: the error envelope, the guards
(``guards``: host check, rate limit per client, security headers), the
routers (``routes``: games, online, records, review, sockets, analysis_api,
studies, pages) and the hub (``hub``: the live games, clocks, engine pool)
they share.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import boardlab

from . import guards, online
from .db import Store
from .hub import Hub
from .routes import analysis_api, games, pages, records, review, sockets, studies
from .routes import online as online_routes
from .schemas import ApiError, JSONAnswer, error_response
from .settings import DEFAULT_DB, Settings

STATIC = pages.STATIC


def create_app(db_path: str | Path = DEFAULT_DB, engine_workers: int | None = None,
               engine_timeout: float | None = None,
               http_rate: tuple[float, float] | None = None,
               settings: Settings | None = None) -> FastAPI:
    """The ASGI app. ``settings`` holds every limit and policy (see
    :class:`Settings`); ``engine_workers`` (0: a thread pool, for tests),
    ``engine_timeout`` and ``http_rate`` override its fields of those names."""
    settings = settings or Settings()
    overrides: dict[str, Any] = {k: v for k, v in (("engine_workers", engine_workers),
                                   ("engine_timeout", engine_timeout),
                                   ("http_rate", http_rate)) if v is not None}
    settings = replace(settings, **overrides)
    hub = Hub(Store(db_path), settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub.start()
        try:
            yield
        finally:
            hub.stop()

    app = FastAPI(
        title="boardlab", version=boardlab.__version__, lifespan=lifespan,
        default_response_class=JSONAnswer,
        description="Play Implo, Yugo, Pilo, Vimbre and Robble in the browser. "
                    "Every move is validated by the boardlab library; errors are "
                    '`{"error": {"code", "message"}}`.',
        docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub
    app.state.settings = settings
    app.state.client_key = lambda scope: hub.client_id(
        guards.client_key(scope, settings.trust_proxy))

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        details = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            details.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
        return error_response(400, "bad_request", "; ".join(details) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                413: "too_large"}.get(exc.status_code, "http_error")
        return error_response(exc.status_code, code, str(exc.detail))

    # middleware: the last added runs first. The security headers wrap every
    # answer (a refused host's 421, an unexpected failure's 500); then a
    # refused host or origin costs nothing more.
    app.add_middleware(online.BodyLimit, limit=online.MAX_BODY)
    rate, burst = settings.http_rate
    app.add_middleware(guards.ClientRateLimit, rate=rate, burst=burst,
                       trust_proxy=settings.trust_proxy)
    app.add_middleware(guards.OriginCheck, allowed=settings.allowed_origins)
    if settings.allowed_hosts is not None:
        app.add_middleware(guards.HostCheck, allowed=settings.allowed_hosts)
    app.add_middleware(guards.Internal)
    app.add_middleware(guards.SecurityHeaders, csp=settings.csp,
                       frame_options=settings.frame_options)

    for module in (games, online_routes, records, review, sockets, analysis_api, studies, pages):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
