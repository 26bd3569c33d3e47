"""Splicing a bench's generated Markdown into a doc between named markers.

A doc keeps ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` around each
generated part, so the prose around it stays hand-written and a bench
rewrites only its own part.
"""

from __future__ import annotations


def splice(path: str, name: str, text: str) -> None:
    """Replace what stands between the two ``name`` markers of ``path`` by ``text``."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    with open(path, encoding="utf-8") as fh:
        doc = fh.read()
    i, j = doc.find(begin), doc.find(end)
    if i < 0 or j < i:
        raise SystemExit(f"{path}: needs {begin} then {end}")
    body = text if text.endswith("\n") else text + "\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(doc[:i + len(begin)] + "\n" + body + doc[j:])
