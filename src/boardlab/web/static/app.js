/* boardlab in the browser: plain JS, no build step.
 *
 * The server owns every rule: this page draws the JSON it gets from the API
 * (board cells, legal moves, hints) and turns clicks into moves in the
 * notation of RULES.md. A click that is not a legal move is still sent, so
 * the library says why it is refused.
 *
 * Test hooks: every point of the board is <g data-point="c3">, every move
 * button has data-move="swap" (etc.), and window.boardlab.state() is the
 * state the page shows.
 */
"use strict";

const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijklmnopqrs";
const COLORS = { black: "#151515", white: "#f7f7f2", blue: "#2563c9", orange: "#f08a24" };
const TEXT_ON = { black: "#fff", white: "#111", blue: "#fff", orange: "#111" };
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
};

// ------------------------------------------------------------------ API
class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

async function api(method, url, body, signal) {
  const opts = { method, headers: {}, signal };
  if (S.token && url.startsWith("/api/games/")) opts.headers["X-Seat-Token"] = S.token;
  if (body !== undefined && body !== null) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  if (res.status === 204) return null;
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || { code: "http_error", message: `HTTP ${res.status}` };
    throw new ApiError(res.status, err.code, err.message);
  }
  return data;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ helpers
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
const fmt = (v) => (Number.isInteger(v) ? String(v) : String(v));

function pointName(i, size) { return FILES[i % size] + (Math.floor(i / size) + 1); }
function pointIndex(name, size) {
  const col = FILES.indexOf(name[0]);
  const row = parseInt(name.slice(1), 10) - 1;
  return row * size + col;
}
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

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
    $("#view-play").hidden = false;
    if (S.gid !== parts[1] || S.token !== decodeURIComponent(parts[2])) closeGame();
    S.token = decodeURIComponent(parts[2]);
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
  gameSel.value = kinds.some((k) => k.name === "robble") ? "robble" : kinds[0].name;
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
  if ($("#ng-game").value !== "yugo") return;
  try {
    const r = await api("GET", `/api/yugo/komi?size=${$("#ng-size").value}&engine=${encodeURIComponent($("#ng-engine").value)}`);
    $("#ng-komi-proposal").textContent = r.komi;
  } catch (e) { $("#ng-komi-proposal").textContent = "?"; }
}

async function startGame(ev) {
  ev.preventDefault();
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
      body.komi_negotiation = { namer: "human", komi: parseInt($("#ng-komi-hs").value || "0", 10) };
    } else {
      body.color = $("#ng-color").value;
    }
  } else if ("komi" in k.options) {
    if (opponent === "computer") {
      const namer = document.querySelector("input[name=komi-namer]:checked").value;
      body.komi_negotiation = namer === "human"
        ? { namer, komi: parseInt($("#ng-komi").value || "0", 10) }
        : { namer, color: $("#ng-komi-color").value };
    } else {
      body.options.komi = parseInt($("#ng-komi-hs").value || "0", 10);
    }
  }
  $("#ng-error").textContent = "";
  $("#ng-start").disabled = true;
  try {
    const st = await api("POST", "/api/games", body);
    S.live = st;
    if (st.online) {  // keep the links for this tab (a reload still shows the invite)
      try { sessionStorage.setItem(`boardlab-links-${st.id}`, JSON.stringify(st.links)); } catch (_) { /* private mode */ }
      location.hash = st.links.you.slice(1);
    } else {
      location.hash = `#/game/${st.id}`;
    }
  } catch (e) {
    $("#ng-error").textContent = e.message;
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
    const status = g.result ? `${g.result.winner} won (${g.result.termination})` : g.status;
    const when = new Date(g.updated * 1000).toLocaleString();
    const open = el("a", { class: "button", href: `#/game/${g.id}`, "data-open": g.id,
      text: g.status === "over" ? "Review" : "Resume" });
    const del = el("button", { type: "button", class: "danger", "aria-label": `Delete game ${g.id}`, text: "Delete",
      onclick: async () => { await api("DELETE", `/api/games/${g.id}`); loadSaved(); } });
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
  } catch (e) {
    $("#rules-body").textContent = e.message;
  }
  $("#rules-close").focus();
}

