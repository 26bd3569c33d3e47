"""Observation planes and board symmetries (boardlab.research.tensors, games/<game>/tensors.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.core import grid, symmetry
from boardlab.errors import OptionError
from boardlab.games import _planes
from boardlab.research import tensors


def plane(obs: np.ndarray, game: boardlab.Game, name: str) -> np.ndarray:
    return obs[tensors.plane_names(game).index(name)]


def at(obs_plane: np.ndarray, point: str, size: int) -> float:
    p = grid.point_index(size)[point]
    return float(obs_plane.reshape(-1)[p])


# ------------------------------------------------------------------ planes
def test_every_game_documents_its_planes(game_name):
    module = tensors.tensors_module(game_name)
    names = tensors.plane_names(game_name)
    assert len(set(names)) == len(names)
    assert all(meaning for _, meaning in module.PLANES)
    game = boardlab.new_game(game_name, 5)
    obs = tensors.observe(game)
    assert obs.shape == tensors.observation_shape(game) == (len(names), 5, 5)
    assert obs.dtype == np.float32
    low, high = tensors.plane_bounds(game)
    assert low.shape == high.shape == obs.shape


def test_robble_planes_are_mover_relative():
    game = boardlab.from_position("robble 5 O3O/1X3/X4/O1O1X/X2X1 white pie=yes swap=no")
    white = tensors.observe(game)          # white is to move
    black = tensors.observe(game, 0)
    assert at(plane(white, game, "ours"), "a5", 5) == 1 and at(plane(white, game, "theirs"), "b4", 5) == 1
    assert at(plane(black, game, "ours"), "b4", 5) == 1 and at(plane(black, game, "theirs"), "a5", 5) == 1
    assert plane(white, game, "to_move").min() == 1 and plane(black, game, "to_move").max() == 0
    assert plane(black, game, "first_color").min() == 1 and plane(white, game, "first_color").max() == 0
    assert plane(white, game, "ours").sum() == 4 and plane(white, game, "theirs").sum() == 5


def test_implo_planes_show_markers_and_pending_patches():
    game = boardlab.from_position("implo 5 3Ox/1X3/2X2/1OOO1/1X3 black pie=yes swap=no")
    obs = tensors.observe(game)
    assert at(plane(obs, game, "our_markers"), "e5", 5) == 1      # black to move; x is black's
    assert at(plane(tensors.observe(game, 1), game, "their_markers"), "e5", 5) == 1
    assert plane(obs, game, "their_markers").sum() == 0 and plane(obs, game, "patches").sum() == 0
    game = boardlab.new_game("implo", 4, pie=False)
    rng = random.Random(2)
    while not game.is_mid_turn:  # play on until a turn has a patch to resolve
        game.apply_action(rng.choice(game.legal_actions()))
    obs = tensors.observe(game)
    patch_points = {q for points, *_ in game._patches.values() for q in points}
    assert set(np.flatnonzero(plane(obs, game, "patches").reshape(-1))) == patch_points


def test_pilo_planes_hold_heights_and_blocks():
    game = boardlab.from_position("pilo 5 2o2/b1b2/b1o2/3#1/3o(2)b orange pie=yes swap=no passes=0 last=blue")
    obs = tensors.observe(game)   # orange's view
    assert at(plane(obs, game, "our_height"), "d1", 5) == 2 and at(plane(obs, game, "ours"), "d1", 5) == 1
    assert at(plane(obs, game, "their_height"), "e1", 5) == 1
    assert at(plane(obs, game, "blocks"), "d2", 5) == 1 and plane(obs, game, "blocks").sum() == 1
    low, high = tensors.plane_bounds(game)
    assert (obs >= low).all() and (obs <= high).all()


def test_yugo_planes_hold_kings_button_and_komi():
    game = boardlab.new_game("yugo", 5, komi=5)
    for move in ("c3", "b3", "d3", "button"):
        game.play(move)
    obs = tensors.observe(game)   # black to move; white took the button
    assert plane(obs, game, "their_button").min() == 1 and plane(obs, game, "our_button").max() == 0
    assert plane(obs, game, "komi").min() == pytest.approx(-5 / 25)
    assert plane(tensors.observe(game, 1), game, "komi").max() == pytest.approx(5 / 25)
    king = boardlab.from_position("yugo 5 5/5/1xO2/1oo2/5 black komi=0 button=- passes=0 phase=play "
                                  "marks=- rejected=no")
    view = tensors.observe(king, 1)
    assert at(plane(view, king, "our_kings"), "c3", 5) == 1 and at(plane(view, king, "our_pawns"), "c3", 5) == 0
    assert at(plane(view, king, "their_pawns"), "b3", 5) == 1


def test_vimbre_first_turn_plane():
    game = boardlab.new_game("vimbre", 5)
    assert plane(tensors.observe(game), game, "first_turn").min() == 1
    game.play("c3")
    assert plane(tensors.observe(game), game, "first_turn").max() == 0


def test_observe_refuses_bad_arguments():
    game = boardlab.new_game("robble", 5)
    with pytest.raises(OptionError, match="player must be 0 or 1"):
        tensors.observe(game, 2)
    with pytest.raises(OptionError, match="out must be float32"):
        tensors.observe(game, 0, out=np.zeros((5, 5, 4), np.float32))
    out = np.full(tensors.observation_shape(game), 7.0, np.float32)
    assert tensors.observe(game, 0, out=out) is out and out.max() == 1
    with pytest.raises(OptionError, match="unknown game"):
        tensors.plane_names("chess")


def test_batched_encode_equals_one_state_at_a_time():
    """The adapters encode one state; the same tables encode a batch in one call
    (the layout a compiled core's states will come in)."""
    from boardlab.games.robble import tensors as robble_tensors
    rng = random.Random(4)
    games = []
    for _ in range(6):
        game = boardlab.new_game("robble", 5)
        for _ in range(rng.randrange(12)):
            game.apply_action(rng.choice(game.legal_actions()))
        games.append(game)
    players = np.array([rng.randrange(2) for _ in games])
    cells = np.stack([np.frombuffer(g._board, np.uint8, 25) for g in games])
    scalars = np.array([[g.current_player == p, p == 0, "swap" in g.legal_moves()]
                        for g, p in zip(games, players, strict=True)], np.float32)
    batch = _planes.encode(robble_tensors.TABLE, cells, players, scalars)
    for i, game in enumerate(games):  # the table's planes and the first three scalars
        assert (batch[i].reshape(5, 5, 5) == tensors.observe(game, int(players[i]))[:5]).all()


# ------------------------------------------------------------------ symmetries
def test_symmetry_tables_form_the_dihedral_group():
    size = 5
    for k in symmetry.ALL:
        pm = symmetry.point_map(size, k)
        assert sorted(pm) == list(range(size * size))
        inv = symmetry.point_map(size, symmetry.inverse(k))
        assert all(inv[pm[p]] == p for p in range(size * size))
        dm = symmetry.direction_map(k)
        steps = grid.steps(size)
        for p in range(size * size):   # a step in direction d maps to a step in direction dm[d]
            for d in range(4):
                q = steps[d][p]
                if q >= 0:
                    assert steps[dm[d]][pm[p]] == pm[q]
    assert len({symmetry.point_map(4, k) for k in symmetry.ALL}) == 8
    with pytest.raises(ValueError, match="0..7"):
        symmetry.point_map(5, 8)


def _check_position(game: boardlab.Game, seen: dict[str, int]) -> None:
    mask = np.array(game.legal_action_mask())
    planes = [tensors.observe(game, p) for p in (0, 1)]
    for k in tensors.symmetries(game):
        image = tensors.transform_game(game, k)
        perm = tensors.action_permutation(game, k)
        assert np.array_equal(np.sort(perm), np.arange(game.num_distinct_actions))
        moved = np.zeros_like(mask)
        moved[perm] = mask
        assert np.array_equal(moved, np.array(image.legal_action_mask())), (k, game.position())
        for p in (0, 1):
            assert np.array_equal(tensors.transform_planes(planes[p], k), tensors.observe(image, p))
        seen["checks"] += 1
    if game.is_mid_turn:
        seen["mid_turn"] += 1
    if game.name == "implo" and any(choices for *_, choices in game._patches.values()):
        seen["tied_groups"] += 1
    if game.name == "yugo" and game._phase == 1 and not game._marks:
        seen["marking"] += 1


@pytest.mark.parametrize("size", [4, 5, 6])
def test_a_symmetric_position_has_the_permuted_legal_mask(game_name, size):
    """Over many random positions (every game, three sizes, the pie option both
    ways): for each symmetry that holds, the transformed position's legal mask
    is the permuted mask, and its planes are the transformed planes."""
    rng = random.Random(size * 101 + len(game_name))
    cls = boardlab.game_class(game_name)
    seen = {"checks": 0, "mid_turn": 0, "tied_groups": 0, "marking": 0}
    games = 8 if game_name != "vimbre" else 12
    for i in range(games):
        options = {"pie": bool(i % 2)} if "pie" in cls.option_defaults else {}
        game = cls(size, **options)
        while not game.is_over:
            marking = game.name == "yugo" and game._phase == 1
            if rng.random() < 0.35 or game.is_mid_turn or marking:
                _check_position(game, seen)
            game.apply_action(rng.choice(game.legal_actions()))
        _check_position(game, seen)
    assert seen["checks"] > 60
    if game_name == "implo":   # the position-dependent action images were exercised
        assert seen["mid_turn"] > 0


@pytest.mark.parametrize("name, rare", [("implo", "tied_groups"), ("yugo", "marking")])
def test_the_position_dependent_action_images_are_covered(name, rare):
    """Implo's ``@p/g`` (tied biggest groups) and yugo's marks are rare in random
    play: play random games until each has been checked a few times."""
    rng = random.Random(11)
    seen = {"checks": 0, "mid_turn": 0, "tied_groups": 0, "marking": 0}
    for _ in range(500):
        game = boardlab.new_game(name, 5)
        while not game.is_over:
            if game.is_mid_turn or (name == "yugo" and game._phase == 1):
                _check_position(game, seen)
            game.apply_action(rng.choice(game.legal_actions()))
        if seen[rare] >= 3:
            break
    assert seen[rare] >= 3


def test_vimbre_keeps_only_the_four_symmetries_that_keep_its_goals():
    game = boardlab.new_game("vimbre", 5)
    game.play("a1")
    assert tensors.symmetries(game) == symmetry.AXIS_PRESERVING
    with pytest.raises(OptionError, match="symmetry 4 does not hold"):
        tensors.transform_game(game, 4)
    # a transposition would hand black's winning chain to white: not a symmetry
    won = boardlab.new_game("vimbre", 4)
    for move in ("a1", "b1,d1", "a2", "b2,d2", "a3", "b3,d3", "a4"):
        won.play(move)
    assert won.winner == "black"


def test_yugo_proposal_in_progress_keeps_only_the_identity():
    game = boardlab.from_position("yugo 5 5/5/1xo2/1xo2/5 black komi=0 button=white passes=0 "
                                  "phase=mark marks=- rejected=no")
    assert tensors.symmetries(game) == symmetry.ALL
    game.play(game.legal_moves()[0])   # the first mark
    assert tensors.symmetries(game) == (0,)
    with pytest.raises(OptionError, match="does not hold"):
        tensors.action_permutation(game, 1)


def test_transform_planes_takes_batches():
    rng = np.random.default_rng(0)
    batch = rng.random((3, 2, 5, 5)).astype(np.float32)
    for k in symmetry.ALL:
        out = tensors.transform_planes(batch, k)
        for i in range(3):
            assert np.array_equal(out[i], tensors.transform_planes(batch[i], k))
        back = tensors.transform_planes(out, symmetry.inverse(k))
        assert np.array_equal(back, batch)
