"""Game records: the text format, JSON, errors with line/column, round trips."""

from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import Termination, records
from boardlab.records import Record, RecordError

# ---------------------------------------------------------------- hand-written records
ROBBLE = """\
[Game "robble"]
[Size "5"]
[Pie "yes"]
[Black "Ann \\"the hammer\\" Lee"]
[White "Bo"]
[Date "2025.03.01"]
[Result "*"]
[Event "club night"]
[Round "3"]

{a quiet start} 1. c3 {centre} 2. swap {Bo takes black's stone} 3. c2 *
"""

ROBBLE_SETUP = """\
[Game "robble"]
[Size "4"]
[Pie "no"]
[Black "?"]
[White "?"]
[Date "????.??.??"]
[Result "black"]
[Termination "score"]
[Position "robble 4 XXOO/XXOO/OOXO/1OOX black pie=no swap=no"]

1. a1 {fills the board} black
"""

IMPLO = """\
[Game "implo"]
[Size "4"]
[Pie "yes"]
[Black "?"]
[White "?"]
[Date "????.??.??"]
[Result "white"]
[Termination "score"]

1. c2 2. swap 3. c4 4. b3 5. b2 6. d4 7. a1 @a2 8. d1 @d2/c4 @c4 @b1/a1 @d4 @a1
white
"""

YUGO = """\
[Game "yugo"]
[Size "4"]
[Komi "0"]
[Black "?"]
[White "?"]
[Date "????.??.??"]
[Result "black"]
[Termination "score"]

1. c3 2. b2 3. button 4. pass 5. pass 6. mark b2 {dead} done 7. accept black
"""

YUGO_REJECT = """\
[Game "yugo"]
[Size "4"]
[Komi "2"]
[Black "?"]
[White "?"]
[Date "????.??.??"]
[Result "white"]
[Termination "score"]

1. c3 2. b2 3. button 4. pass 5. pass 6. done 7. reject 8. d4 9. pass 10. pass
white
"""

PILO = """\
[Game "pilo"]
[Size "4"]
[Pie "yes"]
[Blue "Cy"]
[Orange "Di"]
[Date "2024.12.??"]
[Result "blue"]
[Termination "score"]

1. c4 2. swap 3. b2 4. a1 5. a3 6. d4 7. c1 8. d2 9. a3-a1 10. b3 11. c1-c4
12. a4 13. b1 14. b4 15. b2-d2 16. c3 17. d1 18. c2 19. a2 20. d3 21. d1-d3
22. pass 23. pass blue
"""

VIMBRE = """\
[Game "vimbre"]
[Size "4"]
[Black "?"]
[White "?"]
[Date "????.??.??"]
[Result "white"]
[Termination "connection"]

1. b4 2. a1,c4 3. d3,d4 4. b1,d1 5. xc4 {a flip} 6. c1,a2 white
"""

VIMBRE_RESIGNED = """\
[Game "vimbre"]
[Size "5"]
[Black "Ed"]
[White "Flo"]
[Date "2025.01.01"]
[Result "black"]
[Termination "resignation"]

1. c3 2. a1,e5 black
"""

VIMBRE_TIMEOUT = VIMBRE_RESIGNED.replace("resignation", "timeout").replace(
    '"black"]', '"white"]').replace("e5 black", "e5 white")

HAND_WRITTEN = {
    "robble": ROBBLE, "robble-setup": ROBBLE_SETUP, "implo": IMPLO, "yugo": YUGO,
    "yugo-reject": YUGO_REJECT, "pilo": PILO, "vimbre": VIMBRE,
    "vimbre-resigned": VIMBRE_RESIGNED, "vimbre-timeout": VIMBRE_TIMEOUT,
}


@pytest.mark.parametrize("key", sorted(HAND_WRITTEN))
def test_hand_written_records_are_canonical(key):
    text = HAND_WRITTEN[key]
    record = records.parse(text)
    assert records.format(record) == text
    assert record.game.history == record.moves
    assert record.tags["Result"] == record.result
    assert records.parse(records.format(record)) == record


