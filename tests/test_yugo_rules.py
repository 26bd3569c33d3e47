"""Yugo, clause by clause, on hand-built positions: each test names the clauses
of docs/rules.md (Yugo) and docs/games/yugo.md it checks.

Board text: rows from the top (rank = size) down; x / o black / white pawn,
X / O black / white king; digits count empty points. Every expected position,
move list and score below was worked out by hand from the rules.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import GameOverError, IllegalMoveError, PositionError, Termination
from boardlab.core import grid
from boardlab.games.yugo import Yugo

FIELDS = {"komi": "0", "button": "-", "passes": "0", "phase": "play", "marks": "-",
          "rejected": "no"}


def pos(board: str, to_move: str = "black", size: int = 5, **fields: object) -> boardlab.Game:
    values = {**FIELDS, **{k: str(v) for k, v in fields.items()}}
    extra = " ".join(f"{k}={v}" for k, v in values.items())
    return boardlab.from_position(f"yugo {size} {board} {to_move} {extra}")


def board(game: boardlab.Game) -> str:
    return game.position().split()[2]


def fields(game: boardlab.Game) -> dict[str, str]:
    return dict(item.split("=", 1) for item in game.position().split()[4:])


def refused(game: boardlab.Game, move: str, reason: str, error=IllegalMoveError) -> None:
    """``move`` is refused with a reason matching ``reason`` and the game is untouched."""
    before = (game.position(), game.history, game.legal_moves())
    with pytest.raises(error, match=reason):
        game.play(move)
    assert (game.position(), game.history, game.legal_moves()) == before


def kings(game: boardlab.Game) -> list[str]:
    return [m for m in game.legal_moves() if m.startswith("k")]


# ------------------------------------------------------------------ notation


@pytest.mark.rules("yugo-5.1", "yugo-1.1")
def test_integer_actions_follow_the_fixed_encoding():
    game = boardlab.new_game("yugo", 5)
    n = 25
    assert game.num_distinct_actions == 3 * n + 5 == Yugo.info(5).num_distinct_actions
    expected = {0: "a1", 12: "c3", 24: "e5", n: "ka1", n + 12: "kc3", 2 * n: "button",
                2 * n + 1: "pass", 2 * n + 2: "mark a1", 2 * n + 2 + 12: "mark c3",
                3 * n + 1: "mark e5", 3 * n + 2: "done", 3 * n + 3: "accept",
                3 * n + 4: "reject"}
    for action, text in expected.items():
        assert game.action_to_string(action) == text
        assert game.string_to_action(text) == action


@pytest.mark.rules("yugo-5.3", "yugo-6.1", "yugo-4.1", "yugo-2.6")
def test_start_position_text_and_moves():
    game = boardlab.new_game("yugo", 5, komi=2)
    assert game.position() == ("yugo 5 5/5/5/5/5 black komi=2 button=- passes=0 phase=play "
                               "marks=- rejected=no")
    assert game.legal_moves() == list(grid.point_names(5)) + ["button"]
    assert game.legal_actions() == list(range(25)) + [50]


@pytest.mark.rules("yugo-1.1", "yugo-5.2")
def test_k_column_pawn_and_king_on_11x11():
    game = boardlab.new_game("yugo", 11)
    n = 121
    k4 = 3 * 11 + 10
    assert game.string_to_action("k4") == k4 and game.action_to_string(k4) == "k4"
    assert game.string_to_action("kk4") == n + k4 and game.action_to_string(n + k4) == "kk4"
    game.play("k4")                                   # a pawn on k4
    assert board(game) == "11/11/11/11/11/11/11/10x/11/11/11"
    refused(game, "kk4", "k4 is occupied")


@pytest.mark.rules("yugo-5.2", "common-2")
def test_k4_is_not_a_point_and_kk4_not_a_move_on_9x9():
    game = boardlab.new_game("yugo", 9)
    for text in ("k4", "kk4", "K4"):
        refused(game, text, "malformed")
        with pytest.raises(IllegalMoveError, match="malformed"):
            game.string_to_action(text)
    refused(game, "k4", "no point k4 on a 9x9 board")
    assert game.string_to_action("ki9") == 81 + 80      # columns a..i


@pytest.mark.rules("yugo-1.1")
@pytest.mark.parametrize("junk", ["", "z1", "a0", "a6", "c", "kc", "kkc3", "mark", "markc3",
                                  "mark  c3", "mark k4", "c3 x", "xc3", "pass pass", "swap",
                                  "accept!", "k"])
def test_malformed_strings_are_refused_untouched(junk):
    game = pos("5/5/2x2/5/5", "white", button="black")
    before = (game.position(), game.history)
    with pytest.raises(IllegalMoveError):
        game.play(junk)
    assert (game.position(), game.history) == before


@pytest.mark.rules("common-5")
def test_case_and_blanks_are_ignored():
    game = boardlab.new_game("yugo", 5)
    game.play("  C3 ")
    game.play("BUTTON")
    assert game.history == ["c3", "button"]


# ------------------------------------------------------------------ pawns


@pytest.mark.rules("yugo-2.2")
def test_pawn_on_an_occupied_point_is_illegal():
    game = pos("5/5/2x2/5/5", "white")
    refused(game, "c3", "c3 is occupied")
    refused(game, "kc3", "c3 is occupied")


@pytest.mark.rules("yugo-2.1", "yugo-2.2")
def test_pawn_suicide_is_illegal():
    # a1 is empty, its neighbours a2 and b1 are white: a black pawn there would
    # form a new group without a liberty.
    game = pos("5/5/5/o4/1o3")
    assert "a1" not in game.legal_moves() and "ka1" not in game.legal_moves()
    refused(game, "a1", "a1: a pawn there would leave its own group without a liberty")
    refused(game, "ka1", "a king must surround a white group")


@pytest.mark.rules("yugo-2.2")
def test_pawn_taking_the_last_liberty_of_an_enemy_group_is_illegal():
    # white a1 has a2 as its last liberty (b1 is black)
    game = pos("5/5/5/5/ox3")
    assert "a2" not in game.legal_moves()
    refused(game, "a2", "a2 is the last liberty of the white group at a1")


@pytest.mark.rules("yugo-2.2")
def test_pawn_taking_the_last_liberty_of_an_own_group_is_illegal():
    # black a1-b1 has b2 as last liberty; b2's other neighbours a2, c2, b3 are white
    game = pos("5/5/1o3/o1o2/xxo2")
    assert "b2" not in game.legal_moves() and "kb2" not in game.legal_moves()
    refused(game, "b2", "b2: a pawn there would leave its own group without a liberty")


@pytest.mark.rules("yugo-2.1", "yugo-2.2")
def test_pawn_merging_into_a_group_that_keeps_a_liberty_is_legal():
    # black a1-b1 has only b2 left; b2 joins it and the group gets b3 and c2
    game = pos("5/5/5/o4/xxo2")
    assert "b2" in game.legal_moves()
    game.play("b2")
    assert board(game) == "5/5/5/ox3/xxo2" and game.to_move == "white"
    # a point without an empty neighbour, joining two groups that have other liberties
    game = pos("5/5/5/x4/1x3")
    game.play("a1")
    assert board(game) == "5/5/5/x4/xx3"


@pytest.mark.rules("yugo-2.2", "yugo-2.3")
def test_pawn_on_the_last_liberty_of_an_enemy_group_is_a_king_point_instead():
    # white a1-a2 has a3 as its only liberty: a3 is illegal for a black pawn, legal
    # for a black king; b3 (next to the black group b1-b2) is an ordinary pawn.
    game = pos("5/5/5/ox3/ox3")
    assert "a3" not in game.legal_moves()
    assert "b3" in game.legal_moves() and "ka3" in game.legal_moves()


@pytest.mark.rules("yugo-2.2")
def test_pawn_without_an_empty_neighbour_may_fill_the_last_liberty_of_an_own_group_in_atari():
    """Pawn clause (c): the surrounded-group count must stay unchanged. Black a2 has a1 as its
    last liberty and a1 has no empty neighbour, but the pawn joins a2 and b1 into one group
    that keeps b1's liberty c1, and no white group loses its last liberty: 0 before, 0 after."""
    game = pos("5/5/o4/xo3/1x3")
    assert "a1" in game.legal_moves() and "ka1" not in game.legal_moves()
    game.play("a1")
    assert board(game) == "5/5/o4/xo3/xx3" and game.to_move == "white"


