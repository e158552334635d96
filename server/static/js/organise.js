// The organiser's page (#/organise): create a tournament with the admin token, which is kept in
// sessionStorage only (gone when the tab closes).

import { adminToken, api, setAdminToken } from "./api.js";
import { VARIANTS } from "./engine.js";
import { manage } from "./organise_manage.js";
import { clock, describeSettings, el, notify, VARIANT_NAMES } from "./ui.js";

function localInput(date) {
  const d = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return d.toISOString().slice(0, 16);
}

export function mount(main) {
  const f = (name, attrs = {}) => el("input", { name, id: `f-${name}`, ...attrs });
  const field = (label, input, hint) => el("label", { class: "field" }, el("span", {}, label), input,
    hint ? el("small", { class: "muted" }, hint) : null);
  const check = (name, label, checked) => el("label", { class: "check-field" },
    f(name, { type: "checkbox", checked }), label);
  const now = new Date();
  const token = f("admin", { type: "password", value: adminToken(), autocomplete: "off", required: true });
  const variant = el("select", { name: "variant", id: "f-variant" },
    Object.keys(VARIANTS).map((v) => el("option", { value: v }, VARIANT_NAMES[v])));
  const suits = el("select", { name: "suits", id: "f-suits" });
  const result = el("div", { class: "created", "aria-live": "polite" });
  const form = el("form", { class: "panel organise-form" },
    field("Admin token", token, "Given to the server at start-up. Kept in this tab only."),
    field("Name", f("name", { required: true, maxlength: 100, placeholder: "Sunday cup" })),
    el("div", { class: "grid2" },
      field("Game", variant), field("Suits", suits),
      field("Time limit (seconds)", f("time_limit", { type: "number", min: 1, max: 86400, value: 600 })),
      field("Undo limit", f("undo_limit", { type: "number", min: 0, placeholder: "none" })),
      field("Opens", f("opens_at", { type: "datetime-local", value: localInput(now) })),
      field("Closes", f("closes_at", { type: "datetime-local", value: localInput(new Date(now.getTime() + 3600e3)) }))),
    el("div", { class: "checks" },
      check("free_column", "Free column", true), check("undo", "Undo", true),
      el("span", { class: "s78" }, check("draw_pile_choice", "Choose the draw pile", true)),
      el("span", { class: "s78" }, check("draw_pile_tops_up", "Show draw-pile tops", true))),
    field("Seed", f("seed", { maxlength: 256, placeholder: "leave empty: a random one" }),
      "Secret until the tournament is finished; only its commitment is published."),
    el("button", { class: "btn primary", type: "submit", "data-action": "create" }, "Create the tournament"));

  function variantChanged() {
    const rules = VARIANTS[variant.value];
    suits.replaceChildren(...rules.suitsAllowed.map((n) => el("option", { value: n, selected: n === rules.defaultSuits }, n)));
    form.querySelector("#f-free_column").checked = rules.freeDefault;
    form.querySelectorAll(".s78").forEach((n) => (n.hidden = variant.value !== "spider78"));
  }
  variant.addEventListener("change", variantChanged);
  variantChanged();
  token.addEventListener("change", () => setAdminToken(token.value.trim()));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = (name) => form.querySelector(`#f-${name}`).value.trim();
    const checked = (name) => form.querySelector(`#f-${name}`).checked;
    const settings = {
      variant: variant.value, suits: Number(suits.value), free_column: checked("free_column"), undo: checked("undo"),
      undo_limit: value("undo_limit") === "" ? null : Number(value("undo_limit")), time_limit: Number(value("time_limit")),
    };
    if (variant.value === "spider78") {
      settings.draw_pile_choice = checked("draw_pile_choice");
      settings.draw_pile_tops_up = checked("draw_pile_tops_up");
    }
    const body = { name: value("name"), settings,
      opens_at: new Date(value("opens_at")).toISOString(), closes_at: new Date(value("closes_at")).toISOString() };
    if (value("seed")) body.seed = value("seed");
    setAdminToken(token.value.trim());
    try {
      const t = await api.createTournament(body, token.value.trim());
      result.replaceChildren(el("div", { class: "panel ok", "data-tournament": t.id },
        el("h2", {}, `Created: ${t.name}`),
        el("p", {}, `Tournament ${t.id}, ${t.status}. ${describeSettings(t.settings)}, ${clock(t.settings.time_limit)}.`),
        el("p", {}, "Commitment: ", el("code", { "data-field": "commitment" }, t.commitment)),
        el("p", { class: "row" }, el("a", { class: "btn", href: "#/lobby" }, "Lobby"),
          el("a", { class: "btn ghost", href: `#/board/${t.id}` }, "Leaderboard"))));
      notify(`Tournament ${t.id} created`, "ok");
    } catch (err) {
      notify(err.message, "error", 7000);
      result.replaceChildren(el("p", { class: "error", "data-field": "error" }, err.message));
    }
  });

  main.append(el("section", { class: "page narrow-page organise-page" },
    el("h1", {}, "Organise a tournament"), form, result, manage()));
}
