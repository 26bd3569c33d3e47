"""Balance metrics of a study's games, per (engine, size, option values).

Names follow Ludii's evaluation metrics where one exists. Every rate comes
with a 95% Wilson score interval, which stays inside [0, 1] and keeps its
coverage for small samples and rates near 0 or 1 (where the normal
approximation fails):

* first-player score: the seat that moved first (after a pie swap it holds
  the second color), wins + draws/2 over games; and the first color's score.
* Balance: 1 - |W1 - W2| / N = 1 - |2 s - 1| for the first player's score s
  (its interval is s's mapped through that function).
* Drawishness: draws / N.  Completion: games the rules ended / N.
* Duration: plies and turns (mean, median, histogram of plies).
* BranchingFactor: legal moves per position (mean of the games' means; max).
* LeadChange: how often the side the engine thinks ahead changes, per
  evaluated position; DecisivenessThreshold: the highest win probability the
  engine gave the eventual loser (mean over decisive games).
* ScoreMargin: the first color's final score minus the second's, where the
  game keeps a score (mean with a 95% normal interval, median).
* pie-swap rate, and per first move how often it was swapped and won.

Rows are the dicts :meth:`boardlab.study.storage.Store.games` returns, so the
metrics of any hand-built list can be checked by hand.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate ``successes / n`` (draws may count half)."""
    if n <= 0:
        raise ValueError("a rate needs at least one trial")
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: float, n: int) -> dict[str, float]:
    low, high = wilson(successes, n)
    return {"value": successes / n, "low": low, "high": high, "n": n}


def balance_of(score: dict[str, float]) -> dict[str, float]:
    """Balance 1 - |2s - 1| with the interval of the score ``s`` mapped through it."""
    def f(s: float) -> float:
        return 1 - abs(2 * s - 1)
    lo, hi = score["low"], score["high"]
    ends = sorted((f(lo), f(hi)))
    high = 1.0 if lo <= 0.5 <= hi else ends[1]
    return {"value": f(score["value"]), "low": ends[0], "high": high, "n": score["n"]}


def mean_interval(values: list[float]) -> dict[str, float]:
    """Mean with a 95% normal interval (the first color's score minus the second's)."""
    n = len(values)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return {"value": mean, "low": mean - half, "high": mean + half, "n": n,
            "median": statistics.median(values)}


def histogram(values: list[int], bins: int = 20) -> dict[str, list]:
    """Counts of ``values`` in up to ``bins`` equal integer-aligned bins."""
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    edges = list(range(lo, hi + width + 1, width))
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[(v - lo) // width] += 1
    return {"edges": edges, "counts": counts}


def group_key(row: dict[str, Any]) -> tuple:
    return row["engine"], row["size"], tuple(sorted(row["options"].items()))


def group(rows: list[dict[str, Any]]) -> dict[tuple, list[dict[str, Any]]]:
    out: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        out[group_key(r)].append(r)
    return dict(sorted(out.items(), key=lambda kv: _order(kv[0])))


def _order(key: tuple) -> tuple:
    """Engines, then sizes, then option values in their natural order (komi 2 before 10)."""
    engine, size, opts = key
    return engine, size, tuple((k, (type(v).__name__, v)) for k, v in opts)


def metrics(rows: list[dict[str, Any]], *, swap_possible: bool) -> dict[str, Any]:
    """Every metric of one configuration's games (see the module docstring)."""
    if not rows:
        raise ValueError("no games to measure")
    n = len(rows)
    finished = [r for r in rows if r["winner"] is not None]
    out: dict[str, Any] = {"games": n, "finished": len(finished)}
    out["Completion"] = rate(len(finished), n)
    if finished:
        m = len(finished)
        draws = sum(r["winner"] == "draw" for r in finished)
        first = rate(sum(r["first_mover_won"] for r in finished), m)
        out["FirstPlayerScore"] = first
        out["FirstColorScore"] = rate(sum(r["first_color_won"] for r in finished), m)
        out["Balance"] = balance_of(first)
        out["Drawishness"] = rate(draws, m)
    plies = [r["plies"] for r in rows]
    turns = [r["turns"] for r in rows]
    out["DurationPlies"] = {"mean": statistics.fmean(plies), "median": statistics.median(plies),
                            "min": min(plies), "max": max(plies),
                            "histogram": histogram(plies)}
    out["DurationTurns"] = {"mean": statistics.fmean(turns), "median": statistics.median(turns),
                            "min": min(turns), "max": max(turns)}
    margins = [r["margin"] for r in rows if r.get("margin") is not None]
    if margins:
        out["ScoreMargin"] = mean_interval(margins)
    means = [r["branching_mean"] for r in rows if r["branching_mean"] is not None]
    maxes = [r["branching_max"] for r in rows if r["branching_max"] is not None]
    if means:
        out["BranchingFactor"] = {"mean": statistics.fmean(means), "max": max(maxes)}
    evaluated = [r for r in rows if r["evaluated"] and r["lead_changes"] is not None]
    if evaluated:
        per = [r["lead_changes"] / max(1, r["evaluated"] - 1) for r in evaluated]
        out["LeadChange"] = {"mean": statistics.fmean(per), "games": len(per)}
        losers = [r["loser_max"] for r in evaluated if r["loser_max"] is not None]
        if losers:
            out["DecisivenessThreshold"] = {"mean": statistics.fmean(losers),
                                            "max": max(losers), "games": len(losers)}
    if swap_possible:
        out["SwapRate"] = rate(sum(r["swapped"] for r in rows), n)
    out["FirstMoves"] = first_moves(rows)
    return out


def first_moves(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per opening move: games, swaps, and the first player's score."""
    table: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["first_move"] is None:
            continue
        t = table.setdefault(r["first_move"], {"games": 0, "swapped": 0, "score": 0.0,
                                               "finished": 0})
        t["games"] += 1
        t["swapped"] += int(r["swapped"])
        if r["first_mover_won"] is not None:
            t["score"] += r["first_mover_won"]
            t["finished"] += 1
    for t in table.values():
        t["swap_rate"] = t["swapped"] / t["games"]
        t["first_player_score"] = t["score"] / t["finished"] if t["finished"] else None
    return dict(sorted(table.items(), key=lambda kv: (-kv[1]["games"], kv[0])))