// ------------------------------------------------------------------ game page
function closeGame() {
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
      if (msg.error.code === "missing_token" || msg.error.code === "wrong_token") refused = true;
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
    say(e.code === "illegal_move" ? `${move}: ${e.message}` : e.message);
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
  if (!st.your_turn) {
    say(st.thinking ? "The computer is thinking — its move will appear by itself." :
      st.engine_error ? st.engine_error : "It is not your turn.", "info");
    return false;
  }
  return true;
}

function onPoint(p) {
  if (!canAct()) return;
  const st = S.live;
  const legal = new Set(st.legal);
  const handler = { implo: clickImplo, yugo: clickYugo, pilo: clickPilo, vimbre: clickVimbre }[st.game];
  if (handler) handler(p, st, legal);
  else send(p);
}

function clickImplo(p, st, legal) {
  const patches = st.hints.patches || [];
  if (!patches.length) return send(p);
  if (S.sel && S.sel.patch) {
    const choice = S.sel.patch.choices.find((c) => c.points.includes(p));
    if (choice) return send(choice.move);
  }
  const patch = patches.find((pt) => pt.points.includes(p));
  if (patch) {
    if (patch.move) return send(patch.move);
    S.sel = { patch };
    render();
    say(`Patch at ${patch.anchor}: its owner's biggest groups are tied — click the group to remove, or use a button.`, "info");
    return;
  }
  const choiceOwner = patches.find((pt) => pt.choices.some((c) => c.points.includes(p)));
  if (choiceOwner) {
    return send(choiceOwner.choices.find((c) => c.points.includes(p)).move);
  }
  return send(p);  // the library explains: resolve the patches first
}

function clickYugo(p, st, legal) {
  const phase = st.hints.phase;
  if (phase === "mark") {
    const g = (st.hints.markable || []).find((m) => m.points.includes(p));
    return send(g ? g.move : `mark ${p}`);
  }
  if (phase === "answer") { say("Accept or reject the proposed removals with the buttons.", "info"); return; }
  if (S.piece === "king") return send(`k${p}`);
  if (S.piece === "pawn") return send(p);
  return send(legal.has(`k${p}`) ? `k${p}` : p);
}

function stackMoves(st, from) { return st.legal.filter((m) => m.startsWith(`${from}-`)); }

function clickPilo(p, st, legal) {
  const cell = st.cells[pointIndex(p, st.size)];
  const mine = cell && cell.type === "stack" && cell.color === st.to_move;
  if (S.sel && S.sel.from) {
    const from = S.sel.from;
    if (p === from) { S.sel = null; render(); say(""); return; }
    const mv = `${from}-${p}`;
    if (legal.has(mv)) return send(mv);
    if (mine && stackMoves(st, p).length) { S.sel = { from: p }; render(); return; }
    return send(mv);
  }
  if (mine) {
    if (stackMoves(st, p).length) {
      S.sel = { from: p };
      render();
      say(`Stack on ${p} selected: click the enemy stack to take (highlighted), or the stack again to cancel.`, "info");
      return;
    }
    say(`The stack on ${p} has no move: it needs an enemy stack of the same height in a straight line, ` +
        "with only empty squares or your own stacks between.");
    return;
  }
  return send(p);
}

function vimbrePair(a, b, size) {
  return pointIndex(a, size) < pointIndex(b, size) ? `${a},${b}` : `${b},${a}`;
}

function clickVimbre(p, st, legal) {
  const cell = st.cells[pointIndex(p, st.size)];
  if (cell) {
    if (cell.color !== st.to_move) return send(`x${p}`);
    say(`${p} is your own stone: you can flip only an enemy stone sandwiched between two of yours.`);
    return;
  }
  const stones = (S.sel && S.sel.stones) || [];
  if (stones.includes(p)) {
    S.sel = stones.length > 1 ? { stones: stones.filter((q) => q !== p) } : null;
    render();
    return;
  }
  if (stones.length === 0) {
    const usable = legal.has(p) || st.legal.some((m) => m.includes(",") && m.split(",").includes(p));
    if (!usable) return send(p);
    S.sel = { stones: [p] };
    render();
    say(legal.has(p) ? `${p} selected: confirm to place one stone, or click a second point.` :
      `${p} selected: it needs a second stone — click one.`, "info");
    return;
  }
  if (stones.length === 1) {
    const mv = vimbrePair(stones[0], p, st.size);
    if (legal.has(mv)) {
      S.sel = { stones: [stones[0], p] };
      render();
      say(`${mv} selected: confirm the turn.`, "info");
      return;
    }
    return send(mv);
  }
  say("Two stones are already selected: confirm, or click one of them to take it back.");
}

