"""A study's results as one JSON-able dict and as a text table.

``summarise(game, rows)`` groups the games by (engine, size, option values),
measures each group (:mod:`boardlab.study.metrics`) and, for every numeric
option that takes two or more values in the study, fits where the first
color's score crosses 50% (:mod:`boardlab.study.crossing`; for Yugo's komi,
the fair komi). The report and the docs are drawn from this dict alone.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import boardlab

from ..records.model import format_option
from .adequacy import adequacy, first_move_skew, sides
from .crossing import crossing, margin_crossing
from .metrics import group, metrics


def _swap_possible(game: str, size: int, options: dict[str, Any]) -> bool:
    """Whether the pie swap is a move here: asks the game, never its name."""
    g = boardlab.new_game(game, size, **options)
    swap = g.swap_action
    if swap is None:
        return False
    try:
        g.apply_action(g.legal_actions()[0])
    except IndexError:
        return False
    return g.is_legal_action(swap)


def first_move_points(game: str, size: int, options: dict[str, Any],
                      moves: list[str]) -> dict[str, list[int]]:
    """The points (index ``row * size + column``, a1 first) each opening move
    changes on the board: asked of the game by playing it, so any game's
    notation works, and a move that changes nothing maps to no point."""
    out = {}
    start = boardlab.new_game(game, size, **options)
    before = start.cells()
    for move in moves:
        g = start.copy()
        g.play(move)
        out[move] = [i for i, (a, b) in enumerate(zip(before, g.cells(), strict=True)) if a != b]
    return out


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def summarise(game: str, rows: list[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    groups = []
    boards: dict[tuple[str, int], list[int]] = defaultdict(list)  # first-move sides per board
    for (engine, size, opts), items in group(rows).items():
        options = dict(opts)
        m = metrics(items, swap_possible=_swap_possible(game, size, options))
        cells = first_move_points(game, size, options, list(m["FirstMoves"]))
        for move, row in m["FirstMoves"].items():
            row["points"] = cells[move]
        board = boardlab.new_game(game, size, **options).cells()
        if board == board[::-1]:  # only a symmetric opening board can show a skew
            boards[(engine, size)] += sides(items, cells, len(board))
        searched = adequacy(items)
        groups.append({"engine": engine, "size": size, "options": options, "metrics": m,
                       "adequacy": searched, "warnings": searched.pop("warnings")})
    for g in groups:
        skew, warning = first_move_skew(boards.get((g["engine"], g["size"]), []))
        if skew is not None:
            g["adequacy"]["FirstMoveSkew"] = skew
        if warning:
            g["warnings"].append(warning)
    crossings = []
    keys = sorted({k for g in groups for k, v in g["options"].items() if _numeric(v)})
    for key in keys:
        by: dict[tuple, dict[float, list[float]]] = defaultdict(lambda: defaultdict(list))
        margins: dict[tuple, dict[float, list[float]]] = defaultdict(lambda: defaultdict(list))
        for r in rows:
            v = r["options"].get(key)
            if not _numeric(v) or r["first_color_won"] is None:
                continue
            rest = tuple(sorted((k, x) for k, x in r["options"].items() if k != key))
            by[(r["engine"], r["size"], rest)][v].append(r["first_color_won"])
            if r.get("margin") is not None:
                margins[(r["engine"], r["size"], rest)][v].append(r["margin"])
        for (engine, size, rest), points in sorted(by.items(), key=lambda kv: repr(kv[0])):
            if len(points) >= 2:
                c = crossing(dict(points), seed=seed)
                fit = margin_crossing(dict(margins[(engine, size, rest)]), seed=seed) \
                    if len(margins[(engine, size, rest)]) >= 2 else None
                crossings.append({"engine": engine, "size": size, "option": key,
                                  "fixed": dict(rest), **c, "margin": fit})
    return {"game": game, "colors": list(boardlab.game_class(game).colors),
            "games": len(rows), "groups": groups, "crossings": crossings}


def _pct(r: dict[str, float] | None) -> str:
    if r is None:
        return "-"
    return f"{r['value']:.0%} [{r['low']:.0%},{r['high']:.0%}]"


def table(summary: dict[str, Any]) -> str:
    """One line per group, then each crossing (fixed width, for the terminal)."""
    head = (f"{'engine':10} {'size':>4} {'options':14} {'games':>5} {'1st player':>15} "
            f"{'1st color':>15} {'Balance':>7} {'draws':>6} {'swaps':>15} {'plies':>6} "
            f"{'turns':>6} {'branch':>7}")
    lines = [head]
    for g in summary["groups"]:
        m = g["metrics"]
        opts = " ".join(f"{k}={format_option(v)}" for k, v in g["options"].items()) or "-"
        bal = m.get("Balance")
        lines.append(
            f"{g['engine'][:10]:10} {g['size']:>4} {opts[:14]:14} {m['games']:>5} "
            f"{_pct(m.get('FirstPlayerScore')):>15} {_pct(m.get('FirstColorScore')):>15} "
            f"{(bal['value'] if bal else 0):>7.2f} {m.get('Drawishness', {}).get('value', 0):>6.0%} "
            f"{_pct(m.get('SwapRate')):>15} {m['DurationPlies']['mean']:>6.1f} "
            f"{m['DurationTurns']['mean']:>6.1f} "
            f"{m.get('BranchingFactor', {}).get('mean', 0):>7.1f}")
    for c in summary["crossings"]:
        where = f"{c['engine']} {c['size']}x{c['size']}"
        if c["crossing"] is None:
            lines.append(f"{where}: {c['option']}: {c['note']}")
            continue
        lines.append(f"{where}: the first color's score crosses 50% at {c['option']} = "
                     f"{c['crossing']:.2f} (95% bootstrap interval {c['low']:.2f} .. "
                     f"{c['high']:.2f}){'; ' + c['note'] if c['note'] else ''}")
        if c.get("margin"):
            m = c["margin"]
            lines.append(f"{where}: the mean score margin reaches 0 at {c['option']} = "
                         f"{m['crossing']:.2f} (95% bootstrap interval {m['low']:.2f} .. "
                         f"{m['high']:.2f})")
    return "\n".join(lines)


def _md_rate(r: dict[str, float] | None) -> str:
    return "-" if r is None else f"{r['value']:.2f} [{r['low']:.2f}, {r['high']:.2f}]"


def markdown(summary: dict[str, Any]) -> str:
    """The answers (:mod:`.verdict`), the metrics as a Markdown table, then
    the crossings and what the games were played with (for docs/balance.md)."""
    from .verdict import verdicts
    lines = [f"- **{v['text']}.** {v['evidence'][:1].upper()}{v['evidence'][1:]}."
             for v in verdicts(summary)]
    lines += ["", "| engine | size | options | games | first player | first color | Balance | "
              "draws | swap rate | plies mean (median) | turns | branching mean / max | "
              "LeadChange | DecisivenessThreshold | simulations per move at the start | "
              "warnings |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for g in summary["groups"]:
        m = g["metrics"]
        opts = " ".join(f"{k}={format_option(v)}" for k, v in g["options"].items()) or "-"
        bf = m.get("BranchingFactor")
        sims = g.get("adequacy", {}).get("OpeningSimulationsPerMove")
        warned = "; ".join(w.split(":")[0] for w in g.get("warnings", [])) or "-"
        lines.append(
            f"| {g['engine']} | {g['size']} | {opts} | {m['games']} | "
            f"{_md_rate(m.get('FirstPlayerScore'))} | {_md_rate(m.get('FirstColorScore'))} | "
            f"{_md_rate(m.get('Balance'))} | {_md_rate(m.get('Drawishness'))} | "
            f"{_md_rate(m.get('SwapRate'))} | {m['DurationPlies']['mean']:.1f} "
            f"({m['DurationPlies']['median']:g}) | {m['DurationTurns']['mean']:.1f} | "
            + (f"{bf['mean']:.1f} / {bf['max']}" if bf else "-") + " | "
            + (f"{m['LeadChange']['mean']:.3f}" if "LeadChange" in m else "-") + " | "
            + (f"{m['DecisivenessThreshold']['mean']:.2f}" if "DecisivenessThreshold" in m
               else "-") + " | "
            + (f"{sims['median']:.1f}" if sims else "-") + f" | {warned} |")
    for c in summary["crossings"]:
        if c["crossing"] is None:
            continue
        interp = "-" if c["interpolated"] is None else f"{c['interpolated']:.2f}"
        lines.append("")
        lines.append(f"{c['engine']} {c['size']}x{c['size']}: the first color's score "
                     f"crosses 50% at {c['option']} = **{c['crossing']:.2f}** (95% bootstrap "
                     f"interval {c['low']:.2f} .. {c['high']:.2f}; linear interpolation of "
                     f"the observed rates: {interp}){'; ' + c['note'] if c['note'] else ''}.")
        if c.get("margin"):
            m = c["margin"]
            lines.append("")
            lines.append(f"{c['engine']} {c['size']}x{c['size']}: the mean score margin "
                         f"(first color minus second) reaches 0 at {c['option']} = "
                         f"**{m['crossing']:.2f}** (95% bootstrap interval {m['low']:.2f} .. "
                         f"{m['high']:.2f}; a straight line through the mean margins "
                         f"{', '.join(f'{v:+.1f}' for v in m['means'])}).")
    for engine, rec in (summary.get("settings") or {}).items():
        lines.append("")
        lines.append(f"Played by boardlab {rec.get('boardlab')}: `{engine}` is "
                     f"`{json.dumps(rec.get('engine'), sort_keys=True)}`.")
    return "\n".join(lines)


def swapped_openings(summary: dict[str, Any], top: int = 8) -> str:
    """Per group with swaps: the most played first moves, their swap rate and score."""
    out = []
    for g in summary["groups"]:
        m = g["metrics"]
        if "SwapRate" not in m:
            continue
        opts = " ".join(f"{k}={format_option(v)}" for k, v in g["options"].items())
        swapped = [(mv, r) for mv, r in m["FirstMoves"].items() if r["swapped"]]
        swapped.sort(key=lambda t: (-t[1]["swapped"], t[0]))
        kept = sum(r["games"] for r in m["FirstMoves"].values()) - \
            sum(r["games"] for _, r in swapped)
        cells = ", ".join(f"{mv} {r['swapped']}/{r['games']}" for mv, r in swapped[:top]) \
            or "none"
        out.append(f"- {g['engine']} {g['size']}x{g['size']} {opts}: openings swapped "
                   f"(swaps/games): {cells}; {kept} games opened with moves never swapped")
    return "\n".join(out)
