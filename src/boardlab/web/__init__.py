"""Play in the browser: a FastAPI app serving a JSON API and a static page.

``python -m boardlab.web --port 8000 --db data/boardlab.sqlite3`` starts it;
:func:`create_app` builds the ASGI app. See docs/web.md. FastAPI and uvicorn
(the ``web`` extra) are imported only when the app is built.
"""

from __future__ import annotations

from typing import Any

from .settings import DEFAULT_DB


def create_app(db_path: Any = DEFAULT_DB, engine_workers: int | None = None,
               **options: Any) -> Any:
    """The ASGI app (see :func:`boardlab.web.app.create_app`; ``options``:
    ``engine_timeout``, ``http_rate``, ``settings``)."""
    from .app import create_app as _create_app

    return _create_app(db_path, engine_workers, **options)


__all__ = ["DEFAULT_DB", "create_app"]