function confirmVimbre() {
  const st = S.live;
  const stones = (S.sel && S.sel.stones) || [];
  if (!stones.length || !canAct()) return;
  send(stones.length === 2 ? vimbrePair(stones[0], stones[1], st.size) : stones[0]);
}

// ------------------------------------------------------------------ drawing
const C = 44;          // cell / point spacing
const M_SQUARES = 34;  // margin for coordinates: squares boards
const M_POINTS = 54;   // points boards: half a cell of wood plus the coordinates

function geometry(st) {
  const squares = st.board === "squares";
  const n = st.size;
  const M = squares ? M_SQUARES : M_POINTS;
  const span = squares ? n * C : (n - 1) * C;
  const W = span + 2 * M;
  const xy = (i) => {
    const col = i % n, row = Math.floor(i / n);
    const x = M + col * C + (squares ? C / 2 : 0);
    const y = M + (n - 1 - row) * C + (squares ? C / 2 : 0);
    return [x, y];
  };
  return { squares, n, span, W, xy, M };
}

function pieceSvg(piece, x, y, extra = "") {
  const r = C * 0.42;
  const fill = COLORS[piece.color] || "#888";
  const stroke = piece.color === "white" ? "#333" : "#000";
  switch (piece.type) {
    case "stone":
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" stroke="${stroke}" stroke-width="1.5" ${extra}/>`;
    case "marker": {
      const h = C * 0.46;
      return `<rect x="${x - h / 2}" y="${y - h / 2}" width="${h}" height="${h}" rx="3" fill="${fill}" stroke="${stroke}" stroke-width="1.5" ${extra}/>` +
        `<rect x="${x - h / 5}" y="${y - h / 5}" width="${(2 * h) / 5}" height="${(2 * h) / 5}" fill="${piece.color === "white" ? "#bbb" : "#666"}" ${extra}/>`;
    }
    case "pawn":
      return `<circle cx="${x}" cy="${y}" r="${r * 0.9}" fill="${fill}" stroke="${stroke}" stroke-width="1.5" ${extra}/>`;
    case "king": {
      const w = r * 0.62, top = y - r * 0.45, base = y + r * 0.35;
      const crown = `M${x - w},${base} L${x - w},${top + r * 0.25} L${x - w / 2},${y - r * 0.05} L${x},${top} ` +
        `L${x + w / 2},${y - r * 0.05} L${x + w},${top + r * 0.25} L${x + w},${base} Z`;
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" stroke="#c9a227" stroke-width="3.5" ${extra}/>` +
        `<path d="${crown}" fill="#d4af37" stroke="${piece.color === "white" ? "#333" : "#fff"}" stroke-width="1" ${extra}/>`;
    }
    case "stack": {
      const h = piece.height || 1;
      let s = "";
      for (let k = Math.min(h, 4) - 1; k >= 1; k--) {
        s += `<circle cx="${x}" cy="${y + k * 2.5}" r="${r * 0.92}" fill="${fill}" stroke="#222" stroke-width="1" opacity=".85"/>`;
      }
      s += `<circle cx="${x}" cy="${y}" r="${r * 0.92}" fill="${fill}" stroke="#222" stroke-width="1.5" ${extra}/>`;
      s += `<text class="stack-h" x="${x}" y="${y}" fill="${TEXT_ON[piece.color]}">${h}</text>`;
      return s;
    }
    case "block": {
      const h = C * 0.86;
      return `<rect x="${x - h / 2}" y="${y - h / 2}" width="${h}" height="${h}" rx="4" fill="#5d5d5d" stroke="#2b2b2b" stroke-width="2" ${extra}/>` +
        `<path d="M${x - h / 3},${y - h / 3} L${x + h / 3},${y + h / 3} M${x + h / 3},${y - h / 3} L${x - h / 3},${y + h / 3}" stroke="#8a8a8a" stroke-width="3"/>`;
    }
    default:
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="#c0c" ${extra}/>`;
  }
}

function render() {
  const st = S.shown;
  const live = S.live;
  if (!st || !live) return;
  document.body.classList.toggle("viewing", S.viewPly !== null);
  renderBoard(st, live);
  renderPanel(st, live);
}

function renderBoard(st, live) {
  const g = geometry(st);
  const { n, W, xy, squares, M } = g;
  const svg = $("#board");
  svg.setAttribute("viewBox", `0 0 ${W} ${W}`);
  const interactive = S.viewPly === null && live.your_turn && !live.over;
  svg.dataset.game = st.game;
  svg.dataset.ply = st.view_ply;
  svg.dataset.toMove = live.to_move || "";
  svg.dataset.yourTurn = interactive ? "yes" : "no";
  svg.dataset.thinking = live.thinking ? "yes" : "no";
  svg.dataset.over = live.over ? "yes" : "no";
  svg.dataset.version = live.version;
  let out = "";
  const lo = M, hi = M + g.span;
  // board background and edges
  if (squares) {
    out += `<rect x="${lo - 4}" y="${lo - 4}" width="${g.span + 8}" height="${g.span + 8}" fill="#6b4f2a" rx="4"/>`;
    for (let i = 0; i < n * n; i++) {
      const [x, y] = xy(i);
      const dark = (i % n + Math.floor(i / n)) % 2 === 0;
      out += `<rect x="${x - C / 2}" y="${y - C / 2}" width="${C}" height="${C}" fill="${dark ? "#d9bf8c" : "#ead6ad"}"/>`;
    }
  } else {
    out += `<rect x="${lo - C / 2}" y="${lo - C / 2}" width="${g.span + C}" height="${g.span + C}" fill="#e3c58f" rx="6"/>`;
    if (st.game === "vimbre") {
      const t = 7, o = C / 2 - 3;
      out += `<rect x="${lo - o}" y="${lo - o - t}" width="${g.span + 2 * o}" height="${t}" fill="${COLORS.black}" aria-label="black edge"/>`;
      out += `<rect x="${lo - o}" y="${hi + o}" width="${g.span + 2 * o}" height="${t}" fill="${COLORS.black}"/>`;
      out += `<rect x="${lo - o - t}" y="${lo - o}" width="${t}" height="${g.span + 2 * o}" fill="${COLORS.white}" stroke="#444" stroke-width="1"/>`;
      out += `<rect x="${hi + o}" y="${lo - o}" width="${t}" height="${g.span + 2 * o}" fill="${COLORS.white}" stroke="#444" stroke-width="1"/>`;
    }
    for (let k = 0; k < n; k++) {
      const p = M + k * C;
      out += `<line x1="${lo}" y1="${p}" x2="${hi}" y2="${p}" stroke="#5a4525" stroke-width="1.2"/>`;
      out += `<line x1="${p}" y1="${lo}" x2="${p}" y2="${hi}" stroke="#5a4525" stroke-width="1.2"/>`;
    }
  }
  // coordinates
  for (let k = 0; k < n; k++) {
    const [x] = xy(k);
    const [, y] = xy(k * n);
    const d = squares ? M / 2 : 13;
    out += `<text class="coord" x="${x}" y="${d - 2}">${FILES[k]}</text>`;
    out += `<text class="coord" x="${x}" y="${W - d + 2}">${FILES[k]}</text>`;
    out += `<text class="coord" x="${d - 2}" y="${y}">${k + 1}</text>`;
    out += `<text class="coord" x="${W - d + 2}" y="${y}">${k + 1}</text>`;
  }
  // highlights computed from hints and the selection
  const tint = {};     // point -> fill color under the piece
  const rings = {};    // point -> ring color over the piece
  const xs = {};       // point -> cross (yugo marks)
  const hints = st.hints || {};
  const legal = interactive ? new Set(live.legal) : new Set();
  const legalPts = new Set();
  const kingPts = new Set();
  for (const m of legal) {
    if (st.game === "vimbre" || /^[a-s]\d+$/.test(m)) for (const q of m.split(",")) legalPts.add(q);
    if (st.game === "yugo" && /^k[a-s]\d+$/.test(m)) { kingPts.add(m.slice(1)); legalPts.add(m.slice(1)); }
  }
  if (st.game === "implo" && hints.patches) {
    for (const patch of hints.patches) {
      const sel = S.sel && S.sel.patch && S.sel.patch.anchor === patch.anchor;
      for (const q of patch.points) tint[q] = sel ? "rgba(255,140,0,.55)" : "rgba(255,215,0,.5)";
      if (sel) for (const ch of patch.choices) for (const q of ch.points) rings[q] = "#e8590c";
    }
  }
  if (st.game === "yugo") {
    for (const m of hints.marked || []) for (const q of m.points) xs[q] = true;
    if (interactive && hints.phase === "mark") for (const m of hints.markable || []) for (const q of m.points) tint[q] = "rgba(255,215,0,.35)";
  }
  if (st.game === "pilo" && S.sel && S.sel.from) {
    rings[S.sel.from] = "#1f5fbf";
    for (const m of stackMoves(live, S.sel.from)) rings[m.split("-")[1]] = "#e8590c";
  }
  if (st.game === "pilo" && interactive && !(S.sel && S.sel.from)) {
    for (const m of live.legal) if (m.includes("-")) legalPts.add(m.split("-")[0]);
  }
  const lastPts = new Set(st.last_points || []);
  const selStones = (S.sel && S.sel.stones) || [];
  // points
  for (let i = 0; i < n * n; i++) {
    const name = pointName(i, n);
    const [x, y] = xy(i);
    const piece = st.cells[i];
    const label = piece ? `${name} ${piece.color || ""} ${piece.type}${piece.height > 1 ? " of " + piece.height : ""}` : `${name} empty`;
    const cls = ["pt"];
    if (legalPts.has(name)) cls.push("legal");
    out += `<g class="${cls.join(" ")}" data-point="${name}" data-index="${i}" aria-label="${esc(label)}">`;
    out += `<rect class="hit" x="${x - C / 2}" y="${y - C / 2}" width="${C}" height="${C}"/>`;
    if (tint[name]) out += `<rect x="${x - C / 2 + 1}" y="${y - C / 2 + 1}" width="${C - 2}" height="${C - 2}" rx="4" fill="${tint[name]}"/>`;
    if (piece) out += pieceSvg(piece, x, y);
    else if (selStones.includes(name)) out += pieceSvg({ type: "stone", color: live.to_move }, x, y, 'opacity=".6"') +
      `<circle cx="${x}" cy="${y}" r="${C * 0.46}" fill="none" stroke="#1f5fbf" stroke-width="3" stroke-dasharray="5 3"/>`;
    else if (legalPts.has(name) && live.to_move) {
      const hintPiece = kingPts.has(name) ? { type: "king", color: live.to_move } : { type: st.game === "pilo" ? "stack" : "stone", color: live.to_move, height: 1 };
      out += `<g class="hint">${pieceSvg(hintPiece, x, y, 'opacity=".5"')}</g>`;
    }
    if (kingPts.has(name) && !piece) out += `<circle cx="${x}" cy="${y}" r="4" fill="#d4af37" stroke="#7a5c00"/>`;
    if (rings[name]) out += `<circle cx="${x}" cy="${y}" r="${C * 0.47}" fill="none" stroke="${rings[name]}" stroke-width="3.5"/>`;
    if (xs[name]) out += `<path d="M${x - 10},${y - 10} L${x + 10},${y + 10} M${x + 10},${y - 10} L${x - 10},${y + 10}" stroke="#d7261e" stroke-width="4"/>`;
    if (lastPts.has(name)) out += `<rect x="${x - 6}" y="${y - 6}" width="12" height="12" fill="none" stroke="#e03131" stroke-width="3" class="last"/>`;
    out += "</g>";
  }
  // keyboard cursor
  if (S.cursor !== null && S.cursor < n * n) {
    const [x, y] = xy(S.cursor);
    out += `<rect class="cursor" x="${x - C / 2 + 2}" y="${y - C / 2 + 2}" width="${C - 4}" height="${C - 4}" fill="none" stroke="transparent" stroke-width="3" rx="5" pointer-events="none"/>`;
  }
  svg.innerHTML = out;
}

