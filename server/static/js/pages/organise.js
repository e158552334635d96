// The organiser's page (#/organise): create a tournament with the admin token or an organiser's
// token, kept in sessionStorage only (gone when the tab closes); clubs; who may join.

import { adminToken, api, setAdminToken } from "../lib/api.js";
import { VARIANTS } from "../engine/index.js";
import { manage } from "../organise/manage.js";
import { accessFields, clubsPanel } from "../organise/clubs.js";
import { loadSeries, seriesField, seriesPanel } from "../organise/series.js";
import { check as checkField, field, timeField } from "../organise/common.js";
import { organisersPanel } from "../organise/organisers.js";
import { bracketsPanel } from "../organise/brackets.js";
import { localInput } from "../lib/time.js";
import { certifiedBadge, clock, copyText, describeSettings, el, notify, statusName, VARIANT_NAMES } from "../lib/ui.js";

/** The link that joins a tournament, its entry code pre-filled (the organiser shares it). */
function shareLine(t) {
  const url = `${location.origin}/#/join/${t.id}${t.entry_code ? `/${encodeURIComponent(t.entry_code)}` : ""}`;
  const link = el("input", { readonly: true, value: url, "data-field": "join-link", "aria-label": "Link to join" });
  return el("div", { class: "copy-line" }, el("span", {}, t.entry_code ? `Entry code ${t.entry_code}; link: ` : "Link: "),
    link, el("button", { class: "btn small", type: "button", onclick: async (e) => {
      e.target.textContent = (await copyText(url)) ? "Copied" : "Select and copy it";
    } }, "Copy"));
}

