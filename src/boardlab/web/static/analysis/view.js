/* Drawing the analysis mode from its state ``A``: the board with the
 * candidates (or a previewed line, or the ownership map), the evaluation,
 * the candidate list, the buttons, the win-rate graph and the move tree.
 * What a drawn control does is ``A.handlers`` (analysis.js). */
import { C, COLORS, boardSvg, esc, geometry, pointIndex, pointName } from "../board.js";
import { $, cap, el } from "../dom.js";
import { LABEL_COLOR, evalBarSvg, evalText, graphSvg } from "../graph.js";
import { treeEl } from "../movetree.js";
import * as T from "../tree.js";

const PLURAL = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
/* The candidates' discs, best first: dark greens, wine, purple and olive,
 * apart from every piece colour (black, white, pilo's blue and orange), so
 * no disc reads as a stone. */
const RANK_COLORS = ["#117733", "#2f7f73", "#882255", "#6a3d9a", "#6b5d00"];

const pct = (p) => `${Math.round((p ?? 0.5) * 100)}%`;
const keyOf = (moves) => moves.join(" ");

export function render(A) {
  if (!A.on || !A.view) return;
  renderBoard(A);
  renderEval(A);
  renderCandidates(A);
  renderActions(A);
  renderGraph(A);
  renderTree(A);
  $("#an-message").textContent = A.message;
}

/* The board alone: what a previewed line changes (the list beside it is
 * not redrawn, so a click on it never lands on a row being replaced). */
export function renderBoard(A) {
  if (!A.on || !A.view) return;
  const svg = $("#an-board");
  const shown = A.preview && A.preview.view ? A.preview.view : A.view;
  const flipped = !!A.base.flipped;
  const legal = new Set();
  if (!A.preview) for (const pts of Object.values(A.view.legal_points || {})) if (pts.length) legal.add(pts[0]);
  const rings = {};
  if (A.choices) rings[A.choices.point] = "#2a6fdb";
  const { svg: markup, width } = boardSvg(shown, { last: new Set(shown.last_points || []), rings, flipped,
    legal: new Set(), hintColor: null, tint: A.preview ? {} : ownershipTint(A) });
  const geo = geometry(shown, flipped);
  let over = "";
  if (A.preview && A.preview.points) {
    // each move of the line numbered in a square tag at its point's corner:
    // never a disc in the middle, where it would read as a stone or a stack's height
    A.preview.points.forEach((pts, k) => {
      if (!pts.length) return;
      const [x, y] = geo.xy(pointIndex(pts[pts.length - 1], shown.size));
      const bx = x + C * 0.12, by = y - C * 0.5;
      over += `<rect class="pv-tag" x="${bx}" y="${by}" width="${C * 0.38}" height="${C * 0.34}" rx="2" fill="#ffd54a" stroke="#333"/>` +
        `<text class="pv-num" x="${bx + C * 0.19}" y="${by + C * 0.26}" text-anchor="middle" font-size="12" font-weight="700" fill="#111">${k + 1}</text>`;
    });
  } else if (A.analysis && !A.view.outcome) {
    (A.analysis.candidates || []).slice(0, 5).forEach((c, k) => {
      if (!c.points.length) return;
      const color = RANK_COLORS[k];
      const [x, y] = geo.xy(pointIndex(c.points[0], shown.size));
      if (c.points.length > 1) {
        const [x2, y2] = geo.xy(pointIndex(c.points[c.points.length - 1], shown.size));
        over += `<line x1="${x}" y1="${y}" x2="${x2}" y2="${y2}" stroke="${color}" stroke-width="5" opacity=".7"/>`;
      }
      over += `<g class="cand-mark" data-cand-mark="${esc(c.move)}"><circle cx="${x}" cy="${y}" r="${C * 0.36}" fill="${color}" opacity=".85" stroke="#fff" stroke-width="2"/>` +
        `<text x="${x}" y="${y + 4}" text-anchor="middle" font-size="12" font-weight="700" fill="#fff">${pct(c.winrate)}</text></g>`;
    });
  }
  svg.setAttribute("viewBox", `0 0 ${width} ${width}`);
  svg.innerHTML = markup + `<g pointer-events="none">${over}</g>`;
  svg.dataset.path = keyOf(T.pathOf(A.node));
  svg.dataset.preview = A.preview ? "yes" : "no";
  for (const g of svg.querySelectorAll("[data-point]")) if (legal.has(g.dataset.point)) g.classList.add("legal");
}

