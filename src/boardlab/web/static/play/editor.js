/* The board editor: set up any position of any game by placing pieces, then
 * analyse it (lichess's board editor). The page knows no rules: the pieces
 * are the game's (/api/kinds), and the server turns them into a position
 * text or says why it is impossible (POST /api/analysis/setup). The
 * editor's own state is ``s.editor``. */
import { boardSvg } from "../board.js";
import { $, cap, el } from "../dom.js";
import { positionHash } from "./address.js";

async function postJson(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
  return data;
}

/* Show the editor, empty or holding ``position`` (a position text). */
export async function openEditor(s, position) {
  if (!Object.keys(s.kinds).length) return;  // the catalogue is not there yet
  const first = position ? position.split(" ")[0] : (s.editor && s.editor.game) || $("#ng-game").value;
  const kind = s.kinds[first] || Object.values(s.kinds)[0];
  s.editor = { game: kind.name, size: kind.default_size, cells: [], piece: kind.pieces[0].token,
    toMove: kind.colors[0], options: { ...kind.setup_options } };  // (no pie rule: no swap to come)
  clearBoard(s);
  $("#ed-error").textContent = "";
  if (position) {
    try {
      const v = await postJson("/api/analysis/view", { game: kind.name, start: position, moves: [] });
      const e = s.editor;
      e.size = v.size;
      e.toMove = v.to_move || kind.colors[0];
      e.cells = v.cells.map((c) => {
        if (!c) return null;
        const p = kind.pieces.find((x) => x.type === c.type && x.color === c.color);
        return p ? { token: p.token, height: c.height || 1 } : null;
      });
    } catch (err) { $("#ed-error").textContent = `That position cannot be loaded: ${err.message}`; }
  }
  drawControls(s);
  drawBoard(s);
}

function clearBoard(s) {
  const e = s.editor;
  e.cells = Array(e.size * e.size).fill(null);
}

function drawControls(s) {
  const e = s.editor;
  const kind = s.kinds[e.game];
  const game = $("#ed-game");
  if (!game.options.length) for (const k of Object.values(s.kinds)) game.append(el("option", { value: k.name, text: cap(k.name) }));
  game.value = e.game;
  const size = $("#ed-size");
  size.innerHTML = "";
  for (let n = kind.min_size; n <= kind.max_size; n++) size.append(el("option", { value: n, text: `${n} × ${n}` }));
  size.value = e.size;
  const mover = $("#ed-to-move");
  mover.innerHTML = "";
  for (const c of kind.colors) mover.append(el("option", { value: c, text: cap(c) }));
  mover.value = e.toMove;
  const palette = $("#ed-palette");
  palette.innerHTML = "";
  const tools = [...kind.pieces.map((p) => ({ token: p.token, text: `${cap(p.color || "neutral")} ${p.type}` })),
    { token: "", text: "Empty (erase)" }];
  for (const t of tools) {
    palette.append(el("button", { type: "button", "data-piece": t.token, "aria-pressed": e.piece === t.token ? "true" : "false",
      text: t.text, onclick: () => { e.piece = t.token; drawControls(s); } }));
  }
  const stacks = kind.pieces.some((p) => p.type === "stack");
  $("#ed-height-row").hidden = !stacks;
  const opts = $("#ed-options");
  opts.innerHTML = "";
  for (const [name, value] of Object.entries(e.options)) {
    const id = `ed-opt-${name}`;
    const input = typeof value === "boolean"
      ? el("input", { type: "checkbox", id, checked: value, onchange: (ev) => { e.options[name] = ev.target.checked; } })
      : el("input", { type: "number", id, value, step: 1, onchange: (ev) => { e.options[name] = Number(ev.target.value); } });
    opts.append(el("label", { for: id, text: cap(name) }), input);
  }
}

function drawBoard(s) {
  const e = s.editor;
  const kind = s.kinds[e.game];
  const byToken = Object.fromEntries(kind.pieces.map((p) => [p.token, p]));
  const cells = e.cells.map((c) => (c ? { type: byToken[c.token].type, color: byToken[c.token].color, height: c.height } : null));
  const { svg, width } = boardSvg({ game: e.game, size: e.size, board: kind.board, edges: kind.edges, cells });
  const box = $("#ed-board");
  box.setAttribute("viewBox", `0 0 ${width} ${width}`);
  box.innerHTML = svg;
  box.dataset.game = e.game;
}

/* The editor's pieces as POST /api/analysis/setup takes them. */
function setupBody(s) {
  const e = s.editor;
  return { game: e.game, size: e.size, to_move: e.toMove, options: e.options,
    cells: e.cells.map((c) => (c ? { token: c.token, height: c.height } : null)) };
}

export function initEditor(s) {
  $("#ed-board").addEventListener("click", (ev) => {
    const g = ev.target.closest("[data-point]");
    if (!g || !s.editor) return;
    const e = s.editor;
    const i = parseInt(g.dataset.index, 10);
    const height = Math.max(1, parseInt($("#ed-height").value, 10) || 1);
    const same = e.cells[i] && e.cells[i].token === e.piece && e.cells[i].height === height;
    e.cells[i] = e.piece && !same ? { token: e.piece, height } : null;  // the same piece again: erase
    $("#ed-error").textContent = "";
    drawBoard(s);
  });
  $("#ed-game").addEventListener("change", (ev) => {
    s.editor.game = ev.target.value;
    openEditor(s, null);
  });
  $("#ed-size").addEventListener("change", (ev) => {
    s.editor.size = parseInt(ev.target.value, 10);
    clearBoard(s);
    drawBoard(s);
  });
  $("#ed-to-move").addEventListener("change", (ev) => { s.editor.toMove = ev.target.value; });
  $("#ed-clear").addEventListener("click", () => { clearBoard(s); drawBoard(s); });
  $("#ed-analyse").addEventListener("click", async () => {
    $("#ed-error").textContent = "";
    try {
      const v = await postJson("/api/analysis/setup", setupBody(s));
      location.hash = positionHash(v.position);
    } catch (err) { $("#ed-error").textContent = err.message; }
  });
}
