"""Resign adjudication, measured on records before it is ever applied.

Engine-testing tools end hopeless games early to save time. boardlab's match
runner does not (yet): this module states the rule and reads, from a match
record played to the end, where the rule would have ended the game and
whether it would have called it right (``bench/adjudication.py`` prints the
figures for the acceptance records).

The data: every MCTS move in a match record carries the engine's comment
``{+0.62/640 0.41s}`` (:mod:`boardlab.ai.comments`: expected return for the
mover, simulations, time; ``+1.00!`` marks a proven win). A
rule ``(threshold T, moves K)`` fires at the first ply where, over the last
``K`` commented moves of *each* engine that comments, the would-be winner
valued its moves at ``>= T`` and the would-be loser at ``<= -T``; a proven
win fires at once. Against ``random`` (no comments) only the commenting
engine's own values count.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import records
from .comments import parse_comment


@dataclass(frozen=True)
class Move:
    """One commented engine move of a record."""

    ply: int             # 1 = the first move
    color: str           # the color that made it (a swap: the color the swapper takes)
    value: float | None  # expected return for that color (None: not searched)
    proven: bool
    seconds: float


def engine_moves(rec: records.Record) -> list[Move]:
    """The record's moves that carry an engine comment, in order (comments in
    another form are skipped)."""
    game = rec.game
    replay = type(game)(rec.size, **rec.options)
    colors = []  # the color each move's value is for: the mover's seat's color after it
    for action in game.action_history:
        seat = replay.seat_of(replay.to_move)
        replay.apply_action(action)
        colors.append(replay.color_of(seat))  # a swapper's value is for the color it takes
    out = []
    for ply, text in sorted(rec.comments.items()):
        said = parse_comment(text)
        if said is None or not 1 <= ply <= len(colors):
            continue
        color = colors[ply - 1]
        out.append(Move(ply, color, said.value, said.proven, said.seconds))
    return out


def first_call(moves: list[Move], threshold: float, k: int) -> tuple[int, str] | None:
    """``(ply, winner)``: where the rule ``(threshold, k)`` would end the game
    and for whom, or None when it never fires."""
    colors = sorted({m.color for m in moves})
    recent: dict[str, list[float]] = {c: [] for c in colors}
    for m in moves:
        if m.proven:
            return m.ply, m.color
        if m.value is None:
            continue
        recent[m.color] = (recent[m.color] + [m.value])[-k:]
        for winner in colors:
            if all(_decided(recent[c], threshold, k, c == winner) for c in colors):
                return m.ply, winner
    return None


def _decided(values: list[float], threshold: float, k: int, winning: bool) -> bool:
    if len(values) < k:
        return False
    if winning:
        return all(v >= threshold for v in values)
    return all(v <= -threshold for v in values)
