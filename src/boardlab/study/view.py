"""A study as HTML: the answers first, then the evidence, then every number.

One renderer for the web app's Studies page and the self-contained
``report.html`` a study folder gets (:mod:`.report`): the verdicts
(:mod:`.verdict`), with any warning that the engine was too weak; the
figures (:mod:`.figures`, inline SVG laid out to wrap, so a phone shows them
one under another at full size); the metrics table, in a box that scrolls
sideways instead of widening the page; what the games were played with.
"""

from __future__ import annotations

import html
import json
from typing import Any

from ..records.model import format_option
from . import figures as fig
from .verdict import options_phrase, verdicts

#: The page's own rules; the app's style.css gives the rest (report.html
#: carries :data:`STANDALONE_CSS` too).
CSS = """
.study { margin: 0 0 28px; }
.study h2 { font-size: 1.25rem; margin: 18px 0 4px; }
.study h3 { font-size: 1.05rem; margin: 18px 0 6px; }
.study .facts { color: var(--muted); margin: 0 0 8px; }
.verdicts { list-style: none; padding: 0; margin: 8px 0 12px; max-width: 760px; }
.verdicts li { background: var(--card); border: 1px solid var(--line);
  border-left: 5px solid var(--muted); border-radius: 6px; padding: 8px 12px; margin: 6px 0; }
.verdicts li strong { font-size: 1.05rem; }
.verdicts li .evidence { display: block; color: var(--muted); font-size: .92rem; margin-top: 2px; }
.verdicts .v-fair, .verdicts .v-pinned { border-left-color: var(--ok); }
.verdicts .v-first, .verdicts .v-second { border-left-color: #b35806; }
.verdicts .v-weak, .verdicts .v-open, .verdicts .v-unfinished,
.verdicts .v-unclear { border-left-color: #8a8a8a; }
.figs { display: flex; flex-wrap: wrap; gap: 14px 18px; align-items: flex-start; }
.figs figure { margin: 0; max-width: 100%; }
.figs figure svg { display: block; max-width: 100%; height: auto; }
.figs figcaption { font-size: .85rem; color: var(--muted); max-width: 360px; }
.study .table-wrap { max-width: 100%; overflow-x: auto; }
.study table { font-size: .88rem; }
.study td, .study th { padding: 4px 8px; }
.study details { margin: 12px 0; }
.study .played { font-size: .85rem; color: var(--muted); overflow-wrap: anywhere; }
.study-list { padding: 0; list-style: none; }
.study-list > li { margin: 0 0 18px; }
.study-list h2 { font-size: 1.15rem; margin: 0 0 2px; }
"""

#: What report.html needs that the app's style.css would give.
STANDALONE_CSS = """
:root { --bg: #f6f4ef; --fg: #1d1d1d; --muted: #5c5c5c; --card: #fff; --line: #d6d1c4;
  --accent: #1f5fbf; --ok: #1e7b34; color: var(--fg); background: var(--bg);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --bg: #17181a; --fg: #e8e6e1; --muted: #a9a59c;
  --card: #222326; --line: #3b3c40; --accent: #7fb0ff; --ok: #7fd49a; color-scheme: dark; } }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.4; }
main { padding: 12px 16px 40px; max-width: 1200px; margin: 0 auto; }
table { border-collapse: collapse; background: var(--card); }
th, td { text-align: left; border-bottom: 1px solid var(--line); white-space: nowrap; }
a { color: var(--accent); }
.hint { color: var(--muted); font-size: .9rem; }
"""

HOW_TO_READ = (
    "Self-play: one engine plays both sides, seats alternating. The <em>first player</em> "
    "is the seat that moved first (after a pie swap it holds the second color); 50% is an "
    "even game. Intervals are 95%: an edge smaller than the interval cannot be seen with "
    "these games, and a rate says how <em>this engine</em> plays the game, not how strong "
    "players would.")


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _rate(r: dict | None) -> str:
    return "-" if not r else f"{r['value']:.2f} [{r['low']:.2f}, {r['high']:.2f}]"


