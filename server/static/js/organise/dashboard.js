// The organiser's dashboard: what it runs now, what is coming and what is over (tournaments and
// brackets), its clubs, series and recurring tournaments, each with how many; the buttons that make
// a new one. Only the caller's own things, a page at a time.

import { adminToken, api } from "../lib/api.js";
import { el } from "../lib/ui.js";
import { counted, organisedPage, pagedList } from "./organised.js";

const EVENTS = ["tournament", "bracket"];
const PHASES = [["running", "Running now", "Nothing is running now.", 10],
  ["coming", "Coming", "Nothing is coming up.", 10],
  ["finished", "Finished", "Nothing has finished yet.", 5]];
const OTHERS = [["club", "Clubs", "No club yet.", "#/organise/clubs", "All clubs"],
  ["series", "Series", "No series yet.", "#/organise/series", "All series"],
  ["schedule", "Recurring", "No recurring tournament yet.", "#/organise/recurring", "All recurring"]];

/** The row of buttons that make something new. */
function newButtons() {
  const link = (href, action, label, cls = "") => el("a", { class: `btn ${cls}`.trim(), href, "data-action": action }, label);
  return el("nav", { class: "new-buttons", "aria-label": "Make something new" },
    link("#/organise/new", "new-tournament", "New tournament", "primary"),
    link("#/organise/clubs", "new-club", "New club"),
    link("#/organise/series", "new-series", "New series"),
    link("#/organise/brackets", "new-bracket", "New bracket"),
    link("#/organise/recurring", "new-recurring", "New recurring"));
}

const heading = (title, n, more) => el("div", { class: "block-head" },
  el("h2", {}, title, " ", el("span", { class: "count", "data-field": "count" }, String(n))), more);

/** The dashboard's node, filled once the server answers; the owner (admin token) gets its organisers too. */
export function dashboard() {
  const body = el("div", { class: "dashboard-body" }, el("p", { class: "muted" }, "Loading what you organise\u2026"));
  const node = el("div", { class: "dashboard", "data-field": "dashboard" }, newButtons(), body);
  (async () => {
    const first = await organisedPage(null, null, 0, 1);
    if (!first) return body.replaceChildren(el("p", { class: "error", "data-field": "organised-error" },
      "The server did not list what you organise: see the message above."));
    const { counts } = first;
    const events = PHASES.map(([phase, title, empty, page]) => {
      const totals = Object.fromEntries(EVENTS.map((k) => [k, counted(counts, k, phase)]));
      const list = pagedList(EVENTS, phase, totals, page, empty);
      list.load();
      const n = totals.tournament + totals.bracket;
      return el("section", { class: `organised-section phase-${phase}`, "data-section": phase }, heading(title, n), list.node);
    });
    const others = OTHERS.map(([kind, title, empty, href, all]) => {
      const list = pagedList([kind], null, { [kind]: counted(counts, kind) }, 5, empty);
      list.load();
      return el("section", { class: "organised-section", "data-section": kind },
        heading(title, counted(counts, kind), el("a", { class: "btn small ghost", href, "data-action": `all-${kind}` }, all)),
        list.node);
    });
    body.replaceChildren(el("div", { class: "events" }, ...events), el("div", { class: "others" }, ...others));
  })();
  // The owner's part: organisers (the list answers the admin token only, pasted in this tab).
  if (adminToken()) api.admin("GET", "/api/organisers").then(() => {
    node.querySelector(".new-buttons").append(el("a", { class: "btn", href: "#/organise/organisers",
      "data-action": "organisers" }, "Organisers"));
  }).catch(() => {});
  return node;
}
