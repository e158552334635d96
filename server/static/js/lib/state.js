// One word for a tournament's state on every page (the board's badge, the lobby's cards, the join
// page), from its status and how it starts: a sitting that started together is "under way", never
// "open", for it takes no entries once started.

const WORDS = {
  scheduled: "upcoming", open: "open", closing: "entries closed", finished: "finished", cancelled: "cancelled",
};

/** The state of a tournament `t` ({status, start}) in one word or two: upcoming, open, under way,
 * entries closed, finished or cancelled (the words of statusName in lib/ui.js). */
export function tournamentState(t) {
  if (!t) return "";
  if (t.status === "open" && t.start === "together") return "under way";
  return WORDS[t.status] || String(t.status ?? "").replace(/_/g, " ");
}
