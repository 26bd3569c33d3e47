"""From a rule to its tests and back: every clause of docs/rules.md and
docs/games/<game>.md has an id (`robble-2.2`, `common-6`), stated once; a test
names the clauses it checks with ``@pytest.mark.rules(...)``. Here: every id a
test names exists, and every clause has at least one test.

Both sides are read as text (docs) and syntax trees (tests): nothing runs.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import boardlab

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "docs" / "rules.md", *sorted((ROOT / "docs" / "games").glob("*.md"))]
_PREFIX = "|".join(["common", *boardlab.GAMES])
#: a clause: a list item or paragraph that opens with its id in backquotes (an
#: id inside the text, even at the start of a wrapped line, is a reference)
CLAUSE = re.compile(rf"^(?:- |\d+\. )?`((?:{_PREFIX})-\d+(?:\.\d+)?)`", re.M)


def defined() -> list[tuple[str, str]]:
    """(id, file) of every clause, in the order of the docs."""
    return [(m.group(1), path.relative_to(ROOT).as_posix())
            for path in DOCS for m in CLAUSE.finditer(path.read_text(encoding="utf-8"))]


def _rules_marks(decorator: ast.expr) -> list[str] | None:
    """The ids of a ``pytest.mark.rules(...)`` decorator, else None."""
    if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr == "rules"):
        return None
    mark = decorator.func.value
    if not (isinstance(mark, ast.Attribute) and mark.attr == "mark"):
        return None
    ids = []
    for arg in decorator.args:
        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), \
            f"line {decorator.lineno}: name clauses as string literals"
        ids.append(arg.value)
    return ids


def named() -> dict[str, list[str]]:
    """Clause id -> the tests (``file::name``) that name it."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                for decorator in node.decorator_list:
                    for clause in _rules_marks(decorator) or []:
                        out.setdefault(clause, []).append(f"{path.name}::{node.name}")
    return out


def test_the_docs_define_clauses_for_every_game():
    ids = [i for i, _ in defined()]
    for prefix in ["common", *boardlab.GAMES]:
        assert any(i.startswith(f"{prefix}-") for i in ids), prefix


def test_each_clause_is_stated_in_one_place():
    twice = {i: n for i, n in Counter(i for i, _ in defined()).items() if n > 1}
    assert not twice, f"clause ids stated more than once: {twice}"


def test_every_clause_a_test_names_exists():
    known = {i for i, _ in defined()}
    unknown = {i: tests for i, tests in named().items() if i not in known}
    assert not unknown, f"tests name clauses no doc states: {unknown}"


def test_every_clause_has_a_test():
    tested = named()
    untested = [f"{i} ({where})" for i, where in defined() if i not in tested]
    assert not untested, f"clauses no test names: {untested}"


def test_the_reader_catches_what_it_should(tmp_path):
    assert CLAUSE.findall("- `robble-2.2` **Push.** text\n  `pilo-3.1` a reference\n"
                          "1. `yugo-7.1` **A ruling**\nsee `robble-2.2` there\n"
                          "`pilo-5.1` **Actions.**\n") \
        == ["robble-2.2", "yugo-7.1", "pilo-5.1"]
    code = ast.parse("@pytest.mark.rules('a-1', 'b-2')\ndef test_x(): pass\n"
                     "@pytest.mark.other('c-3')\ndef test_y(): pass\n")
    marks = [_rules_marks(d) for f in code.body for d in f.decorator_list]
    assert marks == [["a-1", "b-2"], None]


def test_the_tests_cite_only_rules_texts_the_repository_has():
    # the rules tests once cited seed files and a rules file that were never here
    gone = ("seed" + "s/", "RULES" + ".md")
    for path in sorted((ROOT / "tests").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not [g for g in gone if g in text], f"{path.name} cites {gone}"
