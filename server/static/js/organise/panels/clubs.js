// Clubs: create a club, see the ones the organiser organises (made here, on another
// device, or by another organiser who added it), each leading to its own page (#/club/<id>).

import { api, knownClubs, organiserToken, rememberClub, rememberClubs } from "../../lib/api.js";
import { el, explain, notify } from "../../lib/ui.js";

/** The organiser's clubs as <option>s (a tournament's or a schedule's `club`). */
export function clubOptions(selected = null) {
  return [el("option", { value: "" }, "Open to everyone"),
    ...knownClubs().map((c) => el("option", { value: c.id, selected: c.id === selected }, `${c.name} (members only)`))];
}

/** Who may join, for the tournament and schedule forms: club, entry code, listed. */
export function accessFields(prefix) {
  const club = el("select", { id: `${prefix}-club`, "data-field": "club" }, clubOptions());
  const code = el("input", { id: `${prefix}-entry_code`, "data-field": "entry-code", minlength: 4, maxlength: 64,
    autocomplete: "off", placeholder: "none: anyone may join" });
  const listed = el("input", { type: "checkbox", id: `${prefix}-listed`, "data-field": "listed", checked: true });
  let touched = false;
  listed.addEventListener("change", () => { touched = true; });
  const follow = () => {
    if (!touched) listed.checked = !club.value && !code.value.trim();
  };
  club.addEventListener("change", follow);
  code.addEventListener("input", follow);
  const field = (label, input, hint) => el("label", { class: "field" }, el("span", {}, label), input,
    hint ? el("small", { class: "muted" }, hint) : null);
  const node = el("fieldset", { class: "fair-play access-fields" }, el("legend", {}, "Who may join"),
    el("div", { class: "grid2" },
      field("Club", club, "Only its members may join."),
      field("Entry code", code, "4 to 64 characters; joining asks for it. Share it with a link.")),
    el("label", { class: "check-field" }, listed, "Listed in the lobby",
      el("small", { class: "muted hint" }, " Unlisted: only its club's members see it; anyone with its link can join.")));
  return {
    node,
    /** {club, entry_code, listed} for the request body: only those that differ from the defaults. */
    values: () => {
      const out = {};
      if (club.value) out.club = Number(club.value);
      if (code.value.trim()) out.entry_code = code.value.trim();
      if (listed.checked !== (!club.value && !code.value.trim())) out.listed = listed.checked;
      return out;
    },
    refresh: () => {
      const was = club.value;
      club.replaceChildren(...clubOptions(was ? Number(was) : null));
    },
  };
}

/** The clubs panel: {node, load}; load() lists the clubs again (after the token changes). */
export function clubsPanel(onChange) {
  const list = el("ul", { class: "club-list", "data-field": "clubs" });
  const name = el("input", { id: "c-name", "data-field": "club-name", maxlength: 80, required: true, placeholder: "Class 5B" });
  const number = el("input", { id: "c-open", type: "number", min: 1, placeholder: "club number" });
  const error = el("p", { class: "error", "data-field": "club-error", role: "alert", hidden: true });

  function draw() {
    const clubs = knownClubs();
    list.replaceChildren(...(clubs.length ? clubs.map((c) => el("li", { "data-club": c.id },
      el("span", {}, el("b", {}, c.name), el("span", { class: "muted" }, ` #${c.id}`)),
      el("a", { class: "btn small", href: `#/club/${c.id}`, "data-action": "open-club" }, "Members, codes, invite")))
      : [el("li", { class: "muted" }, "No club yet.")]));
  }

  const create = el("form", { class: "panel club-form" },
    el("label", { class: "field" }, el("span", {}, "New club"), name),
    el("button", { class: "btn primary", type: "submit", "data-action": "create-club" }, "Create the club"));
  create.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    try {
      const club = await api.admin("POST", "/api/clubs", { name: name.value.trim() });
      rememberClub(club);
      notify(`Club ${club.name} created`, "ok");
      name.value = "";
      draw();
      onChange();
      location.hash = `#/club/${club.id}`;
    } catch (err) {
      error.textContent = explain(err);
      error.hidden = false;
    }
  });
  const open = el("form", { class: "row" }, number,
    el("button", { class: "btn", type: "submit", "data-action": "add-club" }, "Open a club by number"));
  open.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    try {
      const club = await api.club(Number(number.value));
      rememberClub(club);
      draw();
      onChange();
    } catch (err) {
      error.textContent = explain(err);
      error.hidden = false;
    }
  });
  /** The clubs the token of this tab organises, as the server lists them (on any device). */
  function load() {
    if (!organiserToken()) return;
    api.adminPages("/api/clubs").then((clubs) => {
      rememberClubs(clubs);
      draw();
      onChange();
    }).catch(() => {});  // without the list (offline, a wrong token) the clubs known here stay shown
  }
  draw();
  load();
  const node = el("section", { class: "manage-clubs" }, el("h2", {}, "Clubs"),
    el("p", { class: "muted" }, "A class or a club: import its members, print their sign-in codes, share an invite, ",
      "and run tournaments for its members only."),
    create, error, list, open);
  return { node, load };
}
