/* Pilo's page plug-in (see index.js): a placement, or a stack chosen then
 * the enemy stack it takes. */
import { MARK, pointIndex } from "../board.js";
import { el } from "../dom.js";

function stackMoves(st, from) { return st.legal.filter((m) => m.startsWith(`${from}-`)); }

export default {
  click(p, ctx) {
    const st = ctx.live;
    const cell = st.cells[pointIndex(p, st.size)];
    const mine = cell && cell.type === "stack" && cell.color === st.to_move;
    if (ctx.sel && ctx.sel.from) {
      const from = ctx.sel.from;
      if (p === from) { ctx.select(null); ctx.say(""); return; }
      const mv = `${from}-${p}`;
      if (ctx.legal.has(mv)) return ctx.send(mv);
      if (mine && stackMoves(st, p).length) { ctx.select({ from: p }); return; }
      // only the ringed stacks are offered: say so rather than send a non-move
      ctx.say(`The stack on ${from} cannot go to ${p}: click a ringed enemy stack to take it, ` +
        `or the stack on ${from} again to put it down.`, "info");
      return;
    }
    if (mine) {
      if (stackMoves(st, p).length) {
        ctx.select({ from: p });
        ctx.say(`Stack on ${p} selected: click the enemy stack to take (highlighted), or the stack again to cancel.`, "info");
        return;
      }
      ctx.say(`The stack on ${p} has no move: it needs an enemy stack of the same height in a straight line, ` +
          "with only empty squares or your own stacks between.");
      return;
    }
    return ctx.send(p);
  },
  overlay(st, live, marks, ctx) {
    if (ctx.sel && ctx.sel.from) {  // a stack chosen: its targets only, no placement hints
      marks.legalPts.clear();
      marks.rings[ctx.sel.from] = MARK.ring;
      for (const m of stackMoves(live, ctx.sel.from)) marks.rings[m.split("-")[1]] = MARK.target;
    } else if (ctx.interactive) {
      for (const m of live.legal) if (m.includes("-")) marks.legalPts.add(m.split("-")[0]);
    }
  },
  actions(st, live, ctx) {
    if (!(ctx.sel && ctx.sel.from)) return [];
    return [el("button", { type: "button", "data-action": "clear", text: `Cancel (${ctx.sel.from})`, onclick: () => ctx.select(null) })];
  },
};
