"""Vimbre, clause by clause, on hand-built positions: each test names the
clauses of docs/rules.md (Vimbre) and docs/games/vimbre.md it checks.

Board text: rows from the top (rank = size) down to rank 1, X black, O white,
digits count empty points. Every expected position, move list and reason below
was worked out by hand from the rules, not copied from the engine's output.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import GameOverError, IllegalMoveError, PositionError, Termination
from boardlab.core import grid


def pos(board: str, to_move: str = "black", size: int = 5, first: str = "no") -> boardlab.Game:
    return boardlab.from_position(f"vimbre {size} {board} {to_move} first={first}")


def board(game: boardlab.Game) -> str:
    return game.position().split()[2]


def refused(game: boardlab.Game, move: str, reason: str, error=IllegalMoveError) -> str:
    """Assert ``move`` is refused with ``reason`` in the message and changes nothing."""
    before = (game.position(), game.history, game.legal_moves())
    with pytest.raises(error) as exc:
        game.play(move)
    assert reason in exc.value.reason, exc.value.reason
    assert (game.position(), game.history, game.legal_moves()) == before
    return exc.value.reason


# ---------------------------------------------------------------- the start

@pytest.mark.rules("common-1", "common-4", "vimbre-2.1", "vimbre-5.1", "vimbre-7.3")
def test_new_game_is_empty_default_11_black_first_single_stones_only():
    game = boardlab.new_game("vimbre")
    assert game.size == 11 and game.colors == ("black", "white")
    assert game.to_move == "black"
    assert game.position() == "vimbre 11 " + "/".join(["11"] * 11) + " black first=yes"
    moves = game.legal_moves()
    assert moves == list(grid.point_names(11))  # the 121 single stones, nothing else
    assert boardlab.new_game("vimbre").num_distinct_actions == 2 * 121 + 121 * 120 // 2 + 1
    assert game.info(11).max_game_length is None  # no proof that flips ever stop


@pytest.mark.rules("vimbre-2.1")
def test_black_first_turn_places_exactly_one_stone():
    game = boardlab.new_game("vimbre", 5)
    reason = refused(game, "a1,b1", "wrong phase")
    assert "first turn places exactly one stone" in reason
    game.play("c3")
    assert game.position() == "vimbre 5 5/5/2X2/5/5 white first=no"


@pytest.mark.rules("vimbre-2.1", "vimbre-2.3")
def test_white_first_turn_may_place_two_stones():
    game = boardlab.new_game("vimbre", 5)
    game.play("c3")
    moves = game.legal_moves()
    # 24 empty points, all legal alone (white has no stones); C(24,2) = 276
    # pairs, less the 28 diagonally adjacent empty pairs (32 diagonal
    # adjacencies on 5x5, 4 of them touch c3) that have no white corner.
    singles = [m for m in moves if "," not in m]
    pairs = [m for m in moves if "," in m]
    assert len(singles) == 24 and len(pairs) == 248 and len(moves) == 272
    assert "a1,b1" in pairs and "a1,e5" in pairs and "a1,b2" not in pairs
    game.play("a1,e5")
    assert board(game) == "4O/5/2X2/5/O4"
    assert game.to_move == "black"
    assert "a2,a3" in game.legal_moves()  # and so may black from now on


# ---------------------------------------------------------------- diagonal rule

@pytest.mark.rules("vimbre-2.2")
def test_diagonal_rule_single_stone_without_a_friendly_shared_corner_is_illegal():
    # black b2; c3 is diagonal to it and the shared corners b3, c2 are empty
    game = pos("O4/5/5/1X3/5")
    assert "c3" not in game.legal_moves()
    refused(game, "c3", "c3 breaks the diagonal rule at b2/c3: neither c2 nor b3 is black")
    # a white corner does not help black either
    game = pos("O4/5/1O3/1X3/5")
    refused(game, "c3", "breaks the diagonal rule at b2/c3")


@pytest.mark.rules("vimbre-2.2")
def test_diagonal_rule_single_stone_is_legal_when_a_shared_corner_is_friendly():
    game = pos("O4/5/1X3/1X3/5")          # corner b3 is black
    game.play("c3")
    assert board(game) == "O4/5/1XX2/1X3/5"
    game = pos("O4/5/5/1XX2/5")           # corner c2 is black
    game.play("c3")
    assert board(game) == "O4/5/2X2/1XX2/5"


@pytest.mark.rules("vimbre-2.3")
def test_diagonal_rule_two_stones_legal_together_though_each_illegal_alone():
    # black b2 and d3: c3 alone lacks a corner for b2/c3 (b3, c2 empty);
    # c2 alone lacks one for c2/d3 (c3, d2 empty); together each supplies
    # the other's corner.
    game = pos("O4/5/3X1/1X3/5")
    moves = game.legal_moves()
    assert "c3" not in moves and "c2" not in moves
    assert "c2,c3" in moves
    game.play("c2,c3")
    assert board(game) == "O4/5/2XX1/1XX2/5"
    assert game.to_move == "white"


@pytest.mark.rules("vimbre-2.3")
def test_diagonal_rule_two_stones_side_by_side_each_supplying_the_others_corner():
    # black c2 and d4: c3 alone lacks a corner for c3/d4 (c4, d3 empty), d3
    # alone lacks one for c2/d3 (c3, d2 empty); c3 and d3 side by side fix
    # both; c4 (legal alone) fixes c3, and d2 (legal alone) fixes d3.
    game = pos("5/3X1/5/2X2/O4")
    moves = game.legal_moves()
    assert "c3" not in moves and "d3" not in moves
    assert {"c3,d3", "c3,c4", "d2,d3"} <= set(moves)
    assert "c3,e3" not in moves and "b3,c3" not in moves
    game.play("c3,d3")
    assert board(game) == "5/3X1/2XX1/2X2/O4"


@pytest.mark.rules("vimbre-2.3")
def test_diagonal_rule_two_stones_legal_together_when_only_one_is_illegal_alone():
    # black b2: c3 alone is illegal; b3 is legal alone and is c3's corner
    game = pos("O4/5/5/1X3/5")
    assert "b3" in game.legal_moves() and "c3" not in game.legal_moves()
    assert "b3,c3" in game.legal_moves()
    # a far stone cannot help: b3's partner must be the corner itself
    assert "c3,e5" not in game.legal_moves()
    game.play("b3,c3")
    assert board(game) == "O4/5/1XX2/1X3/5"


@pytest.mark.rules("vimbre-2.3")
def test_diagonal_rule_two_stones_illegal_together_though_each_legal_alone():
    game = pos("O4/5/5/5/5")
    moves = game.legal_moves()
    assert "c3" in moves and "d4" in moves
    assert "c3,d4" not in moves and "c3,b4" not in moves
    refused(game, "c3,d4", "c3,d4 breaks the diagonal rule at c3/d4: neither d3 nor c4 is black")
    # with a black corner the same two stones are fine
    game = pos("O4/2X2/5/5/5")            # c4 black
    game.play("c3,d4")
    assert board(game) == "O4/2XX1/2X2/5/5"


@pytest.mark.rules("vimbre-2.3")
def test_diagonal_rule_partner_on_the_diagonal_cannot_rescue_an_illegal_stone():
    """Diagonal rule, pair judged as a whole: c3 next to black b2 is illegal
    alone (corners b3, c2 empty). Only a partner on b3 or c2 can supply that
    corner; a partner on c3's other diagonals (d4, b4, d2) leaves b2/c3 broken
    and makes a new cornerless diagonal pair with c3 as well."""
    game = pos("O4/5/5/1X3/5")
    moves = game.legal_moves()
    assert "c3" not in moves and {"d4", "b4", "d2"} <= set(moves)
    for pair in ("c3,d4", "c3,b4", "d2,c3"):
        assert pair not in moves
    assert "c2,c3" in moves               # the other corner does rescue it
    refused(game, "c3,d4", "breaks the diagonal rule")


@pytest.mark.rules("vimbre-2.4")
def test_diagonal_rule_enemy_diagonal_pairs_never_restrict_you():
    # white b2/c3 (supported by white c2); black may take the other corner b3,
    # and may put stones diagonal to white stones with no corners at all.
    game = pos("5/5/2O2/1OO2/5")
    moves = game.legal_moves()
    assert "b3" in moves and "d4" in moves and "d2" in moves and "b1" in moves
    game.play("b3,d4")
    assert board(game) == "5/3X1/1XO2/1OO2/5"
    assert game.to_move == "white"


@pytest.mark.rules("vimbre-2.4", "vimbre-2.5")
def test_diagonal_rule_a_flip_can_never_break_it():
    # black flips c3 (sandwiched by b3 and d3): the new black c3 is diagonal
    # to black b2 and d4, and the horizontal sandwich stones are its corners.
    game = pos("5/3X1/1XOX1/1X3/O4")
    game.play("xc3")
    assert board(game) == "5/3X1/1XXX1/1X3/O4"


@pytest.mark.rules("vimbre-6.2", "vimbre-7.1")
def test_a_position_breaking_the_diagonal_rule_is_refused():
    with pytest.raises(PositionError, match="diagonal rule is broken at b2/c3"):
        pos("O4/5/2X2/1X3/5")
    with pytest.raises(PositionError, match="white: neither"):
        pos("X4/5/2O2/1O3/5")


# ---------------------------------------------------------------- flips

@pytest.mark.rules("vimbre-2.5")
def test_flip_enemy_stone_sandwiched_horizontally():
    game = pos("5/5/1XOX1/5/O4")
    assert "xc3" in game.legal_moves()
    game.play("xc3")
    assert board(game) == "5/5/1XXX1/5/O4"
    assert game.to_move == "white" and game.history == ["xc3"]


@pytest.mark.rules("vimbre-2.5")
def test_flip_enemy_stone_sandwiched_vertically():
    game = pos("5/2X2/2O2/2X2/O4")
    game.play("xc3")
    assert board(game) == "5/2X2/2X2/2X2/O4"


@pytest.mark.rules("vimbre-2.5")
def test_flip_at_the_board_edge_and_no_wrap_around_the_rows():
    """Flip: the two friendly stones must be the enemy stone's orthogonal
    neighbours on one line. a3 on the left edge is sandwiched vertically by
    a2/a4 (b3 empty), so it flips; e3 on the right edge has no right-hand
    neighbour (black a4 follows it only in point order), and for a3 with
    a2, a4, b3 all taken, e2 is not a neighbour, so neither flip is legal."""
    game = pos("5/X4/O4/X4/5")
    assert [m for m in game.legal_moves() if m.startswith("x")] == ["xa3"]
    game.play("xa3")
    assert board(game) == "5/X4/X4/X4/5"
    assert not game.is_over and game.to_move == "white"
    game = pos("5/X4/3XO/5/5")
    assert [m for m in game.legal_moves() if m.startswith("x")] == []
    refused(game, "xe3", "e3 is not sandwiched")
    game = pos("5/X4/OO3/X4/5")
    assert "xa3" not in game.legal_moves()
    refused(game, "xa3", "a3 has no empty orthogonal neighbour")


@pytest.mark.rules("vimbre-2.5")
def test_flip_turns_exactly_one_enemy_stone():
    """Flip: "flip one enemy stone". With black a3, c3, e3 sandwiching both
    white b3 and white d3 (all with empty neighbours), each flip is legal,
    and xb3 turns b3 only: d3 stays white."""
    game = pos("5/5/XOXOX/5/5")
    assert [m for m in game.legal_moves() if m.startswith("x")] == ["xb3", "xd3"]
    game.play("xb3")
    assert board(game) == "5/5/XXXOX/5/5"
    assert game.to_move == "white" and not game.is_over
    game = pos("5/5/XOXOX/5/5")
    game.play("xd3")
    assert board(game) == "5/5/XOXXX/5/5"


@pytest.mark.rules("vimbre-2.5")
def test_flip_needs_an_empty_orthogonal_neighbour():
    # c3 is sandwiched by b3/d3 but c2 and c4 are white: no empty neighbour
    game = pos("5/2O2/1XOX1/2O2/5")
    assert [m for m in game.legal_moves() if m.startswith("x")] == []
    refused(game, "xc3", "c3 has no empty orthogonal neighbour")


@pytest.mark.rules("vimbre-2.5")
def test_flip_diagonal_sandwich_does_not_count():
    game = pos("5/3X1/2O2/1X3/5")
    refused(game, "xc3", "c3 is not sandwiched between two black stones on one row or column")


@pytest.mark.rules("vimbre-2.5")
def test_flip_sandwich_stones_must_be_adjacent():
    game = pos("5/5/X1O1X/5/5")
    refused(game, "xc3", "c3 is not sandwiched")


@pytest.mark.rules("vimbre-2.5")
def test_flip_of_own_stone_or_empty_point_is_illegal():
    game = pos("5/5/1XOX1/5/O4")
    refused(game, "xb3", "b3 is black's own stone: only an enemy stone can be flipped")
    refused(game, "xe5", "e5 is empty: only an enemy stone can be flipped")


@pytest.mark.rules("vimbre-2.5")
def test_flip_needs_two_friendly_stones_on_the_same_line():
    # c3 white: b3 black but d3 white; c4 white and c2 empty
    game = pos("5/2O2/1XOO1/5/5")
    refused(game, "xc3", "not sandwiched")


@pytest.mark.rules("vimbre-2.5", "vimbre-3.1")
def test_a_flip_can_win():
    # black c1, c2, c4, c5; white c3 sandwiched vertically with b3 empty
    game = pos("2X2/2X2/2O1O/2X2/O1X2")
    game.play("xc3")
    assert game.is_over and game.to_move is None
    assert game.outcome == boardlab.Outcome("black", Termination.CONNECTION, None)
    assert game.position() == "vimbre 5 2X2/2X2/2X1O/2X2/O1X2 - first=no"


# ---------------------------------------------------------------- pass

FORCED_PASS = "XOXOO/XO2X/XX2O/XOOXO/OOOXX"
# Empty c3, d3, c4, d4. For black each is illegal alone and can only be rescued
# by its neighbour in a cycle (c3 needs d3 for c3/d2, d3 needs d4 for d3/e4,
# d4 needs c4 for c5/d4, c4 needs c3 for b3/c4), so no pair works either; b5
# is sandwiched by a5/c5 but has no empty neighbour. White's own placements
# form the same kind of cycle, but white can flip d2, b3, e4 and c5.


@pytest.mark.rules("vimbre-2.6", "vimbre-7.2")
def test_forced_pass_when_no_other_move_exists():
    game = pos(FORCED_PASS)
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert board(game) == FORCED_PASS and game.to_move == "white"
    assert game.history == ["pass"]
    assert game.legal_moves() == ["xd2", "xb3", "xe4", "xc5"]
    game.undo()
    assert game.position() == f"vimbre 5 {FORCED_PASS} black first=no"


FORCED_PASS_WHITE = "OXXOX/OO2X/XX2O/XXOXX/XOOOO"
# FORCED_PASS mirrored in the a1-e5 diagonal with the colors swapped (the rules
# are symmetric under that map). Empty c3, c4, d3, d4. For white each is
# illegal alone and only rescued by one neighbour in a cycle (c3 needs c4 for
# b4/c3, c4 needs d4 for c4/d5, d4 needs d3 for d4/e3, d3 needs c3 for c2/d3),
# so no pair works either; the black stones next to the empties (b3, c5, e4,
# d2) are not sandwiched by white. Black can flip c2, e3, b4 and d5.


@pytest.mark.rules("vimbre-2.6", "vimbre-7.2")
def test_forced_pass_for_white_when_no_other_move_exists():
    """Pass: a player who cannot move must pass; this is the white case. With
    no legal placement or flip (see FORCED_PASS_WHITE) white's only move is
    pass, which changes nothing but the color to move; black then has exactly
    the four flips of the white stones sandwiched next to an empty point."""
    game = pos(FORCED_PASS_WHITE, "white")
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.position() == f"vimbre 5 {FORCED_PASS_WHITE} black first=no"
    assert game.history == ["pass"]
    assert game.legal_moves() == ["xc2", "xe3", "xb4", "xd5"]


@pytest.mark.rules("vimbre-2.6")
def test_pass_refused_when_the_only_legal_move_is_a_pair():
    """Pass is only legal when no move is, and a two-stone placement counts as
    a move. Black's empties are c2, d2: c2 alone leaves c2/d1 cornerless (c1
    white, d2 empty), d2 alone leaves c3/d2 cornerless (c2 empty, d3 white);
    together each is the other's corner. No white stone next to c2/d2 is
    sandwiched. The pair also joins c5-c4-c3-c2-d2-d1: black wins."""
    game = pos("OXXOO/OOXXX/XOXOO/XO2X/OOOXX")
    assert game.legal_moves() == ["c2,d2"]
    refused(game, "pass", "pass is only legal when no other move is")
    game.play("c2,d2")
    assert game.outcome == boardlab.Outcome("black", Termination.CONNECTION, None)
    assert game.position() == "vimbre 5 OXXOO/OOXXX/XOXOO/XOXXX/OOOXX - first=no"


@pytest.mark.rules("vimbre-2.6")
def test_pass_refused_when_a_move_exists():
    game = pos(FORCED_PASS, "white")
    refused(game, "pass", "pass is only legal when no other move is (4 legal moves, e.g. xd2)")
    refused(boardlab.new_game("vimbre", 5), "pass", "pass is only legal when no other move is")


# ---------------------------------------------------------------- winning

@pytest.mark.rules("vimbre-3.1", "vimbre-5.4")
def test_black_wins_by_joining_row_1_to_the_top_row():
    game = pos("O4/2X2/2X2/2X2/2X2")
    game.play("c5")
    assert game.is_over
    assert game.outcome == boardlab.Outcome("black", Termination.CONNECTION, None)
    assert game.winner == "black" and game.scores is None
    assert game.position() == "vimbre 5 O1X2/2X2/2X2/2X2/2X2 - first=no"
    assert game.legal_moves() == [] and game.legal_actions() == []


@pytest.mark.rules("vimbre-3.1")
def test_white_wins_by_joining_column_a_to_the_last_column():
    game = pos("X4/5/OOOO1/5/5", "white")
    game.play("e3")
    assert game.outcome == boardlab.Outcome("white", Termination.CONNECTION, None)
    assert board(game) == "X4/5/OOOOO/5/5"


@pytest.mark.rules("vimbre-3.1")
def test_win_by_a_two_stone_move():
    game = pos("X4/5/OOO2/5/5", "white")
    game.play("d3,e3")
    assert game.winner == "white"
    assert game.returns() == [-1.0, 1.0]


@pytest.mark.rules("vimbre-3.1")
def test_chains_along_an_edge_through_corner_points_win():
    """Winning: black joins row 1 to row 5, white column a to column e, and a
    corner point lies on an edge of each color. Black's a1-a5 runs along
    white's edge column a yet touches rows 1 and 5; white's a1-e1 runs along
    black's edge row 1 yet touches columns a and e. Both win."""
    game = pos("1O3/X4/X4/X4/X4")
    game.play("a5")
    assert game.outcome == boardlab.Outcome("black", Termination.CONNECTION, None)
    assert game.position() == "vimbre 5 XO3/X4/X4/X4/X4 - first=no"
    game = pos("X4/5/5/5/OOOO1", "white")
    game.play("e1")
    assert game.outcome == boardlab.Outcome("white", Termination.CONNECTION, None)
    assert game.position() == "vimbre 5 X4/5/5/5/OOOOO - first=no"


