/* The analysis mode's line to the server: positions drawn over HTTP (POST
 * /api/analysis/view), searches streamed over the /api/analysis/ws socket
 * (docs/web.md, "Analysis"). Each function takes the mode's state ``A``;
 * an answer that arrives is drawn at once (view.js). */
import * as T from "../tree.js";
import { render } from "./view.js";

export const keyOf = (moves) => moves.join(" ");

/* The position after ``moves`` as the API names it. */
export function position(A, moves) {
  const b = A.base;
  return { game: b.game, size: b.size, options: b.options || {}, ...(b.start ? { start: b.start } : {}), moves };
}

export async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
  return data;
}

export function connect(A) {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/analysis/ws`);
  A.ws = ws;
  ws.addEventListener("open", () => { for (const m of A.queue.splice(0)) ws.send(JSON.stringify(m)); });
  ws.addEventListener("message", (ev) => { try { onMessage(A, JSON.parse(ev.data)); } catch (e) { console.error(e); } });
  ws.addEventListener("close", () => {
    if (A.ws !== ws) return;
    A.ws = null;
    if (A.on) setTimeout(() => { if (A.on && !A.ws) { connect(A); A.job = null; search(A, false); } }, 1000);
  });
}

export function disconnect(A) {
  const ws = A.ws;
  A.ws = null;
  if (ws) { try { ws.close(); } catch (_) { /* gone */ } }
}

function send(A, msg) {
  if (A.ws && A.ws.readyState === WebSocket.OPEN) A.ws.send(JSON.stringify(msg));
  else A.queue.push(msg);
}

function onMessage(A, m) {
  if (m.type === "analysis" && A.want && m.id === A.want.id) {
    A.cache.set(A.want.key, m.analysis);
    if (keyOf(T.pathOf(A.node)) === A.want.key) { A.analysis = m.analysis; render(A); }
  } else if (m.type === "progress" && A.job && m.id === A.job.id) {
    A.job.done = m.done;
    A.job.total = m.total;
    A.job.wins[m.ply] = m.analysis.wins;
    A.cache.set(keyOf(A.base.moves.slice(0, m.ply)), m.analysis);
    render(A);
  } else if (m.type === "game" && A.job && m.id === A.job.id) {
    A.job = null;
    keepGame(A, m.result);
    render(A);
    if (A.base.onGameDone) {  // kept with the game; the server's copy is what shows
      const base = A.base;
      base.onGameDone(m.result).then((kept) => { if (kept && A.base === base) { A.game = kept; render(A); } });
    }
  } else if (m.type === "error") {
    if (A.job && m.id === A.job.id) A.job = null;
    A.message = m.error.message;
    render(A);
  }
}

/* A whole-game analysis (the socket's, or the one kept with the game):
 * its graph and marks, and each position's candidates. */
export function keepGame(A, result) {
  A.game = result;
  for (const p of result.plies || []) A.cache.set(keyOf(A.base.moves.slice(0, p.ply)), p);
  if (A.node) A.analysis = A.cache.get(keyOf(T.pathOf(A.node))) || A.analysis;
}

/* Ask for the current position's analysis, streamed (unless known and not forced). */
export function search(A, force) {
  const moves = T.pathOf(A.node);
  const key = keyOf(moves);
  if (A.job || !A.view || A.view.outcome) return;
  if (!force && A.cache.has(key)) {
    if (A.want && A.want.key !== key) send(A, { type: "stop", id: ++A.seq });  // free the worker
    A.want = null;
    return;
  }
  A.want = { id: ++A.seq, key };
  send(A, { type: "position", id: A.want.id, ...position(A, moves) });
}

export async function analyseGame(A) {
  if (A.job) return;
  const positions = A.base.moves.length + 1;
  A.job = { id: ++A.seq, done: 0, total: positions, wins: [] };
  A.want = null;
  A.game = null;
  render(A);
  // a long game gets less time a position, to stay within the server's total
  let seconds;
  try {
    const lim = (await (await fetch("/api/analysis/limits")).json()).game;
    seconds = Math.min(lim.default, Math.floor((lim.total / positions) * 100) / 100);
  } catch (_) { seconds = undefined; }
  if (!A.job) return;
  send(A, { type: "game", id: A.job.id, ...position(A, A.base.moves), ...(seconds ? { seconds } : {}) });
}

export function stopGame(A) {
  if (!A.job) return;
  send(A, { type: "stop", id: ++A.seq });
  A.job = null;
  render(A);
}
