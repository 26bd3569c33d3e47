"""Yugo's decisions outside ordinary play: dead-group marks, accept/reject,
komi and side choice."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.ai import decisions
from boardlab.ai.engines import make_engine
from boardlab.ai.limit import Limit
from boardlab.ai.search import DECISION_LIMIT
from boardlab.errors import OptionError
from boardlab.games.yugo import search as yugo_end

# 5x5, white button. Black: a two-eyed block on columns a-b (a5 and a3 empty)
# plus a pawn d3 in white's area with one liberty (d2): white kings d2 and it is
# gone. With komi 0 black wins if d3 stays on the board (11 to 10.5) and loses
# if it is removed (10 to 15.5); with komi -6 black wins either way.
BOARD = "yugo 5 1xo2/xxoo1/1xoxo/xxo2/xxo2 {mover} komi={komi} button=white passes=0 " \
        "phase={phase} marks={marks} rejected=no"


def position(mover="white", komi=0, phase="mark", marks="-"):
    return boardlab.from_position(BOARD.format(mover=mover, komi=komi, phase=phase, marks=marks))


def test_phase_detection():
    assert yugo_end.phase(position()) == "mark"
    assert yugo_end.phase(position("black", phase="answer", marks="d3")) == "answer"
    assert yugo_end.phase(boardlab.new_game("yugo", 5)) == "play"


def test_groups():
    gs = yugo_end.groups(position())
    names = {boardlab.new_game("yugo", 5).action_to_string(g) for g in gs}
    assert names == {"a1", "c1", "d3", "e3"}


def test_marks_the_dead_group_only():
    for seed in range(3):
        game = position()
        agent = make_engine("mcts:300", seed=seed)
        while game.to_move == "white":
            game.play(agent.choose_move(game))
        assert game.history == ["mark d3", "done"]


def test_marks_nothing_when_nothing_is_dead():
    # the same board with d3 gone: every group is alive
    game = boardlab.from_position("yugo 5 1xo2/xxoo1/1xo1o/xxo2/xxo2 white komi=0 "
                                  "button=white passes=0 phase=mark marks=- rejected=no")
    agent = make_engine("mcts:300", seed=1)
    assert agent.choose_move(game) == "done"


def test_accepts_a_proposal_that_keeps_its_result():
    # black wins with komi -6 whether or not its dead d3 is removed: accept
    game = position("black", komi=-6, phase="answer", marks="d3")
    assert make_engine("mcts:300", seed=1).choose_move(game) == "accept"


def test_accepts_when_accepting_wins():
    # white proposed to remove its own wall: accepting wins for black
    game = position("black", komi=0, phase="answer", marks="c1")
    assert make_engine("mcts:300", seed=1).choose_move(game) == "accept"


def test_rejects_a_proposal_that_would_turn_a_win_into_a_loss():
    # removing black's living block would lose a won game: reject
    for seed in range(3):
        game = position("black", komi=-6, phase="answer", marks="a1")
        assert make_engine("mcts:300", seed=seed).choose_move(game) == "reject"


def test_resumed_position():
    """After a rejection play resumes with the proposer (docs/rules.md, yugo-3.1): the
    color to move while marking, the other one while answering."""
    for phase, mover, proposer in (("mark", "black", "black"), ("answer", "black", "white")):
        play = yugo_end.resumed(position(phase=phase, marks="d3", mover=mover))
        assert yugo_end.phase(play) == "play" and play.to_move == proposer
        assert "rejected=yes" in play.position() and "marks=-" in play.position()


def _start(komi=0, size=5):
    return boardlab.new_game("yugo", size, komi=komi)


def test_komi_and_side_follow_the_estimate():
    """The pre-game (Yugo.pregame: black names the komi, white picks a color)
    as boardlab.ai.decisions plays it, from the game's declaration."""
    budget = Limit(200)
    values = {k: decisions.start_value(_start(k), budget) for k in (-8, 20)}
    assert values[-8] > values[20]
    assert decisions.choose_side(_start(-8), budget) == "black"
    assert decisions.choose_side(_start(20), budget) == "white"
    komi = decisions.name_value(_start(), budget)
    assert -8 < komi < 20
    assert decisions.choose_side(_start(komi - 6), budget) == "black"
    assert decisions.with_value(_start(), 4).options == {"komi": 4}


def test_a_game_without_a_pregame_has_nothing_to_name():
    with pytest.raises(OptionError, match="robble has no pre-game"):
        decisions.name_value(boardlab.new_game("robble", 5), Limit(10))


def test_agent_hooks_for_komi_and_color():
    agent = make_engine("mcts:100", seed=1)
    komi = agent.name_value(_start())
    assert isinstance(komi, int)
    assert agent.choose_color(_start(komi + 15)) == "white"


def test_a_timed_agents_komi_estimates_take_half_its_move_time():
    """Each estimate of a time-limited agent stops at half its move time, so
    naming komi costs about (log2(size²) + 2) half-moves, not minutes; a
    level's (simulations) estimates have the same budget whatever the level."""
    assert make_engine("mcts:0.1s", seed=1)._decision_limit() == Limit(8000, 0.05)
    assert make_engine("mcts:60s")._decision_limit() == DECISION_LIMIT
    for level in ("level1", "level4", "level5"):
        assert make_engine(level)._decision_limit() == DECISION_LIMIT
    komi = make_engine("mcts:0.1s", seed=1).name_value(_start(size=7))
    assert isinstance(komi, int)
