// Knockout brackets: create one (name, game, opening, break between rounds, who may join, rated,
// series) as a tournament is created; list the caller's brackets, each with its page, an edit form
// before the opening, cancel, and disqualifying a player (with a reason).

import { api, organiserToken } from "../../lib/api.js";
import { clock, describeSettings, el, explain, notify } from "../../lib/ui.js";
import { localInput, timeSpan } from "../../lib/time.js";
import { accessFields } from "./clubs.js";
import { accessWords, act, check, field, timeField } from "../common.js";
import { normal, settingsFields } from "../live/edit.js";
import { organisedPage } from "../organised.js";
import { loadSeries, seriesField } from "./series.js";
import { bracketStatus, roundCount } from "../../brackets/common.js";

const DEFAULT_SETTINGS = { variant: "spider78", suits: 2, time_limit: 300, free_column: true, undo: true,
  undo_limit: null, reveals_final: false, deal_variation: false, draw_pile_choice: true, draw_pile_tops_up: true };

/** The next quarter hour at least ten minutes away: a bracket opens in the future. */
function soon() {
  const at = new Date(Date.now() + 10 * 60e3);
  at.setMinutes(Math.ceil(at.getMinutes() / 15) * 15, 0, 0);
  return at;
}

const PAGE = 20;

const breakInput = (value, name) => el("input", { type: "number", min: 0, max: 86400, value, "data-field": name,
  name });

/** The panel: {node, show}; show() lists the caller's brackets. */
export function bracketsPanel() {
  loadSeries();
  const list = el("ul", { class: "card-list brackets-list", "data-field": "brackets" });
  const result = el("div", { class: "created", "aria-live": "polite" });
  const access = accessFields("b");
  const series = seriesField("b");
  const game = settingsFields(DEFAULT_SETTINGS, { oneDeal: true });
  const name = el("input", { name: "name", "data-field": "bracket-name", maxlength: 100, required: true,
    placeholder: "Spring cup" });
  const opens = el("input", { type: "datetime-local", "data-field": "bracket-opens", value: localInput(soon()) });
  const pause = breakInput(60, "break_seconds");
  const rated = el("input", { type: "checkbox", "data-field": "bracket-rated", checked: true });
  const form = el("form", { class: "panel bracket-form", "data-form": "bracket" },
    field("Name", name),
    el("div", { class: "grid2" },
      timeField("Opens: seeding and round 1", opens),
      field("Break between rounds (seconds)", pause, "From the last game of a round over to the next round's start.")),
    game.node,
    access.node,
    el("fieldset", { class: "rating-fields" }, el("legend", {}, "Ratings"),
      check(rated, "Rated", "Each pairing's game rates its two players as a head-to-head. Seeding is by rating either way.")),
    series.node,
    el("button", { class: "btn primary", type: "submit", "data-action": "create-bracket" }, "Create the bracket"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { name: name.value.trim(), settings: game.values(), opens_at: new Date(opens.value).toISOString(),
      break_seconds: Number(pause.value), rated: rated.checked, ...access.values(), ...series.values() };
    try {
      const b = await api.admin("POST", "/api/brackets", body);
      notify(`Bracket ${b.id} created`, "ok");
      const url = `${location.origin}/#/bracket/${b.id}`;
      result.replaceChildren(el("div", { class: "panel ok", "data-bracket": b.id },
        el("h2", {}, `Created: ${b.name}`),
        el("p", {}, `Bracket ${b.id}: ${describeSettings(b.settings)}, ${clock(b.settings.time_limit)} a game. `,
          "Players join on its page until the opening."),
        el("p", {}, "Commitment: ", el("code", { "data-field": "commitment" }, b.commitment)),
        b.entry_code ? el("p", {}, `Entry code ${b.entry_code}.`) : null,
        el("div", { class: "copy-line" }, el("span", {}, "Link: "),
          el("input", { readonly: true, value: url, "data-field": "bracket-link", "aria-label": "Link to the bracket" })),
        el("p", { class: "row" }, el("a", { class: "btn primary", href: `#/bracket/${b.id}`, "data-action": "open-bracket" },
          "The bracket's page"))));
      refresh();
    } catch (err) {
      notify(err.detail || err.message, "error", 7000);
      result.replaceChildren(el("p", { class: "error", "data-field": "error" }, err.detail || err.message));
    }
  });

  // The brackets the caller runs (GET /api/me/organised), newest first, a page at a time.
  let offset = 0;
  const more = el("button", { class: "btn small more", type: "button", "data-action": "more", hidden: true }, "More");
  async function page(reset) {
    if (!organiserToken()) return;
    if (reset) offset = 0;
    const got = await organisedPage("bracket", null, offset, PAGE);
    if (!got) return;
    const found = (await Promise.all(got.items.map((i) => api.admin("GET", `/api/brackets/${i.id}`).catch(() => null))))
      .filter(Boolean);
    offset += got.items.length;
    const cards = found.map((b) => bracketCard(b, refresh));
    if (reset) list.replaceChildren(...(cards.length ? cards : [el("li", { class: "muted" }, "No bracket yet.")]));
    else list.append(...cards);
    more.hidden = got.items.length < PAGE;
  }
  const refresh = () => page(true);
  more.addEventListener("click", () => page(false));
  const node = el("section", { class: "manage-brackets", "data-section": "brackets" },
    el("h2", {}, "Knockout brackets"),
    el("p", { class: "muted" }, "Players join until the opening; then they are seeded by rating and play rounds of ",
      "head-to-head games, started together, to one champion."),
    form, result, list, more);
  return { node, show: refresh };
}

