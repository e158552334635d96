// Who may join, for the short form: anyone, the members of a club of the organiser's, or anyone with
// an entry code; whether it is listed in the lobby waits under "More options".

import { api, knownClubs, rememberClubs } from "../../lib/api.js";
import { el } from "../../lib/ui.js";
import { field } from "../common.js";

/** {node, more, values(), words()}: `more` holds the "listed" box for the fold. */
export function whoMayJoin(prefix = "f") {
  const who = el("select", { id: `${prefix}-who`, "data-field": "who", "aria-label": "Who may join" },
    el("option", { value: "anyone" }, "Anyone"),
    el("option", { value: "club" }, "A club of mine"),
    el("option", { value: "code" }, "Anyone with an entry code"));
  const club = el("select", { id: `${prefix}-club`, "data-field": "club" });
  const code = el("input", { id: `${prefix}-entry_code`, "data-field": "entry-code", minlength: 4, maxlength: 64,
    autocomplete: "off", placeholder: "e.g. MAPLE7" });
  const listed = el("input", { type: "checkbox", id: `${prefix}-listed`, "data-field": "listed", checked: true });
  const noClub = el("p", { class: "muted small", "data-field": "no-club", hidden: true }, "You have no club yet: ",
    el("a", { href: "#/organise/clubs" }, "make one"), " first.");
  const clubField = field("Club", club, "Only its members may join.");
  const codeField = field("Entry code", code, "4 to 64 characters; the join link carries it.");
  let touched = false;
  listed.addEventListener("change", () => { touched = true; });

  const drawClubs = () => {
    const was = club.value;
    club.replaceChildren(...knownClubs().map((c) => el("option", { value: c.id, selected: String(c.id) === was }, c.name)));
  };
  function shown() {
    const w = who.value;
    clubField.hidden = w !== "club";
    codeField.hidden = w === "anyone";
    code.required = w === "code";
    club.required = w === "club";
    codeField.querySelector("span").textContent = w === "club" ? "Entry code (if you want one too)" : "Entry code";
    noClub.hidden = !(w === "club" && !club.options.length);
    if (!touched) listed.checked = w === "anyone" && !code.value.trim();
  }
  who.addEventListener("change", shown);
  code.addEventListener("input", shown);
  drawClubs();
  api.adminPages("/api/clubs").then((clubs) => {
    rememberClubs(clubs);
    drawClubs();
    shown();
  }).catch(() => {});  // offline or refused: the clubs known on this device stay
  shown();

  const node = el("fieldset", { class: "fair-play who-may-join" }, el("legend", {}, "Who may join"),
    el("div", { class: "field" }, who), clubField, noClub, codeField);
  const more = el("label", { class: "check-field listed-field" }, listed, "Listed in the lobby",
    el("small", { class: "muted hint" }, " Unlisted: only its club's members see it there; anyone with its link can join."));
  return {
    node,
    more,
    /** {club, entry_code, listed} for the request: only those that differ from the defaults. */
    values() {
      const out = {};
      if (who.value === "club" && club.value) out.club = Number(club.value);
      if (who.value !== "anyone" && code.value.trim()) out.entry_code = code.value.trim();
      if (listed.checked !== (!out.club && !out.entry_code)) out.listed = listed.checked;
      return out;
    },
    /** "members of Class 5B only", "anyone with the entry code MAPLE7", "anyone may join" (and unlisted). */
    words() {
      const name = club.selectedOptions[0] ? club.selectedOptions[0].textContent : "the club";
      const c = code.value.trim();
      const base = who.value === "club" ? `members of ${name} only${c ? `, with the entry code ${c}` : ""}`
        : who.value === "code" ? `anyone with the entry code ${c}` : "anyone may join";
      const defaultListed = who.value === "anyone" && !c;
      return listed.checked === defaultListed ? base : `${base}, ${listed.checked ? "listed in the lobby" : "unlisted"}`;
    },
  };
}
