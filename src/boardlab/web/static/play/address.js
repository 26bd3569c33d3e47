/* The page's addresses (the URL fragment) and what each names, as plain
 * data (play/router.js shows it):
 *   #/                          the new-game form
 *   #/saved, #/load             saved games, loading a record
 *   #/editor[/<position>]       the board editor (set up any position)
 *   #/game/<id>                 a game kept in this browser (owner token)
 *   #/play/<id>/<token>         a game by link, as a player
 *   #/watch/<id>/<token>        read-only: a spectator's or a share link
 * a game's address may go on with
 *   /<ply>                      the position after that many moves
 *   /analysis/<ply>[/<move>...] the analysis mode there (then a variation's moves)
 *   #/analysis/<position>[/<move>...]  the analysis of a set-up position
 * Moves and positions are URI-encoded, one path segment each. */

const GAME_KINDS = ["game", "play", "watch"];

/* The route a hash names: {page, kind, gid, token, ply, analysis: {ply, line},
 * position}; page "bad-link" when a part cannot be decoded. */
export function parseHash(hash) {
  const parts = (hash || "#/").replace(/^#\/?/, "").split("/");
  const dec = (x) => decodeURIComponent(x);
  try {
    if (GAME_KINDS.includes(parts[0]) && parts[1]) {
      const kind = parts[0];
      const hasToken = kind !== "game";
      if (hasToken && !parts[2]) return { page: "home" };
      const route = { page: "game", kind, gid: parts[1], token: hasToken ? dec(parts[2]) : null,
        ply: null, analysis: null };
      const rest = parts.slice(hasToken ? 3 : 2);
      if (rest[0] === "analysis") route.analysis = { ply: plyOf(rest[1]), line: rest.slice(2).filter(Boolean).map(dec) };
      else route.ply = plyOf(rest[0]);
      return route;
    }
    if (parts[0] === "analysis" && parts[1]) {
      return { page: "position", position: dec(parts[1]), line: parts.slice(2).filter(Boolean).map(dec) };
    }
    if (parts[0] === "editor") return { page: "editor", position: parts[1] ? dec(parts[1]) : null };
  } catch (_) {
    return { page: "bad-link" };  // a link cut or mangled in transit (e.g. %E0%A4%A)
  }
  if (parts[0] === "saved" || parts[0] === "load") return { page: parts[0] };
  return { page: "home" };
}

function plyOf(text) {
  const n = text !== undefined && text !== "" ? parseInt(text, 10) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/* The hash of a game route (see parseHash). */
export function hashOf(route) {
  const enc = encodeURIComponent;
  let h = route.kind === "game" ? `#/game/${route.gid}` : `#/${route.kind}/${route.gid}/${enc(route.token)}`;
  if (route.analysis) {
    h += `/analysis/${route.analysis.ply}`;
    for (const m of route.analysis.line || []) h += `/${enc(m)}`;
  } else if (route.ply !== null && route.ply !== undefined) {
    h += `/${route.ply}`;
  }
  return h;
}

/* The address of a set-up position's analysis (or, with ``editor``, of its
 * board editor). */
export function positionHash(position, line = [], editor = false) {
  const enc = encodeURIComponent;
  return `#/${editor ? "editor" : "analysis"}/${enc(position)}` + line.map((m) => `/${enc(m)}`).join("");
}
