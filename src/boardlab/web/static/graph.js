/* The analysis mode's pictures that are not the board: the evaluation bar
 * and the win-rate graph, as SVG markup from plain data (state passed in). */
import { COLORS, esc } from "./board.js";

const LABEL_COLOR = { inaccuracy: "#d5a000", mistake: "#e06000", blunder: "#c00020" };
export { LABEL_COLOR };

const pct = (p) => `${Math.round(p * 100)}%`;

/* A vertical bar: the first color's win probability from the bottom.
 * ``wins``: {color: p}; ``colors``: the game's two colors. */
export function evalBarSvg(wins, colors, height = 300) {
  const [a, b] = colors;
  const p = wins && wins[a] !== undefined ? wins[a] : 0.5;
  const h = Math.round(height * p);
  return `<rect x="0" y="0" width="24" height="${height}" fill="${COLORS[b]}" stroke="#444"/>` +
    `<rect class="eval-${esc(a)}" x="0" y="${height - h}" width="24" height="${h}" fill="${COLORS[a]}"/>` +
    `<line x1="0" y1="${height / 2}" x2="24" y2="${height / 2}" stroke="#c33" stroke-width="1" stroke-dasharray="3 2"/>`;
}

export function evalText(wins, colors) {
  if (!wins) return "";
  return colors.map((c) => `${c} ${pct(wins[c] ?? 0.5)}`).join(" · ");
}

/* The win-rate graph: the first color's win probability after each ply
 * (x: ply 0..n), with its axes (0 / 50 / 100 % and move numbers) and a
 * title saying whose probability it is; a dot per ply to click
 * (data-graph-ply), judged moves marked in their label's color at the
 * position after them, and the current ply's line. */
export function graphSvg(wins, judgements, colors, current, width = 440, height = 170) {
  const n = Math.max(1, wins.length - 1);
  const left = 38, right = 8, top = 20, bottom = 22;
  const x = (k) => left + (k * (width - left - right)) / n;
  const y = (p) => top + (1 - p) * (height - top - bottom);
  const first = colors[0];
  const line = COLORS[first] === "#f7f7f2" ? "#555" : COLORS[first];
  let out = `<rect x="0" y="0" width="${width}" height="${height}" class="graph-bg" fill="#fbf8f0" stroke="#bbb"/>`;
  out += `<text class="graph-title" x="${left}" y="13" font-size="12" font-weight="600">` +
    `${esc(first)}'s chance of winning (${esc(colors[1])}'s is the rest)</text>`;
  for (const p of [0, 0.5, 1]) {  // the y axis: 0 %, 50 %, 100 %
    out += `<line x1="${left}" y1="${y(p)}" x2="${width - right}" y2="${y(p)}" stroke="${p === 0.5 ? "#999" : "#ddd"}"` +
      `${p === 0.5 ? ' stroke-dasharray="4 3"' : ""}/>` +
      `<text class="graph-axis" x="${left - 4}" y="${y(p) + 4}" text-anchor="end" font-size="11">${p * 100}%</text>`;
  }
  const step = Math.max(1, Math.ceil(n / 8 / 5) * 5);  // the x axis: a move number every few
  for (let k = 0; k <= n; k += step) {
    out += `<text class="graph-axis" x="${x(k)}" y="${height - 6}" text-anchor="middle" font-size="11">${k}</text>`;
  }
  out += `<text class="graph-axis" x="${width - right}" y="${height - 6}" text-anchor="end" font-size="11">move</text>`;
  const pts = wins.map((w, k) => `${x(k).toFixed(1)},${y(w[first] ?? 0.5).toFixed(1)}`);
  if (pts.length) {
    out += `<polygon points="${left},${y(0)} ${pts.join(" ")} ${x(wins.length - 1).toFixed(1)},${y(0)}" fill="${COLORS[first]}" opacity=".18"/>`;
    out += `<polyline points="${pts.join(" ")}" fill="none" stroke="${line}" stroke-width="2"/>`;
  }
  if (current !== null && current !== undefined && current <= n) {
    out += `<line class="graph-now" x1="${x(current)}" y1="${top}" x2="${x(current)}" y2="${height - bottom}" stroke="#2a6fdb" stroke-width="2"/>`;
  }
  const marks = {};
  for (const j of judgements || []) if (j.label) marks[j.ply + 1] = j;
  const slot = (width - left - right) / n;
  wins.forEach((w, k) => {
    const j = marks[k];
    const cx = x(k), cy = y(w[first] ?? 0.5);
    const r = j ? 5 : 3;
    const fill = j ? LABEL_COLOR[j.label] : "#666";
    const title = `after move ${k}: ${colors.map((c) => `${c} ${pct(w[c] ?? 0.5)}`).join(", ")}` +
      (j ? ` — ${j.move} by ${j.mover}: ${j.label} (${j.glyph})` : "");
    // a wide invisible target to click, over the visible dot
    out += `<g class="graph-pt" data-graph-ply="${k}"${j ? ` data-label="${j.label}"` : ""}><title>${esc(title)}</title>` +
      `<rect x="${cx - slot / 2}" y="${top}" width="${slot}" height="${height - top - bottom}" fill="transparent"/>` +
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r}" fill="${fill}"/></g>`;
  });
  return out;
}
