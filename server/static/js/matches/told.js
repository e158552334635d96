// A match's news told in the page's title (and, where the player allows, a notification while the
// page is out of view; told/tell.js): the match made (every seat taken), then its result.

import { api, player } from "../lib/api.js";
import { el, ordinal } from "../lib/ui.js";
import { tellResult, tellTitle, notifyPlayer } from "../told/tell.js";

const POLL_SECONDS = 5;

/** The player's place in a finished match, as a title says it: "won", "a draw", "2nd of 3", "joint 2nd of 4". */
export function matchPlace(m) {
  const me = player();
  const seat = m.players.find((p) => me && p.player_id === me.id);
  if (!seat || seat.rank === null || seat.rank === undefined) return null;
  const shared = m.players.some((p) => p !== seat && p.rank === seat.rank);
  if (seat.rank === 1) return shared ? "a draw" : "won";
  return `${shared ? "joint " : ""}${ordinal(seat.rank)} of ${m.players.length}`;
}

/** Tell what changed since `before` (what this returned for the last read on this page; null: the
 * first read, which tells a result already in only in the title). Returns what to pass next time. */
export function tellMatch(m, before) {
  const name = `Match ${m.id}`;
  const place = m.status === "over" ? matchPlace(m) : null;
  const made = m.status !== "over" && m.players.length >= m.seats;
  if (place && before?.status !== "over") {
    const said = place === "won" ? "you won" : place === "a draw" ? "a draw" : `you are ${place}`;
    tellResult(`${place} \u00b7 ${name}`, `${name} is over: ${said}.`, before !== null);
  } else if (made && before && (before.told || before.players.length < m.seats)) {
    tellTitle("Opponent found", name); // and again after each redraw of the page, until the result
    if (!before.told) {
      notifyPlayer(`${name}: opponent found`, "Every seat of your match is taken: the result comes when all have played.",
        "spidertour-match");
    }
    return { status: m.status, players: m.players, told: true };
  }
  return { status: m.status, players: m.players, told: false };
}

/** A match's seat on the game page after its game: the match asked for every POLL_SECONDS while
 * `node` is shown, its news told; once over, `node` says the result. */
export async function watchMatch(matchId, node, before = null) {
  if (!node.isConnected) return;
  let seen = before;
  try {
    const m = await api.match(matchId);
    if (!node.isConnected) return; // redrawn, or another page
    seen = tellMatch(m, before);
    const place = m.status === "over" ? matchPlace(m) : null;
    if (place) {
      node.dataset.result = place;
      node.replaceChildren("The match is over: ", el("b", {}, place === "won" ? "you won" : place === "a draw" ? "a draw"
        : `you are ${place}`), ".");
      return;
    }
    if (m.status === "over" || m.status === "unmatched") return;
  } catch {
    // asked again below
  }
  setTimeout(() => watchMatch(matchId, node, seen), POLL_SECONDS * 1000);
}
