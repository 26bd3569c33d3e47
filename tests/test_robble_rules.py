"""Robble, clause by clause, on hand-built positions: each test names the
clauses of docs/rules.md (Robble) and docs/games/robble.md it checks.

Board text: rows from the top (rank = size) down, X black, O white, digits
count empty points. Every expected position below was worked out by hand.
"""

from __future__ import annotations

import pytest

import boardlab
from boardlab import GameOverError, IllegalMoveError, Termination


def pos(board: str, to_move: str = "black", size: int = 5, **fields: str) -> boardlab.Game:
    extra = " ".join(f"{k}={v}" for k, v in {"pie": "no", "swap": "no", **fields}.items())
    return boardlab.from_position(f"robble {size} {board} {to_move} {extra}")


def board(game: boardlab.Game) -> str:
    return game.position().split()[2]


@pytest.mark.rules("robble-5.1", "robble-1.1", "common-3")
def test_actions_are_the_point_numbers_then_swap():
    game = boardlab.new_game("robble", 5)
    assert game.num_distinct_actions == 26
    moves = ["a1", "e1", "a2", "c3", "e5", "swap"]
    assert [game.string_to_action(m) for m in moves] == [0, 4, 5, 12, 24, 25]
    assert [game.action_to_string(a) for a in (0, 4, 5, 12, 24, 25)] == moves


@pytest.mark.rules("robble-2.1")
def test_placement_on_an_empty_square_only():
    game = pos("5/5/2X2/5/5", "white")
    with pytest.raises(IllegalMoveError, match="c3 is occupied"):
        game.play("c3")
    assert board(game) == "5/5/2X2/5/5" and game.to_move == "white"


@pytest.mark.rules("robble-2.2")
def test_push_moves_the_neighbour_one_square_away_into_the_empty_square():
    game = pos("5/5/2X2/5/5", "white")
    game.play("c2")                      # c3 is pushed north to c4
    assert board(game) == "5/2X2/5/2O2/5"
    assert game.to_move == "black"


@pytest.mark.rules("robble-2.2", "robble-2.5")
def test_push_applies_to_the_movers_own_stones():
    game = pos("5/5/2O2/5/5", "white")
    game.play("c2")
    assert board(game) == "5/2O2/5/2O2/5"


@pytest.mark.rules("robble-2.2")
def test_push_moves_only_the_adjacent_stone_no_cascade():
    # c4 X has c5 empty behind it: pushed to c5; nothing else moves.
    game = pos("5/2X2/5/5/5", "white")
    game.play("c3")
    assert board(game) == "2X2/5/2O2/5/5"


@pytest.mark.rules("robble-2.3")
def test_stone_on_the_edge_behind_is_removed():
    game = pos("5/5/X4/5/5", "white")
    game.play("b3")                      # a3 has the edge behind it: removed
    assert board(game) == "5/5/1O3/5/5"


@pytest.mark.rules("robble-2.3", "robble-2.5")
def test_edge_removal_applies_to_own_stones():
    game = pos("5/5/5/5/1X3", "black")
    game.play("b2")
    assert board(game) == "5/5/5/1X3/5"


@pytest.mark.rules("robble-2.4")
def test_stone_with_a_stone_behind_is_flipped_enemy():
    game = pos("5/2X2/2X2/5/5", "white")
    game.play("c2")                      # c3 X has c4 behind: flipped to O
    assert board(game) == "5/2X2/2O2/2O2/5"


@pytest.mark.rules("robble-2.4", "robble-2.5")
def test_stone_with_a_stone_behind_is_flipped_own():
    game = pos("5/2X2/2O2/5/5", "white")
    game.play("c2")                      # c3 is white's own: flipped to X
    assert board(game) == "5/2X2/2X2/2O2/5"


@pytest.mark.rules("robble-2.5")
def test_diagonal_neighbours_are_untouched():
    game = pos("5/1X1X1/5/1X1X1/5", "white")
    game.play("c3")
    assert board(game) == "5/1X1X1/2O2/1X1X1/5"


@pytest.mark.rules("robble-2.5")
def test_four_directions_handled_independently_in_one_move():
    # Black plays b2: north b3 O pushed to b4; west a2 O removed (edge);
    # east c2 O flipped (d2 behind); south b1 X (own) removed (edge).
    game = pos("5/5/1O3/O1OX1/1X3", "black")
    game.play("b2")
    assert board(game) == "5/1O3/5/1XXX1/5"
    assert game.to_move == "white"


@pytest.mark.rules("robble-2.5")
def test_push_into_a_square_vacated_in_the_same_move_is_not_possible():
    # The four directions use four disjoint pairs of squares, so nothing a
    # direction does is seen by another: placing at c3 with stones on all
    # four sides and empty squares behind them pushes all four.
    game = pos("5/2X2/1O1O1/2X2/5", "white")
    game.play("c3")
    assert board(game) == "2X2/5/O1O1O/5/2X2"


