"""A study's figures as small SVG drawings, from its summary alone.

Each figure is one small drawing (about 340 px wide at its natural size) so
that a page can lay several side by side on a desktop and one under another
on a phone without shrinking them: labels stay at 12-14 px wherever they are
shown. Text and axes use ``currentColor``, so the drawings follow the page's
colours (dark mode included); a saved file draws them black.

* :func:`score_figure`: the first player's score per configuration, with its
  95% interval and the 50% line (the answer's evidence);
* :func:`crossing_figure`: the first color's score against a swept numeric
  option, the fitted curve and where it crosses 50%; :func:`margin_figure`:
  the mean final margin per value with its 95% interval;
* :func:`length_figures`: one small histogram of game length per
  configuration (small multiples on a shared axis, not overlaid);
* :func:`size_figures`: score, length and branching against the board size
  (ticks at the sizes played only);
* :func:`heat_figure`: the first moves on the board, coloured by the first
  player's score there and paler the fewer games opened there (the count is
  written in each cell).

Every function returns ``(title, svg)``; :func:`figures` lists them all.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from typing import Any

from .verdict import options_phrase

FIRST = "#b35806"    # the first player's side of the diverging scale
SECOND = "#2166ac"   # the second player's
EVEN = "#f2f2f2"
FONT = 13


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


class Svg:
    """A drawing: elements appended as text, wrapped by :meth:`done`."""

    def __init__(self, width: float, height: float, label: str) -> None:
        self.w, self.h, self.label = width, height, label
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, s: Any, *, size: int = FONT, anchor: str = "middle",
             weight: str = "normal", rotate: float | None = None, fill: str = "currentColor",
             opacity: float = 1.0) -> None:
        rot = f" transform='rotate({rotate} {_num(x)} {_num(y)})'" if rotate else ""
        op = f" fill-opacity='{opacity:.2f}'" if opacity < 1 else ""
        self.add(f"<text x='{_num(x)}' y='{_num(y)}' font-size='{size}' text-anchor='{anchor}' "
                 f"font-weight='{weight}' fill='{fill}'{op}{rot}>{_esc(s)}</text>")

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "currentColor",
             width: float = 1.0, dash: str | None = None, opacity: float = 1.0) -> None:
        d = f" stroke-dasharray='{dash}'" if dash else ""
        op = f" stroke-opacity='{opacity:.2f}'" if opacity < 1 else ""
        self.add(f"<line x1='{_num(x1)}' y1='{_num(y1)}' x2='{_num(x2)}' y2='{_num(y2)}' "
                 f"stroke='{stroke}' stroke-width='{width}'{d}{op}/>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str, *, opacity: float = 1.0,
             stroke: str | None = None, title: str | None = None) -> None:
        st = f" stroke='{stroke}' stroke-width='0.5'" if stroke else ""
        op = f" fill-opacity='{opacity:.2f}'" if opacity < 1 else ""
        tip = f"<title>{_esc(title)}</title>" if title else ""
        self.add(f"<rect x='{_num(x)}' y='{_num(y)}' width='{_num(w)}' height='{_num(h)}' "
                 f"fill='{fill}'{op}{st}>{tip}</rect>")

    def dot(self, x: float, y: float, r: float = 4, fill: str = "currentColor",
            title: str | None = None) -> None:
        tip = f"<title>{_esc(title)}</title>" if title else ""
        self.add(f"<circle cx='{_num(x)}' cy='{_num(y)}' r='{r}' fill='{fill}'>{tip}</circle>")

    def path(self, points: Iterable[tuple[float, float]], stroke: str, width: float = 2) -> None:
        d = " ".join(f"{'M' if k == 0 else 'L'}{_num(x)},{_num(y)}"
                     for k, (x, y) in enumerate(points))
        self.add(f"<path d='{d}' fill='none' stroke='{stroke}' stroke-width='{width}'/>")

    def done(self) -> str:
        return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {_num(self.w)} "
                f"{_num(self.h)}' width='{_num(self.w)}' height='{_num(self.h)}' role='img' "
                f"aria-label='{_esc(self.label)}' font-family='system-ui, sans-serif'>"
                f"<title>{_esc(self.label)}</title>{''.join(self.parts)}</svg>")


def _scale(lo: float, hi: float, a: float, b: float):
    span = (hi - lo) or 1.0
    return lambda v: a + (v - lo) * (b - a) / span


def nice_ticks(lo: float, hi: float, count: int = 5, integer: bool = False) -> list[float]:
    """Round tick values covering [lo, hi]; whole numbers only with ``integer``."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    if integer:
        step = max(1, round(step))
    first = math.ceil(lo / step - 1e-9) * step
    out = []
    v = first
    while v <= hi + 1e-9:
        out.append(round(v, 10))
        v += step
    return out


