/* boardlab in the browser: plain JS, no build step.
 *
 * The server owns every rule: this page draws the JSON it gets from the API
 * (board cells, legal moves, hints) and turns clicks into moves in the
 * notation of docs/rules.md. A click that is not a legal move is still sent, so
 * the library says why it is refused.
 *
 * Test hooks: every point of the board is <g data-point="c3">, every move
 * button has data-move="swap" (etc.), and window.boardlab.state() is the
 * state the page shows.
 */
import {
  analysisActive, analysisAllowed, analysisState, closeAnalysis, initAnalysis, openAnalysis,
} from "./analysis.js";
import { COLORS, MARK, boardSvg, drawDiagrams, pointIndex, pointName } from "./board.js";
import { ApiError, api, seatToken, useLinkToken } from "./api.js";
import { $, cap, el } from "./dom.js";
import { formatClock, moveError, parseWhole } from "./format.js";
import { DEFAULT_GAME, gamePlugin } from "./games/index.js";

const SPECIAL = {
  swap: "Swap colors (pie rule)", pass: "Pass", button: "Take the button (+½)",
  done: "Done marking", accept: "Accept removals", reject: "Reject",
};

const S = {
  kinds: {}, engines: [],
  gid: null, live: null, shown: null, viewPly: null,
  sel: null, cursor: null, piece: "auto",
  pollCtl: null, busy: false, resignArmed: null,
  // play by link: the seat (or spectator) token from the URL fragment, sent as a header
  token: null, ws: null, wsRetry: null, clockTimer: null, clockAt: 0,
  flipped: false, flipFor: null, again: null,
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ helpers
const fmt = (v) => (Number.isInteger(v) ? String(v) : String(v));

function say(text, kind = "error") {
  const m = $("#message");
  m.textContent = text || "";
  m.className = kind === "info" ? "info" : "";
}

// ------------------------------------------------------------------ routing
function route() {
  const hash = location.hash || "#/";
  const parts = hash.slice(2).split("/");
  for (const v of document.querySelectorAll(".view")) v.hidden = true;
  if ((parts[0] === "play" || parts[0] === "watch") && parts[1] && parts[2]) {
    let token;
    try { token = decodeURIComponent(parts[2]); } catch (_) {
      // a link cut or mangled in transit (e.g. %E0%A4%A): say so instead of throwing
      closeGame();
      $("#view-error").hidden = false;
      $("#error-text").textContent = "This game link is damaged (it holds an incomplete %-escape), " +
        "so it cannot be opened. Ask for the link again, and copy it whole.";
      return;
    }
    $("#view-play").hidden = false;
    if (S.gid !== parts[1] || S.token !== token) closeGame();
    S.token = token;
    openGame(parts[1], null);
    return;
  }
  if (parts[0] === "game" && parts[1]) {
    if (S.token) { closeGame(); S.token = null; }
    $("#view-play").hidden = false;
    const ply = parts[2] !== undefined && parts[2] !== "" ? parseInt(parts[2], 10) : null;
    openGame(parts[1], Number.isFinite(ply) ? ply : null);
    return;
  }
  closeGame();
  if (parts[0] === "saved") { $("#view-saved").hidden = false; loadSaved(); }
  else if (parts[0] === "load") { $("#view-load").hidden = false; }
  else { $("#view-home").hidden = false; }
}

// ------------------------------------------------------------------ new game form
async function initForm() {
  const [kinds, engines] = await Promise.all([api("GET", "/api/kinds"), api("GET", "/api/engines")]);
  S.engines = engines;
  const gameSel = $("#ng-game");
  const links = $("#rules-links");
  kinds.forEach((k, i) => {
    S.kinds[k.name] = k;
    gameSel.append(el("option", { value: k.name, text: cap(k.name) }));
    if (i) links.append(", ");
    links.append(el("a", { href: `/rules/${k.name}`, text: cap(k.name),
      onclick: (ev) => { ev.preventDefault(); showRules(k.name); } }));
  });
  for (const e of engines) $("#ng-engine").append(el("option", { value: e.name, text: e.label }));
  gameSel.value = kinds.some((k) => k.name === DEFAULT_GAME) ? DEFAULT_GAME : kinds[0].name;
  gameSel.addEventListener("change", formChanged);
  $("#ng-size").addEventListener("change", updateKomiProposal);
  $("#ng-engine").addEventListener("change", updateKomiProposal);
  for (const r of document.querySelectorAll("input[name=opponent]")) r.addEventListener("change", formOpponent);
  $("#ng-rules").addEventListener("click", () => showRules(gameSel.value));
  $("#new-game").addEventListener("submit", startGame);
  formChanged();
}

function formChanged() {
  const k = S.kinds[$("#ng-game").value];
  $("#ng-rules-name").textContent = cap(k.name);
  $("#ng-legend").textContent = `${cap(k.name)}: ${k.legend}.`;
  const size = $("#ng-size");
  size.innerHTML = "";
  for (let n = k.min_size; n <= k.max_size; n++) size.append(el("option", { value: n, text: `${n} × ${n}` }));
  size.value = k.default_size;
  $("#ng-pie-row").hidden = !("pie" in k.options);
  const color = $("#ng-color");
  color.innerHTML = "";
  color.append(el("option", { value: "random", text: "Random" }));
  for (const c of k.colors) color.append(el("option", { value: c, text: `${cap(c)}${c === k.colors[0] ? " (moves first)" : ""}` }));
  const kc = $("#ng-komi-color");
  kc.innerHTML = "";
  for (const c of k.colors) kc.append(el("option", { value: c, text: cap(c) }));
  formOpponent();
  updateKomiProposal();
}

function formOpponent() {
  const k = S.kinds[$("#ng-game").value];
  const opponent = document.querySelector("input[name=opponent]:checked").value;
  const vsComputer = opponent === "computer";
  const yugo = "komi" in k.options;
  $("#ng-engine").disabled = !vsComputer;
  $("#ng-komi-row").hidden = !yugo;
  $("#ng-komi-computer").hidden = !vsComputer;
  $("#ng-komi-human").hidden = vsComputer;
  $("#ng-color-row").hidden = opponent === "human" || yugo;
  $("#ng-online-row").hidden = opponent !== "online";
}

async function updateKomiProposal() {
  const k = S.kinds[$("#ng-game").value];
  if (!("komi" in k.options)) return;
  try {
    const r = await api("GET", `/api/${k.name}/komi?size=${$("#ng-size").value}&engine=${encodeURIComponent($("#ng-engine").value)}`);
    $("#ng-komi-proposal").textContent = r.komi;
  } catch (e) { $("#ng-komi-proposal").textContent = "?"; }
}

async function startGame(ev) {
  ev.preventDefault();
  $("#ng-error").textContent = "";
  let body;
  try { body = newGameBody(); } catch (e) { $("#ng-error").textContent = e.message; return; }
  await createGame(body);
}

/* What the form asks for, as the body of POST /api/games; an Error naming the
 * field when a value is not acceptable. */
function newGameBody() {
  const k = S.kinds[$("#ng-game").value];
  const opponent = document.querySelector("input[name=opponent]:checked").value;
  const body = { game: k.name, size: parseInt($("#ng-size").value, 10), options: {}, opponent };
  if ("pie" in k.options) body.options.pie = $("#ng-pie").checked;
  if (opponent === "computer") {
    body.engine = $("#ng-engine").value;
    body.color = $("#ng-color").value;
  }
  if (opponent === "online") {
    if ($("#ng-name").value.trim()) body.name = $("#ng-name").value.trim();
    const clock = $("#ng-clock").value;
    if (clock) {
      const [kind, seconds, increment] = clock.split(":");
      body.time_control = { kind, seconds: Number(seconds), increment: Number(increment || 0) };
    }
    if ("komi" in k.options) {  // you name the komi, your friend picks a color
      body.komi_negotiation = { namer: "human", komi: parseWhole($("#ng-komi-hs").value, "Komi") };
    } else {
      body.color = $("#ng-color").value;
    }
  } else if ("komi" in k.options) {
    if (opponent === "computer") {
      const namer = document.querySelector("input[name=komi-namer]:checked").value;
      body.komi_negotiation = namer === "human"
        ? { namer, komi: parseWhole($("#ng-komi").value, "Komi") }
        : { namer, color: $("#ng-komi-color").value };
    } else {
      body.options.komi = parseWhole($("#ng-komi-hs").value, "Komi");
    }
  }
  return body;
}

async function createGame(body) {
  $("#ng-start").disabled = true;
  try {
    const st = await api("POST", "/api/games", body);
    S.live = st;
    S.again = { id: st.id, body };  // "Play again" repeats these settings
    if (st.online) {  // keep the links for this tab (a reload still shows the invite)
      try { sessionStorage.setItem(`boardlab-links-${st.id}`, JSON.stringify(st.links)); } catch (_) { /* private mode */ }
      location.hash = st.links.you.slice(1);
    } else {
      location.hash = `#/game/${st.id}`;
    }
  } catch (e) {
    $("#ng-error").textContent = e.message;
    if (S.gid) say(e.message);
  } finally {
    $("#ng-start").disabled = false;
  }
}

// ------------------------------------------------------------------ saved games / load
async function loadSaved() {
  const tbody = $("#saved tbody");
  tbody.innerHTML = "";
  let games = [];
  try { games = await api("GET", "/api/games"); } catch (e) { $("#saved-empty").textContent = e.message; }
  $("#saved-empty").hidden = games.length > 0;
  for (const g of games) {
    const players = g.seats.map((s) => s.label || s.kind).join(" vs ");
    const r = g.result;
    const status = r ? (r.winner === "draw" ? `Draw (${r.termination})` : `${cap(r.winner)} won by ${r.termination}`)
      : g.status === "over" ? "Finished" : "In progress";
    const when = new Date(g.updated * 1000).toLocaleString();
    const open = el("a", { class: "button", href: `#/game/${g.id}`, "data-open": g.id,
      text: g.status === "over" ? "Review" : "Resume" });
    const del = el("button", { type: "button", class: "danger", "aria-label": `Delete game ${g.id}`, text: "Delete",
      onclick: async (ev) => {  // a second click within 5 s confirms
        const b = ev.currentTarget;
        if (!b.dataset.armed) {
          b.dataset.armed = "yes";
          b.textContent = "Really delete?";
          setTimeout(() => { delete b.dataset.armed; b.textContent = "Delete"; }, 5000);
          return;
        }
        await api("DELETE", `/api/games/${g.id}`);
        loadSaved();
      } });
    tbody.append(el("tr", { "data-id": g.id },
      el("td", { text: cap(g.game) }), el("td", { text: `${g.size}×${g.size}` }),
      el("td", { text: players }), el("td", { text: g.moves }), el("td", { text: status }),
      el("td", { text: when }), el("td", { class: "actions" }, open, del)));
  }
}

function initLoad() {
  $("#load-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (f) $("#load-text").value = await f.text();
  });
  $("#load-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#load-error").textContent = "";
    try {
      const st = await api("POST", "/api/records", { text: $("#load-text").value });
      location.hash = `#/game/${st.id}/0`;
    } catch (e) { $("#load-error").textContent = e.message; }
  });
}

