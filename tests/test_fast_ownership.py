"""Ownership (``boardlab.fast.ownership``): the per-point owners of the
kernels that define them, held to the Python engines' scores, and the map
averaged over playouts."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.errors import OptionError
from boardlab.fast.kernels import kernel
from boardlab.fast.ownership import has_ownership, ownership

OWNED = ("pilo", "yugo")


def _owners(game):
    k = kernel(game.name)
    out = np.full(game.n_points, 9, dtype=np.int64)
    k.owner(k.from_game(game), out)
    return out


def _extras(game):
    """What a color scores beyond its points: yugo's button half point and komi."""
    if game.name != "yugo":  # the test knows the games; the library does not need to
        return 0.0, 0.0
    fields = game.position_fields()
    button = fields.get("button", "-")
    return ((0.5 if button == game.colors[0] else 0.0),
            (0.5 if button == game.colors[1] else 0.0) + game.options["komi"])


@pytest.mark.parametrize("name", OWNED)
def test_owners_add_up_to_the_python_engines_score_every_ply(name):
    rng = random.Random(5)
    plies = 0
    for _ in range(60):
        game = boardlab.new_game(name, rng.choice([4, 5, 6, 7, 9]))
        while not game.is_over:
            game.apply_action(rng.choice(game.legal_actions()))
            own = _owners(game)
            assert set(own.tolist()) <= {-1, 0, 1}
            scores = game._live_scores()
            e0, e1 = _extras(game)
            first, second = game.colors
            assert (own == 1).sum() + e0 == scores[first], game.position()
            assert (own == -1).sum() + e1 == scores[second], game.position()
            plies += 1
    assert plies > 1000


def test_a_block_and_an_unowned_patch_own_nothing():
    game = boardlab.new_game("pilo", 4)
    own = _owners(game)  # the empty board: one patch, no groups, no owner
    assert (own == 0).all()


@pytest.mark.parametrize("name", OWNED)
def test_map_is_a_bounded_seeded_average_and_exact_when_over(name):
    rng = random.Random(3)
    game = boardlab.new_game(name, 5)
    for _ in range(12):
        game.apply_action(rng.choice(game.legal_actions()))
    m = ownership(game, 64, seed=2)
    assert m is not None and m.shape == (game.n_points,)
    assert (np.abs(m) <= 1).all() and np.allclose(m * 64, np.round(m * 64))
    assert np.array_equal(m, ownership(game, 64, seed=2))
    assert not np.array_equal(m, ownership(game, 64, seed=3))
    while not game.is_over:
        game.apply_action(rng.choice(game.legal_actions()))
    assert np.array_equal(ownership(game, 8), _owners(game).astype(float))


def test_games_without_a_point_score_have_no_map_and_bad_counts_are_refused():
    for name in ("implo", "robble", "vimbre"):
        game = boardlab.new_game(name, 5)
        assert not has_ownership(game) and ownership(game) is None
    with pytest.raises(OptionError, match="playouts must be a positive integer"):
        ownership(boardlab.new_game("pilo", 5), 0)