export function mount(main) {
  const f = (name, attrs = {}) => el("input", { name, id: `f-${name}`, ...attrs });
  const check = (name, label, checked, hint) => checkField(f(name, { type: "checkbox", checked }), label, hint);
  const now = new Date();
  const token = f("admin", { type: "password", value: adminToken(), autocomplete: "off", required: true });
  const variant = el("select", { name: "variant", id: "f-variant" },
    Object.keys(VARIANTS).map((v) => el("option", { value: v }, VARIANT_NAMES[v])));
  const suits = el("select", { name: "suits", id: "f-suits" });
  const result = el("div", { class: "created", "aria-live": "polite" });
  const access = accessFields("f");
  const series = seriesField("f");
  const start = el("select", { name: "start", id: "f-start" },
    el("option", { value: "own" }, "Each entrant starts when ready"),
    el("option", { value: "together" }, "Everyone starts together at the opening time"));
  const scoring = el("select", { name: "scoring", id: "f-scoring" },
    el("option", { value: "total" }, "Total of the final scores"),
    el("option", { value: "matchpoints" }, "Matchpoints (a point for each player beaten on each deal)"));
  const form = el("form", { class: "panel organise-form" },
    field("Admin or organiser token", token, "The server's admin token, or the token of an organiser it made. " +
      "Kept in this tab only."),
    field("Name", f("name", { required: true, maxlength: 100, placeholder: "Sunday cup" })),
    el("div", { class: "grid2" },
      field("Game", variant), field("Suits", suits),
      field("Time limit (seconds)", f("time_limit", { type: "number", min: 1, max: 86400, value: 600 })),
      field("Undo limit", f("undo_limit", { type: "number", min: 0, placeholder: "none" })),
      field("Team battle: top N", f("teams_top", { type: "number", min: 1, max: 50, placeholder: "no teams" }),
        "Clubs play as teams, each counting its best N scores; players join for one of their clubs."),
      timeField("Opens", f("opens_at", { type: "datetime-local", value: localInput(now) })),
      timeField("Closes", f("closes_at", { type: "datetime-local", value: localInput(new Date(now.getTime() + 3600e3)) })),
      field("Deals", f("deals", { type: "number", min: 1, max: 10, value: 1 }),
        "Every entrant plays this many deals, one after another (together: one round each)."),
      field("Scoring", scoring, "Matchpoints: on each deal a point for every player beaten, half for a tie, " +
        "so one lucky deal counts for little.")),
    el("div", { class: "checks" },
      check("free_column", "Free column", true), check("undo", "Undo", true),
      el("span", { class: "s78" }, check("draw_pile_choice", "Choose the draw pile", true)),
      el("span", { class: "s78" }, check("draw_pile_tops_up", "Show draw-pile tops", true))),
    el("fieldset", { class: "fair-play" }, el("legend", {}, "Fair play"),
      field("Start", start, "Together: nobody can play the deal before anybody else, so a second entry cannot " +
        "scout it first. Entries close at the opening time; the tournament ends one time limit later."),
      el("div", { class: "checks" },
        check("reveals_final", "Reveals are final", false,
          "Stops the undo peek: a card once turned face up stays up, so undo cannot reveal a card for free."),
        check("deal_variation", "Rename the deal per entry", false,
          "Stops reading the deal off another account's screen: each entry gets the same deal with suits, " +
          "columns and piles renamed; scores are unchanged."),
        check("certified", "Certified winnable deal", false,
          "The server's solver plays deals until it wins one, and that one is dealt: nobody plays a deal " +
          "that cannot be won. One deal only; creating takes a while (each try up to the seconds below).")),
      field("Solver seconds a try", f("certify_seconds", { type: "number", min: 0.1, max: 120, step: "any",
        placeholder: "the server's default" }))),
    access.node,
    el("fieldset", { class: "rating-fields" }, el("legend", {}, "Ratings"),
      check("rated", "Rated", true, "Its final standings update the players' ratings of this game."),
      el("div", { class: "grid2" },
        field("Lowest rating", f("rating_min", { type: "number", step: "any", min: -1000, max: 1000, placeholder: "none" })),
        field("Highest rating", f("rating_max", { type: "number", step: "any", min: -1000, max: 1000, placeholder: "none" }))),
      el("small", { class: "muted" }, "Players rated outside these limits in this game may not join (a new player counts as 0).")),
    series.node,
    field("Seed", f("seed", { maxlength: 256, placeholder: "leave empty: a random one" }),
      "Secret until the tournament is finished; only its commitment is published. A short seed is safe: " +
      "the commitment also covers a random 128-bit salt the server keeps secret until then."),
    el("button", { class: "btn primary", type: "submit", "data-action": "create" }, "Create the tournament"));

  function variantChanged() {
    const rules = VARIANTS[variant.value];
    suits.replaceChildren(...rules.suitsAllowed.map((n) => el("option", { value: n, selected: n === rules.defaultSuits }, n)));
    form.querySelector("#f-free_column").checked = rules.freeDefault;
    form.querySelectorAll(".s78").forEach((n) => (n.hidden = variant.value !== "spider78"));
  }
  variant.addEventListener("change", variantChanged);
  variantChanged();
  function startChanged() {
    const closes = form.querySelector("#f-closes_at");
    const opens = form.querySelector("#f-opens_at");
    if (start.value === "together" && new Date(opens.value) <= new Date()) {
      // Together starts in the future: the next quarter hour at least ten minutes away.
      const at = new Date(Date.now() + 10 * 60e3);
      at.setMinutes(Math.ceil(at.getMinutes() / 15) * 15, 0, 0);
      opens.value = localInput(at);
    }
    closes.disabled = start.value === "together";
    closes.title = closes.disabled ? "Closes at the opening time plus the time limit (times the deals)" : "";
  }
  start.addEventListener("change", startChanged);
  startChanged();
  const managed = manage(chosen);
  form.addEventListener("change", () => managed.chosenChanged());
  form.addEventListener("input", () => managed.chosenChanged());
  const clubs = clubsPanel(() => { access.refresh(); managed.refresh(); });
  const seasons = seriesPanel();
  const organisers = organisersPanel();
  const brackets = bracketsPanel();
  if (adminToken()) organisers.load();
  token.addEventListener("change", () => {
    setAdminToken(token.value.trim());
    clubs.load();
    seasons.load();
    organisers.load();
    brackets.show();
  });

  const value = (name) => form.querySelector(`#f-${name}`).value.trim();
  const checked = (name) => form.querySelector(`#f-${name}`).checked;
  /** The game, fair-play and rating settings chosen in the form: {settings, start, rated, rating_min,
   * rating_max} (schedules take them too). */
  function chosen() {
    const settings = {
      variant: variant.value, suits: Number(suits.value), free_column: checked("free_column"), undo: checked("undo"),
      undo_limit: value("undo_limit") === "" ? null : Number(value("undo_limit")), time_limit: Number(value("time_limit")),
      reveals_final: checked("reveals_final"), deal_variation: checked("deal_variation"),
    };
    // Several deals: sent only when not one deal by total (the settings of before).
    if (Number(value("deals")) !== 1) settings.deals = Number(value("deals"));
    if (scoring.value !== "total") settings.scoring = scoring.value;
    if (variant.value === "spider78") {
      settings.draw_pile_choice = checked("draw_pile_choice");
      settings.draw_pile_tops_up = checked("draw_pile_tops_up");
    }
    const limit = (name) => (value(name) === "" ? null : Number(value(name)));
    const teams = value("teams_top") === "" ? {} : { teams: { top: Number(value("teams_top")) } };
    const certified = checked("certified")
      ? { certified: true, ...(value("certify_seconds") ? { certify_seconds: Number(value("certify_seconds")) } : {}) }
      : {};
    return { settings, start: start.value, rated: checked("rated"), rating_min: limit("rating_min"),
      rating_max: limit("rating_max"), ...teams, ...certified };
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: value("name"), ...chosen(), opens_at: new Date(value("opens_at")).toISOString() };
    if (start.value !== "together") body.closes_at = new Date(value("closes_at")).toISOString();
    if (value("seed")) body.seed = value("seed");
    Object.assign(body, access.values(), series.values());
    setAdminToken(token.value.trim());
    try {
      const t = await api.createTournament(body, token.value.trim());
      result.replaceChildren(el("div", { class: "panel ok", "data-tournament": t.id },
        el("h2", {}, `Created: ${t.name}`, " ", certifiedBadge(t)),
        el("p", {}, `Tournament ${t.id}, ${statusName(t.status)}. ${describeSettings(t.settings)}, ${clock(t.settings.time_limit)}.`,
          t.start === "together" ? " Everyone starts together." : ""),
        el("p", {}, "Commitment: ", el("code", { "data-field": "commitment" }, t.commitment)),
        t.club ? el("p", {}, `Members of ${t.club.name} only.`) : null,
        t.teams ? el("p", { "data-field": "teams" }, `Team battle: each club counts its best ${t.teams.top}.`) : null,
        shareLine(t),
        el("p", { class: "row" }, el("a", { class: "btn", href: "#/lobby" }, "Lobby"),
          el("a", { class: "btn ghost", href: `#/board/${t.id}` }, "Leaderboard"))));
      notify(`Tournament ${t.id} created`, "ok");
      if (t.series) loadSeries();
    } catch (err) {
      notify(err.message, "error", 7000);
      result.replaceChildren(el("p", { class: "error", "data-field": "error" }, err.message));
    }
  });

  managed.chosenChanged();
  // A long page on a phone: a row of buttons leads to each part (hash links would change the route).
  const jump = (label, target) => el("button", { class: "btn small ghost", type: "button", "data-jump": label,
    onclick: () => target.scrollIntoView({ behavior: "smooth", block: "start" }) }, label);
  const schedulesNode = managed.node.querySelector(".manage-schedules");
  main.append(el("section", { class: "page narrow-page organise-page" },
    el("h1", {}, "Organise a tournament"),
    el("nav", { class: "jump row", "aria-label": "Parts of this page" }, jump("Tournaments", managed.node),
      schedulesNode ? jump("Recurring", schedulesNode) : null, jump("Brackets", brackets.node), jump("Clubs", clubs.node),
      jump("Series", seasons.node)),
    form, result, clubs.node, seasons.node, managed.node, brackets.node, organisers.node));
  if (adminToken()) {
    managed.show();  // the tournaments this tab's token runs, without a click
    brackets.show();
  }  // the tournaments this tab's token runs, without a click
}
