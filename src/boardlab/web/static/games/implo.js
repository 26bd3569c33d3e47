/* Implo's page plug-in (see index.js): after a placement, the patches to
 * resolve, and for a tie the group to remove. */
import { MARK } from "../board.js";
import { el } from "../dom.js";

function click(p, ctx, st) {
  const patches = st.hints.patches || [];
  if (!patches.length) return ctx.send(p);
  if (ctx.sel && ctx.sel.patch) {
    const choice = ctx.sel.patch.choices.find((c) => c.points.includes(p));
    if (choice) return ctx.send(choice.move);
  }
  const patch = patches.find((pt) => pt.points.includes(p));
  if (patch) {
    if (patch.move) return ctx.send(patch.move);
    ctx.select({ patch });
    ctx.say(`Patch at ${patch.anchor}: its owner's biggest groups are tied — click the group to remove, or use a button.`, "info");
    return;
  }
  const choiceOwner = patches.find((pt) => pt.choices.some((c) => c.points.includes(p)));
  if (choiceOwner) {
    return ctx.send(choiceOwner.choices.find((c) => c.points.includes(p)).move);
  }
  return ctx.send(p);  // the library explains: resolve the patches first
}

export default {
  click: (p, ctx) => click(p, ctx, ctx.live),
  overlay(st, live, marks, ctx) {
    for (const patch of (st.hints || {}).patches || []) {
      const sel = ctx.sel && ctx.sel.patch && ctx.sel.patch.anchor === patch.anchor;
      for (const q of patch.points) marks.tint[q] = sel ? MARK.patchSel : MARK.patch;
      if (sel) for (const ch of patch.choices) for (const q of ch.points) marks.rings[q] = MARK.target;
    }
  },
  statusText: (st, live) => (live.mid_turn ? " — resolve the highlighted patches" : ""),
  actions(st, live, ctx) {
    if (!(ctx.sel && ctx.sel.patch)) return [];
    const out = [el("span", { class: "choice-label", text: `Patch ${ctx.sel.patch.anchor}: remove which tied group?` })];
    for (const ch of ctx.sel.patch.choices) {
      out.push(el("button", { type: "button", class: "move", "data-move": ch.move, text: `Group at ${ch.group} (${ch.points.length})`,
        onclick: () => ctx.canAct() && ctx.send(ch.move) }));
    }
    return out;
  },
};
