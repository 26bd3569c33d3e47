"""Record variations: PGN-style ``( ... )`` side lines in text and JSON, the
``records.Node`` tree, and their errors (docs/records.md, "Variations")."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import records
from boardlab.records import Node, Record, RecordError

HEAD = '[Game "robble"]\n[Size "5"]\n[Result "*"]\n\n'
CANON_HEAD = ('[Game "robble"]\n[Size "5"]\n[Pie "yes"]\n[Black "?"]\n[White "?"]\n'
              '[Date "????.??.??"]\n[Result "*"]\n\n')
NESTED = ("{start} 1. c3 {centre} ({idea} 1. c2 2. b2 {x} (2. swap 3. d4) 3. a1) (1. a5)\n"
          "2. swap 3. c2 (3. b3 {y}) *\n")


def _where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """Line and column (from 1) of the nth occurrence of ``needle`` in ``text``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


# ---------------------------------------------------------------- reading
def test_nested_variations_and_their_comments_read_as_a_tree():
    rec = records.parse(HEAD + NESTED)
    assert rec.moves == ["c3", "swap", "c2"]
    assert rec.comments == {0: "start", 1: "centre"}
    assert sorted(rec.variations) == [0, 2]
    first, second = rec.variations[0]
    assert first.line_moves() == ["c2", "b2", "a1"] and first.starting_comment == "idea"
    b2 = first.variations[0]
    assert b2.move == "b2" and b2.comment == "x"
    # "(2. swap 3. d4)" is an alternative to "2. b2": b2's sibling
    assert [n.line_moves() for n in first.variations] == [["b2", "a1"], ["swap", "d4"]]
    assert second.line_moves() == ["a5"] and not second.variations
    assert rec.variations[2][0].move == "b3" and rec.variations[2][0].comment == "y"
    # the whole game as one tree: the main line first in every list
    root = rec.tree()
    assert root.move is None and root.comment == "start"
    assert [n.move for n in root.variations] == ["c3", "c2", "a5"]
    assert root.line_moves() == rec.moves
    assert [n.move for n in root.mainline()[1].variations] == ["c2", "b3"]


def test_written_text_is_canonical_and_stable():
    loose = HEAD + ("{start}1.C3{centre}( {idea}  1.c2 2. B2{x}(2.SWAP 3.d4)3. a1)(a5)\n"
                    "swap ( swap ) {after} c2 (3. b3 {y})*\n")
    rec = records.parse(loose)
    text = records.format(rec)
    # the comment after ")" belongs to the move the variation replaced
    assert text == CANON_HEAD + NESTED.replace("(1. a5)\n2. swap", "(1. a5)\n2. swap "
                                               "{after} (2. swap)")
    assert records.parse(text) == rec and records.format(records.parse(text)) == text


def test_a_variation_in_the_middle_of_a_turn_has_no_turn_number():
    game = boardlab.new_game("implo", size=4)
    rng = random.Random(5)
    while True:  # find a turn with a choice in its middle
        if game.is_mid_turn and len(game.legal_moves()) > 1:
            break
        if game.is_over:
            game = boardlab.new_game("implo", size=4)
        game.apply_action(rng.choice(game.legal_actions()))
    main, other = game.legal_moves()[:2]
    game.play(main)
    rec = Record.from_game(game, variations={len(game) - 1: [Node(other, "instead")]})
    text = records.format(rec)
    assert f" {main} ({other} {{instead}})" in " ".join(text.split())
    back = records.parse(text)
    assert back == rec and back.variations[len(game) - 1][0].move == other
    number = text.count(". ")  # the turn number of the turn in progress
    with pytest.raises(RecordError, match="in the middle of turn"):
        records.parse(text.replace(f"({other}", f"({number}. {other}"))


def test_mark_inside_a_variation_is_one_move():
    yugo = ('[Game "yugo"]\n[Size "4"]\n[Komi "0"]\n[Result "black"]\n\n'
            "1. c3 2. b2 3. button 4. pass 5. pass 6. mark b2 (6. mark c3 done) done "
            "7. accept black\n")
    rec = records.parse(yugo)
    assert rec.variations[5][0].line_moves() == ["mark c3", "done"]
    assert records.parse(records.format(rec)) == rec


