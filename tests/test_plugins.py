"""Each game is a plug-in: its view and search knowledge live beside its rules,
and the generic packages (ai/, web/, cli/) never name a game."""

from __future__ import annotations

import ast
import importlib
import random
import re
from pathlib import Path

import numpy as np
import pytest

import boardlab
from boardlab.cli import render
from boardlab.core import grid
from boardlab.fast import advice
from boardlab.fast.search import Settings, kernel_state
from boardlab.games import plugin, view
from boardlab.records.model import option_tag
from boardlab.web import view as web_view
from conftest import returns_of

SRC = Path(boardlab.__file__).resolve().parent
GENERIC = ("ai", "web", "cli")


def _game_literals(path: Path, root: Path = SRC) -> list[str]:
    """Where the code (not its docstrings) uses a game's name as a string
    constant: compared with, used as a dict key, or passed as an argument."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        pieces: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            pieces = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            pieces = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.Call):
            pieces = list(node.args) + [k.value for k in node.keywords]
        elif isinstance(node, (ast.Tuple, ast.Set, ast.List)):
            pieces = list(node.elts)
        for p in pieces:
            if isinstance(p, ast.Constant) and p.value in boardlab.GAMES:
                found.append(f"{path.relative_to(root)}:{p.lineno}: {p.value!r}")
    return found


def test_the_generic_packages_name_no_game():
    found = [hit for pkg in GENERIC for path in sorted((SRC / pkg).rglob("*.py"))
             for hit in _game_literals(path)]
    assert not found, "game names in generic code (ask the game's plug-in):\n" + "\n".join(found)


def test_the_name_scan_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('if game.name == "vimbre":\n    pass\nTABLE = {"yugo": 1}\nnew_game("pilo")\n'
                   '"""robble in a docstring is fine"""\n')
    hits = [h.split(": ")[1] for h in _game_literals(bad, tmp_path)]
    assert sorted(hits) == ["'pilo'", "'vimbre'", "'yugo'"]


#: the games' own vocabulary: their moves that are words (``pass``, ``swap``,
#: yugo's ``button`` ...), the words written before a point (``mark``)
WORDS = frozenset(w for g in boardlab.GAMES for cls in [boardlab.game_class(g)]
                  for w in (*cls.move_words, *cls.point_words))
#: where the game's vocabulary may not be spelled out: it asks the game
VOCABULARY_FREE = (*GENERIC, "study", "records")
_WORD_CALLS = {"count", "startswith", "endswith", "index", "string_to_action", "play", "get"}


def _words_named(path: Path, words: frozenset[str], root: Path = SRC) -> list[str]:
    """Where code (not its docstrings) names one of ``words`` as a string:
    compared with, looked for in a collection literal, a dict with two of
    them as keys, or an argument of ``.count``/``.startswith``/... (a dict
    key alone is allowed: ``{"done": k}`` is a progress count, not a move)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def hit(p: ast.AST) -> None:
        if isinstance(p, ast.Constant) and p.value in words:
            found.append(f"{path.relative_to(root)}:{p.lineno}: {p.value!r}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for p in [node.left, *node.comparators]:
                hit(p)
        elif isinstance(node, (ast.Tuple, ast.Set, ast.List)):
            for p in node.elts:
                hit(p)
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if isinstance(k, ast.Constant) and k.value in words]
            if len(keys) > 1:
                for k in keys:
                    hit(k)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in _WORD_CALLS:
            for p in node.args:
                hit(p)
    return found


_JS_COMPARE = re.compile(r"""(?:[=!]==?\s*["'](\w+)["'])|(?:["'](\w+)["']\s*[=!]==?)""")
_JS_KEY = re.compile(r"""(?:^|[{,\s])["']?(\w+)["']?\s*:""")


def _js_words_named(path: Path, words: frozenset[str], root: Path) -> list[str]:
    """The same for the page's scripts: a comparison with one of ``words``,
    or a line whose object literal has two of them as keys."""
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("*", "/*", "//")):
            continue
        compared = {a or b for a, b in _JS_COMPARE.findall(line)} & words
        keys = set(_JS_KEY.findall(line)) & words
        for w in sorted(compared | (keys if len(keys) > 1 else set())):
            found.append(f"{path.relative_to(root)}:{n}: {w!r}")
    return found


