/* Analysis mode: what the engine thinks of any position of a game, its
 * variations, and the whole game judged (issue 21).
 *
 * The game page hands it the game (openAnalysis) and gets nothing back but
 * the saved variations. Its state is one object (state.js) that every
 * function here takes; server.js talks to the server, view.js draws. Rules
 * stay on the server: every position shown is POST /api/analysis/view
 * (board, legal moves with the points each names); the searches come over
 * the /api/analysis/ws socket (docs/web.md, "Analysis"). Closing the mode
 * closes the socket, which stops any search of ours on the server.
 *
 * Test hooks: window.boardlab.analysis() is analysisState(A); candidate
 * rows carry data-candidate, graph points data-graph-ply, tree moves
 * data-path (the moves from the start, space-separated).
 */
import { $ } from "../dom.js";
import * as T from "../tree.js";
import { analyseGame, connect, disconnect, keepGame, keyOf, position, post, search, stopGame } from "./server.js";
import { render, renderBoard } from "./view.js";

/* May this game be analysed here? Not while it is being played against the
 * computer or a friend: analysis is for review, and hot-seat games. */
export function analysisAllowed(st) {
  return !!st && (st.over || (!st.online && st.seats.every((x) => x.kind === "human")));
}

/* Enter the mode. ctx: {id, game, size, options, start, moves, colors,
 * flipped, variations, at: {ply, line} (where to start: a main-line ply and
 * a variation's moves from there), stored (the whole-game analysis kept with
 * the game, or null), closeText, and what to call: onSave(variations),
 * onGameDone(result) -> the analysis as kept (or null), onNode({ply, line})
 * on every position shown, onClose()}. */
export function openAnalysis(A, ctx) {
  A.base = ctx;
  A.root = T.treeFrom(ctx.moves, ctx.variations || []);
  A.cache = new Map();
  A.game = null;
  A.job = null;
  A.message = "";
  A.onSave = ctx.onSave || null;
  A.on = true;
  if (ctx.stored) keepGame(A, ctx.stored);
  document.body.classList.add("analysing");
  $("#analysis").hidden = false;
  $("#an-close").textContent = ctx.closeText || "Back";
  connect(A);
  const at = ctx.at || { ply: ctx.moves.length, line: [] };
  let node = T.mainAt(A.root, at.ply);
  for (const m of at.line || []) node = T.childFor(node, m);
  goto(A, node);
}

export function closeAnalysis(A) {
  if (!A.on) return;
  A.on = false;
  document.body.classList.remove("analysing");
  $("#analysis").hidden = true;
  disconnect(A);
}

export const analysisActive = (A) => A.on;

// ------------------------------------------------------------------ moving about
async function goto(A, node) {
  A.node = node;
  A.preview = null;
  A.choices = null;
  const moves = T.pathOf(node);
  if (A.base.onNode) {
    const ply = T.branchPly(node);
    A.base.onNode({ ply, line: moves.slice(ply) });
  }
  try {
    const v = await post("/api/analysis/view", position(A, moves));
    if (A.node !== node) return;
    A.view = v;
    A.message = "";
  } catch (e) {
    if (A.node !== node) return;
    A.message = e.message;
    if (!node.main && node.children.length === 0) {  // a move the server refused: forget it
      A.node = T.drop(node);
      return goto(A, A.node);
    }
  }
  A.analysis = A.cache.get(keyOf(moves)) || null;
  render(A);
  search(A, false);
}

function play(A, move) {
  const before = A.node.children.length;
  const child = T.childFor(A.node, move);
  if (A.node.children.length !== before) scheduleSave(A);
  goto(A, child);
}

function dropVariation(A) {
  let n = A.node;
  while (n.parent && !n.main && n.parent.children[0] === n) n = n.parent;
  if (n.main || !n.parent) return;
  T.drop(n);
  scheduleSave(A);
  goto(A, n.parent);
}

function scheduleSave(A) {
  clearTimeout(A.saveTimer);
  A.saveTimer = setTimeout(() => { if (A.onSave) A.onSave(T.variationsOf(A.root)); }, 300);
}

