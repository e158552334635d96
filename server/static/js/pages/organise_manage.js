// The organiser's page, second half: tournaments to edit, close, cancel; their entries, to
// disqualify; their results as CSV; recurring schedules (with who may join). Every request
// carries the admin or organiser token kept in this tab.

import { api } from "../lib/api.js";
import { accessFields } from "./organise_clubs.js";
import { seriesField } from "../competitions/organise_series.js";
import { clock, describeSettings, downloadCsv, el, notify, STATUS_NAMES } from "../lib/ui.js";
import { every as everyWords, localInput, minutes, timeSpan } from "../lib/time.js";

const EVERY = { hour: 60, day: 1440, week: 10080 };

const when = (iso) => (iso ? timeSpan(iso) : "–");

async function act(promise, done) {
  try {
    const out = await promise;
    if (done) notify(done, "ok");
    return out;
  } catch (err) {
    notify(err.message, "error", 7000);
    return null;
  }
}

function entriesTable(tour, entries, refresh) {
  const rows = entries.map((e) => {
    const reason = el("input", { type: "text", maxlength: 200, placeholder: "reason", "data-field": "reason",
      "aria-label": `Reason to disqualify ${e.player}` });
    const dq = el("button", { class: "btn small danger", type: "button", "data-action": "disqualify" }, "Disqualify");
    dq.addEventListener("click", async () => {
      if (!reason.value.trim()) return notify("give a reason", "error");
      const out = await act(api.admin("POST", `/api/tournaments/${tour.id}/entries/${e.id}/disqualify`,
        { reason: reason.value.trim() }), `Entry ${e.id} disqualified`);
      if (out) refresh();
    });
    const score = e.final_score ?? e.score;
    return el("tr", { "data-entry": e.id, class: e.disqualified ? "disqualified" : null },
      el("td", {}, e.id), el("td", {}, e.player), el("td", { "data-field": "status" }, STATUS_NAMES[e.status] || e.status),
      el("td", {}, e.moves), el("td", {}, score), el("td", {}, e.time_left === null ? "–" : `${e.time_left} s`),
      el("td", {}, when(e.started_at)),
      el("td", { "data-field": "disqualified" }, e.disqualified ? e.disqualified : el("span", { class: "row" }, reason, dq)));
  });
  return el("div", { class: "table-wrap entries", "data-entries-of": tour.id },
    el("table", { class: "standings" },
      el("thead", {}, el("tr", {}, ...["Entry", "Player", "Status", "Moves", "Score", "Time left", "Started", "Disqualified"]
        .map((h) => el("th", {}, h)))),
      el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: 8 }, "No entries yet")))));
}

/** Edit a tournament before it opens: only what was changed is sent (a time left alone keeps its
 * seconds); a together tournament has no closing time of its own (its opening plus the sitting). */
function editForm(tour, refresh) {
  const together = tour.start === "together";
  const name = el("input", { name: "name", value: tour.name, maxlength: 100, "data-field": "edit-name" });
  const opens = el("input", { type: "datetime-local", value: localInput(tour.opens_at), "data-field": "edit-opens" });
  const closes = el("input", { type: "datetime-local", value: localInput(tour.closes_at), "data-field": "edit-closes" });
  const form = el("form", { class: "panel edit-form", "data-edit": tour.id },
    el("label", { class: "field" }, el("span", {}, "Name"), name),
    el("div", { class: "grid2" }, el("label", { class: "field" }, el("span", {}, together ? "Everyone starts at" : "Opens"), opens),
      together ? el("p", { class: "muted small", "data-field": "edit-closes-note" },
        "Entries close when everyone starts; it ends one sitting later.")
        : el("label", { class: "field" }, el("span", {}, "Closes"), closes)),
    el("button", { class: "btn primary", type: "submit", "data-action": "save" }, "Save"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {};
    if (name.value.trim() !== tour.name) body.name = name.value.trim();
    if (opens.value !== localInput(tour.opens_at)) body.opens_at = new Date(opens.value).toISOString();
    if (!together && closes.value !== localInput(tour.closes_at)) body.closes_at = new Date(closes.value).toISOString();
    if (!Object.keys(body).length) return notify("Nothing changed", "info");
    const out = await act(api.admin("PATCH", `/api/tournaments/${tour.id}`, body), `Tournament ${tour.id} changed`);
    if (out) refresh();
  });
  return form;
}

