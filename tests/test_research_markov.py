"""Observations are Markov where a learner needs it: in every game, the
planes (per observing color) and the observation string of a position fix
its legal actions and its result. Random games are replayed and every
observation seen is mapped to what it must determine; two histories that
look the same must agree. Robble's games are steered back to positions
already seen, so that its repetition rule (the third recording of a position
is a draw) is met often, not once in a hundred games."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.research import tensors

GAMES = {"implo": 120, "pilo": 120, "robble": 60, "vimbre": 120, "yugo": 120}


def _revisiting(game: boardlab.Game, legal: list[int], rng: random.Random) -> int:
    """A random legal action; half the time, one that leads back to a
    position already recorded when there is one (robble's repetitions)."""
    if game.name == "robble" and rng.random() < 0.5:
        back = []
        for a in legal:
            probe = game.copy()
            probe.apply_action(a)
            if probe.repetitions()[0] > 1 or probe.is_over:
                back.append(a)
        if back:
            return rng.choice(back)
    return rng.choice(legal)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_observation_fixes_the_legal_actions_and_the_result(name):
    rng = random.Random(7)
    seen: dict[tuple, tuple] = {}
    endings: set[str] = set()
    for _ in range(GAMES[name]):
        game = boardlab.new_game(name, 4)
        while True:
            legal = game.legal_actions()
            fate = (tuple(legal), game.outcome.winner if game.is_over else None)
            for player in (0, 1):
                for key in (("planes", player, tensors.observe(game, player).tobytes()),
                            ("string", player, tensors.observation_string(game, player))):
                    first = seen.setdefault(key, (fate, game.history))
                    assert first[0] == fate, (f"{key[0]} of color {player} look the same after "
                                              f"{first[1]} and {game.history}, but the legal "
                                              f"actions or results differ: {first[0]} / {fate}")
            if game.is_over:
                endings.add(game.outcome.termination.name)
                break
            game.apply_action(_revisiting(game, legal, rng))
    if name == "robble":  # the test met the rule it is about
        assert "REPETITION" in endings


def test_robble_planes_and_string_show_the_repetition_state():
    game = boardlab.new_game("robble", 4, pie=False)
    names = tensors.plane_names(game)

    def plane(name: str, player: int = 0):
        return tensors.observe(game, player)[names.index(name)]

    game.play("a1")
    assert plane("placed_last").min() == 1 and plane("placed_last", 1).max() == 0
    rng = random.Random(3)
    while not game.repetitions()[1]:  # steer back to seen positions until a placement would draw
        if game.is_over:
            game = boardlab.new_game("robble", 4, pie=False)
        game.apply_action(_revisiting(game, game.legal_actions(), rng))
    count, draws = game.repetitions()
    assert plane("repeats").min() == plane("repeats").max() == (count - 1) / 2
    marked = {int(p) for p in plane("draw_moves").reshape(-1).nonzero()[0]}
    assert marked == set(draws)
    for p in game.legal_actions():  # exactly the marked placements end the game in a draw now
        probe = game.copy()
        probe.apply_action(p)
        assert (probe.is_over and probe.outcome.winner == "draw") == (p in marked), p
    text = tensors.observation_string(game)
    assert text.startswith(game.position())
    assert f" seen={count} draws=" + ",".join(game.action_to_string(p) for p in draws) in text
