/* The analysis mode's move tree: the game's main line and the variations a
 * user plays beside it. Plain data (no DOM), state passed explicitly:
 *   node = {move, parent, children: [node], main: bool}
 * The first child of a node continues its line; the others are variations.
 * It knows nothing of the rules: a move is a string the server accepted.
 */

export function newTree(mainMoves) {
  const root = { move: null, parent: null, children: [], main: true };
  let node = root;
  for (const m of mainMoves) {
    const child = { move: m, parent: node, children: [], main: true };
    node.children.push(child);
    node = child;
  }
  return root;
}

/* The moves from the root to ``node``. */
export function pathOf(node) {
  const out = [];
  for (let n = node; n && n.parent; n = n.parent) out.push(n.move);
  return out.reverse();
}

/* The child of ``node`` that plays ``move``, made (a variation) if new. */
export function childFor(node, move) {
  let child = node.children.find((c) => c.move === move);
  if (!child) {
    child = { move, parent: node, children: [], main: false };
    node.children.push(child);
  }
  return child;
}

/* The node ``moves`` leads to from ``root`` (null if it is not in the tree). */
export function find(root, moves) {
  let node = root;
  for (const m of moves) {
    node = node.children.find((c) => c.move === m);
    if (!node) return null;
  }
  return node;
}

/* The main-line node at ``ply`` (clamped to the main line's end). */
export function mainAt(root, ply) {
  let node = root;
  for (let k = 0; k < ply && node.children.length && node.children[0].main; k++) node = node.children[0];
  return node;
}

/* The ply where ``node``'s line leaves the main line (its own ply if on it). */
export function branchPly(node) {
  let n = node;
  while (n.parent && !n.main) n = n.parent;
  return pathOf(n).length;
}

/* Remove the variation ``node`` starts (never a main-line node); its parent. */
export function drop(node) {
  if (node.main || !node.parent) return node;
  const parent = node.parent;
  parent.children = parent.children.filter((c) => c !== node);
  return parent;
}

/* The variations as plain data for the server: [{ply, moves, variations}],
 * each replacing move ``ply`` (0-based) of the line it leaves. */
export function variationsOf(root) {
  return below(root, []).variations;
}

function below(start, moves) {
  const variations = [];
  let node = start;
  while (node.children.length) {
    for (const alt of node.children.slice(1)) variations.push({ ply: moves.length, ...below(alt, [alt.move]) });
    node = node.children[0];
    moves.push(node.move);
  }
  return { moves, variations };
}

/* A tree from the main line and variations as variationsOf gives them. */
export function treeFrom(mainMoves, variations) {
  const root = newTree(mainMoves);
  graft(root, variations || []);
  return root;
}

/* ``line[k]`` is the node before move k of a line; hang each variation there. */
function graft(root, variations) {
  graftLine(lineFrom(root), variations);
}

function lineFrom(node) {
  const line = [node];
  for (let n = node; n.children.length; n = n.children[0]) line.push(n.children[0]);
  return line;
}

function graftLine(line, variations) {
  for (const v of variations) {
    const at = line[v.ply];
    if (!at || !Array.isArray(v.moves) || !v.moves.length) continue;
    const nodes = [at];
    for (const m of v.moves) nodes.push(childFor(nodes[nodes.length - 1], m));
    graftLine(nodes, v.variations || []);
  }
}