@pytest.mark.rules("vimbre-3.1")
def test_a_pair_wins_when_only_one_of_its_stones_completes_the_chain():
    """Winning is judged after the whole move: in b1,e3 the 2nd stone (in
    point order) completes a3-e3 while b1 is far away; in e3,b4 the 1st one
    does. Either way white joins column a to column e and wins."""
    game = pos("X4/5/OOOO1/5/5", "white")
    game.play("b1,e3")
    assert game.outcome == boardlab.Outcome("white", Termination.CONNECTION, None)
    assert board(game) == "X4/5/OOOOO/5/1O3"
    game = pos("X4/5/OOOO1/5/5", "white")
    game.play("e3,b4")
    assert game.winner == "white" and board(game) == "X4/1O3/OOOOO/5/5"


@pytest.mark.rules("vimbre-3.1", "vimbre-2.5")
def test_white_wins_by_a_flip():
    """A flip can win for white too: black c3 sits between white b3 and d3
    with c2, c4 empty, so xc3 is legal and makes a3-e3 white, joining column
    a to column e."""
    game = pos("X4/5/OOXOO/5/X4", "white")
    assert "xc3" in game.legal_moves()
    game.play("xc3")
    assert game.outcome == boardlab.Outcome("white", Termination.CONNECTION, None)
    assert game.position() == "vimbre 5 X4/5/OOOOO/5/X4 - first=no"