// ------------------------------------------------------------------ rules
async function showRules(name) {
  const dlg = $("#rules-dialog");
  $("#rules-title").textContent = `${cap(name)} — rules`;
  $("#rules-body").innerHTML = "<p>Loading…</p>";
  if (!dlg.open) dlg.showModal();
  try {
    const r = await api("GET", `/api/rules/${name}`);
    $("#rules-body").innerHTML = r.html;
    drawDiagrams($("#rules-body"));
  } catch (e) {
    $("#rules-body").textContent = e.message;
  }
  $("#rules-close").focus();
}

// ------------------------------------------------------------------ game page
function closeGame() {
  closeAnalysis();
  if (S.pollCtl) S.pollCtl.abort();
  S.pollCtl = null;
  stopSocket();
  S.gid = null;
}

// ------------------------------------------------------------------ play by link: live socket
function stopSocket() {
  clearTimeout(S.wsRetry);
  S.wsRetry = null;
  const ws = S.ws;
  S.ws = null;
  if (ws) { try { ws.close(); } catch (_) { /* gone */ } }
}

/* Live updates over a WebSocket; while it is down the page long-polls instead
 * and tries the socket again every few seconds. */
function startSocket(gid) {
  if (!window.WebSocket) { if (!S.pollCtl) startPoll(gid); return; }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try { ws = new WebSocket(`${proto}://${location.host}/api/games/${gid}/ws`); }
  catch (e) { if (!S.pollCtl) startPoll(gid); return; }
  S.ws = ws;
  let refused = false;
  ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: S.token }));
  ws.onmessage = async (ev) => {
    if (S.ws !== ws || S.gid !== gid) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.type === "state") {
      if (S.pollCtl) { S.pollCtl.abort(); S.pollCtl = null; }
      document.body.dataset.live = "socket";
      if (!S.live || msg.state.version !== S.live.version) await setLive(msg.state);
    } else if (msg.type === "error") {
      if (["missing_token", "wrong_token", "not_found"].includes(msg.error.code)) refused = true;
      say(msg.error.message);
    }
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (S.gid !== gid) return;
    document.body.dataset.live = "poll";
    if (!S.pollCtl) startPoll(gid);
    if (!refused) S.wsRetry = setTimeout(() => { if (S.gid === gid && !S.ws) startSocket(gid); }, 3000);
  };
}

