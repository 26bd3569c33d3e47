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



def score_from_elo(elo: float) -> float:
    """The expected score of a side ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test, as engine-testing frameworks run
    them (fishtest, cutechess-cli): H0 "A is ``elo0`` stronger than B" against
    H1 "A is ``elo1`` stronger", with error rates ``alpha`` (accepting H1
    when H0 holds) and ``beta`` (the reverse). A match stops as soon as the
    log-likelihood ratio leaves ``(lower, upper)``, so a clear difference is
    settled in a few dozen games and a close one gets as many as it needs
    (up to the match's game limit)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)) or self.elo0 >= self.elo1:
            raise ValueError(f"SPRT needs finite elo0 < elo1, got {self.elo0} and {self.elo1}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"SPRT {name} must be in (0, 0.5), got {getattr(self, name)}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int, draws: int) -> float:
        """The log-likelihood ratio of H1 over H0 after these games: the
        generalised SPRT on the trinomial W/D/L (as fishtest computes it).
        Under each hypothesis the outcome probabilities are the maximum-
        likelihood ones whose mean score is that hypothesis's score; the
        ratio is then exact, not a normal approximation, so a short run of
        wins is not over-trusted (10 wins of 10 for elo0 0 / elo1 100 gives
        2.47, the binomial value). A count of zero is taken as 0.001, so the
        ratio exists from the first game."""
        games = wins + losses + draws
        if games == 0:
            return 0.0
        counts = [max(c, 1e-3) for c in (losses, draws, wins)]
        n = sum(counts)
        freq = [c / n for c in counts]
        p0 = _mle_with_mean(freq, score_from_elo(self.elo0))
        p1 = _mle_with_mean(freq, score_from_elo(self.elo1))
        return sum(c * math.log(b / a) for c, a, b in zip((losses, draws, wins), p0, p1, strict=True)
                   if c)

    def status(self, wins: int, losses: int, draws: int) -> str:
        """``"H1"`` (A is at least elo1 stronger, at the test's error rates),
        ``"H0"``, or ``"continue"``."""
        llr = self.llr(wins, losses, draws)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return "continue"

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """``ELO0,ELO1`` or ``ELO0,ELO1,ALPHA,BETA`` (``--sprt 300,500``)."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) not in (2, 4):
            raise ValueError(f"SPRT {text!r}: expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"SPRT {text!r}: not numbers") from None
        return cls(*values)

    def __str__(self) -> str:
        return f"SPRT elo0 {self.elo0:g}, elo1 {self.elo1:g}, alpha {self.alpha:g}, beta {self.beta:g}"


_OUTCOME_SCORES = (0.0, 0.5, 1.0)


def _mle_with_mean(freq: list[float], mean: float) -> list[float]:
    """The distribution over loss/draw/win closest (in likelihood) to the
    observed frequencies whose mean score is ``mean``: ``p_i = f_i / (1 +
    t (a_i - mean))`` with ``t`` the root of ``sum p_i (a_i - mean) = 0``,
    found by bisection on the interval that keeps every ``p_i`` positive."""
    d = [a - mean for a in _OUTCOME_SCORES]
    lo, hi = -1.0 / max(d) + 1e-12, 1.0 / -min(d) - 1e-12

    def g(t: float) -> float:
        return sum(f * x / (1 + t * x) for f, x in zip(freq, d, strict=True))

    for _ in range(200):  # g decreases in t
        mid = 0.5 * (lo + hi)
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    t = 0.5 * (lo + hi)
    p = [f / (1 + t * x) for f, x in zip(freq, d, strict=True)]
    total = sum(p)
    return [x / total for x in p]

def format_elo(x: float) -> str:
    """``+449``, ``-12``, ``0`` (never ``-0``), ``+inf``."""
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    rounded = round(x)
    return "0" if rounded == 0 else f"{rounded:+d}"


__all__ = ["SPRT", "Z95", "EloEstimate", "chained_elo", "elo_estimate", "elo_from_score", "format_elo",
           "score_from_elo", "sign_test", "wilson_interval"]
