"""The adapters' compiled observations (``_adapters.CompiledGame.observe`` and
``planes_into``, what PettingZoo, Gymnasium and OpenSpiel hand out) against
boardlab.research.tensors.observe and the Python game's legal actions: every ply of
seeded random games, both players' views, at two sizes per game."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.errors import OptionError
from boardlab.research import _adapters, tensors

CASES = [(name, size) for name in boardlab.GAMES for size in (5, 7)]


def expect_same(cg: _adapters.CompiledGame, game: boardlab.Game, where: str) -> None:
    legal = np.zeros(game.num_distinct_actions, np.int8)
    legal[game.legal_actions()] = 1
    for player in (0, 1):
        planes, mask = cg.observe(player)
        reference = tensors.observe(game, player)
        assert planes.dtype == np.float32 and planes.shape == reference.shape, where
        np.testing.assert_array_equal(planes, reference, err_msg=f"{where}, player {player}")
        np.testing.assert_array_equal(mask, legal, err_msg=where)
        rows = np.zeros((planes.shape[0], game.n_points), np.float32)
        cg.planes_into(player, rows)
        np.testing.assert_array_equal(rows.reshape(planes.shape), reference, err_msg=where)


@pytest.mark.parametrize(("name", "size"), CASES)
def test_observations_match_tensors_at_every_ply(name: str, size: int) -> None:
    config = _adapters.spec(name, size=size)
    cg = _adapters.CompiledGame(config)
    for seed in range(3):
        rng = random.Random(seed)
        cg.reset()
        game = config.new()
        while True:
            expect_same(cg, game, f"{name} size {size} seed {seed} ply {len(game)}")
            if game.is_over:
                assert cg.play_code() == -1
                break
            action = rng.choice(game.legal_actions())
            game.apply_action(action)
            code = cg.play(action)
            assert code == cg.play_code()
            assert code == (-1 if game.is_over else game.current_player + 2 * game.is_mid_turn)


def test_a_bad_player_is_refused() -> None:
    cg = _adapters.CompiledGame(_adapters.spec("robble", size=5))
    with pytest.raises(OptionError, match="player must be 0 or 1"):
        cg.planes_into(2, np.zeros((5, 25), np.float32))
