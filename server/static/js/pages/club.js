// A club (#/club/<id>): for its organisers, the roster import (a CSV file or a list of names),
// the invite link, co-organisers, members with their codes replaced, the results as CSV; for
// anyone else, its name and organisers. #/club/<id>/codes is the printable code sheet of the
// codes made in this tab (they are shown once: the server keeps only their hashes).

import { adminToken, api, player, rememberClub } from "../lib/api.js";
import { copyText, downloadCsv as download, el, explain, notify, fill } from "../lib/ui.js";

const codesKey = (id) => `spidertour.codes.${id}`;
const sheetOf = (id) => {
  try {
    return JSON.parse(sessionStorage.getItem(codesKey(id))) || [];
  } catch {
    return [];
  }
};

/** New codes (a roster, or a replaced code) join the tab's sheet, newest replacing older ones. */
function addToSheet(id, members) {
  const handles = new Set(members.map((m) => m.handle));
  const kept = sheetOf(id).filter((m) => !handles.has(m.handle));
  sessionStorage.setItem(codesKey(id), JSON.stringify([...kept, ...members]));
}

const signInUrl = () => `${location.origin}/#/account`;

export function mount(main, idText, sub) {
  const id = Number(idText);
  if (sub === "codes") return codeSheet(main, id);
  const page = el("section", { class: "page narrow-page club-page", "data-club": id });
  const error = el("p", { class: "error", "data-field": "error", role: "alert", hidden: true });
  main.append(page);

  function fail(err) {
    error.textContent = explain(err);
    error.hidden = false;
  }

  const act = async (run) => {
    error.hidden = true;
    try {
      return await run();
    } catch (err) {
      fail(err);
      return null;
    }
  };

  function rosterForm() {
    const file = el("input", { type: "file", accept: ".csv,text/csv", "data-field": "roster-file" });
    const names = el("textarea", { "data-field": "roster-names", rows: 6, placeholder: "One name a line:\nAnn\nBo\nCy" });
    const form = el("form", { class: "panel", "data-form": "roster" },
      el("h2", {}, "Import members"),
      el("p", { class: "muted" }, "Each gets an account with a handle and a sign-in code, to print. A CSV file needs a ",
        el("code", {}, "name"), " column, and may have a ", el("code", {}, "handle"), " column."),
      el("label", { class: "field" }, el("span", {}, "A CSV file"), file),
      el("label", { class: "field" }, el("span", {}, "or the names"), names),
      el("button", { class: "btn primary", type: "submit", "data-action": "import" }, "Create the members and their codes"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const picked = file.files && file.files[0];
      const list = names.value.split("\n").map((n) => n.trim()).filter(Boolean);
      if (!picked && !list.length) return fail({ detail: "choose a CSV file or type the names, one a line" });
      const out = await act(async () => (picked
        ? api.admin("POST", `/api/clubs/${id}/roster`, await picked.text(), { type: "text/csv" })
        : api.admin("POST", `/api/clubs/${id}/roster`, { names: list })));
      if (!out) return;
      addToSheet(id, out.members);
      notify(`${out.members.length} members created`, "ok");
      location.hash = `#/club/${id}/codes`;
    });
    return form;
  }

  function invitePanel(invite) {
    const link = el("input", { readonly: true, "data-field": "invite-link", "aria-label": "Invite link" });
    const code = el("code", { "data-field": "invite" });
    const show = (value) => {
      code.textContent = value;
      link.value = `${location.origin}/#/club/${id}/join/${encodeURIComponent(value)}`;
    };
    show(invite);
    return el("div", { class: "panel", "data-panel": "invite" },
      el("h2", {}, "Invite"),
      el("p", {}, "People with an account join with this link. Invite code: ", code),
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

  function organisersForm(club) {
    const who = el("input", { type: "number", min: 1, "data-field": "organiser", placeholder: "organiser number" });
    const list = el("span", { "data-field": "organisers" }, club.organisers.map((o) => `${o.name} (#${o.id})`).join(", "));
    const form = el("form", { class: "panel", "data-form": "organisers" }, el("h2", {}, "Organisers"), el("p", {}, list),
      el("div", { class: "row" }, who, el("button", { class: "btn", type: "submit", "data-action": "add-organiser" },
        "Add a co-organiser")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const out = await act(() => api.admin("POST", `/api/clubs/${id}/organisers`, { organiser: Number(who.value) }));
      if (out) {
        list.textContent = out.organisers.map((o) => `${o.name} (#${o.id})`).join(", ");
        who.value = "";
        notify("Organiser added", "ok");
      }
    });
    return form;
  }

  function membersTable(members, organiser) {
    const rows = members.map((m) => el("tr", { "data-member": m.player_id },
      el("td", {}, m.name), el("td", { "data-field": "handle" }, m.handle ? `@${m.handle}` : "–"),
      // Only the club whose roster made the account gives it a new code.
      organiser ? el("td", { "data-field": "code" }, !m.roster ? "–" : el("button", { class: "btn small", type: "button",
        "data-action": "new-code", onclick: async (e) => {
          const out = await act(() => api.admin("POST", `/api/clubs/${id}/members/${m.player_id}/code`));
          if (!out) return;
          addToSheet(id, [out]);
          e.target.replaceWith(el("code", { "data-field": "new-code" }, out.code), " ",
            el("a", { href: `#/club/${id}/codes` }, "sheet"));
        } }, "New code")) : null));
    return el("div", { class: "table-wrap" }, el("table", { class: "standings members", "data-field": "members" },
      el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Handle"), organiser ? el("th", {}, "Sign-in code") : null)),
      el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: 3 }, "No members yet")))));
  }

  async function load() {
    let club;
    try {
      club = await api.club(id);
    } catch (err) {
      page.replaceChildren(el("h1", {}, "Club"), el("p", { class: "error" }, explain(err)));
      return;
    }
    const head = [el("h1", {}, el("span", { "data-field": "club-name" }, club.name)),
      el("p", { class: "muted" }, el("span", { "data-field": "member-count" }, `${club.members} members`),
        " · organised by ", club.organisers.map((o) => o.name).join(", ") || "the owner"), error];
    let invite = null;
    if (adminToken()) {
      try {
        invite = (await api.admin("GET", `/api/clubs/${id}/invite`)).invite;
      } catch {
        invite = null; // not this organiser's club: the visitor's view
      }
    }
    if (invite === null) {
      let members = null;
      if (player()) members = await api.clubMembers(id).catch(() => null);
      fill(page, ...head, members ? el("h2", {}, "Members") : null, members ? membersTable(members, false) : null);
      return;
    }
    rememberClub(club);
    const members = await api.admin("GET", `/api/clubs/${id}/members`).catch(() => []);
    fill(page, ...head,
      el("p", { class: "row" },
        el("a", { class: "btn", href: `#/club/${id}/codes`, "data-action": "code-sheet" }, "Code sheet"),
        el("button", { class: "btn", type: "button", "data-action": "club-results",
          onclick: () => download(`/api/clubs/${id}/results.csv`, `club-${id}-results.csv`) }, "Download results (CSV)"),
        el("a", { class: "btn ghost", href: "#/organise" }, "Organise")),
      rosterForm(), invitePanel(invite), organisersForm(club),
      el("h2", {}, "Members"), membersTable(members, true));
  }

  page.append(el("h1", {}, "Club"));
  load();
  return null;
}

