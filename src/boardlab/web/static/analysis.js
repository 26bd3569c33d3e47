/* Analysis mode: what the engine thinks of any position of a game, its
 * variations, and the whole game judged (issue 21).
 *
 * State is this module's own object ``A``; the game page hands it the game
 * (openAnalysis) and gets nothing back but the saved variations. Rules stay
 * on the server: every position shown is POST /api/analysis/view (board,
 * legal moves with the points each names); the searches come over the
 * /api/analysis/ws socket (docs/web.md, "Analysis"). Closing the mode
 * closes the socket, which stops any search of ours on the server.
 *
 * Test hooks: window.boardlab.analysis() is ``A``'s public view; candidate
 * rows carry data-candidate, graph points data-graph-ply, tree moves
 * data-path (the moves from the start, space-separated).
 */
import { C, COLORS, boardSvg, esc, geometry, pointIndex, pointName } from "./board.js";
import { $, cap, el } from "./dom.js";
import { LABEL_COLOR, evalBarSvg, evalText, graphSvg } from "./graph.js";
import { treeEl } from "./movetree.js";
import * as T from "./tree.js";

const PLURAL = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
const RANK_COLORS = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#7f7f7f"];
const SPECIAL = { swap: "Swap (pie rule)", pass: "Pass", button: "Take the button", done: "Done marking",
  accept: "Accept removals", reject: "Reject" };

const A = {
  on: false, base: null, root: null, node: null, view: null, analysis: null,
  cache: new Map(), ws: null, queue: [], seq: 0, want: null, job: null, game: null,
  preview: null, choices: null, message: "", saveTimer: null, onSave: null,
};

const pct = (p) => `${Math.round((p ?? 0.5) * 100)}%`;
const keyOf = (moves) => moves.join(" ");

/* May this game be analysed here? Not while it is being played against the
 * computer or a friend: analysis is for review, and hot-seat games. */
export function analysisAllowed(st) {
  return !!st && (st.over || (!st.online && st.seats.every((s) => s.kind === "human")));
}

/* Enter the mode. ctx: {id, game, size, options, start, moves, colors,
 * ply, flipped, variations, onSave(variations)}. */
export function openAnalysis(ctx) {
  A.base = ctx;
  A.root = T.treeFrom(ctx.moves, ctx.variations || []);
  A.cache = new Map();
  A.game = null;
  A.job = null;
  A.message = "";
  A.onSave = ctx.onSave || null;
  A.on = true;
  document.body.classList.add("analysing");
  $("#analysis").hidden = false;
  connect();
  goto(T.mainAt(A.root, ctx.ply ?? ctx.moves.length));
}

export function closeAnalysis() {
  if (!A.on) return;
  A.on = false;
  document.body.classList.remove("analysing");
  $("#analysis").hidden = true;
  const ws = A.ws;
  A.ws = null;
  if (ws) { try { ws.close(); } catch (_) { /* gone */ } }
}

export const analysisActive = () => A.on;

// ------------------------------------------------------------------ server
function position(moves) {
  const b = A.base;
  return { game: b.game, size: b.size, options: b.options || {}, ...(b.start ? { start: b.start } : {}), moves };
}

