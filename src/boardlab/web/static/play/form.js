/* The new-game form: the catalogue (/api/kinds, /api/engines) as choices,
 * the request it makes (newGameBody) and the game it starts (createGame). */
import { api } from "../api.js";
import { $, cap, el, say } from "../dom.js";
import { parseWhole } from "../format.js";
import { DEFAULT_GAME } from "../games/index.js";

/* Fill the form from the server's catalogue; ``showRules(name)`` opens a
 * game's rules. */
export async function initForm(s, showRules) {
  const [kinds, engines] = await Promise.all([api("GET", "/api/kinds"), api("GET", "/api/engines")]);
  s.engines = engines;
  const gameSel = $("#ng-game");
  const links = $("#rules-links");
  kinds.forEach((k, i) => {
    s.kinds[k.name] = k;
    gameSel.append(el("option", { value: k.name, text: cap(k.name) }));
    if (i) links.append(", ");
    links.append(el("a", { href: `/rules/${k.name}`, text: cap(k.name),
      onclick: (ev) => { ev.preventDefault(); showRules(k.name); } }));
  });
  for (const e of engines) $("#ng-engine").append(el("option", { value: e.name, text: e.label }));
  gameSel.value = kinds.some((k) => k.name === DEFAULT_GAME) ? DEFAULT_GAME : kinds[0].name;
  gameSel.addEventListener("change", () => formChanged(s));
  $("#ng-size").addEventListener("change", () => updateKomiProposal(s));
  $("#ng-engine").addEventListener("change", () => { showLevel(s); updateKomiProposal(s); });
  for (const r of document.querySelectorAll("input[name=opponent]")) r.addEventListener("change", () => formOpponent(s));
  $("#ng-rules").addEventListener("click", () => showRules(gameSel.value));
  $("#new-game").addEventListener("submit", (ev) => startGame(s, ev));
  formChanged(s);
}

const chosenKind = (s) => s.kinds[$("#ng-game").value];
const opponentOf = () => document.querySelector("input[name=opponent]:checked").value;

function formChanged(s) {
  const k = chosenKind(s);
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
  formOpponent(s);
  updateKomiProposal(s);
}

/* What the chosen computer level is (its description from /api/engines). */
function showLevel(s) {
  const e = s.engines.find((x) => x.name === $("#ng-engine").value);
  $("#ng-engine-summary").textContent = e && e.summary ? `${e.label}: ${e.summary}.` : "";
}

function formOpponent(s) {
  const k = chosenKind(s);
  const opponent = opponentOf();
  const vsComputer = opponent === "computer";
  const yugo = "komi" in k.options;
  $("#ng-engine").disabled = !vsComputer;
  $("#ng-engine-summary").hidden = !vsComputer;
  showLevel(s);
  $("#ng-komi-row").hidden = !yugo;
  $("#ng-komi-computer").hidden = !vsComputer;
  $("#ng-komi-human").hidden = vsComputer;
  $("#ng-color-row").hidden = opponent === "human" || yugo;
  $("#ng-online-row").hidden = opponent !== "online";
}

/* The komi the computer would name: a search, so it can take seconds; the
 * field says so meanwhile, and an answer for settings changed since is dropped. */
async function updateKomiProposal(s) {
  const k = chosenKind(s);
  if (!("komi" in k.options)) return;
  const ask = `/api/${k.name}/komi?size=${$("#ng-size").value}&engine=${encodeURIComponent($("#ng-engine").value)}`;
  const box = $("#ng-komi-proposal");
  box.dataset.ask = ask;
  box.textContent = "working it out…";
  box.classList.add("thinking");
  try {
    const r = await api("GET", ask);
    if (box.dataset.ask === ask) box.textContent = `${r.komi}`;
  } catch (e) {
    if (box.dataset.ask === ask) box.textContent = `not known now: ${e.message}`;
  } finally {
    if (box.dataset.ask === ask) box.classList.remove("thinking");
  }
}

async function startGame(s, ev) {
  ev.preventDefault();
  $("#ng-error").textContent = "";
  let body;
  try { body = newGameBody(s); } catch (e) { $("#ng-error").textContent = e.message; return; }
  await createGame(s, body);
}

/* What the form asks for, as the body of POST /api/games; an Error naming the
 * field when a value is not acceptable. */
function newGameBody(s) {
  const k = chosenKind(s);
  const opponent = opponentOf();
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

/* Start a game from ``body`` and go to it; "Play again" calls this too. */
export async function createGame(s, body) {
  $("#ng-start").disabled = true;
  try {
    const st = await api("POST", "/api/games", body);
    s.live = st;
    s.again = { id: st.id, body };  // "Play again" repeats these settings
    if (st.online) {  // keep the links for this tab (a reload still shows the invite)
      try { sessionStorage.setItem(`boardlab-links-${st.id}`, JSON.stringify(st.links)); } catch (_) { /* private mode */ }
      location.hash = st.links.you.slice(1);
    } else {
      location.hash = `#/game/${st.id}`;
    }
  } catch (e) {
    $("#ng-error").textContent = e.message;
    if (s.gid) say(e.message);
  } finally {
    $("#ng-start").disabled = false;
  }
}
