"""The web app lists and shows the balance-study reports of a folder."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("fastapi")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from boardlab.web.app import create_app  # noqa: E402
from boardlab.web.settings import Settings  # noqa: E402


def _study(root, name: str, game: str, games: int) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "report.html").write_text(f"<html><h1>study {name}</h1></html>")
    (folder / "metrics.json").write_text(json.dumps({"game": game, "games": games}))


def test_studies_are_listed_and_shown(tmp_path):
    root = tmp_path / "results"
    _study(root, "balance/robble7", "robble", 80)
    _study(root, "yugo9", "yugo", 210)
    (root / "yugo9" / "records").mkdir()
    (root / "secret.html").write_text("not a study")
    app = create_app(tmp_path / "games.sqlite3", engine_workers=0,
                     settings=Settings(studies_dir=str(root)))
    with TestClient(app) as client:
        rows = client.get("/api/studies").json()
        assert sorted((r["name"], r["game"], r["games"]) for r in rows) == [
            ("balance/robble7", "robble", 80), ("yugo9", "yugo", 210)]
        page = client.get("/studies").text
        assert "/studies/balance/robble7" in page and "210 games" in page
        shown = client.get("/studies/balance/robble7")
        assert shown.status_code == 200 and "study balance/robble7" in shown.text
        for bad in ("/studies/secret.html", "/studies/../games.sqlite3", "/studies/nope"):
            answer = client.get(bad)
            assert answer.status_code == 404, bad


def test_no_folder_lists_nothing(tmp_path):
    app = create_app(tmp_path / "games.sqlite3", engine_workers=0,
                     settings=Settings(studies_dir=str(tmp_path / "missing")))
    with TestClient(app) as client:
        assert client.get("/api/studies").json() == []
        assert "no study reports" in client.get("/studies").text