async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
  return data;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/analysis/ws`);
  A.ws = ws;
  ws.addEventListener("open", () => { for (const m of A.queue.splice(0)) ws.send(JSON.stringify(m)); });
  ws.addEventListener("message", (ev) => { try { onMessage(JSON.parse(ev.data)); } catch (e) { console.error(e); } });
  ws.addEventListener("close", () => {
    if (A.ws !== ws) return;
    A.ws = null;
    if (A.on) setTimeout(() => { if (A.on && !A.ws) { connect(); A.job = null; search(false); } }, 1000);
  });
}

function send(msg) {
  if (A.ws && A.ws.readyState === WebSocket.OPEN) A.ws.send(JSON.stringify(msg));
  else A.queue.push(msg);
}

function onMessage(m) {
  if (m.type === "analysis" && A.want && m.id === A.want.id) {
    A.cache.set(A.want.key, m.analysis);
    if (keyOf(T.pathOf(A.node)) === A.want.key) { A.analysis = m.analysis; render(); }
  } else if (m.type === "progress" && A.job && m.id === A.job.id) {
    A.job.done = m.done;
    A.job.total = m.total;
    A.job.wins[m.ply] = m.analysis.wins;
    A.cache.set(keyOf(A.base.moves.slice(0, m.ply)), m.analysis);
    render();
  } else if (m.type === "game" && A.job && m.id === A.job.id) {
    A.job = null;
    A.game = m.result;
    for (const p of m.result.plies) A.cache.set(keyOf(A.base.moves.slice(0, p.ply)), p);
    A.analysis = A.cache.get(keyOf(T.pathOf(A.node))) || A.analysis;
    render();
  } else if (m.type === "error") {
    if (A.job && m.id === A.job.id) A.job = null;
    A.message = m.error.message;
    render();
  }
}

/* Ask for the current position's analysis, streamed (unless known and not forced). */
function search(force) {
  const moves = T.pathOf(A.node);
  const key = keyOf(moves);
  if (A.job || !A.view || A.view.outcome) return;
  if (!force && A.cache.has(key)) {
    if (A.want && A.want.key !== key) send({ type: "stop", id: ++A.seq });  // free the worker
    A.want = null;
    return;
  }
  A.want = { id: ++A.seq, key };
  send({ type: "position", id: A.want.id, ...position(moves) });
}

async function analyseGame() {
  if (A.job) return;
  const positions = A.base.moves.length + 1;
  A.job = { id: ++A.seq, done: 0, total: positions, wins: [] };
  A.want = null;
  A.game = null;
  render();
  // a long game gets less time a position, to stay within the server's total
  let seconds;
  try {
    const lim = (await (await fetch("/api/analysis/limits")).json()).game;
    seconds = Math.min(lim.default, Math.floor((lim.total / positions) * 100) / 100);
  } catch (_) { seconds = undefined; }
  if (!A.job) return;
  send({ type: "game", id: A.job.id, ...position(A.base.moves), ...(seconds ? { seconds } : {}) });
}

function stopGame() {
  if (!A.job) return;
  send({ type: "stop", id: ++A.seq });
  A.job = null;
  render();
}

// ------------------------------------------------------------------ moving about
async function goto(node) {
  A.node = node;
  A.preview = null;
  A.choices = null;
  const moves = T.pathOf(node);
  try {
    const v = await post("/api/analysis/view", position(moves));
    if (A.node !== node) return;
    A.view = v;
    A.message = "";
  } catch (e) {
    if (A.node !== node) return;
    A.message = e.message;
    if (!node.main && node.children.length === 0) {  // a move the server refused: forget it
      A.node = T.drop(node);
      return goto(A.node);
    }
  }
  A.analysis = A.cache.get(keyOf(moves)) || null;
  render();
  search(false);
}

function play(move) {
  const before = A.node.children.length;
  const child = T.childFor(A.node, move);
  if (A.node.children.length !== before) scheduleSave();
  goto(child);
}

function dropVariation() {
  let n = A.node;
  while (n.parent && !n.main && n.parent.children[0] === n) n = n.parent;
  if (n.main || !n.parent) return;
  T.drop(n);
  scheduleSave();
  goto(n.parent);
}

function scheduleSave() {
  clearTimeout(A.saveTimer);
  A.saveTimer = setTimeout(() => { if (A.onSave) A.onSave(T.variationsOf(A.root)); }, 300);
}

function onBoardClick(ev) {
  const g = ev.target.closest("[data-point]");
  if (!g || !A.view) return;
  if (A.preview) { A.preview = null; render(); return; }
  const name = g.dataset.point;
  const lp = A.view.legal_points || {};
  let moves = Object.keys(lp).filter((m) => lp[m][0] === name);
  if (!moves.length) moves = Object.keys(lp).filter((m) => lp[m].includes(name));
  if (moves.length === 1) { play(moves[0]); return; }
  A.choices = moves.length ? { point: name, moves } : null;
  A.message = moves.length ? "" : `No move at ${name} here.`;
  render();
}

async function previewLine(cand, upto) {
  const moves = T.pathOf(A.node);
  const pv = cand.pv.slice(0, upto);
  const ask = { cand: cand.move, upto };
  A.preview = ask;
  try {
    const v = await post("/api/analysis/view", position([...moves, ...pv]));
    if (A.preview !== ask) return;
    A.preview = { ...ask, view: v, points: cand.pv_points.slice(0, upto) };
    render();
  } catch (_) { A.preview = null; }
}

// ------------------------------------------------------------------ drawing
function render() {
  if (!A.on || !A.view) return;
  renderBoard();
  renderEval();
  renderCandidates();
  renderActions();
  renderGraph();
  renderTree();
  $("#an-message").textContent = A.message;
}

function renderBoard() {
  const svg = $("#an-board");
  const shown = A.preview && A.preview.view ? A.preview.view : A.view;
  const flipped = !!A.base.flipped;
  const legal = new Set();
  if (!A.preview) for (const pts of Object.values(A.view.legal_points || {})) if (pts.length) legal.add(pts[0]);
  const rings = {};
  if (A.choices) rings[A.choices.point] = "#2a6fdb";
  const { svg: markup, width } = boardSvg(shown, { last: new Set(shown.last_points || []), rings, flipped,
    legal: new Set(), hintColor: null, tint: A.preview ? {} : ownershipTint() });
  const geo = geometry(shown, flipped);
  let over = "";
  if (A.preview && A.preview.points) {
    A.preview.points.forEach((pts, k) => {
      if (!pts.length) return;
      const [x, y] = geo.xy(pointIndex(pts[pts.length - 1], shown.size));
      over += `<circle cx="${x}" cy="${y}" r="${C * 0.22}" fill="#ffd54a" stroke="#333"/>` +
        `<text class="pv-num" x="${x}" y="${y + 5}" text-anchor="middle" font-size="14" font-weight="700">${k + 1}</text>`;
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
function ownershipTint() {
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

function renderEval() {
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
  const lead = a && !out ? a.lead : null;
  $("#an-lead").textContent = lead
    ? `Score lead at the end of the best line (${lead.after} moves on, the game's live score): ` +
      `${lead.color} ${lead.lead >= 0 ? "+" : ""}${lead.lead}` : "";
  $("#an-deeper").disabled = !!A.job || !!out;
  $("#an-owner-box").hidden = !(a && !out && a.ownership);
}

