"""Match statistics: Elo difference with a 95% interval, and win-rate bounds.

Kept apart from the match runner so analysis code can use them on results
that came from anywhere (a records file, a database).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def elo_from_score(score: float) -> float:
    """Elo difference for an expected score in [0, 1] (+-inf at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass
class EloEstimate:
    wins: int
    losses: int
    draws: int
    score: float          # mean game score of A (win 1, draw 1/2)
    elo: float            # Elo difference A - B
    low: float            # 95% interval, Elo
    high: float
    stderr: float         # standard error of the mean score
    p_value: float        # two-sided, H0: score = 1/2 (normal approximation)
    p_sign: float = 1.0   # two-sided exact sign test on the decisive games

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def significant(self) -> bool:
        """A difference at the 5% level: the 95% interval excludes 0 *and*
        the exact sign test agrees. The normal approximation alone is no use
        when every game went one way (4 wins of 4 has no spread, so a
        zero-width interval; the sign test gives p = 0.125)."""
        return (self.low > 0 or self.high < 0) and self.p_sign < 0.05


def elo_estimate(wins: int, losses: int, draws: int) -> EloEstimate:
    """Elo difference with a 95% interval from W/L/D: a normal approximation
    on the mean game score (the per-game scores' standard deviation, divided
    by n). When every game had the same score there is no spread to use, so
    the interval is Wilson's for that score over n games (200 wins of 200: at
    least +687 Elo, not a meaningless +inf .. +inf) and ``p_value`` is the
    exact sign test's."""
    n = wins + losses + draws
    if n <= 0:
        raise ValueError("no games")
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    se = math.sqrt(var / n)
    p_sign = sign_test(wins, losses)
    if se > 0:
        low = max(0.0, s - Z95 * se)
        high = min(1.0, s + Z95 * se)
        p = math.erfc(abs(s - 0.5) / se / math.sqrt(2))
    else:
        low, high = _wilson_score_interval(s, n)
        p = p_sign
    return EloEstimate(wins, losses, draws, s, elo_from_score(s), elo_from_score(low),
                       elo_from_score(high), se, p, p_sign)


def chained_elo(steps: list[EloEstimate]) -> tuple[float, float, float]:
    """``(elo, low, high)`` of the top of a ladder of matches over its bottom
    (A of each step is B of the next): the sum of the steps' Elo differences,
    with a 95% interval from their standard errors carried into Elo (delta
    method: dElo/ds = 400 / (ln 10 * s * (1 - s))) and added as independent
    variances. It assumes Elo is transitive, which a direct match may not
    confirm. A step won (or lost) by every game makes the sum infinite."""
    if not steps:
        raise ValueError("no steps")
    total = sum(e.elo for e in steps)
    if math.isinf(total) or math.isnan(total):
        return total, total, total
    var = sum((400.0 / math.log(10) * e.stderr / (e.score * (1 - e.score))) ** 2
              for e in steps)
    half = Z95 * math.sqrt(var)
    return total, total - half, total + half


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact p-value of ``wins`` against ``losses`` when each
    decisive game is a fair coin (draws carry no information here)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = max(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and has a real
    width when every game went one way: 200 wins in 200 games gives a lower
    bound of 0.981, which is what "wins at least 95% of games" needs."""
    if n <= 0:
        raise ValueError("no games")
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n}")
    return _wilson_score_interval(successes / n, n, z)


def _wilson_score_interval(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # at p = 0 or 1 one bound is exactly 0 or 1; floating point only comes close
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return low, high


def format_elo(x: float) -> str:
    """``+449``, ``-12``, ``0`` (never ``-0``), ``+inf``."""
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    rounded = round(x)
    return "0" if rounded == 0 else f"{rounded:+d}"


__all__ = ["Z95", "EloEstimate", "chained_elo", "elo_estimate", "elo_from_score", "format_elo",
           "sign_test", "wilson_interval"]
