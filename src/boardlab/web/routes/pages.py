"""Routes: the rules of each game (JSON and a page), the API reference page
and the page itself. None of them changes anything or needs the hub."""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

import boardlab
from boardlab.errors import OptionError
from boardlab.rules import MissingRulesError, rules_text

from .. import markdown
from ..schemas import ERRORS, ApiError

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter()

#: every page's icon (a browser that asks /favicon.ico gets it too)
ICON = "<link rel=icon href='/static/favicon.svg' type='image/svg+xml'>"


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})


def rules_markdown(name: str) -> str | None:
    """The rules page of a game, in the project's words (boardlab/rules/<game>.md)."""
    try:
        return rules_text(name)
    except MissingRulesError:
        return None


@router.get("/api/rules/{name}", responses=ERRORS, summary="A game's rules in the project's words")
async def rules(name: str) -> dict[str, str]:
    try:
        cls = boardlab.game_class(name)
    except OptionError as exc:
        raise ApiError(404, "unknown_game", str(exc)) from None
    text = rules_markdown(cls.name)
    if text is None:
        raise ApiError(404, "no_rules", f"no rules page for {cls.name} yet")
    return {"game": cls.name, "markdown": text, "html": markdown.to_html(text)}


@router.get("/rules/{name}", response_class=HTMLResponse, include_in_schema=False)
async def rules_page(name: str) -> HTMLResponse:
    data = await rules(name)
    return HTMLResponse(
        "<!doctype html><html lang=en><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width,initial-scale=1'>"
        f"<title>{data['game'].capitalize()} rules</title>"
        "<link rel=stylesheet href='/static/style.css'>" + ICON +
        f"<body class=rules-page><main class=rules>{data['html']}"
        "<p><a href='/'>Back to boardlab</a></p></main>"
        "<script type=module src='/static/rules.js'></script></body></html>")


@router.get("/api", response_class=HTMLResponse, include_in_schema=False)
async def api_reference(request: Request) -> HTMLResponse:
    """The endpoints, from the OpenAPI document, as a page that needs no CDN
    (the Swagger UI page, whose scripts came from one, is gone)."""
    rows = []
    for path, ops in request.app.openapi()["paths"].items():
        for method, op in ops.items():
            rows.append(f"<tr><td><code>{method.upper()}</code></td><td><code>{html.escape(path)}"
                        f"</code></td><td>{html.escape(op.get('summary', ''))}</td></tr>")
    return HTMLResponse(
        "<!doctype html><html lang=en><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width,initial-scale=1'>"
        "<title>boardlab API</title><link rel=stylesheet href='/static/style.css'>" + ICON +
        "<body class=rules-page><main class=rules><h1>boardlab JSON API</h1>"
        "<p>Machine-readable: <a href='/api/openapi.json'>/api/openapi.json</a> (OpenAPI). "
        "Errors are <code>{\"error\": {\"code\", \"message\"}}</code>. "
        "See docs/web.md.</p><table><thead><tr><th>method</th><th>path</th><th>what</th>"
        "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        "<p><a href='/'>Back to boardlab</a></p></main></body></html>")


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})