def _axes(svg: Svg, x0: float, x1: float, y0: float, y1: float, xticks: Sequence[float],
          yticks: Sequence[float], sx, sy, *, xlabel: str, ylabel: str,
          xfmt=_num, yfmt=_num) -> None:
    """Axes on the box (x0, y0)-(x1, y1) (y0 the top), ticks and labels."""
    svg.line(x0, y1, x1, y1, opacity=0.6)
    svg.line(x0, y0, x0, y1, opacity=0.6)
    for t in xticks:
        svg.line(sx(t), y1, sx(t), y1 + 4, opacity=0.6)
        svg.text(sx(t), y1 + 17, xfmt(t), size=12)
    for t in yticks:
        svg.line(x0 - 4, sy(t), x0, sy(t), opacity=0.6)
        svg.line(x0, sy(t), x1, sy(t), opacity=0.12)
        svg.text(x0 - 7, sy(t) + 4, yfmt(t), size=12, anchor="end")
    svg.text((x0 + x1) / 2, y1 + 34, xlabel, size=FONT)
    svg.text(14, (y0 + y1) / 2, ylabel, size=FONT, rotate=-90)


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%"


def config_label(g: dict[str, Any], sizes: int, engines: int = 1) -> str:
    """A configuration's short name on a figure: its engine and board (when
    the study has several) and its options."""
    opts = options_phrase(g["options"])
    board = f"{g['size']}x{g['size']}" if sizes > 1 else ""
    engine = g["engine"] if engines > 1 else ""
    return " ".join(p for p in (engine, board, opts) if p) or g["engine"]


def sizes_and_engines(summary: dict[str, Any]) -> tuple[int, int]:
    """How many board sizes and engines the study has (what labels must say)."""
    return (len({g["size"] for g in summary["groups"]}),
            len({g["engine"] for g in summary["groups"]}))


# ---------------------------------------------------------------- the answer's evidence
def score_figure(summary: dict[str, Any]) -> tuple[str, str] | None:
    """The first player's score per configuration (dot) with its 95%
    interval (bar), against the 50% line: a forest plot, one row each."""
    groups = [g for g in summary["groups"] if g["metrics"].get("FirstPlayerScore")]
    if not groups:
        return None
    sizes, engines = sizes_and_engines(summary)
    labels = [config_label(g, sizes, engines) for g in groups]
    label_w, row = 14 + 7 * max(len(t) for t in labels), 30
    w, top = label_w + 232, 26
    h = top + row * len(groups) + 44
    x0, x1 = label_w, w - 22
    sx = _scale(0, 1, x0, x1)
    title = "first player's score, 95% interval"
    svg = Svg(w, h, f"{title}, by configuration")
    svg.rect(sx(0.45), top - 6, sx(0.55) - sx(0.45), row * len(groups) + 6, EVEN)
    svg.line(sx(0.5), top - 6, sx(0.5), top + row * len(groups), dash="4 3", opacity=0.7)
    for k, g in enumerate(groups):
        s = g["metrics"]["FirstPlayerScore"]
        y = top + row * k + row / 2
        weak = bool(g.get("warnings"))
        svg.text(x0 - 8, y + 4, labels[k], size=FONT, anchor="end",
                 opacity=0.55 if weak else 1)
        color = "#888" if weak else FIRST if s["low"] > 0.5 else SECOND if s["high"] < 0.5 \
            else "currentColor"
        svg.line(sx(s["low"]), y, sx(s["high"]), y, stroke=color, width=2.5)
        for end in (s["low"], s["high"]):
            svg.line(sx(end), y - 5, sx(end), y + 5, stroke=color, width=1.5)
        svg.dot(sx(s["value"]), y, 4.5, color, f"{_pct(s['value'])} of {s['n']} games, 95% "
                f"interval {_pct(s['low'])}-{_pct(s['high'])}" + (" (engine too weak)"
                                                                   if weak else ""))
    y1 = top + row * len(groups)
    svg.line(x0, y1, x1, y1, opacity=0.6)
    for t in (0, 0.25, 0.5, 0.75, 1):
        svg.line(sx(t), y1, sx(t), y1 + 4, opacity=0.6)
        svg.text(sx(t), y1 + 17, _pct(t), size=12)
    svg.text((x0 + x1) / 2, y1 + 36, "first player's score (50% = even)", size=FONT)
    return title, svg.done()