@pytest.mark.rules("vimbre-3.1")
def test_win_needs_one_chain_not_two_groups_touching_one_edge_each():
    # white a3 group touches column a, the new e3 touches column e: no chain
    game = pos("X4/5/OO3/5/5", "white")
    game.play("d3,e3")
    assert not game.is_over and game.to_move == "black"
    game = pos("X4/5/1OOO1/5/5", "white")
    game.play("a3,e3")                     # both ends at once: one chain
    assert game.winner == "white"


@pytest.mark.rules("vimbre-3.1")
def test_enemy_stones_do_not_link_a_chain():
    # black c1, c2, c4 (and e1) and white c3 (b3, d3 white too, so no flip helps)
    game = pos("5/2X2/1OOO1/2X2/2X1X")
    game.play("c5")
    assert not game.is_over and game.to_move == "white"


@pytest.mark.rules("vimbre-3.1")
def test_a_chain_between_the_other_colors_edges_does_not_win():
    # black joins column a to column e: those are white's edges
    game = pos("O4/5/XXXX1/5/5")
    game.play("e3")
    assert not game.is_over and game.to_move == "white"


@pytest.mark.rules("vimbre-3.1", "vimbre-2.2")
def test_chain_may_turn_corners_but_a_diagonal_link_cannot_exist():
    # c2/d3 linked only diagonally (corners c3 empty, d2 white) breaks the
    # diagonal rule, so such a position never arises...
    with pytest.raises(PositionError, match="diagonal rule is broken at c2/d3"):
        pos("3X1/3X1/3X1/2XO1/2X2")
    # ...and an orthogonal chain c1-c2-c3-d3-d4-d5 with a turn wins
    game = pos("3X1/5/2XX1/2XO1/2X2")
    game.play("d4")
    assert game.winner == "black"
    assert board(game) == "3X1/3X1/2XX1/2XO1/2X2"


