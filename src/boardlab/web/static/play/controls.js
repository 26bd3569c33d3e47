/* The game page's controls: the board (clicks and keys), the move list's
 * navigation, the tools (undo, resign, retry, analyse, flip, play again,
 * records) and the online panel's forms. Wired once; each handler reads the
 * page state ``s`` when it runs. */
import { analysisActive, initAnalysis } from "../analysis/analysis.js";
import { api, seatToken } from "../api.js";
import { pointName } from "../board.js";
import { $, el, say } from "../dom.js";
import { createGame } from "./form.js";
import { navigate, onPoint, redraw, setLive, shownPly } from "./game.js";
import { copyText } from "./online.js";
import { shareGame, startAnalysis } from "./review.js";
import { showRules } from "./rulesdialog.js";
import { updateCursorInfo } from "./view.js";

export function initPlay(s) {
  initBoard(s);
  initNavigation(s);
  initTools(s);
  initAnalysis(s.analysis);
  for (const id of ["invite-link", "spectate-link", "share-link"]) $(`#${id}`).addEventListener("focus", (ev) => ev.target.select());
  for (const b of document.querySelectorAll("button[data-copy]")) {
    b.addEventListener("click", () => copyText($(`#${b.dataset.copy}`), b));
  }
  $("#name-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await setLive(s, await api("POST", `/api/games/${s.live.id}/name`, { name: $("#my-name").value }));
      say("Name saved.", "info");
    } catch (e) { say(e.message); }
  });
}

function initBoard(s) {
  const svg = $("#board");
  svg.addEventListener("click", (ev) => {
    const g = ev.target.closest("[data-point]");
    if (!g) return;
    s.cursor = parseInt(g.dataset.index, 10);
    onPoint(s, g.dataset.point);
  });
  svg.addEventListener("focus", () => { updateCursorInfo(s); });
  svg.addEventListener("blur", () => { $("#cursor-info").textContent = ""; });
  svg.addEventListener("keydown", (ev) => {
    const st = s.shown;
    if (!st) return;
    const n = st.size;
    if (s.cursor === null) s.cursor = 0;
    let col = s.cursor % n, row = Math.floor(s.cursor / n);
    const key = ev.key;
    if (key === "ArrowLeft") col = Math.max(0, col - 1);
    else if (key === "ArrowRight") col = Math.min(n - 1, col + 1);
    else if (key === "ArrowUp") row = Math.min(n - 1, row + 1);
    else if (key === "ArrowDown") row = Math.max(0, row - 1);
    else if (key === "Enter" || key === " ") { ev.preventDefault(); onPoint(s, pointName(s.cursor, n)); return; }
    else if (key === "Escape") { s.sel = null; say(""); redraw(s); return; }
    else return;
    ev.preventDefault();
    s.cursor = row * n + col;
    redraw(s);
  });
}

function initNavigation(s) {
  const svg = $("#board");
  document.addEventListener("keydown", (ev) => {
    if ($("#view-play").hidden || !s.live || analysisActive(s.analysis)) return;
    const t = ev.target;
    if (t === svg || (t && t.closest && t.closest("input, select, textarea, dialog"))) return;
    const at = shownPly(s);
    if (ev.key === "ArrowLeft") navigate(s, at - 1);
    else if (ev.key === "ArrowRight") navigate(s, at + 1);
    else if (ev.key === "Home") navigate(s, 0);
    else if (ev.key === "End") navigate(s, s.live.ply);
    else return;
    ev.preventDefault();
  });
  $("#nav-first").addEventListener("click", () => navigate(s, 0));
  $("#nav-prev").addEventListener("click", () => navigate(s, shownPly(s) - 1));
  $("#nav-next").addEventListener("click", () => navigate(s, shownPly(s) + 1));
  $("#nav-last").addEventListener("click", () => navigate(s, s.live.ply));
}

function initTools(s) {
  $("#btn-undo").addEventListener("click", async () => {
    try {
      s.viewPly = null;
      const wasOnline = s.live.online;
      await setLive(s, await api("POST", `/api/games/${s.live.id}/undo`));
      // online, the request and then its answer are shown from the game's state
      say(wasOnline ? "" : "Taken back.", "info");
    } catch (e) { say(e.message); }
  });
  $("#btn-resign").addEventListener("click", async () => {
    const b = $("#btn-resign");
    if (s.resignArmed === null) {
      b.textContent = "Really resign? Click again";
      s.resignArmed = setTimeout(() => { s.resignArmed = null; b.textContent = "Resign"; }, 5000);
      return;
    }
    clearTimeout(s.resignArmed);
    s.resignArmed = null;
    try { await setLive(s, await api("POST", `/api/games/${s.live.id}/resign`, {})); } catch (e) { say(e.message); }
  });
  $("#btn-retry").addEventListener("click", async () => {
    try { await setLive(s, await api("POST", `/api/games/${s.live.id}/engine`)); } catch (e) { say(e.message); }
  });
  $("#btn-rules").addEventListener("click", () => s.live && showRules(s.live.game));
  $("#btn-analyse").addEventListener("click", () => startAnalysis(s));
  $("#btn-share").addEventListener("click", () => shareGame(s));
  $("#dl-text").addEventListener("click", (ev) => downloadRecord(s, ev, "text"));
  $("#dl-json").addEventListener("click", (ev) => downloadRecord(s, ev, "json"));
  $("#btn-flip").addEventListener("click", () => { s.flipped = !s.flipped; redraw(s); });
  $("#btn-again").addEventListener("click", () => s.again && createGame(s, s.again.body));
  $("#btn-rematch").addEventListener("click", async () => {
    try {
      const next = await api("POST", `/api/games/${s.live.id}/rematch`);
      location.hash = `#/play/${next.id}/${encodeURIComponent(s.token)}`;
    } catch (e) { say(e.message); }
  });
  $("#btn-hint").addEventListener("click", () => askHint(s));
  $("#show-count").addEventListener("change", (ev) => { s.showCount = ev.target.checked; redraw(s); });
}

/* The engine's suggestion for the move to play (KaTrain's hint): a short
 * search of the position, its best move ringed on the board. */
async function askHint(s) {
  const st = s.live;
  if (!st || !st.your_turn) return;
  const ply = st.ply;
  $("#btn-hint").disabled = true;
  say("The engine is looking for a move…", "info");
  try {
    const res = await fetch("/api/analysis/position", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: st.game, size: st.size, options: st.options,
        ...((st.meta || {}).start ? { start: st.meta.start } : {}), moves: st.moves, seconds: 1, top: 1 }) });
    const a = await res.json();
    if (!res.ok) throw new Error((a.error && a.error.message) || `HTTP ${res.status}`);
    const best = a.candidates[0];
    if (!s.live || s.live.ply !== ply || !best) return;
    s.hint = { move: best.move, points: best.points, ply };
    say(`Hint: ${best.move} (the engine gives you ${Math.round(best.winrate * 100)}% after it).`, "info");
    redraw(s);
  } catch (e) { say(`No hint: ${e.message}`); }
  finally { $("#btn-hint").disabled = false; }
}

/* A record of a game with a token is fetched with it (a plain link would be
 * refused), then saved from memory. */
async function downloadRecord(s, ev, format) {
  if (!s.live || !seatToken(s.live.id)) return;  // a public game: the plain link works
  ev.preventDefault();
  try {
    const res = await fetch(`/api/games/${s.live.id}/record?format=${format}`, { headers: { "X-Seat-Token": seatToken(s.live.id) } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", { href: url, download: `${s.live.game}-${s.live.id}.${format === "json" ? "json" : "txt"}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  } catch (e) { say(e.message); }
}
