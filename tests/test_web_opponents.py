"""The web's engine calls keep a searching agent for the next move of its line."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.web import opponents


def test_the_next_move_continues_the_kept_tree() -> None:
    opponents._KEPT.clear()
    game = boardlab.new_game("robble", 5)
    move = opponents.choose("mcts:3000", 1, game)
    name, agent = opponents._KEPT[-1]
    assert name == "mcts:3000"
    tree = agent._tree
    game.play(move)
    node = tree.child_node(tree.root, game.action_history[-1])
    reply = max(tree.children(node), key=lambda c: c.visits).action
    game.apply_action(reply)
    opponents.choose("mcts:3000", 2, game)
    assert opponents._KEPT[-1][1] is agent and agent._tree is tree and tree.root != 0
    assert len(opponents._KEPT) == 1


def test_another_line_or_engine_gets_a_new_agent_and_the_list_stays_short() -> None:
    opponents._KEPT.clear()
    first = boardlab.new_game("robble", 5)
    opponents.choose("mcts:200", 1, first)
    other = boardlab.new_game("robble", 5)
    other.apply_action(other.legal_actions()[-1])
    other.apply_action(other.legal_actions()[0])
    opponents.choose("mcts:200", 1, other)            # not below the first tree's root
    opponents.choose("mcts:300", 1, boardlab.new_game("robble", 5))  # another engine
    agents = [a for _, a in opponents._KEPT]
    assert len(agents) == len({id(a) for a in agents}) == 3
    for k in range(2 * opponents._KEEP):
        opponents.choose(f"mcts:{20 + k}", k, boardlab.new_game("pilo", 4))  # each a new engine
    assert len(opponents._KEPT) == opponents._KEEP
    opponents.choose("random", 1, boardlab.new_game("pilo", 4))  # no tree kept: not listed
    assert all(name != "random" for name, _ in opponents._KEPT)


def test_the_komi_a_level_names_is_one_a_player_would_name() -> None:
    """Weak levels' searches of the start are noise; what they name stays in
    yugo's reasonable range (0 .. twice the rule of thumb) on every size a
    player is offered first; an engine with no hook names the rule of thumb."""
    pg = boardlab.game_class("yugo").pregame
    for size in (5, 7, 9):
        low, high = pg.reasonable(size)
        assert (low, high) == (0, 2 * pg.fair(size))
        for engine in ("level1", "level2"):
            assert low <= opponents.value_for(engine, "yugo", size) <= high, (engine, size)
    assert opponents.value_for("random", "yugo", 7) == pg.fair(7) == 4


def test_the_rule_of_thumb_picks_the_color_a_value_favours() -> None:
    pg = boardlab.game_class("yugo").pregame
    assert opponents.color_for("random", "yugo", 9, pg.fair(9)) == "white"
    assert opponents.color_for("random", "yugo", 9, pg.fair(9) - 1) == "black"
    with pytest.raises(boardlab.OptionError, match="robble has no pre-game"):
        opponents.value_for("random", "robble", 5)
