"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import random

import pytest

import boardlab

#: Sizes each game is exercised at by the generic suites: the smallest legal
#: board, a small odd and even board, and the game's default.
SIZES = {
    name: sorted({4, 5, 6, boardlab.game_class(name).default_size})
    for name in boardlab.GAMES
}

#: Plies after which a random game is declared endless (a test failure).
PLY_CAP = 20_000


def play_random(game: boardlab.Game, rng: random.Random, cap: int = PLY_CAP) -> boardlab.Game:
    """Play uniformly random legal actions until the game ends."""
    for _ in range(cap):
        legal = game.legal_actions()
        if not legal:
            return game
        game.apply_action(rng.choice(legal))
    raise AssertionError(f"{game.name}: random game did not end within {cap} plies")


@pytest.fixture(params=boardlab.GAMES)
def game_name(request) -> str:
    return request.param
