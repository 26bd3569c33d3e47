"""The resign-adjudication rule, on hand-built move lists and real records."""

from __future__ import annotations

from boardlab import records
from boardlab.ai import match
from boardlab.ai.adjudication import Move, engine_moves, first_call


def moves(*values, colors=("black", "white")):
    """Alternating moves with the given values (None: not searched, "!": proven)."""
    out = []
    for i, v in enumerate(values):
        color = colors[i % len(colors)]
        proven = v == "!"
        value = 1.0 if proven else v
        out.append(Move(i + 1, color, value, proven, 0.5))
    return out


def test_both_engines_must_agree_k_times():
    # black sure of winning from move 1, white only agrees from move 4 on
    ms = moves(0.99, -0.5, 0.99, -0.99, 0.99, -0.99, 0.99, -0.99)
    assert first_call(ms, 0.95, 2) == (6, "black")   # white's 2nd agreeing move is ply 6
    assert first_call(ms, 0.95, 3) == (8, "black")
    assert first_call(ms, 0.995, 2) is None            # never that sure


def test_a_doubt_restarts_the_count():
    ms = moves(0.99, -0.99, 0.99, -0.99, 0.5, -0.99, 0.99, -0.99, 0.99, -0.99, 0.99)
    assert first_call(ms, 0.95, 2) == (4, "black")
    assert first_call(ms, 0.95, 3) == (11, "black")   # black's ply-5 doubt: plies 7, 9, 11


def test_white_can_be_the_winner_and_unsearched_moves_do_not_count():
    ms = moves(-0.96, 0.97, None, 0.99, -0.97, 0.98)
    assert first_call(ms, 0.95, 2) == (5, "white")


def test_a_proven_win_fires_at_once():
    ms = moves(0.1, -0.1, "!", -0.2)
    assert first_call(ms, 0.95, 5) == (3, "black")


def test_one_commenting_engine_decides_alone():
    ms = [Move(p, "white", 0.99, False, 1.0) for p in (2, 4, 6)]
    assert first_call(ms, 0.95, 3) == (6, "white")
    assert first_call(ms, 0.95, 4) is None


def test_engine_moves_from_a_match_record(tmp_path):
    out = str(tmp_path / "m.rec")
    match.run_match("robble", "mcts:30", "mcts:10", 2, size=5, seed=1, out=out)
    for rec in records.parse_all(open(out, encoding="utf-8").read()):
        ms = engine_moves(rec)
        assert [m.ply for m in ms] == list(range(1, len(rec.moves) + 1))  # both comment
        replay = rec.game.copy()
        while len(replay):
            replay.undo()
        for m, move in zip(ms, rec.moves, strict=True):
            other = replay.colors[1 - replay.colors.index(replay.to_move)]
            assert m.color == (other if move == "swap" else replay.to_move)
            replay.play(move)
        assert all(m.value is None or -1 <= m.value <= 1 for m in ms)


def test_a_swaps_value_belongs_to_the_color_the_swapper_takes():
    """MCTS values a swap for the swapper's new color (black, the stone on
    c3), so that is the color its comment speaks for; white, now the first
    player, moves next."""
    text = ('[Game "robble"]\n[Size "5"]\n[Result "*"]\n\n'
            "1. c3 {-0.10/10 0.01s} 2. swap {+0.30/10 0.01s} 3. c2 {+0.20/10 0.01s} *\n")
    rec = records.parse_all(text)[0]
    assert [(m.ply, m.color, m.value) for m in engine_moves(rec)] == [
        (1, "black", -0.1), (2, "black", 0.3), (3, "white", 0.2)]
