"""What a new machine meets first: the package metadata, `make test` where apt
is missing, and docs that only point at what the repository ships."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_license_metadata_is_readable_by_the_required_setuptools():
    # `license = "MIT"` (an SPDX string) and license-files need setuptools >= 77;
    # older ones refuse the string form outright.
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    for name in project["license-files"]:
        assert "MIT License" in (ROOT / name).read_text()
    (req,) = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    m = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", req)
    assert m and int(m.group(1)) >= 77, req


def test_markdown_renderer_is_a_declared_dependency():
    assert any(d.startswith("markdown-it-py") for d in PYPROJECT["project"]["optional-dependencies"]["web"])


SHIPPED = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
           *sorted((ROOT / "src").rglob("*.py")), *sorted((ROOT / "src").rglob("*.md")),
           *sorted(p for p in (ROOT / "src" / "boardlab" / "web" / "static").rglob("*")
                   if p.is_file())]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_points_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    for outside in ("../shared", "shared/RULES", "shared/seeds"):
        assert outside not in text, f"{path.relative_to(ROOT)} cites {outside}"


@pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")
def test_make_test_without_apt_says_the_browser_tests_will_be_skipped(tmp_path):
    # An empty PATH: no apt-get (make runs recipes with /bin/sh, whose builtins suffice).
    done = subprocess.run([shutil.which("make"), "-C", str(ROOT), "--no-print-directory",
                           "browser-or-skip", "CHROMIUM=/nonexistent/chromium"],
                          env={"PATH": str(tmp_path)}, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "the browser tests will be skipped" in done.stdout
    assert "make test CHROMIUM=" in done.stdout


def test_browser_tests_skip_with_the_reason_and_the_fix(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["BOARDLAB_CHROMIUM"] = str(tmp_path / "no-chromium")
    env["PYTHONPATH"] = str(ROOT / "src")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", "-rs",
                           "-p", "no:cacheprovider", str(ROOT / "tests" / "test_web_browser_player.py")],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "skipped" in done.stdout and "passed" not in done.stdout
    assert "make chromium" in done.stdout and "BOARDLAB_CHROMIUM" in done.stdout
