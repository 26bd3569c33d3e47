/* Sounds (as lichess and KaTrain have): a soft click for each move, a
 * lower knock when a move takes pieces off, a chime when a game ends, and a
 * tick for each of the last ten seconds of your own running clock. Tones
 * made with Web Audio (no sound files); the header's toggle (or the M key)
 * mutes them, remembered in this browser. The state is ``s.sound``. */
import { $ } from "../dom.js";

const KEY = "boardlab-sound";
const TONES = {  // kind: [frequency Hz, seconds, gain, wave]
  move: [660, 0.07, 0.18, "triangle"],
  capture: [330, 0.12, 0.22, "square"],
  end: [880, 0.35, 0.16, "sine"],
  tick: [1200, 0.03, 0.08, "square"],
};

export function newSound() {
  let on = true;
  try { on = localStorage.getItem(KEY) !== "off"; } catch (_) { /* private mode */ }
  return { on, ctx: null, played: [], lastTick: null };
}

/* Play the sound ``kind`` unless muted; what was played is kept for the
 * tests (window.boardlab.sounds()). */
function playSound(snd, kind) {
  if (!snd.on || !TONES[kind]) return;
  snd.played.push(kind);
  if (snd.played.length > 50) snd.played.shift();
  try {
    if (!snd.ctx) snd.ctx = new (window.AudioContext || window.webkitAudioContext)();
    const [freq, secs, gain, wave] = TONES[kind];
    const ctx = snd.ctx;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(gain, ctx.currentTime);
    amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + secs);
    osc.connect(amp).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + secs);
  } catch (_) { /* no audio here: the game goes on silently */ }
}

/* The sounds a new state calls for, against the one before it. */
export function soundsFor(snd, before, after) {
  if (!before || before.id !== after.id) return;
  if (after.ply > before.ply) playSound(snd, after.last_effects && after.last_effects.removed ? "capture" : "move");
  if (after.over && !before.over) playSound(snd, "end");
}

/* A tick per second in the last ten of the clock that runs for you. */
export function clockTick(snd, secondsLeft, mine) {
  if (!mine || secondsLeft > 10 || secondsLeft <= 0) { snd.lastTick = null; return; }
  const whole = Math.ceil(secondsLeft);
  if (whole !== snd.lastTick) { snd.lastTick = whole; playSound(snd, "tick"); }
}

function show(snd) {
  const b = $("#btn-sound");
  b.setAttribute("aria-pressed", snd.on ? "true" : "false");
  b.textContent = snd.on ? "Sound on" : "Sound off";
}

export function initSound(snd) {
  const toggle = () => {
    snd.on = !snd.on;
    try { localStorage.setItem(KEY, snd.on ? "on" : "off"); } catch (_) { /* private mode */ }
    if (snd.on && snd.ctx && snd.ctx.state === "suspended") snd.ctx.resume();
    show(snd);
  };
  $("#btn-sound").addEventListener("click", toggle);
  document.addEventListener("keydown", (ev) => {
    if ((ev.key === "m" || ev.key === "M") && !ev.ctrlKey && !ev.metaKey && !ev.altKey &&
        !(ev.target.closest && ev.target.closest("input, textarea, select"))) toggle();
  });
  // a browser starts audio only after a gesture: the first click wakes it
  document.addEventListener("pointerdown", () => { if (snd.ctx && snd.ctx.state === "suspended") snd.ctx.resume(); });
  show(snd);
}
