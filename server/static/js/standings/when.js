// When a board closes (or opens), said as a countdown says it with the local time beside it:
// "closes in 42 min, 21:30", "opens in 3 h 20 min, 18:00", "closes in 6 days, Thu 18:00". The words
// are kept current while they are on screen.

import { el } from "../lib/ui.js";
import { until, when } from "../lib/time.js";

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
let ticking = false;

/** "closes in 42 min, 21:30" for `label` "closes" and a time 42 minutes off; "closes now" once it is due. */
export function inWords(label, iso, now = Date.now()) {
  const at = new Date(iso);
  const seconds = (at.getTime() - now) / 1000;
  if (Number.isNaN(seconds)) return "";
  if (seconds < 30) return `${label} now`;
  if (seconds >= 86400) return `${label} in ${until(seconds, at)}`;  // "6 days, Thu 18:00"
  const minutes = Math.max(1, Math.round(seconds / 60));
  const span = minutes >= 60 ? until(minutes * 60) : `${minutes} min`;
  return `${label} in ${span}, ${CLOCK.format(at)}`;
}

function draw(node) {
  node.textContent = inWords(node.dataset.label, node.dataset.until);
}

/** The words as a span (its full date in its title), redrawn every 15 seconds while shown. */
export function untilSpan(label, iso, attrs = {}) {
  const node = el("span", { class: "until", title: when(iso), ...attrs });
  node.dataset.label = label;
  node.dataset.until = iso;
  draw(node);
  if (!ticking) {
    ticking = true;
    setInterval(() => document.querySelectorAll("span.until[data-until]").forEach(draw), 15000);
  }
  return node;
}

/** What a board says of its times, after " · ": when a running one closes to entries (a sitting started
 * together: when it ends), when an upcoming one opens (a sitting's countdown says it already), that a
 * closed one's last games are finishing; nothing once it is over. `t`: the tournament. */
export function whenLine(t) {
  let said = null;
  if (t.status === "scheduled" && t.start !== "together") said = untilSpan("opens", t.opens_at, { "data-field": "opens" });
  else if (t.status === "scheduled" || t.status === "open") {
    said = untilSpan(t.start === "together" ? "ends" : "closes", t.closes_at, { "data-field": "closes" });
  } else if (t.status === "closing") said = el("span", { "data-field": "closes" }, "entries closed, last games finishing");
  return said ? [" \u00b7 ", said] : [];
}
