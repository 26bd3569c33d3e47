/* The analysis mode's move list: the main line with each move's judgement
 * glyph, and the variations in parentheses after the move they replace.
 * DOM from the tree (tree.js) and what to mark, passed in. */
import { el } from "./dom.js";
import { LABEL_COLOR } from "./graph.js";
import * as T from "./tree.js";

const pct = (p) => `${Math.round((p ?? 0.5) * 100)}%`;

/* The whole tree below ``root``; ``current`` is highlighted, ``marks`` maps a
 * main-line ply to its judgement, ``pick(node)`` is called on a click. */
export function treeEl(root, current, marks, pick) {
  return lineEl(root, 0, true, { current, marks, pick });
}

/* The line below ``start`` (its first children), its variations in
 * parentheses after the move they replace. */
function lineEl(start, ply, main, ctx) {
  const line = el("span", { class: main ? "line main" : "line" });
  let node = start;
  let k = ply;
  while (node.children.length) {
    const next = node.children[0];
    line.append(moveEl(next, k, main ? ctx.marks[k] : null, ctx));
    for (const alt of node.children.slice(1)) {
      const v = el("span", { class: "variation" }, "(", lineEl({ children: [alt] }, k, false, ctx), ")");
      line.append(v);
    }
    node = next;
    k += 1;
  }
  return line;
}

function moveEl(node, k, judged, ctx) {
  const path = T.pathOf(node).join(" ");
  const b = el("button", { type: "button", class: `mv${node === ctx.current ? " current" : ""}${node.main ? "" : " var"}`,
    "data-path": path, text: `${k + 1}.${node.move}${judged && judged.glyph ? judged.glyph : ""}`,
    title: judged && judged.label ? `${judged.label}: ${judged.mover} ${pct(judged.before)} → ${pct(judged.after)}` +
      (judged.best ? `; best ${judged.best}` : "") : "", onclick: () => ctx.pick(node) });
  if (judged && judged.label) b.style.color = LABEL_COLOR[judged.label];
  return b;
}
