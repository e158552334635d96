// A bracket's game on the game page (js/pages/game.js): the head names the bracket and the round,
// the way back leads to the bracket, and the panel at the game's end says the winner goes through
// once both games are over, with the way to the bracket (its tree fills there).

import { api, knownEntries } from "../lib/api.js";
import { gameSuits } from "../lib/prefs.js";
import { describeSettings, el } from "../lib/ui.js";
import { bracketLabel } from "./common.js";

/** The bracket and round of an entry of this player's ({bracket_id, round}), or null for any other
 * entry: from the entries this device last fetched, else asked of the server once. */
export async function bracketGameOf(entryId) {
  let found = knownEntries().find((e) => e.id === entryId);
  if (!found) found = (await api.myEntries().catch(() => [])).find((e) => e.id === entryId);
  return found && found.bracket_id ? { bracket_id: found.bracket_id, round: found.round ?? null } : null;
}

/** The bracket's name and round in the game page's head; `settings(s)` hands its settings to the page. */
export async function loadBracketGame(game, { settings, helpBox, title }) {
  title.querySelector("a.back")?.setAttribute("href", `#/bracket/${game.bracket_id}`);
  try {
    const b = await api.bracket(game.bracket_id);
    settings(b.settings);
    helpBox.setSettings(b.settings, "together");
    gameSuits(b.settings.suits);
    const label = bracketLabel(game, b);
    title.querySelector("[data-field=name]").textContent = label;
    title.querySelector("[data-field=rules]").textContent = describeSettings(b.settings);
    document.title = `${label} \u00b7 spidertour`;
  } catch {
    /* the title is a nicety */
  }
}

/** The ways on from a bracket's finished game: the bracket (who goes through, the next round). */
export function bracketLinks(bracketId, close) {
  return el("div", { class: "over-links" },
    el("a", { class: "btn primary", href: `#/bracket/${bracketId}`, "data-action": "bracket" }, "Back to the bracket"),
    el("a", { class: "btn", href: "#/lobby" }, "Lobby"),
    el("button", { class: "btn ghost", "data-action": "see-table", onclick: close }, "See the table"));
}
