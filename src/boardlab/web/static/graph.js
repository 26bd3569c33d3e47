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
 * (x: ply 0..n), a dot per ply to click (data-graph-ply), judged moves
 * marked in their label's color at the position after them, and the
 * current ply's line. */
export function graphSvg(wins, judgements, colors, current, width = 420, height = 140) {
  const n = Math.max(1, wins.length - 1);
  const pad = 6;
  const x = (k) => pad + (k * (width - 2 * pad)) / n;
  const y = (p) => pad + (1 - p) * (height - 2 * pad);
  const first = colors[0];
  let out = `<rect x="0" y="0" width="${width}" height="${height}" fill="#fbf8f0" stroke="#bbb"/>`;
  out += `<line x1="${pad}" y1="${y(0.5)}" x2="${width - pad}" y2="${y(0.5)}" stroke="#999" stroke-dasharray="4 3"/>`;
  const pts = wins.map((w, k) => `${x(k).toFixed(1)},${y(w[first] ?? 0.5).toFixed(1)}`);
  if (pts.length) {
    out += `<polygon points="${pad},${y(0)} ${pts.join(" ")} ${x(wins.length - 1).toFixed(1)},${y(0)}" fill="${COLORS[first]}" opacity=".18"/>`;
    out += `<polyline points="${pts.join(" ")}" fill="none" stroke="${COLORS[first] === "#f7f7f2" ? "#555" : COLORS[first]}" stroke-width="2"/>`;
  }
  if (current !== null && current !== undefined && current <= n) {
    out += `<line class="graph-now" x1="${x(current)}" y1="0" x2="${x(current)}" y2="${height}" stroke="#2a6fdb" stroke-width="2"/>`;
  }
  const marks = {};
  for (const j of judgements || []) if (j.label) marks[j.ply + 1] = j;
  wins.forEach((w, k) => {
    const j = marks[k];
    const cx = x(k), cy = y(w[first] ?? 0.5);
    const r = j ? 5 : 3;
    const fill = j ? LABEL_COLOR[j.label] : "#666";
    const title = `after move ${k}: ${colors.map((c) => `${c} ${pct(w[c] ?? 0.5)}`).join(", ")}` +
      (j ? ` — ${j.move} by ${j.mover}: ${j.label} (${j.glyph})` : "");
    // a wide invisible target to click, over the visible dot
    out += `<g class="graph-pt" data-graph-ply="${k}"${j ? ` data-label="${j.label}"` : ""}><title>${esc(title)}</title>` +
      `<rect x="${cx - (width - 2 * pad) / n / 2}" y="0" width="${(width - 2 * pad) / n}" height="${height}" fill="transparent"/>` +
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r}" fill="${fill}"/></g>`;
  });
  return out;
}
