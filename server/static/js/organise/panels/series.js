// Series: create a season or a league (points by the field or a list of
// points by place, the best N results, a club's only), list the caller's series with links to
// their pages, and a "Series" select for the tournament and schedule forms.

import { api, organiserToken } from "../../lib/api.js";
import { el, explain, notify } from "../../lib/ui.js";

let known = [];
const CHANGED = "spidertour:series-changed";

/** The caller's series as last listed. */
export const knownSeries = () => known;

/** The caller's series as the server lists them (GET /api/series?mine=true); every select follows. */
export async function loadSeries() {
  if (!organiserToken()) return;
  try {
    known = await api.admin("GET", "/api/series?mine=true");
  } catch {
    return; // a wrong token or offline: the series known here stay
  }
  window.dispatchEvent(new CustomEvent(CHANGED));
}

/** A "Series" select for a tournament's or a schedule's form: {node, values}. */
export function seriesField(prefix) {
  const select = el("select", { id: `${prefix}-series`, "data-field": "series" });
  const draw = () => {
    const was = select.value;
    select.replaceChildren(el("option", { value: "" }, "None"),
      ...known.map((s) => el("option", { value: s.id, selected: String(s.id) === was },
        `${s.name}${s.club ? ` (${s.club.name} only)` : ""}`)));
  };
  draw();
  const follow = () => (select.isConnected ? draw() : window.removeEventListener(CHANGED, follow));
  window.addEventListener(CHANGED, follow);
  const node = el("label", { class: "field" }, el("span", {}, "Series"), select,
    el("small", { class: "muted" }, "Its final standings add up in the series' table."));
  return { node, values: () => (select.value ? { series: Number(select.value) } : {}) };
}

function parsePoints(text) {
  const raw = text.trim();
  if (!raw || raw === "field") return "field";
  return raw.split(/[\s,]+/).filter(Boolean).map(Number);
}

/** The series panel: {node, load}. */
export function seriesPanel() {
  const name = el("input", { id: "r-name", "data-field": "series-name", maxlength: 100, required: true, placeholder: "Spring league" });
  const points = el("input", { id: "r-points", "data-field": "series-points", placeholder: "field, or 10,8,6,5,4,3,2,1",
    value: "field" });
  const best = el("input", { id: "r-best", "data-field": "series-best-of", type: "number", min: 1, placeholder: "all" });
  const club = el("select", { id: "r-club", "data-field": "series-club" });
  const list = el("ul", { class: "club-list", "data-field": "series-list" });
  const error = el("p", { class: "error", "data-field": "series-error", role: "alert", hidden: true });
  const field = (label, input, hint) => el("label", { class: "field" }, el("span", {}, label), input,
    hint ? el("small", { class: "muted" }, hint) : null);

  const draw = () => {
    list.replaceChildren(...(known.length ? known.map((s) => el("li", { "data-series": s.id },
      el("span", {}, el("b", {}, s.name), el("span", { class: "muted" }, ` #${s.id} · ${s.tournaments.length} tournament${s.tournaments.length === 1 ? "" : "s"}`)),
      el("a", { class: "btn small", href: `#/series/${s.id}`, "data-action": "open-series" }, "Standings")))
      : [el("li", { class: "muted" }, "No series yet.")]));
  };
  const follow = () => (list.isConnected ? draw() : window.removeEventListener(CHANGED, follow));
  window.addEventListener(CHANGED, follow);

  async function clubs() {
    const mine = await api.adminPages("/api/clubs").catch(() => []);
    club.replaceChildren(el("option", { value: "" }, "Any tournament of mine"),
      ...mine.map((c) => el("option", { value: c.id }, `${c.name}'s tournaments only`)));
  }

  const form = el("form", { class: "panel series-form" },
    el("div", { class: "grid2" },
      field("New series", name),
      field("Points", points, "field: the last ranked entrant 1 point, the winner one per ranked entrant; or points by place."),
      field("Best of", best, "Count each player's best N results; empty: all."),
      field("Club", club)),
    el("button", { class: "btn primary", type: "submit", "data-action": "create-series" }, "Create the series"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    const body = { name: name.value.trim(), points: parsePoints(points.value),
      best_of: best.value === "" ? null : Number(best.value) };
    if (club.value) body.club = Number(club.value);
    try {
      const made = await api.admin("POST", "/api/series", body);
      notify(`Series ${made.name} created`, "ok");
      name.value = "";
      known = [made, ...known.filter((s) => s.id !== made.id)];
      window.dispatchEvent(new CustomEvent(CHANGED));
    } catch (err) {
      error.textContent = explain(err);
      error.hidden = false;
    }
  });
  draw();
  const load = () => {
    clubs();
    loadSeries();
  };
  load();
  const node = el("section", { class: "manage-series" }, el("h2", {}, "Series"),
    el("p", { class: "muted" }, "A season or a league: its tournaments' final standings add up into one table."),
    form, error, list);
  return { node, load };
}
