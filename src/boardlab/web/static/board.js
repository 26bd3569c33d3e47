/* The board drawing, shared by the game page and the rules pages' diagrams.
 *
 * boardSvg(view, marks) returns the SVG markup of a board from the JSON the
 * server sends (game, size, board kind, cells) and a set of marks computed by
 * the caller (highlights, last move, selection, cursor). It knows how pieces
 * look and nothing about rules or about the page's state.
 */

export const FILES = "abcdefghijklmnopqrs";
/* Piece colours. The marks drawn over them use a palette that stays apart
 * for the common colour-vision deficiencies (Okabe–Ito blue, vermilion,
 * sky blue, yellow) and always comes with a shape, never colour alone. */
export const COLORS = { black: "#151515", white: "#f7f7f2", blue: "#0072b2", orange: "#e69f00" };
export const TEXT_ON = { black: "#fff", white: "#111", blue: "#fff", orange: "#111" };
export const MARK = {
  last: "#d55e00",         // vermilion: the last move's corner flag
  ring: "#0072b2",         // blue: a selection
  target: "#d55e00",       // vermilion: where a selection can go
  remove: "#cc79a7",       // reddish purple cross, with a white halo: yugo marks
  patch: "rgba(240,228,66,.55)",     // yellow: implo patches, yugo markable groups
  patchSel: "rgba(86,180,233,.55)",  // sky blue: the chosen implo patch
  chain: "#009e73",        // bluish green: vimbre's winning chain
  territoryBlack: "rgba(21,21,21,.42)",     // yugo territory at the end, in the owner's colour
  territoryWhite: "rgba(255,255,255,.78)",
};
export const C = 44;          // cell / point spacing
const M_SQUARES = 34;  // margin for coordinates: squares boards
const M_POINTS = 54;   // points boards: half a cell of wood plus the coordinates

export function pointName(i, size) { return FILES[i % size] + (Math.floor(i / size) + 1); }
export function pointIndex(name, size) {
  const col = FILES.indexOf(name[0]);
  const row = parseInt(name.slice(1), 10) - 1;
  return row * size + col;
}
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/* Where each point is drawn; ``flipped`` turns the board half a turn (the
 * second player's side at the bottom). */
export function geometry(view, flipped = false) {
  const squares = view.board === "squares";
  const n = view.size;
  const M = squares ? M_SQUARES : M_POINTS;
  const span = squares ? n * C : (n - 1) * C;
  const W = span + 2 * M;
  const xy = (i) => {
    let col = i % n, row = Math.floor(i / n);
    if (flipped) { col = n - 1 - col; row = n - 1 - row; }
    const x = M + col * C + (squares ? C / 2 : 0);
    const y = M + (n - 1 - row) * C + (squares ? C / 2 : 0);
    return [x, y];
  };
  return { squares, n, span, W, xy, M };
}

