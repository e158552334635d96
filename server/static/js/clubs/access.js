// Whether the caller organises a club, asked of the server with the organiser's credential (a token
// pasted in this tab, else this device's session: an organiser's account needs no token), and the
// short menu of a club's tools that heads each of its pages.

import { api, organiserToken } from "../lib/api.js";
import { downloadCsv, el } from "../lib/ui.js";

/** The club's invite code if the caller organises it, else null (a visitor, a member, signed out). */
export async function organisedInvite(id) {
  if (!organiserToken()) return null;
  try {
    return (await api.admin("GET", `/api/clubs/${id}/invite`)).invite;
  } catch (err) {
    if (err.status === 401 || err.status === 403 || err.status === 404) return null;
    throw err;
  }
}

/** The tools a tap away. On the club's page `jump(name)` brings one of its parts into view; on the
 * codes and progress pages (no `jump`) the menu leads back to the club's page instead. */
export function clubMenu(id, here, jump = null) {
  const part = (name, label) => (jump
    ? el("button", { class: "btn small", type: "button", "data-action": `menu-${name}`, onclick: () => jump(name) }, label)
    : null);
  const page = (name, label) => el("a", { class: `btn small${here === name ? " current" : ""}`, href: `#/club/${id}/${name}`,
    "data-action": `menu-${name}`, "aria-current": here === name ? "page" : null }, label);
  return el("nav", { class: "club-menu no-print", "aria-label": "Club tools" },
    jump ? null : el("a", { class: "btn small", href: `#/club/${id}`, "data-action": "menu-club" }, "\u2190 Club"),
    part("import", "Import members"),
    page("codes", "Codes"),
    page("progress", "Progress"),
    el("button", { class: "btn small", type: "button", "data-action": "club-results",
      onclick: () => downloadCsv(`/api/clubs/${id}/results.csv`, `club-${id}-results.csv`) }, "Results CSV"),
    part("invite", "Invite link"),
    part("names", "Public names"),
    part("members", "Members"));
}