# ------------------------------------------------------------------ kings


@pytest.mark.rules("yugo-2.3")
def test_king_is_legal_only_where_it_surrounds_an_enemy_group():
    game = pos("5/5/5/5/ox3")                # white a1's last liberty is a2
    assert kings(game) == ["ka2"]
    refused(game, "kc3", "kc3: a king must surround a white group")
    # white to move in the same position: no black group can be surrounded
    game = pos("5/5/5/5/ox3", "white")
    assert kings(game) == []


@pytest.mark.rules("yugo-2.4")
def test_king_capture_removes_enemy_pawns_but_not_enemy_kings():
    # white group: king a1 + pawn b1, last liberty b2 (a2, c1 black)
    game = pos("5/5/5/x4/Oox2")
    assert kings(game) == ["kb2"]
    game.play("kb2")
    assert board(game) == "5/5/5/xX3/O1x2"
    assert game.to_move == "white"
    # white b1 would join the king a1 in a group without a liberty
    refused(game, "b1", "b1: a pawn there would leave its own group without a liberty")
    game.play("e5")
    # the white king's only liberty is b1: black may surround it again with a king
    assert kings(game) == ["kb1"]


@pytest.mark.rules("yugo-2.4")
def test_enemy_removal_comes_first_and_frees_the_kings_own_group():
    # white a2-b2 and black b1 both have a1 as their last liberty (c2 is black);
    # right after ka1 the black group a1-b1 has no liberty, but the white pawns go
    # first and free a2 and b2, so black keeps its pawn b1.
    game = pos("5/5/xx3/oox2/1xo2")
    assert kings(game) == ["ka1", "kd1"]
    game.play("ka1")
    assert board(game) == "5/5/xx3/2x2/Xxo2"


