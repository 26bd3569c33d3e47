/* Small text formats of the game page, kept apart so a test can import them. */

/* A clock reading: m:ss.t from whole tenths of a second, so that 299.96 s is
 * "5:00.0" (never "4:60.0") and 10 s is "0:10.0" (never "0:010.0").
 * Negative times read 0:00.0; the tenths are cut, not rounded, as a clock does. */
export function formatClock(seconds) {
  const tenths = Math.max(0, Math.floor(seconds * 10 + 1e-6));
  const m = Math.floor(tenths / 600);
  const s = Math.floor((tenths % 600) / 10);
  return `${m}:${String(s).padStart(2, "0")}.${tenths % 10}`;
}

/* A whole number typed in a form field, or an Error that says what is wrong.
 * Number("1e9") or parseInt("1e9") would take a typo for a value. */
export function parseWhole(text, what) {
  const t = String(text).trim();
  if (t === "") return 0;
  if (!/^[-+]?\d{1,6}$/.test(t)) {
    throw new Error(`${what} must be a whole number such as 6 or -3 (at most 6 digits), not "${t}"`);
  }
  return parseInt(t, 10);
}

/* An illegal-move message: the server's reason, prefixed with the move only
 * when the reason does not already name it ("b2 is occupied", not "b2: b2 is
 * occupied"). */
export function moveError(move, reason) {
  return reason.includes(move) ? reason : `${move}: ${reason}`;
}
