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


def wins_now(game: boardlab.Game) -> list[str]:
    """The mover's moves that end the game at once with the mover winning."""
    out = []
    for m in game.legal_moves():
        probe = game.copy()
        probe.play(m)
        if probe.is_over and probe.winner == game.to_move:
            out.append(m)
    return out


def one_winning_move(name: str, size: int, seed: int) -> tuple[boardlab.Game, str]:
    """A position from seeded random play where exactly one move wins at
    once (and more than ten are legal), with that move: what a search must
    find."""
    rng = random.Random(seed)
    for _ in range(200):
        game = boardlab.new_game(name, size)
        while not game.is_over:
            wins = wins_now(game)
            if len(wins) == 1 and len(game.legal_moves()) > 10:
                return game, wins[0]
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no such position found")


def returns_of(winner: int) -> list[float]:
    """The returns (black's, white's) of a kernel ``outcome``'s winner: 0 or
    1 a color, 2 a draw."""
    return [0.0, 0.0] if winner == 2 else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


@pytest.fixture(params=boardlab.GAMES)
def game_name(request) -> str:
    return request.param


def own_playout(game: boardlab.Game):
    """The game's informed playout, the state a search of ``game`` plays it
    on (the plug-in's own search state where it has one) and the module that
    scores that state."""
    from boardlab.fast.search import search_state
    state, kernel, adv, _ = search_state(game, "policy")
    return adv.playout, state, kernel