/* The ownership heat map as board tints: each point in the color it is
 * likely to score for, as strong as the map is sure (|value|). */
function ownershipTint(A) {
  const own = A.analysis && !A.view.outcome && A.analysis.ownership;
  if (!own || !$("#an-owner").checked) return {};
  const [first, second] = A.base.colors;
  const tint = {};
  own.values.forEach((v, i) => {
    if (Math.abs(v) < 0.05) return;
    const hex = COLORS[v > 0 ? first : second] || "#888888";
    const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
    tint[pointName(i, A.view.size)] = `rgba(${r},${g},${b},${(0.65 * Math.abs(v)).toFixed(2)})`;
  });
  return tint;
}

function renderEval(A) {
  const a = A.analysis;
  const colors = A.base.colors;
  let wins = a ? a.wins : null;
  const out = A.view.outcome;
  if (out) wins = Object.fromEntries(colors.map((c) => [c, out.winner === "draw" ? 0.5 : out.winner === c ? 1 : 0]));
  $("#an-evalbar").innerHTML = evalBarSvg(wins, colors);
  $("#an-evalbar").dataset.wins = wins ? JSON.stringify(wins) : "";
  let text = out ? `Game over: ${out.winner === "draw" ? "a draw" : `${out.winner} wins`}`
    : wins ? `Win probability: ${evalText(wins, colors)}` : "Thinking…";
  if (a && !out) text += ` — ${a.visits.toLocaleString()} visits in ${a.seconds.toFixed(1)} s${a.done ? "" : " (thinking…)"}`;
  $("#an-eval").textContent = text;
  $("#an-lead").textContent = a && !out ? leadText(a.lead, wins, colors) : "";
  $("#an-deeper").disabled = !!A.job || !!out;
  $("#an-owner-box").hidden = !(a && !out && a.ownership);
}

/* The count at the end of the best line, said for the side the win
 * probability favours, so the two never seem to contradict each other: a
 * count that disagrees is called what it is, a count of the board then. */
function leadText(lead, wins, colors) {
  if (!lead || !lead.scores || !wins) return "";
  const [a, b] = colors;
  const fav = (wins[a] ?? 0.5) >= (wins[b] ?? 0.5) ? a : b;
  const other = fav === a ? b : a;
  const diff = lead.scores[fav] - lead.scores[other];
  const num = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
  const said = `Count at the end of the best line (${lead.after} moves on): ${a} ${num(lead.scores[a])}, ${b} ${num(lead.scores[b])}`;
  if (diff > 0) return `${said}: ${fav} ahead by ${num(diff)}, as the win probability says.`;
  if (diff === 0) return `${said}: level on the count; the win probability favours ${fav}.`;
  return `${said}: ${fav} behind on the count by ${num(-diff)}, yet favoured to win — ` +
    "the count is only the board at that moment, the win probability looks to the end.";
}

function renderCandidates(A) {
  const box = $("#an-cands");
  const a = A.analysis;
  $("#an-cands-head").textContent = a && !A.view.outcome && a.candidates.length
    ? `The engine's moves for ${a.to_move} (to move): ${a.to_move}'s chance of winning after each, ` +
      "and how many times it was searched. Hover to see the line; click to play it." : "";
  const cands = a && !A.view.outcome ? a.candidates : [];
  // the search refines the list four times a second: a row whose move and
  // line stay is updated in place, so a click on it is never lost to a redraw
  const rows = [...box.children];
  cands.forEach((c, k) => {
    const key = `${c.move} ${c.pv.slice(0, 8).join(" ")}`;
    let row = rows[k];
    if (!row || row.dataset.key !== key) {
      const fresh = candidateRow(A, c, k, key);
      if (row) row.replaceWith(fresh); else box.append(fresh);
      row = fresh;
    }
    row.dataset.visits = c.visits;
    row.dataset.winrate = c.winrate;
    row.querySelector(".cand-num").textContent = `${pct(c.winrate)} · ${c.visits.toLocaleString()} visits`;
  });
  for (const extra of rows.slice(cands.length)) extra.remove();
}

