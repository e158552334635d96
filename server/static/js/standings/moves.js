// What just changed on a live board, held a few seconds: a row whose score or place changed is
// marked ("marked": a clear wash and a bar, which stays under prefers-reduced-motion instead of the
// flash), and one that moved carries an arrow with how many places ("▲2", "▼1") until it fades.

import { el } from "../lib/ui.js";

export const HOLD = 5000;  // how long a change stays marked, in milliseconds

export function moveMarks() {
  const marks = new Map();  // entry id -> {by: places moved up (negative: down), until: ms}

  /** Note the rows `changed` (entry ids) of a new update, `before` their places (id -> rank). */
  function note(changed, rows, before, now = Date.now()) {
    const rank = new Map(rows.map((r) => [r.entry_id, r.rank]));
    for (const id of changed) {
      const was = before.get(id);
      const is = rank.get(id);
      const by = was && is ? was - is : 0;
      marks.set(id, { by: by || marks.get(id)?.by || 0, until: now + HOLD });
    }
  }

  const live = (id) => {
    const m = marks.get(id);
    if (m && m.until <= Date.now()) marks.delete(id);
    return marks.get(id) || null;
  };

  /** The arrow of a row that moved (null: none), for its rank cell. */
  function arrow(id) {
    const m = live(id);
    if (!m || !m.by) return null;
    const up = m.by > 0;
    const n = Math.abs(m.by);
    const words = `${up ? "up" : "down"} ${n} place${n === 1 ? "" : "s"}`;
    return el("span", { class: `moved ${up ? "up" : "down"}`, "data-field": "moved", "data-until": m.until,
      title: words, "aria-label": words }, `${up ? "\u25b2" : "\u25bc"}${n}`);
  }

  /** Whether the row is still marked as changed. */
  const marked = (id) => !!live(id);

  /** Take off what has been shown long enough (called every second). */
  function sweep(root) {
    const now = Date.now();
    for (const node of root.querySelectorAll("[data-field=moved][data-until]")) {
      if (Number(node.dataset.until) <= now) node.remove();
    }
    for (const row of root.querySelectorAll("tr.marked[data-entry]")) {
      if (!marked(Number(row.dataset.entry))) row.classList.remove("marked");
    }
  }

  return { note, arrow, marked, sweep };
}
