/* Yugo's page plug-in (see index.js): pawns and kings, the end's marking and
 * answering, territories at the end, the button and komi beside the players. */
import { MARK } from "../board.js";
import { el } from "../dom.js";

export default {
  click(p, ctx) {
    const st = ctx.live;
    const phase = st.hints.phase;
    if (phase === "mark") {
      const g = (st.hints.markable || []).find((m) => m.points.includes(p));
      return ctx.send(g ? g.move : `mark ${p}`);
    }
    if (phase === "answer") { ctx.say("Accept or reject the proposed removals with the buttons.", "info"); return; }
    const piece = ctx.ui.piece || "auto";  // the piece switch below (kept in ctx.ui)
    if (piece === "king") return ctx.send(`k${p}`);
    if (piece === "pawn") return ctx.send(p);
    return ctx.send(ctx.legal.has(`k${p}`) ? `k${p}` : p);
  },
  legalPoints(m, marks) {
    if (/^[a-s]\d+$/.test(m)) marks.legalPts.add(m);
    if (/^k[a-s]\d+$/.test(m)) { marks.kingPts.add(m.slice(1)); marks.legalPts.add(m.slice(1)); }
  },
  overlay(st, live, marks, ctx) {
    const hints = st.hints || {};
    for (const m of hints.marked || []) for (const q of m.points) marks.xs[q] = true;
    if (ctx.interactive && hints.phase === "mark") for (const m of hints.markable || []) for (const q of m.points) marks.tint[q] = MARK.patch;
    if (hints.territory) {  // the end: shade each side's territory
      for (const q of hints.territory.black || []) marks.tint[q] = MARK.territoryBlack;
      for (const q of hints.territory.white || []) marks.tint[q] = MARK.territoryWhite;
    }
  },
  statusText(st) {
    const hints = st.hints || {};
    if (hints.phase === "mark") return " — mark the groups to remove, then Done";
    if (hints.phase === "answer") {
      return (hints.marked || []).length ? " — accept or reject the marked groups"
        : " — the proposal removes nothing: accept to end the game, or reject to play on";
    }
    return "";
  },
  actions(st, live, ctx) {
    if ((st.hints.phase || "play") !== "play") return [];
    const group = el("div", { class: "buttons", role: "radiogroup", "aria-label": "Piece to place" }, el("span", { text: "Piece:" }));
    for (const [val, text] of [["auto", "Auto"], ["pawn", "Pawn"], ["king", "King"]]) {
      const id = `piece-${val}`;
      const input = el("input", { type: "radio", name: "piece", id, value: val, checked: (ctx.ui.piece || "auto") === val,
        onchange: () => { ctx.ui.piece = val; } });
      group.append(el("label", { for: id }, input, ` ${text}`));
    }
    return [group];
  },
  seatNotes(st, live, color) {
    const out = [];
    if (st.hints && st.hints.button === color) out.push("has the button");
    if (color === live.colors[1] && live.options.komi) out.push(`komi ${live.options.komi}`);
    return out;
  },
};
