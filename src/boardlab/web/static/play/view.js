/* Drawing the game page from the state ``s``: the board with the game
 * plug-in's marks, the players, the status, the move buttons, the tools and
 * the move list. ``ctl`` holds what a drawn control does when used:
 * {context(interactive), setLive(st), navigate(ply), token()} (play/game.js). */
import { analysisAllowed } from "../analysis/analysis.js";
import { COLORS, boardSvg, countTint, pointName } from "../board.js";
import { $, cap, el } from "../dom.js";
import { gamePlugin } from "../games/index.js";
import { renderOnline } from "./online.js";

const fmt = (v) => String(v);

export function render(s, ctl) {
  const st = s.shown;
  const live = s.live;
  if (!st || !live) return;
  document.body.classList.toggle("viewing", s.viewPly !== null);
  renderBoard(s, st, live, ctl);
  renderPanel(s, st, live, ctl);
}

function renderBoard(s, st, live, ctl) {
  const svg = $("#board");
  const interactive = s.viewPly === null && live.your_turn && !live.over;
  svg.dataset.game = st.game;
  svg.dataset.ply = st.view_ply;
  svg.dataset.toMove = live.to_move || "";
  svg.dataset.yourTurn = interactive ? "yes" : "no";
  svg.dataset.thinking = live.thinking ? "yes" : "no";
  svg.dataset.over = live.over ? "yes" : "no";
  svg.dataset.version = live.version;
  svg.dataset.flipped = s.flipped ? "yes" : "no";
  // highlights computed from hints and the selection
  const tint = {};     // point -> fill color under the piece
  const rings = {};    // point -> ring color over the piece
  const xs = {};       // point -> cross (yugo marks)
  const hints = st.hints || {};
  const legal = interactive ? new Set(live.legal) : new Set();
  const legalPts = new Set();
  const kingPts = new Set();
  const plugin = gamePlugin(st.game);
  const marks = { tint, rings, xs, legalPts, kingPts };
  for (const m of legal) plugin.legalPoints(m, marks);
  plugin.overlay(st, live, marks, { ...ctl.context(interactive), live });
  if (showingCount(s, st, live)) {  // what the count is made of, in each side's colour
    for (const [color, pts] of Object.entries(st.score_parts.points)) for (const p of pts) tint[p] = countTint(color);
  }
  const hint = interactive && s.hint && s.hint.ply === live.ply ? s.hint : null;
  const { svg: markup, width } = boardSvg(st, {
    tint, rings, xs, legal: legalPts, kings: kingPts, last: new Set(st.last_points || []),
    chain: new Set(hints.chain || []), ghosts: (s.sel && s.sel.stones) || [], ghostColor: live.to_move,
    hintColor: live.to_move, cursor: s.cursor, flipped: s.flipped, effects: st.last_effects,
    suggest: hint,
  });
  svg.setAttribute("viewBox", `0 0 ${width} ${width}`);
  svg.innerHTML = markup;
}

/* The score of ``color`` in the position shown: an earlier position shows its
 * own live score, not the final result. */
function seatScore(st, color) {
  const sc = st.viewing ? st.scores : (st.result && st.result.scores) || st.scores;
  if (!sc || sc[color] === undefined || sc[color] === null) return "";
  return fmt(sc[color]);
}

/* Whether the board shades what the count is made of: the player's choice,
 * else at the end of the game (the final count is what a player asks about). */
function showingCount(s, st, live) {
  if (!st.score_parts) return false;
  return s.showCount === null ? live.over && s.viewPly === null : s.showCount;
}

function renderPlayers(s, st, live) {
  const players = $("#players");
  players.innerHTML = "";
  live.seats.forEach((seat, i) => {
    const color = seat.color;
    const turn = !live.over && s.viewPly === null && live.to_move_seat === i;
    const extra = [];
    extra.push(...gamePlugin(live.game).seatNotes(st, live, color));
    const div = el("div", { class: `seat${turn ? " turn" : ""}`, "data-seat": i, "data-color": color },
      el("span", { class: "swatch", style: `background:${COLORS[color]}` }),
      el("span", { text: `${cap(color)}: ${seat.label || seat.kind}` }),
      seat.name && seat.name !== seat.label ? el("span", { class: "tag", text: `in the record: ${seat.name}` }) : null,
      live.online && live.you && live.you.seat === i ? el("span", { class: "tag", text: "(you)" }) : null,
      live.online ? el("span", { class: `presence ${live.connected[i] ? "on" : "off"}`, "data-connected": live.connected[i] ? "yes" : "no",
        title: live.connected[i] ? "connected" : "not connected", text: live.connected[i] ? "● connected" : "○ away" }) : null,
      extra.length ? el("span", { class: "tag", text: `(${extra.join(", ")})` }) : null,
      el("span", { class: "score", text: seatScore(st, color) }));
    players.append(div);
  });
}

