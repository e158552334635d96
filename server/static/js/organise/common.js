// The organiser's page, small shared pieces: a request that says how it went, labelled fields, the
// zone a time field is in, statuses in words.

import { el, notify } from "../lib/ui.js";
import { zoneName } from "../lib/time.js";

/** The request's answer (null when refused, the reason said); `done` is said when it succeeds. */
export async function act(promise, done) {
  try {
    const out = await promise;
    if (done) notify(done, "ok");
    return out;
  } catch (err) {
    notify(err.detail || err.message, "error", 7000);
    return null;
  }
}

/** A labelled field, with a hint under it. */
export const field = (label, input, hint) => el("label", { class: "field" }, el("span", {}, label), input,
  hint ? el("small", { class: "muted" }, hint) : null);

/** A checkbox with its label (and a hint). */
export const check = (input, label, hint) => el("label", { class: "check-field" }, input, label,
  hint ? el("small", { class: "muted hint" }, hint) : null);

/** "Opens (GMT+1)": the label of a time field, saying which zone its times are in. */
export const zoned = (label) => el("span", {}, label, " ", el("small", { class: "muted", "data-field": "zone" },
  `(${zoneName()})`));

/** A labelled time field whose label says its zone. */
export const timeField = (label, input, hint) => field(zoned(label), input, hint);

/** Who may join a tournament or a schedule's ones, in words ("Class 5B only, code ABCD, unlisted"). */
export const accessWords = (x) => [x.club ? `${x.club.name} only` : null, x.entry_code ? `code ${x.entry_code}` : null,
  x.listed === false ? "unlisted" : null, x.series ? `in series #${x.series}` : null].filter(Boolean).join(", ");