def test_every_game_has_a_hand_written_record():
    assert {records.parse(t).name for t in HAND_WRITTEN.values()} == set(boardlab.GAMES)


def test_parsed_fields():
    rec = records.parse(ROBBLE)
    assert rec.moves == ["c3", "swap", "c2"]
    assert rec.comments == {0: "a quiet start", 1: "centre", 2: "Bo takes black's stone"}
    assert rec.players == {"black": 'Ann "the hammer" Lee', "white": "Bo"}
    assert rec.result == "*" and rec.termination is None and rec.outcome is None
    assert rec.extra_tags == {"Event": "club night", "Round": "3"}
    assert rec.date == "2025.03.01" and rec.options == {"pie": True}
    assert rec.turns() == [["c3"], ["swap"], ["c2"]]
    assert rec.start is None
    setup = records.parse(ROBBLE_SETUP)
    assert setup.start == "robble 4 XXOO/XXOO/OOXO/1OOX black pie=no swap=no"
    assert setup.start_game().position() == setup.start
    assert setup.outcome == boardlab.Outcome("black", Termination.SCORE,
                                             {"black": 7.0, "white": 5.0})


def test_multi_action_turns_read_as_one_turn():
    rec = records.parse(IMPLO)
    turns = rec.turns()
    assert len(turns) == 8
    assert turns[6] == ["a1", "@a2"]
    assert turns[7] == ["d1", "@d2/c4", "@c4", "@b1/a1", "@d4", "@a1"]
    yugo = records.parse(YUGO)
    assert yugo.turns()[5] == ["mark b2", "done"]
    assert yugo.comments == {6: "dead"}
    assert records.parse(YUGO_REJECT).outcome.winner == "white"


def test_resignation_and_timeout():
    rec = records.parse(VIMBRE_RESIGNED)
    assert not rec.game.is_over
    assert rec.outcome == boardlab.Outcome("black", Termination.RESIGNATION, None)
    rec = records.parse(VIMBRE_TIMEOUT)
    assert rec.outcome.winner == "white" and rec.termination is Termination.TIMEOUT


def test_lenient_input_is_normalised():
    loose = """
    [Game   "robble" ]
    [Size "5"]
    [White "Bo"]
    [Result "*"]

    {  a   quiet
       start }
    1.C3 {centre} SWAP
    3. c2 *
    """
    rec = records.parse(loose)
    text = records.format(rec)
    assert text.splitlines()[:7] == [
        '[Game "robble"]', '[Size "5"]', '[Pie "yes"]', '[Black "?"]', '[White "Bo"]',
        '[Date "????.??.??"]', '[Result "*"]']
    assert text.endswith("{a quiet start} 1. c3 {centre} 2. swap 3. c2 *\n")
    assert records.format(records.parse(text)) == text
    # a finished game without Termination gets it from the replay
    rec = records.parse(ROBBLE_SETUP.replace('[Termination "score"]\n', ""))
    assert rec.termination is Termination.SCORE
    assert records.format(rec) == ROBBLE_SETUP
    # two comments after one move are joined
    rec = records.parse(ROBBLE.replace("{centre}", "{centre} {again}"))
    assert rec.comments[1] == "centre again"


def test_long_games_wrap_at_80_columns():
    game = boardlab.new_game("implo")
    rng = random.Random(3)
    while not game.is_over:
        game.apply_action(rng.choice(game.legal_actions()))
    long_note = "word " * 40 + "x" * 30
    rec = Record.from_game(game, {"black": "A"}, comments={5: long_note, 9: "short"})
    text = records.format(rec)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert records.parse(text) == rec


# ---------------------------------------------------------------- errors
HEAD = '[Game "robble"]\n[Size "5"]\n[Result "*"]\n\n'
SETUP = ROBBLE_SETUP.replace("1. a1 {fills the board} black", "{}")

