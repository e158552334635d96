// The organiser's page, second half: the tournaments the token runs, as cards (edit, close, cancel,
// entries to disqualify, the fair-play report, results as CSV); recurring schedules. Every request
// carries the admin or organiser token kept in this tab.

import { api } from "../lib/api.js";
import { el } from "../lib/ui.js";
import { accessFields } from "./clubs.js";
import { act } from "./common.js";
import { schedulesPanel } from "./schedules.js";
import { tournamentCard } from "./tournament_card.js";

/** The management sections, under the creation form: {node, refresh (the club lists), chosenChanged}. */
export function manage(chosen) {
  const list = el("ul", { class: "card-list manage-tournaments" });
  const access = accessFields("s");
  const schedules = schedulesPanel(access, chosen);
  async function refresh() {
    const tours = await act(api.admin("GET", "/api/tournaments?limit=200"));
    if (!tours) return;
    list.replaceChildren(...(tours.length ? tours.map((t) => tournamentCard(t, refresh))
      : [el("li", { class: "muted" }, "No tournament yet.")]));
  }
  const show = () => { refresh(); schedules.refresh(); };
  const load = el("button", { class: "btn", type: "button", "data-action": "manage" }, "Show tournaments and schedules");
  load.addEventListener("click", show);
  const node = el("section", { class: "manage" }, el("h2", {}, "Run tournaments"), load, list, schedules.node);
  return { node, show, refresh: access.refresh, chosenChanged: schedules.chosenChanged };
}
