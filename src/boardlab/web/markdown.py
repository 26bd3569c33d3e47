"""Markdown to HTML for the rules pages, by markdown-it-py (CommonMark + tables).

The renderer is configured to be safe on any input, not only on the pages we
ship, because the function is a general one and a page is served to browsers:

- raw HTML in the source is escaped, never passed through;
- a link or image is kept only when its address is relative or uses http,
  https or mailto. Browsers drop ASCII control characters and blanks from an
  address before reading its scheme, so the check does too (``\\x01javascript:``
  is ``javascript:`` to a browser);
- nesting (quotes in quotes, lists in lists) is capped, so 2,000 nested quotes
  cannot exhaust the recursion limit; markdown-it's parser is linear on the
  pathological link and emphasis inputs (tests/test_markdown.py times them).

A fenced block whose info string is ``board`` is a diagram: its first line is
a position text, the optional lines after it are ``last: c3 d4`` (points to
mark as the last move), ``marks: e5`` (points to ring) and ``caption: ...``.
It becomes a ``<figure class="board-diagram">`` carrying the board as JSON
(the same cells the game page draws), with the position text as the fallback
the front end replaces by the board drawing (static/board.js).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

import boardlab
from boardlab.core import grid
from boardlab.errors import BoardlabError

from . import view

#: Deeper block nesting than this is shown as text (CommonMark preset: 20).
MAX_NESTING = 20
#: The address schemes a rendered link may use; anything else becomes text.
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")


class DiagramError(BoardlabError):
    """A ``board`` block of a page that is not a valid diagram (says which and why)."""


def safe_link(url: str) -> bool:
    """True when ``url`` is relative or uses one of SAFE_SCHEMES, read the way a
    browser reads it (control characters and blanks removed, case ignored).

    markdown-it calls this on the percent-encoded address, so it is decoded
    first: ``%01javascript:`` is refused too rather than trusted to stay
    relative."""
    bare = _INVISIBLE.sub("", unquote(url)).lower()
    m = _SCHEME.match(bare)
    return m is None or m.group(1) in SAFE_SCHEMES


def diagram(source: str) -> dict[str, Any]:
    """The JSON a ``board`` block carries: the board of its position text and its
    marks. DiagramError names the line that is wrong."""
    lines = [line.strip() for line in source.strip().splitlines() if line.strip()]
    if not lines:
        raise DiagramError("empty board diagram (its first line must be a position text)")
    try:
        game = boardlab.from_position(lines[0])
    except BoardlabError as exc:
        raise DiagramError(f"board diagram {lines[0]!r}: {exc}") from None
    names = set(grid.point_names(game.size))
    out: dict[str, Any] = {
        "game": game.name, "size": game.size, **view.board_facts(game),
        "cells": view.board_cells(game), "last_points": [], "marks": [], "caption": "",
        "position": lines[0],
    }
    for line in lines[1:]:
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("last", "marks", "caption"):
            raise DiagramError(f"board diagram {lines[0]!r}: unknown line {line!r} "
                               "(expected 'last: ...', 'marks: ...' or 'caption: ...')")
        if key == "caption":
            out["caption"] = value.strip()
            continue
        points = value.replace(",", " ").split()
        bad = [p for p in points if p not in names]
        if bad:
            raise DiagramError(f"board diagram {lines[0]!r}: {key}: {', '.join(bad)} "
                               f"not a point of a {game.size}x{game.size} board")
        out["last_points" if key == "last" else "marks"] = points
    return out


def _fence(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict,
           env: EnvType) -> str:
    token = tokens[idx]
    if token.info.strip() != "board":
        return RendererHTML.fence(self, tokens, idx, options, env)
    data = diagram(token.content)
    caption = data["caption"]
    label = caption or f"{data['game']} diagram"
    return (f'<figure class="board-diagram" data-view="{html.escape(json.dumps(data))}" '
            f'role="img" aria-label="{html.escape(label)}">'
            f"<pre>{html.escape(data['position'])}</pre>"
            + (f"<figcaption>{html.escape(caption)}</figcaption>" if caption else "")
            + "</figure>\n")


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "maxNesting": MAX_NESTING}).enable("table")
    md.validateLink = safe_link  # type: ignore[method-assign]
    md.add_render_rule("fence", _fence)
    return md


_MD = _parser()


def to_html(text: str) -> str:
    """HTML for ``text`` (any input is safe to serve, see the module docstring)."""
    return _MD.render(text)
