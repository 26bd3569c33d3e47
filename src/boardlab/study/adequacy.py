"""Whether the engine of a study is strong enough for the board to answer.

A search that has about as many simulations as the position has legal moves
tries each move once or twice: its choice is then close to a tie-break
among moves it barely saw, and a study played with it measures the
tie-break, not the game (robble 6x6 at ``mcts:50``: 50 simulations for 36
opening moves put nearly every first move on rows 1-2, the start of the
move list). Three measurable signs, each a warning in the study's summary:

``thin opening``
    the median, over games, of the opening search's simulations per legal
    move is below :data:`THIN` (2): most opening moves were tried at most
    once or twice.
``thin play``
    more than :data:`THIN_SHARE` of the positions that were searched had
    fewer than :data:`THIN` simulations per legal move.
``skewed first moves``
    the opening position is symmetric (its cells read the same backwards),
    so a real preference cannot favour one half of the board over its mirror
    image; yet the first moves fall in the half where the move list starts
    (points a1, b1, ...) significantly more often than half the time (the 99%
    Wilson interval of that share lies above 1/2, with at least
    :data:`MIN_SKEW_GAMES` games off the centre). This is the tie-break
    artifact itself, seen in the games whatever the budget. The games of one
    engine on one board size are pooled over the option values (the opening
    board is the same): one test per board, not one per configuration, so a
    komi sweep of seven values does not make seven chances of a false alarm.

The simulations per position are the root visits each move's search comment
states (stored per position in ``positions.visits``); a move played without
a search (a single legal move) does not count.
"""

from __future__ import annotations

import statistics
from typing import Any

from .metrics import wilson

#: fewer simulations than this many per legal move make a search "thin"
THIN = 2.0
#: a configuration with more than this share of thin searches gets a warning
THIN_SHARE = 0.25
#: the skew test needs at least this many first moves off the centre
MIN_SKEW_GAMES = 10
#: the z of the skew test's interval (99%: many configurations are tested)
Z99 = 2.5758293035489004


def search_sizes(positions: list[tuple[int, int | None]]) -> dict[str, Any]:
    """A game's (legal moves, root simulations) per ply -> the counts stored
    with its row: searched positions, thin ones, and the opening search."""
    searched = [(n, v) for n, v in positions if v is not None and n > 1]
    opening = positions[0] if positions else (None, None)
    return {"searched": len(searched),
            "thin": sum(v < THIN * n for n, v in searched),
            "opening_legal": opening[0], "opening_visits": opening[1]}


def _centre_side(points: list[int], cells: int) -> int | None:
    """-1: the move sits in the half of the board the move list starts with,
    +1: in the other half, None: on the centre (or it changed no point)."""
    if not points:
        return None
    mean = sum(points) / len(points)
    middle = (cells - 1) / 2
    return None if mean == middle else -1 if mean < middle else 1


def sides(rows: list[dict[str, Any]], first_points: dict[str, list[int]],
          cells: int) -> list[int]:
    """Per game off the centre: -1 if its first move lies in the half of the
    board where the move list starts, +1 if in the other half."""
    out = []
    for r in rows:
        side = _centre_side(first_points.get(r.get("first_move") or "", []), cells)
        if side is not None:
            out.append(side)
    return out


def first_move_skew(sides_: list[int]) -> tuple[dict[str, Any] | None, str | None]:
    """The share of first moves in the half where the move list starts, with
    its 99% interval, and the warning when that share is significantly
    above 1/2 (None: no games off the centre, or no warning)."""
    if not sides_:
        return None, None
    low_half = sum(s < 0 for s in sides_)
    lo, hi = wilson(low_half, len(sides_), Z99)
    skew = {"value": low_half / len(sides_), "low": lo, "high": hi, "n": len(sides_)}
    if len(sides_) >= MIN_SKEW_GAMES and lo > 0.5:
        return skew, (f"skewed first moves: {low_half} of {len(sides_)} games on this board "
                      "opened in the half where the move list starts (a symmetric start "
                      "gives about half): a tie-break artifact of a search too small for "
                      "the board")
    return skew, None


def adequacy(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The search-size figures of one configuration's games and the
    warnings they give (the skew test, pooled per board, is
    :func:`first_move_skew`)."""
    out: dict[str, Any] = {"warnings": []}
    searched = sum(r.get("searched") or 0 for r in rows)
    if searched:
        thin = sum(r.get("thin") or 0 for r in rows)
        out["ThinSearch"] = {"value": thin / searched, "positions": searched}
        if thin / searched > THIN_SHARE:
            out["warnings"].append(
                f"thin play: {thin / searched:.0%} of the searched positions had fewer than "
                f"{THIN:g} simulations per legal move")
    ratios = [r["opening_visits"] / r["opening_legal"] for r in rows
              if r.get("opening_visits") and r.get("opening_legal")]
    if ratios:
        median = statistics.median(ratios)
        legal = statistics.median(r["opening_legal"] for r in rows if r.get("opening_legal"))
        out["OpeningSimulationsPerMove"] = {"median": median, "legal": legal}
        if median < THIN:
            out["warnings"].append(
                f"thin opening: {median:.1f} simulations per legal move at the start "
                f"({legal:g} moves): the first move is close to a tie-break")
    return out