# ---------------------------------------------------------------- errors
BRANCHED = HEAD + "1. c3 (1. c2 2. b2 (2. b3) 3. a1) 2. swap 3. c2 *\n"
ERRORS = [
    ("unclosed, ended by the result", HEAD + "1. c3 2. swap (2. c2 *\n", "(", 0,
     "unclosed variation: '(' without a matching ')' before the result '*'"),
    ("unclosed at the end", HEAD + "1. c3 (1. c2", "(", 0,
     "unclosed variation: '(' without a matching ')'"),
    ("unclosed before the next game", HEAD + "1. c3 (1. c2\n\n" + HEAD + "*\n", "(", 0,
     "unclosed variation: '(' without a matching ')'"),
    ("illegal move inside", BRANCHED.replace("3. a1", "3. swap"), "swap", 0,
     "illegal move 'swap':"),
    ("malformed move inside", BRANCHED.replace("(2. b3)", "(2. z9)"), "z9", 0,
     "illegal move 'z9': malformed"),
    ("illegal nested move", BRANCHED.replace("(2. b3)", "(2. c2)"), "c2)", 0,
     "illegal move 'c2': c2 is occupied"),
    ("empty variation", BRANCHED.replace("(2. b3)", "()"), "()", 0,
     "empty variation: '()' needs at least one move"),
    ("before any move", HEAD + "(1. c2) 1. c3 *\n", "(", 0,
     "a variation must follow the move it replaces: '(' before any move"),
    ("first thing in a variation", HEAD + "1. c3 ((1. a1) 1. c2) *\n", "(", 1,
     "a variation must follow the move it replaces"),
    ("stray close", HEAD + "1. c3 ) 2. swap *\n", ")", 0, "')' without a matching '('"),
    ("wrong turn number", BRANCHED.replace("(2. b3)", "(3. b3)"), "3. b3", 0,
     "turn number '3.' should be '2.'"),
    ("number without a move", BRANCHED.replace("3. a1)", "3. a1 4.)"), "4.", 0,
     "turn number '4.' has no move after it"),
    ("number before a paren", BRANCHED.replace("1. c3 (", "1. c3 2. ("), "2. (", 0,
     "turn number '2.' has no move after it"),
]


@pytest.mark.parametrize("case, text, needle, nth, reason", ERRORS, ids=[e[0] for e in ERRORS])
def test_bad_variations_name_line_and_column(case, text, needle, nth, reason):
    with pytest.raises(RecordError) as info:
        records.parse_all(text)
    err = info.value
    assert (err.line, err.column) == _where(text, needle, nth), str(err)
    assert err.reason.startswith(reason), str(err)
    assert str(err).startswith(f"line {err.line}, column {err.column}: ")


def test_a_move_after_the_end_inside_a_variation():
    rec = records.parse(records.format(_finished("robble")))
    last = len(rec.moves) - 1
    game = rec.game_at(last)
    game.play(rec.moves[last])          # the last move ends the game: a move after it
    text = records.format(rec)
    tail = f" {rec.moves[last]} ({rec.moves[last]} a1)"
    bad = text[:text.rindex(f" {rec.moves[last]}")] + tail + " " + rec.result + "\n"
    with pytest.raises(RecordError, match=r"move 'a1' after the end of the game"):
        records.parse(bad)


def _finished(name: str, seed: int = 1) -> Record:
    game = boardlab.new_game(name, size=4)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply_action(rng.choice(game.legal_actions()))
    return Record.from_game(game)


def test_api_variations_are_checked():
    game = records.parse(BRANCHED).game
    good = Record.from_game(game, variations={1: [Node.line(["b2", "a1"], {0: "s", 2: "e"})]})
    assert good.variations[1][0].starting_comment == "s"
    cases = [
        ({3: [Node("a1")]}, "at ply 3: must be 0..2"),
        ({-1: [Node("a1")]}, "at ply -1: must be 0..2"),
        ({1: [Node.line(["b2", "b2"])]}, "at ply 1, line 1, move 2: illegal move 'b2'"),
        ({1: [Node("b2"), Node.line(["b3", "b3"])]}, "at ply 1, line 2, move 2: illegal"),
        ({1: ["b2"]}, "at ply 1, line 1, move 1: must be a Node"),
        ({1: [Node("b2", "a {b}")]}, "at ply 1, line 1, move 1: a comment cannot contain"),
        ({1: [Node("b2", variations=[Node("a1", starting_comment="no")])]},
         "at ply 1, line 1, move 2: only the first move of a variation"),
        ({1: [Node(None)]}, "at ply 1, line 1, move 1: a move must be a string"),
    ]
    for variations, reason in cases:
        with pytest.raises(RecordError) as info:
            Record.from_game(game, variations=variations)
        assert info.value.where == "variations"
        assert info.value.reason.startswith(reason), (reason, str(info.value))
    # canonical notation and collapsed blanks, like the main line
    loose = Record.from_game(game, variations={0: [Node("C2", "  a \n b ")]})
    assert loose.variations[0][0] == Node("c2", "a b")


