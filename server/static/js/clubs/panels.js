// The parts of a club's page its organisers use besides the import: the invite link, whether the
// public sees pupils' full names, the co-organisers, and the members (a new code for one).

import { api } from "../lib/api.js";
import { copyText, el, notify } from "../lib/ui.js";
import { addToSheet } from "./sheet.js";

export function invitePanel(id, invite, act) {
  const link = el("input", { readonly: true, "data-field": "invite-link", "aria-label": "Invite link" });
  const code = el("code", { "data-field": "invite" });
  const show = (value) => {
    code.textContent = value;
    link.value = `${location.origin}/#/club/${id}/join/${encodeURIComponent(value)}`;
  };
  show(invite);
  return el("div", { class: "panel", "data-panel": "invite", id: "club-invite" },
    el("h2", {}, "Invite link"),
    el("p", {}, "People who already have an account join with this link. Invite code: ", code),
    el("div", { class: "copy-line" }, link,
      el("button", { class: "btn", type: "button", "data-action": "copy-invite", onclick: async (e) => {
        e.target.textContent = (await copyText(link.value)) ? "Copied" : "Select and copy it";
      } }, "Copy")),
    el("p", {}, el("button", { class: "btn small danger", type: "button", "data-action": "rotate-invite", onclick: async () => {
      const out = await act(() => api.admin("POST", `/api/clubs/${id}/invite`));
      if (out) {
        show(out.invite);
        notify("A new invite: the old link no longer works", "ok");
      }
    } }, "New invite (the old link stops working)")));
}

const NAMES_ON = "Shown in full: anyone, signed in or not, sees your pupils' full names and handles on boards, standings and exports.";
const NAMES_OFF = "Initials only: the public sees \u201cAnn S.\u201d for Ann Smith, and no handle. Your club's members and organisers still see full names.";

/** The club's choice: the public sees its roster's pupils by full name, or by initials (the default). */
export function namesPanel(club, act) {
  const box = el("input", { type: "checkbox", "data-field": "public-names", checked: club.public_names });
  const now = el("p", { class: "names-now", "data-field": "public-names-now", "aria-live": "polite" });
  const say = (on) => {
    now.textContent = on ? NAMES_ON : NAMES_OFF;
    now.classList.toggle("on", on);
  };
  say(club.public_names);
  box.addEventListener("change", async () => {
    const want = box.checked;
    box.disabled = true;
    const out = await act(() => api.admin("PATCH", `/api/clubs/${club.id}`, { public_names: want }));
    box.disabled = false;
    box.checked = out ? out.public_names : !want;
    say(box.checked);
    if (out) notify(out.public_names ? "The public now sees full names" : "The public now sees initials only", "ok");
  });
  return el("div", { class: "panel", "data-panel": "public-names", id: "club-names" },
    el("h2", {}, "Pupils' names in public"),
    el("label", { class: "toggle" }, box,
      el("span", {}, el("b", {}, "Show pupils' full names to the public"),
        el("small", { class: "muted" }, "Off: initials only (\u201cAnn S.\u201d). On: full names and handles."))),
    now);
}

export function organisersForm(club, act) {
  const name = (o) => `${o.name} (#${o.id})`;
  const who = el("input", { type: "number", min: 1, "data-field": "organiser", placeholder: "organiser number",
    "aria-label": "Organiser number" });
  const list = el("span", { "data-field": "organisers" }, club.organisers.map(name).join(", "));
  const form = el("form", { class: "panel", "data-form": "organisers" }, el("h2", {}, "Organisers"), el("p", {}, list),
    el("div", { class: "row" }, who, el("button", { class: "btn", type: "submit", "data-action": "add-organiser" },
      "Add a co-organiser")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = await act(() => api.admin("POST", `/api/clubs/${club.id}/organisers`, { organiser: Number(who.value) }));
    if (out) {
      list.textContent = out.organisers.map(name).join(", ");
      who.value = "";
      notify("Organiser added", "ok");
    }
  });
  return form;
}

/** The members, by name; for the organisers, a new code for one of the club's roster (or codes for
 * several on the codes page). */
export function membersTable(id, members, act = null) {
  const organiser = Boolean(act);
  const rows = members.map((m) => el("tr", { "data-member": m.player_id },
    el("td", { "data-field": "name" }, m.name),
    el("td", { "data-field": "handle" }, m.handle ? `@${m.handle}` : "no handle"),
    // Only the club whose roster made the account gives it a new code.
    organiser ? el("td", { "data-field": "code" }, !m.roster ? el("span", { class: "muted" }, "own account")
      : el("button", { class: "btn small", type: "button", "data-action": "new-code", onclick: async (e) => {
        const out = await act(() => api.admin("POST", `/api/clubs/${id}/members/${m.player_id}/code`));
        if (!out) return;
        addToSheet(id, [out]);
        e.target.replaceWith(el("code", { "data-field": "new-code" }, out.code), " ",
          el("a", { href: `#/club/${id}/codes` }, "slip"));
      } }, "New code")) : null));
  return el("div", { class: "table-wrap" }, el("table", { class: "standings members", "data-field": "members" },
    el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Handle"), organiser ? el("th", {}, "Sign-in code") : null)),
    el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: 3 }, "No members yet")))));
}