@pytest.mark.rules("robble-3.1", "robble-3.2", "robble-5.2")
def test_game_ends_when_the_board_is_full_after_a_move():
    # 4x4 with only a1 empty: black a1 flips a2 (a3 behind) and b1 (c1 behind),
    # filling the board. Black groups {7,1,1}, white {5,1,1}: the 1s pair off,
    # black's 7 is the biggest leftover.
    game = pos("XXOO/XXOO/OOXO/1OOX", "black", size=4)
    game.play("a1")
    assert board(game) == "XXOO/XXOO/XOXO/XXOX"
    assert game.is_over and game.to_move is None
    assert game.outcome == boardlab.Outcome("black", Termination.SCORE, {"black": 7.0, "white": 5.0})
    with pytest.raises(GameOverError, match="black won by score"):
        game.play("a1")


@pytest.mark.rules("robble-3.1")
def test_the_game_goes_on_while_any_square_is_empty():
    # Filling the last empty square b2 of a 4x4 board: north b3 X flips
    # (b4 behind), east c2 X flips (d2 behind), but west a2 and south b1 sit on
    # the edge and are removed, so two squares are empty again.
    game = pos("XXOO/XXOO/O1XO/XOOX", "black", size=4)
    game.play("b2")
    assert not game.is_over and game.to_move == "white"
    assert board(game) == "XXOO/XOOO/1XOO/X1OX"


@pytest.mark.rules("robble-3.2", "robble-5.2")
def test_pair_removal_then_biggest_leftover_group_wins():
    # Black groups: a4-b4, c3-d3, a2-b2 (three 2s) and c1 (1).
    # White groups: c4-d4, a3-b3, a1-b1 (three 2s) and c2-d2-d1 (3).
    # The 2s pair off; leftovers black {1}, white {3}: white wins 3 to 1.
    game = pos("XXOO/OOXX/XXOO/OOXO", "-", size=4, last="black")
    assert game.outcome == boardlab.Outcome("white", Termination.SCORE, {"black": 1.0, "white": 3.0})


@pytest.mark.rules("robble-3.3", "robble-5.2")
def test_everything_paired_off_means_the_last_placer_loses():
    # Black {6, 2} (a4 b4 a3 b3 b2 b1; d2 d1), white {6, 2} (c4 d4 c3 d3 c2 c1; a2 a1).
    full = "XXOO/XXOO/OXOX/OXOX"
    black_last = pos(full, "-", size=4, last="black")
    white_last = pos(full, "-", size=4, last="white")
    assert black_last.outcome == boardlab.Outcome("white", Termination.LAST_MOVE, {"black": 0.0, "white": 0.0})
    assert white_last.outcome == boardlab.Outcome("black", Termination.LAST_MOVE, {"black": 0.0, "white": 0.0})


@pytest.mark.rules("robble-3.3")
def test_empty_board_after_pairing_checkerboard():
    full = "XOXO/OXOX/XOXO/OXOX"   # eight single stones each: all pair off
    game = pos(full, "-", size=4, last="white")
    assert game.winner == "black" and game.outcome.termination is Termination.LAST_MOVE


@pytest.mark.rules("robble-4.1", "robble-5.2", "robble-7.1")
def test_threefold_repetition_is_a_draw():
    # White a2: pushes a3 up to a4, removes a1 (edge). Black a3: removes a4
    # (edge), pushes a2 down to a1. The start position (white to move) recurs.
    start = "1X2/X3/3X/O3"
    game = pos(start, "white", size=4)
    game.play("a2")
    assert board(game) == "XX2/4/O2X/4"
    game.play("a3")
    assert board(game) == start and game.to_move == "white"   # second occurrence
    game.play("a2")
    assert not game.is_over
    game.play("a3")                                            # third occurrence
    assert game.is_over
    assert game.outcome == boardlab.Outcome("draw", Termination.REPETITION, None)
    assert game.scores is None and game.winner == "draw"
    # undo takes the count back: the game is live again, and replaying draws again
    game.undo()
    assert not game.is_over and game.to_move == "black"
    game.play("a3")
    assert game.outcome.termination is Termination.REPETITION


@pytest.mark.rules("robble-4.1")
def test_same_board_with_the_other_color_to_move_is_another_position():
    # After the 2-ply cycle the board recurs with white to move only; positions
    # with black to move in between are different positions and never count.
    game = pos("1X2/X3/3X/O3", "white", size=4)
    for move in ("a2", "a3", "a2"):
        game.play(move)
    assert not game.is_over  # Q (black to move) has occurred only twice


@pytest.mark.rules("common-6", "robble-1.1")
def test_swap_is_legal_only_on_whites_first_turn_and_keeps_white_to_move():
    game = boardlab.new_game("robble", 5)
    assert "swap" not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="swap is only legal on white's first turn"):
        game.play("swap")
    game.play("c3")
    assert "swap" in game.legal_moves()
    game.play("swap")
    assert game.to_move == "white" and board(game) == "5/5/2X2/5/5"
    assert "swap" not in game.legal_moves()
    game.play("c4")
    assert game.history == ["c3", "swap", "c4"]


@pytest.mark.rules("common-6")
def test_swap_closes_after_a_regular_white_move():
    game = boardlab.new_game("robble", 5)
    game.play("c3")
    game.play("a1")
    game.play("e5")
    with pytest.raises(IllegalMoveError, match="which has passed"):
        game.play("swap")