function copyField(input) {
  input.addEventListener("focus", () => input.select());
}

/* Copy a link field to the clipboard; where the clipboard API is refused
 * (plain http on another host), select it so the user can copy by hand. */
async function copyText(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  } catch (_) {
    input.focus();
    input.select();
    say("Press Ctrl+C (or ⌘C) to copy the selected link.", "info");
  }
}

async function openGame(gid, viewPly) {
  if (S.gid !== gid) {
    closeGame();
    S.gid = gid;
    S.sel = null;
    S.cursor = null;
    say("");
    if (!S.live || S.live.id !== gid) S.live = null;
  }
  S.viewPly = viewPly;
  try {
    const st = await api("GET", `/api/games/${gid}`);
    if (S.gid !== gid) return;
    S.live = st;
    if (S.flipFor !== gid) {  // the second color's player sees the board from their side
      S.flipFor = gid;
      S.flipped = mySeatColor(st) === st.colors[1];
    }
    if (S.cursor === null) S.cursor = Math.floor((st.size * st.size) / 2);
    await showPly();
  } catch (e) {
    S.live = null;
    $("#play-title").textContent = "Game not found";
    say(e.message);
    return;
  }
  if (S.live && S.live.online) { if (!S.ws) startSocket(gid); }
  else if (!S.pollCtl) startPoll(gid);
}