export function pieceSvg(piece, x, y, extra = "") {
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

/* The last move's mark: a flag in the corner of the cell, so it never covers
 * the piece or the number on a stack. */
function lastMark(x, y) {
  const a = C / 2 - 1, s = C * 0.3;
  return `<path class="last" d="M${x - a},${y - a} h${s} L${x - a},${y - a + s} Z" fill="${MARK.last}" stroke="#fff" stroke-width="1"/>`;
}

/* A point's shade when the page shows what counts for ``color`` (its
 * piece colour, see through). */
export function countTint(color) {
  if (color === "white") return MARK.territoryWhite;
  const hex = COLORS[color] || "#888888";
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  return `rgba(${r},${g},${b},.45)`;
}

/* What the last move did, over the board: an arrow per push (or stack
 * move), a dashed ring per flip, a dashed outline where a piece was
 * removed. ``effects``: {pushed: [[from, to]], flipped: [points], removed: [points]}. */
function effectsSvg(effects, view, xy) {
  if (!effects) return "";
  const at = (p) => xy(pointIndex(p, view.size));
  let out = "";
  for (const [from, to] of effects.pushed || []) {
    const [x1, y1] = at(from), [x2, y2] = at(to);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const sx = x1 + ux * C * 0.2, sy = y1 + uy * C * 0.2, ex = x2 - ux * C * 0.45, ey = y2 - uy * C * 0.45;
    const head = `${ex + ux * 9},${ey + uy * 9} ${ex - uy * 6},${ey + ux * 6} ${ex + uy * 6},${ey - ux * 6}`;
    out += `<g class="effect" data-effect="push" data-from="${from}" data-to="${to}">` +
      `<line x1="${sx}" y1="${sy}" x2="${ex}" y2="${ey}" stroke="#fff" stroke-width="6" stroke-linecap="round"/>` +
      `<line x1="${sx}" y1="${sy}" x2="${ex}" y2="${ey}" stroke="${MARK.last}" stroke-width="3" stroke-linecap="round"/>` +
      `<polygon points="${head}" fill="${MARK.last}" stroke="#fff" stroke-width="1"/></g>`;
  }
  for (const p of effects.flipped || []) {
    const [x, y] = at(p);
    out += `<circle class="effect" data-effect="flip" data-point-at="${p}" cx="${x}" cy="${y}" r="${C * 0.48}" fill="none" ` +
      `stroke="${MARK.last}" stroke-width="3" stroke-dasharray="4 3"/>`;
  }
  for (const p of effects.removed || []) {
    const [x, y] = at(p);
    out += `<g class="effect" data-effect="removed" data-point-at="${p}"><circle cx="${x}" cy="${y}" r="${C * 0.36}" fill="none" ` +
      `stroke="${MARK.last}" stroke-width="2.5" stroke-dasharray="3 3"/>` +
      `<path d="M${x - 6},${y - 6} L${x + 6},${y + 6} M${x + 6},${y - 6} L${x - 6},${y + 6}" stroke="${MARK.last}" stroke-width="2"/></g>`;
  }
  return `<g pointer-events="none">${out}</g>`;
}

/* The SVG markup of a board.
 *   view:  {game, size, board: "points"|"squares", cells}
 *   marks: {tint: {point: fill}, rings: {point: colour}, xs: {point: true},
 *           legal: Set, kings: Set, last: Set, chain: Set, ghosts: [points], ghostColor,
 *           hintColor, cursor: index|null, flipped: bool,
 *           effects: {pushed, flipped, removed} (what the last move did),
 *           suggest: {points: [..], label} (a hint's move)}
 */
export function boardSvg(view, marks = {}) {
  const flipped = !!marks.flipped;
  const g = geometry(view, flipped);
  const { n, W, xy, squares, M } = g;
  const tint = marks.tint || {}, rings = marks.rings || {}, xs = marks.xs || {};
  const legalPts = marks.legal || new Set(), kingPts = marks.kings || new Set();
  const lastPts = marks.last || new Set(), chain = marks.chain || new Set();
  const ghosts = marks.ghosts || [];
  let out = "";
  const lo = M, hi = M + g.span;
  if (squares) {
    out += `<rect x="${lo - 4}" y="${lo - 4}" width="${g.span + 8}" height="${g.span + 8}" fill="#6b4f2a" rx="4"/>`;
    for (let i = 0; i < n * n; i++) {
      const [x, y] = xy(i);
      const dark = (i % n + Math.floor(i / n)) % 2 === 0;
      out += `<rect x="${x - C / 2}" y="${y - C / 2}" width="${C}" height="${C}" fill="${dark ? "#d9bf8c" : "#ead6ad"}"/>`;
    }
  } else {
    out += `<rect x="${lo - C / 2}" y="${lo - C / 2}" width="${g.span + C}" height="${g.span + C}" fill="#e3c58f" rx="6"/>`;
    if (view.edges) {  // the edges belong to the players: [top and bottom, left and right]
      const [rows, cols] = view.edges;
      const t = 7, o = C / 2 - 3;
      out += `<rect x="${lo - o}" y="${lo - o - t}" width="${g.span + 2 * o}" height="${t}" fill="${COLORS[rows]}" aria-label="${rows} edge"/>`;
      out += `<rect x="${lo - o}" y="${hi + o}" width="${g.span + 2 * o}" height="${t}" fill="${COLORS[rows]}"/>`;
      out += `<rect x="${lo - o - t}" y="${lo - o}" width="${t}" height="${g.span + 2 * o}" fill="${COLORS[cols]}" stroke="#444" stroke-width="1"/>`;
      out += `<rect x="${hi + o}" y="${lo - o}" width="${t}" height="${g.span + 2 * o}" fill="${COLORS[cols]}" stroke="#444" stroke-width="1"/>`;
    }
    for (let k = 0; k < n; k++) {
      const p = M + k * C;
      out += `<line x1="${lo}" y1="${p}" x2="${hi}" y2="${p}" stroke="#5a4525" stroke-width="1.2"/>`;
      out += `<line x1="${p}" y1="${lo}" x2="${p}" y2="${hi}" stroke="#5a4525" stroke-width="1.2"/>`;
    }
  }
  for (let k = 0; k < n; k++) {
    const [x] = xy(k);
    const [, y] = xy(k * n);
    const d = squares ? M / 2 : 13;
    out += `<text class="coord" x="${x}" y="${d - 2}">${FILES[k]}</text>`;
    out += `<text class="coord" x="${x}" y="${W - d + 2}">${FILES[k]}</text>`;
    out += `<text class="coord" x="${d - 2}" y="${y}">${k + 1}</text>`;
    out += `<text class="coord" x="${W - d + 2}" y="${y}">${k + 1}</text>`;
  }
  for (let i = 0; i < n * n; i++) {
    const name = pointName(i, n);
    const [x, y] = xy(i);
    const piece = view.cells[i];
    const label = piece ? `${name} ${piece.color || ""} ${piece.type}${piece.height > 1 ? " of " + piece.height : ""}` : `${name} empty`;
    const cls = ["pt"];
    if (legalPts.has(name)) cls.push("legal");
    if (chain.has(name)) cls.push("chain");
    out += `<g class="${cls.join(" ")}" data-point="${name}" data-index="${i}" aria-label="${esc(label)}">`;
    out += `<rect class="hit" x="${x - C / 2}" y="${y - C / 2}" width="${C}" height="${C}"/>`;
    if (tint[name]) out += `<rect class="tint" x="${x - C / 2 + 1}" y="${y - C / 2 + 1}" width="${C - 2}" height="${C - 2}" rx="4" fill="${tint[name]}"/>`;
    if (chain.has(name)) out += `<circle cx="${x}" cy="${y}" r="${C * 0.5}" fill="none" stroke="${MARK.chain}" stroke-width="5"/>`;
    if (piece) out += pieceSvg(piece, x, y);
    else if (ghosts.includes(name)) out += pieceSvg({ type: "stone", color: marks.ghostColor }, x, y, 'opacity=".6"') +
      `<circle cx="${x}" cy="${y}" r="${C * 0.46}" fill="none" stroke="${MARK.ring}" stroke-width="3" stroke-dasharray="5 3"/>`;
    else if (legalPts.has(name) && marks.hintColor) {
      const hintPiece = kingPts.has(name) ? { type: "king", color: marks.hintColor }
        : { type: view.placed || "stone", color: marks.hintColor, height: 1 };
      out += `<g class="hint">${pieceSvg(hintPiece, x, y, 'opacity=".5"')}</g>`;
      // touch screens have no hover: a small dot marks the point instead (style.css)
      out += `<circle class="hint-dot" cx="${x}" cy="${y}" r="${C * 0.1}" fill="${COLORS[marks.hintColor] || "#888"}" stroke="#fff" stroke-width="1" opacity=".75"/>`;
    }
    if (kingPts.has(name) && !piece) out += `<circle cx="${x}" cy="${y}" r="4" fill="#d4af37" stroke="#7a5c00"/>`;
    if (rings[name]) out += `<circle class="ring" cx="${x}" cy="${y}" r="${C * 0.47}" fill="none" stroke="${rings[name]}" stroke-width="3.5"/>`;
    if (xs[name]) out += `<path class="x" d="M${x - 10},${y - 10} L${x + 10},${y + 10} M${x + 10},${y - 10} L${x - 10},${y + 10}" stroke="#fff" stroke-width="7"/>` +
      `<path d="M${x - 10},${y - 10} L${x + 10},${y + 10} M${x + 10},${y - 10} L${x - 10},${y + 10}" stroke="${MARK.remove}" stroke-width="4"/>`;
    if (lastPts.has(name)) out += lastMark(x, y);
    out += "</g>";
  }
  out += effectsSvg(marks.effects, view, xy);
  if (marks.suggest && marks.suggest.points.length) {
    const [x, y] = xy(pointIndex(marks.suggest.points[0], n));
    out += `<g class="suggest" data-suggest="${esc(marks.suggest.move)}" pointer-events="none">` +
      `<circle cx="${x}" cy="${y}" r="${C * 0.44}" fill="none" stroke="#009e73" stroke-width="4"/>` +
      `<circle cx="${x}" cy="${y}" r="${C * 0.12}" fill="#009e73"/></g>`;
  }
  if (marks.cursor !== null && marks.cursor !== undefined && marks.cursor < n * n) {
    const [x, y] = xy(marks.cursor);
    out += `<rect class="cursor" x="${x - C / 2 + 2}" y="${y - C / 2 + 2}" width="${C - 4}" height="${C - 4}" fill="none" stroke="transparent" stroke-width="3" rx="5" pointer-events="none"/>`;
  }
  return { svg: out, width: W };
}

/* Replace every <figure class="board-diagram" data-view=...> under ``root``
 * by its board: the rules pages' diagrams. */
export function drawDiagrams(root = document) {
  for (const fig of root.querySelectorAll("figure.board-diagram[data-view]")) {
    if (fig.querySelector("svg")) continue;
    let view;
    try { view = JSON.parse(fig.dataset.view); } catch (_) { continue; }
    const marks = { last: new Set(view.last_points || []), rings: {} };
    for (const p of view.marks || []) marks.rings[p] = MARK.ring;
    const { svg, width } = boardSvg(view, marks);
    const box = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    box.setAttribute("viewBox", `0 0 ${width} ${width}`);
    box.setAttribute("class", "diagram");
    box.setAttribute("aria-hidden", "true");
    box.innerHTML = svg;
    const pre = fig.querySelector("pre");
    if (pre) pre.replaceWith(box); else fig.prepend(box);
  }
}
