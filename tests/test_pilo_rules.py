"""Pilo, clause by clause, on hand-built positions.

Each test names the clauses of docs/rules.md (Pilo) and docs/games/pilo.md it
checks.
Every expected position, list and score below was worked out by hand from the
rules (the reasoning is in the comments), not read off the engine.

Diagrams are written top rank first, one token per square:
``.`` empty, ``b`` / ``o`` a one-disk stack, ``b3`` / ``o2`` taller stacks, ``#`` a block.
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
from boardlab.games.pilo import rules as pilo
from boardlab.games.pilo.rules import BLOCK, Pilo, patch_scores

# ---------------------------------------------------------------- helpers


def board(diagram: str) -> str:
    """The board field of a position text from a diagram (see module doc)."""
    rows = []
    for line in diagram.strip().splitlines():
        out, run = [], 0
        for tok in line.split():
            if tok == ".":
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(tok if len(tok) == 1 else f"{tok[0]}({tok[1:]})")
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows)


def text(diagram: str, to_move: str = "blue", *, last: str | None = None, passes: int = 0,
         pie: bool = False, swap: bool = False) -> str:
    """A full position text. ``last`` defaults to what the rest implies."""
    size = len(diagram.strip().splitlines())
    body = board(diagram)
    if last is None:
        if to_move == "-":
            raise ValueError("say who made the last board play")
        other = "orange" if to_move == "blue" else "blue"
        last = to_move if passes else other
    fields = f"pie={'yes' if pie else 'no'} swap={'yes' if swap else 'no'}"
    if to_move != "-":
        fields += f" passes={passes}"
    return f"pilo {size} {body} {to_move} {fields} last={last}"


def setup(diagram: str, to_move: str = "blue", **kw) -> Pilo:
    game = boardlab.from_position(text(diagram, to_move, **kw))
    assert isinstance(game, Pilo)
    return game


def cells_of(diagram: str) -> list[int]:
    """Signed cell values (the engine's encoding) of a diagram, for patch_scores."""
    rows = diagram.strip().splitlines()
    size = len(rows)
    cells = [0] * (size * size)
    for k, line in enumerate(rows):
        row = size - 1 - k
        for col, tok in enumerate(line.split()):
            if tok == "#":
                v = BLOCK
            elif tok == ".":
                v = 0
            else:
                h = int(tok[1:] or 1)
                v = h if tok[0] == "b" else -h
            cells[row * size + col] = v
    return cells


def stack_moves(game) -> list[str]:
    return [m for m in game.legal_moves() if "-" in m]


def refused(game, move, reason_part: str, exc=IllegalMoveError) -> str:
    """Play ``move``, expect a refusal whose reason contains ``reason_part``;
    the game must be untouched. Returns the reason."""
    before = (game.position(), game.history, game.legal_moves())
    with pytest.raises(exc) as info:
        game.play(move)
    assert reason_part in info.value.reason, info.value.reason
    assert (game.position(), game.history, game.legal_moves()) == before
    return info.value.reason


# ---------------------------------------------------------------- basics


@pytest.mark.rules("common-1", "common-4", "pilo-5.1", "pilo-7.5")
def test_defaults_colors_and_action_space():
    game = boardlab.new_game("pilo")
    assert (game.size, game.colors, game.to_move) == (8, ("blue", "orange"), "blue")
    assert game.options == {"pie": True}
    # n + 4nm + 2 with n = 64, m = 7
    assert game.num_distinct_actions == 64 + 4 * 64 * 7 + 2 == 1858
    assert Pilo.max_game_length_for(8) == 3 * 64 + 1
    assert game.position() == "pilo 8 8/8/8/8/8/8/8/8 blue pie=yes swap=no passes=0 last=-"


@pytest.mark.rules("pilo-5.1", "pilo-5.2", "pilo-1.1")
def test_action_encoding():
    game = boardlab.new_game("pilo", 5)  # n = 25, m = 4
    assert game.string_to_action("a1") == 0
    assert game.string_to_action("c3") == 12
    assert game.string_to_action("e5") == 24
    # c3 = point 12; east d=0 two squares: 25 + (12*4 + 0)*4 + 1
    assert game.string_to_action("c3-e3") == 25 + 48 * 4 + 1 == 218
    assert game.string_to_action("c3-c5") == 25 + 49 * 4 + 1 == 222   # north
    assert game.string_to_action("c3-a3") == 25 + 50 * 4 + 1 == 226   # west
    assert game.string_to_action("c3-c2") == 25 + 51 * 4 + 0 == 229   # south, one square
    assert game.string_to_action("pass") == 25 + 4 * 25 * 4 == 425
    assert game.string_to_action("swap") == 426
    assert game.action_to_string(426) == "swap"
    # a1 west 3 squares leaves the board: never legal, but it has a string
    a = 25 + (0 * 4 + 2) * 4 + 2
    assert game.action_to_string(a) == "a1-west3"
    assert game.string_to_action("a1-west3") == a


@pytest.mark.rules("pilo-1.1", "pilo-5.2", "common-5")
def test_notation_is_canonical_only():
    game = boardlab.new_game("pilo", 5)
    for junk in ("c3-d4", "c3-c3", "c3c5", "c3 - c5", "f1", "a6", "c3-west1",
                 "a1-east2", "a1-west0", "c3-", "-c3", "passes", "c3-c5-c7"):
        with pytest.raises(IllegalMoveError, match="malformed"):
            game.string_to_action(junk)
    # case and surrounding blanks are ignored by play()
    game.play("  C3 ")
    assert game.history == ["c3"]


# ---------------------------------------------------------------- placement


@pytest.mark.rules("pilo-2.1")
def test_placement_on_empty_square_only():
    game = boardlab.new_game("pilo", 5, pie=False)
    assert game.legal_moves() == list(grid.point_names(5))  # every square, nothing else
    game.play("c3")
    assert game.position() == "pilo 5 5/5/2b2/5/5 orange pie=no swap=no passes=0 last=blue"
    refused(game, "c3", "c3 is occupied by a blue stack of height 1")
    game.play("d3")
    assert game.position() == "pilo 5 5/5/2bo1/5/5 blue pie=no swap=no passes=0 last=orange"
    # a block is not an empty square either
    game = setup("""
        . . . . .
        . . . . .
        . . # . .
        . . . . .
        . . b . .
    """)
    assert "c3" not in game.legal_moves()
    refused(game, "c3", "c3 holds a block")
    placements = [m for m in game.legal_moves() if "-" not in m]
    assert len(placements) == 25 - 2


# ---------------------------------------------------------------- stack moves


@pytest.mark.rules("pilo-2.2")
def test_stack_move_over_empty_squares():
    game = setup("""
        . . . . .
        . . o . .
        . . . . .
        . . . . .
        . . b . .
    """)
    # c1 north over c2, c3 (empty) reaches the orange disk on c4: same height
    assert stack_moves(game) == ["c1-c4"]
    game.play("c1-c4")
    assert game.position() == text("""
        . . . . .
        . . b2 . .
        . . . . .
        . . . . .
        . . # . .
    """, "orange")
    # orange has no stack left: only placements
    assert stack_moves(game) == []


@pytest.mark.rules("pilo-2.2")
def test_stack_move_jumps_over_friendly_stacks_of_any_height():
    game = setup("""
        # # # . .
        . . . . .
        . . . . .
        . . . . .
        b b3 b2 . o
    """)
    # a1 east passes b1 (height 3) and c1 (height 2), both blue, and d1 (empty);
    # the first non-friendly square is e1, an orange disk: heights 1 = 1.
    # b1 / c1 meet e1 too but with heights 3 / 2; north everything ends on a block.
    assert stack_moves(game) == ["a1-e1"]
    game.play("a1-e1")
    assert game.position() == text("""
        # # # . .
        . . . . .
        . . . . .
        . . . . .
        # b3 b2 . b2
    """, "orange")


@pytest.mark.rules("pilo-2.2", "pilo-2.3")
def test_several_friendly_stacks_in_one_run_capture_the_same_enemy():
    """Clause: a stack moves over friendly stacks to the first enemy stack of its height.

    a4 and b4 (blue, height 1) stand in one run before c4 (orange, height 1):
    a4 passes over b4 and b4 is adjacent, so both reach c4; every other ray
    ends at the edge, so the stack moves are exactly a4-c4 and b4-c4.
    """
    diagram = """
        b b o .
        . . . .
        . . . .
        . . . .
    """
    game = setup(diagram)
    # placements: the 13 empty squares in square order (rank 1 up, d4 last)
    empties = [f"{f}{r}" for r in "123" for f in "abcd"] + ["d4"]
    assert game.legal_moves() == empties + ["a4-c4", "b4-c4"]
    # a4-c4 jumps b4, which stays where it is
    twin = game.copy()
    twin.play("a4-c4")
    assert twin.position() == text("""
        # b b2 .
        . . . .
        . . . .
        . . . .
    """, "orange")
    game.play("b4-c4")
    assert game.position() == text("""
        b # b2 .
        . . . .
        . . . .
        . . . .
    """, "orange")


@pytest.mark.rules("pilo-2.2")
def test_stack_move_blocked_by_a_block():
    game = setup("""
        . . . . .
        o . . . .
        . . . . .
        # . . . .
        b # . o .
    """)
    # east: b1 is a block; north: a2 is a block. Nothing through or onto it.
    assert stack_moves(game) == []
    refused(game, "a1-d1", "blocked by the block on b1")
    refused(game, "a1-a4", "blocked by the block on a2")
    refused(game, "a1-b1", "b1 holds a block")


@pytest.mark.rules("pilo-2.2")
def test_stack_move_stopped_by_enemy_stack_of_different_height():
    game = setup("""
        . . . . #
        . . . . .
        . . . . .
        . . . . .
        b o2 o . .
    """)
    # a1 east meets b1 (orange, height 2): not a destination (1 != 2), and the
    # stack cannot go on past it to c1.
    assert stack_moves(game) == []
    refused(game, "a1-b1", "the heights must be equal")
    refused(game, "a1-c1", "cannot jump over an orange stack of height 2 on b1")
    refused(game, "a1-d1", "cannot jump over")


@pytest.mark.rules("pilo-2.3")
def test_capture_raises_mover_removes_enemy_and_blocks_origin():
    game = setup("""
        . . . . .
        . . . . .
        . . . . .
        . b . . o
        . . . o .
    """)
    assert stack_moves(game) == ["b2-e2"]
    game.play("b2-e2")
    # e2: the orange disk is gone, the blue stack (1 disk) is there with 2;
    # b2, where it came from, is a block
    assert game.position() == text("""
        . . . . .
        . . . . .
        . . . . .
        . # . . b2
        . . . o .
    """, "orange")
    # the other orange disk (d1, height 1) no longer matches the height 2 stack
    assert stack_moves(game) == []


@pytest.mark.rules("pilo-2.3")
def test_capture_of_height_two_by_height_two():
    game = setup("""
        o2 . . # #
        . . . . .
        . . . . .
        . . . . .
        b2 . . . .
    """)
    assert stack_moves(game) == ["a1-a5"]
    game.play("a1-a5")
    assert game.position() == text("""
        b3 . . # #
        . . . . .
        . . . . .
        . . . . .
        # . . . .
    """, "orange")


@pytest.mark.rules("pilo-2.2", "pilo-5.3")
def test_stack_moves_in_all_four_directions():
    diagram = """
        . . o . .
        . . . . .
        o . b . o
        . . . . .
        . . o . .
    """
    game = setup(diagram)
    # ascending action order: from c3, east (d=0), north, west, south
    assert stack_moves(game) == ["c3-e3", "c3-c5", "c3-a3", "c3-c1"]
    for move, dest in (("c3-e3", "e3"), ("c3-c5", "c5"), ("c3-a3", "a3"), ("c3-c1", "c1")):
        twin = game.copy()
        twin.play(move)
        after = cells_of(diagram)
        after[grid.parse_point("c3", 5)] = BLOCK
        after[grid.parse_point(dest, 5)] = 2
        assert twin._cells == after, move
        assert twin.to_move == "orange"


# ---------------------------------------------------------------- passing


@pytest.mark.rules("pilo-2.4")
def test_pass_only_legal_without_board_play():
    game = boardlab.new_game("pilo", 5)
    assert "pass" not in game.legal_moves()
    refused(game, "pass", "pass is only legal when no board play exists: blue can place on a1")
    # full board, a capture available (a4 takes the orange disk on b4)
    game = setup("""
        b o # #
        # # # #
        # # # #
        # # # o
    """)
    assert game.legal_moves() == ["a4-b4"]
    refused(game, "pass", "blue can play a4-b4")


@pytest.mark.rules("pilo-2.4")
def test_forced_pass():
    game = setup("""
        b o2 o #
        # # # #
        # # # #
        # # # #
    """)
    # blue: a4 meets b4, orange of height 2 (no match); everything else is a block
    # and the board is full: blue must pass.
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.position() == text("""
        b o2 o #
        # # # #
        # # # #
        # # # #
    """, "orange", passes=1)
    # orange c4 goes west over its own b4 (height 2) and takes blue's a4 disk
    assert game.legal_moves() == ["c4-a4"]


@pytest.mark.rules("pilo-3.1")
def test_two_consecutive_passes_end_the_game():
    game = setup("""
        b o2 o #
        # # # #
        # # # #
        # # # #
    """)
    game.play("pass")
    game.play("c4-a4")
    # a board play in between: blue's pass and the next one are not consecutive
    assert not game.is_over
    assert game.legal_moves() == ["pass"]  # blue has no stack at all
    game.play("pass")
    assert not game.is_over and game.to_move == "orange"
    # orange: a4 (height 2) and b4 (height 2), nothing to take
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.is_over and game.to_move is None and game.legal_moves() == []
    assert game.position() == (
        "pilo 4 o(2)o(2)##/####/####/#### - pie=no swap=no last=orange")
    # one patch, a4-b4, one orange group of 2: orange 2, blue 0
    assert game.outcome == boardlab.Outcome(
        "orange", Termination.SCORE, {"blue": 0.0, "orange": 2.0})
    assert game.history == ["pass", "c4-a4", "pass", "pass"]


# ---------------------------------------------------------------- scoring


def finish(game) -> None:
    """Both colors pass (the position must have no board play for either)."""
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.is_over


@pytest.mark.rules("pilo-3.3")
def test_patch_scoring_removes_equal_size_pairs():
    diagram = """
        o o # #
        # o # #
        b2 b2 o #
        b # # #
    """
    # No board play: row 2 has b2 b2 next to a height-1 orange disk, column b has
    # b2 under a height-1 orange disk; everything else is split by blocks.
    game = setup(diagram)
    finish(game)
    # One patch: a4 b4 b3 a2 b2 c2 a1 (7 squares). Groups: orange a4-b4-b3 (3),
    # orange c2 (1), blue a2-b2-a1 (3). The two 3s cancel, orange's 1 is left:
    # orange owns all 7 squares (the biggest groups alone would tie 3-3).
    assert game.outcome == boardlab.Outcome(
        "orange", Termination.SCORE, {"blue": 0.0, "orange": 7.0})
    assert patch_scores(cells_of(diagram), 4) == (0, 7)
    # more pairs: three blue singletons vs two orange singletons, plus a pair of 2s
    assert pilo.patch_owner([1, 1, 1, -1, -1, 2, -2]) == pilo.BLUE
    assert pilo.patch_owner([1, -1, 2, -2, -3, 2]) == pilo.ORANGE


@pytest.mark.rules("pilo-3.3")
def test_patch_without_leftover_group_is_owned_by_nobody():
    diagram = """
        b b2 # #
        o2 o # #
        # # # #
        # # # b
    """
    # No board play: a4 (1) over a3 (o2), b4 (b2) over b3 (1): heights differ.
    # Patch a4 b4 a3 b3: blue a4-b4 (2 squares) vs orange a3-b3 (2 squares) make a
    # pair, nothing is left: nobody owns those 4 squares. d1 alone: blue 1.
    game = setup(diagram)
    finish(game)
    assert game.outcome == boardlab.Outcome(
        "blue", Termination.SCORE, {"blue": 1.0, "orange": 0.0})
    assert pilo.patch_owner([2, -2]) is None
    assert pilo.patch_owner([]) is None


@pytest.mark.rules("pilo-3.4", "pilo-7.4")
def test_empty_squares_count_in_patch_size():
    # A finished game has no empty square (an empty square is a placement, so
    # nobody may pass), so the scoring function is checked on its own here.
    diagram = """
        b . . .
        . . . .
        # # # #
        o . # .
    """
    # top two rows: one patch of 8 squares, only blue's disk: blue 8.
    # a1 b1: orange owns 2 (b1 is empty but counts). d1: an empty patch, nobody.
    assert patch_scores(cells_of(diagram), 4) == (8, 2)
    with pytest.raises(PositionError, match="board play exists"):
        boardlab.from_position(text(diagram, "-", last="blue"))


@pytest.mark.rules("pilo-3.2")
def test_blocks_split_patches():
    diagram = """
        # b b #
        b2 b2 # #
        # # o o
        # # # o
    """
    # c3 is a block: patch b4 c4 a3 b3 (blue group of 4) and patch c2 d2 d1
    # (orange group of 3) are apart. Nothing to capture (c2 and c4 face c3).
    game = setup(diagram)
    finish(game)
    assert game.outcome == boardlab.Outcome(
        "blue", Termination.SCORE, {"blue": 4.0, "orange": 3.0})
    # without the block on c3 it is one 8-square patch: blue 4 vs orange 3
    joined = cells_of(diagram)
    joined[grid.parse_point("c3", 4)] = 0
    assert patch_scores(joined, 4) == (8, 0)


@pytest.mark.rules("pilo-3.2")
def test_group_size_counts_squares_not_disks():
    diagram = """
        b3 o o #
        # # # #
        # # # #
        # # # #
    """
    # one patch a4 b4 c4: blue a4 is one square (3 disks), orange b4-c4 two
    # squares (2 disks): orange's group is the bigger one, orange owns 3.
    game = setup(diagram)
    finish(game)
    assert game.outcome == boardlab.Outcome(
        "orange", Termination.SCORE, {"blue": 0.0, "orange": 3.0})


@pytest.mark.rules("pilo-3.5", "pilo-5.4", "common-7")
def test_tie_goes_against_the_last_board_play():
    game = setup("""
        b o # o
        # # # #
        # # # #
        # # # #
    """)
    assert game.legal_moves() == ["a4-b4"]
    game.play("a4-b4")
    finish(game)
    # b4 (blue, 1 square) and d4 (orange, 1 square): 1-1. Blue made the last
    # board play (the capture; passes do not count): blue loses.
    assert game.outcome == boardlab.Outcome(
        "orange", Termination.LAST_MOVE, {"blue": 1.0, "orange": 1.0})
    assert game.position() == "pilo 4 #b(2)#o/####/####/#### - pie=no swap=no last=blue"
    # the same with colors reversed
    game = setup("""
        o b # b
        # # # #
        # # # #
        # # # #
    """, "orange")
    game.play("a4-b4")
    finish(game)
    assert game.outcome == boardlab.Outcome(
        "blue", Termination.LAST_MOVE, {"blue": 1.0, "orange": 1.0})


@pytest.mark.rules("pilo-3.5")
def test_tie_goes_against_a_last_placement():
    """Clause: on a tie, whoever made the last board play loses (a placement counts).

    Blue's only play is the placement b4; then the board is full and neither
    color can capture (every line ends on a block), so both pass. Patches a4-b4
    (blue group of 2) and d4-d3 (orange group of 2) give 2-2, and blue placed
    last, so blue loses; with the colors reversed orange loses.
    """
    game = setup("""
        b . # o
        # # # o
        # # # #
        # # # #
    """)
    assert game.legal_moves() == ["b4"]
    game.play("b4")
    finish(game)
    assert game.position() == "pilo 4 bb#o/###o/####/#### - pie=no swap=no last=blue"
    assert game.outcome == boardlab.Outcome(
        "orange", Termination.LAST_MOVE, {"blue": 2.0, "orange": 2.0})
    assert game.history == ["b4", "pass", "pass"]
    # the same with colors reversed: orange places last and loses
    game = setup("""
        o . # b
        # # # b
        # # # #
        # # # #
    """, "orange")
    assert game.legal_moves() == ["b4"]
    game.play("b4")
    finish(game)
    assert game.outcome == boardlab.Outcome(
        "blue", Termination.LAST_MOVE, {"blue": 2.0, "orange": 2.0})


@pytest.mark.rules("pilo-3.3", "pilo-3.5")
def test_tie_at_zero_with_every_patch_unowned():
    """Clause: a patch with no leftover group is nobody's; 0-0 is a tie broken by the last board play.

    Blue's only play is b4 (a disk of height 1 next to orange's o2: no capture
    either way, heights differ), then both pass. The one patch a4-b4 holds an
    orange group of 1 and a blue group of 1, which pair off: nobody owns it,
    0-0, and blue (last board play) loses.
    """
    game = setup("""
        o2 . # #
        # # # #
        # # # #
        # # # #
    """)
    assert game.legal_moves() == ["b4"]
    game.play("b4")
    finish(game)
    assert game.position() == "pilo 4 o(2)b##/####/####/#### - pie=no swap=no last=blue"
    assert game.outcome == boardlab.Outcome(
        "orange", Termination.LAST_MOVE, {"blue": 0.0, "orange": 0.0})
    # finished positions read directly: the loser is the color named by last
    for last, winner in (("blue", "orange"), ("orange", "blue")):
        done = boardlab.from_position(f"pilo 4 bo(2)##/####/####/#### - pie=no swap=no last={last}")
        assert done.is_over and done.legal_moves() == []
        assert done.outcome == boardlab.Outcome(
            winner, Termination.LAST_MOVE, {"blue": 0.0, "orange": 0.0})


@pytest.mark.rules("pilo-3.4")
def test_score_sums_several_patches_of_one_color():
    """Clause: your score is the sum of the sizes of the patches you own.

    Blocks cut the full board into patches a4-b4 (blue, 2), a2-b2 (blue, 2) and
    d4-d3-d2 (orange, 3); no line joins a blue and an orange stack, so both pass.
    Blue owns 2 + 2 = 4 > 3 and wins on score (the largest patch alone would
    give orange the win).
    """
    diagram = """
        b b # o
        # # # o
        b b # o
        # # # #
    """
    game = setup(diagram)
    finish(game)
    assert game.outcome == boardlab.Outcome(
        "blue", Termination.SCORE, {"blue": 4.0, "orange": 3.0})
    # four one-square patches, two per color: 2-2, orange made the last board play
    done = boardlab.from_position("pilo 4 b#o#/####/b#o#/#### - pie=no swap=no last=orange")
    assert done.outcome == boardlab.Outcome(
        "blue", Termination.LAST_MOVE, {"blue": 2.0, "orange": 2.0})


# ---------------------------------------------------------------- pie rule


@pytest.mark.rules("common-6")
def test_swap_only_on_orange_first_action_and_orange_keeps_moving():
    game = boardlab.new_game("pilo", 5)
    refused(game, "swap", "swap is only legal on orange's first turn")
    game.play("c3")
    assert game.legal_moves()[-1] == "swap"
    assert game.position() == "pilo 5 5/5/2b2/5/5 orange pie=yes swap=yes passes=0 last=blue"
    game.play("swap")
    # the board does not change and orange (now the other person) moves again
    assert game.to_move == "orange"
    assert game.position() == "pilo 5 5/5/2b2/5/5 orange pie=yes swap=no passes=0 last=blue"
    assert "swap" not in game.legal_moves()
    game.play("d3")
    refused(game, "swap", "which has passed")
    # a regular first move by orange also closes it
    game = boardlab.new_game("pilo", 5)
    game.play("c3")
    game.play("d3")
    assert "swap" not in game.legal_moves()
    refused(game, "swap", "which has passed")


@pytest.mark.rules("common-6")
def test_no_swap_without_pie():
    game = boardlab.new_game("pilo", 5, pie=False)
    game.play("c3")
    assert "swap" not in game.legal_moves()
    refused(game, "swap", "the pie rule is off")
    assert game.position() == "pilo 5 5/5/2b2/5/5 orange pie=no swap=no passes=0 last=blue"


# after blue's a4 (and orange's swap): 15 placements, then four adjacent captures
# d4xc4 (blue), c3xd3 (orange), b2xb3 (blue), a1xb1 (orange). The blocks left on
# d4 c3 b2 a1 cut the board into a blue patch a4 b4 c4 a3 b3 a2 and an orange
# patch d3 c2 d2 b1 c1 d1, and separate every blue stack from every orange one.
SWAP_GAME_PLACEMENTS = ["c4", "b4", "b3", "a3", "c3", "d4", "c2", "d3",
                        "d2", "a2", "a1", "b2", "c1", "b1", "d1"]
SWAP_GAME_CAPTURES = ["d4-c4", "c3-d3", "b2-b3", "a1-b1"]


@pytest.mark.rules("common-6", "common-7", "pilo-3.5")
def test_tie_break_after_a_swap_is_by_color():
    """Clause: a swap is not a board play, results are by color, ties go against the last board play.

    After a4 and swap the board is unchanged, orange is to move and the last
    board play is still blue's. The game then ends 6-6 (two 6-square patches,
    one group each, no capture left); orange, the color that made the last
    board play (a1-b1), loses, exactly as in the same game without the swap.
    """
    game = boardlab.new_game("pilo", 4)
    game.play("a4")
    assert game.legal_moves()[-1] == "swap"
    game.play("swap")
    assert game.position() == "pilo 4 b3/4/4/4 orange pie=yes swap=no passes=0 last=blue"
    for move in SWAP_GAME_PLACEMENTS:
        game.play(move)
    assert game.position() == "pilo 4 bbob/boob/bboo/oboo blue pie=yes swap=no passes=0 last=orange"
    for move in SWAP_GAME_CAPTURES:
        game.play(move)
    finish(game)
    final = "bbb(2)#/bb(2)#o(2)/b#oo/#o(2)oo"
    assert game.position() == f"pilo 4 {final} - pie=yes swap=no last=orange"
    assert game.outcome == boardlab.Outcome(
        "blue", Termination.LAST_MOVE, {"blue": 6.0, "orange": 6.0})
    assert game.history == (["a4", "swap"] + SWAP_GAME_PLACEMENTS + SWAP_GAME_CAPTURES
                            + ["pass", "pass"])
    # without the pie rule the same moves give the same board and the same result
    plain = boardlab.new_game("pilo", 4, pie=False)
    for move in ["a4"] + SWAP_GAME_PLACEMENTS + SWAP_GAME_CAPTURES:
        plain.play(move)
    finish(plain)
    assert plain.position() == f"pilo 4 {final} - pie=no swap=no last=orange"
    assert plain.outcome == game.outcome


# ---------------------------------------------------------------- errors


@pytest.mark.rules("pilo-2.2", "pilo-5.2")
def test_illegal_stack_moves_give_specific_reasons():
    game = setup("""
        . . . . .
        o . . . .
        . . . . .
        . . . . .
        b . b . .
    """)
    refused(game, "b1-b3", "b1 is empty: blue can only move its own stacks")
    refused(game, "a4-a1", "holds an orange stack of height 1: blue can only move its own stacks")
    refused(game, "a1-c1", "c1 holds a friendly stack")
    refused(game, "a1-b1", "b1 is empty: a stack move must end on an enemy stack")
    # an off-board action is refused too (it has a string, never a legal move)
    refused(game, "a1-west2", "leaves the board")
    with pytest.raises(IllegalMoveError, match="malformed"):
        game.play("a1-b2")
    game.play("a1-a4")
    assert game.history == ["a1-a4"]


@pytest.mark.rules("pilo-3.1")
def test_moves_after_the_end_raise_game_over():
    game = setup("""
        b # # o
        # # # #
        # # # #
        # # # #
    """)
    finish(game)
    for move in ("pass", "a4-d4", "swap", "a1", "zz"):
        refused(game, move, "the game is over", exc=GameOverError)
    with pytest.raises(GameOverError):
        game.apply_action(game.string_to_action("pass"))


def test_undo_restores_a_capture_exactly():
    game = setup("""
        # # . . .
        . . . . .
        o2 . . . .
        . . . . .
        b2 . . . o
    """)
    before = (game.position(), game.legal_actions(), game.history)
    game.play("a1-a3")
    assert game.position() == text("""
        # # . . .
        . . . . .
        b3 . . . .
        . . . . .
        # . . . o
    """, "orange")
    assert game.undo() == "a1-a3"
    assert (game.position(), game.legal_actions(), game.history) == before
    # the caches too: blue a1-a3, orange a3-a1 (o2 south over a2 onto b2)
    assert game._caps_b == {game.string_to_action("a1-a3")}
    assert game._caps_o == {game.string_to_action("a3-a1")}


def test_copy_and_pickle_are_independent():
    game = setup("""
        . . . . .
        . . o . .
        . . . . .
        . . . . .
        . . b . .
    """)
    twin = game.copy()
    back = pickle.loads(pickle.dumps(game))
    twin.play("c1-c4")
    assert game.position() != twin.position()
    assert back.position() == game.position()
    assert back.legal_moves() == game.legal_moves()


# ---------------------------------------------------------------- positions


@pytest.mark.rules("pilo-6.1")
def test_position_round_trip_of_every_kind():
    texts = [
        "pilo 8 8/8/8/8/8/8/8/8 blue pie=yes swap=no passes=0 last=-",
        "pilo 5 5/5/2b2/5/5 orange pie=yes swap=yes passes=0 last=blue",
        text("b o2 o #\n# # # #\n# # # #\n# # # #", "orange", passes=1),
        "pilo 4 o(2)o(2)##/####/####/#### - pie=no swap=no last=orange",
    ]
    for t in texts:
        game = boardlab.from_position(t)
        assert game.position() == t
        assert boardlab.from_position(game.position()).legal_moves() == game.legal_moves()


@pytest.mark.rules("pilo-6.2", "pilo-7.1", "pilo-7.2", "pilo-7.3")
@pytest.mark.parametrize("bad,message", [
    ("pilo 4 x3/4/4/4 blue pie=no last=blue", "unknown piece 'x'"),
    ("pilo 4 b(1)3/4/4/4 orange pie=no last=blue", r"unknown piece 'b\(1\)'"),
    ("pilo 4 #(2)3/4/4/4 orange pie=no last=blue", "unknown piece"),
    ("pilo 4 B3/4/4/4 orange pie=no last=blue", "unknown piece 'B'"),
    ("pilo 4 b(2)3/4/4/4 orange pie=no last=blue", "only 0 blocks"),
    ("pilo 4 #3/4/4/4 orange pie=no last=blue", "blocks but no stack"),
    ("pilo 4 b3/4/4/4 orange pie=no", "needs last=blue or last=orange"),
    ("pilo 4 4/4/4/4 blue pie=no last=blue", "on an empty board"),
    ("pilo 4 b3/4/4/4 orange pie=no last=-", "last=- on a non-empty board"),
    ("pilo 4 4/4/4/4 orange pie=no", "blue is to move"),
    ("pilo 4 b3/4/4/4 blue pie=no last=blue", "other color made the last board play"),
    ("pilo 4 b3/4/4/4 orange pie=no passes=1 last=orange", "had a board play"),
    ("pilo 4 b3/4/4/4 orange pie=no passes=2 last=blue", "passes"),
    ("pilo 4 b3/4/4/4 - pie=no last=blue", "board play exists"),
    ("pilo 4 b##o/####/####/#### - pie=no passes=0 last=orange", "no passes field"),
    ("pilo 4 bo##/####/####/#### - pie=no last=orange", "a4-b4 is a capture"),
    ("pilo 4 bo2/4/4/4 blue pie=yes swap=yes last=orange", "swap=yes needs orange"),
    ("pilo 4 b3/4/4/4 orange pie=no swap=yes last=blue", "swap=yes needs pie=yes"),
    ("pilo 4 b3/4/4/4 orange pie=no last=blue what=1", "unknown field"),
    ("pilo 4 b##o/####/####/#### blue pie=no passes=1 last=orange", "made the last board play"),
])
def test_position_errors(bad, message):
    with pytest.raises(PositionError, match=message):
        boardlab.from_position(bad)


def test_str_shows_heights():
    game = setup("""
        # # . . .
        . . . . .
        o2 . . . .
        . . . . .
        b2 . . . o
    """)
    lines = str(game).splitlines()
    assert lines[0] == "   a  b  c  d  e"
    assert lines[1] == " 5 #  #  .  .  .  5"
    assert lines[3] == " 3 o2 .  .  .  .  3"
    # live scores: one patch of 23 squares; the single-square groups pair off
    # (blue a1 with one orange), the other orange single is left: orange owns it
    assert lines[-1] == "blue to move  (blue 0, orange 23)"


# ---------------------------------------------------------------- properties


def reference_legal(game) -> list[str]:
    """Legal moves by walking every ray of the position, straight from the rules."""
    if game.is_over:
        return []
    size = game.size
    names = grid.point_names(size)
    cells = game._cells
    me = 1 if game.to_move == "blue" else -1
    moves = [(p, names[p]) for p in range(size * size) if cells[p] == 0]
    for p in range(size * size):
        x = cells[p]
        if x == BLOCK or x * me <= 0:
            continue
        for d, ray in enumerate(grid.rays(size)[p]):
            for k, q in enumerate(ray, 1):
                y = cells[q]
                if y == 0 or (y != BLOCK and y * me > 0):
                    continue  # empty or friendly: go on
                if y == -x:
                    moves.append((size * size + (p * 4 + d) * (size - 1) + k - 1,
                                  f"{names[p]}-{names[q]}"))
                break
    out = [m for _, m in sorted(moves)]
    if not out:
        return ["pass"]
    if game.options["pie"] and len(game.history) == 1:
        out.append("swap")
    return out


@pytest.mark.rules("pilo-2.2", "pilo-2.4", "pilo-5.3", "pilo-7.5")
@settings(max_examples=25, deadline=None)
@given(size=st.integers(4, 8), seed=st.integers(0, 10**9), pie=st.booleans())
def test_random_games_agree_with_a_ray_walking_reference(size, seed, pie):
    rng = random.Random(seed)
    game = boardlab.new_game("pilo", size, pie=pie)
    while True:
        assert game.legal_moves() == reference_legal(game)
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    assert len(game) <= Pilo.max_game_length_for(size)


@pytest.mark.rules("pilo-2.3", "pilo-3.5", "pilo-7.3")
@settings(max_examples=25, deadline=None)
@given(size=st.integers(4, 8), seed=st.integers(0, 10**9))
def test_random_games_keep_the_board_invariants(size, seed):
    rng = random.Random(seed)
    game = boardlab.new_game("pilo", size)
    n = size * size
    empties, blocks = n, 0
    last_board_play = None
    while not game.is_over:
        mover = game.to_move
        action = rng.choice(game.legal_actions())
        if game.action_to_string(action) not in ("pass", "swap"):
            last_board_play = mover
        game.apply_action(action)
        cells = game._cells
        e, b = cells.count(0), cells.count(BLOCK)
        # empty squares never come back, blocks never leave
        assert e <= empties and b >= blocks
        # each stack move adds one block and at most one disk above a first disk
        assert b >= sum(abs(x) - 1 for x in cells if x not in (0, BLOCK))
        # a pass needs a full board
        if game.history[-1] == "pass":
            assert e == 0
        empties, blocks = e, b
        assert game.position().endswith(f"last={last_board_play}")
        assert boardlab.from_position(game.position()).position() == game.position()
    out = game.outcome
    blue, orange = out.scores["blue"], out.scores["orange"]
    assert blue + orange <= n - blocks
    if out.termination is Termination.SCORE:
        assert out.winner == ("blue" if blue > orange else "orange") and blue != orange
    else:
        assert out.termination is Termination.LAST_MOVE and blue == orange
        assert out.winner != last_board_play