ERRORS = [
    ("malformed tag: no quotes", '[Game robble]\n\n1. c3 *\n',
     "line 1, column 7: malformed tag 'Game': the value must be in double quotes"),
    ("malformed tag: no name", '[ "robble"]\n\n*\n',
     "line 1, column 3: malformed tag: expected a tag name (letters, digits, _) after '['"),
    ("malformed tag: open value", '[Game "robble]\n\n*\n',
     "line 1, column 7: malformed tag 'Game': the value has no closing '\"'"),
    ("malformed tag: no bracket", '[Game "robble"\n\n*\n',
     "line 1, column 15: malformed tag 'Game': expected ']' after the value"),
    ("malformed tag: trailing text", '[Game "robble"] [Size "5"]\n\n*\n',
     "line 1, column 17: malformed tag 'Game': unexpected text after ']' (one tag per line)"),
    ("duplicate tag", '[Game "robble"]\n[Game "implo"]\n\n*\n',
     ("line 2, column 2: duplicate tag 'Game' (first given on line 1; is the result of "
     "the game before missing?)")),
    ("unknown game", '[Game "chess"]\n\n1. e4 *\n',
     "line 1, column 8: unknown game 'chess' (games: implo, pilo, robble, vimbre, yugo)"),
    ("missing game", '[Size "5"]\n\n1. c3 *\n',
     "line 1, column 1: missing Game tag: a record starts with [Game \"name\"]"),
    ("bad size: range", '[Game "robble"]\n[Size "3"]\n\n*\n',
     "line 2, column 8: bad size '3': robble boards are 4..19"),
    ("bad size: text", '[Game "robble"]\n[Size "five"]\n\n*\n',
     "line 2, column 8: bad size 'five': not a whole number"),
    ("bad pie", '[Game "robble"]\n[Pie "maybe"]\n\n*\n',
     "line 2, column 7: bad Pie: must be \"yes\" or \"no\", got 'maybe'"),
    ("pie for vimbre", '[Game "vimbre"]\n[Pie "no"]\n\n*\n',
     "line 2, column 7: vimbre has no pie option (the Pie tag does not apply)"),
    ("bad komi", '[Game "yugo"]\n[Komi "1.5"]\n\n*\n',
     "line 2, column 8: bad Komi: must be a whole number, got '1.5'"),
    ("bad date", '[Game "robble"]\n[Date "1 May"]\n\n*\n',
     "line 2, column 8: bad Date: must be YYYY.MM.DD (use ? for unknown digits), got '1 May'"),
    ("bad result tag", '[Game "pilo"]\n[Result "black"]\n\n*\n',
     "line 2, column 10: bad Result 'black': use blue, orange, draw or *"),
    ("bad termination", '[Game "robble"]\n[Termination "boredom"]\n\n*\n',
     ("line 2, column 15: bad Termination 'boredom': use one of score, stones, last-move, "
     "connection, repetition, resignation, timeout")),
    ("bad position", '[Game "robble"]\n[Position "robble 4 XX/OO black"]\n\n*\n',
     "line 2, column 12: bad Position: board has 2 rows, expected 4"),
    ("position vs game", '[Game "implo"]\n[Position "robble 4 4/4/4/4 black"]\n\n*\n',
     "line 2, column 12: Position is a robble position but Game is 'implo'"),
    ("position vs size", '[Game "robble"]\n[Size "5"]\n[Position "robble 4 4/4/4/4 black"]\n\n*\n',
     "line 2, column 8: Size 5 but the Position is 4x4"),
    ("illegal move", HEAD + "1. c3 2. d4 3. c3 *\n",
     "line 5, column 16: illegal move 'c3': c3 is occupied"),
    ("malformed move", HEAD + "1. c3 2. z9 *\n",
     "line 5, column 10: illegal move 'z9': malformed: not a robble move on a 5x5 board"),
    ("illegal swap", HEAD + "1. swap *\n",
     "line 5, column 4: illegal move 'swap': swap is only legal on white's first turn"),
    ("move after the end", SETUP.replace("{}", "1. a1 2. b1 black"),
     ("line 11, column 10: move 'b1' after the end of the game (black won by score "
     "(black 7, white 5))")),
    ("result contradicts", SETUP.replace("{}", "1. a1 white").replace(
        '[Result "black"]', '[Result "white"]'),
     ("line 11, column 7: result 'white' contradicts the game: black won by score "
     "(black 7, white 5)")),
    ("unfinished result for a finished game", SETUP.replace("{}", "1. a1 *").replace(
        '[Result "black"]\n[Termination "score"]\n', ''),
     "line 9, column 7: result '*' but the game is over: black won by score (black 7, white 5)"),
    ("termination contradicts", SETUP.replace("{}", "1. a1 black").replace(
        '"score"', '"last-move"'),
     ("line 8, column 15: Termination 'last-move' contradicts the game: black won by score "
     "(black 7, white 5)")),
    ("resignation of a finished game", SETUP.replace("{}", "1. a1 black").replace(
        '"score"', '"resignation"'),
     ("line 8, column 15: Termination 'resignation' but the game ended by the rules: black "
     "won by score (black 7, white 5)")),
    ("winner of an unfinished game", HEAD.replace('"*"', '"black"') + "1. c3 black\n",
     ("line 5, column 7: result 'black' but the game is not over: use '*' for an unfinished "
     "game, or say how it ended with [Termination \"resignation\"] or "
     "[Termination \"timeout\"]")),
    ("rules termination of an unfinished game",
     HEAD.replace('"*"]', '"black"]\n[Termination "score"]') + "1. c3 black\n",
     ("line 4, column 15: Termination 'score' but the game is not over (only \"resignation\" "
     "or \"timeout\" can end it early)")),
    ("resignation without a winner", HEAD.replace('"*"]', '"*"]\n[Termination "resignation"]')
     + "1. c3 *\n",
     ("line 6, column 7: a game ended by resignation needs the winner's color as its result, "
     "not '*'")),
    ("resignation draw", HEAD.replace('"*"]', '"draw"]\n[Termination "resignation"]')
     + "1. c3 draw\n",
     ("line 6, column 7: a game ended by resignation cannot be a draw: the result names the "
     "winner")),
    ("result token vs tag", HEAD + "1. c3 2. c2 draw\n",
     "line 5, column 13: result 'draw' does not match the Result tag '*'"),
    ("result of another game", '[Game "pilo"]\n\n1. c3 black\n',
     "line 3, column 7: result 'black' is not a pilo result (use blue, orange, draw or *)"),
    ("missing result at the end", HEAD + "1. c3 2. c2\n",
     "line 6, column 1: missing result: the moves must end with black, white, draw or *"),
    ("missing result before a new game", HEAD + "1. c3\n\n" + HEAD + "*\n",
     ("line 7, column 1: missing result before the next tag: the moves must end with black, "
     "white, draw or *")),
    ("wrong turn number", HEAD + "1. c3 3. c2 *\n",
     "line 5, column 7: turn number '3.' should be '2.'"),
    ("turn number inside a turn", IMPLO.replace("7. a1 @a2", "7. a1 8. @a2"),
     "line 10, column 45: turn number '8.' in the middle of turn 7: white has not finished it"),
    ("turn number twice", HEAD + "1. 1. c3 *\n", "line 5, column 4: turn number '1.' given twice"),
    ("empty turn", HEAD + "1. c3 2. 3. c2 *\n",
     "line 5, column 7: turn number '2.' has no move after it"),
    ("dangling turn number", HEAD + "1. c3 2. *\n",
     "line 5, column 7: turn number '2.' has no move after it"),
    ("unterminated comment", HEAD + "1. c3 {oops *\n",
     "line 5, column 7: unterminated comment: '{' without a closing '}'"),
    ("nested comment", HEAD + "1. c3 {a {b} c} *\n",
     "line 5, column 10: '{' inside a comment: comments cannot nest"),
    ("stray brace", HEAD + "1. c3 } *\n", "line 5, column 7: '}' without a matching '{'"),
    ("no tags", "1. c3 *\n",
     "line 1, column 1: expected a game's tags (a record starts with [Game \"name\"])"),
]


