// Recurring tournaments: the form chooses the game, start, certification and rating settings each
// tournament will take (said in words as they are chosen), at a time of this browser's zone; the
// list shows each schedule's settings, its next opening and its tournaments, and stops it.

import { api } from "../../lib/api.js";
import { clock, describeSettings, el, number } from "../../lib/ui.js";
import { shownLimit } from "../../competitions/rating_words.js";
import { every as everyWords, minutes, timeSpan } from "../../lib/time.js";
import { accessWords, act, field, timeField } from "../common.js";
import { gameChoices } from "../create/choices.js";
import { accessFields } from "./clubs.js";
import { loadSeries, seriesField } from "./series.js";

const EVERY = { hour: 60, day: 1440, week: 10080 };

/** What a tournament made with these choices will be, in words. */
export function settingsWords(c) {
  const limits = [c.rating_min ?? null, c.rating_max ?? null].map((x) => (x === null ? null : number(shownLimit(x))));
  return [`${describeSettings(c.settings)}, ${clock(c.settings.time_limit)}`,
    c.start === "together" ? "everyone starts together" : "each starts when ready",
    c.certified ? "certified winnable deal" : null,
    c.rated === false ? "unrated" : "rated",
    limits.some((x) => x !== null) ? `ratings ${limits[0] ?? "any"} to ${limits[1] ?? "any"}` : null,
    c.teams ? `team battle, best ${c.teams.top} of each club` : null].filter(Boolean).join("; ");
}

function scheduleCard(s, refresh) {
  const stop = s.active ? el("button", { class: "btn danger", type: "button", "data-action": "stop-schedule",
    onclick: async () => {
      if (await act(api.admin("DELETE", `/api/schedules/${s.id}`), `Schedule ${s.id} stopped`)) refresh();
    } }, "Stop") : null;
  const links = s.tournaments.length
    ? s.tournaments.map((id) => el("a", { href: `#/organise/tournament/${id}`, class: "tour-link" }, `#${id}`))
    : ["none yet"];
  return el("li", { class: "card-item schedule-card", "data-schedule": s.id },
    el("div", { class: "card-head" }, el("b", {}, s.name), el("span", { class: "muted" }, ` #${s.id}`),
      el("span", { class: "badge", "data-field": "schedule-state" }, s.active ? "running" : "stopped")),
    el("p", {}, `${everyWords(s.every_minutes)}, open ${minutes(s.open_minutes)}, created ${minutes(s.ahead_minutes)} ahead; `,
      s.active && s.next_opens_at ? timeSpan(s.next_opens_at, "next opens", { "data-field": "next" }) : "stopped"),
    el("p", { class: "muted small", "data-field": "schedule-game" }, settingsWords(s)),
    accessWords(s) ? el("p", { class: "muted small", "data-field": "schedule-access" }, accessWords(s)) : null,
    el("p", { class: "tour-links" }, "Tournaments: ", ...links.flatMap((l, i) => (i ? [" ", l] : [l]))),
    stop ? el("div", { class: "card-actions" }, stop) : null);
}

/** The first opening at local hh:mm (the hour's minute for hourly ones) not in the past. */
function firstOpening(every, hhmm) {
  const [hh, mm] = hhmm.split(":").map(Number);
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate(), every < 1440 ? now.getHours() : hh, mm);
  while (first < now) first.setTime(first.getTime() + every * 60000);
  return first;
}

/** {node, refresh}: refresh() lists the schedules again (a promise). */
export function schedulesPanel() {
  const access = accessFields("s");
  const choices = gameChoices("s");
  const chosen = choices.chosen;
  loadSeries();
  const list = el("ul", { class: "card-list schedules" });
  const name = el("input", { name: "schedule-name", id: "s-name", maxlength: 80, required: true, placeholder: "Evening cup" });
  const every = el("select", { id: "s-every" }, Object.keys(EVERY).map((k) => el("option", { value: k, selected: k === "day" }, `every ${k}`)));
  const at = el("input", { id: "s-at", type: "time", value: "20:00" });
  const open = el("input", { id: "s-open", type: "number", min: 1, value: 60 });
  const ahead = el("input", { id: "s-ahead", type: "number", min: 0, value: 60 });
  const uses = el("p", { class: "uses", "data-field": "schedule-uses" });
  const series = seriesField("s");
  const form = el("form", { class: "panel schedule-form" },
    el("div", { class: "grid2" }, field("Name", name), field("Repeat", every),
      timeField("At", at, "Hourly: at this minute of every hour."),
      field("Open for (minutes)", open), field("Created ahead (minutes)", ahead)),
    ...choices.basic,
    el("details", { class: "more-options", "data-field": "more-options" },
      el("summary", { "data-action": "more-options" }, "More options: undo, deals, scoring, fair play, teams, ratings"),
      ...choices.more),
    access.node, series.node,
    el("div", { class: "uses-box" }, el("b", {}, "Each tournament it creates: "), uses),
    el("button", { class: "btn primary", type: "submit", "data-action": "schedule" }, "Create the schedule"));
  const chosenChanged = () => { uses.textContent = settingsWords(chosen()); };
  form.addEventListener("change", chosenChanged);
  form.addEventListener("input", chosenChanged);
  chosenChanged();

  async function refresh() {
    const schedules = await act(api.admin("GET", "/api/schedules"));
    if (!schedules) return;
    list.replaceChildren(...(schedules.length ? schedules.map((s) => scheduleCard(s, refresh))
      : [el("li", { class: "muted" }, "No schedule yet.")]));
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const each = EVERY[every.value];
    const out = await act(api.admin("POST", "/api/schedules", { ...chosen(), name: name.value, every_minutes: each,
      first_opens_at: firstOpening(each, at.value).toISOString(), open_minutes: Number(open.value),
      ahead_minutes: Number(ahead.value), ...access.values(), ...series.values() }),
    "Schedule created");
    if (out) refresh();
  });
  return { node: el("section", { class: "manage-schedules" }, el("h2", {}, "Recurring tournaments"), form, list),
    refresh };
}