@pytest.mark.rules("yugo-2.4", "yugo-7.8")
def test_kings_own_surrounded_group_loses_its_pawns():
    # ka1 surrounds the white king group a2 (nothing to remove); black a1-b1-b2
    # is then still surrounded, so its pawns b1 and b2 go; the kings stay.
    game = pos("5/5/xo3/Oxo2/1xo2")
    assert kings(game) == ["ka1"]
    game.play("ka1")
    assert board(game) == "5/5/xo3/O1o2/X1o2"
    # both kings now have a liberty: b1 is black a1's last one (a white king point,
    # no white pawn), b2 is white a2's (a white pawn may fill it: it joins b3 and c2)
    moves = game.legal_moves()
    assert "kb1" in moves and "b1" not in moves and "b2" in moves


@pytest.mark.rules("yugo-2.4", "yugo-7.6")
def test_surrounded_king_only_groups_stay():
    # white king a1 is surrounded by black a2, b1; play goes on around it
    game = pos("5/5/5/x4/Ox3", button="black")
    game.play("e5")
    game.play("pass")
    assert board(game) == "4x/5/5/x4/Ox3"
    # a surrounded group holding a pawn cannot occur
    with pytest.raises(PositionError, match="has no liberty but holds pawns"):
        pos("5/5/5/x4/ox3")


@pytest.mark.rules("yugo-2.4")
def test_king_on_the_last_liberty_of_two_enemy_groups_removes_both():
    # white a2 (pawn) and white b1 (pawn) both have a1 as last liberty
    game = pos("5/5/x4/ox3/1ox2")
    assert kings(game) == ["ka1"]
    refused(game, "a1", "a1 is the last liberty of the white group at b1")
    game.play("ka1")
    assert board(game) == "5/5/x4/1x3/X1x2"


@pytest.mark.rules("yugo-2.4", "yugo-7.8")
def test_own_pawn_removal_splitting_the_kings_group_leaves_king_groups_sharing_a_liberty():
    """King clause (d): kc1 surrounds white king d1 (no pawn to remove); then the black group
    a1-b1-c1 is surrounded, so its pawn b1 goes and kings a1 and c1 stay as two king-only groups
    whose only liberty is b1. That point is now a white king point (not a pawn point), and
    kb1 surrounds both groups, removing nothing, while joining the white group b2 with liberties."""
    game = pos("5/5/5/ooox1/Xx1Ox")
    assert kings(game) == ["kc1"] and "c1" not in game.legal_moves()
    game.play("kc1")
    assert board(game) == "5/5/5/ooox1/X1XOx"
    # black a1 and c1 have b1 as last liberty, black e1 has e2 (d2 still has d3)
    assert kings(game) == ["kb1", "ke2"]
    assert "b1" not in game.legal_moves() and "e2" not in game.legal_moves()
    game.play("kb1")
    assert board(game) == "5/5/5/ooox1/XOXOx" and game.to_move == "black"


