// The organiser's page, a tournament's entries: one card each (no table to scroll sideways on a
// phone), with its moves, score, time left and start; a reason and a button to disqualify it, or
// the reason it was disqualified for, shown whole.

import { api } from "../lib/api.js";
import { clock, el, notify, statusName } from "../lib/ui.js";
import { timeSpan } from "../lib/time.js";
import { act } from "./common.js";

function entryCard(tour, e, refresh) {
  const score = e.final_score ?? e.score;
  const fact = (label, value, name) => el("div", { class: "fact" }, el("dt", {}, label),
    el("dd", name ? { "data-field": name } : {}, value));
  let out;
  if (e.disqualified) {
    out = el("p", { class: "dq-reason" }, el("b", {}, "Disqualified: "),
      el("span", { "data-field": "disqualified" }, e.disqualified));
  } else {
    const reason = el("input", { type: "text", maxlength: 200, placeholder: "reason, shown to everyone",
      "data-field": "reason", "aria-label": `Reason to disqualify ${e.player}` });
    const dq = el("button", { class: "btn danger", type: "button", "data-action": "disqualify" }, "Disqualify");
    dq.addEventListener("click", async () => {
      if (!reason.value.trim()) return notify("Give a reason", "error");
      const done = await act(api.admin("POST", `/api/tournaments/${tour.id}/entries/${e.id}/disqualify`,
        { reason: reason.value.trim() }), `Entry ${e.id} disqualified`);
      if (done) refresh();
    });
    out = el("div", { class: "dq-form" }, reason, dq);
  }
  return el("li", { class: `card-item entry-card${e.disqualified ? " disqualified" : ""}`, "data-entry": e.id },
    el("div", { class: "card-head" }, el("b", {}, e.player), el("span", { class: "muted" }, ` entry ${e.id}`),
      el("span", { class: "badge", "data-field": "status" }, statusName(e.status))),
    el("dl", { class: "facts" },
      fact("Moves", e.moves), fact("Score", score),
      fact("Time left", e.time_left === null ? "–" : clock(e.time_left)),
      fact("Started", e.started_at ? timeSpan(e.started_at) : "not yet")),
    out);
}

/** The entries of a tournament as a list of cards. */
export function entriesList(tour, entries, refresh) {
  return el("ul", { class: "card-list entries", "data-entries-of": tour.id },
    entries.length ? entries.map((e) => entryCard(tour, e, refresh)) : el("li", { class: "muted" }, "No entries yet"));
}
