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
  $("#ng-size").addEventListener("change", () => updateProposal(s));
  $("#ng-engine").addEventListener("change", () => { showLevel(s); updateProposal(s); });
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
  optionRows(k);
  const color = $("#ng-color");
  color.innerHTML = "";
  color.append(el("option", { value: "random", text: "Random" }));
  for (const c of k.colors) color.append(el("option", { value: c, text: `${cap(c)}${c === k.colors[0] ? " (moves first)" : ""}` }));
  const pc = $("#ng-pregame-color");
  pc.innerHTML = "";
  for (const c of k.colors) pc.append(el("option", { value: c, text: cap(c) }));
  const pg = k.pregame;
  if (pg) {
    $("#ng-pregame-legend").textContent = `${cap(pg.option)} (${k.name}): one side names ${pg.option} (${pg.about}), the other picks a color`;
    for (const x of document.querySelectorAll("#ng-pregame-row .pg-option")) x.textContent = pg.option;
    for (const x of document.querySelectorAll("#ng-pregame-row .pg-option-cap")) x.textContent = cap(pg.option);
    $("#ng-pregame-value").setAttribute("aria-label", `${cap(pg.option)} you name`);
    pc.setAttribute("aria-label", `Your color after the computer names ${pg.option}`);
  }
  formOpponent(s);
  updateProposal(s);
}

/* A checkbox for each of the game's yes/no options (the pie rule), checked
 * as its default, with the game's words for it. */
function optionRows(k) {
  const box = $("#ng-options");
  box.innerHTML = "";
  for (const [key, value] of Object.entries(k.options)) {
    if (typeof value !== "boolean") continue;
    const id = `ng-option-${key}`;
    const input = el("input", { type: "checkbox", id, name: key, "data-option": key });
    input.checked = value;
    box.append(el("div", { class: "row", id: `${id}-row` },
      el("label", { for: id, text: cap(k.option_labels[key] || key) }), input,
      el("span", { class: "hint", text: k.option_help[key] || "" })));
  }
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
  const pregame = !!k.pregame;  // the colors are settled by the pre-game
  $("#ng-engine").disabled = !vsComputer;
  $("#ng-engine-summary").hidden = !vsComputer;
  showLevel(s);
  $("#ng-pregame-row").hidden = !pregame;
  $("#ng-pregame-computer").hidden = !vsComputer;
  $("#ng-pregame-human").hidden = vsComputer;
  $("#ng-color-row").hidden = opponent === "human" || pregame;
  $("#ng-online-row").hidden = opponent !== "online";
}

/* The value the computer would name in the game's pre-game: a search, so it
 * can take seconds; the field says so meanwhile, and an answer for settings
 * changed since is dropped. */
async function updateProposal(s) {
  const k = chosenKind(s);
  if (!k.pregame) return;
  const ask = `/api/${k.name}/pregame?size=${$("#ng-size").value}&engine=${encodeURIComponent($("#ng-engine").value)}`;
  const box = $("#ng-pregame-proposal");
  box.dataset.ask = ask;
  box.textContent = "working it out…";
  box.classList.add("thinking");
  try {
    const r = await api("GET", ask);
    if (box.dataset.ask === ask) box.textContent = `${r.value}`;
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
  for (const input of document.querySelectorAll("#ng-options [data-option]")) body.options[input.dataset.option] = input.checked;
  const pg = k.pregame;
  const named = (id) => parseWhole($(id).value, cap(pg.option));
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
    if (pg) {  // you name the value, your friend picks a color
      body.pregame = { namer: "human", value: named("#ng-pregame-hs") };
    } else {
      body.color = $("#ng-color").value;
    }
  } else if (pg) {
    if (opponent === "computer") {
      const namer = document.querySelector("input[name=pregame-namer]:checked").value;
      body.pregame = namer === "human"
        ? { namer, value: named("#ng-pregame-value") }
        : { namer, color: $("#ng-pregame-color").value };
    } else {
      body.options[pg.option] = named("#ng-pregame-hs");
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
