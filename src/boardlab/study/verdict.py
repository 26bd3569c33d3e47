"""A study's answers in plain words, before the evidence.

For a configuration: is the game fair, and within what? The first player's
score ``s`` with its 95% Wilson interval [lo, hi] gives one of

* **fair within ±W%**: the interval holds 50%, so no edge larger than
  ``W = max(50 - lo, hi - 50)`` points can be seen (rounded up), and W is at
  most :data:`FAIR_WITHIN` (10); with a wider interval the games show **no
  clear edge**, which is not yet an answer (too few games to call it fair);
* **favours the first player** (lo above 50%) or **the second** (hi below);
* **not answered**: the engine was too weak for the board
  (:mod:`.adequacy`): a rate measured with it measures a tie-break.

For a numeric option swept over values (Yugo's komi), the fair value is
where the first color's score crosses 50% (:mod:`.crossing`): **pinned
down** when its 95% bootstrap interval lies within the values played,
otherwise the interval is given as what the games leave open.
"""

from __future__ import annotations

import math
from typing import Any

#: the widest "within" (in points of the first player's score) still called fair
FAIR_WITHIN = 10


def options_phrase(options: dict[str, Any]) -> str:
    """``{"pie": True}`` -> "with pie"; ``{"komi": 6}`` -> "komi 6"."""
    words = []
    for key, value in sorted(options.items()):
        if isinstance(value, bool):
            words.append(f"{'with' if value else 'without'} {key}")
        else:
            words.append(f"{key} {value}")
    return ", ".join(words)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def group_verdict(game: str, g: dict[str, Any]) -> dict[str, Any]:
    """The answer for one configuration: ``kind`` (fair, first, second,
    weak, unfinished), a one-line ``text`` and the ``evidence`` behind it."""
    where = f"{game} {g['size']}x{g['size']}"
    opts = options_phrase(g["options"])
    head = f"{opts.capitalize()}, {where}" if opts else where.capitalize()
    m = g["metrics"]
    s = m.get("FirstPlayerScore")
    games = m["games"]
    if g.get("warnings"):
        reason = g["warnings"][0].split(":")[0]
        return {"kind": "weak", "text": f"{head}: not answered: {g['engine']} is too weak "
                f"for this board ({reason})", "evidence": "; ".join(g["warnings"])}
    if s is None:
        return {"kind": "unfinished", "text": f"{head}: no game finished", "evidence": ""}
    evidence = (f"the first player scored {_pct(s['value'])} of {s['n']} games (95% interval "
                f"{_pct(s['low'])}-{_pct(s['high'])}), {g['engine']}, {games} games")
    if s["low"] > 0.5:
        return {"kind": "first", "text": f"{head} favours the first player",
                "evidence": evidence}
    if s["high"] < 0.5:
        return {"kind": "second", "text": f"{head} favours the second player",
                "evidence": evidence}
    within = math.ceil(100 * max(0.5 - s["low"], s["high"] - 0.5) - 1e-9)
    if within > FAIR_WITHIN:
        return {"kind": "unclear", "within": within,
                "text": f"{head} shows no clear edge, but an edge up to ±{within}% fits "
                        f"these {games} games",
                "evidence": evidence}
    return {"kind": "fair", "within": within,
            "text": f"{head} is fair within ±{within}%", "evidence": evidence}


def crossing_verdict(game: str, c: dict[str, Any]) -> dict[str, Any]:
    """The answer for a swept numeric option: where it makes the game even."""
    where = f"{game} {c['size']}x{c['size']}"
    fixed = options_phrase(c.get("fixed") or {})
    where = f"{where} ({fixed})" if fixed else where
    key = c["option"]
    values = c["values"]
    played = f"{c['engine']}, {sum(c['games'])} games at {key} {values[0]:g}..{values[-1]:g}"
    if c.get("crossing") is None or c.get("low") is None:
        return {"kind": "open", "text": f"{where.capitalize()}: these games do not show which "
                f"{key} is fair ({c.get('note') or 'no trend'})", "evidence": played}
    lo, hi = c["low"], c["high"]
    if values[0] <= lo and hi <= values[-1]:
        return {"kind": "pinned", "text": f"{where.capitalize()} is even at {key} "
                f"{c['crossing']:.1f} (95% interval {lo:.1f} to {hi:.1f})",
                "evidence": f"the first color's score crosses 50% there; {played}"}
    return {"kind": "open", "text": f"{where.capitalize()}: the fair {key} is not pinned down "
            f"(anywhere from {lo:.0f} to {hi:.0f} fits these games)",
            "evidence": f"the fitted crossing is {c['crossing']:.1f}; {played}"}


def _weak(game: str, engine: str, size: int, groups: list[dict[str, Any]],
          every: bool) -> dict[str, Any]:
    """One "not answered" for the configurations of a board whose engine was
    too weak (one line, not one per option value; ``every``: all of that
    board's configurations, so none need naming)."""
    reasons = sorted({w.split(":")[0] for g in groups for w in g["warnings"]})
    opts = [options_phrase(g["options"]) for g in groups]
    which = f" ({', '.join(o for o in opts if o)})" if any(opts) and not every else ""
    evidence = "; ".join(dict.fromkeys(w for g in groups for w in g["warnings"]))
    return {"kind": "weak", "text": f"{game.capitalize()} {size}x{size}{which}: not answered: "
            f"{engine} is too weak for this board ({', '.join(reasons)})",
            "evidence": evidence}


def verdicts(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The study's answers, most important first: "not answered" where the
    engine was too weak (one per board), a swept option's fair value (one per
    crossing, unless its board was not answered), then every other
    configuration not swept over (a komi study's per-komi rates are
    evidence, not answers)."""
    game = summary["game"]
    weak: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for g in summary["groups"]:
        if g.get("warnings"):
            weak.setdefault((g["engine"], g["size"]), []).append(g)
    boards: dict[tuple[str, int], int] = {}
    for g in summary["groups"]:
        boards[(g["engine"], g["size"])] = boards.get((g["engine"], g["size"]), 0) + 1
    out = [_weak(game, e, s, gs, len(gs) == boards[(e, s)]) for (e, s), gs in weak.items()]
    out += [crossing_verdict(game, c) for c in summary["crossings"]
            if (c["engine"], c["size"]) not in weak]
    swept = {c["option"] for c in summary["crossings"]}
    out += [group_verdict(game, g) for g in summary["groups"]
            if not g.get("warnings") and not swept & set(g["options"])]
    return out
