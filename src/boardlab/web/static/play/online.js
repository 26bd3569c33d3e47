/* What only a game by link shows: who you are, the links to send, your
 * name, the undo request and a pre-game's color pick to answer, and the clock. */
import { api } from "../api.js";
import { $, cap, el, say } from "../dom.js";
import { formatClock } from "../format.js";
import { clockTick } from "./sound.js";

export function renderOnline(s, live, ctl) {
  $("#online").hidden = !live.online;
  if (!live.online) return;
  const you = live.you;
  $("#online-you").textContent = you === "spectator" ? "You are watching this game."
    : `You play ${you.color}. ${live.connected[1 - you.seat] ? "Your friend is connected." : "Your friend is not connected."}`;
  let links = null;
  try { links = JSON.parse(sessionStorage.getItem(`boardlab-links-${live.id}`) || "null"); } catch (_) { links = null; }
  $("#online-links").hidden = !links || you === "spectator";
  if (links) {
    $("#invite-link").value = location.origin + links.invite;
    $("#spectate-link").value = location.origin + links.spectate;
  }
  const mine = you !== "spectator" ? live.seats[you.seat] : null;
  $("#name-form").hidden = !mine || live.over;
  if (mine && document.activeElement !== $("#my-name")) $("#my-name").value = mine.label || "";
  renderAsk(live, ctl);
  s.clockAt = performance.now();
  if (live.clock && !s.clockTimer) s.clockTimer = setInterval(() => renderClock(s), 250);
  renderClock(s);
}

/* The undo request (and its answer), the pre-game's color pick and the rematch, with
 * the buttons that answer them. */
function renderAsk(live, ctl) {
  const you = live.you;
  const ask = $("#online-ask");
  ask.innerHTML = "";
  const req = live.undo_request;
  const answer = live.meta && live.meta.undo_answer;
  if (answer && you !== "spectator" && answer.by !== you.seat && answer.at === live.ply && !req) {
    ask.append(el("span", { class: "note", "data-note": answer.accepted ? "undo-allowed" : "undo-declined",
      text: answer.accepted ? "Your friend allowed your undo: your move is taken back."
        : "Your friend declined your undo request: the move stands." }));
  }
  const rematch = live.meta && live.meta.rematch;
  if (rematch && you !== "spectator") {
    const link = `#/play/${rematch.id}/${encodeURIComponent(ctl.token())}`;
    ask.append(el("span", { text: rematch.by === you.seat ? "You offered a rematch." : "Your friend offers a rematch (colors exchanged)." }),
      el("a", { class: "button primary", href: link, "data-action": "join-rematch", text: "Go to the rematch" }));
  } else if (rematch) {
    ask.append(el("a", { class: "button", href: `#/watch/${rematch.id}/${encodeURIComponent(ctl.token())}`,
      "data-action": "watch-rematch", text: "Watch the rematch" }));
  }
  if (req && you !== "spectator" && !live.over) {
    if (req.by === you.seat) ask.append(el("span", { "data-note": "undo-waiting", text: "Waiting for your friend to answer your undo request…" }));
    else {
      ask.append(el("span", { text: "Your friend asks to take back their last move." }),
        el("button", { type: "button", "data-action": "undo-accept", text: "Allow undo", onclick: () => answerUndo(live, true, ctl) }),
        el("button", { type: "button", "data-action": "undo-decline", text: "Decline", onclick: () => answerUndo(live, false, ctl) }));
    }
  }
  if (live.pregame_pending && you !== "spectator") {
    const pg = live.meta.pregame;  // {option, value, ...}: what the creator named
    if (you.seat === live.meta.creator_seat) ask.append(el("span", { text: `You named ${pg.option} ${pg.value}; your friend picks a color.` }));
    else {
      ask.append(el("span", { text: `Your friend named ${pg.option} ${pg.value}. Pick your color:` }));
      for (const c of live.colors) ask.append(el("button", { type: "button", "data-action": `pick-${c}`, text: `Play ${c}`,
        onclick: async () => { try { await ctl.setLive(await api("POST", `/api/games/${live.id}/color`, { color: c })); } catch (e) { say(e.message); } } }));
    }
  }
}

function renderClock(s) {
  const live = s.live;
  const box = $("#clock");
  if (!live || !live.online || !live.clock) { box.textContent = ""; return; }
  const c = live.clock;
  const gone = (performance.now() - s.clockAt) / 1000;
  const mine = live.you && live.you !== "spectator" ? live.you.seat : null;
  box.textContent = live.seats.map((seat, i) => {
    const t = c.remaining[i] - (c.running === i && !live.over ? gone : 0);
    if (c.running === i && !live.over) clockTick(s.sound, t, i === mine);
    return `${cap(seat.color)} ${formatClock(t)}${c.running === i && !live.over ? " ◀" : ""}`;
  }).join("   ") + (c.kind === "move" ? "  (per move)" : c.increment ? `  (+${c.increment}s)` : "");
}

async function answerUndo(live, accept, ctl) {
  try { await ctl.setLive(await api("POST", `/api/games/${live.id}/undo/answer`, { accept })); }
  catch (e) { say(e.message); }
}

/* Copy a link field to the clipboard; where the clipboard API is refused
 * (plain http on another host), select it so the user can copy by hand. */
export async function copyText(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  } catch (_) {
    input.focus();
    input.select();
    say("Press Ctrl+C (or ⌘C) to copy the selected link.", "info");
  }
}