def crossing_figure(c: dict[str, Any], colors: Sequence[str]) -> tuple[str, str]:
    """The first color's score at each value of the swept option (dot, 95%
    interval), the fitted logistic curve and its 50% crossing with the
    crossing's 95% interval (shaded, clipped to the values played)."""
    from .metrics import wilson
    xs, rates, ns = c["values"], c["rates"], c["games"]
    w, h = 360, 250
    x0, x1, y0, y1 = 52, w - 14, 14, h - 46
    lo_x, hi_x = min(xs), max(xs)
    pad = (hi_x - lo_x) * 0.05 or 1
    sx = _scale(lo_x - pad, hi_x + pad, x0, x1)
    sy = _scale(0, 1, y1, y0)
    title = f"{colors[0]}'s score against {c['option']}, {c['size']}x{c['size']}"
    svg = Svg(w, h, title)
    svg.line(x0, sy(0.5), x1, sy(0.5), dash="4 3", opacity=0.7)
    if c.get("crossing") is not None and c.get("low") is not None:
        a, b = max(c["low"], lo_x - pad), min(c["high"], hi_x + pad)
        if a < b:
            svg.rect(sx(a), y0, sx(b) - sx(a), y1 - y0, FIRST, opacity=0.12,
                     title=f"95% interval of the crossing: {c['low']:.1f} to {c['high']:.1f}")
        if lo_x - pad <= c["crossing"] <= hi_x + pad:
            svg.line(sx(c["crossing"]), y0, sx(c["crossing"]), y1, stroke=FIRST, width=1.5)
    grid = [lo_x - pad + (hi_x - lo_x + 2 * pad) * k / 80 for k in range(81)]
    svg.path([(sx(x), sy(1 / (1 + math.exp(-(c["a"] + c["b"] * x))))) for x in grid], SECOND)
    for x, r, n in zip(xs, rates, ns, strict=True):
        lo, hi = wilson(r * n, n)
        svg.line(sx(x), sy(lo), sx(x), sy(hi), width=1.5)
        svg.dot(sx(x), sy(r), 4, title=f"{c['option']} {x}: {_pct(r)} of {n} games "
                f"(95% {_pct(lo)}-{_pct(hi)})")
    integer = all(float(x).is_integer() for x in xs)
    _axes(svg, x0, x1, y0, y1, nice_ticks(lo_x, hi_x, 6, integer), [0, 0.25, 0.5, 0.75, 1],
          sx, sy, xlabel=c["option"], ylabel=f"{colors[0]}'s score", yfmt=_pct)
    return title, svg.done()


