"""boardlab._adapters.Observer (the adapters' compiled observations) against
boardlab.tensors.observe and the Python game's legal actions: every ply of
seeded random games, both players' views, at two sizes per game; and its
resynchronisation when handed another game or a game that was undone."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab import _adapters, tensors
from boardlab.errors import OptionError

CASES = [(name, size) for name in boardlab.GAMES for size in (5, 7)]


def expect_same(observer: _adapters.Observer, game: boardlab.Game, where: str) -> None:
    legal = np.zeros(game.num_distinct_actions, np.int8)
    legal[game.legal_actions()] = 1
    for player in (0, 1):
        planes, mask = observer.observe(game, player)
        reference = tensors.observe(game, player)
        assert planes.dtype == np.float32 and planes.shape == reference.shape, where
        np.testing.assert_array_equal(planes, reference, err_msg=f"{where}, player {player}")
        np.testing.assert_array_equal(mask, legal, err_msg=where)
        rows = np.zeros((planes.shape[0], game.n_points), np.float32)
        observer.planes_into(game, player, rows)
        np.testing.assert_array_equal(rows.reshape(planes.shape), reference, err_msg=where)


@pytest.mark.parametrize(("name", "size"), CASES)
def test_observations_match_tensors_at_every_ply(name: str, size: int) -> None:
    config = _adapters.spec(name, size=size)
    observer = _adapters.Observer(config)
    for seed in range(3):
        rng = random.Random(seed)
        game = config.new()
        while True:
            expect_same(observer, game, f"{name} size {size} seed {seed} ply {len(game)}")
            if game.is_over:
                break
            game.apply_action(rng.choice(game.legal_actions()))


def test_it_follows_another_game_and_an_undone_one() -> None:
    config = _adapters.spec("pilo", size=5)
    observer = _adapters.Observer(config)
    rng = random.Random(4)
    first, second = config.new(), config.new()
    for _ in range(12):
        first.apply_action(rng.choice(first.legal_actions()))
    expect_same(observer, first, "first game")
    expect_same(observer, second, "another game (replayed)")
    expect_same(observer, first, "back to the first")
    first.undo()
    first.undo()
    expect_same(observer, first, "after two undos")
    last = first.action_history[-1]
    first.undo()
    first.apply_action(next(a for a in first.legal_actions() if a != last))
    expect_same(observer, first, "after an undo and another move (the same length as before)")


def test_a_bad_player_is_refused() -> None:
    observer = _adapters.Observer(_adapters.spec("robble", size=5))
    with pytest.raises(OptionError, match="player must be 0 or 1"):
        observer.observe(boardlab.new_game("robble", 5), 2)
