// Organisers (the server's admin token only): make an account an organiser by its handle (its
// sessions then carry the rights), or make one with a token of its own, shown once to hand over;
// list them; revoke one (refused at once, what it made stays).

import { api } from "../../lib/api.js";
import { copyText, el, notify } from "../../lib/ui.js";
import { timeSpan } from "../../lib/time.js";
import { act, field } from "../common.js";

function organiserCard(o, refresh) {
  const revoke = o.revoked_at ? null : el("button", { class: "btn danger", type: "button", "data-action": "revoke-organiser",
    onclick: async () => {
      if (!window.confirm(`Revoke ${o.name}? Its token is refused at once; what it made stays.`)) return;
      if (await act(api.admin("DELETE", `/api/organisers/${o.id}`), `${o.name} revoked`)) refresh();
    } }, "Revoke");
  return el("li", { class: "card-item", "data-organiser": o.id },
    el("div", { class: "card-head" }, el("b", {}, o.name), el("span", { class: "muted" }, ` #${o.id}`),
      o.player_id ? el("span", { class: "muted small" }, " account") : null,
      el("span", { class: "badge", "data-field": "organiser-state" }, o.revoked_at ? "revoked" : "active")),
    el("p", { class: "muted small" }, timeSpan(o.created_at, "made"),
      o.revoked_at ? [" · ", timeSpan(o.revoked_at, "revoked")] : null),
    revoke ? el("div", { class: "card-actions" }, revoke) : null);
}

/** {node, load}: load() lists the organisers (refused quietly for an organiser's own token). */
export function organisersPanel() {
  const list = el("ul", { class: "card-list", "data-field": "organisers" });
  const made = el("div", { "aria-live": "polite" });
  const name = el("input", { id: "o-name", maxlength: 80, required: true, placeholder: "Chess club of Leeds" });
  const form = el("form", { class: "panel" }, field("New organiser", name,
    "It gets a token of its own: it runs its tournaments, clubs and series, and nobody else's."),
  el("button", { class: "btn primary", type: "submit", "data-action": "create-organiser" }, "Make the organiser"));
  const handle = el("input", { id: "o-handle", maxlength: 40, required: true, placeholder: "@ms.rivera",
    autocapitalize: "off", autocomplete: "off" });
  const byHandle = el("form", { class: "panel" }, field("Make this account an organiser", handle,
    "Its handle: it signs in as usual and finds its dashboard here."),
  el("button", { class: "btn primary", type: "submit", "data-action": "make-account-organiser" }, "Make it an organiser"));
  byHandle.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const o = await act(api.admin("POST", "/api/organisers", { handle: handle.value.trim() }));
    if (!o) return;
    notify(`@${handle.value.trim().replace(/^@/, "")} is an organiser: ${o.name}`, "ok");
    handle.value = "";
    load();
  });
  const node = el("section", { class: "organisers", hidden: true },
    el("h2", {}, "Organisers"), el("p", { class: "muted" }, "With the server's admin token only."), byHandle,
    el("details", { class: "token-organiser" }, el("summary", {}, "An organiser with a token (for scripts)"), form),
    made, list);
  async function load() {
    try {
      const all = await api.admin("GET", "/api/organisers");
      node.hidden = false;
      list.replaceChildren(...(all.length ? all.map((o) => organiserCard(o, load)) : [el("li", { class: "muted" }, "None yet.")]));
    } catch {
      node.hidden = true;  // an organiser's token (or none): not the owner's business here
    }
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const o = await act(api.admin("POST", "/api/organisers", { name: name.value.trim() }), "Organiser made");
    if (!o) return;
    name.value = "";
    const token = el("input", { readonly: true, value: o.token, "data-field": "organiser-token", "aria-label": "Its token" });
    made.replaceChildren(el("div", { class: "panel ok" }, el("p", {}, `${o.name}'s token, shown only now: hand it over.`),
      el("div", { class: "dq-form" }, token, el("button", { class: "btn", type: "button", onclick: async (e) => {
        e.target.textContent = (await copyText(o.token)) ? "Copied" : "Select and copy it";
      } }, "Copy"))));
    load();
  });
  return { node, load };
}
