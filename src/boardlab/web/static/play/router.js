/* The page's addresses (the URL fragment) and the view each shows:
 *   #/                      the new-game form
 *   #/saved, #/load         saved games, loading a record
 *   #/game/<id>[/<ply>]     a game kept in this browser (owner token)
 *   #/play/<id>/<token>     a game by link, as a player
 *   #/watch/<id>/<token>    a game by link, watching */
import { $ } from "../dom.js";
import { closeGame, openGame } from "./game.js";
import { loadSaved } from "./saved.js";

export function route(s) {
  const hash = location.hash || "#/";
  const parts = hash.slice(2).split("/");
  for (const v of document.querySelectorAll(".view")) v.hidden = true;
  if ((parts[0] === "play" || parts[0] === "watch") && parts[1] && parts[2]) {
    let token;
    try { token = decodeURIComponent(parts[2]); } catch (_) {
      // a link cut or mangled in transit (e.g. %E0%A4%A): say so instead of throwing
      closeGame(s);
      $("#view-error").hidden = false;
      $("#error-text").textContent = "This game link is damaged (it holds an incomplete %-escape), " +
        "so it cannot be opened. Ask for the link again, and copy it whole.";
      return;
    }
    $("#view-play").hidden = false;
    if (s.gid !== parts[1] || s.token !== token) closeGame(s);
    s.token = token;
    openGame(s, parts[1], null);
    return;
  }
  if (parts[0] === "game" && parts[1]) {
    if (s.token) { closeGame(s); s.token = null; }
    $("#view-play").hidden = false;
    const ply = parts[2] !== undefined && parts[2] !== "" ? parseInt(parts[2], 10) : null;
    openGame(s, parts[1], Number.isFinite(ply) ? ply : null);
    return;
  }
  closeGame(s);
  if (parts[0] === "saved") { $("#view-saved").hidden = false; loadSaved(); }
  else if (parts[0] === "load") { $("#view-load").hidden = false; }
  else { $("#view-home").hidden = false; }
}
