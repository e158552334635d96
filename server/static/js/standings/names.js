// A player's name in a standings row, leading to the player's profile (#/player/<id>) where it has
// one anyone may read: a live board's rows carry `player_id` only for a public profile, the final
// standings and a series' table say `profile: false` for a private one (a roster's pupil's, say,
// which would show "no such player" to a watcher): those stay plain names.

import { el } from "../lib/ui.js";

/** The name of row `r` ({player, player_id?}), a link to its profile when it has a public one. */
export function playerName(r, attrs = {}) {
  if (typeof r.player_id !== "number" || r.profile === false) return el("span", { class: "pname", ...attrs }, r.player);
  return el("a", { class: "pname", href: `#/player/${r.player_id}`, "data-action": "profile", ...attrs }, r.player);
}