def test_tree_round_trip_and_from_tree_errors():
    rec = records.parse(BRANCHED)
    root = rec.tree()
    assert Record.from_tree(rec.start_game(), root) == rec
    root.mainline()[1].add_line(["e1", "a1"])  # an alternative to main move 3
    edited = Record.from_tree(rec.start_game(), root)
    assert edited.variations[2][0].line_moves() == ["e1", "a1"]
    assert rec.variations.get(2) is None          # the tree was a copy
    assert "3. c2 (3. e1 4. a1) *" in records.format(edited)
    with pytest.raises(RecordError, match="the root of a game tree has no move"):
        Record.from_tree(rec.start_game(), Node("c3"))
    changed = records.parse(BRANCHED)
    changed.variations[0][0].move = "swap"  # behind the record's back: writing says so
    with pytest.raises(RecordError, match="cannot write the variation move .swap."):
        records.format(changed)
    bad = rec.tree()
    bad.mainline()[0].variations[0].move = "c3"
    with pytest.raises(RecordError, match="main-line move 2: illegal move 'c3'"):
        Record.from_tree(rec.start_game(), bad)


def test_editing_a_tree_promotes_and_removes_lines():
    rec = records.parse(BRANCHED)
    root = rec.tree()
    c2 = root.variation("c2")
    root.promote_to_main(c2)        # the variation becomes the main line
    promoted = Record.from_tree(rec.start_game(), root)
    assert promoted.moves == ["c2", "b2", "a1"]
    assert [line.line_moves() for line in promoted.variations[0]] == [["c3", "swap", "c2"]]
    assert [line.line_moves() for line in promoted.variations[1]] == [["b3"]]
    root.promote_to_main(root.variation("c3"))
    assert Record.from_tree(rec.start_game(), root) == rec
    root.remove_variation(root.variation("c2"))
    assert Record.from_tree(rec.start_game(), root).variations == {}
    with pytest.raises(KeyError, match="no variation 'e5' after None"):
        root.variation("e5")
    with pytest.raises(ValueError, match="is not a variation of"):
        root.remove_variation(Node("c3"))  # equal, but not that node


# ---------------------------------------------------------------- JSON
def test_json_shape_of_variations():
    rec = records.parse(HEAD + NESTED)
    data = records.to_dict(rec)
    assert data["variations"]["0"][0] == {
        "moves": ["c2", "b2", "a1"], "comments": {"0": "idea", "2": "x"},
        "variations": {"1": [{"moves": ["swap", "d4"]}]}}
    assert data["variations"]["2"] == [{"moves": ["b3"], "comments": {"1": "y"}}]
    assert records.from_json(json.dumps(data)) == rec
    assert records.to_dict(records.parse(HEAD + "1. c3 *\n"))["variations"] == {}


def test_json_variation_errors_name_the_field():
    minimal = {"game": "robble", "size": 5, "moves": ["c3", "c2"], "result": "*"}
    bad = [
        ({"variations": []}, "variations", "must be dict"),
        ({"variations": {"x": []}}, "variations", "must map a ply number"),
        ({"variations": {"0": {}}}, "variations.0", "must be a list of lines"),
        ({"variations": {"0": [{"moves": []}]}}, "variations.0[0].moves", "a line needs"),
        ({"variations": {"0": [{"moves": [1]}]}}, "variations.0[0].moves[0]", "a move must"),
        ({"variations": {"0": [{"moves": ["a1"], "x": 1}]}}, "variations.0[0]", "unknown key"),
        ({"variations": {"0": [{"moves": ["a1"], "comments": {"2": "x"}}]}},
         "variations.0[0].comments", "comment '2': must be text at 0..1"),
        ({"variations": {"0": [{"moves": ["a1", "a2"], "variations": {"0": []}}]}},
         "variations.0[0].variations", "variations at '0': must be 1..1"),
        ({"variations": {"0": [{"moves": ["a1", "a1"]}]}}, "variations",
         "at ply 0, line 1, move 2: illegal move 'a1'"),
        ({"variations": {"2": [{"moves": ["a1"]}]}}, "variations", "at ply 2: must be 0..1"),
    ]
    for extra, where, reason in bad:
        with pytest.raises(RecordError) as info:
            records.from_json({**minimal, **extra})
        assert info.value.where == where, (extra, str(info.value))
        assert info.value.reason.startswith(reason), (extra, str(info.value))


