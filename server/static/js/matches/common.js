// What the Play page, a match's page and the game page share of matches: asking for a seat (a guest
// registered first when this device has no player), the entries known to be matches' seats, and how
// a match, its players and a rating change are said.

import { api, player, setPlayer } from "../lib/api.js";
import { clock, describeSettings, el, showWho, statusName, VARIANT_NAMES } from "../lib/ui.js";
import { changeMark, provisionalMark, ratingNumber } from "../competitions/rating_words.js";

const SEATS_KEY = "spidertour.match-seats"; // {entry_id: match_id} of this device's seats

function seats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY)) || {};
  } catch {
    return {};
  }
}

/** The match an entry of this device seats, if it is known here (else null). */
export const matchOfEntry = (entryId) => seats()[entryId] ?? null;

/** This device's entry in a match, if it is known here (else null). */
export function entryOfMatch(matchId) {
  const found = Object.entries(seats()).find(([, m]) => m === matchId);
  return found ? Number(found[0]) : null;
}

/** Remember the entries of matches (the game page then speaks of the match, not of a tournament). */
export function rememberSeats(list) {
  const known = seats();
  for (const [entryId, matchId] of list) known[entryId] = matchId;
  const kept = Object.entries(known).slice(-200); // the newest two hundred are plenty
  localStorage.setItem(SEATS_KEY, JSON.stringify(Object.fromEntries(kept)));
}

/** The player's matches by the entry ids of their seats (an empty map when the server cannot say):
 * a match's seat is an entry of a tournament no tournament route shows, and pages listing entries
 * show it as the match it is. */
export async function matchesByEntry() {
  if (!player()) return new Map();
  try {
    const found = new Map();
    for (const m of await api.myMatches()) for (const p of m.players) if (p.entry_id) found.set(p.entry_id, m);
    return found;
  } catch {
    return new Map();
  }
}

/** A guest for this device, named `name` (or "Guest 1234"), when it has no player yet. */
export async function ensurePlayer(name) {
  if (player()) return player();
  const wanted = (name || "").trim() || `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
  const made = await api.register(wanted);
  setPlayer({ id: made.id, name: made.name, handle: null, token: made.token });
  showWho();
  return player();
}

/** Ask for a seat in a match of `format`: the game page of the seat's entry is where it goes on. */
const START_KEY = "spidertour.start-seat"; // the seat a Play tap just took: its game starts on arrival

export async function askAndPlay(format, name) {
  await ensurePlayer(name);
  const { match, entry } = await api.askMatch(format);
  rememberSeats([[entry.id, match.id]]);
  try {
    sessionStorage.setItem(START_KEY, String(entry.id));
  } catch {
    // no session storage: the game page asks "Ready?" instead
  }
  location.hash = `#/play/${entry.id}`;
  return match;
}

/** True once for the seat a Play tap has just taken (the tap was the player's "start"): the game
 * page then starts the game as soon as it is connected, with no second tap. */
export function startOnArrival(entryId) {
  try {
    if (sessionStorage.getItem(START_KEY) !== String(entryId)) return false;
    sessionStorage.removeItem(START_KEY);
    return true;
  } catch {
    return false;
  }
}

/** "2 players" / "head to head". */
export const seatsText = (n) => (n === 2 ? "head to head" : `${n} players`);

const MATCH_STATUS = { waiting: "waiting for players", playing: "being played", over: "over", unmatched: "no opponent came" };
export const matchStatus = (s) => MATCH_STATUS[s] || statusName(s);

/** A seat's rating as shown: after the match once rated, else before it ("1,240"). */
export const rating = (p) => ratingNumber(p.shown_after ?? p.shown);

/** "(+32)" / "(−18)": the change of a player's rating by a match (null when unrated). */
export function ratingChange(p) {
  if (p.shown_after === null || p.shown_after === undefined || p.shown === null || p.shown === undefined) return null;
  return changeMark(Number(p.shown_after) - Number(p.shown));
}

/** The "provisional" mark of a seat's rating, when it still is. */
export const provisionalOf = (p) => (p.provisional ? [" ", provisionalMark()] : null);

/** "Spider 78 · 2 suits": the game of a format or a match. */
export const gameTitle = (s) => `${VARIANT_NAMES[s.variant] || s.variant} \u00b7 ${s.suits} suit${s.suits === 1 ? "" : "s"}`;

/** The rest of its rules, after the game: "free column · undo · 5:00". */
export const matchRules = (m) =>
  [...describeSettings(m.settings).split(" \u00b7 ").slice(2), clock(m.settings.time_limit)].join(" \u00b7 ");