@pytest.mark.rules("yugo-2.4")
def test_king_capture_giving_liberties_to_another_own_group_changes_the_reply_moves():
    """King clause (d): ka4 surrounds white a3 and removes it. That frees a3 for the separate
    black group a2, whose last liberty was a1: with white to move before, ka1 was white's only
    king and pawn a1 illegal; after the capture a2 has a1 and a3, so white has no king and a
    pawn on a1 (liberty b1, surrounding nothing) becomes legal."""
    board_text = "5/5/ox3/xo3/5"
    before = pos(board_text, "white")
    assert kings(before) == ["ka1"] and "a1" not in before.legal_moves()
    game = pos(board_text)
    assert kings(game) == ["ka4"]
    game.play("ka4")
    assert board(game) == "5/X4/1x3/xo3/5" and game.to_move == "white"
    assert kings(game) == []
    assert "a1" in game.legal_moves() and "a3" not in game.legal_moves()


# ------------------------------------------------------------------ button and pass


@pytest.mark.rules("yugo-2.5")
def test_button_can_be_taken_once_only():
    game = boardlab.new_game("yugo", 5)
    assert "button" in game.legal_moves() and "pass" not in game.legal_moves()
    game.play("button")
    assert fields(game)["button"] == "black"
    assert "button" not in game.legal_moves() and "pass" in game.legal_moves()
    refused(game, "button", r"the button has already been taken \(by black\)")


@pytest.mark.rules("yugo-2.6")
def test_pass_is_illegal_before_the_button():
    game = boardlab.new_game("yugo", 5)
    refused(game, "pass", "pass is only legal once the button has been taken")
    game.play("c3")
    refused(game, "pass", "pass is only legal once the button has been taken")
    game.play("button")
    game.play("pass")                       # now black may pass
    assert fields(game)["passes"] == "1"


@pytest.mark.rules("yugo-3.1")
def test_a_placement_between_passes_resets_the_count():
    game = pos("5/5/2x2/5/5", "white", button="black")
    game.play("pass")
    game.play("a1")
    assert fields(game)["passes"] == "0"
    game.play("pass")
    assert fields(game)["phase"] == "play" and fields(game)["passes"] == "1"


@pytest.mark.rules("yugo-3.1", "yugo-7.1")
def test_pass_pass_enters_marking_for_the_color_due_to_move():
    game = boardlab.new_game("yugo", 5)
    for move in ("c3", "button", "pass", "pass"):
        game.play(move)
    assert game.to_move == "black"
    assert fields(game) == {"komi": "0", "button": "white", "passes": "0", "phase": "mark",
                            "marks": "-", "rejected": "no"}
    assert game.legal_moves() == ["mark c3", "done"]
    game = boardlab.new_game("yugo", 5)
    for move in ("button", "pass", "pass"):
        game.play(move)
    assert game.to_move == "white" and fields(game)["phase"] == "mark"
    assert game.legal_moves() == ["done"]


@pytest.mark.rules("yugo-2.6", "yugo-3.1", "yugo-3.2", "yugo-7.2")
def test_white_takes_the_button_then_black_passes_first():
    """Button/pass clauses: pass needs the button taken by either color. After white's button,
    black's pass makes one pass; white's pass makes the double pass, so black (due to move)
    proposes. Done + accept keep the board: black scores c3 (1) plus the 24-point territory
    touching black only; white scores only the button's half point."""
    game = boardlab.new_game("yugo", 5)
    game.play("c3")
    game.play("button")
    assert fields(game)["button"] == "white" and game.legal_moves()[-1] == "pass"
    game.play("pass")
    assert fields(game)["passes"] == "1" and fields(game)["phase"] == "play"
    assert game.to_move == "white"
    game.play("pass")
    assert fields(game)["passes"] == "0" and fields(game)["phase"] == "mark"
    assert game.to_move == "black"
    game.play("done")
    game.play("accept")
    assert game.position() == ("yugo 5 5/5/2x2/5/5 - komi=0 button=white passes=0 phase=play "
                               "marks=- rejected=no")
    assert game.outcome.scores == {"black": 25.0, "white": 0.5}
    assert game.winner == "black" and game.outcome.termination is Termination.SCORE


# ------------------------------------------------------------------ agreement


def marking(to_move: str = "white") -> boardlab.Game:
    # black group c3-c4 (pawn c3, king c4), white a1, white e5; smallest points
    # a1, c3, e5
    return pos("4o/2X2/2x2/5/o4", to_move, button="black", phase="mark")


