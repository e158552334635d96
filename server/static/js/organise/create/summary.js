// A tournament in plain words before it is made and once it is: when it starts (and when its entries
// close), how long a game lasts, who may join, how it is scored, rated or not.

import { relative } from "../../lib/time.js";
import { VARIANT_NAMES } from "../../lib/ui.js";

const TIME = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const DAY = new Intl.DateTimeFormat(undefined, { weekday: "short" });
const DATE = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short" });

/** "14:00" today, "Thu 14:00" within the week, "Thu 26 Nov 14:00" further. */
export function dayTime(iso) {
  const d = new Date(iso);
  const now = new Date();
  const time = TIME.format(d);
  if (d.toDateString() === now.toDateString()) return time;
  if (Math.abs(d - now) < 6 * 86400e3) return `${DAY.format(d)} ${time}`;
  return `${DATE.format(d)} ${time}`;
}

const isToday = (iso) => new Date(iso).toDateString() === new Date().toDateString();
const past = (iso) => new Date(iso).getTime() <= Date.now() + 30e3;

/** "10 minutes", "90 seconds", "1 h 30 min": a game's time limit. */
export function limitWords(seconds) {
  if (seconds % 60) return seconds < 60 ? `${seconds} seconds` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const m = seconds / 60;
  if (m < 60 || m % 60) return m === 1 ? "1 minute" : `${m} minutes`;
  return m === 60 ? "1 hour" : `${m / 60} hours`;
}

/** When it starts, before it is made: "Everyone starts together on Thu 14:00 (in 1 h 10 min)". */
export function startWords(start, opensAt, closesAt) {
  if (start === "together") {
    return `Everyone starts together ${isToday(opensAt) ? "at" : "on"} ${dayTime(opensAt)} (${relative(opensAt)})`;
  }
  const until = closesAt ? ` until ${dayTime(closesAt)}` : "";
  if (past(opensAt)) return `Open now${until}; each starts when ready`;
  return `Opens ${isToday(opensAt) ? "at" : "on"} ${dayTime(opensAt)} (${relative(opensAt)})${until}; each starts when ready`;
}

/** Once made: "Starts at 14:00, in 1 h 10 min; entries close then." */
export function startedWords(t) {
  const at = (iso) => `${isToday(iso) ? "at" : "on"} ${dayTime(iso)}`;
  if (t.start === "together") return `Starts ${at(t.opens_at)}, ${relative(t.opens_at)}; entries close then.`;
  const closes = `entries close ${at(t.closes_at)}, ${relative(t.closes_at)}`;
  if (past(t.opens_at)) return `Open now: each player starts when ready; ${closes}.`;
  return `Opens ${at(t.opens_at)}, ${relative(t.opens_at)}; each player starts when ready; ${closes}.`;
}

/** "scored by final score", "3 deals, scored by the total of the final scores", "scored by matchpoints". */
export function scoringWords(s) {
  const deals = s.deals ?? 1;
  const how = s.scoring === "matchpoints" ? "scored by matchpoints"
    : deals > 1 ? "scored by the total of the final scores" : "scored by final score";
  return deals > 1 ? `${deals} deals, ${how}` : how;
}

/** The whole summary, one line of parts joined by semicolons. */
export function summaryWords(body, who) {
  const s = body.settings;
  return [startWords(body.start, body.opens_at, body.closes_at),
    limitWords(s.time_limit) + ((s.deals ?? 1) > 1 ? " a deal" : ""),
    who,
    `${VARIANT_NAMES[s.variant] || s.variant}, ${s.suits} suit${s.suits === 1 ? "" : "s"}`,
    scoringWords(s),
    body.rated === false ? "unrated" : "rated",
    body.certified ? "a certified winnable deal" : null,
    body.teams ? `team battle, best ${body.teams.top} of each club` : null,
  ].filter(Boolean).join("; ");
}
