// A club (#/club/<id>). Its organisers (a token pasted in the tab, or simply signed in with an
// organiser's account) get its tools, each a tap away from the menu at the top: the roster import,
// the codes and slips (#/club/<id>/codes), the class's progress (#/club/<id>/progress), the results
// as CSV, the invite link, whether the public sees pupils' full names, the members. Anyone else
// sees its name and organisers, and a member its members.

import { api, player, rememberClub } from "../lib/api.js";
import { el, explain, fill } from "../lib/ui.js";
import { clubMenu, organisedInvite } from "../clubs/access.js";
import { codesPage } from "../clubs/codes.js";
import { invitePanel, membersTable, namesPanel, organisersForm } from "../clubs/panels.js";
import { progressPage } from "../clubs/progress.js";
import { rosterPanel } from "../clubs/roster.js";

const PARTS = { import: "club-import", invite: "club-invite", names: "club-names", members: "club-members" };

export function mount(main, idText, sub) {
  const id = Number(idText);
  if (sub === "codes") return codesPage(main, id);
  if (sub === "progress") return progressPage(main, id);
  const page = el("section", { class: "page narrow-page club-page", "data-club": id });
  const error = el("p", { class: "error", "data-field": "error", role: "alert", hidden: true });
  main.append(page);

  const act = async (run) => {
    error.hidden = true;
    try {
      return await run();
    } catch (err) {
      error.textContent = explain(err);
      error.hidden = false;
      return null;
    }
  };

  /** A part of the page brought into view, its first field ready. */
  const jump = (name) => {
    const part = document.getElementById(PARTS[name]);
    if (!part) return;
    part.scrollIntoView({ behavior: "smooth", block: "start" });
    const field = part.querySelector("input, textarea, button");
    if (field) field.focus({ preventScroll: true });
  };

  async function load() {
    let club;
    let invite;
    try {
      club = await api.club(id);
      invite = await organisedInvite(id);
    } catch (err) {
      page.replaceChildren(el("h1", {}, "Club"), el("p", { class: "error" }, explain(err)));
      return;
    }
    const head = [el("h1", {}, el("span", { "data-field": "club-name" }, club.name)),
      el("p", { class: "muted" }, el("span", { "data-field": "member-count" }, `${club.members} member${club.members === 1 ? "" : "s"}`),
        " \u00b7 organised by ", club.organisers.map((o) => o.name).join(", ") || "the owner")];
    if (invite === null) {
      const members = player() ? await api.clubMembers(id).catch(() => null) : null;
      fill(page, ...head, error, members ? el("h2", {}, "Members") : null, members ? membersTable(id, members) : null);
      return;
    }
    rememberClub(club);
    const members = await api.admin("GET", `/api/clubs/${id}/members`).catch(() => []);
    fill(page, ...head, clubMenu(id, "club", jump), error,
      rosterPanel(id), invitePanel(id, invite, act), namesPanel(club, act),
      el("section", { id: "club-members", class: "club-members" },
        el("h2", {}, "Members"),
        el("p", { class: "muted" }, "A new code for one pupil here, or ",
          el("a", { href: `#/club/${id}/codes` }, "new codes for several"), ", printed as slips."),
        membersTable(id, members, act)),
      organisersForm(club, act),
      el("p", {}, el("a", { class: "btn ghost", href: "#/organise" }, "Organise tournaments")));
  }

  page.append(el("h1", {}, "Club"));
  load();
  return null;
}