@pytest.mark.rules("yugo-3.1", "yugo-5.3")
def test_mark_done_accept_removes_marked_groups_and_ends():
    game = marking()
    assert game.legal_moves() == ["mark a1", "mark c3", "mark e5", "done"]
    game.play("mark c3")
    assert game.legal_moves() == ["mark e5", "done"]
    assert fields(game)["marks"] == "c3" and board(game) == "4o/2X2/2x2/5/o4"
    game.play("done")
    assert game.to_move == "black" and fields(game)["phase"] == "answer"
    assert game.legal_moves() == ["accept", "reject"]
    game.play("accept")
    assert game.is_over and game.to_move is None
    # pawn c3 and king c4 are both gone
    assert game.position() == ("yugo 5 4o/5/5/5/o4 - komi=0 button=black passes=0 phase=play "
                               "marks=- rejected=no")
    # white: pieces a1, e5 (2) + the 23 empty points, one region touching only white;
    # black: the button
    assert game.outcome.scores == {"black": 0.5, "white": 25.0}
    assert game.winner == "white" and game.outcome.termination is Termination.SCORE
    assert game.legal_moves() == [] and game.legal_actions() == []


@pytest.mark.rules("yugo-3.1")
def test_done_with_no_marks_proposes_nothing():
    game = marking()
    game.play("done")
    assert fields(game)["marks"] == "-" and game.to_move == "black"
    game.play("accept")
    assert board(game) == "4o/2X2/2x2/5/o4" and game.is_over


@pytest.mark.rules("yugo-3.1", "yugo-7.3", "common-3")
def test_mark_order_is_enforced_and_only_groups_can_be_marked():
    game = marking()
    refused(game, "mark b2", "mark b2: b2 is empty")
    refused(game, "mark c4", r"c4 is not the smallest point of its group \(that group is "
                             r"marked as mark c3\)")
    game.play("mark c3")
    refused(game, "mark a1", "increasing point order and a1 comes before the last mark, c3")
    refused(game, "mark c3", "that group is already marked")
    game.play("mark e5")
    assert game.legal_moves() == ["done"]


@pytest.mark.rules("yugo-3.1", "yugo-7.1")
def test_reject_resumes_with_the_proposer_and_the_next_double_pass_ends_at_once():
    game = marking()
    game.play("mark c3")
    game.play("done")
    game.play("reject")
    assert game.to_move == "white"
    assert fields(game) == {"komi": "0", "button": "black", "passes": "0", "phase": "play",
                            "marks": "-", "rejected": "yes"}
    assert board(game) == "4o/2X2/2x2/5/o4"
    game.play("pass")
    game.play("pass")
    assert game.is_over
    # no removals: the board is unchanged; the empty region touches both colors
    assert board(game) == "4o/2X2/2x2/5/o4"
    assert game.outcome.scores == {"black": 2.5, "white": 2.0}
    assert game.winner == "black"


@pytest.mark.rules("yugo-3.1")
def test_after_a_reject_play_continues_normally():
    game = marking()
    game.play("done")
    game.play("reject")
    game.play("b2")
    game.play("pass")
    assert not game.is_over and fields(game)["passes"] == "1"
    game.play("pass")
    assert game.is_over and board(game) == "4o/2X2/2x2/1o3/o4"


@pytest.mark.rules("yugo-3.1")
def test_wrong_phase_moves_are_refused_with_reasons():
    game = pos("5/5/2x2/5/5", "white", button="black")
    for move in ("mark c3", "done"):
        refused(game, move, "wrong phase: .* only legal while proposing removals")
    for move in ("accept", "reject"):
        refused(game, move, "wrong phase: .* only legal in answer to a finished proposal")
    game = marking()
    for move in ("b2", "kb2", "pass", "button", "accept", "reject"):
        refused(game, move, "wrong phase: white is proposing removals")
    game.play("done")
    for move in ("b2", "pass", "mark c3", "done"):
        refused(game, move, "wrong phase: black must accept or reject white's proposal")


@pytest.mark.rules("yugo-3.1")
def test_moves_after_the_end_raise_game_over():
    game = marking()
    game.play("done")
    game.play("accept")
    for move in ("a2", "pass", "accept", "mark a1", "nonsense"):
        refused(game, move, "the game is over", GameOverError)
    with pytest.raises(GameOverError):
        game.apply_action(0)


