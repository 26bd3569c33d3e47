/* Small DOM helpers shared by the page's modules (moved out of app.js). */

export const $ = (sel) => document.querySelector(sel);
export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/* An element: el("button", {class, text, onclick, "data-x": 1}, ...children). */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

/* The game page's one-line message under the status: an error (red) unless
 * ``kind`` is "info". */
export function say(text, kind = "error") {
  const m = $("#message");
  m.textContent = text || "";
  m.className = kind === "info" ? "info" : "";
}

/* The error view, with ``text`` saying what went wrong and what to do. */
export function showError(text) {
  for (const v of document.querySelectorAll(".view")) v.hidden = true;
  $("#view-error").hidden = false;
  $("#error-text").textContent = text;
}
