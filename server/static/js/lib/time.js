// Times, said one way on every page: the local time with its zone ("Thu 26 Nov, 14:05 GMT+1") and,
// near enough, how far off it is ("in 5 min", "2 h ago"), kept current while it is on screen.

const PARTS = new Intl.DateTimeFormat(undefined, {
  weekday: "short", day: "numeric", month: "short", year: "numeric",
  hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short",
});

/** "Thu 26 Nov, 14:05 GMT+1" (the year added when it is not this one); "" for no time. */
export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = Object.fromEntries(PARTS.formatToParts(d).map((x) => [x.type, x.value]));
  const year = p.year && Number(p.year) !== new Date().getFullYear() ? ` ${p.year}` : "";
  return `${p.weekday} ${p.day} ${p.month}${year}, ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

/** A span of minutes in words: "45 min", "2 h", "1 h 30 min", "3 days", "1 week". */
export function minutes(n) {
  const m = Math.round(n);
  if (m % 10080 === 0 && m >= 10080) return m === 10080 ? "1 week" : `${m / 10080} weeks`;
  if (m % 1440 === 0 && m >= 1440) return m === 1440 ? "1 day" : `${m / 1440} days`;
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** How often: "every hour", "every day", "every week", "every 2 h", "every 90 min". */
export function every(n) {
  const named = { 60: "every hour", 1440: "every day", 10080: "every week" };
  return named[n] || `every ${minutes(n)}`;
}

/** How far off a time is: "in 5 min", "in 2 h 10 min", "in 3 days", "now", "5 min ago". */
export function relative(iso, now = Date.now()) {
  const diff = Math.round((new Date(iso).getTime() - now) / 60000);
  if (Math.abs(diff) < 1) return "now";
  const span = Math.abs(diff) < 1440 ? minutes(Math.abs(diff)) : minutes(Math.round(Math.abs(diff) / 1440) * 1440);
  return diff > 0 ? `in ${span}` : `${span} ago`;
}

const DAY_AND_TIME = new Intl.DateTimeFormat(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit",
  hourCycle: "h23" });

/** How long until `at`, `seconds` from now, as a countdown says it: over a day, the days and the local
 * day and time ("6 days, Thu 18:00"); over an hour, "3 h 20 min"; under, minutes and seconds ("4:05"). */
export function until(seconds, at = new Date(Date.now() + seconds * 1000)) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) {
    const days = Math.floor(s / 86400);
    const p = Object.fromEntries(DAY_AND_TIME.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
    return `${days} day${days === 1 ? "" : "s"}, ${p.weekday} ${p.hour}:${p.minute}`;
  }
  if (s >= 3600) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const WEEK = 7 * 24 * 3600 * 1000;
let ticking = false;

function draw(node) {
  const iso = node.dataset.time;
  const near = Math.abs(new Date(iso).getTime() - Date.now()) < WEEK;
  const rel = near ? relative(iso) : "";
  const label = node.dataset.label ? `${node.dataset.label} ` : "";
  node.textContent = rel ? `${label}${rel} (${when(iso)})` : `${label}${when(iso)}`;
  node.title = when(iso);
}

/** A time as a span that says both, "closes in 5 min (Thu 26 Nov, 14:05 GMT)", redrawn every 20 s;
 * `label` is said before it ("closes", "opened"). A time more than a week off is said absolutely. */
export function timeSpan(iso, label = "", attrs = {}) {
  const node = document.createElement("span");
  node.className = "time";
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (!iso) return node;
  node.dataset.time = iso;
  if (label) node.dataset.label = label;
  draw(node);
  if (!ticking) {
    ticking = true;
    setInterval(() => document.querySelectorAll("span.time[data-time]").forEach(draw), 20000);
  }
  return node;
}

/** The value of a datetime-local field for a time, in this browser's zone ("2026-11-26T14:05"). */
export function localInput(iso) {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

/** This browser's zone, as said beside a time field ("times in GMT+1"). */
export function zoneName() {
  const p = PARTS.formatToParts(new Date()).find((x) => x.type === "timeZoneName");
  return p ? p.value : "local time";
}
