// The organiser's pages, their frame: a page with a way back to the dashboard, its title and, where
// no credential is at hand (no session on this device, no token in this tab), a word on signing in.

import { organiserToken } from "../lib/api.js";
import { el } from "../lib/ui.js";

/** The page's section: a link back to the dashboard (but on the dashboard itself) and its title. */
export function frame(title, { back = true, cls = "" } = {}, ...children) {
  return el("section", { class: `page narrow-page organise-page ${cls}`.trim() },
    back ? el("a", { class: "back-link", href: "#/organise", "data-action": "dashboard" }, "\u2190 Dashboard") : null,
    el("h1", {}, title), ...children);
}

/** A page that needs an organiser: false (and a note to sign in) when nothing signs its requests. */
export function credentialOrNote(section) {
  if (organiserToken()) return true;
  section.append(el("div", { class: "panel", "data-field": "sign-in-first" },
    el("p", {}, "These pages are for organisers: sign in with your account first."),
    el("p", { class: "row" }, el("a", { class: "btn primary", href: "#/account" }, "Sign in"),
      el("a", { class: "btn ghost", href: "#/organise" }, "What organisers do"))));
  return false;
}

/** "12 entries", "1 entry": a count with its noun (`plural` when not simply an added s). */
export const count = (n, one, plural = `${one}s`) => `${n} ${n === 1 ? one : plural}`;