@pytest.mark.rules("vimbre-3.1")
def test_moves_after_the_end_raise_game_over_and_change_nothing():
    game = pos("O4/2X2/2X2/2X2/2X2")
    game.play("c5")
    for move in ("a1", "a1,b1", "xa5", "pass", "zz"):
        refused(game, move, "the game is over (black won by connection)", GameOverError)
    with pytest.raises(GameOverError):
        game.apply_action(0)
    assert game.undo() == "c5" and game.to_move == "black"


# ---------------------------------------------------------------- notation

@pytest.mark.rules("vimbre-1.1", "vimbre-5.3", "common-3", "common-5")
def test_pair_notation_requires_increasing_point_order():
    game = pos("O4/5/5/5/5")
    reason = refused(game, "e5,c3", "increasing point order")
    assert "write c3,e5" in reason
    # c3 (index 12) before d3 (13): same row, left first; b4 (16) after d3
    refused(game, "d3,c3", "write c3,d3")
    refused(game, "b4,d3", "write d3,b4")
    game.play("C3,E5")                     # case is ignored
    assert game.history == ["c3,e5"]


@pytest.mark.rules("vimbre-2.1", "vimbre-5.3")
def test_pair_points_must_be_distinct_and_empty():
    game = pos("O4/5/2X2/5/5")
    refused(game, "c3,c3", "two different points")
    refused(game, "c3,e4", "c3 is occupied")
    refused(game, "a1,a5", "a5 is occupied")
    refused(game, "c3", "c3 is occupied")


