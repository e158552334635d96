// The link to one game's replay and its analysis ("where the win was lost") on a finished
// tournament's page: #/finished/TID/ENTRY opens that entry's replay, in view, its analysis under
// its moves. The result panel, My page and the lobby's finished cards link to it.

import { el } from "../lib/ui.js";

/** The address of entry `eid`'s replay and analysis in tournament `tid`. */
export const replayHref = (tid, eid) => `#/finished/${tid}/${eid}`;

/** A tournament of several deals has replays but no analysis (it covers one deal). */
const analysed = (deals) => (deals ?? 1) <= 1;

/** The words of a link to one's own game's replay: with its analysis, when there is one. */
export const replayLabel = (deals) => (analysed(deals) ? "My replay & analysis" : "My replays");

/** A link (a small button) to one's own game's replay and analysis. */
export function replayLink(tid, eid, deals, cls = "btn small") {
  return el("a", { class: cls, href: replayHref(tid, eid), "data-action": "my-replay" }, replayLabel(deals));
}

/**
 * The result panel's line for a game of one deal in a tournament: the analysis is one click away once
 * the tournament is finished; before, the panel says when it opens (and links where it will be).
 * `finished`: a promise of whether the tournament is finished (false when not known).
 */
export function resultAnalysisLine(tid, eid, finished) {
  const line = el("p", { class: "muted small", "data-field": "analysis-link", "data-open": "false" },
    "The analysis (where the win was lost) opens when the tournament finishes: ",
    el("a", { href: replayHref(tid, eid) }, "your replay"), ".");
  finished.then((done) => {
    if (!done) return;
    line.dataset.open = "true";
    line.classList.remove("muted");
    line.replaceChildren(el("a", { class: "btn", href: replayHref(tid, eid), "data-action": "analysis" },
      "Where the win was lost"), " ", el("span", { class: "muted" }, "your replay with its analysis"));
  });
  return line;
}

/** The finished page's note when a linked entry has no replay there. */
export function noReplay(eid) {
  return el("p", { class: "panel", "data-field": "no-replay", role: "status" },
    `No replay of entry ${eid} here: it never played, or it is not in this tournament. `,
    "Every game played is in the standings below (its Replay button).");
}

/** The finished page's note, before the finish, for a link to one entry's replay. */
export function notYet() {
  return el("p", { class: "panel", "data-field": "replay-not-yet" },
    "This game's replay and the analysis (where the win was lost) open here when the tournament finishes.");
}