def test_no_code_outside_the_games_spells_out_their_move_words():
    """Special move words are the game's (``Game.move_words``,
    ``Game.point_words``): the web, the CLI, the agents, studies and records
    ask the game, so a new word is added in one place."""
    found = [hit for pkg in VOCABULARY_FREE for path in sorted((SRC / pkg).rglob("*.py"))
             for hit in _words_named(path, WORDS)]
    static = SRC / "web" / "static"
    found += [hit for path in sorted(static.rglob("*.js")) if "games" not in path.parts
              for hit in _js_words_named(path, WORDS, SRC)]
    assert not found, "move words outside the games (ask the game):\n" + "\n".join(found)


def test_the_word_scans_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('if move == "swap":\n    pass\nSPECIAL = ("pass", "done")\n'
                   'n = moves.count("swap")\nLABELS = {"accept": 1, "reject": 2}\n'
                   'progress = {"done": 3}\n"""a docstring may say mark"""\n')
    hits = [h.split(": ")[1] for h in _words_named(bad, WORDS, tmp_path)]
    assert hits.count("'swap'") == 2 and {"'pass'", "'done'", "'accept'", "'reject'"} <= set(hits)
    assert len(hits) == 6
    js = tmp_path / "bad.js"
    js.write_text('if (m === "pass") go();\nconst S = { swap: "Swap", button: "Take" };\n'
                  'el("button", { done: 0 });\n')
    assert [h.split(": ")[1] for h in _js_words_named(js, WORDS, tmp_path)] == \
        ["'pass'", "'button'", "'swap'"]


#: the games' option keys (``pie``, ``komi``): generic code reads them from
#: ``Game.option_defaults`` / ``Game.pregame``, never by name
OPTION_KEYS = frozenset(k for g in boardlab.GAMES for k in boardlab.game_class(g).option_defaults)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _options_named(path: Path, keys: frozenset[str], root: Path = SRC) -> list[str]:
    """Where code names an option key: a string constant equal to one or to
    its record tag (``"Komi"``, :func:`boardlab.records.model.option_tag`; not
    a docstring), or a name, attribute, function or argument one of whose
    ``_``-separated parts is one (``komi_negotiation``, ``choose_komi``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    spelled = keys | {option_tag(k) for k in keys}
    # a module the file imports is not an option (core.pie: the pie rule's own module)
    modules = {a.asname or a.name for node in ast.walk(tree)
               if isinstance(node, (ast.Import, ast.ImportFrom)) for a in node.names}
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value in spelled:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value!r}")
            continue
        if isinstance(node, ast.Name) and node.id not in modules:
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        elif isinstance(node, ast.keyword) and node.arg:
            names = [node.arg]
        for n in names:
            if keys & set(n.lower().split("_")):
                found.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}: {n}")
    return found


_JS_TOKEN = re.compile(r"[A-Za-z_$][\w$-]*")


def _js_options_named(path: Path, keys: frozenset[str], root: Path) -> list[str]:
    """The same for the page's files (scripts and HTML): a word of the code
    or markup, split at ``-`` and ``_`` and camel case, that is an option key
    (``#ng-komi``, ``live.options.komi``, ``komiPending``)."""
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("*", "/*", "//", "<!--")):
            continue
        for word in _JS_TOKEN.findall(line.split(" // ")[0]):
            parts = re.split(r"[-_]|(?<=[a-z])(?=[A-Z])", word)
            if keys & {part.lower() for part in parts}:
                found.append(f"{path.relative_to(root)}:{n}: {word}")
    return found


def test_no_code_outside_the_games_names_their_options():
    """A game's options (the pie rule, yugo's komi) and its pre-game are the
    game's facts (``Game.option_defaults``, ``option_labels``, ``option_help``,
    ``pregame``): the web, the CLI, the agents, studies and records drive them
    without naming one, so a new game's options need no change there."""
    found = [hit for pkg in VOCABULARY_FREE for path in sorted((SRC / pkg).rglob("*.py"))
             for hit in _options_named(path, OPTION_KEYS)]
    static = SRC / "web" / "static"
    found += [hit for path in sorted([*static.rglob("*.js"), *static.rglob("*.html")])
              if "games" not in path.parts for hit in _js_options_named(path, OPTION_KEYS, SRC)]
    assert not found, "option keys outside the games (ask the game):\n" + "\n".join(found)