@pytest.mark.rules("vimbre-1.1", "vimbre-4.1", "vimbre-7.4")
def test_malformed_moves_are_refused_with_a_specific_reason():
    game = pos("O4/5/2X2/5/5")
    refused(game, "a1,b1,c1", "at most two stones")
    refused(game, "a1, b1", "without blanks")
    refused(game, "a1,f1", "'f1' is not a point on the 5x5 board")
    for junk in ("x", "xf1", "x a1", "a0", "f1", "passs", "swap", "a1-b1", ""):
        refused(game, junk, "malformed")


@pytest.mark.rules("vimbre-5.1")
def test_action_numbers_follow_the_fixed_encoding():
    game = boardlab.new_game("vimbre", 5)  # n = 25, 300 pairs
    expect = {"a1": 0, "e5": 24, "a1,b1": 25, "a1,e5": 48, "b1,c1": 49,
              "d5,e5": 324, "xa1": 325, "xe5": 349, "pass": 350}
    for text, action in expect.items():
        assert game.string_to_action(text) == action
        assert game.action_to_string(action) == text
    assert game.num_distinct_actions == 351


@pytest.mark.rules("vimbre-5.2")
def test_legal_actions_are_singles_then_pairs_then_flips():
    game = pos("5/5/1XOX1/5/O4")
    actions = game.legal_actions()
    moves = game.legal_moves()
    assert actions == sorted(actions)
    kinds = ["x" if m.startswith("x") else "," if "," in m else "1" for m in moves]
    assert kinds == sorted(kinds, key="1,x".index)
    assert moves[-1] == "xc3"


