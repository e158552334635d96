// What a lobby card says beside the rules: when the tournament opens or closes, relatively and
// with its zone ("closes in 5 min (Thu 26 Nov, 14:05 UTC)"), who won a finished one, and its
// commitment shortened, the whole value one click away.

import { el, number } from "../lib/ui.js";
import { timeSpan } from "../lib/time.js";


/** The card's time, by status: "opens in ...", "closes in ...", "closed ... ago", "finished ... ago". */
export function cardTime(t) {
  const [label, iso] = t.status === "scheduled" ? ["opens", t.opens_at]
    : t.status === "open" ? ["closes", t.closes_at]
    : t.status === "closing" ? ["closed", t.closes_at]
    : t.status === "finished" ? ["finished", t.finished_at]
    : t.status === "cancelled" ? ["cancelled", t.cancelled_at] : ["", null];
  if (!iso) return null;
  return el("p", { class: "card-time", "data-field": "when" }, timeSpan(iso, label));
}

/** A finished card's winner and winning score ("Won by ann with 1,691"); null before the finish. */
export function winnerLine(t) {
  if (t.status !== "finished") return null;
  if (!t.winner) return el("p", { class: "winner muted", "data-field": "winner" }, "Nobody was ranked.");
  return el("p", { class: "winner", "data-field": "winner" }, el("span", { class: "medal", "data-medal": 1 }), "Won by ",
    el("b", { "data-field": "winner-name" }, t.winner.player), " with ",
    el("b", { "data-field": "winner-score" }, number(t.winner.score)));
}

/** The commitment, its first and last digits shown; the whole of it (and what it is) on a click.
 * `opened`: the tournaments whose commitment is shown whole, kept across the lobby's refreshes. */
export function commitmentLine(t, opened = new Set()) {
  const c = t.commitment || "";
  const short = c.length > 16 ? `${c.slice(0, 8)}\u2026${c.slice(-6)}` : c;
  return el("details", { class: "commitment", open: opened.has(t.id),
    ontoggle: (e) => { if (e.target.open) opened.add(t.id); else opened.delete(t.id); } },
    el("summary", { title: "The whole commitment" }, el("span", { class: "muted" }, "commitment "),
      el("code", { "data-field": "commitment-short" }, short)),
    el("code", { class: "full", "data-field": "commitment" }, c),
    el("span", { class: "muted small" }, " SHA-256 of the deal's seed and settings, published before anyone plays; ",
      "checked on the results page once the seed is revealed."));
}