def margin_figure(c: dict[str, Any], groups: list[dict[str, Any]],
                  colors: Sequence[str]) -> tuple[str, str] | None:
    """The mean final margin (first color minus second) at each value of the
    swept option with its 95% interval, and the straight-line fit."""
    m = c.get("margin")
    if not m:
        return None
    key = c["option"]
    pts = []
    for g in groups:
        sm = g["metrics"].get("ScoreMargin")
        if g["engine"] == c["engine"] and g["size"] == c["size"] and key in g["options"] \
                and sm and all(g["options"].get(k) == v for k, v in c["fixed"].items()):
            pts.append((g["options"][key], sm))
    if len(pts) < 2:
        return None
    pts.sort(key=lambda t: t[0])
    w, h = 360, 250
    x0, x1, y0, y1 = 52, w - 14, 14, h - 46
    xs = [x for x, _ in pts]
    lo_x, hi_x = xs[0], xs[-1]
    pad = (hi_x - lo_x) * 0.05 or 1
    lows = [sm["low"] for _, sm in pts] + [0.0]
    highs = [sm["high"] for _, sm in pts] + [0.0]
    ylo, yhi = min(lows), max(highs)
    ypad = (yhi - ylo) * 0.06 or 1
    sx = _scale(lo_x - pad, hi_x + pad, x0, x1)
    sy = _scale(ylo - ypad, yhi + ypad, y1, y0)
    title = f"final margin against {key}, {c['size']}x{c['size']}"
    svg = Svg(w, h, title)
    svg.line(x0, sy(0), x1, sy(0), dash="4 3", opacity=0.7)
    svg.path([(sx(x), sy(m["intercept"] + m["slope"] * x)) for x in (lo_x - pad, hi_x + pad)],
             SECOND)
    for x, sm in pts:
        svg.line(sx(x), sy(sm["low"]), sx(x), sy(sm["high"]), width=1.5)
        for end in (sm["low"], sm["high"]):
            svg.line(sx(x) - 4, sy(end), sx(x) + 4, sy(end), width=1.5)
        svg.dot(sx(x), sy(sm["value"]), 4, title=f"{key} {x}: mean {sm['value']:+.1f} points "
                f"(95% {sm['low']:+.1f} to {sm['high']:+.1f}), {sm['n']} games")
    integer = all(float(x).is_integer() for x in xs)
    _axes(svg, x0, x1, y0, y1, nice_ticks(lo_x, hi_x, 6, integer),
          nice_ticks(ylo, yhi, 5), sx, sy, xlabel=key,
          ylabel=f"{colors[0]} minus {colors[1]}")
    return title, svg.done()