@pytest.mark.rules("yugo-7.3")
def test_marking_an_own_group_and_a_surrounded_king_only_group_then_accept():
    """Ruling 3: any group of either color may be marked, surrounded king-only groups included.
    Black marks the surrounded white king a1, its own pawn a2 and white e2; accept removes all
    three. Only black b1 remains: 1 piece + 24-point territory + button = 25.5; white 0."""
    game = pos("5/5/5/x3o/Ox3", button="black", phase="mark")
    # groups by smallest point: a1 (white king), b1, a2 (black pawns), e2 (white pawn)
    assert game.legal_moves() == ["mark a1", "mark b1", "mark a2", "mark e2", "done"]
    for move in ("mark a1", "mark a2", "mark e2", "done"):
        game.play(move)
    assert game.to_move == "white" and fields(game)["marks"] == "a1,a2,e2"
    game.play("accept")
    assert game.position() == ("yugo 5 5/5/5/5/1x3 - komi=0 button=black passes=0 phase=play "
                               "marks=- rejected=no")
    assert game.outcome.scores == {"black": 25.5, "white": 0.0}
    assert game.winner == "black"


# ------------------------------------------------------------------ scoring


SCORING_BOARD = "1x1o1/xx1oo/5/x3o/Ox1oX"


@pytest.mark.rules("yugo-3.2", "yugo-5.4")
def test_scoring_counts_territory_pieces_with_liberties_and_surrounded_enemy_kings():
    # a5: black territory (1). e5: white territory (1). The 11 points c5 c4 a3-e3
    # b2 c2 d2 c1 form one region touching both colors: nobody's.
    # black pieces with a liberty: b5 a4 b4, a2, b1 = 5; white king a1 has no liberty: +1
    # white pieces with a liberty: d5 d4 e4, e2, d1 = 5; black king e1 has no liberty: +1
    game = pos(SCORING_BOARD, "-", button="white", rejected="yes", komi=3)
    assert game.is_over
    assert game.outcome.scores == {"black": 7.0, "white": 1 + 5 + 1 + 0.5 + 3}
    assert game.winner == "white"
    game = pos(SCORING_BOARD, "-", button="black", rejected="yes")
    assert game.outcome.scores == {"black": 7.5, "white": 7.0}
    assert game.winner == "black"


@pytest.mark.rules("yugo-3.2", "yugo-7.4")
def test_komi_is_added_for_white_only_and_may_be_negative():
    game = pos(SCORING_BOARD, "-", button="black", rejected="yes", komi=-2)
    assert game.outcome.scores == {"black": 7.5, "white": 5.0}


@pytest.mark.rules("yugo-3.2")
def test_a_territory_touching_one_color_only_counts_all_its_points():
    # white wall on column b: a1-a5 is white territory (5); c1-e5 too (15)
    game = pos("1o3/1o3/1o3/1o3/1o3", "-", button="white", rejected="yes")
    assert game.outcome.scores == {"black": 0.0, "white": 5 + 15 + 5 + 0.5}


@pytest.mark.rules("yugo-7.7")
def test_str_shows_the_board_and_the_running_score():
    game = pos("5/5/2x2/5/5", "white", button="black", komi=1)
    text = str(game)
    assert " 3 . . x . .  3" in text
    assert "white to move  (black 25.5, white 1)" in text


@pytest.mark.rules("yugo-3.2", "yugo-4.1")
def test_a_territory_touching_neither_color_is_nobodys():
    """Score clause: a territory is owned only if it touches at least one of your pieces. On the
    empty board the 25-point region touches nobody, so black has only the button (0.5) and
    white only the komi (3); white wins."""
    game = boardlab.new_game("yugo", 5, komi=3)
    for move in ("button", "pass", "pass", "done", "accept"):
        game.play(move)
    assert game.is_over and board(game) == "5/5/5/5/5"
    assert game.outcome.scores == {"black": 0.5, "white": 3.0}
    assert game.winner == "white" and game.outcome.termination is Termination.SCORE


# ------------------------------------------------------------------ position text


@pytest.mark.rules("yugo-6.1", "yugo-7.2")
def test_position_round_trip_through_every_phase():
    game = boardlab.new_game("yugo", 5, komi=1)
    for move in ("c3", "button", "b2", "pass", "pass", "mark b2",
                 "done", "reject", "pass", "pass"):
        game.play(move)
        copy = boardlab.from_position(game.position())
        assert copy.position() == game.position()
        assert copy.legal_moves() == game.legal_moves()
    assert game.is_over and fields(game)["rejected"] == "yes"
    assert boardlab.from_position(game.position()).outcome == game.outcome


