"""The resumable acceptance driver (boardlab.ai.acceptance), on tiny matches."""

from __future__ import annotations

import gzip
import math
import time
from pathlib import Path

import pytest

from boardlab import records
from boardlab.ai import acceptance, stats
from boardlab.ai.acceptance import Planned


def _rounds(path: str) -> list[int]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [int(r.tags["Round"]) for r in records.parse_all(fh.read())]


def test_plan_covers_every_game_and_table():
    keys = [m.key for m in acceptance.plan()]
    assert len(keys) == len(set(keys)) == 5 * (1 + 1 + 5)
    for game in acceptance.GAMES:
        assert f"random/{game}/mcts-vs-random" in keys
        assert f"4x/{game}/mcts:200-vs-mcts:50" in keys
        assert f"levels/{game}/level1-vs-random" in keys
        for k in (1, 2, 3, 4):
            assert f"levels/{game}/level{k + 1}-vs-level{k}" in keys


def test_steps_then_report(tmp_path):
    m = Planned("levels", "robble", "mcts:6", "random")
    seen: list[str] = []
    assert acceptance.run([m], str(tmp_path), [2, 3], jobs=1, deadline=None, log=seen.append)
    assert seen[0].startswith("levels/robble/mcts:6-vs-random: 2 games")
    assert seen[1].startswith("levels/robble/mcts:6-vs-random: 3 games")
    assert _rounds(m.path(str(tmp_path))) == [1, 2, 3]
    # a second run finds everything done and plays nothing
    seen.clear()
    assert acceptance.run([m], str(tmp_path), [3], jobs=1, deadline=None, log=seen.append)
    assert seen == []
    table = acceptance.report(str(tmp_path), [m, Planned("levels", "pilo", "a", "b")])
    row = next(line for line in table.splitlines() if line.startswith("| robble"))
    result = acceptance.load(m, str(tmp_path))
    e = result.elo
    assert f"| 3 | {e.wins}-{e.losses}-{e.draws} |" in row
    assert row.endswith(f"| {'so far' if e.significant else 'not yet'} (3 of 200 games) |")
    assert f"| {e.p_sign:.2g} | - / - |" in row  # iteration budgets: no time limit to show
    assert "| pilo | a | b | 0 |" in table and "not run" in table
    assert all(0 < r.cpu_seconds for r in result.results)
    mean = sum(r.cpu_seconds for r in result.results) / 3
    cost = next(line for line in table.splitlines() if line.startswith(f"| {m.key} |"))
    assert cost == f"| {m.key} | 3 | {mean:.1f} | {197 * mean / 3600:.1f} |"
    assert "| levels/pilo/a-vs-b | 0 | ? | ? |" in table


def test_win_rate_table_uses_the_wilson_bound(tmp_path):
    m = Planned("random", "robble", "mcts:30", "random")
    acceptance.run([m], str(tmp_path), [4], jobs=1, deadline=None, log=lambda s: None)
    table = acceptance.report(str(tmp_path), [m])
    assert "95% interval (Wilson)" in table
    # seeded iteration budgets: these 4 games are always the same 4 wins.
    # Wilson's lower bound for 4 of 4 is 51%, far from showing 95%
    assert acceptance.load(m, str(tmp_path)).elo.wins == 4
    assert "| 4-0-0 | 100.0% | 51.0% .. 100.0% |" in table
    assert "not yet (4 of 200 games)" in table


def test_deadline_stops_and_a_gap_is_filled(tmp_path):
    m = Planned("levels", "robble", "mcts:6", "random")
    assert not acceptance.run([m], str(tmp_path), [2], jobs=1, deadline=time.time() - 1,
                              log=lambda s: None)
    assert acceptance.load(m, str(tmp_path)) is None
    acceptance.run([m], str(tmp_path), [4], jobs=1, deadline=None, log=lambda s: None)
    path = m.path(str(tmp_path))
    # drop round 3, as an interrupted parallel run can leave a gap
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        recs = records.parse_all(fh.read())
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(records.format_all(r for r in recs if r.tags["Round"] != "3"))
    assert _rounds(path) == [1, 2, 4]
    seen: list[str] = []
    acceptance.run([m], str(tmp_path), [3], jobs=1, deadline=None, log=seen.append)
    assert _rounds(path) == [1, 2, 3, 4] and seen[0].startswith(f"{m.key}: 4 games")


def test_main_rejects_bad_selection(capsys, tmp_path):
    assert acceptance.main(["--only", "nothing-like-this", "--dir", str(tmp_path)]) == 2
    assert "selects no match" in capsys.readouterr().err
    assert acceptance.main(["--only", "(", "--dir", str(tmp_path)]) == 2
    assert "not a regular expression" in capsys.readouterr().err
    assert acceptance.main(["--report", "--only", "random/vimbre", "--dir", str(tmp_path)]) == 0
    assert "| vimbre | 0 | - |" in capsys.readouterr().out


def test_the_ladder_chains_the_level_steps(tmp_path):
    """Level 2's Elo above level 1 is its step's; a level whose step below is
    missing breaks the chain ("-"), and a short step says how many games it has."""
    step = Planned("levels", "robble", "level2", "level1")
    acceptance.run([step], str(tmp_path), [3], jobs=1, deadline=None, log=lambda s: None)
    table = acceptance.report(str(tmp_path), [
        Planned("levels", "robble", "level1", "random"), step,
        Planned("levels", "robble", "level3", "level2"),
        Planned("levels", "robble", "level4", "level3")])
    lines = table.splitlines()
    head = lines.index("### The level ladder: Elo above level 1, chained")
    assert lines[head + 2] == "| game | level2 | level3 | level4 |"
    e = acceptance.load(step, str(tmp_path)).elo
    elo, low, high = stats.chained_elo([e])
    if e.wins in (0, 3):  # a clean sweep: no spread, the chain is infinite
        assert math.isinf(elo)
    cell = f"{stats.format_elo(elo)} ({stats.format_elo(low)} .. {stats.format_elo(high)})"
    assert lines[head + 4] == f"| robble | {cell}, 3 games | - | - |"


