"""A study folder's ``report.html`` and its figures as files.

The page is :func:`boardlab.study.view.standalone`: the answers, then the
evidence as inline SVG (:mod:`boardlab.study.figures`), then every metric;
nothing is loaded from outside the file, so it can be mailed or archived as
it is. :func:`write_figures` writes each figure as an ``.svg`` file (for
docs/balance.md).
"""

from __future__ import annotations

import os
import re
from typing import Any

from .figures import figures
from .view import standalone


def write_report(summary: dict[str, Any], path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(standalone(summary))


def write_figures(summary: dict[str, Any], directory: str, prefix: str) -> list[str]:
    """Every figure as ``DIRECTORY/PREFIX-N-TITLE.svg``; the paths."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for k, (title, svg) in enumerate(figures(summary), 1):
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]
        path = os.path.join(directory, f"{prefix}-{k}-{slug}.svg")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(svg)
        paths.append(path)
    return paths