def metrics_table(summary: dict[str, Any]) -> str:
    heads = ["engine", "size", "options", "games", "first player", "first color", "Balance",
             "draws", "Completion", "swap rate", "plies mean / median", "turns mean",
             "legal moves mean / max", "LeadChange", "DecisivenessThreshold",
             "simulations per move at the start", "warnings"]
    rows = []
    for g in summary["groups"]:
        m = g["metrics"]
        bf = m.get("BranchingFactor")
        sims = g.get("adequacy", {}).get("OpeningSimulationsPerMove")
        cells = [g["engine"], g["size"], options_phrase(g["options"]) or "-", m["games"],
                 _rate(m.get("FirstPlayerScore")), _rate(m.get("FirstColorScore")),
                 _rate(m.get("Balance")), _rate(m.get("Drawishness")), _rate(m["Completion"]),
                 _rate(m.get("SwapRate")),
                 f"{m['DurationPlies']['mean']:.1f} / {m['DurationPlies']['median']:g}",
                 f"{m['DurationTurns']['mean']:.1f}",
                 f"{bf['mean']:.1f} / {bf['max']}" if bf else "-",
                 f"{m['LeadChange']['mean']:.3f}" if "LeadChange" in m else "-",
                 f"{m['DecisivenessThreshold']['mean']:.2f}" if "DecisivenessThreshold" in m
                 else "-",
                 f"{sims['median']:.1f}" if sims else "-",
                 "; ".join(w.split(":")[0] for w in g.get("warnings", [])) or "-"]
        rows.append("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in cells) + "</tr>")
    head = "<tr>" + "".join(f"<th scope=col>{h}</th>" for h in heads) + "</tr>"
    return f"<div class=table-wrap><table><thead>{head}</thead><tbody>{''.join(rows)}" \
           "</tbody></table></div>"


def verdict_list(summary: dict[str, Any]) -> str:
    items = []
    for v in verdicts(summary):
        items.append(f"<li class='v-{v['kind']}'><strong>{_esc(v['text'])}.</strong>"
                     f"<span class=evidence>{_esc(v['evidence'])}</span></li>")
    return f"<ul class=verdicts>{''.join(items)}</ul>"


def _figs(pairs: list[tuple[str, str]], caption: bool = True) -> str:
    return "<div class=figs>" + "".join(
        f"<figure>{svg}" + (f"<figcaption>{_esc(title)}</figcaption>" if caption else "")
        + "</figure>" for title, svg in pairs) + "</div>"


def facts(summary: dict[str, Any]) -> str:
    """"robble, boards 7x7, mcts:1000, 160 games"."""
    sizes = sorted({g["size"] for g in summary["groups"]})
    engines = sorted({g["engine"] for g in summary["groups"]})
    boards = ", ".join(f"{s}x{s}" for s in sizes)
    return f"{summary['game']}, {boards}, {', '.join(engines)}, {summary['games']} games"


def played_with(summary: dict[str, Any]) -> str:
    """The command's study and each engine's full settings, as stored."""
    parts = []
    spec = summary.get("spec")
    if spec:
        grid = " ".join(f"--option {k}={','.join(format_option(v) for v in vals)}"
                        for k, vals in spec.get("grid", {}).items())
        parts.append(f"Command: <code>boardlab study {_esc(spec['game'])} --sizes "
                     f"{','.join(map(str, spec['sizes']))} {_esc(grid)} --games "
                     f"{spec['games']} --engine {_esc(spec['engine'])} --seed "
                     f"{spec['seed']}</code>.")
    for engine, s in (summary.get("settings") or {}).items():
        parts.append(f"{_esc(engine)} was played by boardlab {_esc(s.get('boardlab'))} with "
                     f"<code>{_esc(json.dumps(s.get('engine'), sort_keys=True))}</code>.")
    return f"<p class=played>{' '.join(parts)}</p>" if parts else ""


def study_html(summary: dict[str, Any], title: str | None = None) -> str:
    """One study: heading, answers, evidence, the table, how it was played."""
    sizes, engines = fig.sizes_and_engines(summary)
    parts = [f"<article class=study><h2>{_esc(title or summary.get('name') or summary['game'])}"
             f"</h2><p class=facts>{_esc(facts(summary))}</p>", verdict_list(summary),
             f"<p class=hint>{HOW_TO_READ}</p>"]
    colors = summary["colors"]
    answer: list[tuple[str, str]] = []
    for c in summary["crossings"]:
        answer.append(fig.crossing_figure(c, colors))
        made = fig.margin_figure(c, summary["groups"], colors)
        if made:
            answer.append(made)
    made = fig.score_figure(summary)
    if made:
        answer.append(made)
    parts.append("<h3>The evidence</h3>" + _figs(answer))
    by_size = fig.size_figures(summary)
    if by_size:
        parts.append("<h3>By board size</h3>" + _figs(by_size, caption=False))
    heat = [made for g in summary["groups"] if (made := fig.heat_figure(g, sizes, engines))]
    if heat:
        swaps_counted = any("SwapRate" in g["metrics"] for g in summary["groups"])
        parts.append("<h3>First moves</h3><p class=hint>Each cell: the games that opened "
                     "there, coloured by the first player's score in them.</p>"
                     f"<div class=figs><figure>{fig.heat_legend(swaps_counted)}</figure></div>"
                     + _figs(heat, caption=False))
    parts.append("<h3>Game length</h3>" + _figs(fig.length_figures(summary), caption=False))
    parts.append("<details><summary>Every metric</summary>" + metrics_table(summary)
                 + "</details>" + played_with(summary) + "</article>")
    return "".join(parts)


def standalone(summary: dict[str, Any]) -> str:
    """``report.html``: the study as a page that needs nothing else."""
    name = summary.get("name") or summary["game"]
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>boardlab study: {_esc(name)}</title><style>{STANDALONE_CSS}{CSS}"
            "</style></head><body><main>"
            f"<h1>Balance study: {_esc(name)}</h1>{study_html(summary, title='Answers')}"
            "</main></body></html>")
