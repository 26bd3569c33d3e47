"""Who holds which color after a pie swap: one answer (boardlab.core.pie and
Game.colors_swapped / seat_of / color_of) for every front end."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import pie


@pytest.mark.rules("common-6")
@pytest.mark.parametrize("name", ["implo", "pilo", "robble"])
def test_a_swap_exchanges_the_seats_and_undo_takes_it_back(name):
    game = boardlab.new_game(name, 5)
    first, second = game.colors
    game.apply_action(game.legal_actions()[0])
    assert not game.colors_swapped
    assert [game.color_of(0), game.color_of(1)] == [first, second]
    while game.is_mid_turn:  # implo: the first turn may go on with resolutions
        game.apply_action(game.legal_actions()[0])
    game.play("swap")
    assert game.colors_swapped and game.to_move == second
    # the person who started with the first color now holds the second one
    assert game.seat_of(second) == 0 and game.seat_of(first) == 1
    assert [game.color_of(0), game.color_of(1)] == [second, first]
    assert pie.swapped(game.history)
    game.undo()
    assert not game.colors_swapped and game.seat_of(second) == 1


@pytest.mark.rules("common-6")
@pytest.mark.parametrize("name", list(boardlab.GAMES))
def test_the_game_and_the_move_texts_agree_through_random_games(name):
    rng = random.Random(7)
    for _ in range(3):
        game = boardlab.new_game(name, 5)
        while not game.is_over and len(game) < 60:
            game.apply_action(rng.choice(game.legal_actions()))
            swapped = pie.swapped(game.history)
            assert game.colors_swapped == swapped
            for seat in (0, 1):
                color = pie.color_of(game.colors, seat, swapped)
                assert game.color_of(seat) == color and game.seat_of(color) == seat


@pytest.mark.parametrize("name", ["vimbre", "yugo"])
def test_games_without_a_pie_rule_never_swap(name):
    game = boardlab.new_game(name, 5)
    assert game.swap_action is None and not game.colors_swapped
    assert game.seat_of(game.colors[1]) == 1


def test_the_pie_rule_switched_off_never_swaps():
    game = boardlab.new_game("robble", 5, pie=False)
    game.play("c3")
    assert not game.colors_swapped and game.seat_of("black") == 0


def test_swapping_twice_gives_the_colors_back():
    # move texts may hold several swaps (a record's variations, a future rule)
    assert not pie.swapped(["c3", "swap", "d4", "swap"])
    assert pie.swapped(["swap", "c3"]) and not pie.swapped([])


def test_bad_colors_and_seats_say_what_was_wrong():
    game = boardlab.new_game("pilo", 5)
    with pytest.raises(ValueError, match=r"'black' is not a color of this game \(blue, orange\)"):
        game.seat_of("black")
    with pytest.raises(ValueError, match="a seat is 0 or 1, got 2"):
        game.color_of(2)


@pytest.mark.parametrize("name", ["implo", "robble"])
def test_each_move_is_credited_to_the_seat_that_made_it(name):
    """pie.mover_seats (the web's undo requests) against the game's own
    answer at every ply: the swapper is the seat that held the color to move."""
    rng = random.Random(11)
    game = boardlab.new_game(name, 5)
    movers, expected = [], []
    game.apply_action(game.legal_actions()[0])
    movers.append(game.colors[0])
    expected.append(0)
    while game.is_mid_turn:
        movers.append(game.to_move)
        expected.append(0)
        game.apply_action(game.legal_actions()[0])
    while not game.is_over and len(game) < 30:
        mover = game.to_move
        expected.append(game.seat_of(mover))
        movers.append(mover)
        legal = game.legal_actions()
        game.apply_action(game.swap_action if game.swap_action in legal else rng.choice(legal))
    assert "swap" in game.history
    assert pie.mover_seats(game.colors, movers, game.history) == expected
    with pytest.raises(ValueError, match="1 movers for 2 moves"):
        pie.mover_seats(game.colors, movers[:1], game.history[:2])


@pytest.mark.rules("common-6")
@pytest.mark.parametrize("name", ["implo", "pilo", "robble"])
def test_a_move_is_played_for_the_color_its_mover_holds_afterwards(name):
    """pie.played_for, which searches and analyses use to read a move's value:
    a regular move is the mover's, a swap is the other color's, because the
    person who swaps holds that color afterwards."""
    game = boardlab.new_game(name, 5)
    game.apply_action(game.legal_actions()[0])
    while game.is_mid_turn:
        game.apply_action(game.legal_actions()[0])
    mover = game.current_player
    seat = game.seat_of(game.colors[mover])
    regular = next(a for a in game.legal_actions() if a != game.swap_action)
    assert pie.played_for(mover, regular, game.swap_action) == mover
    owned = pie.played_for(mover, game.swap_action, game.swap_action)
    assert owned == 1 - mover
    game.apply_action(game.swap_action)
    assert game.seat_of(game.colors[owned]) == seat
