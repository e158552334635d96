// The choices a tournament is made with, for the short form and the recurring one: the common ones
// (game, suits, time limit in minutes, start) in view, the rest (undo, piles, deals, scoring, fair
// play, teams, ratings) for a "More options" fold. `chosen()` says them as the server takes them.

import { VARIANTS } from "../../engine/index.js";
import { el, VARIANT_NAMES } from "../../lib/ui.js";
import { check as checkField, field } from "../common.js";
import { storedLimit } from "../../competitions/rating_words.js";

/** {basic, start, more, chosen()}: `basic` and `more` are lists of nodes, `start` the start select. */
export function gameChoices(prefix = "f") {
  const f = (name, attrs = {}) => el("input", { name, id: `${prefix}-${name}`, ...attrs });
  const check = (name, label, checked, hint) => checkField(f(name, { type: "checkbox", checked }), label, hint);
  const variant = el("select", { name: "variant", id: `${prefix}-variant` },
    Object.keys(VARIANTS).map((v) => el("option", { value: v }, VARIANT_NAMES[v])));
  const suits = el("select", { name: "suits", id: `${prefix}-suits` });
  const timeLimit = f("time_limit", { type: "number", min: 0.1, max: 1440, step: "any", value: 10, required: true });
  const start = el("select", { name: "start", id: `${prefix}-start` },
    el("option", { value: "own" }, "Each when ready"),
    el("option", { value: "together" }, "Everyone together"));
  const scoring = el("select", { name: "scoring", id: `${prefix}-scoring` },
    el("option", { value: "total" }, "Final score"),
    el("option", { value: "matchpoints" }, "Matchpoints"));
  const only78 = [check("draw_pile_choice", "Choose the draw pile", true), check("draw_pile_tops_up", "Show draw-pile tops", true)];
  const basic = [el("div", { class: "grid2" }, field("Game", variant), field("Suits", suits),
    field("Time limit (minutes)", timeLimit), field("Start", start))];
  const more = [
    el("fieldset", { class: "fair-play game-checks" }, el("legend", {}, "Game"),
      el("div", { class: "checks" }, check("free_column", "Free column", true), check("undo", "Undo", true), ...only78),
      el("div", { class: "grid2" },
        field("Undo limit", f("undo_limit", { type: "number", min: 0, placeholder: "none" })),
        field("Deals", f("deals", { type: "number", min: 1, max: 10, value: 1 }),
          "Every entrant plays this many deals, one after another (together: one round each)."),
        field("Scoring", scoring, "Final score: the total of the final scores. Matchpoints: on each deal a point " +
          "for every player beaten, half for a tie."),
        field("Team battle: top N", f("teams_top", { type: "number", min: 1, max: 50, placeholder: "no teams" }),
          "Clubs play as teams, each counting its best N scores."))),
    el("fieldset", { class: "fair-play" }, el("legend", {}, "Fair play"),
      el("p", { class: "muted small" }, "Everyone together: nobody can play the deal before anybody else, so a ",
        "second entry cannot scout it first. Entries close when everyone starts."),
      el("div", { class: "checks" },
        check("reveals_final", "Reveals are final", false,
          "Stops the undo peek: a card once turned face up stays up."),
        check("deal_variation", "Rename the deal per entry", false,
          "Each entry gets the same deal with suits, columns and piles renamed: nothing to read off a neighbour's screen."),
        check("certified", "Certified winnable deal", false,
          "The server's solver plays deals until it wins one, and that one is dealt. One deal only; creating takes a while.")),
      field("Solver seconds a try", f("certify_seconds", { type: "number", min: 0.1, max: 120, step: "any",
        placeholder: "the server's default" }))),
    el("fieldset", { class: "rating-fields" }, el("legend", {}, "Ratings"),
      check("rated", "Rated", true, "Its final standings update the players' ratings of this game."),
      el("div", { class: "grid2" },
        field("Lowest rating", f("rating_min", { type: "number", step: 1, min: 0, max: 5000, placeholder: "none" })),
        field("Highest rating", f("rating_max", { type: "number", step: 1, min: 0, max: 5000, placeholder: "none" }))),
      el("small", { class: "muted" },
        "Ratings as players see them on their profiles: those rated outside these limits in this game may not join (a new player has 1,000).")),
  ];
  // The fields by name, found once: the nodes then move into the caller's form.
  const all = el("div", {}, ...basic, ...more);
  const byId = new Map([...all.querySelectorAll("[id]")].map((n) => [n.id, n]));
  const input = (name) => byId.get(`${prefix}-${name}`);
  const value = (name) => input(name).value.trim();

  function variantChanged() {
    const rules = VARIANTS[variant.value];
    suits.replaceChildren(...rules.suitsAllowed.map((n) => el("option", { value: n, selected: n === rules.defaultSuits }, n)));
    input("free_column").checked = rules.freeDefault;
    only78.forEach((n) => (n.hidden = variant.value !== "spider78"));
  }
  variant.addEventListener("change", variantChanged);
  variantChanged();
  const placed = { basic: [...all.children].slice(0, basic.length), more: [...all.children].slice(basic.length) };

  /** {settings, start, rated, rating_min, rating_max, teams?, certified?, certify_seconds?} */
  function chosen() {
    const settings = {
      variant: variant.value, suits: Number(suits.value), free_column: input("free_column").checked,
      undo: input("undo").checked, undo_limit: value("undo_limit") === "" ? null : Number(value("undo_limit")),
      time_limit: Math.max(1, Math.round(Number(value("time_limit")) * 60)),
      reveals_final: input("reveals_final").checked, deal_variation: input("deal_variation").checked,
    };
    if (Number(value("deals")) > 1) settings.deals = Number(value("deals"));
    if (scoring.value !== "total") settings.scoring = scoring.value;
    if (variant.value === "spider78") {
      settings.draw_pile_choice = input("draw_pile_choice").checked;
      settings.draw_pile_tops_up = input("draw_pile_tops_up").checked;
    }
    const limit = (name) => (value(name) === "" ? null : storedLimit(value(name)));
    const teams = value("teams_top") === "" ? {} : { teams: { top: Number(value("teams_top")) } };
    const certified = input("certified").checked
      ? { certified: true, ...(value("certify_seconds") ? { certify_seconds: Number(value("certify_seconds")) } : {}) }
      : {};
    return { settings, start: start.value, rated: input("rated").checked, rating_min: limit("rating_min"),
      rating_max: limit("rating_max"), ...teams, ...certified };
  }
  return { basic: placed.basic, more: placed.more, start, chosen };
}
