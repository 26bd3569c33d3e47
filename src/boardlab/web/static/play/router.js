/* The page's addresses (play/address.js) and the view each shows. */
import { $, showError } from "../dom.js";
import { parseHash } from "./address.js";
import { openEditor } from "./editor.js";
import { closeGame, openGame } from "./game.js";
import { openPosition } from "./review.js";
import { loadSaved } from "./saved.js";

/* Show what the address names. */
export function route(s) {
  const r = parseHash(location.hash);
  for (const v of document.querySelectorAll(".view")) v.hidden = true;
  if (r.page === "bad-link") {
    closeGame(s);
    showError("This link is damaged (it holds an incomplete %-escape), so it cannot be opened. " +
      "Ask for the link again, and copy it whole.");
    return;
  }
  if (r.page === "game") {
    $("#view-play").hidden = false;
    if (s.gid !== r.gid || s.token !== r.token) closeGame(s);
    s.token = r.token;
    s.route = r;
    openGame(s, r.gid, r.ply, r.analysis);
    return;
  }
  closeGame(s);
  s.token = null;
  s.route = null;
  if (r.page === "position") { $("#view-play").hidden = false; openPosition(s, r.position, r.line); }
  else if (r.page === "editor") { $("#view-editor").hidden = false; openEditor(s, r.position); }
  else if (r.page === "saved") { $("#view-saved").hidden = false; loadSaved(); }
  else if (r.page === "load") { $("#view-load").hidden = false; }
  else { $("#view-home").hidden = false; }
}