# ---------------------------------------------------------------- position text

@pytest.mark.rules("vimbre-6.1")
def test_position_round_trip_and_first_field():
    text = "vimbre 5 5/5/2X2/5/5 white first=no"
    assert boardlab.from_position(text).position() == text
    # first defaults from the board: empty board, black to move
    assert pos("5/5/5/5/5", first="yes").position() == "vimbre 5 5/5/5/5/5 black first=yes"
    assert boardlab.from_position("vimbre 5 5/5/5/5/5 black").position().endswith("first=yes")
    assert boardlab.from_position("vimbre 5 5/5/2X2/5/5 white").position().endswith("first=no")


@pytest.mark.rules("vimbre-6.2", "vimbre-7.1")
@pytest.mark.parametrize("text,message", [
    ("vimbre 5 5/5/2X2/5/5 white first=yes", "first=yes (black's first turn) needs an empty board"),
    ("vimbre 5 5/5/5/5/5 black first=no", "first must be yes"),
    ("vimbre 5 5/5/5/5/5 white first=no", "on an empty board black moves first"),
    ("vimbre 5 5/5/2Z2/5/5 white first=no", "unknown piece 'Z' at c3"),
    ("vimbre 5 5/5/2X2/5/5 white first=maybe", "must be yes or no"),
    ("vimbre 5 5/5/2X2/5/5 white first=no swap=no", "unknown field"),
    ("vimbre 5 2X2/2X2/2X2/2X2/2X2 white first=no", "black has a chain"),
    ("vimbre 5 5/5/OOOOO/5/5 black first=no", "white has a chain"),
    ("vimbre 5 5/5/2X2/5/5 - first=no", "neither color has a chain"),
    ("vimbre 5 2X2/2X2/2X2/2X2/2X2 - first=yes", "the game is over"),
    ("vimbre 5 5/5/2X2/5/5 red first=no", "to-move must be"),
])
def test_bad_positions_are_refused(text, message):
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        boardlab.from_position(text)


