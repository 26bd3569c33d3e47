/* A game's rules in a dialog over the page (the /rules/<game> page's text). */
import { api } from "../api.js";
import { drawDiagrams } from "../board.js";
import { $, cap } from "../dom.js";

export async function showRules(name) {
  const dlg = $("#rules-dialog");
  $("#rules-title").textContent = `${cap(name)} — rules`;
  $("#rules-body").innerHTML = "<p>Loading…</p>";
  if (!dlg.open) dlg.showModal();
  try {
    const r = await api("GET", `/api/rules/${name}`);
    $("#rules-body").innerHTML = r.html;
    drawDiagrams($("#rules-body"));
  } catch (e) {
    $("#rules-body").textContent = e.message;
  }
  $("#rules-close").focus();
}

export function initRulesDialog() {
  $("#rules-close").addEventListener("click", () => $("#rules-dialog").close());
  $("#rules-dialog").addEventListener("click", (ev) => { if (ev.target === $("#rules-dialog")) $("#rules-dialog").close(); });
}