function onBoardClick(A, ev) {
  const g = ev.target.closest("[data-point]");
  if (!g || !A.view) return;
  if (A.preview) { A.preview = null; render(A); return; }
  const name = g.dataset.point;
  const lp = A.view.legal_points || {};
  let moves = Object.keys(lp).filter((m) => lp[m][0] === name);
  if (!moves.length) moves = Object.keys(lp).filter((m) => lp[m].includes(name));
  if (moves.length === 1) { play(A, moves[0]); return; }
  A.choices = moves.length ? { point: name, moves } : null;
  A.message = moves.length ? "" : `No move at ${name} here.`;
  render(A);
}

async function previewLine(A, cand, upto) {
  const moves = T.pathOf(A.node);
  const pv = cand.pv.slice(0, upto);
  const ask = { cand: cand.move, upto };
  A.preview = ask;
  try {
    const v = await post("/api/analysis/view", position(A, [...moves, ...pv]));
    if (A.preview !== ask) return;
    A.preview = { ...ask, view: v, points: cand.pv_points.slice(0, upto) };
    renderBoard(A);
  } catch (_) { A.preview = null; }
}

// ------------------------------------------------------------------ events
export function initAnalysis(A) {
  A.handlers = {
    goto: (node) => goto(A, node), play: (move) => play(A, move), preview: (c, upto) => previewLine(A, c, upto),
  };
  $("#an-board").addEventListener("click", (ev) => onBoardClick(A, ev));
  $("#an-close").addEventListener("click", () => { closeAnalysis(A); if (A.base && A.base.onClose) A.base.onClose(); });
  $("#an-game").addEventListener("click", () => analyseGame(A));
  $("#an-stop").addEventListener("click", () => stopGame(A));
  $("#an-deeper").addEventListener("click", () => search(A, true));
  $("#an-owner").addEventListener("change", () => render(A));
  $("#an-main").addEventListener("click", () => goto(A, T.mainAt(A.root, T.branchPly(A.node))));
  $("#an-drop").addEventListener("click", () => dropVariation(A));
  $("#an-prev").addEventListener("click", () => A.node.parent && goto(A, A.node.parent));
  $("#an-next").addEventListener("click", () => A.node.children.length && goto(A, A.node.children[0]));
  $("#an-first").addEventListener("click", () => goto(A, A.root));
  $("#an-last").addEventListener("click", () => { let n = A.node; while (n.children.length) n = n.children[0]; goto(A, n); });
  // hovering a candidate previews its line; the rows are redrawn as the
  // search refines, so the list (which stays) listens, not each row
  $("#an-cands").addEventListener("mouseover", (ev) => {
    const row = ev.target.closest("[data-candidate]");
    const c = row && A.analysis && A.analysis.candidates.find((x) => x.move === row.dataset.candidate);
    if (!c) return;
    const step = ev.target.closest(".pv-move");  // over one move of the line: up to it
    const upto = step ? parseInt(step.dataset.pv, 10) : Math.min(c.pv.length, 8);
    if (!(A.preview && A.preview.cand === c.move && A.preview.upto === upto)) previewLine(A, c, upto);
  });
  $("#an-cands").addEventListener("mouseleave", () => { if (A.preview) { A.preview = null; renderBoard(A); } });
  $("#an-graph").addEventListener("click", (ev) => {
    const g = ev.target.closest("[data-graph-ply]");
    if (g) goto(A, T.mainAt(A.root, parseInt(g.dataset.graphPly, 10)));
  });
  $("#an-move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const m = $("#an-move-text").value.trim();
    if (m) { $("#an-move-text").value = ""; play(A, m); }
  });
  document.addEventListener("keydown", (ev) => {
    if (!A.on || ev.target.closest("input, textarea, select")) return;
    if (ev.key === "ArrowLeft" && A.node.parent) { ev.preventDefault(); goto(A, A.node.parent); }
    if (ev.key === "ArrowRight" && A.node.children.length) { ev.preventDefault(); goto(A, A.node.children[0]); }
  });
}

/* What the tests read (window.boardlab.analysis()). */
export function analysisState(A) {
  return A.on ? { path: T.pathOf(A.node), main: A.node.main, analysis: A.analysis, game: A.game,
    job: A.job && { done: A.job.done, total: A.job.total }, variations: T.variationsOf(A.root),
    colors: A.base.colors } : null;
}