/* The color the person at this screen plays: online, their seat; against the
 * computer, the human seat; hot-seat, none (both sit here). */
function mySeatColor(st) {
  if (st.online) return st.you && st.you !== "spectator" ? st.you.color : null;
  const humans = st.seats.filter((s) => s.kind === "human");
  return humans.length === 1 ? humans[0].color : null;
}

function startPoll(gid) {
  const ctl = new AbortController();
  S.pollCtl = ctl;
  (async () => {
    let failures = 0;
    while (S.gid === gid && !ctl.signal.aborted) {
      try {
        const after = S.live ? S.live.version : "";
        const st = await api("GET", `/api/games/${gid}?after=${encodeURIComponent(after)}&wait=20`, null, ctl.signal);
        if (S.gid !== gid || ctl.signal.aborted) return;
        if (failures) { failures = 0; say("Connected again.", "info"); }
        if (!S.live || st.version !== S.live.version) await setLive(st);
      } catch (e) {
        if (ctl.signal.aborted) return;
        failures += 1;
        if (e instanceof ApiError && [401, 403, 404].includes(e.status)) { say(e.message); return; }
        say("Connection to the server lost — retrying…", "info");
        await sleep(Math.min(3000, 300 * failures));
      }
    }
  })();
}

async function setLive(st) {
  const changed = !S.live || S.live.version !== st.version;
  S.live = st;
  if (changed) S.sel = null;
  if (S.viewPly !== null && S.viewPly >= st.ply) S.viewPly = null;
  await showPly();
}

async function showPly() {
  const st = S.live;
  if (!st) return;
  if (S.viewPly === null || S.viewPly >= st.ply) {
    S.viewPly = null;
    S.shown = st;
  } else {
    const ply = S.viewPly;
    const shown = await api("GET", `/api/games/${st.id}?ply=${ply}`);
    if (S.viewPly !== ply) return;
    S.shown = shown;
  }
  render();
}

function navigate(ply) {
  const st = S.live;
  if (!st) return;
  ply = Math.max(0, Math.min(st.ply, ply));
  S.viewPly = ply >= st.ply ? null : ply;
  S.sel = null;
  // a link to this position (local games; a play-by-link URL carries a token instead)
  if (location.hash.startsWith("#/game/")) {
    history.replaceState(null, "", `#/game/${st.id}${S.viewPly === null ? "" : `/${S.viewPly}`}`);
  }
  showPly();
}