function codeSheet(main, id) {
  const sheet = sheetOf(id);
  const page = el("section", { class: "page narrow-page code-sheet", "data-club": id });
  main.append(page);
  const title = el("span", { "data-field": "club-name" }, `Club ${id}`);
  api.club(id).then((c) => { title.textContent = c.name; }, () => {});
  const rows = sheet.map((m) => el("tr", { "data-member": m.player_id },
    el("td", {}, m.name), el("td", { "data-field": "handle" }, `@${m.handle}`),
    el("td", {}, el("code", { "data-field": "code" }, m.code))));
  page.append(
    el("h1", {}, title, ": sign-in codes"),
    el("p", { class: "where" }, "Open ", el("b", { "data-field": "sign-in-url" }, signInUrl()),
      ", tick \u201cI have a code\u201d, type your handle and your code."),
    sheet.length
      ? el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Handle"), el("th", {}, "Code"))),
        el("tbody", {}, rows))
      : el("p", { class: "muted" }, "No codes in this tab: codes are shown once, when they are made. ",
        "Import members, or give a member a new code, on the club's page."),
    el("p", { class: "row no-print" },
      el("button", { class: "btn primary", type: "button", "data-action": "print", onclick: () => window.print() }, "Print"),
      el("a", { class: "btn ghost", href: `#/club/${id}` }, "Back to the club")));
  return null;
}