@pytest.mark.parametrize("case, text, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_name_line_column_and_reason(case, text, message):
    with pytest.raises(RecordError) as info:
        records.parse_all(text)
    assert str(info.value) == message
    assert info.value.line == int(message.split(",")[0].split()[1])
    assert isinstance(info.value, boardlab.BoardlabError) and isinstance(info.value, ValueError)


def test_illegal_moves_carry_the_engines_reason_for_every_game():
    cases = {
        "implo": (IMPLO.replace("7. a1 @a2", "7. a1 b1"), "illegal move 'b1': "),
        "yugo": (YUGO.replace("7. accept", "7. c4"), "illegal move 'c4': "),
        "pilo": (PILO.replace("9. a3-a1", "9. a3-a2"), "illegal move 'a3-a2': "),
        "vimbre": (VIMBRE.replace("5. xc4", "5. xb4"), "illegal move 'xb4': "),
    }
    for name, (text, start) in cases.items():
        with pytest.raises(RecordError) as info:
            records.parse(text)
        assert info.value.reason.startswith(start), (name, info.value)
        assert len(info.value.reason) > len(start) + 3


def test_parse_wants_exactly_one_game():
    with pytest.raises(RecordError, match="no game found"):
        records.parse("  \n")
    with pytest.raises(RecordError, match="line 13, column 1: more than one game"):
        records.parse(ROBBLE + "\n" + ROBBLE)


def test_text_after_the_result_is_named_for_what_it_is():
    cases = [
        (ROBBLE + "{the end}\n", "line 12, column 1: comment after the result: a comment "
         "must come before the result token"),
        (ROBBLE + "junk\n", "line 12, column 1: text after the result: 'junk' (the result "
         "ends the game; another game starts with its tags)"),
        (ROBBLE.replace("c2 *", "c2 * ok"), "line 11, column 73: text after the result: 'ok'"),
    ]
    for text, message in cases:
        for read in (records.parse, records.parse_all):
            with pytest.raises(RecordError) as info:
                read(text)
            assert str(info.value).startswith(message), (read, str(info.value))
            assert "more than one game" not in str(info.value)
            assert "expected a game's tags" not in str(info.value)


def test_a_byte_order_mark_is_skipped(tmp_path):
    text = "\ufeff" + ROBBLE.replace("\n", "\r\n")
    assert records.parse(text) == records.parse(ROBBLE)
    assert records.parse_all(text) == [records.parse(ROBBLE)]
    path = tmp_path / "bom.rec"
    path.write_bytes(b"\xef\xbb\xbf" + ROBBLE.encode("utf-8"))
    assert records.read(path) == [records.parse(ROBBLE)]
    # line and column numbers still count from the first real character
    with pytest.raises(RecordError, match="^line 1, column 7: malformed tag 'Game'"):
        records.parse("\ufeff[Game robble]\n\n*\n")


def test_parse_each_goes_on_after_a_bad_game():
    bad_move = ROBBLE.replace("3. c2", "3. c3")
    junk = ROBBLE + "junk\n"
    text = "\n".join([IMPLO, bad_move, YUGO, '[Game "robble"]\n[Size "3"]\n\n*\n', junk,
                      ROBBLE])
    items = records.text.parse_each(text)
    kinds = [type(item).__name__ for item in items]
    assert kinds == ["Record", "RecordError", "Record", "RecordError", "Record",
                     "RecordError", "Record"]
    lines = text.splitlines()
    errors = [item for item in items if isinstance(item, RecordError)]
    assert [e.reason.split(":")[0] for e in errors] == [
        "illegal move 'c3'", "bad size '3'", "text after the result"]
    assert lines[errors[0].line - 1].startswith("{a quiet start} 1. c3")
    assert lines[errors[1].line - 1] == '[Size "3"]'
    assert lines[errors[2].line - 1] == "junk"
    assert [r.name for r in items if isinstance(r, Record)] == ["implo", "yugo", "robble",
                                                                "robble"]
    assert records.text.parse_each("") == []
    first = records.text.parse_each("oops\n" + ROBBLE)
    assert isinstance(first[0], RecordError) and first[1] == records.parse(ROBBLE)


# ---------------------------------------------------------------- many games, files, JSON
def test_many_games_in_one_text_and_file(tmp_path):
    texts = [HAND_WRITTEN[k] for k in sorted(HAND_WRITTEN)]
    all_text = "\n".join(texts)
    recs = records.parse_all(all_text)
    assert [r.name for r in recs] == [records.parse(t).name for t in texts]
    assert records.format_all(recs) == all_text
    assert records.parse_all("") == []
    path = tmp_path / "games.rec"
    records.write(recs, path)
    assert records.read(path) == recs
    assert records.read(str(path)) == recs
    buffer = io.StringIO()
    records.write(recs[0], buffer)
    assert buffer.getvalue() == texts[0]
    assert records.read(io.StringIO(all_text)) == recs
    # the error line counts from the top of the file
    broken = all_text.replace("5. xc4", "5. xb4")
    with pytest.raises(RecordError) as info:
        records.parse_all(broken)
    assert broken.splitlines()[info.value.line - 1].startswith("1. b4 2. a1,c4")


@pytest.mark.parametrize("key", sorted(HAND_WRITTEN))
def test_json_round_trip(key):
    rec = records.parse(HAND_WRITTEN[key])
    data = json.loads(records.to_json(rec))
    assert data["game"] == rec.name and data["moves"] == rec.moves
    assert data["result"] == rec.result
    back = records.from_json(records.to_json(rec))
    assert back == rec
    assert records.format(back) == HAND_WRITTEN[key]
    assert records.from_json(records.to_dict(rec)) == rec


def test_json_shape_and_errors():
    data = records.to_dict(records.parse(IMPLO))
    assert data["turns"][7] == [8, 9, 10, 11, 12, 13]
    assert data["scores"] == {"black": 0.0, "white": 3.0}
    assert data["options"] == {"pie": True} and data["position"] is None
    minimal = {"game": "robble", "size": 5, "moves": ["c3", "c2"], "result": "*"}
    assert records.from_json(minimal).moves == ["c3", "c2"]
    bad = [
        ({**minimal, "moves": ["c3", "c3"]}, "moves[1]: illegal move 'c3': c3 is occupied"),
        ({**minimal, "colour": 1}, "unknown key(s): colour"),
        ({k: v for k, v in minimal.items() if k != "moves"}, "moves: missing 'moves'"),
        ({**minimal, "result": "blue"}, "result: bad result 'blue'"),
        ({**minimal, "result": "black"}, "result: result 'black' but the game is not over"),
        ({**minimal, "game": "chess"}, "game: unknown game 'chess'"),
        ({**minimal, "size": 30}, "size: robble: size 30 is outside 4..19"),
        ({**minimal, "options": {"komi": 1}}, "options: robble: unknown option 'komi'"),
        ({**minimal, "comments": {"x": "y"}}, "comments: comments map a ply number"),
        ({**minimal, "comments": {"1": "a {b}"}}, "comments: a comment cannot contain braces"),
    ]
    for data, message in bad:
        with pytest.raises(RecordError) as info:
            records.from_json(data)
        assert str(info.value).startswith(message), (message, str(info.value))
    with pytest.raises(RecordError, match="not JSON"):
        records.from_json("{nope")


def test_json_errors_name_the_field_at_fault():
    minimal = {"game": "robble", "size": 5, "moves": ["c3", "c2"], "result": "*"}
    bad = [
        ({"comments": {"\u00b2": "x"}}, "comments", "comments map a ply number"),
        ({"comments": {"\u0663": "x"}}, "comments", "comments map a ply number"),
        ({"comments": {"9": "x"}}, "comments", "comment at ply 9: must be 0..2"),
        ({"comments": {"1": "a {b}"}}, "comments", "a comment cannot contain braces"),
        ({"date": 2025}, "date", "must be str, got 2025"),
        ({"date": "1 May"}, "date", "Date must be YYYY.MM.DD"),
        ({"tags": {"my tag": "x"}}, "tags", "bad tag name 'my tag'"),
        ({"tags": {"Result": "x"}}, "tags", "tag 'Result' is set from the game"),
        ({"tags": {"Event": "a\nb"}}, "tags", "tag 'Event': a value must fit on one line"),
        ({"players": {"blue": "x"}}, "players", "'blue' is not a robble color"),
        ({"players": {"black": "a\nb"}}, "players", "tag 'Black': a value must fit"),
    ]
    for extra, where, reason in bad:
        with pytest.raises(RecordError) as info:
            records.from_json({**minimal, **extra})
        assert info.value.where == where, (extra, str(info.value))
        assert str(info.value).startswith(f"{where}: {reason}"), (extra, str(info.value))


# ---------------------------------------------------------------- from_game
def test_from_game():
    game = boardlab.new_game("robble", size=5)
    for move in ["c3", "swap", "c2"]:
        game.play(move)
    rec = Record.from_game(game, {"black": "Ann"}, tags={"Event": "x", "Date": "2025.01.01"},
                           comments={0: "start", 3: "end"})
    assert rec.tags["Date"] == "2025.01.01" and rec.players == {"black": "Ann", "white": "?"}
    assert rec.result == "*" and rec.turn_starts == [0, 1, 2]
    game.play("a1")                 # the record holds its own copy
    assert rec.moves == ["c3", "swap", "c2"] and len(rec.game) == 3
    resigned = Record.from_game(rec.game, resigned="white")
    assert resigned.result == "black" and resigned.termination is Termination.RESIGNATION
    timeout = Record.from_game(rec.game, timeout="black")
    assert timeout.result == "white" and timeout.termination is Termination.TIMEOUT
    finished = records.parse(ROBBLE_SETUP).game
    with pytest.raises(RecordError, match="ended by the rules"):
        Record.from_game(finished, resigned="white")
    with pytest.raises(RecordError, match="'red' is not a robble color"):
        Record.from_game(game, {"red": "x"})
    with pytest.raises(RecordError, match="cannot contain braces"):
        Record.from_game(game, comments={1: "a } b"})
    with pytest.raises(RecordError, match="set from the game"):
        Record.from_game(game, tags={"Result": "black"})
    with pytest.raises(RecordError, match="bad tag name"):
        Record.from_game(game, tags={"my tag": "x"})
    with pytest.raises(RecordError, match="one line"):
        Record.from_game(game, {"black": "two\nlines"})
    with pytest.raises(RecordError, match="either resigned or timeout"):
        Record.from_game(game, resigned="black", timeout="white")
    # a game set up from a position records the position; a fresh one does not
    setup = boardlab.from_position("robble 4 XXOO/XXOO/OOXO/1OOX black pie=no")
    setup.play("a1")
    assert records.format(Record.from_game(setup)) == ROBBLE_SETUP.replace(
        " {fills the board}", "")
    fresh = boardlab.from_position(boardlab.new_game("robble").position())
    assert Record.from_game(fresh).start is None


@settings(max_examples=60, deadline=None)
@given(comment=st.text(alphabet=st.characters(blacklist_characters="{}",
                                               blacklist_categories=("Cs",)), max_size=120),
       name=st.text(alphabet=st.characters(blacklist_characters="\n\r",
                                            blacklist_categories=("Cs",)), max_size=30))
def test_any_comment_and_player_name_round_trips(comment, name):
    game = boardlab.new_game("vimbre", size=4)
    game.play("b2")
    rec = Record.from_game(game, {"white": name}, comments={1: comment})
    back = records.parse(records.format(rec))
    assert back.players["white"] == (name or "?")
    assert back.comments.get(1, "") == " ".join(comment.split())
    assert records.format(back) == records.format(rec)


# ---------------------------------------------------------------- the property test
GAMES_PER_KIND = 400


def _random_record(name: str, rng: random.Random) -> tuple[Record, boardlab.Game]:
    size = rng.choice([4, 5, 6])
    options: dict = {}
    if "pie" in boardlab.game_class(name).option_defaults:
        options["pie"] = rng.random() < 0.7
    if name == "yugo":
        options["komi"] = rng.choice([0, 0, 3, -2])
    game = boardlab.new_game(name, size, **options)
    if rng.random() < 0.15:  # start from a set-up position part-way through a game
        for _ in range(rng.randrange(1, 12)):
            if game.is_over:
                break
            game.apply_action(rng.choice(game.legal_actions()))
        if not game.is_over:
            game = boardlab.from_position(game.position())
    stop = rng.choice([None, None, None, rng.randrange(0, 30)])
    while not game.is_over and (stop is None or len(game) < stop):
        game.apply_action(rng.choice(game.legal_actions()))
    comments = {p: f"note {p} " + "word " * rng.randrange(0, 25)
                for p in range(len(game) + 1) if rng.random() < 0.05}
    kwargs: dict = {}
    if not game.is_over and rng.random() < 0.4:
        kwargs[rng.choice(["resigned", "timeout"])] = rng.choice(game.colors)
    players = {c: rng.choice(["?", "Ann", 'Bo "B" \\ x']) for c in game.colors}
    rec = Record.from_game(game, players, comments=comments, **kwargs,
                           tags={"Round": str(rng.randrange(9))} if rng.random() < 0.3 else None)
    return rec, game


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_round_trip_over_random_games(name):
    rng = random.Random(f"records-{name}")
    for _ in range(GAMES_PER_KIND):
        rec, game = _random_record(name, rng)
        text = records.format(rec)
        back = records.parse(text)
        assert records.format(back) == text
        assert back == rec
        assert back.game.history == game.history
        assert back.game.outcome == game.outcome
        assert back.game.position() == game.position()
        assert back.start_game().position() == (rec.start or
                                                 boardlab.new_game(name, game.size,
                                                                   **game.options).position())
        assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("["))
        assert records.from_json(records.to_json(back)) == rec