// ------------------------------------------------------------------ moves
async function send(move) {
  const st = S.live;
  if (S.busy) return;
  S.busy = true;
  try {
    const next = await api("POST", `/api/games/${st.id}/moves`, { move, ply: st.ply });
    say("");
    S.sel = null;
    await setLive(next);
  } catch (e) {
    say(e.code === "illegal_move" ? moveError(move, e.message) : e.message);
    if (e.code === "stale") { try { await setLive(await api("GET", `/api/games/${st.id}`)); } catch (_) { /* polled */ } }
  } finally {
    S.busy = false;
  }
}

function canAct() {
  const st = S.live;
  if (!st) return false;
  if (S.viewPly !== null) {
    say(`You are looking at move ${S.viewPly} of ${st.ply}: press » (End) to return to the game.`, "info");
    return false;
  }
  if (st.over) { say(`The game is over: ${st.result_text}.`, "info"); return false; }
  if (st.online && st.you === "spectator") { say("You are watching this game: only the players can move.", "info"); return false; }
  if (!st.your_turn) {
    say(st.thinking ? "The computer is thinking — its move will appear by itself." :
      st.engine_error ? st.engine_error : "It is not your turn.", "info");
    return false;
  }
  return true;
}

function onPoint(p) {
  if (!canAct()) return;
  gamePlugin(S.live.game).click(p, gameContext());
}

/* What a game's page plug-in (games/index.js) is handed: the state it may
 * read and the few things it may do. */
function gameContext(interactive = true) {
  return {
    live: S.live, legal: new Set(S.live.legal), sel: S.sel, piece: S.piece, interactive,
    select: (v) => { S.sel = v; render(); },
    setPiece: (v) => { S.piece = v; },
    send, say, render, canAct,
  };
}

// ------------------------------------------------------------------ drawing
function render() {
  const st = S.shown;
  const live = S.live;
  if (!st || !live) return;
  document.body.classList.toggle("viewing", S.viewPly !== null);
  renderBoard(st, live);
  renderPanel(st, live);
}

