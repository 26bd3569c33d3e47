/* Keeping the page's game current: a game by link gets its changes over a
 * WebSocket (long polls while the socket is down), any other game long-polls.
 * Each new state goes to ``onState(st)``. */
import { ApiError, api } from "../api.js";
import { say } from "../dom.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function stopSocket(s) {
  clearTimeout(s.wsRetry);
  s.wsRetry = null;
  const ws = s.ws;
  s.ws = null;
  if (ws) { try { ws.close(); } catch (_) { /* gone */ } }
}

export function stopPoll(s) {
  if (s.pollCtl) s.pollCtl.abort();
  s.pollCtl = null;
}

/* Live updates over a WebSocket; while it is down the page long-polls instead
 * and tries the socket again every few seconds. */
export function startSocket(s, gid, onState) {
  if (!window.WebSocket) { if (!s.pollCtl) startPoll(s, gid, onState); return; }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try { ws = new WebSocket(`${proto}://${location.host}/api/games/${gid}/ws`); }
  catch (e) { if (!s.pollCtl) startPoll(s, gid, onState); return; }
  s.ws = ws;
  let refused = false;
  ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: s.token }));
  ws.onmessage = async (ev) => {
    if (s.ws !== ws || s.gid !== gid) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.type === "state") {
      stopPoll(s);
      document.body.dataset.live = "socket";
      if (!s.live || msg.state.version !== s.live.version) await onState(msg.state);
    } else if (msg.type === "error") {
      if (["missing_token", "wrong_token", "not_found"].includes(msg.error.code)) refused = true;
      say(msg.error.message);
    }
  };
  ws.onclose = () => {
    if (s.ws !== ws) return;
    s.ws = null;
    if (s.gid !== gid) return;
    document.body.dataset.live = "poll";
    if (!s.pollCtl) startPoll(s, gid, onState);
    if (!refused) s.wsRetry = setTimeout(() => { if (s.gid === gid && !s.ws) startSocket(s, gid, onState); }, 3000);
  };
}

/* Long-poll GET /api/games/<gid>?after=VERSION until the game is closed. */
export function startPoll(s, gid, onState) {
  const ctl = new AbortController();
  s.pollCtl = ctl;
  (async () => {
    let failures = 0;
    while (s.gid === gid && !ctl.signal.aborted) {
      try {
        const after = s.live ? s.live.version : "";
        const st = await api("GET", `/api/games/${gid}?after=${encodeURIComponent(after)}&wait=20`, null, ctl.signal);
        if (s.gid !== gid || ctl.signal.aborted) return;
        if (failures) { failures = 0; say("Connected again.", "info"); }
        if (!s.live || st.version !== s.live.version) await onState(st);
      } catch (e) {
        if (ctl.signal.aborted) return;
        failures += 1;
        if (e instanceof ApiError && [401, 403, 404].includes(e.status)) { say(e.message); return; }
        say("Connection to the server lost — retrying…", "info");
        await sleep(Math.min(3000, 300 * failures));
      }
    }
  })();
}