@pytest.mark.rules("common-6")
def test_no_swap_with_the_pie_rule_off():
    game = boardlab.new_game("robble", 5, pie=False)
    game.play("c3")
    assert "swap" not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="pie rule is off"):
        game.play("swap")


@pytest.mark.rules("common-6")
def test_undo_of_a_swap_reopens_it():
    game = boardlab.new_game("robble", 5)
    game.play("c3")
    game.play("swap")
    assert game.undo() == "swap"
    assert "swap" in game.legal_moves()


@pytest.mark.rules("robble-6.1")
def test_position_text_errors_are_specific():
    with pytest.raises(boardlab.PositionError, match="unknown piece 'Z'"):
        boardlab.from_position("robble 4 Z3/4/4/4 black")
    with pytest.raises(boardlab.PositionError, match="row 4 describes more than 4 points"):
        boardlab.from_position("robble 4 5/4/4/4 black")
    with pytest.raises(boardlab.PositionError, match="board has 3 rows"):
        boardlab.from_position("robble 4 4/4/4 black")
    with pytest.raises(boardlab.PositionError, match="needs last=black or last=white"):
        boardlab.from_position("robble 4 XOXO/OXOX/XOXO/OXOX -")
    with pytest.raises(boardlab.PositionError, match="to-move is - but the board is not full"):
        boardlab.from_position("robble 4 4/4/4/4 -")
    with pytest.raises(boardlab.PositionError, match="unknown field"):
        boardlab.from_position("robble 4 4/4/4/4 black colour=red")
    with pytest.raises(boardlab.PositionError, match="swap=yes on an empty board"):
        boardlab.from_position("robble 4 4/4/4/4 black pie=yes swap=yes")


@pytest.mark.rules("robble-6.2")
@pytest.mark.parametrize("text,why", [
    ("robble 5 5/5/2X2/5/5 black pie=yes swap=yes", "black is to move"),
    ("robble 5 XO3/OX3/2X2/5/5 black pie=yes swap=yes", "black is to move"),
    ("robble 4 XOXO/OXOX/XOXO/OXOX - pie=yes swap=yes last=white", "the game is over"),
])
def test_swap_yes_needs_white_to_move(text, why):
    """The swap is the second color's option, so a position offering it
    has white to move (any board: a study may ask "swap here?")."""
    with pytest.raises(boardlab.PositionError, match=f"swap is white's option and {why}"):
        boardlab.from_position(text)
    for ok in ("robble 5 5/5/2X2/5/5 white pie=yes swap=yes",
               "robble 5 XO3/OX3/2X2/5/5 white pie=yes swap=yes"):
        assert "swap" in boardlab.from_position(ok).legal_moves()


@pytest.mark.rules("robble-2.2", "robble-2.4")
def test_placing_in_a_corner_pushes_one_neighbour_and_flips_the_other():
    """Each neighbour is handled by what lies behind it. White a1
    (corner): north a2 X has a3 empty behind, so it is pushed to a3; east b1 O
    has c1 X behind, so it is flipped to X; the other two sides are off the
    board. Board: 4/X3/4/OXX1, not full, black to move."""
    game = pos("4/4/X3/1OX1", "white", size=4)
    game.play("a1")
    assert board(game) == "4/X3/4/OXX1"
    assert not game.is_over and game.to_move == "black"


@pytest.mark.rules("robble-3.2")
def test_pair_removal_with_unequal_counts_at_one_size():
    """For each group size remove as many black/white pairs as
    possible. Black has groups {5, 2, 2} (c3 d3 c2 d2 d4; a4 a3; a1 b1), white
    {5, 2} (a2 b2 b3 b4 c4; c1 d1): the 5s pair off and one 2 of each, so one
    black 2 is left over and black wins 2 to 0, whoever filled the board."""
    full = "XOOX/XOXX/OOXX/XXOO"
    for last in ("black", "white"):
        game = pos(full, "-", size=4, last=last)
        assert game.outcome == boardlab.Outcome("black", Termination.SCORE, {"black": 2.0, "white": 0.0})


@pytest.mark.rules("robble-3.3", "robble-6.1")
def test_last_placer_loses_when_a_real_move_fills_the_board_and_all_pairs_off():
    """If nothing is left after pair removal, the color that made
    the last placement loses. White a4 flips b4 (c4 behind) and a3 (a2 behind),
    filling the board as OXOX/XXOO/XXOO/OOXX: black {5, 2, 1}, white {5, 2, 1}
    all pair off, so white (who filled it) loses and black wins by last move."""
    game = pos("1OOX/OXOO/XXOO/OOXX", "white", size=4)
    game.play("a4")
    assert board(game) == "OXOX/XXOO/XXOO/OOXX"
    assert game.is_over and game.to_move is None
    assert game.outcome == boardlab.Outcome("black", Termination.LAST_MOVE, {"black": 0.0, "white": 0.0})
    assert game.position() == "robble 4 OXOX/XXOO/XXOO/OOXX - pie=no swap=no last=white"
