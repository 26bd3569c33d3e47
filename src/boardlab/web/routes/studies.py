"""Routes: the balance-study reports (``boardlab study``) found in a folder.

``GET /studies`` lists every ``report.html`` under the server's
``studies_dir`` (``Settings.studies_dir``, ``boardlab serve --studies DIR``;
default ``results``, where ``boardlab study`` writes), newest first, with
the game and the number of games from the study's ``metrics.json``;
``GET /studies/{name}`` shows one. Only the reports the listing found are
served, by their folder name, so no path from a request reaches the disk.
Nothing here writes or needs the hub.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from ..schemas import ERRORS, ApiError

router = APIRouter()

#: how deep under the folder a study may sit (results/balance/robble7 is 2)
MAX_DEPTH = 3


def studies_dir(request: Request) -> Path:
    settings = request.app.state.settings
    return Path(getattr(settings, "studies_dir", None) or "results")


def find_reports(root: Path) -> dict[str, Path]:
    """Study name (its folder, relative to ``root``, with ``/``) -> report path."""
    found: dict[str, Path] = {}
    if not root.is_dir():
        return found
    base = len(root.parts)
    for folder, dirs, files in os.walk(root):
        depth = len(Path(folder).parts) - base
        if depth >= MAX_DEPTH:
            dirs[:] = []
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "records"]
        if "report.html" in files and depth > 0:
            rel = Path(folder).relative_to(root).as_posix()
            found[rel] = Path(folder) / "report.html"
    return found


def _facts(report: Path) -> dict:
    try:
        data = json.loads((report.parent / "metrics.json").read_text(encoding="utf-8"))
        return {"game": data.get("game"), "games": data.get("games")}
    except (OSError, ValueError):
        return {"game": None, "games": None}


@router.get("/api/studies", responses=ERRORS, summary="The study reports the server can show")
async def list_studies(request: Request) -> list[dict]:
    reports = find_reports(studies_dir(request))
    rows = [{"name": name, "url": f"/studies/{name}", "modified": path.stat().st_mtime,
             **_facts(path)} for name, path in reports.items()]
    return sorted(rows, key=lambda r: -r["modified"])


@router.get("/studies", response_class=HTMLResponse, include_in_schema=False)
async def studies_page(request: Request) -> HTMLResponse:
    rows = await list_studies(request)
    items = "".join(
        f"<li><a href='{html.escape(r['url'])}'>{html.escape(r['name'])}</a> "
        f"({html.escape(str(r['game'] or '?'))}, {r['games'] or '?'} games)</li>"
        for r in rows) or "<li>no study reports in this folder yet (boardlab study ...)</li>"
    return HTMLResponse("<!doctype html><html lang=en><meta charset=utf-8>"
                        "<title>Balance studies</title><h1>Balance studies</h1>"
                        f"<ul>{items}</ul></html>")


@router.get("/studies/{name:path}", include_in_schema=False)
async def study_report(name: str, request: Request) -> FileResponse:
    reports = find_reports(studies_dir(request))
    if name not in reports:
        raise ApiError(404, "no_study", f"no study report named {name!r}")
    return FileResponse(reports[name], media_type="text/html")