function renderCandidates() {
  const box = $("#an-cands");
  box.innerHTML = "";
  const a = A.analysis;
  if (!a || A.view.outcome) return;
  a.candidates.forEach((c, k) => {
    const pv = el("span", { class: "pv" });
    c.pv.slice(0, 8).forEach((m, i) => pv.append(el("button", { type: "button", class: "pv-move", text: m,
      "data-pv": i + 1, onclick: (ev) => { ev.stopPropagation(); previewLine(c, i + 1); } })));
    const row = el("li", { class: "cand", "data-candidate": c.move, "data-visits": c.visits, "data-winrate": c.winrate },
    el("span", { class: "swatch", style: `background:${RANK_COLORS[k]}` }),
    el("button", { type: "button", class: "cand-move", text: c.move, title: "Play this move (a variation)", onclick: () => play(c.move) }),
    el("span", { class: "cand-num", text: `${pct(c.winrate)} · ${c.visits.toLocaleString()} visits` }), pv);
    box.append(row);
  });
}

function renderActions() {
  const box = $("#an-actions");
  box.innerHTML = "";
  const lp = A.view.legal_points || {};
  for (const m of Object.keys(lp)) {
    if (!lp[m].length) box.append(el("button", { type: "button", "data-move": m, text: SPECIAL[m] || m, onclick: () => play(m) }));
  }
  if (A.choices) {
    box.append(el("span", { text: `At ${A.choices.point}:` }));
    for (const m of A.choices.moves) box.append(el("button", { type: "button", "data-move": m, text: m, onclick: () => play(m) }));
  }
  const job = A.job;
  $("#an-game").hidden = !!job;
  $("#an-stop").hidden = !job;
  const bar = $("#an-progress");
  bar.hidden = !job;
  if (job) { bar.max = job.total; bar.value = job.done; }
  $("#an-progress-text").textContent = job ? `Analysing the whole game: ${job.done} / ${job.total} positions` : "";
  const vars = !A.node.main;
  $("#an-main").disabled = !vars;
  $("#an-drop").disabled = !vars;
}