# ---------------------------------------------------------------- lengths and sizes
def length_figures(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """One small histogram of game length (plies) per configuration, on one
    shared axis: small multiples, not overlaid curves."""
    groups = summary["groups"]
    if not groups:
        return []
    sizes, engines = sizes_and_engines(summary)
    lo = min(g["metrics"]["DurationPlies"]["histogram"]["edges"][0] for g in groups)
    hi = max(g["metrics"]["DurationPlies"]["histogram"]["edges"][-1] for g in groups)
    top = max(max(g["metrics"]["DurationPlies"]["histogram"]["counts"]) for g in groups)
    out = []
    for g in groups:
        hist = g["metrics"]["DurationPlies"]["histogram"]
        label = config_label(g, sizes, engines)
        w, h = 220, 140
        x0, x1, y0, y1 = 34, w - 10, 24, h - 40
        sx = _scale(lo, hi, x0, x1)
        sy = _scale(0, top, y1, y0)
        svg = Svg(w, h, f"game length, {label}")
        svg.text(x0, 15, label, size=FONT, anchor="start", weight="600")
        for c, a, b in zip(hist["counts"], hist["edges"], hist["edges"][1:], strict=False):
            if c:
                svg.rect(sx(a), sy(c), max(1.0, sx(b) - sx(a) - 0.5), y1 - sy(c), SECOND,
                         opacity=0.8, title=f"{a}-{b - 1} plies: {c} games")
        mean = g["metrics"]["DurationPlies"]["mean"]
        svg.line(sx(mean), y0, sx(mean), y1, stroke=FIRST, width=1.5)
        right = sx(mean) + 60 < x1
        svg.text(sx(mean) + (3 if right else -3), y0 + 10, f"mean {mean:.0f}", size=12,
                 anchor="start" if right else "end", fill=FIRST)
        _axes(svg, x0, x1, y0, y1, nice_ticks(lo, hi, 3, True), nice_ticks(0, top, 2, True),
              sx, sy, xlabel="plies", ylabel="")
        out.append((f"game length, {label}", svg.done()))
    return out


def size_figures(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """Score, mean length and mean branching against the board size, one
    small drawing each, a line per option setting; ticks at the sizes played."""
    lines: dict[str, list[tuple[int, dict]]] = {}
    for g in summary["groups"]:
        lines.setdefault(f"{g['engine']} {options_phrase(g['options'])}".strip(), []).append(
            (g["size"], g["metrics"]))
    if not any(len(v) > 1 for v in lines.values()):
        return []
    sizes = sorted({s for v in lines.values() for s, _ in v})
    palette = [SECOND, FIRST, "#4d9221", "#762a83", "#555"]
    out = []
    panels = [("first player's score", lambda m: m.get("FirstPlayerScore"), True),
              ("mean plies", lambda m: m["DurationPlies"]["mean"], False),
              ("mean legal moves", lambda m: (m.get("BranchingFactor") or {}).get("mean"), False)]
    for title, get, is_rate in panels:
        w, h = 240, 200
        x0, x1, y0, y1 = 46, w - 12, 26 + 16 * len(lines), h - 42
        values = [get(m) for v in lines.values() for _, m in v]
        if is_rate:
            ylo, yhi = 0.0, 1.0
        else:
            nums = [x for x in values if x is not None]
            if not nums:
                continue
            ylo, yhi = 0.0, max(nums) * 1.1
        pad = 0.5
        sx = _scale(sizes[0] - pad, sizes[-1] + pad, x0, x1)
        sy = _scale(ylo, yhi, y1, y0)
        svg = Svg(w, h, f"{title} by board size")
        svg.text(x0, 15, title, size=FONT, anchor="start", weight="600")
        if is_rate:
            svg.line(x0, sy(0.5), x1, sy(0.5), dash="4 3", opacity=0.7)
        for k, (label, pts) in enumerate(lines.items()):
            color = palette[k % len(palette)]
            svg.rect(x0, 22 + 16 * k, 10, 10, color)
            svg.text(x0 + 14, 31 + 16 * k, label, size=12, anchor="start")
            pts = sorted(pts, key=lambda t: t[0])
            xy = []
            for s, m in pts:
                v = get(m)
                if v is None:
                    continue
                dx = (k - (len(lines) - 1) / 2) * 0.08  # side by side, not on top
                if is_rate:
                    svg.line(sx(s + dx), sy(v["low"]), sx(s + dx), sy(v["high"]), stroke=color,
                             width=1.5)
                    v = v["value"]
                xy.append((sx(s + dx), sy(v)))
                svg.dot(sx(s + dx), sy(v), 3.5, color)
            if len(xy) > 1:
                svg.path(xy, color, 1.5)
        _axes(svg, x0, x1, y0, y1, sizes, [0, 0.5, 1] if is_rate else nice_ticks(ylo, yhi, 4),
              sx, sy, xlabel="board size", ylabel="", xfmt=lambda t: str(int(t)),
              yfmt=_pct if is_rate else _num)
        out.append((f"{title} by board size", svg.done()))
    return out


# ---------------------------------------------------------------- first moves
def _mix(a: str, b: str, t: float) -> str:
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb, strict=True))


def score_color(score: float) -> str:
    """The diverging colour of a first-player score: blue (second player
    won) through light grey (even) to brown (first player won)."""
    return _mix(EVEN, FIRST, 2 * score - 1) if score >= 0.5 else _mix(EVEN, SECOND, 1 - 2 * score)


def confidence(games: int) -> float:
    """How strongly a cell is coloured: n / (n + 2), so one game is pale (1/3)."""
    return games / (games + 2)