@pytest.mark.rules("vimbre-6.1")
def test_finished_position_names_the_chain_owner():
    game = boardlab.from_position("vimbre 5 X4/5/OOOOO/5/5 - first=no")
    assert game.is_over and game.winner == "white"
    assert game.outcome.termination is Termination.CONNECTION


# ---------------------------------------------------------------- properties

def _diagonal_rule_holds(board: bytes, size: int, v: int) -> bool:
    for p in range(size * size):
        r, c = divmod(p, size)
        for dc in (-1, 1):
            rr, cc = r + 1, c + dc
            if (board[p] == v and rr < size and 0 <= cc < size and board[rr * size + cc] == v
                    and board[r * size + cc] != v and board[rr * size + c] != v):
                return False
    return True


def _reference_moves(game) -> list[str]:
    """The legal moves straight from the rules, by brute force."""
    size, n = game.size, game.size * game.size
    cells = game._board
    v = game._player + 1
    names = grid.point_names(size)
    empty = [p for p in range(n) if not cells[p]]
    moves = []

    def fine(points):
        trial = bytearray(cells)
        for p in points:
            trial[p] = v
        return _diagonal_rule_holds(trial, size, v)

    moves += [names[p] for p in empty if fine((p,))]
    if not game._first:
        moves += [f"{names[i]},{names[j]}" for a, i in enumerate(empty)
                  for j in empty[a + 1:] if fine((i, j))]
        for p in range(n):
            if cells[p] != 3 - v:
                continue
            r, c = divmod(p, size)
            line = (0 < c < size - 1 and cells[p - 1] == cells[p + 1] == v) or \
                   (0 < r < size - 1 and cells[p - size] == cells[p + size] == v)
            if line and any(not cells[q] for q in grid.neighbours(size)[p]):
                moves.append("x" + names[p])
    return moves or ["pass"]


