"""Where a rate crosses 50% as a numeric option varies: Yugo's fair komi.

The first color's score (win 1, draw 1/2, loss 0) is fitted against the
option's value ``x`` with a logistic curve ``P(x) = 1 / (1 + exp(-(a + b x)))``
by maximum likelihood (Newton's method, a tiny ridge on the slope so that a
perfectly separated sample still has a finite answer). The crossing is
``x* = -a / b``; its 95% interval is the 2.5 and 97.5 percentiles of ``x*``
over bootstrap samples (games resampled within each option value, a fixed
seed). The plain linear interpolation between the two option values whose
observed rates bracket 50% is given too: it needs no model.
"""

from __future__ import annotations

from typing import Any

import numpy as np

RIDGE = 1e-3
BOOTSTRAP = 4000


def fit_logistic(x: np.ndarray, y: np.ndarray, iterations: int = 50) -> tuple[float, float]:
    """(a, b) of the logistic curve through scores ``y`` (0..1) at values ``x``."""
    xm = float(x.mean())
    xc = x - xm
    a, b = 0.0, 0.0
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(a + b * xc)))
        w = p * (1 - p)
        ga = float(np.sum(y - p))
        gb = float(np.sum((y - p) * xc)) - RIDGE * b
        haa = float(np.sum(w)) + 1e-9
        hab = float(np.sum(w * xc))
        hbb = float(np.sum(w * xc * xc)) + RIDGE
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return a - b * xm, b


def fit_logistic_rows(x: np.ndarray, ys: np.ndarray, iterations: int = 50) -> np.ndarray:
    """:func:`fit_logistic` of every row of ``ys`` at once (the bootstrap's
    thousands of samples): the slopes ``b`` and intercepts ``a`` as a (rows, 2)
    array; a row whose Newton step stops (a singular Hessian) keeps its last
    values, as the scalar fit does."""
    xm = float(x.mean())
    xc = x - xm
    n = ys.shape[0]
    a, b = np.zeros(n), np.zeros(n)
    live = np.ones(n, dtype=bool)
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(a[:, None] + b[:, None] * xc)))
        w = p * (1 - p)
        r = ys - p
        ga = r.sum(axis=1)
        gb = (r * xc).sum(axis=1) - RIDGE * b
        haa = w.sum(axis=1) + 1e-9
        hab = (w * xc).sum(axis=1)
        hbb = (w * xc * xc).sum(axis=1) + RIDGE
        det = haa * hbb - hab * hab
        live &= det > 0
        safe = np.where(live, det, 1.0)
        da = np.where(live, (hbb * ga - hab * gb) / safe, 0.0)
        db = np.where(live, (haa * gb - hab * ga) / safe, 0.0)
        a, b = a + da, b + db
        live &= np.abs(da) + np.abs(db) >= 1e-10
        if not live.any():
            break
    return np.stack([a - b * xm, b], axis=1)


def _resamples(points: dict[float, list[float]], xs: list[float], seed: int,
               bootstrap: int) -> np.ndarray:
    """``bootstrap`` resamples (games drawn with replacement within each
    option value), one per row, in the seeded generator's order."""
    rng = np.random.default_rng(seed)
    groups = [np.asarray(points[v], dtype=float) for v in xs]
    return np.stack([np.concatenate([g[rng.integers(0, len(g), len(g))] for g in groups])
                     for _ in range(bootstrap)])


def interpolated(xs: list[float], rates: list[float]) -> float | None:
    """The first x where the observed rate, linearly interpolated, reaches 1/2."""
    for (x0, r0), (x1, r1) in zip(zip(xs, rates, strict=True), zip(xs[1:], rates[1:],
                                                                    strict=True), strict=False):
        if r0 == 0.5:
            return x0
        if (r0 - 0.5) * (r1 - 0.5) < 0:
            return x0 + (0.5 - r0) * (x1 - x0) / (r1 - r0)
    if rates and rates[-1] == 0.5:
        return xs[-1]
    return None


def crossing(points: dict[float, list[float]], seed: int = 0,
             bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
    """``points``: option value -> the first color's scores of its games."""
    xs = sorted(points)
    if len(xs) < 2:
        raise ValueError("a crossing needs at least two option values")
    x = np.concatenate([np.full(len(points[v]), float(v)) for v in xs])
    y = np.concatenate([np.asarray(points[v], dtype=float) for v in xs])
    a, b = fit_logistic(x, y)
    rates = [float(np.mean(points[v])) for v in xs]
    out: dict[str, Any] = {"values": xs, "rates": rates, "games": [len(points[v]) for v in xs],
                           "a": a, "b": b, "interpolated": interpolated(xs, rates)}
    if abs(b) < 1e-9:
        out.update(crossing=None, low=None, high=None, note="no trend: the rate does not "
                   "change with the option")
        return out
    out["crossing"] = -a / b
    fits = fit_logistic_rows(x, _resamples(points, xs, seed, bootstrap))
    kept = fits[np.abs(fits[:, 1]) > 1e-9]
    cuts = -kept[:, 0] / kept[:, 1]
    low, high = np.percentile(cuts, [2.5, 97.5]) if len(cuts) else (None, None)
    out["low"], out["high"] = (None if low is None else float(low),
                               None if high is None else float(high))
    inside = xs[0] <= out["crossing"] <= xs[-1]
    out["note"] = "" if inside else "the crossing lies outside the values played: extrapolated"
    return out


def margin_crossing(points: dict[float, list[float]], seed: int = 0,
                    bootstrap: int = BOOTSTRAP) -> dict[str, Any] | None:
    """Where the first color's mean score margin, fitted as a straight line in
    the option's value, reaches 0: for a komi, the komi that evens the final
    scores. A margin carries more than a win bit, so this interval is
    narrower than the win rate's; it assumes the margin moves linearly with
    the option. None when the option does not move the margin."""
    xs = sorted(points)
    if len(xs) < 2:
        return None
    x = np.concatenate([np.full(len(points[v]), float(v)) for v in xs])
    y = np.concatenate([np.asarray(points[v], dtype=float) for v in xs])

    def fit(ys: np.ndarray) -> float | None:
        slope, intercept = np.polyfit(x, ys, 1)
        return None if abs(slope) < 1e-9 else float(-intercept / slope)

    best = fit(y)
    if best is None:
        return None
    slope, intercept = np.polyfit(x, y, 1)
    # least squares of every resample at once: slope = cov(x, y) / var(x)
    ys = _resamples(points, xs, seed, bootstrap)
    xc = x - x.mean()
    slopes = (ys * xc).sum(axis=1) / (xc * xc).sum()
    intercepts = ys.mean(axis=1) - slopes * x.mean()
    flat = np.abs(slopes) < 1e-9
    cuts = -intercepts[~flat] / slopes[~flat]
    low, high = np.percentile(cuts, [2.5, 97.5])
    return {"crossing": best, "low": float(low), "high": float(high),
            "slope": float(slope), "intercept": float(intercept),
            "means": [float(np.mean(points[v])) for v in xs]}