function renderGraph() {
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
  const head = el("tr", {}, el("th", { text: "" }), ...["inaccuracy", "mistake", "blunder"].map((l) =>
    el("th", { text: PLURAL[l], style: `color:${LABEL_COLOR[l]}` })));
  counts.append(head);
  for (const c of colors) {
    const row = g.counts[c] || { inaccuracy: 0, mistake: 0, blunder: 0 };
    counts.append(el("tr", { "data-color": c }, el("th", { text: cap(c) }),
      ...["inaccuracy", "mistake", "blunder"].map((l) => el("td", { "data-label": l, text: String(row[l]) }))));
  }
}

function renderTree() {
  const box = $("#an-moves");
  box.innerHTML = "";
  const marks = {};
  if (A.game) for (const j of A.game.judgements) marks[j.ply] = j;
  box.append(treeEl(A.root, A.node, marks, goto));
  const cur = box.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ events
export function initAnalysis() {
  $("#an-board").addEventListener("click", onBoardClick);
  $("#an-close").addEventListener("click", () => { closeAnalysis(); if (A.base && A.base.onClose) A.base.onClose(); });
  $("#an-game").addEventListener("click", analyseGame);
  $("#an-stop").addEventListener("click", stopGame);
  $("#an-deeper").addEventListener("click", () => search(true));
  $("#an-owner").addEventListener("change", render);
  $("#an-main").addEventListener("click", () => goto(T.mainAt(A.root, T.branchPly(A.node))));
  $("#an-drop").addEventListener("click", dropVariation);
  $("#an-prev").addEventListener("click", () => A.node.parent && goto(A.node.parent));
  $("#an-next").addEventListener("click", () => A.node.children.length && goto(A.node.children[0]));
  $("#an-first").addEventListener("click", () => goto(A.root));
  $("#an-last").addEventListener("click", () => { let n = A.node; while (n.children.length) n = n.children[0]; goto(n); });
  // hovering a candidate previews its line; the rows are redrawn as the
  // search refines, so the list (which stays) listens, not each row
  $("#an-cands").addEventListener("mouseover", (ev) => {
    const row = ev.target.closest("[data-candidate]");
    const c = row && A.analysis && A.analysis.candidates.find((x) => x.move === row.dataset.candidate);
    if (!c) return;
    const step = ev.target.closest(".pv-move");  // over one move of the line: up to it
    const upto = step ? parseInt(step.dataset.pv, 10) : Math.min(c.pv.length, 8);
    if (!(A.preview && A.preview.cand === c.move && A.preview.upto === upto)) previewLine(c, upto);
  });
  $("#an-cands").addEventListener("mouseleave", () => { if (A.preview) { A.preview = null; render(); } });
  $("#an-graph").addEventListener("click", (ev) => {
    const g = ev.target.closest("[data-graph-ply]");
    if (g) goto(T.mainAt(A.root, parseInt(g.dataset.graphPly, 10)));
  });
  $("#an-move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const m = $("#an-move-text").value.trim();
    if (m) { $("#an-move-text").value = ""; play(m); }
  });
  document.addEventListener("keydown", (ev) => {
    if (!A.on || ev.target.closest("input, textarea, select")) return;
    if (ev.key === "ArrowLeft" && A.node.parent) { ev.preventDefault(); goto(A.node.parent); }
    if (ev.key === "ArrowRight" && A.node.children.length) { ev.preventDefault(); goto(A.node.children[0]); }
  });
}

/* What the tests read (window.boardlab.analysis()). */
export function analysisState() {
  return A.on ? { path: T.pathOf(A.node), main: A.node.main, analysis: A.analysis, game: A.game,
    job: A.job && { done: A.job.done, total: A.job.total }, variations: T.variationsOf(A.root),
    colors: A.base.colors } : null;
}
