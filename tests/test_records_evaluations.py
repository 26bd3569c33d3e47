"""An engine's review in a record (docs/records.md, "Evaluations and
judgements"): NAGs on moves (``$2``, and the ``?``/``??`` suffixes when
reading), in text and JSON, on the main line and in variations; the
``[%eval color p]`` comment command."""

from __future__ import annotations

import pytest

import boardlab
from boardlab import records
from boardlab.records import RecordError, evaluations

HEAD = '[Game "robble"]\n[Size "5"]\n[Pie "no"]\n\n'


def test_nags_round_trip_through_text_and_json_on_every_line():
    game = boardlab.new_game("robble", 5, pie=False)
    for m in ["c3", "b2", "d4"]:
        game.play(m)
    line = records.Node.line(["a1", "e5"], {1: "idea"})
    line.variations[0].nags = (6,)
    rec = records.Record.from_game(game, comments={2: "[%eval black 0.300] blunder"},
                                   nags={2: (4,), 3: (2, 1)}, variations={1: [line]})
    text = records.format(rec)
    assert "2. b2 $4 {[%eval black 0.300] blunder} (2. a1 {idea} 3. e5 $6) 3. d4 $2 $1" in text
    assert records.parse(text) == rec
    assert records.from_json(records.to_json(rec)) == rec
    assert rec.tree().variations[0].variations[0].nags == (4,)


@pytest.mark.parametrize("suffix, nag", [("?", 2), ("??", 4), ("?!", 6), ("!", 1), ("!!", 3),
                                         ("!?", 5)])
def test_suffix_glyphs_read_as_nags(suffix, nag):
    rec = records.parse(HEAD + f"1. c3 2. b2{suffix} (2. a1{suffix}) *\n")
    assert rec.moves == ["c3", "b2"] and rec.nags == {2: (nag,)}
    assert rec.variations[1][0].nags == (nag,)


@pytest.mark.parametrize("moves, reason", [
    ("$2 1. c3 *", "NAG $2 before any move"),
    ("1. c3 2. $2 b2 *", "turn number '2.' has no move after it"),
    ("1. c3 $300 *", "NAG $300: a NAG is $0..$255"),
    ("1. c3 (  $1 1. b2) *", "NAG $1 before any move"),
])
def test_misplaced_nags_are_errors_with_the_place(moves, reason):
    with pytest.raises(RecordError, match="line 5, column") as exc:
        records.parse(HEAD + moves + "\n")
    assert reason in str(exc.value)


def test_nags_given_to_the_api_are_checked():
    game = boardlab.new_game("robble", 5, pie=False)
    game.play("c3")
    with pytest.raises(RecordError, match="nags: NAGs at ply 0"):
        records.Record.from_game(game, nags={0: (2,)})
    with pytest.raises(RecordError, match="a NAG is a whole number 0..255"):
        records.Record.from_game(game, nags={1: (256,)})
    with pytest.raises(RecordError, match="nags.1: a NAG is a whole number"):
        records.from_dict({"game": "robble", "size": 5, "options": {"pie": False},
                           "moves": ["c3"], "result": "*", "nags": {"1": ["?"]}})


def test_eval_command_reads_back_and_leaves_the_words():
    note = f"{evaluations.eval_command('white', 0.61234)} mistake; best c3"
    assert note == "[%eval white 0.612] mistake; best c3"
    assert evaluations.read_eval(note) == ("white", 0.612)
    assert evaluations.without_commands(note) == "mistake; best c3"
    assert evaluations.read_eval("[%eval white 1.5]") is None
    assert evaluations.read_eval("no command") is None
    assert evaluations.LABEL_NAGS["blunder"] == evaluations.GLYPH_NAGS["??"] == 4
