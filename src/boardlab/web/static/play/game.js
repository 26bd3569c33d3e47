/* The game on the page: opening it, following it, looking at earlier
 * positions, and turning clicks into moves through the game's page plug-in
 * (games/index.js). Every function takes the page state ``s``. */
import { closeAnalysis } from "../analysis/analysis.js";
import { api } from "../api.js";
import { say, showError } from "../dom.js";
import { moveError } from "../format.js";
import { gamePlugin } from "../games/index.js";
import { hashOf } from "./address.js";
import { startAnalysis } from "./review.js";
import { soundsFor } from "./sound.js";
import { startPoll, startSocket, stopPoll, stopSocket } from "./sync.js";
import { render } from "./view.js";

export function closeGame(s) {
  closeAnalysis(s.analysis);
  stopPoll(s);
  stopSocket(s);
  s.gid = null;
}

/* Show game ``gid`` (at ``viewPly``, or its current position; with
 * ``analysisAt``, in the analysis mode there) and follow it. */
export async function openGame(s, gid, viewPly, analysisAt = null) {
  if (s.gid !== gid) {
    closeGame(s);
    s.gid = gid;
    s.sel = null;
    s.cursor = null;
    say("");
    if (!s.live || s.live.id !== gid) s.live = null;
  }
  s.viewPly = viewPly;
  try {
    const st = await api("GET", `/api/games/${gid}`);
    if (s.gid !== gid) return;
    s.live = st;
    if (s.flipFor !== gid) {  // the second color's player sees the board from their side
      s.flipFor = gid;
      s.flipped = mySeatColor(st) === st.colors[1];
    }
    if (s.cursor === null) s.cursor = Math.floor((st.size * st.size) / 2);
    await showPly(s);
  } catch (e) {
    s.live = null;
    s.gid = null;
    showError(e.status === 404 ? notFound(s) : `This game cannot be shown: ${e.message}`);
    return;
  }
  if (analysisAt && !s.analysis.on) startAnalysis(s, analysisAt);
  const onState = (st) => setLive(s, st);
  if (s.live && s.live.online) { if (!s.ws) startSocket(s, gid, onState); }
  else if (!s.pollCtl) startPoll(s, gid, onState);
}

/* Why a game's address opens nothing, and what to do about it. */
function notFound(s) {
  if (s.token === null) {
    return "This game is not kept in this browser. A game belongs to the browser that " +
      "started it; to show it to someone, open it there and press Share: its read-only link " +
      "works anywhere.";
  }
  return "This link opens no game: it may be incomplete (copy it whole), or the game was deleted.";
}

/* The color the person at this screen plays: online, their seat; against the
 * computer, the human seat; hot-seat, none (both sit here). */
function mySeatColor(st) {
  if (st.online) return st.you && st.you !== "spectator" ? st.you.color : null;
  const humans = st.seats.filter((x) => x.kind === "human");
  return humans.length === 1 ? humans[0].color : null;
}

/* A new state of the game from the server. */
export async function setLive(s, st) {
  const changed = !s.live || s.live.version !== st.version;
  soundsFor(s.sound, s.live, st);
  if (!s.live || s.live.ply !== st.ply) s.hint = null;
  s.live = st;
  if (changed) s.sel = null;
  if (s.viewPly !== null && s.viewPly >= st.ply) s.viewPly = null;
  await showPly(s);
}

async function showPly(s) {
  const st = s.live;
  if (!st) return;
  if (s.viewPly === null || s.viewPly >= st.ply) {
    s.viewPly = null;
    s.shown = st;
  } else {
    const ply = s.viewPly;
    const shown = await api("GET", `/api/games/${st.id}?ply=${ply}`);
    if (s.viewPly !== ply) return;
    s.shown = shown;
  }
  redraw(s);
}

/* Look at the position after ``ply`` moves (the last: back to the game). */
export function navigate(s, ply) {
  const st = s.live;
  if (!st) return;
  ply = Math.max(0, Math.min(st.ply, ply));
  s.viewPly = ply >= st.ply ? null : ply;
  s.sel = null;
  if (s.route && s.route.gid === st.id) {  // the address names the position shown
    s.route = { ...s.route, ply: s.viewPly, analysis: null };
    history.replaceState(null, "", hashOf(s.route));
  }
  showPly(s);
}

/* The ply the page shows (the current one when not looking back). */
export const shownPly = (s) => (s.viewPly === null ? s.live.ply : s.viewPly);

// ------------------------------------------------------------------ moves
export async function send(s, move) {
  const st = s.live;
  if (s.busy) return;
  s.busy = true;
  try {
    const next = await api("POST", `/api/games/${st.id}/moves`, { move, ply: st.ply });
    say("");
    s.sel = null;
    await setLive(s, next);
  } catch (e) {
    say(e.code === "illegal_move" ? moveError(move, e.message) : e.message);
    s.sel = null;  // a refused move leaves nothing half-chosen on the board
    redraw(s);
    if (e.code === "stale") { try { await setLive(s, await api("GET", `/api/games/${st.id}`)); } catch (_) { /* polled */ } }
  } finally {
    s.busy = false;
  }
}

/* May the person at this screen move now? If not, say why. */
export function canAct(s) {
  const st = s.live;
  if (!st) return false;
  if (s.viewPly !== null) {
    say(`You are looking at move ${s.viewPly} of ${st.ply}: press » (End) to return to the game.`, "info");
    return false;
  }
  if (st.over) { say(`The game is over: ${st.result_text}.`, "info"); return false; }
  if (st.read_only) {
    say(st.online ? "You are watching this game: only the players can move."
      : "This is a shared game: you can look at it and analyse it, but only its players can move.", "info");
    return false;
  }
  if (!st.your_turn) {
    say(st.thinking ? "The computer is thinking — its move will appear by itself." :
      st.engine_error ? st.engine_error : "It is not your turn.", "info");
    return false;
  }
  return true;
}

/* A click (or Enter) on point ``p``. */
export function onPoint(s, p) {
  if (!canAct(s)) return;
  gamePlugin(s.live.game).click(p, gameContext(s));
}

/* What a game's page plug-in (games/index.js) is handed: the state it may
 * read and the few things it may do. */
function gameContext(s, interactive = true) {
  return {
    live: s.live, legal: new Set(s.live.legal), sel: s.sel, ui: s.ui, interactive,
    select: (v) => { s.sel = v; redraw(s); },
    send: (m) => send(s, m), say, render: () => redraw(s), canAct: () => canAct(s),
  };
}

/* Draw the page from ``s``. */
export function redraw(s) {
  render(s, {
    context: (interactive) => gameContext(s, interactive),
    setLive: (st) => setLive(s, st),
    navigate: (ply) => navigate(s, ply),
    token: () => s.token,
  });
}