function seatScore(st, color) {
  const sc = (st.result && st.result.scores) || st.scores;
  if (!sc || sc[color] === undefined || sc[color] === null) return "";
  return fmt(sc[color]);
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
    if (live.game === "yugo" && st.hints && st.hints.button === color) extra.push("has the button");
    if (live.game === "yugo" && color === "white" && live.options.komi) extra.push(`komi ${live.options.komi}`);
    const div = el("div", { class: `seat${turn ? " turn" : ""}`, "data-seat": i, "data-color": color },
      el("span", { class: "swatch", style: `background:${COLORS[color]}` }),
      el("span", { text: `${cap(color)}: ${seat.label || seat.kind}` }),
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
    if (live.mid_turn && live.game === "implo") text += " — resolve the highlighted patches";
    if (live.game === "yugo" && st.hints.phase === "mark") text += " — mark the groups to remove, then Done";
    if (live.game === "yugo" && st.hints.phase === "answer") text += " — accept or reject the marked groups";
    status.textContent = text;
  }
  status.dataset.over = live.over ? "yes" : "no";
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
    if (live.game === "vimbre") {
      const stones = (S.sel && S.sel.stones) || [];
      actions.append(el("button", { type: "button", class: "move", "data-action": "confirm", disabled: stones.length === 0,
        text: stones.length ? `Confirm ${stones.join(" + ")}` : "Confirm (select stones first)", onclick: confirmVimbre }));
      if (stones.length) actions.append(el("button", { type: "button", "data-action": "clear", text: "Clear", onclick: () => { S.sel = null; render(); } }));
    }
    if (live.game === "implo" && S.sel && S.sel.patch) {
      actions.append(el("span", { class: "choice-label", text: `Patch ${S.sel.patch.anchor}: remove which tied group?` }));
      for (const ch of S.sel.patch.choices) {
        actions.append(el("button", { type: "button", class: "move", "data-move": ch.move, text: `Group at ${ch.group} (${ch.points.length})`, onclick: () => canAct() && send(ch.move) }));
      }
    }
    if (live.game === "pilo" && S.sel && S.sel.from) {
      actions.append(el("button", { type: "button", "data-action": "clear", text: `Cancel (${S.sel.from})`, onclick: () => { S.sel = null; render(); } }));
    }
    if (live.game === "yugo" && (st.hints.phase || "play") === "play") {
      const group = el("div", { class: "buttons", role: "radiogroup", "aria-label": "Piece to place" }, el("span", { text: "Piece:" }));
      for (const [val, text] of [["auto", "Auto"], ["pawn", "Pawn"], ["king", "King"]]) {
        const id = `piece-${val}`;
        const input = el("input", { type: "radio", name: "piece", id, value: val, checked: S.piece === val,
          onchange: () => { S.piece = val; } });
        group.append(el("label", { for: id }, input, ` ${text}`));
      }
      actions.append(group);
    }
  }
  // tools
  const vsComputer = live.seats.some((s) => s.kind === "computer");
  const watching = live.online && live.you === "spectator";
  $("#btn-undo").disabled = !live.can_undo || S.viewPly !== null || watching ||
    (live.online && !!live.undo_request);
  $("#btn-undo").textContent = vsComputer ? "Undo (take back your move)" : live.online ? "Ask to undo" : "Undo";
  $("#btn-resign").disabled = live.over || watching;
  renderOnline(live);
  if (S.resignArmed === null) $("#btn-resign").textContent = "Resign";
  $("#btn-retry").hidden = !live.engine_error;
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
  const show = (t) => { t = Math.max(0, t); const m = Math.floor(t / 60); const sec = t - 60 * m; return `${m}:${sec < 10 ? "0" : ""}${sec.toFixed(1)}`; };
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
  if (!S.token || !S.live) return;  // not online: the plain link works
  ev.preventDefault();
  try {
    const res = await fetch(`/api/games/${S.live.id}/record?format=${format}`, { headers: { "X-Seat-Token": S.token } });
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
    if ($("#view-play").hidden || !S.live) return;
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
  $("#dl-text").addEventListener("click", (ev) => downloadRecord(ev, "text"));
  $("#dl-json").addEventListener("click", (ev) => downloadRecord(ev, "json"));
  copyField($("#invite-link"));
  copyField($("#spectate-link"));
  $("#rules-close").addEventListener("click", () => $("#rules-dialog").close());
  $("#rules-dialog").addEventListener("click", (ev) => { if (ev.target === $("#rules-dialog")) $("#rules-dialog").close(); });
}

window.boardlab = {
  state: () => S.shown,
  live: () => S.live,
  selection: () => S.sel,
};

window.addEventListener("hashchange", route);
document.addEventListener("DOMContentLoaded", async () => {
  initPlay();
  initLoad();
  try { await initForm(); } catch (e) { $("#ng-error").textContent = `Cannot reach the server: ${e.message}`; }
  route();
});
