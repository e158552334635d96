// The organiser's page, editing a tournament before it opens: its name, times, game settings and
// seed. Only what was changed is sent (a time left alone keeps its seconds); the settings go whole
// when any of them changed (the server takes them as one), and a new seed or new settings publish
// a new commitment. A together tournament has no closing time of its own.

import { api } from "../../lib/api.js";
import { VARIANTS } from "../../engine/index.js";
import { el, notify, VARIANT_NAMES } from "../../lib/ui.js";
import { localInput } from "../../lib/time.js";
import { act, check, field, timeField } from "../common.js";

/** The settings fields, filled from `s`: {node, values()}; `oneDeal`: no deals or scoring to choose (a
 * bracket's games). */
export function settingsFields(s, { oneDeal = false } = {}) {
  const variant = el("select", { "data-field": "edit-variant" },
    Object.keys(VARIANTS).map((v) => el("option", { value: v, selected: v === s.variant }, VARIANT_NAMES[v])));
  const suits = el("select", { "data-field": "edit-suits" });
  const num = (name, value, attrs) => el("input", { type: "number", "data-field": `edit-${name}`, value: value ?? "", ...attrs });
  const box = (name, on) => el("input", { type: "checkbox", "data-field": `edit-${name}`, checked: Boolean(on) });
  const timeLimit = num("time_limit", s.time_limit, { min: 1, max: 86400 });
  const undoLimit = num("undo_limit", s.undo_limit, { min: 0, placeholder: "none" });
  const deals = num("deals", s.deals ?? 1, { min: 1, max: 10 });
  const scoring = el("select", { "data-field": "edit-scoring" },
    el("option", { value: "total", selected: s.scoring !== "matchpoints" }, "Total of the final scores"),
    el("option", { value: "matchpoints", selected: s.scoring === "matchpoints" }, "Matchpoints"));
  const boxes = { free_column: box("free_column", s.free_column), undo: box("undo", s.undo),
    reveals_final: box("reveals_final", s.reveals_final), deal_variation: box("deal_variation", s.deal_variation),
    draw_pile_choice: box("draw_pile_choice", s.draw_pile_choice ?? true),
    draw_pile_tops_up: box("draw_pile_tops_up", s.draw_pile_tops_up ?? true) };
  const only78 = [check(boxes.draw_pile_choice, "Choose the draw pile"), check(boxes.draw_pile_tops_up, "Show draw-pile tops")];
  const variantChanged = (first) => {
    const rules = VARIANTS[variant.value];
    const want = first ? s.suits : rules.defaultSuits;
    suits.replaceChildren(...rules.suitsAllowed.map((n) => el("option", { value: n, selected: n === want }, n)));
    if (!first) boxes.free_column.checked = rules.freeDefault;
    only78.forEach((n) => (n.hidden = variant.value !== "spider78"));
  };
  variant.addEventListener("change", () => variantChanged(false));
  variantChanged(true);
  const node = el("fieldset", { class: "fair-play edit-settings" }, el("legend", {}, "Game"),
    el("div", { class: "grid2" }, field("Game", variant), field("Suits", suits),
      field("Time limit (seconds)", timeLimit), field("Undo limit", undoLimit),
      oneDeal ? null : field("Deals", deals), oneDeal ? null : field("Scoring", scoring)),
    el("div", { class: "checks" }, check(boxes.free_column, "Free column"), check(boxes.undo, "Undo"), ...only78,
      check(boxes.reveals_final, "Reveals are final"), check(boxes.deal_variation, "Rename the deal per entry")));
  const values = () => {
    const out = { variant: variant.value, suits: Number(suits.value), free_column: boxes.free_column.checked,
      undo: boxes.undo.checked, undo_limit: undoLimit.value === "" ? null : Number(undoLimit.value),
      time_limit: Number(timeLimit.value), reveals_final: boxes.reveals_final.checked,
      deal_variation: boxes.deal_variation.checked, ...(oneDeal ? {} : { deals: Number(deals.value), scoring: scoring.value }) };
    if (variant.value === "spider78") {
      out.draw_pile_choice = boxes.draw_pile_choice.checked;
      out.draw_pile_tops_up = boxes.draw_pile_tops_up.checked;
    }
    return out;
  };
  return { node, values };
}

/** The settings as the server compares them: its defaults filled in, the piles only for Spider 78. */
export function normal(s) {
  const out = { ...s, deals: s.deals ?? 1, scoring: s.scoring ?? "total", undo_limit: s.undo_limit ?? null };
  if (out.variant !== "spider78") {
    delete out.draw_pile_choice;
    delete out.draw_pile_tops_up;
  }
  return JSON.stringify(Object.keys(out).sort().map((k) => [k, out[k]]));
}

export function editForm(tour, refresh) {
  const together = tour.start === "together";
  const name = el("input", { name: "name", value: tour.name, maxlength: 100, "data-field": "edit-name" });
  const opens = el("input", { type: "datetime-local", value: localInput(tour.opens_at), "data-field": "edit-opens" });
  const closes = el("input", { type: "datetime-local", value: localInput(tour.closes_at), "data-field": "edit-closes" });
  const seed = el("input", { maxlength: 256, "data-field": "edit-seed", autocomplete: "off",
    placeholder: "leave empty: keep the seed" });
  const settings = settingsFields(tour.settings);
  const form = el("form", { class: "panel edit-form", "data-edit": tour.id },
    field("Name", name),
    el("div", { class: "grid2" }, timeField(together ? "Everyone starts at" : "Opens", opens),
      together ? el("p", { class: "muted small", "data-field": "edit-closes-note" },
        "Entries close when everyone starts; it ends one sitting later.")
        : timeField("Closes", closes)),
    settings.node,
    field("New seed", seed, tour.certified
      ? "A certified deal is certified again when the seed or the game changes (the solver may take a while)."
      : "A new seed or new settings publish a new commitment."),
    el("button", { class: "btn primary", type: "submit", "data-action": "save" }, "Save"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {};
    if (name.value.trim() !== tour.name) body.name = name.value.trim();
    if (opens.value !== localInput(tour.opens_at)) body.opens_at = new Date(opens.value).toISOString();
    if (!together && closes.value !== localInput(tour.closes_at)) body.closes_at = new Date(closes.value).toISOString();
    const chosen = settings.values();
    if (normal(chosen) !== normal(tour.settings)) body.settings = chosen;
    if (seed.value.trim()) body.seed = seed.value.trim();
    if (!Object.keys(body).length) return notify("Nothing changed", "info");
    if (await act(api.admin("PATCH", `/api/tournaments/${tour.id}`, body), `Tournament ${tour.id} saved`)) {
      form.remove();
      refresh();
    }
  });
  return form;
}
