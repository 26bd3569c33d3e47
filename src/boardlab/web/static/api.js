/* The page's requests to the JSON API (moved out of app.js): the error
 * envelope as an exception, and the tokens a request about a game carries. */

export class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

// Owner tokens (issue 20): a game not played by link has one, kept in this browser
// only; it is sent with every request about that game, and all of them with the list.
const OWNERS_KEY = "boardlab-owners";
export function owners() {
  try { return JSON.parse(localStorage.getItem(OWNERS_KEY) || "{}") || {}; } catch (_) { return {}; }
}
function keepOwner(id, token) {
  const o = owners();
  delete o[id];
  o[id] = token;
  const ids = Object.keys(o);
  while (ids.length > 200) delete o[ids.shift()];  // the server reads at most 200
  try { localStorage.setItem(OWNERS_KEY, JSON.stringify(o)); } catch (_) { /* private mode */ }
}
/* The token of a game played by link (from the URL fragment; the page sets
 * the getter), else this browser's owner token for ``gid``. */
let linkToken = () => null;
export function useLinkToken(fn) { linkToken = fn; }
export function seatToken(gid) { return linkToken() || owners()[gid] || null; }

export async function api(method, url, body, signal) {
  const opts = { method, headers: {}, signal };
  const game = url.match(/^\/api\/games\/([^/?#]+)/);
  if (game && seatToken(game[1])) opts.headers["X-Seat-Token"] = seatToken(game[1]);
  if (!game && method === "GET" && /^\/api\/games(\?|$)/.test(url)) {
    opts.headers["X-Owner-Tokens"] = Object.values(owners()).join(",");
  }
  if (body !== undefined && body !== null) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  if (res.status === 204) return null;
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || { code: "http_error", message: `HTTP ${res.status}` };
    throw new ApiError(res.status, err.code, err.message);
  }
  if (data && data.tokens && data.tokens.owner) keepOwner(data.id, data.tokens.owner);
  return data;
}
