// A rating said as people say it (docs/competitions.md, Ratings): one whole number ("rating 1,240"),
// its change by a game ("+32"), and "provisional" while the player has few rated games. The server
// sends the numbers already on this scale; nothing here names the model's statistics.

import { api } from "../lib/api.js";
import { el, number } from "../lib/ui.js";

const known = (x) => x !== null && x !== undefined && Number.isFinite(Number(x));

// The shown scale (server/competitions/rating_scale.py): 1000 + 40 x the stored cautious estimate.
// A tournament's rating limits are stored on the estimate; people type and read them shown.
const BASE = 1000;
const STEP = 40;
/** A stored limit as people read it (1,200 for 5). */
export const shownLimit = (stored) => Math.round(BASE + STEP * Number(stored));
/** A limit typed on the shown scale as the server stores it (5 for 1,200). */
export const storedLimit = (shown) => (Number(shown) - BASE) / STEP;

/** "1,240" (a dash when there is none). */
export const ratingNumber = (x) => (known(x) ? number(Math.round(Number(x))) : "\u2013");

/** "+32" / "−18" / "±0". */
export const changeText = (d) => `${d > 0 ? "+" : d < 0 ? "\u2212" : "\u00b1"}${number(Math.abs(d))}`;

/** The change as a coloured mark: "(+32)"; null when there is none. */
export function changeMark(d) {
  if (!known(d)) return null;
  const n = Math.round(Number(d));
  return el("span", { class: `rating-change ${n > 0 ? "up" : n < 0 ? "down" : "same"}`, "data-field": "rating-change",
    "data-delta": n }, `(${changeText(n)})`);
}

/** The "provisional" mark, with a plain explanation for those who hover or focus it. */
export const provisionalMark = (games = 5) => el("span", { class: "provisional", "data-field": "provisional",
  title: `Provisional: fewer than ${games} rated games in this game, so it may still move a lot.` }, "provisional");

/** "rating 1,240 (+32) provisional": a rating after a game. `after`, `change`, `provisional`. */
export function ratingLine({ after, change, provisional }, label = "rating") {
  return el("span", { class: "rating-line", "data-field": "rating-line", "data-rating": after },
    `${label} `, el("b", { "data-field": "rating-value" }, ratingNumber(after)), " ", changeMark(change),
    provisional ? [" ", provisionalMark()] : null);
}

/** The player's rated games by tournament id: Map(id -> point, with its `game`); empty when unreadable. */
export async function pointsByTournament(playerId) {
  const found = new Map();
  try {
    const { history } = await api.ratingHistory(playerId);
    for (const [game, points] of Object.entries(history)) {
      for (const p of points) if (p.tournament_id !== null) found.set(p.tournament_id, { ...p, game });
    }
  } catch {
    /* no ratings to show: the results stand without them */
  }
  return found;
}
