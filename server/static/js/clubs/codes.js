// A club's codes (#/club/<id>/codes): its organisers choose pupils and give them new sign-in codes
// (their old codes stop working, their devices are signed out), then print the codes as slips to cut
// out. The slips are the codes made in this tab (a roster import's too): codes are shown once.

import { api } from "../lib/api.js";
import { confirmDialog, el, explain, fill, notify } from "../lib/ui.js";
import { clubMenu, organisedInvite } from "./access.js";
import { addToSheet, defaultSignIn, latestOf, sheetOf, slipsOf } from "./sheet.js";

const pupils = (n) => `${n} pupil${n === 1 ? "" : "s"}`;

/** Why the server gave no codes, a member at a time by name. */
function refusal(err, byId) {
  const listed = err.extra && Array.isArray(err.extra.members) ? err.extra.members : null;
  if (!listed) return [explain(err)];
  const words = { 404: "is no longer a member of the club", 403: "was not made by this club's roster",
    409: "signs in with a password of their own, so needs no code" };
  return listed.map((x) => `${byId.get(x.player_id)?.name || `Member ${x.player_id}`} ${words[err.status] || x.reason}.`);
}

/** Pupils of the club's roster to tick, and the button that gives them new codes; folded away
 * (`open` false) while the slips made last wait to be printed. */
function chooser(id, members, made, open) {
  const roster = members.filter((m) => m.roster && m.handle);
  const byId = new Map(members.map((m) => [m.player_id, m]));
  const boxes = roster.map((m) => el("input", { type: "checkbox", value: m.player_id, "data-field": "pick" }));
  const all = el("input", { type: "checkbox", "data-field": "pick-all" });
  const go = el("button", { class: "btn primary", type: "button", "data-action": "new-codes", disabled: true }, "New codes");
  const problems = el("ul", { class: "codes-problems error", "data-field": "codes-problems", role: "alert", hidden: true });
  const chosen = () => boxes.filter((b) => b.checked).map((b) => Number(b.value));
  const count = () => {
    const n = chosen().length;
    go.textContent = n ? `New codes for ${pupils(n)}` : "New codes: choose pupils first";
    go.disabled = n === 0;
    all.checked = n > 0 && n === boxes.length;
    all.indeterminate = n > 0 && n < boxes.length;
  };
  all.addEventListener("change", () => {
    boxes.forEach((b) => { b.checked = all.checked; });
    count();
  });
  boxes.forEach((b) => b.addEventListener("change", count));
  count();
  go.addEventListener("click", async () => {
    const ids = chosen();
    const sure = await confirmDialog(`New codes for ${pupils(ids.length)}?`,
      "Their old codes stop working at once, and any device signed in with them is signed out. "
      + "The new codes are shown once, on this page: print them.", "Make new codes");
    if (!sure) return;
    problems.hidden = true;
    go.disabled = true;
    try {
      const sheet = await api.admin("POST", `/api/clubs/${id}/codes`, { members: ids });
      addToSheet(id, sheet.members, sheet.signin_url);
      boxes.forEach((b) => { b.checked = false; });
      notify(`New codes for ${pupils(sheet.members.length)}: print the slips`, "ok");
      made();
    } catch (err) {
      fill(problems, refusal(err, byId).map((text) => el("li", {}, text)));
      problems.hidden = false;
    } finally {
      count();
    }
  });
  const summary = el("summary", { "data-action": "choose-pupils" }, el("h2", {}, "New codes for chosen pupils"));
  if (!roster.length) {
    return el("details", { class: "panel no-print chooser", "data-panel": "choose", open: true }, summary,
      el("p", { class: "muted" }, "No pupils from this club's roster yet: import the class on ",
        el("a", { href: `#/club/${id}` }, "the club's page"), "."));
  }
  return el("details", { class: "panel no-print chooser", "data-panel": "choose", open: open || null }, summary,
    el("p", { class: "muted" }, "For a lost slip or a new term. Only pupils made by this club's roster are listed."),
    el("label", { class: "check-field pick-all" }, all, el("b", {}, `All ${pupils(roster.length)}`)),
    el("ul", { class: "pick-list" }, roster.map((m, i) => el("li", { "data-member": m.player_id },
      el("label", { class: "pick" }, boxes[i], el("span", {}, m.name), el("small", { class: "muted" }, `@${m.handle}`))))),
    problems, el("div", { class: "pick-go" }, go));
}

export function codesPage(main, id) {
  const page = el("section", { class: "page narrow-page code-sheet", "data-club": id });
  const title = el("span", { "data-field": "club-name" }, `Club ${id}`);
  const slipsPart = el("section", { class: "slips-part", "data-panel": "slips" });
  const choosing = el("div", { class: "no-print" });
  let clubName = `Club ${id}`;
  let everything = false;
  main.append(page);
  page.append(el("h1", {}, title, el("span", { class: "no-print" }, ": codes")), clubMenu(id, "codes"), choosing, slipsPart);

  function drawSlips() {
    const sheet = sheetOf(id);
    const shown = everything ? sheet : latestOf(sheet);
    if (!sheet.length) {
      fill(slipsPart, el("p", { class: "muted", "data-field": "no-slips" }, "No codes on this device yet. Codes are shown once, ",
        "when they are made: choose pupils above, or import a class on the club's page."));
      return;
    }
    const url = shown[0].signin_url || defaultSignIn();
    fill(slipsPart,
      el("div", { class: "slips-head" },
        el("h2", {}, `Slips to cut out (${shown.length})`),
        el("p", { class: "once", "data-field": "shown-once" }, el("b", {}, "Codes are shown once. "),
          "Print this sheet now: once this tab is closed, the codes cannot be seen again (new ones can be made)."),
        el("p", { class: "where" }, "Pupils open ", el("b", { "data-field": "sign-in-url" }, url),
          ", tick \u201cI have a code\u201d, and type their handle and code."),
        el("p", { class: "row no-print" },
          el("button", { class: "btn primary", type: "button", "data-action": "print", onclick: () => window.print() }, "Print"),
          sheet.length > shown.length || everything
            ? el("button", { class: "btn", type: "button", "data-action": "all-slips", onclick: () => {
              everything = !everything;
              drawSlips();
            } }, everything ? "Only the latest codes" : `All ${sheet.length} codes made in this tab`)
            : null)),
      slipsOf(clubName, shown));
  }

  async function load() {
    const club = await api.club(id).catch(() => null);
    if (club) {
      clubName = club.name;
      title.textContent = club.name;
    }
    drawSlips();
    try {
      if ((await organisedInvite(id)) === null) return;
      const members = await api.admin("GET", `/api/clubs/${id}/members`);
      fill(choosing, chooser(id, members, () => {
        everything = false;
        drawSlips();
        choosing.querySelector("details").open = false;
        slipsPart.scrollIntoView({ block: "start" });
      }, !sheetOf(id).length));
    } catch (err) {
      fill(choosing, el("p", { class: "error" }, explain(err)));
    }
  }

  load();
  return null;
}