function renderBoard(st, live) {
  const svg = $("#board");
  const interactive = S.viewPly === null && live.your_turn && !live.over;
  svg.dataset.game = st.game;
  svg.dataset.ply = st.view_ply;
  svg.dataset.toMove = live.to_move || "";
  svg.dataset.yourTurn = interactive ? "yes" : "no";
  svg.dataset.thinking = live.thinking ? "yes" : "no";
  svg.dataset.over = live.over ? "yes" : "no";
  svg.dataset.version = live.version;
  svg.dataset.flipped = S.flipped ? "yes" : "no";
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
  plugin.overlay(st, live, marks, { ...gameContext(interactive), live });
  const { svg: markup, width } = boardSvg(st, {
    tint, rings, xs, legal: legalPts, kings: kingPts, last: new Set(st.last_points || []),
    chain: new Set(hints.chain || []), ghosts: (S.sel && S.sel.stones) || [], ghostColor: live.to_move,
    hintColor: live.to_move, cursor: S.cursor, flipped: S.flipped,
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

/* The move that led to the position shown, in words: a pass or a swap leaves
 * nothing on the board to mark, so it is said here. */
function lastMoveText(st, live) {
  const k = (S.viewPly === null ? live.ply : S.viewPly) - 1;
  if (k < 0 || !live.moves[k]) return "";
  const move = live.moves[k];
  const who = cap((live.movers || [])[k] || "");
  const what = {
    pass: `${who} passed`,
    swap: `${who} swapped (pie rule): the players exchanged colors`,
    button: `${who} took the button`,
    done: `${who} finished marking`,
    accept: `${who} accepted the removals`,
    reject: `${who} rejected the removals`,
  }[move] || (move.startsWith("mark ") ? `${who} marked the group at ${move.slice(5)}` : `${who} played ${move}`);
  return `Last move: ${what}.`;
}

function renderPanel(st, live) {
  $("#play-title").textContent = `${cap(live.game)} ${live.size}×${live.size}` +
    (live.meta && live.meta.source === "record" ? " (loaded record)" : "");
  document.title = `${cap(live.game)} — boardlab`;
  // players
  const players = $("#players");
  players.innerHTML = "";
  live.seats.forEach((seat, i) => {
    const color = seat.color;
    const turn = !live.over && S.viewPly === null && live.to_move_seat === i;
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
  // status
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
    if (live.online && live.komi_pending) text = "Waiting for the color pick (komi " + live.options.komi + ")";
    text += gamePlugin(live.game).statusText(st, live);
    status.textContent = text;
  }
  status.dataset.over = live.over ? "yes" : "no";
  $("#last-move").textContent = lastMoveText(st, live);
  const note = live.over && S.viewPly === null ? "" : gamePlugin(live.game).scoreNote;
  $("#score-note").textContent = seatScore(st, live.colors[0]) === "" ? "" : note;
  if (S.viewPly !== null) {
    status.textContent = `Viewing the position after move ${S.viewPly} of ${live.ply}`;
    status.className = "banner";
  }
  // move buttons
  const actions = $("#actions");
  actions.innerHTML = "";
  const interactive = S.viewPly === null && live.your_turn && !live.over;
  if (interactive) {
    for (const m of live.legal) {
      if (SPECIAL[m]) actions.append(el("button", { type: "button", class: "move", "data-move": m, text: SPECIAL[m], onclick: () => canAct() && send(m) }));
    }
    actions.append(...gamePlugin(live.game).actions(st, live, gameContext()));
  }
  // tools
  const vsComputer = live.seats.some((s) => s.kind === "computer");
  const watching = live.online && live.you === "spectator";
  $("#btn-undo").disabled = !live.can_undo || S.viewPly !== null || watching ||
    (live.online && !!live.undo_request);
  $("#btn-undo").textContent = (vsComputer ? "Undo (take back your move)" : live.online ? "Ask to undo" : "Undo") +
    (live.over && live.can_undo ? " — reopens the finished game" : "");
  $("#btn-flip").setAttribute("aria-pressed", S.flipped ? "true" : "false");
  $("#btn-again").hidden = !(live.over && !live.online && S.again && S.again.id === live.id);
  $("#btn-resign").disabled = live.over || watching;
  renderOnline(live);
  if (S.resignArmed === null) $("#btn-resign").textContent = "Resign";
  $("#btn-retry").hidden = !live.engine_error;
  $("#btn-analyse").hidden = !analysisAllowed(live);
  $("#dl-text").href = `/api/games/${live.id}/record?format=text`;
  $("#dl-json").href = `/api/games/${live.id}/record?format=json`;
  // move list
  const list = $("#movelist");
  list.innerHTML = "";
  const colorsByPly = live.movers || [];
  live.moves.forEach((m, k) => {
    const b = el("button", { type: "button", "data-ply": k + 1, text: m, onclick: () => navigate(k + 1),
      "aria-label": `Move ${k + 1}: ${colorsByPly[k] || ""} ${m}` });
    if ((S.viewPly === null ? live.ply : S.viewPly) === k + 1) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
    const dot = colorsByPly[k] ? el("span", { class: "dot", style: `background:${COLORS[colorsByPly[k]]}` }) : null;
    list.append(el("li", {}, el("span", { class: "num", text: `${k + 1}.` }), dot, b));
  });
  const cur = list.querySelector(".current");
  if (cur && S.viewPly === null) list.scrollTop = list.scrollHeight;
  else if (cur) cur.scrollIntoView({ block: "nearest" });
  const at = S.viewPly === null ? live.ply : S.viewPly;
  $("#nav-pos").textContent = `move ${at} / ${live.ply}`;
  $("#nav-first").disabled = at === 0;
  $("#nav-prev").disabled = at === 0;
  $("#nav-next").disabled = at >= live.ply;
  $("#nav-last").disabled = at >= live.ply;
  updateCursorInfo();
}

function renderOnline(live) {
  $("#online").hidden = !live.online;
  if (!live.online) return;
  const you = live.you;
  $("#online-you").textContent = you === "spectator" ? "You are watching this game."
    : `You play ${you.color}. ${live.connected[1 - you.seat] ? "Your friend is connected." : "Your friend is not connected."}`;
  let links = null;
  try { links = JSON.parse(sessionStorage.getItem(`boardlab-links-${live.id}`) || "null"); } catch (_) { links = null; }
  $("#online-links").hidden = !links || you === "spectator";
  if (links) {
    $("#invite-link").value = location.origin + links.invite;
    $("#spectate-link").value = location.origin + links.spectate;
  }
  const mine = you !== "spectator" ? live.seats[you.seat] : null;
  $("#name-form").hidden = !mine || live.over;
  if (mine && document.activeElement !== $("#my-name")) $("#my-name").value = mine.label || "";
  const ask = $("#online-ask");
  ask.innerHTML = "";
  const req = live.undo_request;
  if (req && you !== "spectator" && !live.over) {
    if (req.by === you.seat) ask.append(el("span", { text: "Waiting for your friend to answer your undo request…" }));
    else {
      ask.append(el("span", { text: "Your friend asks to take back their last move." }),
        el("button", { type: "button", "data-action": "undo-accept", text: "Allow undo", onclick: () => answerUndo(true) }),
        el("button", { type: "button", "data-action": "undo-decline", text: "Decline", onclick: () => answerUndo(false) }));
    }
  }
  if (live.komi_pending && you !== "spectator") {
    if (you.seat === live.meta.creator_seat) ask.append(el("span", { text: `You named komi ${live.options.komi}; your friend picks a color.` }));
    else {
      ask.append(el("span", { text: `Your friend named komi ${live.options.komi}. Pick your color:` }));
      for (const c of live.colors) ask.append(el("button", { type: "button", "data-action": `pick-${c}`, text: `Play ${c}`,
        onclick: async () => { try { await setLive(await api("POST", `/api/games/${live.id}/komi`, { color: c })); } catch (e) { say(e.message); } } }));
    }
  }
  S.clockAt = performance.now();
  if (live.clock && !S.clockTimer) S.clockTimer = setInterval(renderClock, 250);
  renderClock();
}

function renderClock() {
  const live = S.live;
  const box = $("#clock");
  if (!live || !live.online || !live.clock) { box.textContent = ""; return; }
  const c = live.clock;
  const gone = (performance.now() - S.clockAt) / 1000;
  const show = formatClock;
  box.textContent = live.seats.map((seat, i) => {
    const t = c.remaining[i] - (c.running === i && !live.over ? gone : 0);
    return `${cap(seat.color)} ${show(t)}${c.running === i && !live.over ? " ◀" : ""}`;
  }).join("   ") + (c.kind === "move" ? "  (per move)" : c.increment ? `  (+${c.increment}s)` : "");
}

async function answerUndo(accept) {
  try { await setLive(await api("POST", `/api/games/${S.live.id}/undo/answer`, { accept })); }
  catch (e) { say(e.message); }
}

async function downloadRecord(ev, format) {
  if (!S.live || !seatToken(S.live.id)) return;  // a public game: the plain link works
  ev.preventDefault();
  try {
    const res = await fetch(`/api/games/${S.live.id}/record?format=${format}`, { headers: { "X-Seat-Token": seatToken(S.live.id) } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", { href: url, download: `${S.live.game}-${S.live.id}.${format === "json" ? "json" : "txt"}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  } catch (e) { say(e.message); }
}

function updateCursorInfo() {
  const st = S.shown;
  if (!st || S.cursor === null) return;
  const name = pointName(S.cursor, st.size);
  const piece = st.cells[S.cursor];
  $("#cursor-info").textContent = document.activeElement === $("#board")
    ? `Cursor ${name}: ${piece ? `${piece.color || ""} ${piece.type}${piece.height > 1 ? " of " + piece.height : ""}` : "empty"}`
    : "";
}

// ------------------------------------------------------------------ events
function initPlay() {
  const svg = $("#board");
  svg.addEventListener("click", (ev) => {
    const g = ev.target.closest("[data-point]");
    if (!g) return;
    S.cursor = parseInt(g.dataset.index, 10);
    onPoint(g.dataset.point);
  });
  svg.addEventListener("focus", () => { updateCursorInfo(); });
  svg.addEventListener("blur", () => { $("#cursor-info").textContent = ""; });
  svg.addEventListener("keydown", (ev) => {
    const st = S.shown;
    if (!st) return;
    const n = st.size;
    if (S.cursor === null) S.cursor = 0;
    let col = S.cursor % n, row = Math.floor(S.cursor / n);
    const key = ev.key;
    if (key === "ArrowLeft") col = Math.max(0, col - 1);
    else if (key === "ArrowRight") col = Math.min(n - 1, col + 1);
    else if (key === "ArrowUp") row = Math.min(n - 1, row + 1);
    else if (key === "ArrowDown") row = Math.max(0, row - 1);
    else if (key === "Enter" || key === " ") { ev.preventDefault(); onPoint(pointName(S.cursor, n)); return; }
    else if (key === "Escape") { S.sel = null; say(""); render(); return; }
    else return;
    ev.preventDefault();
    S.cursor = row * n + col;
    render();
  });
  document.addEventListener("keydown", (ev) => {
    if ($("#view-play").hidden || !S.live || analysisActive()) return;
    const t = ev.target;
    if (t === svg || (t && t.closest && t.closest("input, select, textarea, dialog"))) return;
    const at = S.viewPly === null ? S.live.ply : S.viewPly;
    if (ev.key === "ArrowLeft") navigate(at - 1);
    else if (ev.key === "ArrowRight") navigate(at + 1);
    else if (ev.key === "Home") navigate(0);
    else if (ev.key === "End") navigate(S.live.ply);
    else return;
    ev.preventDefault();
  });
  $("#nav-first").addEventListener("click", () => navigate(0));
  $("#nav-prev").addEventListener("click", () => navigate((S.viewPly === null ? S.live.ply : S.viewPly) - 1));
  $("#nav-next").addEventListener("click", () => navigate((S.viewPly === null ? S.live.ply : S.viewPly) + 1));
  $("#nav-last").addEventListener("click", () => navigate(S.live.ply));
  $("#btn-undo").addEventListener("click", async () => {
    try {
      S.viewPly = null;
      const wasOnline = S.live.online;
      await setLive(await api("POST", `/api/games/${S.live.id}/undo`));
      say(wasOnline ? "Asked your friend to allow an undo." : "Taken back.", "info");
    } catch (e) { say(e.message); }
  });
  $("#btn-resign").addEventListener("click", async () => {
    const b = $("#btn-resign");
    if (S.resignArmed === null) {
      b.textContent = "Really resign? Click again";
      S.resignArmed = setTimeout(() => { S.resignArmed = null; b.textContent = "Resign"; }, 5000);
      return;
    }
    clearTimeout(S.resignArmed);
    S.resignArmed = null;
    try { await setLive(await api("POST", `/api/games/${S.live.id}/resign`, {})); } catch (e) { say(e.message); }
  });
  $("#btn-retry").addEventListener("click", async () => {
    try { await setLive(await api("POST", `/api/games/${S.live.id}/engine`)); } catch (e) { say(e.message); }
  });
  $("#btn-rules").addEventListener("click", () => S.live && showRules(S.live.game));
  $("#btn-analyse").addEventListener("click", startAnalysis);
  initAnalysis();
  $("#dl-text").addEventListener("click", (ev) => downloadRecord(ev, "text"));
  $("#dl-json").addEventListener("click", (ev) => downloadRecord(ev, "json"));
  copyField($("#invite-link"));
  copyField($("#spectate-link"));
  for (const b of document.querySelectorAll("button[data-copy]")) {
    b.addEventListener("click", () => copyText($(`#${b.dataset.copy}`), b));
  }
  $("#name-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await setLive(await api("POST", `/api/games/${S.live.id}/name`, { name: $("#my-name").value }));
      say("Name saved.", "info");
    } catch (e) { say(e.message); }
  });
  $("#btn-flip").addEventListener("click", () => { S.flipped = !S.flipped; render(); });
  $("#btn-again").addEventListener("click", () => S.again && createGame(S.again.body));
  $("#rules-close").addEventListener("click", () => $("#rules-dialog").close());
  $("#rules-dialog").addEventListener("click", (ev) => { if (ev.target === $("#rules-dialog")) $("#rules-dialog").close(); });
}

/* Analysis mode (analysis.js) on the game shown, from the position shown;
 * the variations played there are kept with the game (its record). */
function startAnalysis() {
  const st = S.live;
  if (!analysisAllowed(st)) return;
  const gid = st.id;
  openAnalysis({
    id: gid, game: st.game, size: st.size, options: st.options, start: (st.meta || {}).start || null,
    moves: st.moves, colors: st.colors, flipped: S.flipped,
    ply: S.viewPly === null ? st.ply : S.viewPly, variations: (st.meta || {}).variations || [],
    onSave: async (variations) => {
      try {
        const next = await api("PUT", `/api/games/${gid}/variations`, { variations });
        if (S.live && S.live.id === gid) S.live = next;
      } catch (e) { say(`The variations could not be saved: ${e.message}`); }
    },
  });
}

window.boardlab = {
  analysis: analysisState,
  state: () => S.shown,
  live: () => S.live,
  selection: () => S.sel,
};

useLinkToken(() => S.token);
window.addEventListener("hashchange", route);
document.addEventListener("DOMContentLoaded", async () => {
  initPlay();
  initLoad();
  try { await initForm(); } catch (e) { $("#ng-error").textContent = `Cannot reach the server: ${e.message}`; }
  route();
});
