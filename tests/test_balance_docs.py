"""docs/balance.md says what the published studies say, and the published
studies are what bench/balance_studies.sh's commands ran.

Not the page byte for byte: each figure in the page's tables and crossing
sentences is read back (by its column's name) and compared with the study's
summary recomputed from src/boardlab/study/published/, to the precision the
page prints. A study re-run without ``bench/balance_doc.py`` (or a page edited
by hand) fails here, naming the study, row and column.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from boardlab.study import published
from boardlab.study.cli import build_parser
from boardlab.study.spec import parse_option_args, parse_sizes

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "balance.md").read_text(encoding="utf-8")
SCRIPT = (ROOT / "bench" / "balance_studies.sh").read_text(encoding="utf-8")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


@pytest.fixture(scope="module")
def summaries() -> dict[str, dict]:
    return {n: published.summary(published.load(n)) for n in published.names()}


def numbers(cell: str) -> list[tuple[float, float]]:
    """The numbers a cell prints, each with half a unit of its last digit."""
    out = []
    for text in NUMBER.findall(cell):
        digits = text.split(".")[1] if "." in text else ""
        out.append((float(text.replace(",", "")), 0.5 * 10 ** -len(digits) + 1e-9))
    return out


def _rate(r: dict | None) -> list[float] | None:
    return None if r is None else [r["value"], r["low"], r["high"]]


#: a study table's column -> the figures it must print for a group
COLUMNS = {
    "games": lambda g: [g["metrics"]["games"]],
    "first player": lambda g: _rate(g["metrics"].get("FirstPlayerScore")),
    "first color": lambda g: _rate(g["metrics"].get("FirstColorScore")),
    "Balance": lambda g: _rate(g["metrics"].get("Balance")),
    "draws": lambda g: _rate(g["metrics"].get("Drawishness")),
    "swap rate": lambda g: _rate(g["metrics"].get("SwapRate")),
    "plies mean (median)": lambda g: [g["metrics"]["DurationPlies"]["mean"],
                                      g["metrics"]["DurationPlies"]["median"]],
    "turns": lambda g: [g["metrics"]["DurationTurns"]["mean"]],
    "branching mean / max": lambda g: [g["metrics"]["BranchingFactor"]["mean"],
                                       g["metrics"]["BranchingFactor"]["max"]],
    "LeadChange": lambda g: [g["metrics"]["LeadChange"]["mean"]]
    if "LeadChange" in g["metrics"] else None,
    "DecisivenessThreshold": lambda g: [g["metrics"]["DecisivenessThreshold"]["mean"]]
    if "DecisivenessThreshold" in g["metrics"] else None,
    "simulations per move at the start":
        lambda g: [g["adequacy"]["OpeningSimulationsPerMove"]["median"]]
        if "OpeningSimulationsPerMove" in g.get("adequacy", {}) else None,
}


def check(cell: str, want: list[float] | None, where: str) -> None:
    if want is None:
        assert cell.strip() == "-", f"{where}: the page prints {cell!r}, the study has none"
        return
    got = numbers(cell)
    assert len(got) == len(want), f"{where}: the page prints {cell!r}, the study {want}"
    for (value, tol), expected in zip(got, want, strict=True):
        assert abs(value - expected) <= tol, f"{where}: the page prints {cell!r}, the study {want}"


def rows_of(block: str) -> tuple[list[str], list[list[str]]]:
    """A Markdown table's header and rows (the first table in ``block``)."""
    lines = [ln for ln in block.splitlines() if ln.startswith("|")]
    split = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]
    return split[0], [r for r in split[2:]]


def _options(text: str) -> dict:
    out = {}
    for item in text.split():
        if item == "-":
            continue
        key, _, value = item.partition("=")
        out[key] = {"yes": True, "no": False}.get(value, int(value) if value.lstrip("-").isdigit()
                                                    else value)
    return out


def blocks(kind: str) -> list[tuple[str, str]]:
    return re.findall(rf"<!-- {kind}:([\w.-]+) -->\n(.*?)<!-- /{kind} -->", DOC, flags=re.S)


def test_every_published_study_is_on_the_page_and_in_the_script(summaries):
    on_page = {name for name, _ in blocks("study")}
    in_script = set(re.findall(r"^study (\S+)", SCRIPT, flags=re.M))
    assert on_page == set(summaries), "docs/balance.md and the published studies differ"
    assert in_script == set(summaries), "bench/balance_studies.sh and the published studies differ"


