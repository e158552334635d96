// One tournament as a card, on its live page: its status, times, game and who may join; its actions
// as buttons large enough for a finger (fair-play report, edit, close, cancel, results as CSV, into
// a series); what an action opens shows under the card's buttons.

import { tournamentState } from "../../lib/state.js";
import { api } from "../../lib/api.js";
import { certifiedBadge, clock, describeSettings, downloadCsv, el } from "../../lib/ui.js";
import { timeSpan } from "../../lib/time.js";
import { accessWords, act } from "../common.js";
import { editForm } from "./edit.js";
import { integrityReport } from "./integrity.js";
import { knownSeries, loadSeries } from "../panels/series.js";

/** A select of the caller's series and a button that adds the tournament to the one chosen. */
function seriesAdder(tour, refresh) {
  const mine = knownSeries().filter((s) => !s.club || (tour.club && s.club.id === tour.club.id));
  if (tour.series || !mine.length || tour.status === "cancelled") return null;
  const select = el("select", { "data-field": "add-series", "aria-label": "Series to add it to" },
    mine.map((s) => el("option", { value: s.id }, s.name)));
  const add = el("button", { class: "btn", type: "button", "data-action": "add-series" }, "Add to the series");
  add.addEventListener("click", async () => {
    const done = await act(api.admin("POST", `/api/series/${select.value}/tournaments`, { tournament: tour.id }),
      `Tournament ${tour.id} added to the series`);
    if (done) {
      loadSeries();
      refresh();
    }
  });
  return el("div", { class: "dq-form" }, select, add);
}

const past = (iso) => new Date(iso).getTime() <= Date.now();

/** The card; `live`: on the sitting's live page (no link to it, the entrants are listed there). */
export function tournamentCard(tour, refresh, { live = false } = {}) {
  const detail = el("div", { class: "card-detail" });
  const show = (title, node) => detail.replaceChildren(el("h3", {}, title), node);
  const button = (action, label, run, cls = "") =>
    el("button", { class: `btn ${cls}`, type: "button", "data-action": action, onclick: run }, label);
  const actions = live ? [] : [el("a", { class: "btn primary", href: `#/organise/tournament/${tour.id}`,
    "data-action": "live" }, "Live page")];
  if (tour.status !== "scheduled") {
    actions.push(button("integrity", "Fair-play report", () => show(`Fair-play report of ${tour.name}`,
      integrityReport(tour))));
  }
  if (tour.status === "scheduled") {
    actions.push(button("edit", "Edit", () => show(`Edit ${tour.name}`, editForm(tour, refresh))));
  }
  if (tour.status === "open" && tour.start !== "together") {  // a together sitting closes its entries itself
    actions.push(button("close", "Close entries", async () => {
      if (!window.confirm(`Close the entries of "${tour.name}"? Nobody can join any more; games under way go on.`)) return;
      if (await act(api.admin("POST", `/api/tournaments/${tour.id}/close`), `Entries of ${tour.id} closed`)) refresh();
    }));
  }
  if (!["finished", "cancelled"].includes(tour.status)) {
    actions.push(button("cancel", "Cancel", async () => {
      if (!window.confirm(`Cancel "${tour.name}"? Every game ends and nothing is ranked.`)) return;
      if (await act(api.admin("POST", `/api/tournaments/${tour.id}/cancel`), `Tournament ${tour.id} cancelled`)) {
        refresh();
      }
    }, "danger"));
  }
  if (tour.status !== "cancelled") {  // live standings for its organisers, the final ones once finished
    actions.push(button("standings-csv", tour.status === "finished" ? "Results (CSV)" : "Standings so far (CSV)",
      () => downloadCsv(`/api/tournaments/${tour.id}/standings.csv`, `tournament-${tour.id}-standings.csv`)));
  }
  actions.push(el("a", { class: "btn ghost", href: `#/board/${tour.id}`, "data-action": "board" }, "Leaderboard"));
  const who = accessWords(tour);
  const together = tour.start === "together";
  return el("li", { class: "card-item tournament-card", "data-tournament-row": tour.id },
    live ? null : el("div", { class: "card-head" }, el("b", { "data-field": "name" }, tour.name),
      el("span", { class: "muted" }, ` #${tour.id}`),
      el("span", { class: `badge st-${tour.status}`, "data-field": "status" }, tournamentState(tour)),
      certifiedBadge(tour)),
    who ? el("div", { class: "muted small", "data-field": "access" }, who) : null,
    el("p", { class: "card-facts" },
      timeSpan(tour.opens_at, past(tour.opens_at) ? (together ? "started" : "opened") : (together ? "everyone starts" : "opens"),
        { "data-field": "opens" }), " · ",
      tour.status === "cancelled" && tour.cancelled_at ? timeSpan(tour.cancelled_at, "cancelled", { "data-field": "closes" })
        : timeSpan(tour.closes_at, past(tour.closes_at) ? "closed" : "closes", { "data-field": "closes" }), " · ",
      el("span", { "data-field": "entrants" }, `${tour.entrants} entr${tour.entrants === 1 ? "y" : "ies"}`)),
    el("p", { class: "muted small", "data-field": "game" },
      `${describeSettings(tour.settings)}, ${clock(tour.settings.time_limit)}${together ? ", everyone starts together" : ""}`),
    el("div", { class: "card-actions" }, actions, seriesAdder(tour, refresh)),
    detail);
}
