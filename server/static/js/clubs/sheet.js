// The codes made in this tab, kept for printing (sessionStorage: they are shown once, the server
// keeps only their hashes), and the slips they print as: one a pupil, to cut out and hand over.

import { el } from "../lib/ui.js";

const key = (id) => `spidertour.codes.${id}`;

/** [{player_id, name, handle, code, signin_url}] made in this tab for this club. */
export function sheetOf(id) {
  try {
    return JSON.parse(sessionStorage.getItem(key(id))) || [];
  } catch {
    return [];
  }
}

/** New codes join the tab's sheet as its latest batch, a pupil's newest code replacing an older one. */
export function addToSheet(id, members, signinUrl) {
  const handles = new Set(members.map((m) => m.handle));
  const kept = sheetOf(id).filter((m) => !handles.has(m.handle));
  const batch = Math.max(0, ...kept.map((m) => m.batch || 0)) + 1;
  const url = signinUrl || defaultSignIn();
  const added = members.map((m) => ({ player_id: m.player_id, name: m.name, handle: m.handle, code: m.code, signin_url: url, batch }));
  sessionStorage.setItem(key(id), JSON.stringify([...kept, ...added]));
}

/** The codes made last (one import, one "new codes"): what the teacher prints next. */
export function latestOf(sheet) {
  const batch = Math.max(0, ...sheet.map((m) => m.batch || 0));
  return sheet.filter((m) => (m.batch || 0) === batch);
}

export const clearSheet = (id) => sessionStorage.removeItem(key(id));
export const defaultSignIn = () => `${location.origin}/#/account`;

/** One slip: the club, the pupil's name, @handle and code, and where to sign in. */
function slip(clubName, m) {
  return el("li", { class: "slip", "data-member": m.player_id },
    el("p", { class: "slip-club", "data-field": "slip-club" }, clubName),
    el("p", { class: "slip-name", "data-field": "name" }, m.name),
    el("dl", {},
      el("dt", {}, "Handle"), el("dd", { "data-field": "handle" }, `@${m.handle}`),
      el("dt", {}, "Code"), el("dd", {}, el("code", { "data-field": "code" }, m.code))),
    el("p", { class: "slip-where" }, "Sign in at ",
      el("b", { "data-field": "slip-url" }, m.signin_url || defaultSignIn()),
      ": tick \u201cI have a code\u201d, type the handle and the code."));
}

/** The sheet of slips, in the order the codes were made. */
export function slipsOf(clubName, members) {
  return el("ul", { class: "slips", "data-field": "slips" }, members.map((m) => slip(clubName, m)));
}
