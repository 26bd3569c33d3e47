"""The studies docs/balance.md publishes, shipped with boardlab.

A study folder (``results.sqlite`` and its records) is megabytes, mostly the
per-position table; what the tables, the figures and the web page need is
one row per game. :func:`export` writes that, with what the games were
played with (the command's study, the engine's full settings, the boardlab
version) and the runs' throughput, to ``published/NAME.json.gz`` (tens of
KB). ``bench/balance_doc.py`` exports every study ``bench/balance_studies.sh``
ran and rewrites docs/balance.md from these files; the web app's Studies
page shows them when its own folder has none; a test checks the page's
figures against them.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

from .storage import DB_NAME, Store, StudyError
from .summary import summarise

DIR = Path(__file__).resolve().parent / "published"
FORMAT = 1
#: per game, the times are kept to the millisecond (they are not in the docs' tables)
TIMES = ("seconds", "engine_seconds", "cpu_seconds")


def export(folder: str | os.PathLike[str], name: str) -> dict[str, Any]:
    """A study folder as one JSON-able dict (see the module docstring)."""
    folder = Path(folder)
    if not (folder / DB_NAME).exists():
        raise StudyError(f"{folder / DB_NAME}: no study here")
    store = Store(str(folder), _game(folder), resume=True)
    try:
        meta = store.meta()
        rows = store.games()
    finally:
        store.close()
    columns = sorted({k for r in rows for k in r})
    runs_file = folder / "runs.jsonl"
    runs = [json.loads(line) for line in runs_file.read_text().splitlines()] \
        if runs_file.exists() else []
    return {"format": FORMAT, "name": name, "game": meta["game"], "spec": meta.get("spec"),
            "settings": {k.partition(":")[2]: v for k, v in meta.items()
                         if k.startswith("settings:")},
            "columns": columns,
            "rows": [[round(r[c], 3) if c in TIMES and r.get(c) is not None else r.get(c)
                      for c in columns] for r in rows],
            "runs": runs}


def _game(folder: Path) -> str:
    import sqlite3
    db = sqlite3.connect(f"file:{folder / DB_NAME}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT value FROM meta WHERE key='game'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StudyError(f"{folder / DB_NAME}: {exc}") from None
    finally:
        db.close()
    if row is None:
        raise StudyError(f"{folder / DB_NAME}: no game recorded")
    return row[0]


def write(data: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """``data`` as gzip JSON, byte-identical for identical data (no timestamp)."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    Path(path).write_bytes(gzip.compress(raw, mtime=0))


def read(path: str | os.PathLike[str]) -> dict[str, Any]:
    data = json.loads(gzip.decompress(Path(path).read_bytes()))
    if data.get("format") != FORMAT:
        raise StudyError(f"{path}: published-study format {data.get('format')!r}, this "
                         f"boardlab reads {FORMAT}")
    return data


def rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The game rows, as :meth:`Store.games` gives them."""
    return [dict(zip(data["columns"], r, strict=True)) for r in data["rows"]]


def names(directory: Path = DIR) -> list[str]:
    """The published studies, by name."""
    return sorted(p.name.removesuffix(".json.gz") for p in directory.glob("*.json.gz"))


def load(name: str, directory: Path = DIR) -> dict[str, Any]:
    return read(directory / f"{name}.json.gz")


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """The study's summary (what the docs' tables and the page show), with the
    study's identity: name, command and settings."""
    seed = (data.get("spec") or {}).get("seed", 1)
    out = summarise(data["game"], rows(data), seed=seed)
    return out | {"name": data["name"], "spec": data.get("spec"),
                  "settings": data.get("settings", {})}
