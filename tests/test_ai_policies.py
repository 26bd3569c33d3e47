"""Playout policies and the one-move-win finder play only legal moves."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.ai import advice, policies, tactics
from boardlab.games import implo_search, vimbre_search

SIZES = {"implo": 5, "pilo": 5, "robble": 5, "vimbre": 7, "yugo": 5}


def recorded_playout(game, policy, seed):
    """Run ``policy`` on a copy while recording the actions it applies."""
    g = game.copy(history=False)
    played = []
    step = g.step

    def apply(action):  # the policies play through game.step (probes are taken back)
        played.append(action)
        step(action)

    g.step = apply
    result = policy(g, random.Random(seed), None, None, 10_000)
    return played, result


# every game with the default and the uniform policy, plus each game-specific
# policy (default or not) on its own game
POLICY_CASES = [(name, p) for name in boardlab.GAMES for p in ("auto", "random")] + \
    [(name, p) for name in boardlab.GAMES for p in advice.advice_for(name).playouts]


@pytest.mark.parametrize(("name", "policy_name"), POLICY_CASES)
def test_playouts_replay_through_the_checked_api(name, policy_name):
    policy = policies.policy_for(name, policy_name)
    for seed in range(4):
        game = boardlab.new_game(name, SIZES[name])
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 10)):
            game.apply_action(rng.choice(game.legal_actions()))
        played, result = recorded_playout(game, policy, seed)
        replay = game.copy()
        for action in played:
            replay.apply_action(action)  # raises on an illegal action
        assert replay.is_over
        assert result == replay.returns()


def test_vimbre_policy_reaches_the_pairs():
    game = boardlab.new_game("vimbre", 7)
    game.play("d4")
    rng = random.Random(1)
    actions = {vimbre_search.vimbre_pairs(game, rng) for _ in range(200)}
    assert all(a in set(game.legal_actions()) for a in actions)
    assert any(a >= game.n_points for a in actions)  # two-stone moves


def test_unknown_policy():
    with pytest.raises(ValueError, match="'vimbre' for robble"):
        policies.policy_for("robble", "vimbre")   # another game's policy
    with pytest.raises(ValueError, match="unknown playout policy 'smart'"):
        policies.policy_for("robble", "smart")


def test_the_search_advice_comes_from_each_games_plug_in():
    """The generic search names no game: what it knows of one comes from
    ``boardlab.games.<game>_search`` (here: the facts docs/ai.md measured)."""
    assert advice.advice_for("vimbre").default_playout == "vimbre"
    assert advice.advice_for("vimbre").node_moves is not None
    assert advice.advice_for("yugo").special is not None
    assert not advice.advice_for("yugo").scan_by_copy
    plain = advice.advice_for("robble")
    assert (plain.default_playout, plain.node_moves, plain.special, dict(plain.playouts)) == \
        ("random", None, None, {})
    assert set(policies.policy_names()) == {"random", "implo", "vimbre", "yugo"}


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_find_win_agrees_with_brute_force(name):
    rng = random.Random(7)
    checked = 0
    for _ in range(30):
        game = boardlab.new_game(name, SIZES[name])
        while not game.is_over:
            legal = game.legal_actions()
            me = game.current_player
            winners = []
            for a in legal:
                probe = game.copy(history=False)
                probe.apply_action(a)
                if probe.is_over and probe.returns()[me] > 0:
                    winners.append(a)
            found = tactics.find_win(game, legal)
            if winners:
                assert found in winners
                checked += 1
            else:
                assert found is None
            game.apply_action(rng.choice(legal))
            if checked > 6:
                return


def test_vimbre_candidates_are_legal_moves():
    rng = random.Random(3)
    for _ in range(10):
        game = boardlab.new_game("vimbre", 7)
        for _ in range(rng.randrange(1, 12)):
            if game.is_over:
                break
            game.apply_action(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        legal = game.legal_actions()
        cands = vimbre_search.candidates(game, legal, rng)
        assert cands and set(cands) <= set(legal)


def test_vimbre_candidates_hold_the_chain_points():
    # black c1-c4: c5 completes black's chain; for white, c5 is the block
    for mover in ("black", "white"):
        game = boardlab.from_position(f"vimbre 5 5/2X2/2X2/O1X1O/2X2 {mover} first=no")
        cands = vimbre_search.candidates(game, game.legal_actions(), random.Random(1), k=4)
        names = [game.action_to_string(a) for a in cands]
        assert any("c5" in m.split(",") for m in names), names


def test_implo_greedy_resolution_takes_the_largest_lead():
    """At every choice among resolutions in random 6x6 games, the policy's pick
    leaves the mover a marker-score lead no other resolution beats (the lead
    recomputed on copies through the checked API), and the probing leaves the
    game untouched."""
    checked = varied = 0
    for seed in range(30):
        rng = random.Random(seed)
        game = boardlab.new_game("implo", 6)
        while not game.is_over:
            legal = game.legal_actions()
            if len(legal) > 1 and game.is_mid_turn:
                me = game.current_player
                leads = {}
                for action in legal:
                    probe = game.copy()
                    probe.apply_action(action)
                    black, white = probe.marker_scores()
                    leads[action] = (black - white) if me == 0 else (white - black)
                before = game.position()
                pick = implo_search.greedy_resolution(game, list(legal), rng.random)
                assert game.position() == before
                assert leads[pick] == max(leads.values())
                checked += 1
                varied += len(set(leads.values())) > 1
            game.apply_action(rng.choice(legal))
    assert checked > 50 and varied > 5  # real choices, not only ties