/* One candidate's row: its swatch, its move (click: play it), its numbers
 * and its line (hover or click a move: preview up to it). */
function candidateRow(A, c, k, key) {
  const h = A.handlers;
  const pv = el("span", { class: "pv" });
  c.pv.slice(0, 8).forEach((m, i) => pv.append(el("button", { type: "button", class: "pv-move", text: m,
    "data-pv": i + 1, onclick: (ev) => { ev.stopPropagation(); h.preview(c, i + 1); } })));
  return el("li", { class: "cand", "data-candidate": c.move, "data-key": key },
    el("span", { class: "swatch", style: `background:${RANK_COLORS[k]}` }),
    el("button", { type: "button", class: "cand-move", text: c.move, title: "Play this move (a variation)",
      onclick: () => h.play(c.move) }),
    el("span", { class: "cand-num" }), pv);
}

function renderActions(A) {
  const box = $("#an-actions");
  box.innerHTML = "";
  const h = A.handlers;
  const lp = A.view.legal_points || {};
  const words = A.view.words || {};  // the game's moves that are words, and their buttons
  for (const m of Object.keys(lp)) {
    if (!lp[m].length) box.append(el("button", { type: "button", "data-move": m, text: words[m] || m, onclick: () => h.play(m) }));
  }
  if (A.choices) {
    box.append(el("span", { text: `At ${A.choices.point}:` }));
    for (const m of A.choices.moves) box.append(el("button", { type: "button", "data-move": m, text: m, onclick: () => h.play(m) }));
  }
  const job = A.job;
  $("#an-game").hidden = !!job;
  $("#an-game").textContent = A.game ? "Analyse the whole game again" : "Analyse the whole game";
  $("#an-stop").hidden = !job;
  const bar = $("#an-progress");
  bar.hidden = !job;
  if (job) { bar.max = job.total; bar.value = job.done; }
  $("#an-progress-text").textContent = job ? `Analysing the whole game: ${job.done} / ${job.total} positions` : "";
  const vars = !A.node.main;
  $("#an-main").disabled = !vars;
  $("#an-drop").disabled = !vars;
}

function renderGraph(A) {
  const g = A.game;
  const colors = A.base.colors;
  const wins = g ? g.wins : A.job ? A.job.wins.filter(Boolean) : null;
  const svg = $("#an-graph");
  svg.toggleAttribute("hidden", !wins || !wins.length);  // an SVG element has no .hidden
  const counts = $("#an-counts");
  counts.innerHTML = "";
  if (!wins || !wins.length) return;
  const cur = A.node.main ? T.pathOf(A.node).length : T.branchPly(A.node);
  svg.innerHTML = graphSvg(wins, g ? g.judgements : [], colors, cur);
  if (!g) return;
  const acc = g.accuracy || null;
  const head = el("tr", {}, el("th", { text: "" }), ...["inaccuracy", "mistake", "blunder"].map((l) =>
    el("th", { text: PLURAL[l], style: `color:${LABEL_COLOR[l]}` })),
  acc ? el("th", { text: "accuracy", title: "lichess's accuracy: 100% is every move as good as the engine's choice" }) : null);
  counts.append(head);
  for (const c of colors) {
    const row = g.counts[c] || { inaccuracy: 0, mistake: 0, blunder: 0 };
    counts.append(el("tr", { "data-color": c }, el("th", { text: cap(c) }),
      ...["inaccuracy", "mistake", "blunder"].map((l) => el("td", { "data-label": l, text: String(row[l]) })),
      acc ? el("td", { "data-accuracy": c, text: acc[c] === undefined ? "–" : `${acc[c]}%` }) : null));
  }
}

function renderTree(A) {
  const box = $("#an-moves");
  box.innerHTML = "";
  const marks = {};
  if (A.game) for (const j of A.game.judgements) marks[j.ply] = j;
  box.append(treeEl(A.root, A.node, marks, A.handlers.goto));
  const cur = box.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}