function renderStatus(s, st, live) {
  const status = $("#status");
  status.className = "";
  if (live.over) {
    status.textContent = live.result_text || "Game over";
    status.className = "over";
  } else if (live.thinking) {
    status.textContent = "The computer is thinking";
    status.className = "thinking";
  } else if (live.engine_error) {
    status.textContent = live.engine_error;
  } else {
    const seat = live.seats[live.to_move_seat];
    let text = `${cap(live.to_move)} to move (${seat.label || seat.kind})`;
    if (live.online && live.your_turn) text += " — your turn";
    if (live.online && live.pregame_pending) text = `Waiting for the color pick (${live.meta.pregame.option} ${live.meta.pregame.value})`;
    text += gamePlugin(live.game).statusText(st, live);
    status.textContent = text;
  }
  status.dataset.over = live.over ? "yes" : "no";
  // the move that led here, in the game's words (a pass or a swap leaves nothing to mark)
  $("#last-move").textContent = st.last_move_text ? `Last move: ${st.last_move_text}.` : "";
  const parts = st.score_parts;
  $("#score-box").hidden = !parts;
  $("#score-note").textContent = parts ? (live.over && s.viewPly === null ? "The final count. " : "The count now. ") + parts.text : "";
  $("#show-count").checked = showingCount(s, st, live);
  if (s.viewPly !== null) {
    status.textContent = `Viewing the position after move ${s.viewPly} of ${live.ply}`;
    status.className = "banner";
  }
}

function renderPanel(s, st, live, ctl) {
  $("#play-title").textContent = `${cap(live.game)} ${live.size}×${live.size}` +
    (live.meta && live.meta.source === "record" ? " (loaded record)" : "");
  document.title = `${cap(live.game)} — boardlab`;
  renderPlayers(s, st, live);
  renderStatus(s, st, live);
  // move buttons
  const actions = $("#actions");
  actions.innerHTML = "";
  const interactive = s.viewPly === null && live.your_turn && !live.over;
  if (interactive) {
    const ctx = ctl.context(true);
    const words = live.words || {};  // the game's moves that are words, and their buttons
    for (const m of live.legal) {
      if (words[m]) actions.append(el("button", { type: "button", class: "move", "data-move": m, text: words[m], onclick: () => ctx.canAct() && ctx.send(m) }));
    }
    actions.append(...gamePlugin(live.game).actions(st, live, ctx));
  }
  renderTools(s, live);
  renderOnline(s, live, ctl);
  renderMoveList(s, live, ctl);
  updateCursorInfo(s);
}

function renderTools(s, live) {
  const vsComputer = live.seats.some((x) => x.kind === "computer");
  const watching = !!live.read_only;  // a spectator or a share link: nothing to undo or resign
  $("#read-only").hidden = !watching || live.online;
  $("#btn-undo").hidden = watching;
  $("#btn-resign").hidden = watching;
  $("#btn-undo").disabled = !live.can_undo || s.viewPly !== null ||
    (live.online && !!live.undo_request);
  $("#btn-undo").textContent = (vsComputer ? "Undo (take back your move)" : live.online ? "Ask to undo" : "Undo") +
    (live.over && live.can_undo ? " — reopens the finished game" : "");
  $("#btn-flip").setAttribute("aria-pressed", s.flipped ? "true" : "false");
  $("#btn-again").hidden = !(live.over && !live.online && s.again && s.again.id === live.id);
  $("#btn-rematch").hidden = !(live.over && live.online && !watching);
  $("#btn-hint").hidden = !(vsComputer && live.your_turn && !live.over && s.viewPly === null);
  $("#btn-resign").disabled = live.over;
  if (s.resignArmed === null) $("#btn-resign").textContent = "Resign";
  $("#btn-retry").hidden = !live.engine_error || watching;
  $("#btn-analyse").hidden = !analysisAllowed(live);
  $("#dl-text").href = `/api/games/${live.id}/record?format=text`;
  $("#dl-json").href = `/api/games/${live.id}/record?format=json`;
}

function renderMoveList(s, live, ctl) {
  const list = $("#movelist");
  list.innerHTML = "";
  const colorsByPly = live.movers || [];
  const at = s.viewPly === null ? live.ply : s.viewPly;
  live.moves.forEach((m, k) => {
    const b = el("button", { type: "button", "data-ply": k + 1, text: m, onclick: () => ctl.navigate(k + 1),
      "aria-label": `Move ${k + 1}: ${colorsByPly[k] || ""} ${m}` });
    if (at === k + 1) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
    const dot = colorsByPly[k] ? el("span", { class: "dot", style: `background:${COLORS[colorsByPly[k]]}` }) : null;
    list.append(el("li", {}, el("span", { class: "num", text: `${k + 1}.` }), dot, b));
  });
  const cur = list.querySelector(".current");
  if (cur && s.viewPly === null) list.scrollTop = list.scrollHeight;
  else if (cur) cur.scrollIntoView({ block: "nearest" });
  $("#nav-pos").textContent = `move ${at} / ${live.ply}`;
  $("#nav-first").disabled = at === 0;
  $("#nav-prev").disabled = at === 0;
  $("#nav-next").disabled = at >= live.ply;
  $("#nav-last").disabled = at >= live.ply;
}

/* The keyboard cursor's point in words, while the board has focus. */
export function updateCursorInfo(s) {
  const st = s.shown;
  if (!st || s.cursor === null) return;
  const name = pointName(s.cursor, st.size);
  const piece = st.cells[s.cursor];
  $("#cursor-info").textContent = document.activeElement === $("#board")
    ? `Cursor ${name}: ${piece ? `${piece.color || ""} ${piece.type}${piece.height > 1 ? " of " + piece.height : ""}` : "empty"}`
    : "";
}