# ---------------------------------------------------------------- the property tests
def _maybe_comment(rng: random.Random) -> str:
    return "" if rng.random() < 0.8 else "w " * rng.randrange(1, 20) + "end"


def _random_line(start: boardlab.Game, rng: random.Random, depth: int) -> Node | None:
    """A random line from ``start`` with random comments and nested alternatives."""
    game = start.copy()
    first: Node | None = None
    prev: Node | None = None
    for _ in range(rng.randrange(1, 10)):
        if game.is_over:
            break
        move = rng.choice(game.legal_moves())
        node = Node(move, _maybe_comment(rng))
        if prev is None:
            first = node
            node.starting_comment = _maybe_comment(rng)
        else:
            prev.variations.append(node)
            if depth < 3 and rng.random() < 0.2:
                prev.variations.extend(_random_lines(game, rng, depth + 1))
        game.play(move)
        prev = node
    return first


def _random_lines(start: boardlab.Game, rng: random.Random, depth: int) -> list[Node]:
    lines = [_random_line(start, rng, depth) for _ in range(rng.choice([1, 1, 2]))]
    return [line for line in lines if line is not None]


def _replays(start: boardlab.Game, node: Node) -> bool:
    """Every node below ``start`` is a legal move there (plain game API)."""
    stack = [(start.copy(), node)]
    while stack:
        game, n = stack.pop()
        if n.move not in game.legal_moves():
            return False
        game.play(n.move)
        stack.extend((game.copy(), c) for c in n.variations)
    return True


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_random_games_with_random_branches_round_trip(name):
    rng = random.Random(f"variations-{name}")
    for _ in range(40):
        game = boardlab.new_game(name, size=rng.choice([4, 5]))
        while not game.is_over and (len(game) < 40 or rng.random() < 0.97):
            game.apply_action(rng.choice(game.legal_actions()))
        replay = game.copy()
        while len(replay):
            replay.undo()
        variations: dict[int, list[Node]] = {}
        for ply, action in enumerate(game.action_history):
            if rng.random() < 0.15:
                variations[ply] = _random_lines(replay, rng, 0)
            replay.apply_action(action)
        comments = {p: _maybe_comment(rng) for p in range(len(game) + 1)}
        rec = Record.from_game(game, comments=comments, variations=variations)
        assert rec.variations == {k: v for k, v in variations.items() if v}
        start = rec.start_game()
        for ply, lines in rec.variations.items():
            at = rec.game_at(ply)
            assert all(_replays(at, line) for line in lines)
        text = records.format(rec)
        back = records.parse(text)
        assert back == rec
        assert records.format(back) == text
        assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("["))
        assert records.from_json(records.to_json(rec)) == rec
        assert Record.from_tree(start, rec.tree()) == rec


