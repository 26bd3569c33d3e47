/* Vimbre's page plug-in (see index.js): one or two stones chosen, then
 * confirmed; a click on an enemy stone flips it. */
import { pointIndex } from "../board.js";
import { el } from "../dom.js";

function pair(a, b, size) {
  return pointIndex(a, size) < pointIndex(b, size) ? `${a},${b}` : `${b},${a}`;
}

/* The move the selected stones make, or null while they make none yet. */
function chosen(ctx) {
  const stones = (ctx.sel && ctx.sel.stones) || [];
  const mv = stones.length === 2 ? pair(stones[0], stones[1], ctx.live.size) : stones[0];
  return mv && ctx.legal.has(mv) ? mv : null;
}

function confirm(ctx) {
  const mv = chosen(ctx);
  if (mv && ctx.canAct()) ctx.send(mv);
}

export default {
  click(p, ctx) {
    const st = ctx.live;
    const cell = st.cells[pointIndex(p, st.size)];
    if (cell) {
      if (cell.color !== st.to_move) return ctx.send(`x${p}`);
      ctx.say(`${p} is your own stone: you can flip only an enemy stone sandwiched between two of yours.`);
      return;
    }
    const stones = (ctx.sel && ctx.sel.stones) || [];
    if (stones.includes(p)) {
      ctx.select(stones.length > 1 ? { stones: stones.filter((q) => q !== p) } : null);
      return;
    }
    if (stones.length === 0) {
      const usable = ctx.legal.has(p) || st.legal.some((m) => m.includes(",") && m.split(",").includes(p));
      if (!usable) return ctx.send(p);
      ctx.select({ stones: [p] });
      ctx.say(ctx.legal.has(p) ? `${p} selected: confirm to place one stone, or click a second point.` :
        `${p} selected: it needs a second stone — click one.`, "info");
      return;
    }
    if (stones.length === 1) {
      const mv = pair(stones[0], p, st.size);
      if (ctx.legal.has(mv)) {
        ctx.select({ stones: [stones[0], p] });
        ctx.say(`${mv} selected: confirm the turn.`, "info");
        return;
      }
      return ctx.send(mv);
    }
    ctx.say("Two stones are already selected: confirm, or click one of them to take it back.");
  },
  legalPoints(m, marks) { for (const q of m.split(",")) if (/^[a-s]\d+$/.test(q)) marks.legalPts.add(q); },
  actions(st, live, ctx) {
    const stones = (ctx.sel && ctx.sel.stones) || [];
    const ready = chosen(ctx);  // Confirm is offered only for a legal turn
    const text = ready ? `Confirm ${stones.join(" + ")}`
      : stones.length ? "Confirm (choose a second stone)" : "Confirm (select stones first)";
    const out = [el("button", { type: "button", class: "move", "data-action": "confirm", disabled: !ready,
      text, onclick: () => confirm(ctx) })];
    if (stones.length) out.push(el("button", { type: "button", "data-action": "clear", text: "Clear", onclick: () => ctx.select(null) }));
    return out;
  },
  confirm,
};