function tournamentRow(tour, refresh, detail) {
  const button = (action, label, run, cls = "") =>
    el("button", { class: `btn small ${cls}`, type: "button", "data-action": action, onclick: run }, label);
  const actions = [button("entries", "Entries", async () => {
    const entries = await act(api.admin("GET", `/api/tournaments/${tour.id}/entries?limit=500`));
    if (entries) detail.replaceChildren(el("h3", {}, `Entries of ${tour.name}`), entriesTable(tour, entries,
      () => actions[0].click()));
  })];
  if (tour.status === "scheduled") {
    actions.push(button("edit", "Edit", () => detail.replaceChildren(el("h3", {}, `Edit ${tour.name}`),
      editForm(tour, refresh))));
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
    actions.push(el("button", { class: "btn small", type: "button", "data-action": "standings-csv",
      onclick: () => downloadCsv(`/api/tournaments/${tour.id}/standings.csv`, `tournament-${tour.id}-standings.csv`) },
      tour.status === "finished" ? "Download results (CSV)" : "Standings so far (CSV)"));
  }
  const who = [tour.club ? `${tour.club.name} only` : null, tour.entry_code ? `code ${tour.entry_code}` : null,
    tour.listed === false ? "unlisted" : null].filter(Boolean).join(", ");
  return el("tr", { "data-tournament-row": tour.id },
    el("td", {}, tour.id), el("td", {}, tour.name, who ? el("div", { class: "muted small", "data-field": "access" }, who) : null), el("td", { "data-field": "status" }, STATUS_NAMES[tour.status] || tour.status),
    el("td", {}, when(tour.opens_at)), el("td", {}, when(tour.closes_at)), el("td", {}, tour.entrants),
    el("td", { class: "row" }, ...actions));
}

function schedulesPanel(access, chosen) {
  const list = el("div", { class: "schedules" });
  const name = el("input", { name: "schedule-name", id: "s-name", maxlength: 80, required: true, placeholder: "Evening cup" });
  const every = el("select", { id: "s-every" }, Object.keys(EVERY).map((k) => el("option", { value: k, selected: k === "day" }, `every ${k}`)));
  const at = el("input", { id: "s-at", type: "time", value: "20:00" });
  const open = el("input", { id: "s-open", type: "number", min: 1, value: 60 });
  const ahead = el("input", { id: "s-ahead", type: "number", min: 0, value: 60 });
  const field = (label, input) => el("label", { class: "field" }, el("span", {}, label), input);
  const series = seriesField("s");
  const form = el("form", { class: "panel schedule-form" },
    el("div", { class: "grid2" }, field("Name", name), field("Repeat", every), field("At (UTC)", at),
      field("Open for (minutes)", open), field("Created ahead (minutes)", ahead)),
    el("p", { class: "muted small" }, "Each tournament it creates takes the game, time limit, undo and fair-play " +
      "settings chosen in the form at the top of this page."),
    access.node, series.node,
    el("button", { class: "btn primary", type: "submit", "data-action": "schedule" }, "Create the schedule"));

  async function refresh() {
    const schedules = await act(api.admin("GET", "/api/schedules"));
    if (!schedules) return;
    list.replaceChildren(...schedules.map((s) => el("div", { class: "panel", "data-schedule": s.id },
      el("strong", {}, s.name), ` — ${everyWords(s.every_minutes)}, open ${minutes(s.open_minutes)}; `,
      el("span", { "data-field": "schedule-game" }, `${describeSettings(s.settings)}, ${clock(s.settings.time_limit)}`,
        s.start === "together" ? ", everyone starts together" : "", "; "),
      s.active ? `next opens ${when(s.next_opens_at)}` : "stopped",
      ` · tournaments: ${s.tournaments.join(", ") || "none yet"} `,
      s.club ? `· ${s.club.name} only ` : "", s.entry_code ? `· code ${s.entry_code} ` : "",
      s.active ? el("button", { class: "btn small danger", type: "button", "data-action": "stop-schedule",
        onclick: async () => {
          if (await act(api.admin("DELETE", `/api/schedules/${s.id}`), `Schedule ${s.id} stopped`)) refresh();
        } }, "Stop") : null)));
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const minutes = EVERY[every.value];
    const [hh, mm] = at.value.split(":").map(Number);
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(),
      minutes < 1440 ? now.getUTCHours() : hh, mm));
    while (first < now) first.setTime(first.getTime() + minutes * 60000);
    const out = await act(api.admin("POST", "/api/schedules", { ...chosen(), name: name.value, every_minutes: minutes,
      first_opens_at: first.toISOString(), open_minutes: Number(open.value), ahead_minutes: Number(ahead.value),
      ...access.values(), ...series.values() }),
    "Schedule created");
    if (out) refresh();
  });
  return { node: el("section", { class: "manage-schedules" }, el("h2", {}, "Recurring tournaments"), form, list), refresh };
}

/** The management sections, appended under the creation form: {node, refresh} (refresh: the club lists). */
export function manage(chosen) {
  const body = el("tbody", {});
  const detail = el("div", { class: "manage-detail" });
  const access = accessFields("s");
  const schedules = schedulesPanel(access, chosen);
  async function refresh() {
    const tours = await act(api.admin("GET", "/api/tournaments?limit=200"));
    if (tours) body.replaceChildren(...tours.map((t) => tournamentRow(t, refresh, detail)));
  }
  const load = el("button", { class: "btn", type: "button", "data-action": "manage" }, "Show tournaments and schedules");
  load.addEventListener("click", () => { refresh(); schedules.refresh(); });
  const node = el("section", { class: "manage" },
    el("h2", {}, "Run tournaments"), load,
    el("div", { class: "table-wrap" }, el("table", { class: "standings manage-tournaments" },
      el("thead", {}, el("tr", {}, ...["#", "Name", "Status", "Opens", "Closes", "Entries", ""].map((h) => el("th", {}, h)))),
      body)),
    detail, schedules.node);
  return { node, refresh: access.refresh };
}