def test_long_and_deep_variations():
    """A long line and deep nesting are walked without recursion limits."""
    game = boardlab.new_game("robble", size=19)
    game.play("a1")
    long = game.copy()
    long.undo()
    moves = [m for m in long.legal_moves() if m not in ("a1",)][:300]
    rec = Record.from_game(game, variations={0: [Node.line(moves)]})
    back = records.parse(records.format(rec))
    assert back == rec and back.variations[0][0].line_moves() == moves
    deep = HEAD + "1. c3 " + "".join(f"(1. {p} " for p in ["a1", "a2", "a3", "a4", "a5",
                                                           "b1", "b2", "b3"] * 6)
    deep += ")" * 48 + " *\n"
    rec = records.parse(deep)
    assert records.parse(records.format(rec)) == rec
    assert records.from_json(records.to_json(rec)) == rec
    # nesting has a limit (writing recurses per level): text and API both say so
    limit = records.tree.MAX_NESTING
    too_deep = HEAD + "1. c3 " + "(1. c2 " * (limit + 1) + ")" * (limit + 1) + " *\n"
    with pytest.raises(RecordError, match=f"nest more than {limit} deep") as info:
        records.parse(too_deep)
    assert (info.value.line, info.value.column) == _where(too_deep, "(", limit)
    records.parse(too_deep.replace("(1. c2 ", "", 1).replace(")", "", 1))  # at the limit
    big = boardlab.new_game("robble", size=19)
    big.play("a1")
    for levels in (limit, limit + 1):
        walk = big.copy()
        walk.undo()
        node = top = Node(walk.legal_moves()[1])
        walk.play(node.move)
        for _ in range(levels - 1):  # each alternative one level deeper than its line
            first, second = walk.legal_moves()[:2]
            node.add_variation(first)
            node = node.add_variation(second)
            walk.play(second)
        if levels == limit:
            rec = Record.from_game(big, variations={0: [top]})
            assert records.parse(records.format(rec)) == rec
            assert records.from_json(records.to_json(rec)) == rec
        else:
            with pytest.raises(RecordError, match=f"nest more than {limit} deep"):
                Record.from_game(big, variations={0: [top]})


@settings(max_examples=40, deadline=None)
@given(comment=st.text(alphabet=st.characters(blacklist_characters="{}",
                                               blacklist_categories=("Cs",)), max_size=80))
def test_any_comment_inside_a_variation_round_trips(comment):
    game = boardlab.new_game("vimbre", size=4)
    game.play("b2")
    rec = Record.from_game(game, variations={0: [Node.line(["c3", "a1,d4"],
                                                           {0: comment, 1: comment})]})
    back = records.parse(records.format(rec))
    assert back == rec
    assert back.variations[0][0].comment == " ".join(comment.split())


# ---------------------------------------------------------------- the command line
def test_replay_and_check_show_and_accept_variations(tmp_path, capsys):
    from boardlab.cli import main

    path = tmp_path / "v.rec"
    path.write_text('[Game "implo"]\n[Size "4"]\n\n{start} 1. a4 (1. b2 {idea} 2. c3) 2. c4 '
                    "3. a1 4. b2 5. c3 {a patch} @a2/c4 (@a2/b2 {other}) *\n")
    assert main(["check", str(path)]) == 0
    assert "1 game OK" in capsys.readouterr().out
    assert main(["replay", str(path), "--no-color"]) == 0
    out = capsys.readouterr().out
    start, rest = out.split("-- ply 1:")
    assert "variation instead of a4 (move 1): (1. b2 {idea} 2. c3)" in start
    last = rest.split("-- ply 6: after 5. c3 @a2/c4")[1]
    assert "variation instead of @a2/c4 (move 6): (@a2/b2 {other})" in last
    assert out.count("variation instead") == 2
    assert main(["replay", str(path), "--no-color", "--ply", "5"]) == 0
    assert "variation instead of @a2/c4 (move 6)" in capsys.readouterr().out
    path.write_text(path.read_text().replace("(@a2/b2", "(@a2/c4 @a2"))
    assert main(["check", str(path)]) == 1
    assert "illegal move '@a2'" in capsys.readouterr().err


POINTS = [f"{c}{r}" for c in "abcde" for r in range(1, 6)]
TOKENS = ["(", ")"] * 6 + ["{note}"] * 2 + POINTS + [
    "{", "}", "1.", "2.", "3.", "swap", "*", "black", "mark", "@a2", "[", "\n"]


@settings(max_examples=300, deadline=None)
@given(tokens=st.lists(st.sampled_from(TOKENS), max_size=30))
def test_any_move_text_reads_or_fails_with_a_located_record_error(tokens):
    """Random token soup: never a crash or an error without a place (what reads
    is rare and round-trips; the random-game test covers reading at length)."""
    text = HEAD + " ".join(tokens) + " *\n"
    try:
        rec = records.parse(text)
    except RecordError as exc:
        assert exc.line is not None and exc.column is not None, str(exc)
        assert 1 <= exc.line <= text.count("\n") + 1
        return
    again = records.format(rec)
    assert records.parse(again) == rec and records.format(records.parse(again)) == again