/** One bracket: its status, opening, entrants, game and who may join; page, edit, cancel, disqualify. */
function bracketCard(b, refresh) {
  const detail = el("div", { class: "card-detail" });
  const show = (title, node) => detail.replaceChildren(el("h3", {}, title), node);
  const button = (action, label, run, cls = "") =>
    el("button", { class: `btn ${cls}`, type: "button", "data-action": action, onclick: run }, label);
  const actions = [el("a", { class: "btn", href: `#/bracket/${b.id}`, "data-action": "bracket" }, "Page")];
  if (b.status === "scheduled") actions.push(button("edit", "Edit", () => show(`Edit ${b.name}`, editBracket(b, refresh))));
  if (b.status === "scheduled" || b.status === "running") {
    actions.push(button("disqualify", "Disqualify a player", async () => {
      try {
        show(`Disqualify a player of ${b.name}`, await disqualifyForm(b, refresh));
      } catch (err) {
        notify(explain(err), "error");
      }
    }));
    actions.push(button("cancel", "Cancel", async () => {
      if (!window.confirm(`Cancel "${b.name}"? Its games in play end now and nothing more is played.`)) return;
      if (await act(api.admin("POST", `/api/brackets/${b.id}/cancel`), `Bracket ${b.id} cancelled`)) refresh();
    }, "danger"));
  }
  const who = accessWords(b);
  const rounds = roundCount(b);
  const past = new Date(b.opens_at).getTime() <= Date.now();
  return el("li", { class: "card-item bracket-row", "data-bracket-row": b.id },
    el("div", { class: "card-head" }, el("b", { "data-field": "name" }, b.name), el("span", { class: "muted" }, ` #${b.id}`),
      el("span", { class: `badge st-${b.status}`, "data-field": "status" }, bracketStatus(b.status))),
    who ? el("div", { class: "muted small", "data-field": "access" }, who) : null,
    el("p", { class: "card-facts" },
      timeSpan(b.opens_at, past ? "opened" : "opens", { "data-field": "opens" }), " \u00b7 ",
      el("span", { "data-field": "entrants" }, `${b.entrants} entr${b.entrants === 1 ? "y" : "ies"}`),
      rounds ? ` \u00b7 ${rounds} round${rounds === 1 ? "" : "s"}` : "",
      b.champion ? [" \u00b7 champion ", el("b", {}, b.champion.player)] : ""),
    el("p", { class: "muted small", "data-field": "game" },
      `${describeSettings(b.settings)}, ${clock(b.settings.time_limit)} a game, ${b.break_seconds} s between rounds`,
      b.rated ? "" : ", not rated"),
    el("div", { class: "card-actions" }, actions),
    detail);
}

