// Where a group of cards goes best: the destination a double-tap (or double-click) sends it to.
// The engine has no hint helper (it checks moves, it does not suggest them), so the board ranks
// the legal destinations itself, as the solitaire apps players know do:
//   1. a same-suit continuation (the group becomes part of a longer run that can move and complete),
//   2. any other legal build (a card one rank higher, of another suit),
//   3. an empty column, unless the group already is the whole of its column (a move to nowhere).
// The free column (spider78) is never chosen: a win without it earns 100 points, and a double-tap
// should not spend them; a drag or a tap on it still puts cards there.
// Within a rank, the nearest column to the right of the source wins, wrapping round.

import { parseCard } from "../engine/rules.js";

/**
 * The best destination column for the last `count` cards of column `src`, or null if none takes them.
 * fits(src, count, dst): whether the rules let them go there (BoardInput.fits).
 */
export function bestDestination(view, src, count, fits) {
  const columns = view.columns;
  const from = columns[src] || [];
  if (count < 1 || count > from.length) return null;
  const first = parseCard(from[from.length - count]);
  const whole = count === from.length;
  let best = null;
  let bestRank = Infinity;
  for (let step = 1; step < columns.length; step++) {
    const dst = (src + step) % columns.length;
    if (dst === view.free_column || !fits(src, count, dst)) continue;
    const to = columns[dst];
    let rank;
    if (!to.length) {
      if (whole) continue;
      rank = 3;
    } else {
      rank = parseCard(to[to.length - 1]) === first + 1 ? 1 : 2;
    }
    if (rank < bestRank) {
      best = dst;
      bestRank = rank;
    }
  }
  return best;
}
