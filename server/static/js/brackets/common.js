// What the bracket page, the lobby, the player's page and the game page share of knockout brackets:
// the player's entries that belong to a bracket (its joining, and each round's game), how a bracket
// and its rounds are named, and where a player stands in one.

import { api, knownEntries, player } from "../lib/api.js";
import { statusName } from "../lib/ui.js";

/** "Round 1", "Quarter-final", "Semi-final", "Final": the name of round `r` of `rounds`. */
export function roundName(r, rounds) {
  if (rounds && r === rounds) return "Final";
  if (rounds && r === rounds - 1) return "Semi-final";
  if (rounds && r === rounds - 2 && rounds >= 4) return "Quarter-final";
  return `Round ${r}`;
}

/** How many rounds a bracket of `size` plays (null before its seeding). */
export const roundCount = (b) => (b.size ? Math.round(Math.log2(b.size)) : null);

const BRACKET_STATUS = { scheduled: "taking entries", running: "under way", finished: "finished", cancelled: "cancelled" };
export const bracketStatus = (s) => BRACKET_STATUS[s] || statusName(s);

/** An entry of the player's in a bracket ("Bracket NAME, round N"; just the name for the entry that joined it). */
export function bracketLabel(entry, b) {
  const name = b ? b.name : `#${entry.bracket_id}`;
  return entry.round ? `Bracket ${name}, round ${entry.round}` : `Bracket ${name}`;
}

/** Whether this device knows the entry to be a bracket's (from the last GET /api/me/entries). */
export function bracketOfEntry(entryId) {
  const found = knownEntries().find((e) => e.id === entryId && e.bracket_id);
  return found ? { bracket_id: found.bracket_id, round: found.round ?? null } : null;
}

/** The brackets of a list of entries, by id (an empty map when the server cannot say). */
export async function bracketsOf(entries) {
  const ids = [...new Set(entries.filter((e) => e.bracket_id).map((e) => e.bracket_id))];
  const found = new Map();
  await Promise.all(ids.map(async (id) => {
    try {
      found.set(id, await api.bracket(id));
    } catch {
      /* named by its number */
    }
  }));
  return found;
}

/** The player's side in a bracket: {round, pairing, side, opponent} of its last pairing, or null. */
export function myPairing(b, playerId = player()?.id) {
  if (!playerId) return null;
  for (const round of [...b.rounds].reverse()) {
    for (const pairing of round.pairings) {
      const side = pairing.players.find((p) => p.player_id === playerId);
      if (side) return { round, pairing, side, opponent: pairing.players.find((p) => p !== side) || null };
    }
  }
  return null;
}