function editBracket(b, refresh) {
  const name = el("input", { value: b.name, maxlength: 100, "data-field": "edit-name" });
  const opens = el("input", { type: "datetime-local", value: localInput(b.opens_at), "data-field": "edit-opens" });
  const pause = breakInput(b.break_seconds, "edit-break");
  const game = settingsFields(b.settings, { oneDeal: true });
  const form = el("form", { class: "panel edit-form", "data-edit-bracket": b.id },
    field("Name", name),
    el("div", { class: "grid2" }, timeField("Opens", opens), field("Break between rounds (seconds)", pause)),
    game.node,
    el("small", { class: "muted" }, "New settings publish a new commitment."),
    el("button", { class: "btn primary", type: "submit", "data-action": "save" }, "Save"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {};
    if (name.value.trim() !== b.name) body.name = name.value.trim();
    if (opens.value !== localInput(b.opens_at)) body.opens_at = new Date(opens.value).toISOString();
    if (Number(pause.value) !== b.break_seconds) body.break_seconds = Number(pause.value);
    const chosen = game.values();
    if (normal(chosen) !== normal(b.settings)) body.settings = chosen;
    if (!Object.keys(body).length) return notify("Nothing changed", "info");
    if (await act(api.admin("PATCH", `/api/brackets/${b.id}`, body), `Bracket ${b.id} saved`)) {
      form.remove();
      refresh();
    }
    return null;
  });
  return form;
}

/** The players still in: once seeded, those of the tree not knocked out; before, those who joined. */
async function disqualifyForm(b, refresh) {
  const out = new Set(b.rounds.flatMap((r) => r.pairings.filter((p) => p.winner !== null)
    .flatMap((p) => p.players.filter((x) => x.player_id !== p.winner).map((x) => x.player_id))));
  const seen = new Map();
  for (const r of b.rounds) for (const p of r.pairings) for (const x of p.players) {
    if (!out.has(x.player_id)) seen.set(x.player_id, x);
  }
  const joined = seen.size ? [] : (await api.admin("GET", `/api/brackets/${b.id}/entries?limit=500`))
    .filter((e) => e.disqualified === null);
  const options = seen.size
    ? [...seen.values()].map((x) => el("option", { value: x.player_id }, `${x.player} (seed ${x.seed})`))
    : joined.map((e) => el("option", { value: e.player_id }, `${e.player} (joined ${e.ordinal})`));
  if (!options.length) return el("p", { class: "muted" }, "Nobody to disqualify: nobody is in the bracket.");
  const who = el("select", { "data-field": "dq-player", "aria-label": "Player" }, options);
  const reason = el("input", { maxlength: 200, "data-field": "reason", placeholder: "reason, shown to everyone",
    "aria-label": "Reason" });
  const go = el("button", { class: "btn danger", type: "button", "data-action": "confirm-disqualify" }, "Disqualify");
  go.addEventListener("click", async () => {
    if (!who.value || !reason.value.trim()) return notify("Choose a player and give a reason", "error");
    const done = await act(api.admin("POST", `/api/brackets/${b.id}/disqualify`,
      { player: Number(who.value), reason: reason.value.trim() }), "Player disqualified");
    if (done) refresh();
    return null;
  });
  return el("div", {},
    el("p", { class: "muted small" }, seen.size
      ? "The player loses its current pairing (its game ends now) and its opponent goes through."
      : "Before the opening: the player is left out of the seeding."),
    el("div", { class: "dq-form" }, who, reason, go));
}
