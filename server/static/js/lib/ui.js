// Small DOM helpers shared by every page: building elements, messages, dialogs, formatting.

import { api, player } from "./api.js";
import { until } from "./time.js";

/** el("div", {class: "x", "data-col": 3, onclick: fn}, "text", child, ...) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const MAX_NOTICES = 3;

/**
 * A short message at the top of the screen (role=alert); `kind` is "error", "ok" or "info". A tap
 * dismisses it; the same message again replaces the one shown, a new error replaces the error shown,
 * and only the newest three stay.
 */
export function notify(message, kind = "info", ms = 4000) {
  const box = document.getElementById("notices");
  for (const old of box.querySelectorAll(".notice")) if (old.dataset.text === String(message)) old.remove();
  if (kind === "error") box.querySelectorAll(".notice.error").forEach((old) => old.remove()); // one error at a time
  const note = el("div", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status", title: "Dismiss",
    "data-text": String(message), onclick: () => note.remove() }, message);
  box.append(note);
  const shown = box.querySelectorAll(".notice");
  for (let i = 0; i < shown.length - MAX_NOTICES; i++) shown[i].remove();
  setTimeout(() => note.classList.add("fade"), ms);
  setTimeout(() => note.remove(), ms + 400);
  return note;
}

/** A modal confirmation; resolves true when the user confirms. */
export function confirmDialog(title, text, confirmLabel, cancelLabel = "Cancel") {
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: "confirm-dialog" },
      el("h2", {}, title), el("p", {}, text),
      el("form", { method: "dialog", class: "dialog-buttons" },
        el("button", { value: "cancel", class: "btn", "data-action": "cancel" }, cancelLabel),
        el("button", { value: "ok", class: "btn danger", "data-action": "confirm" }, confirmLabel)));
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("[data-action=cancel]").focus();
  });
}

/** A score with its thousands marked: "12,345". */
export const number = (n) => Number(n).toLocaleString("en-US");

export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const mm = String(m).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
}

/** A live countdown to `iso` ("starts in 1:23", "in 3 h 20 min", "in 6 days, Thu 18:00"), updated every second while it is on the page;
 * `done` is shown once the time has come. */
export function countdown(iso, label = "starts in", done = "starting\u2026") {
  const target = new Date(iso).getTime();
  const node = el("span", { class: "countdown", "data-field": "countdown" });
  const draw = () => {
    const left = (target - Date.now()) / 1000;
    node.textContent = left > 0 ? `${label} ${until(left, target)}` : done;
    node.dataset.seconds = String(Math.max(0, Math.ceil(left)));
    return left > 0;
  };
  draw();
  let seen = false;
  const timer = setInterval(() => {
    if (node.isConnected) seen = true;
    else if (seen) return clearInterval(timer);
    if (!draw()) clearInterval(timer);
  }, 1000);
  return node;
}

export { when } from "./time.js";

export const VARIANT_NAMES = {
  spider78: "Spider 78",
  spider: "Spider",
  huge_spider: "Huge Spider",
  black_widow: "Black Widow",
  curds_and_whey: "Curds and Whey",
};

/** "Spider 78 · 2 suits · free column · undo · 10:00" */
export function describeSettings(s) {
  const parts = [VARIANT_NAMES[s.variant] || s.variant, `${s.suits} suit${s.suits === 1 ? "" : "s"}`];
  if (s.free_column) parts.push("free column");
  if (!s.undo) parts.push("no undo");
  else if (s.undo_limit !== null && s.undo_limit !== undefined) parts.push(`${s.undo_limit} undos`);
  else parts.push("undo");
  if (s.variant === "spider78") {
    if (!s.draw_pile_choice) parts.push("piles in order");
    if (!s.draw_pile_tops_up) parts.push("pile tops hidden");
  }
  if (s.reveals_final) parts.push("reveals final");
  if (s.deal_variation) parts.push("deal renamed per entry");
  if ((s.deals ?? 1) > 1) parts.push(`${s.deals} deals`);
  if (s.scoring === "matchpoints") parts.push("matchpoints");
  return parts.join(" · ");
}

/** Several deals in one event, in one or two plain sentences (null with one deal scored by total).
 * `live`: said on a board that shows the running totals while the tournament runs. */
export function dealsNote(s, live = false) {
  const deals = s.deals ?? 1;
  if (deals <= 1 && s.scoring !== "matchpoints") return null;
  const parts = [deals > 1 ? `Everyone plays the same ${deals} deals, one after another. ` : ""];
  if (s.scoring === "matchpoints") {
    parts.push("Matchpoints: on each deal you earn a point for every player whose final score you beat and half a ",
      "point for each tie, and the sum ranks, so one lucky deal counts for little.");
    if (live) parts.push(" While it runs the board shows the total so far; the matchpoints are counted at the finish.");
  } else {
    parts.push("The total of the final scores ranks.");
  }
  return el("p", { class: "deals-note muted", "data-field": "deals-note" }, parts.join(""));
}

/** Copy text to the clipboard (falls back to a selected text field where the API is missing). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el("textarea", { class: "offscreen" });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

export const STATUS_NAMES = {
  joined: "joined", playing: "playing", won: "won", ended: "ended", timed_out: "out of time", absent: "absent",
  waiting: "waiting", scheduled: "upcoming", open: "open", running: "under way", closing: "entries closed", finished: "finished",
  cancelled: "cancelled",
};

/** A status in words ("out of time", "entries closed"); one unknown here said with spaces for its underscores. */
export const statusName = (status) => STATUS_NAMES[status] || String(status ?? "").replace(/_/g, " ");

/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st. */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;
}

/** The "certified winnable" badge: the server's solver won this deal before anyone played it. */
export function certifiedBadge(t) {
  if (!t.certified) return null;
  return el("span", { class: "badge certified", "data-field": "certified",
    title: "The server's solver won this deal before the tournament was created: it can be won" },
  "certified winnable");
}

/** The header's link to the account page: "@handle" for an account, the name for a guest. */
export function showWho() {
  const who = document.getElementById("who");
  if (!who) return;
  const me = player();
  who.textContent = me ? (me.handle ? `@${me.handle}` : me.name) : "Sign in";
  who.classList.toggle("signed-out", !me);
}

/** One clear line for a refused request: what went wrong and, for 429, how long to wait. */
export function explain(err) {
  if (err.status === 429) {
    const s = err.retryAfter;
    const wait = !s ? "a while" : s < 90 ? `${s} s` : `${Math.ceil(s / 60)} minutes`;
    return `Too many tries: wait ${wait} and try again.`;
  }
  if (err.status === 401) return err.detail === "unknown player token" ? "You are signed out: sign in again." : err.detail;
  return err.detail || err.message;
}

/** node.replaceChildren, leaving out null, undefined and false (the parts a page may not show). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** A CSV the server answers only with the organiser's token of this tab, saved as a file. */
export async function downloadCsv(path, filename) {
  try {
    const text = await api.admin("GET", path, undefined, { raw: true, accept: "text/csv" });
    const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/csv" })), download: filename });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 5000);
  } catch (err) {
    notify(explain(err), "error", 7000);
  }
}