def test_nothing_left_is_said_in_words(tmp_path, monkeypatch):
    m = Planned("levels", "robble", "mcts:6", "random")
    acceptance.run([m], str(tmp_path), [2], jobs=1, deadline=None, log=lambda s: None)
    assert "| levels/robble/mcts:6-vs-random | 2 |" in acceptance.report(str(tmp_path), [m])
    monkeypatch.setattr(acceptance, "REQUIRED_GAMES", 2)
    table = acceptance.report(str(tmp_path), [m])
    cost = table[table.index("### Cost of what is left"):]
    assert cost.splitlines()[2] == "Nothing: every match has its 2 games."
    assert "core-hours" not in cost


DOC = """# Page

Hand-written text.

<!-- acceptance:begin -->
#### Old table
| old |
<!-- acceptance:end -->

More text.
"""


def test_the_tables_are_spliced_between_the_markers():
    tables = "### A table\n\n| a |\n|---|\n| 1 |\n"
    new = acceptance.splice_into_docs(DOC, tables)
    assert new == DOC.replace("#### Old table\n| old |",
                              "#### A table\n\n| a |\n|---|\n| 1 |")
    assert acceptance.splice_into_docs(new, tables) == new  # idempotent


@pytest.mark.parametrize("broken, found", [
    (DOC.replace("<!-- acceptance:end -->\n", ""), "found 1 and 0"),
    (DOC + "<!-- acceptance:begin -->\n", "found 2 and 1"),
    (DOC.replace("<!-- acceptance:begin -->", "<!-- x -->")
        .replace("More text.", "More text.\n<!-- acceptance:begin -->"),
     "found the end before the begin"),
])
def test_a_page_without_proper_markers_is_refused(broken, found):
    with pytest.raises(ValueError, match=r"ai\.md needs exactly one <!-- acceptance:begin"
                                         rf".* \({found}\)$"):
        acceptance.splice_into_docs(broken, "### T\n", where="ai.md")


def test_main_writes_the_docs_and_refuses_what_would_spoil_them(tmp_path, capsys):
    doc = tmp_path / "ai.md"
    doc.write_text(DOC, encoding="utf-8")
    empty = str(tmp_path / "records")
    # a partial selection would drop the other matches' rows from the page
    assert acceptance.main(["--report", "--only", "vimbre", "--dir", empty,
                            "--docs", str(doc)]) == 2
    assert "cannot take --only" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == DOC
    assert acceptance.main(["--report", "--dir", empty, "--docs", str(doc)]) == 0
    out = capsys.readouterr()
    assert f"{doc} updated" in out.err
    text = doc.read_text(encoding="utf-8")
    assert "#### MCTS at 1 s a move against random" in text and "Old table" not in text
    assert text.startswith("# Page\n\nHand-written text.\n") and text.endswith("More text.\n")
    # a page without markers: a clear error, and the file is left as it was
    bare = tmp_path / "bare.md"
    bare.write_text("# Bare\n", encoding="utf-8")
    assert acceptance.main(["--report", "--dir", empty, "--docs", str(bare)]) == 2
    assert f"{bare} needs exactly one" in capsys.readouterr().err
    assert bare.read_text(encoding="utf-8") == "# Bare\n"


def _tables(markdown: str) -> dict[str, dict[tuple[str, ...], dict[str, str]]]:
    """Heading -> row key -> column -> cell, for every Markdown table under a
    heading. A row's key is its cells before the ``games`` column (all but
    the last when there is none)."""
    out: dict[str, dict[tuple[str, ...], dict[str, str]]] = {}
    title, columns = "", []
    for line in markdown.splitlines():
        if line.startswith("#"):
            title, columns = line.lstrip("#").strip(), []
        elif line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not columns:
                columns = cells
                continue
            row = dict(zip(columns, cells, strict=True))
            key_len = columns.index("games") if "games" in columns else len(cells) - 1
            out.setdefault(title, {})[tuple(cells[:key_len])] = row
    return out


def test_the_docs_show_the_figures_the_committed_records_give():
    """docs/ai.md's Results tables are the report of bench/acceptance: every
    match's games and W-L-D, and the ladder's Elo figures, must be what the
    committed records say (``make acceptance-report`` refreshes the page);
    the wording and layout around them are free."""
    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "ai.md").read_text(encoding="utf-8")
    shown = _tables(doc.split(acceptance.DOCS_BEGIN)[1].split(acceptance.DOCS_END)[0])
    fresh = _tables(acceptance.report(str(root / "bench" / "acceptance")))
    assert fresh, "the report has no tables"
    checked = 0
    for title, rows in fresh.items():
        if title.startswith("Cost"):
            continue  # what is left to play: not a figure of the games played
        assert title in shown, f"docs/ai.md has no table {title!r}: run make acceptance-report"
        for key, row in rows.items():
            have = shown[title].get(key)
            assert have is not None, f"{title}: no row {key}: run make acceptance-report"
            figures = [c for c in row if c == "games" or "W-L-D" in c or c.startswith("level")]
            for column in figures:
                assert have.get(column) == row[column], \
                    f"{title}, {key}, {column}: the page shows {have.get(column)!r}, " \
                    f"the records give {row[column]!r}: run make acceptance-report"
                checked += 1
    assert checked >= 3 * 5 * 2