def test_deeply_nested_json_is_a_record_error():
    """json.loads recurses: a pathological nesting must be a RecordError, not a crash."""
    with pytest.raises(RecordError, match="nested too deeply"):
        records.from_json('{"a":' + "[" * 50000 + "]" * 50000 + "}")


# ---------------------------------------------------------------- files
def test_read_text_reads_plain_and_gzip_files_alike(tmp_path):
    import gzip

    plain = tmp_path / "a.rec"
    plain.write_text(ROBBLE, encoding="utf-8")
    packed = tmp_path / "no-suffix"          # gzip is told by its magic number
    with gzip.open(packed, "wt", encoding="utf-8") as fh:   # one member a game, as match writes
        fh.write(ROBBLE)
    with gzip.open(packed, "at", encoding="utf-8") as fh:
        fh.write(ROBBLE_SETUP)
    assert records.read_text(plain) == ROBBLE
    assert records.read_text(packed) == ROBBLE + ROBBLE_SETUP
    assert len(records.read(packed)) == 2 and records.read(plain)[0] == records.parse(ROBBLE)


def test_a_cut_off_last_game_is_an_error_unless_it_is_to_be_dropped(tmp_path):
    import gzip

    packed = tmp_path / "m.rec.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:
        fh.write(ROBBLE)
    whole = packed.read_bytes()
    with gzip.open(packed, "at", encoding="utf-8") as fh:
        fh.write(ROBBLE_SETUP)
    cut = tmp_path / "cut.rec.gz"
    cut.write_bytes(packed.read_bytes()[:len(whole) + 30])  # the second member cut short
    with pytest.raises(RecordError, match=r"cut\.rec\.gz: damaged gzip file \(its last part is cut short\)"):
        records.read_text(cut)
    assert records.read_text(cut, drop_cut_off=True) == ROBBLE
    garbage = tmp_path / "bad.rec.gz"
    garbage.write_bytes(whole[:10] + b"not deflate data at all" + whole[30:])
    with pytest.raises(RecordError, match="bad.rec.gz: damaged gzip file"):
        records.read_text(garbage, drop_cut_off=True)      # damage inside is never dropped
    latin = tmp_path / "latin.rec"
    latin.write_bytes(ROBBLE.replace("Bo", "B\xf6").encode("latin-1"))
    with pytest.raises(RecordError, match=r"latin.rec: not UTF-8 text \(byte \d+\)"):
        records.read_text(latin)
