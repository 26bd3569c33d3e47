"""Robble's move priors (``boardlab.games.robble.search``): the local codes say
what is on the board around a placement, and the fitted weights are tied
across the board's symmetries."""

from __future__ import annotations

import random

import numpy as np

import boardlab
from boardlab.fast.kernels import kernel
from boardlab.games.robble.search import move_codes, prior

# the kernel's direction order: (d col, d row), a quarter turn apart
STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def _at(board, size, r, c, mine):
    """0 off the board, 1 empty, 2 the mover's stone, 3 the other's."""
    if not (0 <= r < size and 0 <= c < size):
        return 0
    v = board[r * size + c]
    return 1 if v == 0 else (2 if v == mine else 3)


def test_codes_read_the_points_the_rules_act_on():
    """Over random positions, each direction's part of the cross code is the
    neighbour's and the point beyond's state, and the diagonal code the four
    diagonal points' (read here from the Python engine's board by rows and
    columns)."""
    rng = random.Random(3)
    k = kernel("robble")
    checked = 0
    for _ in range(40):
        size = rng.choice((5, 6, 7))
        game = boardlab.new_game("robble", size=size, pie=False)
        for _ in range(rng.randrange(0, size * size)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            continue
        state = k.from_game(game)
        mine = game.current_player + 1
        board = game._board
        for p in game.legal_actions():
            r, c = divmod(p, size)
            cross, diag = move_codes(state, size, p, mine)
            want_cross = want_diag = 0
            for d, (dc, dr) in enumerate(STEPS):
                a = _at(board, size, r + dr, c + dc, mine)
                s = 0 if a == 0 else 1 + 4 * (a - 1) + _at(board, size, r + 2 * dr, c + 2 * dc, mine)
                want_cross = want_cross * 13 + s
                ec, er = STEPS[(d + 1) % 4]
                g = _at(board, size, r + dr + er, c + dc + ec, mine) if a else 0
                want_diag = want_diag * 4 + g
            assert (cross, diag) == (want_cross, want_diag), (game.position(), p)
            checked += 1
    assert checked > 500


def test_the_prior_is_the_same_for_symmetric_moves():
    """The weights are tied across rotations and reflections: on the empty
    board every corner scores alike, and every edge midpoint."""
    k = kernel("robble")
    game = boardlab.new_game("robble", size=7)
    state = k.from_game(game)
    actions = np.array(game.legal_actions(), dtype=np.int64)
    out = np.zeros(len(actions))
    prior(state, actions, len(actions), out)
    assert np.all(np.isfinite(out))
    value = dict(zip(actions.tolist(), out.tolist(), strict=True))
    corners = [value[p] for p in (0, 6, 42, 48)]
    mids = [value[p] for p in (3, 21, 27, 45)]
    assert max(corners) - min(corners) < 1e-9 and max(mids) - min(mids) < 1e-9
    assert abs(value[0] - value[24]) > 1e-6  # fitted: a corner is not the centre
