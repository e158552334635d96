// A new tournament (#/organise/new): the common choices first (name, game, time limit, start, when,
// who may join), the rest under "More options"; a summary in plain words to read before creating;
// then when it starts, the link to share and the way to its live page.

import { api } from "../../lib/api.js";
import { certifiedBadge, clock, describeSettings, el, explain, notify } from "../../lib/ui.js";
import { localInput } from "../../lib/time.js";
import { gameChoices } from "./choices.js";
import { field, timeField } from "../common.js";
import { credentialOrNote, frame } from "../frame.js";
import { loadSeries, seriesField } from "../panels/series.js";
import { shareLine } from "./share.js";
import { startedWords, summaryWords } from "./summary.js";
import { whoMayJoin } from "./who.js";

/** The next quarter hour at least ten minutes away: a together sitting starts in the future. */
function soon() {
  const at = new Date(Date.now() + 10 * 60e3);
  at.setMinutes(Math.ceil(at.getMinutes() / 15) * 15, 0, 0);
  return at;
}

/** What was made: when it starts, its link, its pages; `another()` shows the form again. */
function confirmation(t, another) {
  return el("div", { class: "panel ok created-panel", "data-tournament": t.id },
    el("h2", {}, `Created: ${t.name}`, " ", certifiedBadge(t)),
    el("p", { class: "starts", "data-field": "starts" }, startedWords(t)),
    el("p", { class: "muted", "data-field": "game" }, `${describeSettings(t.settings)}, ${clock(t.settings.time_limit)} a game.`),
    t.club ? el("p", {}, `Members of ${t.club.name} only.`) : null,
    t.teams ? el("p", { "data-field": "teams" }, `Team battle: each club counts its best ${t.teams.top}.`) : null,
    shareLine(t),
    el("p", { class: "row" },
      el("a", { class: "btn primary", href: `#/organise/tournament/${t.id}`, "data-action": "live" }, "Live page"),
      el("a", { class: "btn", href: `#/board/${t.id}`, "data-action": "board" }, "Board"),
      el("button", { class: "btn", type: "button", "data-action": "another", onclick: another }, "Make another"),
      el("a", { class: "btn ghost", href: "#/organise", "data-action": "dashboard" }, "Dashboard")),
    el("p", { class: "muted small commitment" }, "Its deal's commitment, published now: ",
      el("code", { "data-field": "commitment" }, t.commitment)));
}

export function mount(main) {
  const section = frame("New tournament");
  main.append(section);
  if (!credentialOrNote(section)) return;
  loadSeries();
  const f = (name, attrs = {}) => el("input", { name, id: `f-${name}`, ...attrs });
  const name = f("name", { required: true, maxlength: 100, placeholder: "Class 5B, Thursday" });
  const choices = gameChoices("f");
  const who = whoMayJoin("f");
  const series = seriesField("f");
  const opens = f("opens_at", { type: "datetime-local", value: localInput(new Date()), required: true });
  const closes = f("closes_at", { type: "datetime-local", value: localInput(new Date(Date.now() + 3600e3)) });
  const opensField = timeField("Opens", opens);
  const closesField = timeField("Closes", closes, "Entries close then; games under way go on.");
  const seed = f("seed", { maxlength: 256, placeholder: "leave empty: a random one" });
  const form = el("form", { class: "panel organise-form new-tournament" },
    field("Name", name), ...choices.basic, el("div", { class: "grid2" }, opensField, closesField), who.node,
    el("details", { class: "more-options", "data-field": "more-options" }, el("summary", { "data-action": "more-options" },
      "More options: undo, deals, scoring, fair play, teams, ratings, series, seed"),
    ...choices.more, who.more, series.node,
    field("Seed", seed, "Secret until the tournament is finished; only its commitment is published.")),
    el("button", { class: "btn primary big", type: "submit", "data-action": "review" }, "Next: check it"));

  function startChanged() {
    const together = choices.start.value === "together";
    if (together && new Date(opens.value) <= new Date()) opens.value = localInput(soon());
    opensField.querySelector("span span").firstChild.nodeValue = together ? "Everyone starts at" : "Opens";
    closes.disabled = together;
    closesField.hidden = together;
  }
  choices.start.addEventListener("change", startChanged);
  startChanged();

  function body() {
    const out = { name: name.value.trim(), ...choices.chosen(), opens_at: new Date(opens.value).toISOString() };
    if (out.start !== "together") out.closes_at = new Date(closes.value).toISOString();
    if (seed.value.trim()) out.seed = seed.value.trim();
    return Object.assign(out, who.values(), series.values());
  }

  const summary = el("p", { class: "summary", "data-field": "summary" });
  const error = el("p", { class: "error", "data-field": "error", role: "alert", hidden: true });
  const create = el("button", { class: "btn primary big", type: "button", "data-action": "create" }, "Create");
  const change = el("button", { class: "btn", type: "button", "data-action": "change" }, "Change something");
  const review = el("div", { class: "panel review", "data-field": "review", hidden: true },
    el("h2", {}, "Check before creating"), el("p", { class: "review-name" }, el("b", { "data-field": "review-name" })),
    summary, error, el("p", { class: "row" }, create, change));
  const result = el("div", { class: "created", "aria-live": "polite" });
  let pending = null;

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    pending = body();
    review.querySelector("[data-field=review-name]").textContent = pending.name;
    summary.textContent = `${summaryWords(pending, who.words())}.`;
    error.hidden = true;
    form.hidden = true;
    review.hidden = false;
    review.scrollIntoView({ block: "start" });
  });
  change.addEventListener("click", () => {
    review.hidden = true;
    form.hidden = false;
  });
  create.addEventListener("click", async () => {
    create.disabled = true;
    create.textContent = pending.certified ? "Creating: the solver looks for a winnable deal\u2026" : "Creating\u2026";
    try {
      const t = await api.admin("POST", "/api/tournaments", pending);
      review.hidden = true;
      result.replaceChildren(confirmation(t, () => {
        result.replaceChildren();
        name.value = "";
        form.hidden = false;
        name.focus();
      }));
      notify(`Tournament ${t.id} created`, "ok");
      if (t.series) loadSeries();
      result.scrollIntoView({ block: "start" });
    } catch (err) {
      error.textContent = explain(err);
      error.hidden = false;
      notify(explain(err), "error", 7000);
    } finally {
      create.disabled = false;
      create.textContent = "Create";
    }
  });
  section.append(form, review, result);
}
