// One word for a tournament's state on every page (the board's badge, the lobby's cards, the join
// page, the organiser's pages), from its status and how it starts: a sitting that started together
// is "under way", never "open", for it takes no entries once started. The other words are
// statusName's (lib/ui.js): upcoming, open, entries closed, finished, cancelled.

import { statusName } from "./ui.js";

/** The state of a tournament `t` ({status, start}) in one word or two. */
export function tournamentState(t) {
  if (!t) return "";
  if (t.status === "open" && t.start === "together") return "under way";
  return statusName(t.status);
}