def test_the_option_scans_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('from ..core import pie\ndef choose_komi(size):\n'
                   '    """komi in a docstring is fine"""\n'
                   '    return options["pie"] + f(komi_negotiation=1) + pie.SWAP\ncopied = 1\n'
                   'TAGS = ("Komi", "Round")\n')
    hits = [h.split(": ")[1] for h in _options_named(bad, OPTION_KEYS, tmp_path)]
    assert sorted(hits) == ["'Komi'", "'pie'", "choose_komi", "komi_negotiation"]
    page = tmp_path / "bad.js"
    page.write_text('const x = live.options.komi;\n$("#ng-pie-row");\nif (komiPending) go();\n'
                    '// komi in a comment is fine\nconst copied = pied;  // and after code: pie\n')
    hits = [h.split(": ")[1] for h in _js_options_named(page, OPTION_KEYS, tmp_path)]
    assert hits == ["komi", "ng-pie-row", "komiPending"]


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_a_games_move_words_are_its_moves(name):
    """Every legal move that names no point is one of the game's
    ``move_words``, and a ``point_words`` word starts only moves with a point."""
    cls = boardlab.game_class(name)
    rng = random.Random(2)
    for _ in range(6):
        game = boardlab.new_game(name, 4)
        while not game.is_over:
            for move in game.legal_moves():
                points = web_view.move_points(move, game.size)
                if not points:
                    assert move in cls.move_words, (name, move)
                elif move.split()[0] in cls.point_words:
                    assert len(move.split()) == 2 and points
            game.apply_action(rng.choice(game.legal_actions()))
    game = boardlab.new_game(name, 5)
    for word, label in cls.move_words.items():  # each declared word is a move of the game
        assert label and game.action_to_string(game.string_to_action(word)) == word
    for word in cls.point_words:
        assert game.action_to_string(game.string_to_action(f"{word} a1")) == f"{word} a1"


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_a_games_package_declares_its_parts(name):
    """Each game is a package: its rules and the parts its ``PARTS`` declares
    (found through the declaration, not by a module-name convention), and
    nothing else."""
    package = importlib.import_module(boardlab.game_class(name).__module__).__package__
    declared = importlib.import_module(package).PARTS
    assert set(declared) == {"view", "search", "tensors"}
    for part, module in declared.items():
        assert plugin(name, part).__name__ == module
    assert plugin(name, "opening_book", optional=True) is None
    with pytest.raises(LookupError, match=f"{name} declares no 'opening_book' part"):
        plugin(name, "opening_book")
    folder = Path(importlib.import_module(package).__file__).parent
    parts = {f.stem for f in folder.glob("*.py")} | {  # a part may be a package
        d.name for d in folder.iterdir() if (d / "__init__.py").is_file()}
    assert parts == {"__init__", "rules", *declared}


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_every_game_has_a_complete_view_plug_in(name):
    module = view.view_module(name)
    assert module.BOARD in ("points", "squares")
    assert module.LEGEND and module.TERMINAL_LEGEND and module.NOTATION
    assert all(isinstance(p, view.Piece) and p.glyph for p in module.PIECES.values())
    colors = set(boardlab.game_class(name).colors)
    assert {p.color for p in module.PIECES.values()} - {None} == colors
    # every token of random games' positions is a known piece, and the
    # terminal and the web draw every one
    rng = random.Random(3)
    size = 5
    for _ in range(20):
        game = boardlab.new_game(name, size)
        while not game.is_over and len(game) < 60:
            game.apply_action(rng.choice(game.legal_actions()))
            for token in grid.parse_board(game.position().split()[2], size, ValueError):
                if token is not None:
                    assert token.partition("(")[0] in module.PIECES, (name, token)
        cells = web_view.board_cells(game)
        assert all(c is None or c["type"] != "unknown" for c in cells)
        assert module.TERMINAL_LEGEND in render.render_board(game)
        web_view.game_view(game)  # the hints run on every position


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_every_games_search_plug_in_keeps_the_contract(name):
    """The search plug-in (``boardlab.games.<game>.search``, :mod:`boardlab.fast.advice`):
    its settings are valid and name only knowledge it has, its levels are
    five growing budgets, its compiled functions answer on a real position
    and ``special`` plays nothing at the start."""
    adv = advice.advice(name)
    module = advice.plugin_module(name)
    assert module is not None, f"{name} has no search plug-in"
    settings = Settings(**adv.settings)  # a bad name or value raises here
    default = boardlab.game_class(name).default_size
    _, on_state = adv.for_state(default, settings.evaluator)  # the advice a search there reads
    if settings.evaluator == "policy":
        assert on_state.has_policy, "evaluator=policy without a POLICY_PLAYOUT"
    if settings.evaluator == "heuristic":
        assert adv.has_evaluate, "evaluator=heuristic without an EVALUATE"
    if settings.priors:
        assert adv.has_prior, "priors=True without a PRIOR"
    levels = list(adv.levels)
    assert len(levels) == 5 and levels[0] > 0 and levels == sorted(set(levels)), levels
    rng = random.Random(5)
    game = boardlab.new_game(name, 7 if name == "vimbre" else 5)
    if adv.special is not None:
        assert adv.special(game, {}) is None  # nothing special at the start
    for _ in range(6):
        game.apply_action(rng.choice(game.legal_actions()))
    state, _ = kernel_state(game)
    legal = np.array(game.legal_actions(), dtype=np.int64)
    if adv.has_prior:
        scores = np.full(len(legal), np.nan)
        module.PRIOR(state, legal, len(legal), scores)
        assert np.all(np.isfinite(scores))
    if adv.has_evaluate:
        assert -1.0 <= module.EVALUATE(state) <= 1.0
    own = adv.search_state
    if own is not None:  # the search's own state: the kernel's game, from this position
        assert own.applies(default) and own.state_len(game.size) > 0
        mine = np.zeros(own.state_len(game.size), dtype=np.int64)
        own.from_kernel(mine, state)
        buf = np.zeros(game.num_distinct_actions, dtype=np.int64)
        while not game.is_over:
            k = own.legal_actions(mine, buf)
            assert buf[:k].tolist() == game.legal_actions()
            assert own.current_player(mine) == game.current_player
            a = rng.choice(game.legal_actions())
            own.apply(mine, a)
            game.apply_action(a)
        winner, _ = own.outcome(mine, np.zeros(2))
        assert game.returns() == returns_of(winner)


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_score_parts_add_up_to_the_scores_the_page_shows(name):
    """A view plug-in's ``score_parts`` re-counts the score from the board for
    the page to explain; it must agree with the rules engine at every ply."""
    hook = view.hook(name, "score_parts")
    explained = 0
    for seed in range(4):
        rng = random.Random(seed)
        game = boardlab.new_game(name, 5)
        while True:
            parts = hook(game, web_view.board_cells(game), game.position_fields()) if hook else None
            if parts is not None:
                explained += 1
                assert parts["totals"] == web_view.live_scores(game), (game.position(), parts)
                assert parts["text"] and set(parts["points"]) == set(game.colors)
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
    assert explained or name == "vimbre"  # vimbre is won by a connection, not a count


def test_robble_describes_a_placements_push_flip_and_removal():
    """The rules page's example (rules/robble.md, "One placement, three effects")."""
    game = boardlab.from_position("robble 5 5/5/2X2/1O1OX/2O2 black pie=no swap=no")
    game.play("c2")
    text, marks = web_view.last_move(game, web_view.board_cells(game))
    assert text == "Black placed c2: pushed c3 to c4 and b2 to a2; flipped d2; removed c1"
    assert marks == {"pushed": [["c3", "c4"], ["b2", "a2"]], "flipped": ["d2"], "removed": ["c1"]}


@pytest.mark.parametrize("moves, said", [
    (["c3", "button", "pass", "pass", "done", "accept"],
     "White accepted the proposal, which removes nothing: the game is scored"),
    (["c3", "button", "pass", "pass", "done"], "Black proposed to remove nothing"),
    (["c3", "button"], "White took the button (half a point)"),
])
def test_yugo_says_what_an_answer_did(moves, said):
    game = boardlab.new_game("yugo", 5)
    for m in moves:
        game.play(m)
    assert web_view.last_move(game, web_view.board_cells(game))[0] == said
