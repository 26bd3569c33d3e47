"""The package's import graph has no circles: a module never needs, however
indirectly, a module that needs it. Every import counts, including those inside
functions and under ``TYPE_CHECKING`` (a circle hidden that way is still one
that a change can close).

Read from the source with ``ast``: no import runs, so optional dependencies
need not be installed.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "boardlab"

def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (``from x import y`` names
    module ``x.y`` when that is a module, else ``x``)."""
    files = {_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in files)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    if full in files:
                        found.add(full)
                    elif target in files:
                        found.add(target)
        found.discard(module)
        graph[module] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(frozenset(group))
    return found


def test_the_circle_finder_finds_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": {"e"}}
    assert sorted(map(sorted, circles(graph))) == [["a", "b", "c"], ["e", "e2"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_lazy_and_type_checking_imports():
    graph = import_graph()
    assert "boardlab.records.model" in graph["boardlab.records.text"]        # from .model import
    assert "boardlab.core.pie" in graph["boardlab.core.game"]               # from . import pie
    assert "boardlab.ai.engines" in graph["boardlab.ai"]                    # inside a function


def test_no_import_circles():
    """None at all (issue 31 cut the last two: ``boardlab.ai`` <-> ``ai.engines``,
    whose registration imported the registry back, and ``boardlab.web`` <->
    ``web.app``, over ``DEFAULT_DB``, now in ``web.settings``)."""
    found = [sorted(c) for c in circles(import_graph())]
    assert not found, f"modules that import each other (directly or through others): {found}"


def test_records_has_no_import_circles():
    inside = [c for c in circles(import_graph()) if any(m.startswith("boardlab.records") for m in c)]
    assert not inside, inside