@pytest.mark.rules("vimbre-2.2", "vimbre-2.3", "vimbre-2.5", "vimbre-2.6")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 5, 6]))
def test_property_legal_moves_match_a_brute_force_reading_of_the_rules(seed, size):
    rng = random.Random(seed)
    game = boardlab.new_game("vimbre", size)
    while not game.is_over:
        moves = game.legal_moves()
        assert sorted(moves) == sorted(_reference_moves(game))
        # steer towards flips, which random play rarely picks
        flips = [m for m in moves if m.startswith("x")]
        game.play(rng.choice(flips) if flips and rng.random() < 0.5 else rng.choice(moves))
        cells = bytes(game._board)
        assert _diagonal_rule_holds(cells, size, 1) and _diagonal_rule_holds(cells, size, 2)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 6, 7]))
def test_property_incremental_caches_equal_a_fresh_load_and_undo_is_exact(seed, size):
    rng = random.Random(seed)
    game = boardlab.new_game("vimbre", size)
    snapshots = []
    while not game.is_over:
        snapshots.append((game.position(), bytes(game._ok), bytes(game._rescue)))
        game.apply_action(rng.choice(game.legal_actions()))
        fresh = boardlab.from_position(game.position())
        assert (fresh._ok, fresh._rescue, fresh.winner) == (game._ok, game._rescue, game.winner)
    # exactly one chain at the end, the mover's
    assert game.winner in ("black", "white")
    clone = pickle.loads(pickle.dumps(game))
    assert clone.position() == game.position() and clone.history == game.history
    while snapshots:
        game.undo()
        assert (game.position(), bytes(game._ok), bytes(game._rescue)) == snapshots.pop()


def test_search_view_agrees_with_the_move_list():
    """The read-only view search uses (stones, single_points, pair/flip
    actions, edge bits) describes the same game as legal_moves()."""
    rng = random.Random(11)
    for _ in range(30):
        game = boardlab.new_game("vimbre", 5)
        while not game.is_over:
            me = game.current_player
            legal = game.legal_actions()
            singles = [a for a in legal if a < game.n_points]
            assert game.single_points(me) == singles
            assert game.first_turn == (not any(game.stones))
            for a in legal:
                if game.is_pair(a):
                    i, j = game.pair_points(a)
                    assert i < j and game.pair_action(i, j) == game.pair_action(j, i) == a
                    assert game.action_to_string(a) == (f"{game.action_to_string(i)},"
                                                        f"{game.action_to_string(j)}")
                elif a >= game.flip_action(0) and game.action_to_string(a) != "pass":
                    p = a - game.flip_action(0)
                    assert game.action_to_string(a) == "x" + game.action_to_string(p)
                    assert game.stones[p] == 2 - me  # an enemy stone
            game.apply_action(rng.choice(legal))
    edges = game.edge_bits(0)
    assert edges[0] == 1 and edges[game.n_points - 1] == 2 and edges[6] == 0
    assert game.edge_bits(1)[4] == 2 and game.edge_bits(1)[5] == 1
