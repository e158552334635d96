// A match's seat on the game page (js/pages/game.js): the head names the match, and the panel at the
// game's end leads to the match (waiting for the opponents, then the result) or to another match.

import { api } from "../lib/api.js";
import { gameSuits } from "../lib/prefs.js";
import { describeSettings, el } from "../lib/ui.js";
import { seatsText } from "./common.js";

/** The match's name and rules in the game page's head; `settings(s)` hands its settings to the page. */
export async function loadMatch(matchId, { settings, helpBox, title }) {
  try {
    const m = await api.match(matchId);
    settings(m.settings);
    helpBox.setSettings(m.settings, "own");
    gameSuits(m.settings.suits);
    const name = title.querySelector("[data-field=name]");
    name.textContent = `Match ${m.id}`;
    title.querySelector("[data-field=rules]").textContent = `${describeSettings(m.settings)} \u00b7 ${seatsText(m.seats)}`;
    title.querySelector("a.back")?.setAttribute("href", "#/matches");
    document.title = `Match ${m.id} \u00b7 spidertour`;
  } catch {
    /* the title is a nicety */
  }
}

/** The ways on from a match's finished game: the match (its result once every seat has played), another match. */
export function matchLinks(matchId, close) {
  return el("div", { class: "over-links" },
    el("a", { class: "btn primary", href: `#/match/${matchId}`, "data-action": "match" }, "Follow the match"),
    el("a", { class: "btn", href: "#/matches", "data-action": "play-another" }, "Play another match"),
    el("button", { class: "btn ghost", "data-action": "see-table", onclick: close }, "See the table"));
}
