// What the organiser manages (GET /api/me/organised), as lists a page at a time: each thing one tap
// from its own page, a "More" button while the server has more, never the whole server's.

import { api } from "../lib/api.js";
import { el, statusName } from "../lib/ui.js";
import { timeSpan } from "../lib/time.js";
import { bracketStatus } from "../brackets/common.js";
import { act } from "./common.js";
import { count } from "./frame.js";

/** One page of one kind (and phase): {items, counts}, or null when refused (the reason said). */
export function organisedPage(kind, phase, offset, limit) {
  const query = new URLSearchParams({ offset, limit, ...(kind ? { kind } : {}), ...(phase ? { phase } : {}) });
  return act(api.admin("GET", `/api/me/organised?${query}`));
}

/** How many of `kind` in `phase` (every phase when null) the counts say. */
export const counted = (counts, kind, phase = null) => {
  const of = counts[kind] || {};
  return phase ? of[phase] || 0 : Object.values(of).reduce((a, b) => a + b, 0);
};

const HREF = {
  tournament: (i) => `#/organise/tournament/${i.id}`,
  bracket: (i) => `#/bracket/${i.id}`,
  club: (i) => `#/club/${i.id}`,
  series: (i) => `#/series/${i.id}`,
  schedule: (i) => `#/organise/recurring/${i.id}`,
};

/** When, in words: a coming event's opening, a running one's closing, a finished one's end. */
function timing(i) {
  if (i.kind === "bracket") return timeSpan(i.opens_at, i.phase === "coming" ? "opens" : "opened");
  if (i.phase === "coming") return timeSpan(i.opens_at, "opens");
  if (i.status === "cancelled") return "cancelled";
  if (i.phase === "running") {
    return i.status === "closing" ? "entries closed, games finishing" : timeSpan(i.closes_at, "closes");
  }
  return timeSpan(i.closes_at, "ended");
}

const PHASE_WORDS = { running: "under way", coming: "not started", finished: "over" };

/** The facts of one item, by kind. */
function facts(i) {
  if (i.kind === "tournament" || i.kind === "bracket") return [timing(i), " \u00b7 ", count(i.entries ?? 0, "entry", "entries")];
  if (i.kind === "club") return `${count(i.members ?? 0, "member")} \u00b7 ${count(i.tournaments ?? 0, "tournament")}`;
  if (i.kind === "schedule") {
    return `${i.status === "active" ? "running" : "stopped"} \u00b7 ${count(i.tournaments ?? 0, "tournament")} so far`;
  }
  return `${PHASE_WORDS[i.phase] || ""} \u00b7 ${count(i.tournaments ?? 0, "tournament")}`;
}

function badge(i) {
  if (i.kind === "tournament") return el("span", { class: `badge st-${i.status}`, "data-field": "status" }, statusName(i.status));
  if (i.kind === "bracket") return el("span", { class: `badge st-${i.status}`, "data-field": "status" }, bracketStatus(i.status));
  return null;
}

/** One item as a link to its page. */
export function organisedItem(i) {
  return el("li", { class: "organised-item", "data-item": `${i.kind}-${i.id}` },
    el("a", { href: HREF[i.kind](i), "data-action": `open-${i.kind}` },
      el("span", { class: "item-head" }, el("b", { "data-field": "name" }, i.name),
        i.kind === "bracket" ? el("span", { class: "kind" }, "knockout") : null, badge(i)),
      el("span", { class: "item-facts muted" }, facts(i))));
}

/**
 * A list of what the organiser manages of `kinds` (merged newest first) in `phase` (all when null),
 * `page` at a time: {node, load}. `totals` (kind -> how many) say when there is more.
 */
export function pagedList(kinds, phase, totals, page, empty) {
  const offsets = Object.fromEntries(kinds.map((k) => [k, 0]));
  const list = el("ul", { class: "organised-list", "data-list": phase || kinds.join("-") });
  const more = el("button", { class: "btn small more", type: "button", "data-action": "more", hidden: true }, "More");
  const left = () => kinds.filter((k) => offsets[k] < (totals[k] || 0));
  async function load() {
    more.disabled = true;
    const pages = await Promise.all(left().map(async (k) => {
      const got = await organisedPage(k, phase, offsets[k], page);
      if (!got) return [];
      offsets[k] += got.items.length;
      if (got.items.length < page) offsets[k] = totals[k] || 0;  // nothing more, whatever the count said
      return got.items;
    }));
    const items = pages.flat().sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
    list.append(...items.map(organisedItem));
    if (!list.children.length) list.append(el("li", { class: "muted empty" }, empty));
    more.disabled = false;
    more.hidden = !left().length;
  }
  more.addEventListener("click", load);
  return { node: el("div", { class: "organised-block" }, list, more), load };
}
