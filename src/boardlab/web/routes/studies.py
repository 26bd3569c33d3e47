"""Routes: balance studies (``boardlab study``), answers first.

Two sources: the studies boardlab publishes (docs/balance.md;
:mod:`boardlab.study.published`, shipped with the package, so the page is
never empty) at ``/studies/published/NAME``, and every study in the server's
``studies_dir`` (``Settings.studies_dir``, ``boardlab serve --studies DIR``;
default ``results``, where ``boardlab study`` writes) with a ``metrics.json``,
at ``/studies/FOLDER`` (its folder relative to the studies folder).

``GET /studies`` lists them with their verdicts (the plain-language answers of
:mod:`boardlab.study.verdict`); ``GET /studies/NAME`` shows one: answers,
evidence (figures), every metric; ``GET /api/studies`` and
``GET /api/studies/NAME`` give the same as JSON. Only the studies the listing
found are served, by name, so no path from a request reaches the disk.
Nothing here writes or needs the hub.
"""

from __future__ import annotations

import functools
import html
import json
import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from boardlab.study import published
from boardlab.study.verdict import verdicts
from boardlab.study.view import CSS, facts, study_html

from ..schemas import ERRORS, ApiError
from .pages import ICON

router = APIRouter()

#: how deep under the folder a study may sit (results/balance/robble7 is 2)
MAX_DEPTH = 3
PUBLISHED = "published/"


def studies_dir(request: Request) -> Path:
    settings = request.app.state.settings
    return Path(getattr(settings, "studies_dir", None) or "results")


def find_studies(root: Path) -> dict[str, Path]:
    """Study name (its folder relative to ``root``, with ``/``) -> its metrics.json."""
    found: dict[str, Path] = {}
    if not root.is_dir():
        return found
    base = len(root.parts)
    for folder, dirs, files in os.walk(root):
        depth = len(Path(folder).parts) - base
        if depth >= MAX_DEPTH:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "records")
        if "metrics.json" in files and depth > 0:
            rel = Path(folder).relative_to(root).as_posix()
            if not rel.startswith(PUBLISHED):
                found[rel] = Path(folder) / "metrics.json"
    return found


@functools.lru_cache(maxsize=64)
def _published_summary(name: str, stamp: int) -> dict[str, Any]:
    """A published study's summary (the bootstrap takes ~0.5 s: computed once
    per file version)."""
    return published.summary(published.load(name))


def _folder_summary(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or "groups" not in data:
        return None
    return data | {"name": path.parent.name}


def _summary(name: str, request: Request) -> dict[str, Any]:
    if name.startswith(PUBLISHED) and name[len(PUBLISHED):] in published.names():
        short = name[len(PUBLISHED):]
        return _published_summary(short, (published.DIR / f"{short}.json.gz").stat().st_mtime_ns)
    path = find_studies(studies_dir(request)).get(name)
    summary = _folder_summary(path) if path else None
    if summary is None:
        raise ApiError(404, "no_study", f"no study named {name!r}")
    return summary


def _entries(request: Request) -> list[dict[str, Any]]:
    out = []
    for name, path in find_studies(studies_dir(request)).items():
        summary = _folder_summary(path)
        if summary is not None:
            out.append(_entry(name, "folder", summary))
    for short in published.names():
        out.append(_entry(PUBLISHED + short, "published", _summary(PUBLISHED + short, request)))
    return out


def _entry(name: str, source: str, summary: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "source": source, "url": f"/studies/{name}", "game": summary["game"],
            "games": summary["games"], "facts": facts(summary),
            "verdicts": verdicts(summary)}


@router.get("/api/studies", responses=ERRORS,
            summary="The balance studies the server can show, with their verdicts")
def list_studies(request: Request) -> list[dict]:
    return _entries(request)


@router.get("/api/studies/{name:path}", responses=ERRORS,
            summary="One balance study's summary: metrics, crossings, warnings")
def study_summary(name: str, request: Request) -> dict:
    return _summary(name, request)


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width,initial-scale=1'>"
        f"<title>{html.escape(title)}</title>{ICON}"
        f"<link rel=stylesheet href='/static/style.css'><style>{CSS}</style></head><body>"
        "<header class=top><a class=brand href='/'>boardlab</a><nav aria-label=Main>"
        "<a href='/'>Play</a><a href='/studies' aria-current=page>Studies</a>"
        "<a href='/api'>API</a></nav></header>"
        f"<main id=main>{body}</main></body></html>")


def _verdict_items(entry: dict[str, Any]) -> str:
    return "".join(f"<li class='v-{v['kind']}'><strong>{html.escape(v['text'])}.</strong>"
                   f"<span class=evidence>{html.escape(v['evidence'])}</span></li>"
                   for v in entry["verdicts"])


@router.get("/studies", response_class=HTMLResponse, include_in_schema=False)
def studies_page(request: Request) -> HTMLResponse:
    entries = _entries(request)
    sections = []
    for source, heading, note in (
            ("folder", "Your studies", f"from the folder {html.escape(str(studies_dir(request)))}"),
            ("published", "Published with boardlab",
             "the studies of docs/balance.md, played by bench/balance_studies.sh")):
        rows = [e for e in entries if e["source"] == source]
        if not rows:
            continue
        items = "".join(
            f"<li><h2><a href='{html.escape(e['url'])}'>{html.escape(e['name'].removeprefix(PUBLISHED))}"
            f"</a></h2><p class=facts>{html.escape(e['facts'])}</p>"
            f"<ul class=verdicts>{_verdict_items(e)}</ul>"
            f"<a href='{html.escape(e['url'])}'>The evidence</a></li>" for e in rows)
        sections.append(f"<section class=study><h2>{heading}</h2><p class=hint>{note}</p>"
                        f"<ul class=study-list>{items}</ul></section>")
    if not any(e["source"] == "folder" for e in entries):
        sections.append("<p class=hint>Studies you run (<code>boardlab study GAME</code>) "
                        f"appear here from the folder {html.escape(str(studies_dir(request)))}."
                        "</p>")
    return _page("Balance studies",
                 "<h1>Balance studies</h1><p>Is each game fair, with and without its pie "
                 "rule or komi? Self-play answers, each with how sure it is; open a study "
                 "for its evidence.</p>" + "".join(sections))


@router.get("/studies/{name:path}", response_class=HTMLResponse, include_in_schema=False)
def study_page(name: str, request: Request) -> HTMLResponse:
    summary = _summary(name, request)
    title = name.removeprefix(PUBLISHED)
    return _page(f"Balance study: {title}",
                 f"<p><a href='/studies'>All studies</a></p><h1>Balance study: "
                 f"{html.escape(title)}</h1>" + study_html(summary, title="Answers"))
