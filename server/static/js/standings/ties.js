// Equal scores and how their order was decided: the tie-break of docs/rules.md said in words under
// a standings table, and the rows whose order came from it marked ("=" beside the score).

import { el } from "../lib/ui.js";

const BY_TIME = "Equal scores are ordered by the tie-break: more time left at the end first " +
  "(a game still running counts as none), then the earlier entry.";
const BY_POINTS = "Equal matchpoints are ordered by the tie-break: the higher total first, then the earlier entry.";

/** The ids of the rows (in standings order) whose score equals a neighbour's: their order is the tie-break's.
 * `key` gives what ranks a row (its score, or its matchpoints). */
export function tiedIds(rows, key = (r) => r.score) {
  const tied = new Set();
  for (let i = 1; i < rows.length; i += 1) {
    const a = key(rows[i - 1]);
    const b = key(rows[i]);
    if (a !== null && a !== undefined && a === b && rows[i].rank === rows[i - 1].rank + 1) {
      tied.add(rows[i - 1].entry_id);
      tied.add(rows[i].entry_id);
    }
  }
  return tied;
}

/** The mark beside a tied row's score. */
export function tieMark(byPoints = false) {
  return el("span", { class: "tie-mark", "data-field": "tie", title: byPoints ? BY_POINTS : BY_TIME,
    "aria-label": "equal score, placed by the tie-break" }, "=");
}

/** The rule under the table, the mark explained. */
export function tieNote(byPoints = false) {
  return el("p", { class: "tie-note muted small", "data-field": "tie-note" },
    el("span", { class: "tie-mark" }, "="), " ", byPoints ? BY_POINTS : BY_TIME);
}
