// The organiser's page, a tournament's fair-play report (GET /api/tournaments/<id>/integrity),
// said in words: shared addresses, undo peeks and scouting entries, each with its evidence. Flags
// to look into, never verdicts: the organiser decides, and may disqualify from the entries.

import { api } from "../../lib/api.js";
import { clock, el, statusName } from "../../lib/ui.js";
import { timeSpan } from "../../lib/time.js";
import { act } from "../common.js";

const KINDS = { shared_address: "One address, several players", undo_peek: "Undo peeks", scout: "Scouting" };
const SEEN = { registration: "registered", join: "joined", play: "played" };

const at = (t) => clock(Math.round(t));

function entryLine(e) {
  return el("li", { "data-entry": e.entry_id }, el("b", {}, e.player), ` (entry ${e.entry_id}): `,
    `${statusName(e.status)}, score ${e.score}`);
}

function evidence(flag) {
  if (flag.type === "shared_address") {
    return [el("p", {}, `They ${SEEN[flag.seen_at] || flag.seen_at} from the same address (${flag.address}).`),
      el("ul", { class: "plain" }, flag.entries.map(entryLine))];
  }
  if (flag.type === "undo_peek") {
    return [el("ul", { class: "plain" }, entryLine(flag.entry)),
      el("ul", { class: "evidence" }, flag.peeks.map((p) => el("li", {},
        `Move ${p.move} at ${at(p.t)} turned a card in column ${p.column + 1}; move ${p.undo_move} at ` +
        `${at(p.undo_t)} undid it ${Math.round(p.seconds * 10) / 10} s later.`)))];
  }
  const then = flag.then === "ended"
    ? `then ended the game${flag.then_move ? ` (move ${flag.then_move})` : ""} at ${at(flag.then_t)}`
    : `then did nothing for ${clock(Math.round(flag.idle_seconds || 0))} from ${at(flag.then_t)}`;
  return [el("ul", { class: "plain" }, entryLine(flag.entry)),
    el("p", {}, `Dealt ${flag.deals.length} time${flag.deals.length === 1 ? "" : "s"} early (`,
      flag.deals.map((d) => `move ${d.move} at ${at(d.t)}${d.pile === null ? "" : `, pile ${d.pile + 1}`}`).join("; "),
      `), ${then}.`)];
}

/** The report, readable: {node} filled once the server answers. */
export function integrityReport(tour) {
  const node = el("section", { class: "integrity", "data-integrity-of": tour.id },
    el("p", { class: "muted" }, "Working the report out: every game is replayed…"));
  act(api.admin("GET", `/api/tournaments/${tour.id}/integrity`)).then((r) => {
    if (!r) return node.replaceChildren(el("p", { class: "error" }, "No report: see the message above."));
    const t = r.thresholds;
    node.replaceChildren(
      el("p", { "data-field": "integrity-summary" }, `${r.entries} entr${r.entries === 1 ? "y" : "ies"}, `,
        r.flags.length ? `${r.flags.length} thing${r.flags.length === 1 ? "" : "s"} to look into` : "nothing to look into",
        `; ${statusName(r.status)}, report made `, timeSpan(r.generated_at), "."),
      r.flags.length ? el("ul", { class: "card-list flags" }, r.flags.map((f) => el("li", {
        class: "card-item flag", "data-flag": f.type },
      el("div", { class: "card-head" }, el("b", {}, KINDS[f.type] || f.type)),
      el("p", { "data-field": "flag-summary" }, f.summary), ...evidence(f))))
        : el("p", { class: "ok-note" }, "No shared addresses, no undo peeks, no scouting."),
      el("p", { class: "muted small" }, `A peek: a card turned up and undone within ${t.peek_seconds} s. Scouting: `,
        `${t.scout_deals} deals within ${t.scout_seconds} s of the start, then an end or ${t.idle_seconds} s idle. `,
        "These are flags to look into, never verdicts: disqualify from the entries if you decide to."));
  });
  return node;
}