@pytest.mark.rules("yugo-6.1", "yugo-7.6")
def test_missing_fields_read_as_the_start_values():
    game = boardlab.from_position("yugo 5 5/5/2x2/5/5 white")
    assert game.position() == ("yugo 5 5/5/2x2/5/5 white komi=0 button=- passes=0 phase=play "
                               "marks=- rejected=no")


@pytest.mark.rules("yugo-6.1", "yugo-7.2", "yugo-7.5", "yugo-7.6", "common-4")
@pytest.mark.parametrize("text,reason", [
    ("yugo 5 5/5/2y2/5/5 white", "unknown piece 'y' at c3"),
    ("yugo 5 5/5/5/x4/ox3 black", "white group at a1 has no liberty but holds pawns"),
    ("yugo 5 5/5/2x2/5/5 white passes=2", "field 'passes' must be one of 0, 1"),
    ("yugo 5 5/5/2x2/5/5 white phase=end", "field 'phase' must be one of play, mark, answer"),
    ("yugo 5 5/5/2x2/5/5 white button=red", "field 'button' must be one of"),
    ("yugo 5 5/5/2x2/5/5 white rejected=maybe", "field 'rejected' must be yes or no"),
    ("yugo 5 5/5/2x2/5/5 white passes=1", "nobody can pass before the button is taken"),
    ("yugo 5 5/5/2x2/5/5 white phase=mark", "need the button taken"),
    ("yugo 5 5/5/2x2/5/5 white marks=c3", "marks are only possible in phase mark or answer"),
    ("yugo 5 5/5/2x2/5/5 white button=black phase=mark marks=c4", "c4 is not the smallest"),
    ("yugo 5 4o/2X2/2x2/5/o4 white button=black phase=mark marks=c3,a1", "increasing"),
    ("yugo 5 5/5/2x2/5/5 white button=black phase=mark marks=z9", "not a point"),
    ("yugo 5 5/5/2x2/5/5 white button=black phase=mark rejected=yes", "no other one"),
    ("yugo 5 5/5/2x2/5/5 white button=black phase=answer passes=1", "only possible in phase play"),
    ("yugo 5 5/5/2x2/5/5 - ", "cannot end before the button"),
    ("yugo 5 5/5/2x2/5/5 - button=black phase=mark", "finished position has passes=0"),
    ("yugo 5 5/5/5/5/5 white", "black moves first"),
    ("yugo 5 5/5/2x2/5/5 white colour=red", "unknown field"),
    ("yugo 5 5/5/2x2/5/5 white komi=1.5", "must be an integer"),
])
def test_bad_positions_are_refused_with_a_reason(text, reason):
    with pytest.raises(PositionError, match=reason):
        boardlab.from_position(text)


# ------------------------------------------------------------------ undo and length


def test_undo_restores_a_king_capture_exactly():
    game = pos("5/5/xo3/Oxo2/1xo2")
    before = (game.position(), game.legal_actions())
    game.play("ka1")
    after = game.position()
    assert game.undo() == "ka1"
    assert (game.position(), game.legal_actions()) == before
    game.play("ka1")
    assert game.position() == after


@pytest.mark.rules("yugo-7.9")
def test_max_game_length_is_a_proven_bound():
    # n + n(n+1)/2 placements at most; length <= 2 (P + 1) + 3 + n + 2
    assert Yugo.max_game_length_for(4) == 2 * (16 + 136 + 1) + 3 + 16 + 2
    rng = random.Random(4)
    for _ in range(30):
        game = boardlab.new_game("yugo", 4)
        while not game.is_over:
            game.apply_action(rng.choice(game.legal_actions()))
        assert len(game) <= Yugo.max_game_length_for(4)


# ------------------------------------------------------------------ properties

def _cells(game) -> list:
    """(color, is_king) or None per point, read from the position text."""
    tokens = grid.parse_board(game.position().split()[2], game.size, ValueError)
    return [None if t is None else ("xo".index(t.lower()), t.isupper()) for t in tokens]