def test_the_published_studies_are_the_scripts_commands(summaries):
    """The command of each line of bench/balance_studies.sh is what the
    published study recorded (sizes, option values, games, engine, seed)."""
    for line in re.findall(r"^study (.+)$", SCRIPT, flags=re.M):
        name, game, *args = shlex.split(line)
        a = build_parser().parse_args([game, *args])
        spec = summaries[name]["spec"]
        assert spec["game"] == game
        assert spec["sizes"] == parse_sizes(a.sizes, game), name
        assert spec["grid"] == parse_option_args(game, a.option), name
        assert (spec["games"], spec["engine"], spec["seed"]) == (a.games, a.engine, a.seed), name
        assert set(summaries[name]["settings"]) == {a.engine}, name


def test_the_study_tables_show_the_published_figures(summaries):
    for name, block in blocks("study"):
        s = summaries[name]
        header, rows = rows_of(block)
        assert {"engine", "size", "options", "first player"} <= set(header), name
        assert len(rows) == len(s["groups"]), f"{name}: the page has {len(rows)} rows"
        for row in rows:
            cells = dict(zip(header, row, strict=True))
            key = (cells["engine"], int(cells["size"]), _options(cells["options"]))
            (g,) = [g for g in s["groups"]
                    if (g["engine"], g["size"], g["options"]) == key] or [None]
            assert g is not None, f"{name}: the page has a row {key} the study lacks"
            for column, cell in cells.items():
                if column in COLUMNS:
                    check(cell, COLUMNS[column](g), f"{name} {key} {column}")
            if "warnings" in cells:
                names = {w.split(":")[0] for w in g["warnings"]}
                assert set(cells["warnings"].split("; ")) - {"-"} == names, f"{name} {key}"


def test_the_crossings_show_the_published_figures(summaries):
    pattern = re.compile(r"(\S+) (\d+)x\d+: the first color's score crosses 50% at (\w+) = "
                         r"\*\*([-\d.]+)\*\* \(95% bootstrap interval ([-\d.]+) \.\. ([-\d.]+)")
    seen = 0
    for name, block in blocks("study"):
        for engine, size, option, *figs in pattern.findall(block):
            (c,) = [c for c in summaries[name]["crossings"] if (c["engine"], c["size"],
                                                               c["option"]) == (engine, int(size), option)]
            check(" ".join(figs), [c["crossing"], c["low"], c["high"]], f"{name} crossing")
            seen += 1
    assert seen == sum(c["crossing"] is not None for s in summaries.values()
                       for c in s["crossings"])


def test_the_comparison_and_the_runs_show_the_published_figures(summaries):
    (compare,) = re.findall(r"<!-- compare -->\n(.*?)<!-- /compare -->", DOC, flags=re.S)
    header, rows = rows_of(compare)
    assert rows, "the comparison table is empty"
    for question, *cells in rows:
        m = re.fullmatch(r"(\w+) (\d+)x\d+ (.*): (.+)", question)
        assert m, question
        size, options, metric = int(m.group(2)), _options(m.group(3)), m.group(4)
        for cell in cells:
            study, _, figs = cell.partition(": ")
            (g,) = [g for g in summaries[study]["groups"]
                    if g["size"] == size and g["options"] == options]
            want = COLUMNS[metric](g) + ([g["metrics"]["games"]] if metric in (
                "first player", "swap rate") else [])
            check(figs, want, f"comparison {question} {study}")
    (runs,) = re.findall(r"<!-- runs -->\n(.*?)<!-- /runs -->", DOC, flags=re.S)
    header, rows = rows_of(runs)
    by_study: dict[str, list[list[str]]] = {}
    for row in rows:
        by_study.setdefault(row[0], []).append(row)
    for name in summaries:
        stored = published.load(name)["runs"]
        assert len(by_study.get(name, [])) == len(stored), f"runs of {name}"
        for row, r in zip(by_study[name], stored, strict=True):
            cells = dict(zip(header, row, strict=True))
            check(cells["games played"], [r["played"]], f"runs of {name}")
            check(cells["games/s"], [r["games_per_second"]], f"runs of {name}")
            check(cells["wall s"], [r["wall_seconds"]], f"runs of {name}")
