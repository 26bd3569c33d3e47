/* Looking back at a game: the analysis mode opened on it (with the
 * whole-game analysis kept with the game, and the address following the
 * position shown), a set-up position's analysis, and the game's share link.
 * Each function takes the page state ``s``. */
import { analysisAllowed, openAnalysis } from "../analysis/analysis.js";
import { api } from "../api.js";
import { $, say, showError } from "../dom.js";
import { hashOf, positionHash } from "./address.js";

/* Analysis mode on the game shown, at ``at`` ({ply, line}: a main-line ply
 * and a variation's moves from there), else at the position shown; the
 * variations played and the whole-game analysis are kept with the game
 * (except for a read-only viewer, who keeps them on this page only). */
export async function startAnalysis(s, at = null) {
  const st = s.live;
  if (!analysisAllowed(st)) return;
  const gid = st.id;
  let stored = null;
  if (st.meta && st.meta.analysis) {
    try { stored = await api("GET", `/api/games/${gid}/analysis`); } catch (_) { stored = null; }
  }
  if (!s.live || s.live.id !== gid) return;
  const keep = !st.read_only;
  openAnalysis(s.analysis, {
    id: gid, game: st.game, size: st.size, options: st.options, start: (st.meta || {}).start || null,
    moves: st.moves, colors: st.colors, flipped: s.flipped, stored,
    at: at || { ply: s.viewPly === null ? st.ply : s.viewPly, line: [] },
    variations: (st.meta || {}).variations || [],
    closeText: "Back to the game",
    onSave: keep ? async (variations) => {
      try {
        const next = await api("PUT", `/api/games/${gid}/variations`, { variations });
        if (s.live && s.live.id === gid) s.live = next;
      } catch (e) { say(`The variations could not be saved: ${e.message}`); }
    } : null,
    onGameDone: keep ? async (result) => {
      try { return await api("PUT", `/api/games/${gid}/analysis`, slim(result, st.moves)); }
      catch (e) { say(`The analysis could not be kept with the game: ${e.message}`); return null; }
    } : null,
    onNode: (where) => follow(s, gid, where),
    onClose: () => follow(s, gid, null),
  });
}

/* The address follows the analysis mode's position (``where``: {ply, line}),
 * or the game's position when the mode closes. */
function follow(s, gid, where) {
  if (!s.route || s.route.gid !== gid) return;
  s.route = { ...s.route, analysis: where, ply: where ? null : s.viewPly };
  history.replaceState(null, "", hashOf(s.route));
}

/* The largest request body the server reads (web/online.py's MAX_BODY). */
const MAX_BODY = 256 * 1024;

/* A whole-game analysis as the server keeps it: what it can recompute (each
 * candidate's points, the ownership map) left out; for a game whose
 * positions' candidates would not fit in a request (about 250 moves), the
 * evaluations and judgements alone, as a record keeps them (a position's
 * candidates are searched again when it is shown). */
function slim(result, moves) {
  const plies = (result.plies || []).map((p) => ({
    ply: p.ply, to_move: p.to_move, visits: p.visits, seconds: p.seconds, winrate: p.winrate,
    wins: p.wins, lead: p.lead || null,
    candidates: p.candidates.map((c) => ({ move: c.move, visits: c.visits, winrate: c.winrate,
      pv: c.pv.slice(0, 12), proven: !!c.proven })),
  }));
  const kept = { moves: moves.slice(0, result.wins.length - 1), wins: result.wins,
    judgements: result.judgements, plies };
  return JSON.stringify(kept).length > MAX_BODY - 1024 ? { ...kept, plies: [] } : kept;
}

/* The analysis of a set-up position (the board editor's, or a link's). */
export async function openPosition(s, position, line = []) {
  let view;
  try {
    const res = await fetch("/api/analysis/view", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: position.split(" ")[0], start: position, moves: [] }) });
    view = await res.json();
    if (!res.ok) throw new Error((view.error && view.error.message) || `HTTP ${res.status}`);
  } catch (e) {
    showError(`This position cannot be analysed: ${e.message}`);
    return;
  }
  const back = positionHash(position, [], true);
  // the link's moves are the line analysed, as a game's moves are
  openAnalysis(s.analysis, {
    id: null, game: view.game, size: view.size, options: {}, start: position, moves: line,
    colors: view.colors, flipped: false, stored: null, at: { ply: line.length, line: [] },
    variations: [], closeText: "Back to the board editor", onSave: null, onGameDone: null,
    onNode: (where) => history.replaceState(null, "",
      positionHash(position, [...line.slice(0, where.ply), ...where.line])),
    onClose: () => { location.hash = back; },
  });
}

/* The game's read-only link, shown to copy. */
export async function shareGame(s) {
  if (!s.live) return;
  try {
    const r = await api("POST", `/api/games/${s.live.id}/share`);
    $("#share-link").value = location.origin + r.link;
    $("#share-row").hidden = false;
    $("#share-link").focus();
  } catch (e) { say(e.message); }
}