def _groups(cells, size):
    adj = grid.neighbours(size)
    seen, out = set(), []
    for i, v in enumerate(cells):
        if v is None or i in seen:
            continue
        comp, stack = {i}, [i]
        while stack:
            p = stack.pop()
            for q in adj[p]:
                if q not in comp and cells[q] is not None and cells[q][0] == v[0]:
                    comp.add(q)
                    stack.append(q)
        seen |= comp
        libs = {q for p in comp for q in adj[p] if cells[q] is None}
        out.append((v[0], comp, libs))
    return out


def _surrounded(cells, size, color=None) -> int:
    return sum(1 for c, _, libs in _groups(cells, size) if not libs and color in (None, c))


def _naive_after_placement(cells, size, p, me, king):
    cells = list(cells)
    cells[p] = (me, king)
    if king:
        for color in (1 - me, me):
            for c, comp, libs in _groups(cells, size):
                if c == color and not libs:
                    for q in comp:
                        if not cells[q][1]:
                            cells[q] = None
    return cells


@pytest.mark.rules("yugo-2.1", "yugo-2.2", "yugo-2.3", "yugo-2.4")
@settings(max_examples=25, deadline=None)
@given(size=st.integers(4, 6), seed=st.integers(0, 10**6))
def test_property_placements_match_the_definitions(size, seed):
    """Every ply of a random game: legal pawns/kings are exactly those the rule
    text allows (counting surrounded groups from scratch); the resulting board is
    the text's resolution; every surrounded group holds kings only."""
    rng = random.Random(seed)
    game = boardlab.new_game("yugo", size)
    n = size * size
    while not game.is_over:
        cells = _cells(game)
        for _color, comp, libs in _groups(cells, size):
            if not libs:
                assert all(cells[q][1] for q in comp), "a surrounded group holds a pawn"
        legal = game.legal_actions()
        if fields(game)["phase"] == "play":
            me = game.colors.index(game.to_move)
            total, enemy = _surrounded(cells, size), _surrounded(cells, size, 1 - me)
            pawns = [p for p in range(n) if cells[p] is None and _surrounded(
                _naive_after_placement(cells, size, p, me, False), size) == total]
            kings_ = [n + p for p in range(n) if cells[p] is None and _surrounded(
                [*cells[:p], (me, True), *cells[p + 1:]], size, 1 - me) > enemy]
            assert [a for a in legal if a < 2 * n] == pawns + kings_
        action = rng.choice(legal)
        if action < 2 * n:
            expected = _naive_after_placement(cells, size, action % n,
                                              game.colors.index(game.to_move), action >= n)
            game.apply_action(action)
            assert _cells(game) == expected
        else:
            game.apply_action(action)


@pytest.mark.rules("yugo-3.2")
@settings(max_examples=25, deadline=None)
@given(size=st.integers(4, 6), seed=st.integers(0, 10**6), komi=st.integers(-5, 5))
def test_property_final_scores_match_a_scratch_count(size, seed, komi):
    rng = random.Random(seed)
    game = boardlab.new_game("yugo", size, komi=komi)
    while not game.is_over:
        game.apply_action(rng.choice(game.legal_actions()))
    cells = _cells(game)
    adj = grid.neighbours(size)
    score = [0.0, 0.0]
    seen: set[int] = set()
    for i in range(size * size):
        if cells[i] is None and i not in seen:
            region, stack = {i}, [i]
            while stack:
                p = stack.pop()
                for q in adj[p]:
                    if cells[q] is None and q not in region:
                        region.add(q)
                        stack.append(q)
            seen |= region
            touching = {cells[q][0] for p in region for q in adj[p] if cells[q] is not None}
            if len(touching) == 1:
                score[touching.pop()] += len(region)
    for color, comp, libs in _groups(cells, size):
        if libs:
            score[color] += len(comp)
        else:
            score[1 - color] += sum(1 for q in comp if cells[q][1])
    score[game.colors.index(fields(game)["button"])] += 0.5
    score[1] += komi
    assert game.scores == {"black": score[0], "white": score[1]}
    assert game.winner == ("black" if score[0] > score[1] else "white")


@pytest.mark.rules("yugo-6.1")
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_property_undo_and_position_round_trip_after_every_ply(seed):
    rng = random.Random(seed)
    game = boardlab.new_game("yugo", 5)
    while not game.is_over:
        text, legal = game.position(), game.legal_actions()
        twin = boardlab.from_position(text)
        assert twin.position() == text and twin.legal_actions() == legal
        action = rng.choice(legal)
        game.apply_action(action)
        game.undo()
        assert (game.position(), game.legal_actions()) == (text, legal)
        game.apply_action(action)