def heat_figure(g: dict[str, Any], sizes: int, engines: int = 1) -> tuple[str, str] | None:
    """The opening moves on the board: each cell holds the games that opened
    there (the number) and is coloured by the first player's score in them,
    paler the fewer they are; with a pie rule, swapped openings are ringed."""
    size = g["size"]
    counts = [[0] * size for _ in range(size)]
    scores = [[0.0] * size for _ in range(size)]
    finished = [[0] * size for _ in range(size)]
    swaps = [[0] * size for _ in range(size)]
    for row in g["metrics"]["FirstMoves"].values():
        for p in row["points"][:1]:
            r, c = divmod(p, size)
            counts[r][c] += row["games"]
            swaps[r][c] += row["swapped"]
            if row["first_player_score"] is not None:
                scores[r][c] += row["first_player_score"] * row["finished"]
                finished[r][c] += row["finished"]
    if not any(any(x) for x in counts):
        return None
    cell = max(22, min(36, 300 // size))
    x0, y0 = 24, 30
    w = x0 + cell * size + 10
    h = y0 + cell * size + 28
    label = config_label(g, sizes, engines)
    title = f"first moves, {label}"
    svg = Svg(w, h, title)
    svg.text(x0, 17, label, size=FONT, anchor="start", weight="600")
    swaps_counted = "SwapRate" in g["metrics"]
    for r in range(size):
        y = y0 + cell * (size - 1 - r)  # row 1 at the bottom
        svg.text(x0 - 6, y + cell / 2 + 4, r + 1, size=12, anchor="end")
        for c in range(size):
            x = x0 + cell * c
            n = counts[r][c]
            if not n:
                svg.rect(x, y, cell, cell, "none", stroke="#9994")
                continue
            score = scores[r][c] / finished[r][c] if finished[r][c] else 0.5
            tip = f"{chr(97 + c)}{r + 1}: {n} game{'s' if n > 1 else ''}, first player " \
                f"scored {_pct(score)}" + (
                f", swapped {swaps[r][c]}" if swaps_counted else "")
            svg.rect(x, y, cell, cell, score_color(score), opacity=confidence(n), stroke="#9994",
                     title=tip)
            svg.text(x + cell / 2, y + cell / 2 + 4, n, size=12 if n < 100 else 10,
                     fill="#111")
            if swaps_counted and swaps[r][c]:
                svg.add(f"<rect x='{_num(x + 2)}' y='{_num(y + 2)}' width='{cell - 4}' "
                        f"height='{cell - 4}' fill='none' stroke='#111' stroke-width='1.5' "
                        "stroke-dasharray='3 2'/>")
    for c in range(size):
        svg.text(x0 + cell * c + cell / 2, y0 + cell * size + 16, chr(97 + c), size=12)
    return title, svg.done()


def heat_legend(swaps_counted: bool) -> str:
    """The key of the first-move maps (one for the page, not one per map)."""
    w, h = 340, 84 if swaps_counted else 62
    svg = Svg(w, h, "key of the first-move maps")
    for k in range(11):
        svg.rect(10 + 20 * k, 6, 20, 14, score_color(k / 10))
    svg.text(10, 36, "second player won", size=12, anchor="start")
    svg.text(230, 36, "first player won", size=12, anchor="end")
    for k, n in enumerate((1, 2, 5, 20)):
        svg.rect(10 + 30 * k, 42, 26, 14, FIRST, opacity=confidence(n))
        svg.text(23 + 30 * k, 53, n, size=11, fill="#111")
    svg.text(132, 54, "games: paler when fewer", size=12, anchor="start")
    if swaps_counted:
        svg.add("<rect x='10' y='64' width='14' height='14' fill='none' stroke='currentColor' "
                "stroke-dasharray='3 2'/>")
        svg.text(30, 76, "an opening the second player swapped", size=12, anchor="start")
    return svg.done()


def figures(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """Every figure of a study, (title, svg), in the order a page shows them."""
    out: list[tuple[str, str]] = []
    colors = summary["colors"]
    for c in summary["crossings"]:
        out.append(crossing_figure(c, colors))
        made = margin_figure(c, summary["groups"], colors)
        if made:
            out.append(made)
    made = score_figure(summary)
    if made:
        out.append(made)
    out += size_figures(summary)
    out += length_figures(summary)
    sizes, engines = sizes_and_engines(summary)
    for g in summary["groups"]:
        made = heat_figure(g, sizes, engines)
        if made:
            out.append(made)
    return out
