/* Saved games (the list to resume or review) and loading a record. */
import { api } from "../api.js";
import { $, cap, el } from "../dom.js";

export async function loadSaved() {
  const tbody = $("#saved tbody");
  tbody.innerHTML = "";
  let games = [];
  try { games = await api("GET", "/api/games"); } catch (e) { $("#saved-empty").textContent = e.message; }
  $("#saved-empty").hidden = games.length > 0;
  for (const g of games) tbody.append(savedRow(g));
}

function savedRow(g) {
  // a loaded record shows the names it gives its players, and says it is one
  const fromRecord = g.meta && g.meta.source === "record";
  const players = g.seats.map((s) => (fromRecord && s.name) || s.label || s.kind).join(" vs ");
  const r = g.result;
  const status = r ? (r.winner === "draw" ? `Draw (${r.termination})` : `${cap(r.winner)} won by ${r.termination}`)
    : g.status === "over" ? "Finished" : "In progress";
  const when = new Date(g.updated * 1000).toLocaleString();
  const open = el("a", { class: "button", href: `#/game/${g.id}`, "data-open": g.id,
    text: g.status === "over" ? "Review" : "Resume" });
  const del = el("button", { type: "button", class: "danger", "aria-label": `Delete game ${g.id}`, text: "Delete",
    onclick: async (ev) => {  // a second click within 5 s confirms
      const b = ev.currentTarget;
      if (!b.dataset.armed) {
        b.dataset.armed = "yes";
        b.textContent = "Really delete?";
        setTimeout(() => { delete b.dataset.armed; b.textContent = "Delete"; }, 5000);
        return;
      }
      await api("DELETE", `/api/games/${g.id}`);
      loadSaved();
    } });
  return el("tr", { "data-id": g.id },
    el("td", {}, cap(g.game), fromRecord ? el("span", { class: "tag", "data-tag": "record", text: " loaded record" }) : null,
      g.meta && g.meta.analysis ? el("span", { class: "tag", "data-tag": "analysed", text: " analysed" }) : null),
    el("td", { text: `${g.size}×${g.size}` }),
    el("td", { text: players }), el("td", { text: g.moves }), el("td", { text: status }),
    el("td", { text: when }), el("td", { class: "actions" }, open, del));
}

export function initLoad() {
  $("#load-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (f) $("#load-text").value = await f.text();
  });
  $("#load-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#load-error").textContent = "";
    try {
      const st = await api("POST", "/api/records", { text: $("#load-text").value });
      location.hash = `#/game/${st.id}/0`;
    } catch (e) { $("#load-error").textContent = e.message; }
  });
}
