/* boardlab in the browser: plain JS modules, no build step.
 *
 * The server owns every rule: the page draws the JSON it gets from the API
 * (board cells, legal moves, hints) and turns clicks into moves in the
 * notation of docs/rules.md. This file only starts the page: its state
 * (play/state.js) is one object handed to the modules that need it —
 * play/ (routing, the new-game form, the game, live updates, drawing,
 * controls) and analysis/ (the analysis mode, which keeps its own state).
 *
 * Test hooks: every point of the board is <g data-point="c3">, every move
 * button has data-move="swap" (etc.), and window.boardlab.state() is the
 * state the page shows.
 */
import { analysisState } from "./analysis/analysis.js";
import { useLinkToken } from "./api.js";
import { $ } from "./dom.js";
import { initPlay } from "./play/controls.js";
import { initEditor } from "./play/editor.js";
import { initForm } from "./play/form.js";
import { route } from "./play/router.js";
import { initRulesDialog, showRules } from "./play/rulesdialog.js";
import { initLoad } from "./play/saved.js";
import { initSound } from "./play/sound.js";
import { newPlayState } from "./play/state.js";

const s = newPlayState();

window.boardlab = {
  analysis: () => analysisState(s.analysis),
  state: () => s.shown,
  live: () => s.live,
  selection: () => s.sel,
  sounds: () => [...s.sound.played],
};

useLinkToken(() => s.token);
window.addEventListener("hashchange", () => route(s));
document.addEventListener("DOMContentLoaded", async () => {
  initPlay(s);
  initSound(s.sound);
  initEditor(s);
  initRulesDialog();
  initLoad();
  try { await initForm(s, showRules); } catch (e) { $("#ng-error").textContent = `Cannot reach the server: ${e.message}`; }
  route(s);
});
