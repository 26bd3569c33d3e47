/* The games' page plug-ins: what the page does differently per game (how a
 * click becomes a move, what the board highlights, extra buttons and words).
 * app.js asks gamePlugin(name) and never tests a game's name; a game without
 * a module here gets the plain behaviour (a click places on that point).
 *
 * A plug-in may define (each optional):
 *   click(p, ctx)                      a click on point p
 *   overlay(st, live, marks, ctx)      fill marks.tint / rings / xs / legalPts / kingPts
 *   legalPoints(move, marks)           the points a legal move lights up (default: a plain point)
 *   statusText(st, live)               words after "<color> to move"
 *   actions(st, live, ctx)             extra buttons (DOM elements)
 *   seatNotes(st, live, color)         notes beside a player's name
 * (What a move did and what a count is made of are the server's words:
 * the state's last_move_text and score_parts, from games/<game>_view.py.)
 * ctx: { legal (a Set), sel, select(v), ui (the plug-in's own settings: an object it keys), send, say, render }
 */
import implo from "./implo.js";
import pilo from "./pilo.js";
import robble from "./robble.js";
import vimbre from "./vimbre.js";
import yugo from "./yugo.js";

const PLUGINS = { implo, pilo, robble, vimbre, yugo };

/* The game the new-game form offers first: the quickest to learn. */
export const DEFAULT_GAME = "robble";

const PLAIN_POINT = /^[a-s]\d+$/;

const BASE = {
  click: (p, ctx) => ctx.send(p),
  overlay: () => {},
  legalPoints: (m, marks) => { if (PLAIN_POINT.test(m)) marks.legalPts.add(m); },
  statusText: () => "",
  actions: () => [],
  seatNotes: () => [],
};

export function gamePlugin(name) {
  return { ...BASE, ...(PLUGINS[name] || {}) };
}
